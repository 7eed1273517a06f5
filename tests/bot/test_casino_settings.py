"""A server's own settings (/casino settings): stored per server and read per
action, changed by compare-and-set with a trail, checked before anything changes; table
limits applied when a table opens (never to an open one); the daily's amount, cooldown
and age gates per server; the limit of rounds per member, game and period."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.casino import ECONOMY, Setting, table_start
from bot.errors import ServiceError
from bot.storage import (
    DailyNotReady,
    DailyOff,
    GuildSettings,
    NotOldEnough,
    SettingChangedMeanwhile,
    Store,
    member_account,
)
from bot.storage.ledger import DISCORD_EPOCH_MS, account_created
from cogs.blackjack.limits import LIMITS as BJ
from cogs.pontoon.limits import LIMITS as PT
from engine.pontoon.types import ESCROW, Transfer
from tests.storage_backends import open_test_store

G, OTHER = 1, 2
NOW = datetime(2030, 6, 1, 12, 0, tzinfo=UTC)
OWNER = 7


def snowflake(made: datetime) -> int:
    """A Discord id made at ``made``."""
    return (int(made.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22


OLD = snowflake(NOW - timedelta(days=400))  # an account over a year old
NEW = snowflake(NOW - timedelta(days=2))  # an account two days old


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, clock: Clock
) -> AsyncIterator[Store]:
    s = await open_test_store(request.param, request, tmp_path, clock=clock)
    yield s
    await s.close()


def setting(key: str) -> Setting:
    return next(s for s in ECONOMY if s.key == key)


# ----------------------------------------------------------------- stored, with a trail
async def test_settings_survive_a_restart_and_their_trail_says_who_what_when(
    tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "r.sqlite3"
    store = await Store.open(path, clock=clock)
    await store.change_guild_setting(G, "daily_chips", 250, expected=100, by_user_id=OWNER)
    await store.change_guild_setting(
        G, "blackjack.max_bet_cap", 500, expected=1_000_000, by_user_id=OWNER, default=1_000_000
    )
    await store.close()

    store = await Store.open(path, clock=clock)
    try:
        mine = await store.guild_settings(G)
        assert mine.daily_chips == 250 and mine.value("blackjack.max_bet_cap") == 500
        assert mine.starting_chips == 1000  # never set: the machine's default
        theirs = await store.guild_settings(OTHER)  # per server
        assert theirs.daily_chips == 100 and "blackjack.max_bet_cap" not in theirs.tables
        log = await store.settings_log(G)
        assert [(e.key, e.old_value, e.new_value, e.by_user_id) for e in log] == [
            ("blackjack.max_bet_cap", 1_000_000, 500, OWNER),
            ("daily_chips", 100, 250, OWNER),
        ]
        assert log[0].ts == NOW.isoformat()
        assert await store.settings_log(OTHER) == []
    finally:
        await store.close()


async def test_the_later_of_two_owners_sees_the_earlier_ones_value_and_changes_nothing(
    store: Store,
) -> None:
    await store.change_guild_setting(G, "starting_chips", 500, expected=1000, by_user_id=OWNER)
    with pytest.raises(SettingChangedMeanwhile) as info:
        await store.change_guild_setting(G, "starting_chips", 2000, expected=1000, by_user_id=8)
    assert info.value.current == 500
    assert (await store.guild_settings(G)).starting_chips == 500
    assert len(await store.settings_log(G)) == 1


async def test_two_owners_at_once_one_wins_and_the_other_is_told(store: Store) -> None:
    results = await asyncio.gather(
        *(
            store.change_guild_setting(G, "daily_chips", value, expected=100, by_user_id=who)
            for who, value in ((OWNER, 300), (8, 400))
        ),
        return_exceptions=True,
    )
    won = [r for r in results if isinstance(r, GuildSettings)]
    lost = [r for r in results if isinstance(r, SettingChangedMeanwhile)]
    assert len(won) == 1 and len(lost) == 1
    assert lost[0].current == won[0].daily_chips
    assert [e.new_value for e in await store.settings_log(G)] == [won[0].daily_chips]


async def test_a_cap_below_the_floor_is_refused_and_changes_nothing(store: Store) -> None:
    cap, floor = BJ.key("max_bet_cap"), BJ.key("min_bet_floor")
    await store.change_guild_setting(
        G, cap, 500, expected=1_000_000, by_user_id=OWNER, default=1_000_000, check=BJ.check
    )
    with pytest.raises(ServiceError) as info:
        await store.change_guild_setting(
            G, floor, 600, expected=1, by_user_id=OWNER, default=1, check=BJ.check
        )
    assert info.value.key == "casino.err.cap_below_floor"
    assert info.value.params == {"cap": 500, "floor": 600}
    with pytest.raises(ServiceError):  # and the other way round
        await store.change_guild_setting(
            G, floor, 100, expected=1, by_user_id=OWNER, default=1, check=BJ.check
        )
        await store.change_guild_setting(
            G, cap, 50, expected=500, by_user_id=OWNER, default=1_000_000, check=BJ.check
        )
    after = await store.guild_settings(G)
    assert after.value(cap) == 500 and after.value(floor) == 100
    assert [e.key for e in await store.settings_log(G)] == [floor, cap]
    # a cap equal to the floor is fine
    await store.change_guild_setting(
        G, cap, 100, expected=500, by_user_id=OWNER, default=1_000_000, check=BJ.check
    )


async def test_a_default_choice_must_stay_allowed(store: Store) -> None:
    allow, default = BJ.key("allow.blackjack_pays"), BJ.key("default.blackjack_pays")
    with pytest.raises(ServiceError) as info:  # 3:2 is the default: it cannot be taken away
        await store.change_guild_setting(
            G, allow, 0b10, expected=0b11, by_user_id=OWNER, default=0b11, check=BJ.check
        )
    assert info.value.key == "casino.err.default_not_allowed"
    await store.change_guild_setting(
        G, default, 1, expected=0, by_user_id=OWNER, default=0, check=BJ.check
    )
    await store.change_guild_setting(
        G, allow, 0b10, expected=0b11, by_user_id=OWNER, default=0b11, check=BJ.check
    )
    assert (await store.guild_settings(G)).value(allow) == 0b10


@pytest.mark.parametrize(
    ("key", "value", "typed"),
    [
        ("daily_chips", -1, True),  # negative
        ("starting_chips", 10**9 + 1, True),
        ("round_limit", 0, True),  # a limit of 0 rounds (an empty field turns it off)
        ("daily_cooldown_minutes", 0, True),
        ("account_age_days", 3651, True),
    ],
)
def test_out_of_bounds_values_are_refused(key: str, value: int, typed: bool) -> None:
    with pytest.raises(ServiceError) as info:
        setting(key).check(value, typed=typed)
    assert info.value.key == "casino.err.range"


def test_no_limit_is_the_empty_field_not_a_typed_zero() -> None:
    setting("round_limit").check(0)  # off, from an empty field
    setting("account_age_days").check(0)  # no gate
    setting("round_limit").check(5, typed=True)


async def test_the_store_refuses_a_malformed_key_or_value(store: Store) -> None:
    from bot.storage import InvalidSetting

    for key, value in (("no such", 1), ("DAILY", 1), ("daily_chips", -5)):
        with pytest.raises(InvalidSetting):
            await store.change_guild_setting(G, key, value, expected=None, by_user_id=OWNER)
    assert await store.settings_log(G) == []


# ------------------------------------------------------------------ a table's opening
def start(settings: GuildSettings, **kw: object) -> object:
    args: dict[str, object] = {
        "given": {},
        "min_bet": None,
        "max_bet": None,
        "role_ids": set(),
        "may_always_open": False,
        "open_tables": 0,
    }
    args.update(kw)
    return table_start(BJ, settings, **args)  # type: ignore[arg-type]


def limits(**values: int) -> GuildSettings:
    return GuildSettings(tables={f"blackjack.{k.replace('__', '.')}": v for k, v in values.items()})


def refusal(call: Callable[[], object]) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call()
    return info.value


def test_a_start_above_the_cap_is_refused_naming_the_cap() -> None:
    capped = limits(max_bet_cap=500)
    err = refusal(lambda: start(capped, max_bet=1_000_000))
    assert err.key == "casino.err.cap" and err.params == {"amount": 500}
    assert "500" in err.localized("en")
    ok = start(capped, max_bet=500)
    assert ok.max_bet == 500  # type: ignore[attr-defined]


def test_a_start_below_the_floor_is_refused_and_defaults_come_within_the_limits() -> None:
    floored = limits(min_bet_floor=20, max_bet_cap=50)
    err = refusal(lambda: start(floored, min_bet=5))
    assert err.key == "casino.err.floor" and err.params == {"amount": 20}
    made = start(floored)  # the game's defaults 1..100 brought within 20..50
    assert (made.min_bet, made.max_bet) == (20, 50)  # type: ignore[attr-defined]
    own = start(limits(min_bet=5, max_bet=40))  # the server's own defaults of a new table
    assert (own.min_bet, own.max_bet) == (5, 40)  # type: ignore[attr-defined]


def test_choices_members_may_not_pick_are_refused_and_left_out_ones_take_the_default() -> None:
    settings = limits(allow__blackjack_pays=0b01)  # 3:2 only
    err = refusal(lambda: start(settings, given={"blackjack_pays": "6:5"}))
    assert err.key == "casino.err.not_allowed"
    assert "3:2" in err.localized("en") and "6:5" not in err.localized("en")
    assert start(settings, given={"blackjack_pays": "3:2"}).choices["blackjack_pays"] == "3:2"  # type: ignore[attr-defined]
    six_five = limits(default__blackjack_pays=1)
    assert start(six_five).choices["blackjack_pays"] == "6:5"  # type: ignore[attr-defined]
    assert start(GuildSettings()).choices == {  # type: ignore[attr-defined]
        "blackjack_pays": "3:2",
        "dealer": "s17",
        "surrender": "none",
        "double_on": "any",
        "double_after_split": True,
        "resplit_aces": False,
        "peek": True,
    }


def test_who_may_open_and_how_many_tables() -> None:
    role = limits(opener_role=55)
    assert refusal(lambda: start(role)).key == "casino.err.opener_role"
    start(role, role_ids={55})
    start(role, may_always_open=True)  # Manage Server always may
    most = limits(max_tables=2)
    start(most, open_tables=1)
    err = refusal(lambda: start(most, open_tables=2))
    assert err.key == "casino.err.max_tables" and err.params == {"most": 2}


def test_every_game_declares_its_own_choices_and_the_panel_fits_discords_select() -> None:
    for game in (BJ, PT):
        assert len(game.settings()) == 6 + 2 * len(game.options) + 2 * len(game.numbers)
        assert 6 + len(game.options) <= 25  # one select of the panel's section
    assert {o.name for o in PT.options} >= {"banker_doubles", "pontoon_pays", "shoot"}


# ------------------------------------------------------- the daily and the age gates
async def test_the_daily_amount_and_cooldown_are_the_servers(store: Store, clock: Clock) -> None:
    await store.change_guild_setting(
        G, "daily_cooldown_minutes", 60, expected=1200, by_user_id=OWNER
    )
    await store.change_guild_setting(G, "daily_chips", 7, expected=100, by_user_id=OWNER)
    assert await store.claim_daily(G, OLD) == 1000 + 7
    clock.now += timedelta(minutes=59)
    with pytest.raises(DailyNotReady) as info:
        await store.claim_daily(G, OLD)
    assert info.value.next_at == NOW + timedelta(minutes=60)
    clock.now += timedelta(minutes=1)
    assert await store.claim_daily(G, OLD) == 1000 + 14
    # another server keeps the machine's cooldown (20 hours) and amount
    assert await store.claim_daily(OTHER, OLD) == 1100
    with pytest.raises(DailyNotReady):
        await store.claim_daily(OTHER, OLD, now=clock.now + timedelta(hours=19))
    # a server that gives no daily says so
    await store.change_guild_setting(G, "daily_chips", 0, expected=7, by_user_id=OWNER)
    clock.now += timedelta(hours=2)
    with pytest.raises(DailyOff):
        await store.claim_daily(G, OLD)


def test_an_accounts_age_is_read_from_its_id() -> None:
    assert abs(account_created(OLD) - (NOW - timedelta(days=400))) < timedelta(seconds=1)
    assert account_created(175928847299117063).year == 2016  # Discord's own example id


async def test_a_new_account_gets_no_starting_chips_nor_daily_until_it_qualifies(
    store: Store, clock: Clock
) -> None:
    await store.change_guild_setting(G, "account_age_days", 7, expected=0, by_user_id=OWNER)
    assert await store.ensure_member(G, NEW) == 0
    due = NOW - timedelta(days=2) + timedelta(days=7)
    assert abs((await store.held_back_until(G, NEW) or NOW) - due) < timedelta(seconds=1)
    with pytest.raises(NotOldEnough) as info:
        await store.claim_daily(G, NEW)
    assert abs(info.value.qualifies_at - due) < timedelta(seconds=1)
    assert await store.ensure_member(G, NEW) == 0  # still too new: still nothing
    assert await store.ensure_member(G, OLD) == 1000  # an old account is not gated
    clock.now = due + timedelta(seconds=1)
    assert await store.ensure_member(G, NEW) == 1000  # the starting chips, once
    assert await store.ensure_member(G, NEW) == 1000
    assert await store.held_back_until(G, NEW) is None
    assert await store.claim_daily(G, NEW) == 1100
    # the chips came as grants through the ledger: the audit's sums hold
    snap = await store.ledger_snapshot()
    assert snap.grants_by_guild[G] == sum(a.balance for a in snap.accounts if a.guild_id == G)


async def test_a_new_member_of_the_server_waits_from_the_join_discord_reports(
    store: Store, clock: Clock
) -> None:
    await store.change_guild_setting(G, "member_age_days", 3, expected=0, by_user_id=OWNER)
    store.join_dates.note(G, OLD, NOW - timedelta(days=10))
    assert await store.ensure_member(G, OLD) == 1000  # joined ten days ago
    store.join_dates.note(G, OLD + 1, NOW - timedelta(hours=1))
    assert await store.ensure_member(G, OLD + 1) == 0
    with pytest.raises(NotOldEnough) as info:
        await store.claim_daily(G, OLD + 1)
    expected = NOW - timedelta(hours=1) + timedelta(days=3)
    assert abs(info.value.qualifies_at - expected) < timedelta(seconds=1)


# ------------------------------------------------------------------- the round limit
async def _rounds(
    store: Store, game: str, user: int, count: int, table: str, guild: int = G
) -> None:
    await store.ensure_member(guild, user)
    for n in range(count):
        await store.save_table(
            table,
            guild,
            10 + len(table),
            game,
            "{}",
            2 * n + 1,
            None,
            [Transfer(str(user), ESCROW, 1, "bet")],
        )
        await store.save_table(
            table,
            guild,
            10 + len(table),
            game,
            "{}",
            2 * n + 2,
            None,
            [Transfer(ESCROW, str(user), 1, "push")],
            results={str(user): 0},
        )


async def plays_again_at(store: Store, user_id: int, game: str) -> datetime | None:
    """When the round limit lets the member play ``game`` again (None: now), as a stake
    asks the store."""
    return (await store.stake_check(G, user_id, game=game)).plays_again_at


async def test_the_round_limit_counts_a_members_rounds_of_one_game_in_the_period(
    store: Store, clock: Clock
) -> None:
    assert await plays_again_at(store, OLD, "blackjack") is None  # no limit set
    await store.change_guild_setting(G, "round_limit", 2, expected=0, by_user_id=OWNER)
    await store.change_guild_setting(G, "round_period_minutes", 60, expected=1440, by_user_id=OWNER)
    await _rounds(store, "blackjack", OLD, 1, "bj1")
    assert await plays_again_at(store, OLD, "blackjack") is None
    clock.now += timedelta(minutes=10)
    await _rounds(store, "blackjack", OLD, 1, "bj1x")
    again = await plays_again_at(store, OLD, "blackjack")
    assert again == NOW + timedelta(minutes=60)  # when the first of the two leaves the hour
    assert await plays_again_at(store, OLD, "pontoon") is None  # per game
    assert await plays_again_at(store, OLD + 1, "blackjack") is None  # per member
    clock.now = NOW + timedelta(minutes=60, seconds=1)
    assert await plays_again_at(store, OLD, "blackjack") is None
    assert member_account(G, OLD)  # the rows are the member's own account's


async def test_a_round_limit_refuses_a_bet_with_the_time_and_changes_nothing(
    store: Store, clock: Clock
) -> None:
    from tests.bot.test_punto_banco_service import make_service, open_table

    service = make_service(store, 0)
    try:
        live = await open_table(service)
        await store.change_guild_setting(
            live.guild_id, "round_limit", 1, expected=0, by_user_id=OWNER
        )
        await _rounds(store, "punto_banco", 4242, 1, "pbx", live.guild_id)
        before = await store.ensure_member(live.guild_id, 4242)
        with pytest.raises(ServiceError) as info:
            await service.bet(live.table_id, 4242, "punto", 5)
        assert info.value.key == "err.round_limit"
        assert "<t:" not in str(info.value) and info.value.params["stamp"]
        assert await store.ensure_member(live.guild_id, 4242) == before
        assert not live.engine.bets
    finally:
        await service.shutdown()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_a_second_process_sees_a_change_at_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    first = await open_test_store(backend, request, tmp_path)
    second = await open_test_store(backend, request, tmp_path)
    try:
        assert (await second.guild_settings(G)).daily_chips == 100
        await first.change_guild_setting(G, "daily_chips", 5, expected=100, by_user_id=OWNER)
        assert (await second.guild_settings(G)).daily_chips == 5  # nothing cached
        with pytest.raises(SettingChangedMeanwhile):
            await second.change_guild_setting(G, "daily_chips", 9, expected=100, by_user_id=8)
        assert [e.new_value for e in await second.settings_log(G)] == [5]
    finally:
        await first.close()
        await second.close()


async def test_an_erased_owner_leaves_the_trail_without_their_id(store: Store) -> None:
    await store.change_guild_setting(G, "daily_chips", 5, expected=100, by_user_id=OWNER)
    await store.forget_member(OWNER)
    [entry] = await store.settings_log(G)
    assert (entry.key, entry.old_value, entry.new_value, entry.by_user_id) == (
        "daily_chips",
        100,
        5,
        None,
    )


async def test_a_fresh_season_is_a_line_of_the_trail(store: Store) -> None:
    from bot.storage import InvalidSetting
    from cogs.casino.panel import log_line

    await store.record_in_trail(G, "season", 1, 2, by_user_id=OWNER, ts=NOW.isoformat())
    with pytest.raises(InvalidSetting):  # only an owner's act, never a setting, this way
        await store.record_in_trail(G, "daily_chips", 1, 2, by_user_id=OWNER)
    [entry] = await store.settings_log(G)
    line = log_line(entry, "en")
    assert "A fresh season" in line and "1 → 2" in line and f"<@{OWNER}>" in line, line


async def test_one_age_gate_holds_back_starting_chips_and_gifts(store: Store) -> None:
    """The store's gate (``too_new_until``) is the one the starting chips wait for and
    the one a gift asks: they agree, from the join Discord reported when it did."""
    from bot.economy import may_receive_chips

    await store.change_guild_setting(G, "member_age_days", 3, expected=0, by_user_id=OWNER)
    joined = NOW - timedelta(days=1)
    store.join_dates.note(G, OLD, joined)
    assert await store.ensure_member(G, OLD) == 0  # held back
    due = await store.held_back_until(G, OLD)
    assert due is not None and abs(due - (joined + timedelta(days=3))) < timedelta(seconds=1)
    assert await store.too_new_until(G, OLD) == due
    assert not await may_receive_chips(store, G, OLD, None, NOW)  # the join noted
    assert await may_receive_chips(store, G, OLD, NOW - timedelta(days=5), NOW)  # Discord's
    assert await store.too_new_until(G, OLD, now=due + timedelta(seconds=1)) is None


async def test_a_gift_to_a_member_too_new_for_chips_is_refused(store: Store) -> None:
    from bot.economy import may_receive_chips

    assert await may_receive_chips(store, G, NEW, NOW - timedelta(days=30), NOW)
    await store.change_guild_setting(G, "account_age_days", 7, expected=0, by_user_id=OWNER)
    assert not await may_receive_chips(store, G, NEW, NOW - timedelta(days=30), NOW)
    assert await may_receive_chips(store, G, OLD, NOW - timedelta(days=30), NOW)
    await store.change_guild_setting(G, "member_age_days", 3, expected=0, by_user_id=OWNER)
    assert not await may_receive_chips(store, G, OLD, NOW - timedelta(days=1), NOW)


async def test_a_fresh_season_gives_no_member_their_starting_chips_twice(
    store: Store, clock: Clock
) -> None:
    await store.change_guild_setting(G, "account_age_days", 7, expected=0, by_user_id=OWNER)
    assert await store.ensure_member(G, NEW) == 0  # held back
    await store.grant(G, NEW, 50, "admin grant", OWNER)
    assert await store.ensure_member(G, OLD) == 1000
    await store.reset_season(G, OWNER)
    assert await store.member_balance(G, OLD) == 1000
    assert await store.member_balance(G, NEW) == 0  # still too new: back to none
    clock.now += timedelta(days=6)
    assert await store.ensure_member(G, NEW) == 1000  # the starting chips, once
    assert await store.ensure_member(G, NEW) == 1000
    snap = await store.ledger_snapshot()
    assert snap.grants_by_guild[G] == sum(a.balance for a in snap.accounts if a.guild_id == G)


def test_join_dates_keep_only_the_newest_members() -> None:
    """The join dates Discord sends are kept for a bounded number of members: memory does
    not grow with a server's history; a member not kept falls back to first seen."""
    from bot.storage.base import JoinDates

    dates = JoinDates(size=2)
    dates.note(G, 1, NOW)
    dates.note(G, 2, NOW)
    dates.note(G, 1, NOW - timedelta(days=1))  # seen again: the newest
    dates.note(G, 3, NOW)
    dates.note(G, 4, None)  # nothing said: nothing kept
    assert dates.get(G, 2) is None
    assert dates.get(G, 1) == NOW - timedelta(days=1)
    assert dates.get(G, 3) == NOW
    assert dates.get(G, 4) is None


