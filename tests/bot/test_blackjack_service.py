"""BlackjackService with a real Store on tmp_path and stacked shoes (rules: BJ-...):
stakes escrowed with the snapshot, the deal once every seat has bet, refusals that change
nothing, a stale click, the round's results for /stats, a restart mid-round, an idle
table closing, /end mid-round returning every stake, one table per member across games."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.audit import audit
from bot.blackjack import (
    GAME_BLACKJACK,
    BlackjackService,
    BlackjackTimers,
    OpenBlackjackTable,
)
from bot.errors import BusyElsewhere, NotSeated, ServiceError, StaleButton
from bot.host import Change, ChangeKind, together
from bot.i18n import Msg
from bot.punto_banco import PuntoBancoService
from bot.storage import GuildSettings, Store, escrow_account, house_account
from engine.blackjack import ActionKind, BlackjackRules, HandOutcome, Phase, RoundResult, Shoe
from engine.cards import RandomChance, full_pack, parse_card
from engine.errors import RuleError
from tests.bot.test_round_results import result_rows

G, CH, CH2 = 7101, 8101, 8102
ANN, BOB, CAT = 201, 202, 203
START = 100
K = ActionKind


class Recorder:
    """Hears every change the service publishes, as start-up's presenter does: a settled
    round's balances are read and the round marked shown, as the presenter does."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.results: list[RoundResult] = []
        self.changes: list[Change[OpenBlackjackTable]] = []
        self.service: BlackjackService | None = None

    async def on_change(self, change: Change[OpenBlackjackTable]) -> None:
        live = change.table
        self.changes.append(change)
        if change.kind is ChangeKind.OPENED:
            self.calls.append(("opened", live.table_id))
        elif change.kind is ChangeKind.CLOSED:
            self.calls.append(("closed", [(t.dst, t.amount) for t in change.transfers]))
        elif change.kind is ChangeKind.MOVE:
            self.calls.append(("changed", change.state_version))
            for result in (o.result for o in change.outcomes if o.result is not None):
                assert self.service is not None
                seats = (h.seat for h in result.hands)
                balances = await self.service.balances_of(live, seats)
                self.calls.append(("settled", dict(balances)))
                self.results.append(result)
                await self.service.mark_announced(live, result.round_no)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3", defaults=GuildSettings(starting_chips=START))
    yield s
    await s.close()


def service_for(store: Store, rec: Recorder | None = None, **kw: Any) -> BlackjackService:
    service = BlackjackService(store, chance=RandomChance(random.Random(0)), run_timers=False, **kw)
    rec = rec or Recorder()
    rec.service = service
    service.subscribe(rec.on_change)
    return service


async def open_with_shoe(
    service: BlackjackService, top: list[str], rules: BlackjackRules | None = None, ch: int = CH
) -> OpenBlackjackTable:
    rules = rules or BlackjackRules(decks=1, max_bet=50)
    live = await service.open_table(G, ch, ANN, rules, opener_name="ann")
    cards = [parse_card(c) for c in top]
    rest = full_pack(rules.decks)
    for c in cards:
        rest.remove(c)
    live.engine.shoe = Shoe(rules.decks, cards + rest)
    return live


