"""Table snapshots: one transaction with the ledger, optimistic versions, closing."""

from __future__ import annotations

import json

import pytest

from bot.audit import audit
from bot.storage import (
    InsufficientChips,
    StaleVersion,
    Store,
    TableAlreadyOpen,
    TableClosed,
    TableNotEmpty,
    TableNotFound,
    escrow_account,
    house_account,
    kitty_account,
    member_account,
)
from engine.pontoon.types import ESCROW, HOUSE, KITTY, Transfer
from tests.storage_backends import raw_sql

G = 111
CH = 555
ALICE, BOB = 1001, 1002
A, B = str(ALICE), str(BOB)


@pytest.fixture
async def store(store: Store) -> Store:
    """The backend's store (tests/bot/conftest.py) with two members of 100 chips."""
    await store.ensure_member(G, ALICE, 100)
    await store.ensure_member(G, BOB, 100)
    return store


async def _open(store: Store, table_id: str = "t1", channel: int = CH) -> None:
    await store.save_table(table_id, G, channel, "pontoon", '{"v": 1}', 1, None, [], "open")


async def _count(store: Store, sql: str) -> int:
    return int((await raw_sql(store, sql))[0][0])


async def test_save_table_writes_state_ledger_and_log_together(store: Store) -> None:
    await _open(store)
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        json.dumps({"v": 2}),
        2,
        777,
        [Transfer(A, ESCROW, 10, "bet"), Transfer(B, ESCROW, 5, "bet")],
        f"{A} bet",
    )
    rec = await store.get_table("t1")
    assert rec is not None
    assert (rec.version, json.loads(rec.state_json), rec.message_id, rec.status) == (
        2,
        {"v": 2},
        777,
        "open",
    )
    assert rec.guild_id == G and rec.channel_id == CH and rec.game == "pontoon" and rec.is_open
    bal = await store.balances([member_account(G, ALICE), member_account(G, BOB)])
    assert bal == {member_account(G, ALICE): 90, member_account(G, BOB): 95}
    assert await store.balance(escrow_account("t1")) == 15
    assert [(e.version, e.description) for e in await store.table_log("t1")] == [
        (1, "open"),
        (2, f"{A} bet"),
    ]
    assert await _count(store, "SELECT COUNT(*) FROM transfers WHERE table_id = 't1'") == 2
    assert (await audit(store)).ok


async def test_stale_version_changes_nothing(store: Store) -> None:
    await _open(store)
    for version in (1, 3, 0):
        with pytest.raises(StaleVersion) as info:
            await store.save_table(
                "t1", G, CH, "pontoon", "{}", version, None, [Transfer(A, ESCROW, 10, "bet")], "x"
            )
        assert info.value.found == 1
    rec = await store.get_table("t1")
    assert rec is not None and rec.version == 1 and rec.state_json == '{"v": 1}'
    assert await store.balance(member_account(G, ALICE)) == 100
    assert len(await store.table_log("t1")) == 1


async def test_insufficient_chips_keeps_the_old_snapshot(store: Store) -> None:
    await _open(store)
    with pytest.raises(InsufficientChips):
        await store.save_table(
            "t1", G, CH, "pontoon", "{}", 2, None, [Transfer(A, ESCROW, 101, "bet")], "bet"
        )
    rec = await store.get_table("t1")
    assert rec is not None and rec.version == 1 and rec.state_json == '{"v": 1}'
    assert await store.balance(member_account(G, ALICE)) == 100
    assert len(await store.table_log("t1")) == 1


async def test_a_new_table_that_cannot_pay_is_not_created(store: Store) -> None:
    with pytest.raises(InsufficientChips):
        await store.save_table(
            "t2", G, CH, "pontoon", "{}", 1, None, [Transfer(A, KITTY, 500, "kitty")], "open"
        )
    assert await store.get_table("t2") is None
    assert await store.table_for_channel(CH) is None


async def test_one_open_table_per_channel(store: Store) -> None:
    await _open(store, "t1")
    with pytest.raises(TableAlreadyOpen):
        await _open(store, "t2")
    await store.close_table("t1", [])
    await _open(store, "t2")
    rec = await store.table_for_channel(CH)
    assert rec is not None and rec.table_id == "t2"


