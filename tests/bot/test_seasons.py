"""A fresh season (/casino reset), a member's own break (/break) and gifts (/give), on
both databases: the reset conserves every chip in the audit (no ledger row changed or
deleted), closes every game's open tables with their stakes returned, keeps the closed
season's standings, and races a bet, a grant and a daily without losing or doubling
anything; a break refuses a seat, a bet and the daily in each game and ends by itself;
a gift is off by default, capped per day, never to oneself, and shown in /stats."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.audit import audit
from bot.blackjack import BlackjackService
from bot.economy import Seasons, break_length, give_chips, take_break
from bot.errors import ServiceError
from bot.host import together
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService, PuntoBancoTimers
from bot.storage import (
    BreakAlreadyLonger,
    GiftCapReached,
    GiftsOff,
    InsufficientChips,
    InvalidSetting,
    MemberOnBreak,
    SeasonAlreadyReset,
    Store,
    TablesStillOpen,
    UnknownSeason,
    escrow_account,
    member_account,
)
from engine.blackjack import BlackjackRules
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind as PontoonKind
from engine.pontoon.types import Phase as PontoonPhase
from engine.punto_banco import PuntoBancoRules, Side
from tests.storage_backends import open_test_store, raw_sql

G, OTHER_G = 31, 32
ANN, BOB, CAT, DAN = 501, 502, 503, 504
START = 1000  # the test stores' starting chips (tests/storage_backends.py)
T0 = datetime(2031, 5, 6, 10, 0, tzinfo=UTC)


class Clock:
    """The store's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, clock: Clock
) -> AsyncIterator[Store]:
    s = await open_test_store(backend, request, tmp_path, clock=clock)
    try:
        yield s
    finally:
        await s.close()


class Games:
    """The three games' services on one store, wired as the bot wires them."""

    def __init__(self, store: Store) -> None:
        self.pontoon = PontoonService(
            store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
        )
        self.bacc = PuntoBancoService(
            store,
            chance=RandomChance(random.Random(2)),
            timers=PuntoBancoTimers(betting_seconds=600),
            run_timers=False,
        )
        self.bj = BlackjackService(store, chance=RandomChance(random.Random(3)), run_timers=False)
        together(self.pontoon, self.bacc, self.bj)

    def all(self) -> list[Any]:
        return [self.pontoon, self.bacc, self.bj]

    async def shutdown(self) -> None:
        for game in self.all():
            await game.shutdown()


@pytest.fixture
async def games(store: Store) -> AsyncIterator[Games]:
    g = Games(store)
    yield g
    await g.shutdown()


