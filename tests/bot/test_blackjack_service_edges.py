"""BlackjackService at its edges, each test naming the rule it holds (found by
scripts/mutate.py: one-spot changes of bot/blackjack.py no other test noticed): the round
a betting or insurance button carries, who holds chips at a table, what a restart keeps
(the table's words about the round, which result was shown)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from bot.blackjack import BlackjackTimers, OpenBlackjackTable, holdings
from bot.errors import ServiceError, StaleButton
from bot.host import Change, ChangeKind
from bot.i18n import Msg
from bot.storage import GuildSettings, Store
from engine.blackjack import ActionKind, BlackjackRules, Phase
from engine.records import Transfer
from tests.bot.test_blackjack_service import (
    ANN,
    BOB,
    START,
    G,
    Recorder,
    audit_ok,
    open_with_shoe,
    service_for,
    store,
)

__all__ = ["store"]  # the fixture, imported for these tests
K = ActionKind


@pytest.mark.rule("BJ-BET-1", "BJ-INS-1")
async def test_the_round_the_buttons_carry(store: Store) -> None:
    """Bets are for the next round, insurance for the round being played: a button
    drawn for another round is stale."""
    service = service_for(store)
    # ann 10 9 against an ace (insurance), then 7: 18; the next round's bet after it
    live = await open_with_shoe(service, ["10S", "AD", "9H", "7C"])
    await service.join(live.table_id, ANN)
    assert live.round == 1 and live.engine.round_no == 0  # betting on round 1
    await service.bet(live.table_id, ANN, 10, round_no=1)
    assert live.engine.phase is Phase.INSURANCE and live.round == 1  # round 1 in play
    with pytest.raises(StaleButton):
        await service.insure(live.table_id, ANN, 0, round_no=2)
    await service.insure(live.table_id, ANN, 0, round_no=1)
    await service.play(live.table_id, ANN, K.STAND)
    assert live.engine.phase is Phase.ROUND_OVER and live.round == 2  # bets on round 2
    with pytest.raises(StaleButton):
        await service.bet(live.table_id, ANN, 10, round_no=1)
    await service.bet(live.table_id, ANN, 10, round_no=2)  # the only seat: dealt at once
    assert live.engine.round_no == 2 and live.round == 2


@pytest.mark.rule("BJ-CHIPS-1", "BJ-TABLE-1")
async def test_who_holds_chips_at_a_table(store: Store) -> None:
    """A seat counts, with or without a bet (one seat rule for every game); the escrow
    holds each seat's own stake; a member who leaves holds nothing there."""
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    assert not service.has_chips_at(live, ANN) and service.scan_table_of_member(G, ANN) is None
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    assert service.has_chips_at(live, ANN) and service.has_chips_at(live, BOB)
    assert not service.has_chips_at(live, 999)
    assert service.scan_table_of_member(G, ANN) is live
    await service.bet(live.table_id, ANN, 10)
    found = holdings(live.engine.to_json())
    assert (found.escrow, found.stakes, found.exact) == (10, {str(ANN): 10}, True)
    assert found.in_play == frozenset({ANN, BOB})
    await service.leave(live.table_id, BOB)  # ann alone has bet: dealt at once
    assert not service.has_chips_at(live, BOB) and service.scan_table_of_member(G, BOB) is None
    assert holdings(live.engine.to_json()).in_play == frozenset({ANN})