async def test_load_open_tables_and_message_id(store: Store) -> None:
    await _open(store, "t1", 1)
    await _open(store, "t2", 2)
    await _open(store, "t3", 3)
    await store.close_table("t2")
    await store.set_table_message("t3", 4242)
    tables = await store.load_open_tables()
    assert [t.table_id for t in tables] == ["t1", "t3"]
    assert tables[1].message_id == 4242 and tables[1].version == 1  # no version bump
    with pytest.raises(TableNotFound):
        await store.set_table_message("nope", 1)
    assert await store.get_table("nope") is None
    closed = await store.get_table("t2")
    assert closed is not None and closed.status == "closed" and closed.closed_at is not None


async def test_close_table_refunds_and_refuses_leftovers(store: Store) -> None:
    await _open(store)
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        "{}",
        2,
        None,
        [Transfer(A, ESCROW, 10, "bet"), Transfer(B, KITTY, 20, "kitty")],
        "bets",
    )
    # Refunding only part of it is refused, nothing changes.
    with pytest.raises(TableNotEmpty) as info:
        await store.close_table("t1", [Transfer(ESCROW, A, 10, "refund")])
    assert info.value.account == kitty_account("t1") and info.value.balance == 20
    assert await store.balance(escrow_account("t1")) == 10
    rec = await store.get_table("t1")
    assert rec is not None and rec.is_open
    await store.close_table(
        "t1", [Transfer(ESCROW, A, 10, "refund"), Transfer(KITTY, B, 20, "kitty back")]
    )
    assert await store.balances([member_account(G, ALICE), member_account(G, BOB)]) == {
        member_account(G, ALICE): 100,
        member_account(G, BOB): 100,
    }
    assert await store.table_for_channel(CH) is None
    with pytest.raises(TableClosed):
        await store.close_table("t1", [])
    with pytest.raises(TableClosed):
        await store.save_table("t1", G, CH, "pontoon", "{}", 3, None, [], "late")
    with pytest.raises(TableNotFound):
        await store.close_table("nope", [])
    report = await audit(store)
    assert report.ok, report.summary()
    assert report.closed_tables == 1


async def test_house_banked_settlement_through_the_engine_names(store: Store) -> None:
    await _open(store)
    await store.save_table(
        "t1", G, CH, "pontoon", "{}", 2, None, [Transfer(A, ESCROW, 10, "bet")], "bet"
    )
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        "{}",
        3,
        None,
        [Transfer(ESCROW, A, 10, "stake back"), Transfer(HOUSE, A, 20, "pontoon pays double")],
        "settle",
    )
    assert await store.balance(member_account(G, ALICE)) == 120
    assert await store.balance(house_account(G)) == -20
    assert (await audit(store)).ok


async def test_table_transfers_may_not_touch_another_tables_escrow(store: Store) -> None:
    await _open(store, "t1", 1)
    await store.close_table("t1")
    await _open(store, "t2", 2)
    with pytest.raises(TableClosed):
        await store.save_table(
            "t2", G, 2, "pontoon", "{}", 2, None, [Transfer(A, "escrow:t1", 1, "x")], "x"
        )
    with pytest.raises(TableNotFound):
        await store.apply_transfers([Transfer(member_account(G, ALICE), "escrow:zz", 1, "x")])
    # which games exist is the registry's (bot.games); storage refuses only bad names
    for bad_name in ("", "x" * 33):
        with pytest.raises(ValueError):
            await store.save_table("t3", G, 3, bad_name, "{}", 1, None, [], "x")


async def test_save_table_stores_the_message_id_it_is_given(store: Store) -> None:
    await _open(store)
    await store.set_table_message("t1", 99)
    await store.save_table("t1", G, CH, "pontoon", "{}", 2, 99, [], "x")
    rec = await store.get_table("t1")
    assert rec is not None and rec.message_id == 99
    # A caller that wants a fresh message next time saves None.
    await store.save_table("t1", G, CH, "pontoon", "{}", 3, None, [], "y")
    rec = await store.get_table("t1")
    assert rec is not None and rec.message_id is None and rec.version == 3


async def test_zero_amount_moves_are_skipped(store: Store) -> None:
    await _open(store)
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        "{}",
        2,
        None,
        [Transfer(A, ESCROW, 0, "nothing"), Transfer(A, ESCROW, 3, "bet")],
        "bet",
    )
    assert await store.balance(escrow_account("t1")) == 3
    assert await _count(store, "SELECT COUNT(*) FROM transfers WHERE table_id = 't1'") == 1
