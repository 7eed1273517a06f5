"""Ledger boundaries mutation testing found unguarded: the smallest grant and
daily, a new account's balance, the default daily cooldown, transfers naming a table
that does not exist. Run against both backends like the other storage tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.audit import audit
from bot.storage import (
    DailyNotReady,
    InsufficientChips,
    InvalidAmount,
    Move,
    Store,
    TableClosed,
    TableNotFound,
    escrow_account,
    house_account,
    kitty_account,
    member_account,
)

G = 111
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def test_the_smallest_grant_and_daily_are_one_chip(store: Store) -> None:
    await store.ensure_member(G, 7, 0)
    assert await store.grant(G, 7, 1, "one chip", by_user_id=99) == 1
    with pytest.raises(InvalidAmount):
        await store.grant(G, 7, 0, "nothing", by_user_id=99)
    assert await store.claim_daily(G, 7, 1, timedelta(hours=20), T0) == 2
    with pytest.raises(InvalidAmount):
        await store.claim_daily(G, 8, 0, timedelta(hours=20), T0)
    assert (await audit(store)).ok


async def test_a_new_account_starts_at_zero(store: Store) -> None:
    a, new = member_account(G, 1), member_account(G, 2)
    assert await store.balance(new) == 0
    await store.ensure_member(G, 1, 10)
    await store.apply_transfers([Move(a, new, 3, "gift")])
    assert await store.balances([a, new]) == {a: 7, new: 3}
    # An account the ledger creates on its first move has nothing to pay with.
    stranger = member_account(G, 3)
    with pytest.raises(InsufficientChips) as info:
        await store.apply_transfers([Move(stranger, house_account(G), 1, "one chip")])
    assert (info.value.needed, info.value.has) == (1, 0)
    assert await store.balance(stranger) == 0
    assert (await audit(store)).ok


async def test_the_daily_cooldown_is_20_hours_by_default(store: Store) -> None:
    assert await store.claim_daily(G, 7, 100, now=T0) == 1100
    with pytest.raises(DailyNotReady) as info:
        await store.claim_daily(G, 7, 100, now=T0 + timedelta(hours=19, minutes=59))
    assert info.value.next_at == T0 + timedelta(hours=20)
    assert await store.claim_daily(G, 7, 100, now=T0 + timedelta(hours=20)) == 1200


async def test_transfers_naming_a_missing_table_are_refused(store: Store) -> None:
    a = member_account(G, 1)
    await store.ensure_member(G, 1, 10)
    with pytest.raises(TableNotFound):
        await store.apply_transfers([Move(a, "@escrow", 1, "stake")], table_id="nope")
    for account in (escrow_account("nope"), kitty_account("nope")):
        with pytest.raises(TableNotFound):
            await store.apply_transfers([Move(a, account, 1, "stake")])
    assert await store.balance(a) == 10


async def test_balances_reads_every_account_of_a_long_list(store: Store) -> None:
    # More accounts than one query takes (500): every one is read, in each chunk.
    a = member_account(G, 1)
    await store.ensure_member(G, 1, 1000)
    others = [member_account(G, 1000 + i) for i in range(502)]
    await store.apply_transfers([Move(a, o, 1 + i % 2, "spread") for i, o in enumerate(others)])
    got = await store.balances([a, *others, member_account(G, 9)])
    assert got[a] == 1000 - sum(1 + i % 2 for i in range(502))
    assert [got[o] for o in others] == [1 + i % 2 for i in range(502)]
    assert got[member_account(G, 9)] == 0


async def test_leaderboard_limits(store: Store) -> None:
    for user in range(1, 103):
        await store.ensure_member(G, user, user)
    assert [e.user_id for e in await store.leaderboard(G)] == list(range(102, 92, -1))  # 10
    assert [e.user_id for e in await store.leaderboard(G, limit=0)] == [102]  # at least 1
    assert len(await store.leaderboard(G, limit=1000)) == 100  # at most 100


async def test_history_limits(store: Store) -> None:
    a, h = member_account(G, 1), house_account(G)
    await store.ensure_member(G, 1, 1000)
    await store.apply_transfers([Move(a, h, 1, f"move {i}") for i in range(502)])
    rows = await store.history(a)
    assert len(rows) == 20 and rows[0].reason == "move 501"  # newest first
    assert [r.reason for r in await store.history(a, limit=0)] == ["move 501"]
    assert len(await store.history(a, limit=10_000)) == 500


async def test_a_new_member_with_one_starting_chip_gets_it(store: Store) -> None:
    assert await store.ensure_member(G, 5, 1) == 1
    assert await store.ensure_member(G, 6, 0) == 0


async def test_a_batch_may_leave_an_account_at_exactly_zero(store: Store) -> None:
    a, h = member_account(G, 1), house_account(G)
    await store.ensure_member(G, 1, 10)
    await store.apply_transfers([Move(a, h, 10, "all in")])
    assert await store.balance(a) == 0
    with pytest.raises(InsufficientChips):
        await store.apply_transfers([Move(a, h, 1, "one more")])


async def test_table_transfers_use_engine_names_within_the_tables_server(store: Store) -> None:
    await store.save_table("t1", G, 55, "pontoon", "{}", 1, None, [], "open")
    a = member_account(G, 7)
    await store.ensure_member(G, 7, 100)
    # with a table, engine names map to the table's accounts and the member's server
    await store.apply_transfers([Move("7", "@escrow", 30, "stake")], table_id="t1")
    await store.apply_transfers([Move("@escrow", "@house", 30, "lost")], table_id="t1")
    assert await store.balances([a, escrow_account("t1"), house_account(G)]) == {
        a: 70,
        escrow_account("t1"): 0,
        house_account(G): 30,
    }
    # a member of another server cannot pay into this table
    await store.ensure_member(222, 7, 100)
    with pytest.raises(ValueError):
        await store.apply_transfers(
            [Move(member_account(222, 7), "@escrow", 1, "stake")], table_id="t1"
        )
    # a closed table takes no more chips
    await store.close_table("t1", [])
    with pytest.raises(TableClosed):
        await store.apply_transfers([Move(a, escrow_account("t1"), 1, "late")])
    assert (await audit(store)).ok


async def test_history_names_a_grant_without_a_source(store: Store) -> None:
    a = member_account(G, 1)
    await store.ensure_member(G, 1, 10)
    await store.apply_transfers([Move(a, house_account(G), 4, "lost")])
    grant, move = sorted(await store.history(a), key=lambda r: r.id)
    assert (grant.kind, grant.src, grant.dst, grant.amount) == ("grant", None, a, 10)
    assert (move.kind, move.src, move.dst, move.table_id) == ("transfer", a, house_account(G), None)


async def test_a_daily_without_cooldown_and_a_naive_time(store: Store) -> None:
    assert await store.claim_daily(G, 7, 5, timedelta(0), T0) == 1005
    assert await store.claim_daily(G, 7, 5, timedelta(0), T0) == 1010  # no cooldown
    with pytest.raises(ValueError):
        await store.claim_daily(G, 7, 5, timedelta(seconds=-1), T0)
    naive = datetime(2026, 2, 1, 12, 0)  # taken as UTC
    assert await store.claim_daily(G, 8, 5, timedelta(hours=20), naive) == 1005
    with pytest.raises(DailyNotReady) as info:
        await store.claim_daily(G, 8, 5, timedelta(hours=20), naive + timedelta(hours=1))
    assert info.value.next_at == naive.replace(tzinfo=UTC) + timedelta(hours=20)