# ------------------------------------------------------- the numbers of a start command
def numbered(game: object, settings: GuildSettings, **kw: object) -> object:
    args: dict[str, object] = {
        "given": {},
        "min_bet": None,
        "max_bet": None,
        "role_ids": set(),
        "may_always_open": False,
        "open_tables": 0,
    }
    args.update(kw)
    return table_start(game, settings, **args)  # type: ignore[arg-type]


def test_a_number_outside_the_servers_bounds_is_refused_naming_them() -> None:
    bounded = limits(least__decks=2, most__decks=4)
    for decks in (1, 5, 8):  # just below, just above, the command's own largest
        err = refusal(lambda d=decks: start(bounded, numbers={"decks": d}))  # type: ignore[misc]
        assert err.key == "casino.err.number_outside"
        assert err.params["low"] == 2 and err.params["high"] == 4
        text = err.localized("en")
        assert "2" in text and "4" in text and "Decks in the shoe" in text, text
    for decks in (2, 3, 4):  # on and within both bounds
        made = start(bounded, numbers={"decks": decks})
        assert made.numbers["decks"] == decks  # type: ignore[attr-defined]


def test_a_number_left_out_takes_the_commands_own_or_comes_within_the_bounds() -> None:
    # a server that sets nothing: the command's own values, the engine's where it has none
    made = start(GuildSettings(), numbers={"decks": None, "betting_seconds": None})
    assert made.numbers == {"decks": 6, "betting_seconds": None}  # type: ignore[attr-defined]
    assert start(GuildSettings(), numbers={"decks": 8}).numbers["decks"] == 8  # type: ignore[attr-defined]
    # the command's 6 decks brought within 1..4; the bot's 30-second window within 60..90
    bounded = limits(most__decks=4, least__betting_seconds=60, most__betting_seconds=90)
    made = start(bounded, numbers={}, usual={"betting_seconds": 30})
    assert made.numbers == {"decks": 4, "betting_seconds": 60}  # type: ignore[attr-defined]
    made = start(limits(least__betting_seconds=10), usual={"betting_seconds": 30})
    assert made.numbers["betting_seconds"] == 30  # type: ignore[attr-defined]
    # Pontoon's packs (left out: one, two with 8+ players) fixed at 2 by the server
    assert numbered(PT, GuildSettings()).numbers["packs"] is None  # type: ignore[attr-defined]
    fixed = GuildSettings(tables={"pontoon.least.packs": 2})
    assert numbered(PT, fixed).numbers["packs"] == 2  # type: ignore[attr-defined]
    err = refusal(lambda: numbered(PT, fixed, numbers={"packs": 1}))
    assert err.key == "casino.err.number_outside"


async def test_a_smallest_above_the_largest_is_refused_and_changes_nothing(store: Store) -> None:
    least, most = BJ.key("least.decks"), BJ.key("most.decks")
    await store.change_guild_setting(
        G, most, 4, expected=8, by_user_id=OWNER, default=8, check=BJ.check
    )
    with pytest.raises(ServiceError) as info:
        await store.change_guild_setting(
            G, least, 5, expected=1, by_user_id=OWNER, default=1, check=BJ.check
        )
    assert info.value.key == "casino.err.number_order"
    assert info.value.params["low"] == 5 and info.value.params["high"] == 4
    await store.change_guild_setting(
        G, least, 4, expected=1, by_user_id=OWNER, default=1, check=BJ.check
    )
    after = await store.guild_settings(G)
    assert BJ.bounds(after, "decks") == (4, 4)
    assert BJ.bounds(after, "betting_seconds") == (5, 3600)  # untouched: the command's own
    trail = await store.settings_log(G)
    assert [(e.key, e.old_value, e.new_value) for e in reversed(trail)] == [
        (most, 8, 4),
        (least, 1, 4),
    ]
    assert all(e.by_user_id == OWNER for e in trail)
    assert (await store.guild_settings(OTHER)).value(most, 8) == 8  # per server
