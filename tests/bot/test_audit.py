"""The ledger audit: passes on honest data, catches every kind of tampering."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.audit import audit, main
from bot.storage import Move, Store, escrow_account, house_account, member_account
from engine.pontoon.types import ESCROW, KITTY, Transfer
from tests.storage_backends import tamper

G = 111
ALICE, BOB = 1001, 1002
A, B = str(ALICE), str(BOB)


async def _populate(store: Store) -> None:
    await store.ensure_member(G, ALICE, 1000)
    await store.ensure_member(G, BOB, 1000)
    await store.ensure_member(222, ALICE, 500)
    await store.grant(G, BOB, 50, "prize", by_user_id=9)
    await store.save_table("t1", G, 1, "pontoon", "{}", 1, None, [], "open")
    await store.save_table(
        "t1", G, 1, "pontoon", "{}", 2, None, [Transfer(A, ESCROW, 10, "bet")], "bet"
    )
    await store.save_table("t2", G, 2, "pontoon", "{}", 1, None, [Transfer(B, KITTY, 30, "k")], "o")
    await store.close_table("t2", [Transfer(KITTY, B, 30, "kitty back")])
    await store.apply_transfers([Move(member_account(G, BOB), house_account(G), 40, "lost")])


@pytest.fixture
async def store(store: Store) -> Store:
    """The backend's store (tests/bot/conftest.py) with a little of everything in it."""
    await _populate(store)
    return store


async def test_honest_ledger_passes_with_totals(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()
    assert report.problems == []
    g = report.guilds[G]
    assert (g.members, g.member_chips, g.escrow, g.kitty, g.house, g.granted) == (
        2,
        2050 - 10 - 40,
        10,
        0,
        40,
        2050,
    )
    assert report.guilds[222].granted == 500
    assert report.total_chips == report.total_granted == 2550
    assert (report.open_tables, report.closed_tables) == (1, 1)
    text = report.summary()
    assert text.startswith("Ledger audit: OK")
    assert "server 111" in text and "granted 2,050" in text


async def test_balance_changed_behind_the_ledgers_back(store: Store) -> None:
    await tamper(store, "UPDATE accounts SET balance = balance + 500 WHERE id = 'member:111:1001'")
    report = await audit(store)
    assert not report.ok
    assert any("member:111:1001" in p and "+500" in p for p in report.problems)
    assert any(p.startswith("server 111") for p in report.problems)
    assert "PROBLEM" in report.summary()


async def test_chips_shifted_between_accounts_keep_the_total_but_are_caught(store: Store) -> None:
    await tamper(
        store,
        "UPDATE accounts SET balance = balance - 100 WHERE id = 'member:111:1002'",
        "UPDATE accounts SET balance = balance + 100 WHERE id = 'member:111:1001'",
    )
    report = await audit(store)
    assert not any(p.startswith("server") for p in report.problems)  # totals still match
    assert sorted(p.split(":")[2].split()[0] for p in report.problems) == ["1001", "1002"]


async def test_ledger_row_without_balance_update(store: Store) -> None:
    await tamper(
        store,
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) VALUES "
        "('x', 111, 'grant', NULL, 'member:111:1001', 7, 'forged')",
    )
    report = await audit(store)
    assert any("member:111:1001" in p and "-7" in p for p in report.problems)
    assert any(p.startswith("server 111") for p in report.problems)


async def test_negative_member_and_chips_left_on_a_closed_table(store: Store) -> None:
    await tamper(
        store,
        "UPDATE accounts SET balance = -5 WHERE id = 'member:111:1002'",
        "UPDATE accounts SET balance = 3 WHERE id = 'kitty:t2'",
    )
    report = await audit(store)
    assert any("negative balance" in p and "1002" in p for p in report.problems)
    assert any("kitty:t2" in p and "closed" in p for p in report.problems)


async def test_malformed_rows_are_reported(store: Store) -> None:
    await tamper(
        store,
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) VALUES "
        "('x', 111, 'transfer', 'member:222:1001', 'member:111:1001', 1, 'cross')",
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) VALUES "
        "('x', 111, 'grant', NULL, 'house:111', 1, 'grant to the house')",
    )
    report = await audit(store)
    assert any("between servers" in p for p in report.problems)
    assert any("not a member's" in p for p in report.problems)


async def test_escrow_balance_is_checked_against_its_table(store: Store) -> None:
    assert await store.balance(escrow_account("t1")) == 10
    await tamper(store, "UPDATE game_tables SET status = 'closed' WHERE id = 't1'")
    report = await audit(store)
    assert any("escrow:t1" in p and "closed" in p for p in report.problems)


# ------------------------------------------------------------------------ CLI
def _make_db(path: Path) -> None:
    async def go() -> None:
        s = await Store.open(path)
        await _populate(s)
        await s.close()

    asyncio.run(go())


def test_cli_ok_then_tampered_then_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bank.sqlite3"
    _make_db(db)
    assert main(["audit", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Ledger audit: OK" in out and str(db) in out

    with sqlite3.connect(db) as con:
        con.execute("UPDATE accounts SET balance = balance + 1 WHERE id = 'member:111:1001'")
    assert main(["--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM" in out and "member:111:1001" in out

    missing = tmp_path / "nope.sqlite3"
    assert main(["audit", "--db", str(missing)]) == 2
    assert "No database" in capsys.readouterr().err
    assert not missing.exists()  # the audit never creates a database


def test_cli_refuses_an_unmigrated_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.sqlite3"
    sqlite3.connect(db).close()
    assert main(["audit", "--db", str(db)]) == 2
    assert "schema" in capsys.readouterr().err


async def test_an_erasure_keeps_every_total(store: Store) -> None:
    before = await audit(store)
    bob = await store.member_balance(G, BOB)
    assert not (await store.forget_member(BOB)).refused
    report = await audit(store)
    assert report.ok, report.summary()
    g, was = report.guilds[G], before.guilds[G]
    assert (g.members, g.anonymised) == (1, 1)
    assert g.house == was.house + bob and g.member_chips == was.member_chips - bob
    assert (g.total, g.granted) == (was.total, was.granted)
    assert report.transfers == before.transfers + 1


async def test_chips_on_an_erased_members_account_are_caught(store: Store) -> None:
    assert not (await store.forget_member(BOB)).refused
    await tamper(
        store,
        "UPDATE accounts SET balance = 7 WHERE kind = 'anon'",
        "UPDATE accounts SET balance = balance - 7 WHERE id = 'house:111'",
    )
    report = await audit(store)
    assert any("anonymous account holds 7 chips" in p for p in report.problems), report.problems
