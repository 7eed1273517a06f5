"""Issue 10 item 6: the audit sees who owns what, not only totals.

Tampering that keeps every total and every account's own ledger consistent - a payout
sent to the wrong member, a stake recorded as another member's - must still fail the
audit: every open table's stakes per seat are held against that member's escrow entries
in the ledger, and every seat's chips in the saved game against the member's ledger
balance.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.audit import audit
from bot.baccarat import BaccaratService, BaccaratTimers
from bot.service import LiveTable, TableService, Timers
from bot.storage import Store, escrow_account, member_account
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from engine.punto_banco import PuntoBancoRules, Side

G = 1
ANN, BOB, CAT, DAN = 100, 200, 300, 400


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "own.sqlite3")
    yield s
    await s.close()


def redirect(path: Path, transfer_id: int, new_dst: str) -> None:
    """Send a recorded transfer to another account, fixing up both cached balances so
    each account still agrees with its own ledger rows and the totals still add up."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        old_dst, amount = con.execute(
            "SELECT dst, amount FROM transfers WHERE id = ?", (transfer_id,)
        ).fetchone()
        con.execute("DROP TRIGGER transfers_no_update")
        con.execute("UPDATE transfers SET dst = ? WHERE id = ?", (new_dst, transfer_id))
        con.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", (amount, old_dst))
        con.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, new_dst))
    finally:
        con.close()


def resource(path: Path, transfer_id: int, new_src: str) -> None:
    """Record a transfer as coming from another account (balances fixed up likewise)."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        old_src, amount = con.execute(
            "SELECT src, amount FROM transfers WHERE id = ?", (transfer_id,)
        ).fetchone()
        con.execute("DROP TRIGGER transfers_no_update")
        con.execute("UPDATE transfers SET src = ? WHERE id = ?", (new_src, transfer_id))
        con.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, old_src))
        con.execute("UPDATE accounts SET balance = balance - ? WHERE id = ?", (amount, new_src))
    finally:
        con.close()


def last_transfer(path: Path, where: str, params: tuple[object, ...]) -> int:
    con = sqlite3.connect(path)
    try:
        row = con.execute(
            f"SELECT id FROM transfers WHERE {where} ORDER BY id DESC LIMIT 1", params
        ).fetchone()
    finally:
        con.close()
    assert row is not None, where
    return int(row[0])


def dealer(live: LiveTable) -> int:
    banker = live.engine.banker
    return int(banker) if banker is not None and banker.isdigit() else ANN


async def play_a_round(svc: TableService, live: LiveTable) -> None:
    await svc.deal(live.table_id, dealer(live))
    for _ in range(200):
        eng = live.engine
        if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
            return
        seat = eng.to_act()[0]
        kinds = {la.kind: la for la in eng.legal_actions(seat)}
        for kind in (ActionKind.BET, ActionKind.NO_DOUBLE, ActionKind.DECLARE, ActionKind.STICK):
            if kind in kinds:
                amount = kinds[kind].min_amount if kind is ActionKind.BET else None
                await svc.act(live.table_id, int(seat), kind, amount=amount)
                break
        else:
            await svc.act(live.table_id, int(seat), ActionKind.TWIST)
    raise AssertionError("the round did not finish")


async def seated_table(store: Store) -> tuple[TableService, LiveTable]:
    svc = TableService(store, chance=RandomChance(random.Random(4)), timers=Timers(600, 600, 600))
    live = await svc.open_table(G, 10, ANN, PontoonRules())
    for uid in (BOB, CAT):
        await svc.act(live.table_id, uid, ActionKind.JOIN)
    await store.ensure_member(G, DAN)  # a member of the server who is not at the table
    return svc, live


async def test_payout_sent_to_the_wrong_member_fails_the_audit(store: Store) -> None:
    svc, live = await seated_table(store)
    await play_a_round(svc, live)
    assert (await audit(store)).ok
    payout = last_transfer(
        store.path, "dst LIKE 'member:%' AND src IS NOT NULL AND table_id = ?", (live.table_id,)
    )
    redirect(store.path, payout, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    # the totals and each account's own rows still add up: only ownership is wrong
    assert all("stored balance" not in p and "granted" not in p for p in report.problems)
    assert any("ledger" in p and "seat" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_stake_recorded_as_another_members_fails_the_audit(store: Store) -> None:
    svc, live = await seated_table(store)
    await svc.deal(live.table_id, ANN)
    bettor = int(live.engine.to_act()[0])
    await svc.act(live.table_id, bettor, ActionKind.BET, amount=5)
    assert (await audit(store)).ok
    stake = last_transfer(store.path, "dst = ?", (escrow_account(live.table_id),))
    resource(store.path, stake, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    assert any(str(bettor) in p and "escrow" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_punto_banco_bet_owned_by_someone_else_fails_the_audit(store: Store) -> None:
    svc = BaccaratService(
        store,
        chance=RandomChance(random.Random(1)),
        timers=BaccaratTimers(betting_seconds=600),
        run_timers=False,
    )
    live = await svc.open_table(G, 20, ANN, PuntoBancoRules())
    await svc.bet(live.table_id, BOB, Side.PUNTO, 30)
    await svc.bet(live.table_id, CAT, Side.BANCO, 40)
    await store.ensure_member(G, DAN)
    assert (await audit(store)).ok
    bet = last_transfer(store.path, "dst = ?", (escrow_account(live.table_id),))
    resource(store.path, bet, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    assert any(str(CAT) in p and "escrow" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_honest_play_passes(store: Store) -> None:
    svc, live = await seated_table(store)
    for _ in range(3):
        await play_a_round(svc, live)
        assert (await audit(store)).ok
    await svc.deal(live.table_id, dealer(live))
    while live.engine.phase is Phase.BETTING and live.engine.to_act():
        await svc.act(live.table_id, int(live.engine.to_act()[0]), ActionKind.BET, amount=3)
    report = await audit(store)
    assert report.ok, report.summary()
    await svc.close(live.table_id, "ended")
    assert (await audit(store)).ok
    await svc.shutdown()


async def test_chips_in_play_rows_must_match_the_tables(store: Store) -> None:
    svc, live = await seated_table(store)
    assert (await audit(store)).ok
    con = sqlite3.connect(store.path, isolation_level=None)
    try:
        con.execute("DELETE FROM chips_in_play WHERE user_id = ?", (BOB,))
        con.execute(
            "INSERT INTO chips_in_play (guild_id, user_id, table_id) VALUES (?, ?, ?)",
            (G, DAN, live.table_id),
        )
    finally:
        con.close()
    report = await audit(store)
    assert not report.ok
    text = report.summary()
    assert f"member {BOB} has chips in play there but no chips_in_play row" in text
    assert f"a chips_in_play row for member {DAN}" in text
    await svc.shutdown()