async def audit_ok(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()


@pytest.mark.rule("BJ-BET-1", "BJ-CHIPS-1", "BJ-SETTLE-1")
async def test_a_round_escrows_deals_when_all_have_bet_and_settles(store: Store) -> None:
    rec = Recorder()
    service = service_for(store, rec)
    # ann 10+9 = 19, bob 10+6 = 16; dealer 7 up, 10 hole = 17; bob hits a 4: 20
    live = await open_with_shoe(service, ["10S", "10H", "7D", "9C", "6S", "10D", "4C"])
    await service.join(live.table_id, ANN, name="ann")
    await service.join(live.table_id, BOB, name="bob")
    await service.bet(live.table_id, ANN, 10, round_no=live.round)
    assert await store.member_balance(G, ANN) == START - 10
    assert await store.balance(escrow_account(live.table_id)) == 10 == live.engine.escrow
    stored = await store.get_table(live.table_id)
    assert stored is not None and stored.game == GAME_BLACKJACK
    assert json.loads(stored.state_json)["engine"]["bets"] == {str(ANN): 10}
    assert live.engine.phase is Phase.BETTING  # bob has not bet yet
    await service.bet(live.table_id, BOB, 20)
    assert live.engine.phase is Phase.PLAYING  # every seat has bet: dealt at once
    assert live.engine.to_act() == [str(ANN)]
    assert service.chips_in_play_of(live, BOB) == 20 and service.holds_chips_of(G, BOB)
    await service.play(live.table_id, ANN, K.STAND, version=live.engine.version)
    await service.play(live.table_id, BOB, K.HIT)
    await service.play(live.table_id, BOB, K.STAND)
    await service.delivered(live.table_id)
    assert live.engine.phase is Phase.ROUND_OVER and rec.results
    hands = rec.results[0].hands
    assert [h.outcome for h in hands] == [HandOutcome.WIN, HandOutcome.WIN]
    assert await store.member_balance(G, ANN) == START + 10
    assert await store.member_balance(G, BOB) == START + 20
    assert await store.balance(house_account(G)) <= -30
    assert await store.balance(escrow_account(live.table_id)) == 0
    assert rec.calls[-1] == ("settled", {str(ANN): START + 10, str(BOB): START + 20})
    rows = await result_rows(store)
    assert sorted(net for _, _, net in rows) == [10, 20]
    assert live.announced == 1
    await audit_ok(store)


@pytest.mark.rule("BJ-CHIPS-1", "BJ-SPLIT-1", "BJ-DOUBLE-1")
async def test_refusals_change_nothing(store: Store) -> None:
    service = service_for(store)
    rules = BlackjackRules(decks=1, max_bet=60)
    live = await open_with_shoe(service, ["KS", "9D", "QH", "8C"], rules)
    with pytest.raises(NotSeated):
        await service.bet(live.table_id, ANN, 10)
    await service.join(live.table_id, ANN)
    with pytest.raises(RuleError) as err:  # above the table's limit
        await service.bet(live.table_id, ANN, 61)
    assert err.value.key == "engine.bj.max"
    await service.bet(live.table_id, ANN, 60)  # the only seat: dealt at once
    assert live.engine.phase is Phase.PLAYING
    before = live.engine.to_json()
    stored = await store.get_table(live.table_id)
    with pytest.raises(RuleError) as err:  # K+Q do not split
        await service.play(live.table_id, ANN, K.SPLIT)
    assert err.value.key == "engine.bj.split_pair"
    with pytest.raises(RuleError) as err:  # 40 chips left: no double of 60
        await service.play(live.table_id, ANN, K.DOUBLE)
    assert (err.value.rule, err.value.params) == ("BJ-CHIPS-1", {"amount": 60, "balance": 40})
    with pytest.raises(RuleError) as err:  # no insurance with a 9 up
        await service.insure(live.table_id, ANN, 5)
    assert err.value.key == "engine.bj.no_insurance"
    with pytest.raises(StaleButton):  # a button drawn for an older state (a double click)
        await service.play(live.table_id, ANN, K.STAND, version=live.engine.version - 1)
    with pytest.raises(NotSeated):
        await service.play(live.table_id, BOB, K.HIT)
    assert live.engine.to_json() == before
    assert await store.get_table(live.table_id) == stored
    assert await store.member_balance(G, ANN) == START - 60
    await audit_ok(store)


@pytest.mark.rule("BJ-TIMER-1")
async def test_the_turn_timer_stands_for_a_player_and_says_so(store: Store) -> None:
    rec = Recorder()
    service = service_for(store, rec)
    # ann 2+3 = 5 against 10 + 8: the timer hits 4 (9) and 10 (19), then stands
    live = await open_with_shoe(service, ["2S", "10D", "3H", "8C", "4D", "10S"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    live.deadline = 0.0  # the turn has run out
    await service.time_up(live.table_id)
    await service.delivered(live.table_id)
    assert live.engine.phase is Phase.ROUND_OVER
    assert {"kind": "timed_out", "seat": str(ANN), "hits": 2} in live.notes
    assert rec.results[0].hands[0].cards == ("2S", "3H", "4D", "10S")
    assert await store.member_balance(G, ANN) == START + 10
    await audit_ok(store)


@pytest.mark.rule("BJ-TABLE-1")
async def test_a_restart_mid_round_resumes_the_round(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite3"
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C", "5D"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    assert live.engine.phase is Phase.PLAYING
    await store.close()
    # a new process: the table comes back from the store as it was, mid-round
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    again = service_for(store)
    (reloaded,) = await again.load()
    assert reloaded.engine.to_json() == live.engine.to_json()
    assert reloaded.deadline is not None
    await again.play(reloaded.table_id, ANN, K.HIT)  # 16 + 5 = 21: stands by itself
    assert reloaded.engine.phase is Phase.ROUND_OVER
    assert await store.member_balance(G, ANN) == START + 10
    await audit_ok(store)
    await store.close()


async def test_idle_windows_close_the_table_and_end_returns_every_stake(store: Store) -> None:
    rec = Recorder()
    service = service_for(store, rec, timers=BlackjackTimers(idle_windows=2))
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.join(live.table_id, ANN)
    for _ in range(2):
        live.deadline = 0.0
        await service.time_up(live.table_id)
    await service.delivered(live.table_id)
    assert live.table_id not in service.tables and rec.calls[-1] == ("closed", [])
    # a table ended mid-round gives back the bet of the hand being played
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"], ch=CH2)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, BOB, 25)
    assert live.engine.phase is Phase.PLAYING
    refunds = await service.close(live.table_id, Msg("reason.bj_idle", windows=1))
    assert [(t.dst, t.amount) for t in refunds] == [(str(BOB), 25)]
    assert await store.member_balance(G, BOB) == START
    await audit_ok(store)


async def test_a_member_is_at_one_table_across_games(store: Store) -> None:
    bj = service_for(store)
    pb = PuntoBancoService(store, run_timers=False)
    undo = together(bj, pb)
    try:
        live = await open_with_shoe(bj, ["10S", "9D", "6H", "8C"])
        pb_live = await pb.open_table(G, CH2, BOB, pb_rules())
        await pb.bet(pb_live.table_id, BOB, "banco", 5)
        with pytest.raises(BusyElsewhere):
            await bj.join(live.table_id, BOB)
        await bj.join(live.table_id, ANN)
        await bj.bet(live.table_id, ANN, 5)
        with pytest.raises(BusyElsewhere):
            await pb.bet(pb_live.table_id, ANN, "punto", 5)
    finally:
        undo()


def pb_rules() -> Any:
    from engine.punto_banco import PuntoBancoRules

    return PuntoBancoRules()


async def test_a_deal_that_fails_at_once_leaves_the_bet_for_the_timer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.join(live.table_id, ANN)
    real_deal = service._deal

    async def broken(live: OpenBlackjackTable) -> RoundResult | None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "_deal", broken)
    await service.bet(live.table_id, ANN, 10)  # the bet is placed, not refused
    assert live.engine.phase is Phase.BETTING and live.engine.bets == {str(ANN): 10}
    assert await store.member_balance(G, ANN) == START - 10
    monkeypatch.setattr(service, "_deal", real_deal)
    live.deadline = 0.0
    await service.time_up(live.table_id)  # the window closes: dealt
    assert live.engine.phase is Phase.PLAYING
    await audit_ok(store)


async def test_every_committed_change_is_published_after_the_caller_has_it(store: Store) -> None:
    """The service returns the committed change to its caller (a click's handler answers
    from it) and the host publishes that same change to the subscribers, in a task of its
    own: the caller never waits for them; a refused move publishes nothing."""
    rec = Recorder()
    service = service_for(store, rec)
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.delivered(live.table_id)
    assert rec.calls == [("opened", live.table_id)]
    change = await service.join(live.table_id, ANN)
    assert change.table is live and change.state_version == live.engine.version
    assert rec.calls == [("opened", live.table_id)]  # not yet: the caller answers first
    await service.delivered(live.table_id)
    assert rec.changes[-1] is change
    with pytest.raises(ServiceError):
        await service.leave(live.table_id, BOB)  # not seated: refused
    await service.delivered(live.table_id)
    assert rec.changes[-1] is change


@pytest.mark.rule("BJ-TIMER-1")
async def test_the_timer_moves_through_the_host_and_a_failure_backs_off(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn timer's stand is a move of the host's (refused as stale, so skipped, when
    the table moved on); a failed save leaves the table as it was and the host's one
    back-off schedules the next try."""
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    assert live.engine.phase is Phase.PLAYING
    before = live.engine.to_json()

    async def refused(*args: Any, **kwargs: Any) -> None:
        from bot.storage.errors import StorageError

        raise StorageError("the database is locked")

    monkeypatch.setattr(store, "save_table", refused)
    live.deadline = 0.0
    job = service.timer_job(live, 0.0)
    await service._run_job(live, job)
    assert live.engine.to_json() == before  # put back whole
    assert live.table_id in service._retry_at  # the host's back-off
    assert live.deadline is not None and live.deadline > 0.0
    monkeypatch.undo()
    live.deadline = 0.0
    await service._run_job(live, service.timer_job(live, 0.0))
    assert live.engine.phase is Phase.ROUND_OVER and live.table_id not in service._retry_at