async def audit_ok(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()


async def ledger_rows(store: Store) -> list[tuple[Any, ...]]:
    return await raw_sql(store, "SELECT id, src, dst, amount, reason FROM transfers ORDER BY id")


# ------------------------------------------------------------------ the reset
async def test_a_reset_moves_every_balance_to_the_start_through_the_ledger(store: Store) -> None:
    for uid in (ANN, BOB, CAT):
        await store.ensure_member(G, uid)
    await store.grant(G, ANN, 4000, "admin grant", None)
    from bot.storage import Move, house_account

    await store.apply_transfers([Move(member_account(G, BOB), house_account(G), 700, "lost")])
    await store.ensure_member(OTHER_G, ANN)  # another server: untouched
    await store.grant(OTHER_G, ANN, 55, "admin grant", None)
    await audit_ok(store)
    before = await ledger_rows(store)
    assert await store.current_season(G) == 1
    preview = await store.season_preview(G)
    assert (preview.season, preview.members, preview.starting_chips) == (1, 3, START)

    done = await store.reset_season(G, DAN, season=1)

    assert (done.season, done.members, done.starting_chips) == (1, 3, START)
    assert (done.moved_out, done.moved_in) == (4000, 700)
    assert done.by_user_id == DAN
    for uid in (ANN, BOB, CAT):
        assert await store.member_balance(G, uid) == START
    assert await store.member_balance(OTHER_G, ANN) == START + 55
    after = await ledger_rows(store)
    assert after[: len(before)] == before  # nothing changed or deleted, only added
    assert [r[4] for r in after[len(before) :]] == ["season reset", "season reset"]
    await audit_ok(store)
    # the closed season's standings stay, the current season is the live leaderboard
    assert await store.current_season(G) == 2
    past = await store.season_standings(G, 1)
    assert [(e.user_id, e.balance) for e in past] == [(ANN, 5000), (CAT, 1000), (BOB, 300)]
    assert {e.balance for e in await store.leaderboard(G)} == {START}
    with pytest.raises(UnknownSeason):
        await store.season_standings(G, 2)  # running, not closed
    assert await store.current_season(OTHER_G) == 1
    who = await raw_sql(store, "SELECT reset_by, members FROM seasons WHERE guild_id = ?", G)
    assert who == [(DAN, 3)]


async def test_a_reset_for_a_season_already_closed_or_with_a_table_open_changes_nothing(
    store: Store, games: Games
) -> None:
    await store.ensure_member(G, ANN)
    await store.grant(G, ANN, 10, "admin grant", None)
    await store.reset_season(G, ANN, season=1)
    rows = await ledger_rows(store)
    with pytest.raises(SeasonAlreadyReset):  # a second click on the same confirmation
        await store.reset_season(G, ANN, season=1)
    assert await ledger_rows(store) == rows
    live = await games.bacc.open_table(G, 40, ANN, PuntoBancoRules())
    await store.grant(G, ANN, 10, "admin grant", None)
    rows = await ledger_rows(store)
    with pytest.raises(TablesStillOpen):
        await store.reset_season(G, ANN, season=2)
    assert await ledger_rows(store) == rows
    assert await store.member_balance(G, ANN) == START + 10
    assert await store.current_season(G) == 2
    await games.bacc.close(live.table_id, Msg("reason.idle"))


async def test_a_reset_closes_every_games_tables_with_every_stake_returned(
    store: Store, games: Games
) -> None:
    # a Pontoon round with a bet on, a Punto Banco bet, a Blackjack bet
    pt = await games.pontoon.open_table(G, 41, ANN, PontoonRules())
    await games.pontoon.act(pt.table_id, BOB, PontoonKind.JOIN)
    await games.pontoon.deal(pt.table_id, ANN)
    player = next(s for s in pt.engine.seats if s != pt.engine.banker)
    assert pt.engine.phase is PontoonPhase.BETTING
    await games.pontoon.act(pt.table_id, int(player), PontoonKind.BET, amount=5)
    pb = await games.bacc.open_table(G, 42, CAT, PuntoBancoRules())
    await games.bacc.bet(pb.table_id, CAT, Side.BANCO, 40)
    bj = await games.bj.open_table(G, 43, DAN, BlackjackRules(decks=1, max_bet=50))
    await games.bj.join(bj.table_id, DAN)
    await games.bj.bet(bj.table_id, DAN, 30)
    assert await store.balance(escrow_account(pb.table_id)) == 40
    await audit_ok(store)
    seasons = Seasons(store, games.all)
    plan = await seasons.plan(G)
    assert (plan.season, plan.tables, plan.members) == (1, 3, 4)
    trail: list[Any] = []

    async def hook(done: Any) -> None:
        trail.append(done)

    seasons.after_reset.append(hook)

    done = await seasons.reset(G, ANN, season=1)

    assert done.tables_closed == 3 and trail == [done]
    assert all(not game.by_guild.get(G) for game in games.all())
    for table_id in (pt.table_id, pb.table_id, bj.table_id):
        assert await store.balance(escrow_account(table_id)) == 0
    for uid in (ANN, BOB, CAT, DAN):
        assert await store.member_balance(G, uid) == START
    # every stake came back before the reset, so the standings are the chips they had
    assert {e.balance for e in await store.season_standings(G, 1)} == {START}
    await audit_ok(store)
    with pytest.raises(SeasonAlreadyReset):
        await seasons.reset(G, ANN, season=1)


async def test_a_reset_racing_bets_grants_and_dailies_loses_and_doubles_nothing(
    store: Store, games: Games, clock: Clock
) -> None:
    seasons = Seasons(store, games.all)
    for uid in (ANN, BOB, CAT, DAN):
        await store.ensure_member(G, uid)
    for season in (1, 2, 3):
        clock.now += timedelta(days=1)  # a daily is due again
        pb = await games.bacc.open_table(G, 50, ANN, PuntoBancoRules())
        results = await asyncio.gather(
            seasons.reset(G, ANN, season=season),
            games.bacc.bet(pb.table_id, BOB, Side.PUNTO, 25),
            store.grant(G, CAT, 77, "admin grant", None),
            store.claim_daily(G, DAN),
            return_exceptions=True,
        )
        assert not isinstance(results[0], BaseException), results[0]
        # the bet was placed and returned at the close, or refused: the table closed
        assert not isinstance(results[1], BaseException) or isinstance(results[1], ServiceError)
        assert not isinstance(results[2], BaseException) and not isinstance(
            results[3], BaseException
        )
        assert not games.bacc.by_guild.get(G)
        assert await store.member_balance(G, ANN) == START
        assert await store.member_balance(G, BOB) == START  # the stake came back, then reset
        assert await store.member_balance(G, CAT) in (START, START + 77)  # before or after
        assert await store.member_balance(G, DAN) in (START, START + 100)
        await audit_ok(store)
    grants = await raw_sql(
        store, "SELECT COUNT(*) FROM transfers WHERE reason = 'admin grant' AND kind = 'grant'"
    )
    assert grants == [(3,)]  # each grant written once, none lost
    assert await store.current_season(G) == 4


# ------------------------------------------------------------------ breaks
@pytest.mark.parametrize(
    ("number", "unit"),
    [
        (0, "minutes"),
        (30, "minutes"),
        (3650, "days"),
        (31, "days"),
        (-1, "hours"),
        (10**18, "days"),
    ],
)
def test_a_break_outside_one_hour_to_thirty_days_is_refused(number: int, unit: str) -> None:
    with pytest.raises(ServiceError) as refused:
        break_length(number, unit)
    assert refused.value.key == "err.break.range"


def test_a_break_of_an_hour_to_thirty_days_is_taken() -> None:
    assert break_length(1, "hours") == timedelta(hours=1)
    assert break_length(60, "minutes") == timedelta(hours=1)
    assert break_length(30, "days") == timedelta(days=30)
    with pytest.raises(ServiceError):
        break_length(2, "weeks")


async def test_a_break_refuses_seats_bets_and_the_daily_in_every_game_until_it_ends(
    store: Store, games: Games, clock: Clock
) -> None:
    pt = await games.pontoon.open_table(G, 60, ANN, PontoonRules())
    pb = await games.bacc.open_table(G, 61, ANN, PuntoBancoRules())
    bj = await games.bj.open_table(G, 62, ANN, BlackjackRules(decks=1, max_bet=50))
    ends = await take_break(store, G, BOB, 2, "hours")
    assert ends == T0 + timedelta(hours=2)
    assert await store.members_on_break(G) == 1 and await store.members_on_break(OTHER_G) == 0
    before = await ledger_rows(store)

    refusals = [
        games.pontoon.act(pt.table_id, BOB, PontoonKind.JOIN),
        games.pontoon.open_table(G, 63, BOB, PontoonRules()),
        games.bacc.bet(pb.table_id, BOB, Side.BANCO, 10),
        games.bj.join(bj.table_id, BOB),
        store.claim_daily(G, BOB),
    ]
    for call in refusals:
        with pytest.raises(MemberOnBreak) as refused:
            await call
        assert refused.value.ends_at == ends
    assert await ledger_rows(store) == before
    assert BOB not in {int(s) for s in pt.engine.seats if s.isdigit()}
    assert not pb.engine.bets_of(str(BOB)) and str(BOB) not in bj.engine.seats
    # the member cannot shorten it; a longer one lengthens it
    with pytest.raises(BreakAlreadyLonger):
        await take_break(store, G, BOB, 1, "hours")
    assert (await store.stake_check(G, BOB)).break_ends == ends
    # others play on
    await games.bacc.bet(pb.table_id, CAT, Side.BANCO, 10)

    clock.now = ends  # the break is over
    assert await store.members_on_break(G) == 0
    await games.pontoon.act(pt.table_id, BOB, PontoonKind.JOIN)
    await games.pontoon.act(pt.table_id, BOB, PontoonKind.LEAVE)
    await games.bacc.bet(pb.table_id, BOB, Side.BANCO, 10)
    await games.bacc.withdraw(pb.table_id, BOB)
    await games.bj.join(bj.table_id, BOB)
    await games.bj.bet(bj.table_id, BOB, 5)
    assert await store.claim_daily(G, BOB) == START - 5 + 100
    await audit_ok(store)


async def test_a_break_taken_at_a_table_refuses_the_next_bet_but_not_leaving(
    store: Store, games: Games
) -> None:
    bj = await games.bj.open_table(G, 64, ANN, BlackjackRules(decks=1, max_bet=50))
    await games.bj.join(bj.table_id, BOB)
    await take_break(store, G, BOB, 1, "days")
    with pytest.raises(MemberOnBreak):
        await games.bj.bet(bj.table_id, BOB, 5)
    await games.bj.leave(bj.table_id, BOB)
    # a house-banked Pontoon table: seated before the break, no bet in the next round
    pt = await games.pontoon.open_table(G, 65, ANN, PontoonRules(house_bank=True))
    await games.pontoon.act(pt.table_id, CAT, PontoonKind.JOIN)
    await take_break(store, G, CAT, 3, "hours")
    await games.pontoon.deal(pt.table_id, ANN)
    assert pt.engine.phase is PontoonPhase.BETTING
    with pytest.raises(MemberOnBreak):
        await games.pontoon.act(pt.table_id, CAT, PontoonKind.BET, amount=2)
    await games.pontoon.act(pt.table_id, ANN, PontoonKind.BET, amount=2)  # others bet on
    assert await store.member_balance(G, CAT) == START
    await audit_ok(store)


# ------------------------------------------------------------------- gifts
async def test_gifts_are_off_by_default_then_capped_per_day_and_shown_in_stats(
    store: Store, clock: Clock
) -> None:
    for uid in (ANN, BOB):
        await store.ensure_member(G, uid)
    with pytest.raises(GiftsOff):
        await give_chips(store, G, ANN, BOB, 10, receiver_is_bot=False)
    await store.set_guild_setting(G, "give_enabled", 1, ANN)
    await store.set_guild_setting(G, "give_daily_cap", 300, ANN)
    with pytest.raises(InvalidSetting):
        await store.set_guild_setting(G, "give_enabled", 2, ANN)
    assert (await store.guild_settings(G)).give_enabled == 1

    assert await give_chips(store, G, ANN, BOB, 200, receiver_is_bot=False) == (START - 200, 100)
    with pytest.raises(GiftCapReached) as capped:
        await give_chips(store, G, ANN, BOB, 101, receiver_is_bot=False)
    assert (capped.value.cap, capped.value.left) == (300, 100)
    assert capped.value.next_at == datetime(2031, 5, 7, tzinfo=UTC)
    for amount, who, bot in ((10, ANN, False), (0, BOB, False), (-5, BOB, False), (5, BOB, True)):
        with pytest.raises(ServiceError):  # to oneself, nothing, a negative amount, a bot
            await give_chips(store, G, ANN, who, amount, receiver_is_bot=bot)
    assert await store.member_balance(G, ANN) == START - 200
    clock.now += timedelta(days=1)  # a new day: the cap starts afresh
    await give_chips(store, G, ANN, BOB, 300, receiver_is_bot=False)
    await store.set_guild_setting(G, "give_daily_cap", 10**6, ANN)
    with pytest.raises(InsufficientChips):
        await give_chips(store, G, ANN, BOB, START, receiver_is_bot=False)
    await take_break(store, G, ANN, 1, "hours")
    with pytest.raises(MemberOnBreak):
        await give_chips(store, G, ANN, BOB, 1, receiver_is_bot=False)
    assert await store.member_balance(G, ANN) == START - 500
    assert await store.member_balance(G, BOB) == START + 500
    history = await store.chip_history(member_account(G, ANN))
    assert (history.gifts_out, history.gifts_in) == (500, 0)
    history = await store.chip_history(member_account(G, BOB))
    assert (history.gifts_out, history.gifts_in) == (0, 500)
    await audit_ok(store)


async def test_the_age_gate_hook_refuses_a_gift_when_it_says_no(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.economy

    async def nobody(*args: object) -> bool:
        return False

    await store.set_guild_setting(G, "give_enabled", 1, ANN)
    monkeypatch.setattr(bot.economy, "may_receive_chips", nobody)
    with pytest.raises(ServiceError) as refused:
        await give_chips(store, G, ANN, BOB, 5, receiver_is_bot=False)
    assert refused.value.key == "err.give.not_yet"
    assert await store.member_balance(G, BOB) == 0  # not even created


async def test_erasing_a_member_erases_their_break_and_standings(store: Store) -> None:
    await store.ensure_member(G, BOB)
    await store.reset_season(G, BOB, season=1)
    await store.start_break(G, BOB, timedelta(hours=5))
    result = await store.forget_member(BOB, G)
    assert not result.refused
    for sql in (
        "SELECT COUNT(*) FROM member_breaks WHERE user_id = ?",
        "SELECT COUNT(*) FROM season_standings WHERE user_id = ?",
        "SELECT COUNT(*) FROM seasons WHERE reset_by = ?",
    ):
        assert await raw_sql(store, sql, BOB) == [(0,)], sql
    await audit_ok(store)


async def test_a_member_on_a_break_cannot_bid_for_the_pontoon_bank(
    store: Store, games: Games
) -> None:
    rules = PontoonRules(shoot=True, kitty_min=10, kitty_max=50)
    pt = await games.pontoon.open_table(G, 66, ANN, rules)
    for uid in (BOB, CAT):
        await games.pontoon.act(pt.table_id, uid, PontoonKind.JOIN)
    await games.pontoon.deal(pt.table_id, ANN)
    assert pt.engine.phase is PontoonPhase.KITTY
    banker = int(pt.engine.banker or 0)
    resting, bidding = [u for u in (ANN, BOB, CAT) if u != banker]
    await games.pontoon.open_auction(pt.table_id, banker, 600)
    await take_break(store, G, resting, 1, "hours")
    with pytest.raises(MemberOnBreak):
        await games.pontoon.bid(pt.table_id, resting, 5)
    await games.pontoon.bid(pt.table_id, bidding, 5)
    await audit_ok(store)
