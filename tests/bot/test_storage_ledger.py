"""Members, grants, /daily, leaderboard, guild settings and atomic transfers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.audit import audit
from bot.storage import (
    MAX_GRANT,
    DailyNotReady,
    GuildSettings,
    InsufficientChips,
    InvalidAmount,
    InvalidSetting,
    Move,
    Store,
    escrow_account,
    house_account,
    kitty_account,
    map_engine_account,
    member_account,
    parse_account,
)
from tests.storage_backends import REFUSED_BY_DATABASE, raw_sql

G = 111
OTHER_G = 222


async def _ledger(store: Store) -> list[tuple[object, ...]]:
    return await raw_sql(
        store, "SELECT kind, src, dst, amount, reason, by_user_id FROM transfers ORDER BY id"
    )


# ----------------------------------------------------------------- account ids
def test_account_ids_and_engine_mapping() -> None:
    assert member_account(1, 2) == "member:1:2"
    assert escrow_account("t9") == "escrow:t9"
    assert kitty_account("t9") == "kitty:t9"
    assert house_account(1) == "house:1"
    assert map_engine_account("@escrow", 5, "t9") == "escrow:t9"
    assert map_engine_account("@kitty", 5, "t9") == "kitty:t9"
    assert map_engine_account("@house", 5, "t9") == "house:5"
    assert map_engine_account("123456789012345678", 5, "t9") == "member:5:123456789012345678"
    assert map_engine_account("member:5:7", 5, "t9") == "member:5:7"
    assert parse_account("member:5:7") == ("member", 5, 7, None)
    assert parse_account("kitty:t9") == ("kitty", None, None, "t9")
    for bad in ("alice", "@bank", "member:x:1", "escrow:", ""):
        with pytest.raises(ValueError):
            map_engine_account(bad, 5, "t9")
    with pytest.raises(ValueError):
        escrow_account("a:b")
    with pytest.raises(ValueError):
        member_account(-1, 2)


# --------------------------------------------------------------------- members
async def test_ensure_member_grants_starting_chips_once(store: Store) -> None:
    assert await store.ensure_member(G, 7, 1000) == 1000
    assert await store.ensure_member(G, 7, 5000) == 1000
    assert await store.ensure_member(OTHER_G, 7, 250) == 250  # balances are per server
    assert await _ledger(store) == [
        ("grant", None, "member:111:7", 1000, "starting chips", None),
        ("grant", None, "member:222:7", 250, "starting chips", None),
    ]


async def test_ensure_member_defaults_to_the_server_setting(store: Store) -> None:
    await store.set_guild_setting(G, "starting_chips", 40, by_user_id=1)
    assert await store.ensure_member(G, 8) == 40
    assert await store.ensure_member(OTHER_G, 8) == 1000  # process default
    assert await store.ensure_member(G, 9, 0) == 0  # zero start: account, no grant
    assert len(await _ledger(store)) == 2


async def test_grant_records_a_grant_and_bounds_amounts(store: Store) -> None:
    await store.ensure_member(G, 7, 1000)
    assert await store.grant(G, 7, 500, "tournament prize", by_user_id=99) == 1500
    assert (await _ledger(store))[-1] == (
        "grant",
        None,
        "member:111:7",
        500,
        "tournament prize",
        99,
    )
    for bad in (0, -5, MAX_GRANT + 1, 1.5, True):
        with pytest.raises(InvalidAmount):
            await store.grant(G, 7, bad, "x", by_user_id=99)  # type: ignore[arg-type]
    assert await store.balance(member_account(G, 7)) == 1500
    assert (await audit(store)).ok


async def test_grant_to_unseen_member_includes_starting_chips(store: Store) -> None:
    assert await store.grant(G, 42, 10, "welcome", by_user_id=1) == 1010


async def test_daily_claim_and_cooldown(store: Store) -> None:
    t0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    cooldown = timedelta(hours=20)
    assert await store.claim_daily(G, 7, 100, cooldown, t0) == 1100  # start + daily
    with pytest.raises(DailyNotReady) as info:
        await store.claim_daily(G, 7, 100, cooldown, t0 + timedelta(hours=19, minutes=59))
    assert info.value.next_at == t0 + cooldown
    assert "<t:" in info.value.user_message
    assert await store.balance(member_account(G, 7)) == 1100
    assert await store.claim_daily(G, 7, 100, cooldown, t0 + cooldown) == 1200
    # Amount None: the server's daily setting.
    await store.set_guild_setting(G, "daily_chips", 30)
    assert await store.claim_daily(G, 7, None, cooldown, t0 + 2 * cooldown) == 1230
    # Per server cooldowns.
    assert await store.claim_daily(OTHER_G, 7, 100, cooldown, t0) == 1100
    with pytest.raises(InvalidAmount):
        await store.claim_daily(G, 8, 0, cooldown, t0)
    assert [r[4] for r in await _ledger(store)].count("daily") == 4
    assert (await audit(store)).ok


async def test_leaderboard_orders_by_balance_per_server(store: Store) -> None:
    for user, chips in ((1, 300), (2, 900), (3, 300), (4, 50)):
        await store.ensure_member(G, user, chips)
    await store.ensure_member(OTHER_G, 5, 10_000)
    board = await store.leaderboard(G, limit=3)
    assert board == [(2, 900), (1, 300), (3, 300)]
    assert board[0].user_id == 2 and board[0].balance == 900
    assert await store.leaderboard(999) == []


async def test_guild_settings_validation(store: Store) -> None:
    assert await store.guild_settings(G) == GuildSettings(1000, 100)
    updated = await store.set_guild_setting(G, "daily_chips", 5)
    assert updated == GuildSettings(1000, 5)
    assert await store.guild_settings(OTHER_G) == GuildSettings(1000, 100)
    with pytest.raises(InvalidSetting):
        await store.set_guild_setting(G, "rake", 5)
    with pytest.raises(InvalidSetting):
        await store.set_guild_setting(G, "starting_chips", -1)
    with pytest.raises(InvalidSetting):
        await store.set_guild_setting(G, "starting_chips", MAX_GRANT + 1)


# ------------------------------------------------------------------- transfers
async def test_transfers_move_chips_and_house_may_go_negative(store: Store) -> None:
    a, h = member_account(G, 1), house_account(G)
    await store.ensure_member(G, 1, 100)
    await store.apply_transfers([Move(a, h, 30, "lost to the house")])
    await store.apply_transfers([Move(h, a, 500, "won from the house")])
    assert await store.balances([a, h, member_account(G, 2)]) == {
        a: 570,
        h: -470,
        member_account(G, 2): 0,
    }
    report = await audit(store)
    assert report.ok, report.summary()
    assert report.guilds[G].house == -470 and report.guilds[G].granted == 100


async def test_insufficient_chips_rolls_back_the_whole_batch(store: Store) -> None:
    a, b, h = member_account(G, 1), member_account(G, 2), house_account(G)
    await store.ensure_member(G, 1, 100)
    await store.ensure_member(G, 2, 10)
    before = await _ledger(store)
    with pytest.raises(InsufficientChips) as info:
        await store.apply_transfers(
            [Move(a, h, 50, "ok on its own"), Move(b, h, 11, "one too many")]
        )
    assert (info.value.account, info.value.needed, info.value.has) == (b, 11, 10)
    assert info.value.user_id == 2
    assert "<@2>" in info.value.user_message
    assert await store.balances([a, b, h]) == {a: 100, b: 10, h: 0}
    assert await _ledger(store) == before
    assert (await audit(store)).ok


async def test_batches_are_checked_net(store: Store) -> None:
    a, b = member_account(G, 1), member_account(G, 2)
    await store.ensure_member(G, 1, 10)
    await store.ensure_member(G, 2, 0)
    # b pays before being paid, but ends the batch with enough.
    await store.apply_transfers([Move(b, a, 5, "settle"), Move(a, b, 8, "settle")])
    assert await store.balances([a, b]) == {a: 7, b: 3}


async def test_bad_transfers_are_refused(store: Store) -> None:
    a, b = member_account(G, 1), member_account(G, 2)
    await store.ensure_member(G, 1, 10)
    with pytest.raises(InvalidAmount):
        await store.apply_transfers([Move(a, b, -1, "negative")])
    with pytest.raises(InvalidAmount):
        await store.apply_transfers([Move(a, b, 2.5, "fraction")])  # type: ignore[arg-type]
    await store.apply_transfers([Move(a, b, 0, "zero is a no-op")])
    with pytest.raises(ValueError):
        await store.apply_transfers([Move(a, a, 1, "self")])
    with pytest.raises(ValueError):
        await store.apply_transfers([Move(a, member_account(OTHER_G, 1), 1, "cross server")])
    with pytest.raises(ValueError):
        await store.apply_transfers([Move("@escrow", a, 1, "engine name without a table")])
    assert await store.balance(a) == 10
    assert len(await _ledger(store)) == 1


async def test_ledger_rows_cannot_be_rewritten(store: Store) -> None:
    await store.ensure_member(G, 1, 10)
    with pytest.raises(REFUSED_BY_DATABASE):
        await raw_sql(store, "UPDATE transfers SET amount = 1000")
    with pytest.raises(REFUSED_BY_DATABASE):
        await raw_sql(store, "DELETE FROM transfers")
    with pytest.raises(REFUSED_BY_DATABASE):
        await raw_sql(store, "UPDATE accounts SET balance = -1 WHERE kind = 'member'")


async def test_history_lists_an_accounts_rows(store: Store) -> None:
    a, h = member_account(G, 1), house_account(G)
    await store.ensure_member(G, 1, 100)
    await store.apply_transfers([Move(a, h, 30, "bet lost")])
    rows = await store.history(a)
    assert [(r.kind, r.src, r.dst, r.amount, r.reason) for r in rows] == [
        ("transfer", a, h, 30, "bet lost"),
        ("grant", None, a, 100, "starting chips"),
    ]