@pytest.mark.rule("BJ-TIMER-1")
async def test_a_restart_keeps_what_the_table_said_and_which_result_was_shown(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bank.sqlite3"
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    rec = Recorder()
    service = service_for(store, rec)
    # ann 5 6 (11) times out: a 2 (13); bob 10 9 is still to play; the dealer 7 10
    live = await open_with_shoe(service, ["5S", "10H", "7C", "6S", "9D", "10C", "2D"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    live.deadline = 0.0
    await service.time_up(live.table_id)
    notes = [n for n in live.notes if n["kind"] == "timed_out"]
    assert notes == [{"kind": "timed_out", "seat": str(ANN), "hits": 1}]
    assert service.missed_result(live) is None and service.last_round(live) == 0
    await store.close()
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    again = service_for(store, Recorder())
    (reloaded,) = await again.load()
    assert [n for n in reloaded.notes if n["kind"] == "timed_out"] == notes
    await again.play(reloaded.table_id, BOB, K.STAND)
    await again.delivered(reloaded.table_id)  # the presenter marks the result shown
    assert again.last_round(reloaded) == 1 and reloaded.announced == 1
    assert again.missed_result(reloaded) is None  # shown: not posted again
    reloaded.announced = 0  # as if the process stopped before the post
    assert again.missed_result(reloaded) is reloaded.engine.last_result
    await audit_ok(store)
    await store.close()


@pytest.mark.rule("BJ-BET-1")
async def test_a_bet_returns_the_bet_placed_and_same_bet_needs_a_last_round(
    store: Store,
) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "10H", "6D", "9S", "8C", "10C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    with pytest.raises(ServiceError) as err:
        service.same_bet_amount(live, ANN)
    assert err.value.key == "err.bj.no_last_bet"
    placed = await service.bet(live.table_id, ANN, 15)  # bob has not bet: not dealt
    assert placed.transfers == (Transfer(str(ANN), "@escrow", 15, "blackjack bet"),)
    assert live.engine.phase is Phase.BETTING and live.engine.bets[str(ANN)] == 15
    dealt = await service.bet(live.table_id, BOB, 20)  # dealt at once: the bet and the deal
    assert dealt.transfers == (Transfer(str(BOB), "@escrow", 20, "blackjack bet"),)
    assert live.engine.phase is Phase.PLAYING and dealt.state_version == live.engine.version
    assert service.same_bet_amount(live, ANN) == 15
    assert service.same_bet_amount(live, BOB) == 20


@pytest.mark.rule("BJ-BET-1", "BJ-INS-1")
async def test_every_move_is_published_once_with_its_version(store: Store) -> None:
    """A leave, bet, insurance or play (a slash command's or a click's) is published to
    the presenter once: the moves it heard make the change the caller got (a bet that
    deals at once: the bet, then the deal), at the table's version then (a
    click's table message is not drawn again: tests/bot/test_change_published.py); the
    timers' defaults."""
    assert BlackjackTimers() == BlackjackTimers(30.0, 45.0, 3)
    rec = Recorder()
    service = service_for(store, rec)
    live = await open_with_shoe(service, ["10S", "10H", "AD", "9S", "8C", "7C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)

    await service.delivered(live.table_id)  # the joins heard

    async def published(move: Awaitable[Change[OpenBlackjackTable]]) -> None:
        count = len(rec.changes)
        change = await move
        await service.delivered(live.table_id)
        heard = rec.changes[count:]  # a bet that deals: the bet, then the deal
        assert heard and Change.merged(heard) == change
        assert rec.calls[-1] == ("changed", live.engine.version)

    await published(service.leave(live.table_id, BOB))
    await published(service.join(live.table_id, BOB))
    await published(service.bet(live.table_id, ANN, 10))
    await published(service.bet(live.table_id, BOB, 10))
    assert live.engine.phase is Phase.INSURANCE  # dealt: the ace up asks for insurance
    await published(service.insure(live.table_id, ANN, 0))
    await published(service.insure(live.table_id, BOB, 0))
    await published(service.play(live.table_id, ANN, K.STAND))
    await audit_ok(store)


@pytest.mark.rule("BJ-EDGE-1")
async def test_the_hint_logs_the_time_it_took(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "6D", "6H", "10C"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    with caplog.at_level(logging.INFO, logger="bot.blackjack"):
        service.hint(live.table_id, ANN)
    (record,) = [r for r in caplog.records if "hint in" in r.getMessage()]
    assert 0 < float(record.args[1]) < 60_000  # type: ignore[index]


@pytest.mark.rule("BJ-PEEK-1", "BJ-BET-1")
async def test_a_deal_that_ends_the_round_at_once_posts_its_result(store: Store) -> None:
    """The last bet deals; the peek finds a dealer blackjack and the round is settled in
    that same deal: its result is posted, once, with the balances."""
    rec = Recorder()
    service = service_for(store, rec)
    # ann 10 9 against 10 up and an ace in the hole
    live = await open_with_shoe(service, ["10S", "10D", "9H", "AC"], ch=8201)
    await service.join(live.table_id, ANN)
    before = await store.member_balance(G, ANN)
    await service.bet(live.table_id, ANN, 10)
    assert live.engine.phase is Phase.ROUND_OVER
    await service.delivered(live.table_id)
    settled = [c for c in rec.calls if c[0] == "settled"]
    assert settled == [("settled", {str(ANN): before - 10})]
    assert len(rec.results) == 1 and rec.results[0].dealer_blackjack
    assert live.announced == 1
    await service.close(live.table_id, Msg("reason.bj_idle", windows=1))
    await service.delivered(live.table_id)
    assert len(rec.results) == 1  # posted once
    await audit_ok(store)


@pytest.mark.rule("BJ-BET-1")
async def test_a_member_sitting_down_does_not_make_a_window_less_empty(store: Store) -> None:
    """Only a deal starts the idle count again: a member who sits down (or leaves)
    between two empty windows does not."""
    rec = Recorder()
    service = service_for(store, rec, timers=BlackjackTimers(idle_windows=2))
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    await service.join(live.table_id, ANN)
    live.deadline = 0.0
    await service.time_up(live.table_id)
    assert live.empty_windows == 1
    await service.join(live.table_id, BOB)
    await service.leave(live.table_id, BOB)
    assert live.empty_windows == 1
    live.deadline = 0.0
    await service.time_up(live.table_id)
    await service.delivered(live.table_id)
    assert live.table_id not in service.tables and rec.calls[-1] == ("closed", [])


@pytest.mark.rule("BJ-TABLE-1")
async def test_a_long_name_is_kept_to_64_characters(store: Store) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    await service.join(live.table_id, ANN, name="n" * 100)
    assert live.names[str(ANN)] == "n" * 64


@pytest.mark.rule("BJ-BET-1")
async def test_a_deal_that_fails_at_once_is_logged_with_its_cause(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.join(live.table_id, ANN)

    async def broken(live: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "_deal", broken)
    with caplog.at_level(logging.WARNING, logger="bot.blackjack"):
        await service.bet(live.table_id, ANN, 10)
    (record,) = [r for r in caplog.records if "dealing at once failed" in r.getMessage()]
    assert record.exc_info is not None and "went away" in str(record.exc_info[1])
    assert live.engine.bets == {str(ANN): 10}  # the bet stands for the window's timer


class Reasons(Recorder):
    """A presenter that keeps why each table closed."""

    def __init__(self) -> None:
        super().__init__()
        self.reasons: list[Msg] = []

    async def on_change(self, change: Change[OpenBlackjackTable]) -> None:
        if change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            self.reasons.append(change.reason)
        await super().on_change(change)


@pytest.mark.rule("BJ-BET-1")
@pytest.mark.parametrize("idle", [1, 3])
async def test_an_idle_table_says_how_many_windows_passed(store: Store, idle: int) -> None:
    rec = Reasons()
    service = service_for(store, rec, timers=BlackjackTimers(idle_windows=idle))
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    for _ in range(idle):
        live.deadline = 0.0
        await service.time_up(live.table_id)
    await service.delivered(live.table_id)
    (reason,) = rec.reasons
    assert (reason.key, reason.params) == ("reason.bj_idle", {"windows": idle})


@pytest.mark.rule("BJ-BET-1")
async def test_a_window_counted_empty_after_a_deal_slipped_in_counts_nothing(
    store: Store,
) -> None:
    """time_up saw an empty window, but a bet and its deal came first under the lock:
    the round in play is no empty window."""
    service = service_for(store, timers=BlackjackTimers(idle_windows=1))
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    assert live.engine.phase is Phase.PLAYING
    await service._empty_window(live)
    assert live.table_id in service.tables and live.empty_windows == 0


@pytest.mark.rule("BJ-TABLE-2")
async def test_the_first_shuffle_is_said_on_the_table(store: Store) -> None:
    """A new shoe is shuffled before the first round, and the table says so while the
    round is played; the next deal's notes start afresh."""
    service = service_for(store)
    live = await service.open_table(G, 8301, ANN, BlackjackRules(decks=1), opener_name="ann")
    await service.join(live.table_id, ANN, name="ann")
    await service.join(live.table_id, BOB, name="bob")
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    assert live.engine.round_no == 1
    assert {"kind": "shuffled"} in live.notes
    assert all(n.get("kind") is not None for n in live.notes)


@pytest.mark.rule("BJ-BET-1")
async def test_the_round_is_dealt_when_the_last_member_without_a_bet_leaves(
    store: Store,
) -> None:
    """Every member still seated has bet once the only one without a bet leaves: the
    round is dealt at once, not when the window closes."""
    service = service_for(store)
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)
    assert live.engine.phase is Phase.BETTING  # bob has not bet
    await service.leave(live.table_id, BOB)
    assert live.engine.phase is Phase.PLAYING and list(live.engine.boxes) == [str(ANN)]
    # the last member leaving an empty table deals nothing
    await service.play(live.table_id, ANN, K.STAND)
    await service.leave(live.table_id, ANN)
    assert live.engine.seats == [] and live.engine.phase is Phase.ROUND_OVER
    await audit_ok(store)


class ClosesOnBet(Recorder):
    """A presenter while whose showing of a bet the table is ended (as by /blackjack
    end)."""

    async def on_change(self, change: Change[OpenBlackjackTable]) -> None:
        await super().on_change(change)
        if any(t.reason == "blackjack bet" for t in change.transfers):
            assert self.service is not None
            await self.service.close(change.table_id, Msg("reason.bj_idle", windows=1))


@pytest.mark.rule("BJ-BET-1")
async def test_a_bet_whose_table_closes_meanwhile_returns_the_bet(store: Store) -> None:
    rec = ClosesOnBet()
    service = service_for(store, rec)
    live = await open_with_shoe(service, ["10S", "6D", "9H", "10C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    placed = await service.bet(live.table_id, ANN, 10)
    assert placed.transfers == (Transfer(str(ANN), "@escrow", 10, "blackjack bet"),)
    await service.delivered(live.table_id)
    assert live.table_id not in service.tables
    assert rec.calls[-1] == ("closed", [(str(ANN), 10)])
    assert await store.member_balance(G, ANN) == START  # the bet came back on the close
    await audit_ok(store)


@pytest.mark.rule("BJ-TIMER-1")
async def test_a_move_that_fails_to_save_keeps_what_the_table_said(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage.errors import StorageError

    service = service_for(store)
    # ann 5 6 (11) times out: a 2 (13); bob 10 9 is to play; the dealer 7 10
    live = await open_with_shoe(service, ["5S", "10H", "7C", "6S", "9D", "10C", "2D"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    live.deadline = 0.0
    await service.time_up(live.table_id)
    notes = list(live.notes)
    assert {"kind": "timed_out", "seat": str(ANN), "hits": 1} in notes

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise StorageError("the database is locked")

    monkeypatch.setattr(store, "save_table", refused)
    with pytest.raises(StorageError):
        await service.play(live.table_id, BOB, K.STAND)
    assert live.notes == notes and live.engine.to_act() == [str(BOB)]


@pytest.mark.rule("BJ-TIMER-1")
async def test_the_timers_words_stay_for_the_round_and_go_with_the_next_deal(
    store: Store,
) -> None:
    rec = Recorder()
    service = service_for(store, rec)
    # ann 5 6 (11) times out: a 2 (13); bob 10 2 hits a 3 (15), stands; the dealer 7 10
    live = await open_with_shoe(
        service, ["5S", "10H", "7C", "6S", "2D", "10C", "2C", "3H"], BlackjackRules(decks=1)
    )
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    live.deadline = 0.0
    await service.time_up(live.table_id)
    said = {"kind": "timed_out", "seat": str(ANN), "hits": 1}
    assert said in live.notes
    await service.play(live.table_id, BOB, K.HIT)
    assert said in live.notes  # still said while the round is played
    await service.play(live.table_id, BOB, K.STAND)
    assert said in live.notes  # and in the round's result post
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)  # the next round is dealt
    assert said not in live.notes


@pytest.mark.rule("BJ-TIMER-1", "BJ-INS-1")
async def test_only_the_insurance_timeout_says_insurance_was_declined(store: Store) -> None:
    service = service_for(store)
    # ann 10 9 and bob 10 8 against an ace (7 in the hole): ann declines herself
    live = await open_with_shoe(service, ["10S", "10H", "AD", "9S", "8D", "7C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    await service.insure(live.table_id, ANN, 0)
    assert live.notes == []  # a member's own answer is no note
    live.deadline = 0.0
    await service.time_up(live.table_id)  # bob did not answer: declined for him
    assert live.notes == [{"kind": "insurance_declined"}]
    live.deadline = 0.0
    await service.time_up(live.table_id)  # ann's turn runs out: she stands on 19
    kinds = [n["kind"] for n in live.notes]
    assert kinds == ["insurance_declined", "timed_out"]
