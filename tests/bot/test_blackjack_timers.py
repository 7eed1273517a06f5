"""What Blackjack's timers play through the service (BJ-TIMER-1, BJ-INS-1, BJ-BET-1):
the turn timer's move for each total where it changes, said on the table message; the
insurance timeout declining only the unanswered seats; a timer that fires early doing
nothing; the idle close after exactly ``idle_windows`` empty windows in a row, and a
round played in between starting the count again. Chips checked in the ledger."""

from __future__ import annotations

import time

import pytest

from bot.blackjack import BlackjackTimers
from bot.i18n import t
from bot.storage import Store
from cogs.blackjack.presenter import table_layout
from engine.blackjack import ActionKind, Phase
from localdiscord.models import TEXT_DISPLAY, walk_components
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


def message_text(live: object) -> str:
    comps = table_layout(live, locale="en").to_components()  # type: ignore[arg-type]
    return "\n".join(str(c["content"]) for c in walk_components(comps) if c["type"] == TEXT_DISPLAY)


@pytest.mark.rule("BJ-TIMER-1")
@pytest.mark.parametrize(
    ("cards", "draws", "hits", "note"),
    [
        (("2S", "3H"), ("4D", "5C"), 2, "bj.note.timed_out"),  # 5 -> 9 -> 14
        (("5S", "6H"), ("AD",), 1, "bj.note.timed_out.one"),  # 11 -> 12
        (("5S", "7H"), (), 0, "bj.note.timed_out_stood"),  # 12 stands
        (("AS", "AH"), (), 0, "bj.note.timed_out_stood"),  # soft 12 stands
    ],
)
async def test_the_turn_timer_hits_under_12_then_stands_and_says_so(
    store: Store, cards: tuple[str, str], draws: tuple[str, ...], hits: int, note: str
) -> None:
    rec = Recorder()
    service = service_for(store, rec)
    # ann plays first, bob (10 9) waits; the dealer 7 10 (17)
    top = [cards[0], "10D", "7C", cards[1], "9D", "10C", *draws]
    live = await open_with_shoe(service, top)
    await service.join(live.table_id, ANN, name="ann")
    await service.join(live.table_id, BOB, name="bob")
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    assert live.engine.to_act() == [str(ANN)]
    live.deadline = 0.0  # ann's turn has run out
    await service.time_up(live.table_id)
    hand = live.engine.boxes[str(ANN)].hands[0]
    assert [c.code for c in hand.cards] == [*cards, *draws[:hits]] and hand.done
    assert {"kind": "timed_out", "seat": str(ANN), "hits": hits} in live.notes
    assert live.engine.to_act() == [str(BOB)]  # bob's turn, on a full clock
    assert live.deadline is not None and live.deadline > time.monotonic()
    said = t("en", note, name="ann", hits=hits)
    assert said in message_text(live)
    await service.play(live.table_id, BOB, K.STAND)
    assert live.engine.phase is Phase.ROUND_OVER
    total = hand.total
    want = START + (10 if total > 17 else -10)
    assert await store.member_balance(G, ANN) == want
    await audit_ok(store)


@pytest.mark.rule("BJ-TIMER-1", "BJ-INS-1")
async def test_the_insurance_timeout_declines_only_the_unanswered_seats(store: Store) -> None:
    service = service_for(store)
    # ann 10 9 insures 5, bob 10 10 does not answer; the dealer A K: blackjack
    live = await open_with_shoe(service, ["10S", "10H", "AD", "9S", "10D", "KC"])
    await service.join(live.table_id, ANN, name="ann")
    await service.join(live.table_id, BOB, name="bob")
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    assert live.engine.phase is Phase.INSURANCE
    await service.insure(live.table_id, ANN, 5)
    assert live.engine.phase is Phase.INSURANCE and live.engine.to_act() == [str(BOB)]
    live.deadline = 0.0
    await service.time_up(live.table_id)
    assert {"kind": "insurance_declined"} in live.notes
    assert live.engine.phase is Phase.ROUND_OVER  # the peek found the blackjack
    assert live.engine.boxes[str(ANN)].insurance == 5
    assert live.engine.boxes[str(BOB)].insurance == 0
    assert await store.member_balance(G, ANN) == START  # -10 on the hand, +10 insured
    assert await store.member_balance(G, BOB) == START - 10
    await audit_ok(store)


@pytest.mark.rule("BJ-TIMER-1")
async def test_a_timer_that_fires_before_the_deadline_plays_nothing(store: Store) -> None:
    service = service_for(store)
    live = await open_with_shoe(service, ["2S", "10D", "3H", "8C"])
    await service.join(live.table_id, ANN)
    await service.bet(live.table_id, ANN, 10)
    before = live.engine.to_json()
    live.deadline = time.monotonic() + 30  # a move restarted the clock meanwhile
    await service.time_up(live.table_id)
    assert live.engine.to_json() == before
    # an empty betting window that has not run out counts nothing either
    other = await open_with_shoe(service, ["2S", "10D", "3H", "8C"], ch=8102)
    other.deadline = time.monotonic() + 30
    await service.time_up(other.table_id)
    assert other.empty_windows == 0 and other.table_id in service.tables


@pytest.mark.rule("BJ-BET-1")
@pytest.mark.parametrize("idle", [1, 2, 3])
async def test_the_table_closes_after_exactly_idle_windows_empty_windows(
    store: Store, idle: int
) -> None:
    rec = Recorder()
    service = service_for(store, rec, timers=BlackjackTimers(idle_windows=idle))
    live = await open_with_shoe(service, ["10S", "9D", "6H", "8C"])
    await service.join(live.table_id, ANN)
    for n in range(1, idle):
        live.deadline = 0.0
        await service.time_up(live.table_id)
        assert live.table_id in service.tables and live.empty_windows == n
        assert live.deadline > time.monotonic()  # a new window, on a full clock
    live.deadline = 0.0
    await service.time_up(live.table_id)
    await service.delivered(live.table_id)
    assert live.table_id not in service.tables and rec.calls[-1] == ("closed", [])


@pytest.mark.rule("BJ-BET-1")
async def test_a_round_between_empty_windows_starts_the_idle_count_again(store: Store) -> None:
    rec = Recorder()
    service = service_for(store, rec, timers=BlackjackTimers(idle_windows=2))
    # ann 10 9 (19) stands against 6 8 (14), which draws a 10: bust
    live = await open_with_shoe(service, ["10S", "6D", "9H", "8C", "10C"])
    await service.join(live.table_id, ANN)
    live.deadline = 0.0
    await service.time_up(live.table_id)  # one empty window
    assert live.empty_windows == 1
    await service.bet(live.table_id, ANN, 10)  # dealt at once: the count starts again
    assert live.empty_windows == 0
    await service.play(live.table_id, ANN, K.STAND)
    assert live.engine.phase is Phase.ROUND_OVER
    live.deadline = 0.0
    await service.time_up(live.table_id)  # the window after the round: one empty
    assert live.table_id in service.tables and live.empty_windows == 1
    live.deadline = 0.0
    await service.time_up(live.table_id)
    assert live.table_id not in service.tables
    assert await store.member_balance(G, ANN) == START + 10
    await audit_ok(store)


@pytest.mark.rule("BJ-BET-1")
async def test_a_window_with_a_bet_is_dealt_when_it_closes(store: Store) -> None:
    service = service_for(store, timers=BlackjackTimers(idle_windows=1))
    live = await open_with_shoe(service, ["10S", "10H", "6D", "9S", "8C", "10C"])
    await service.join(live.table_id, ANN)
    await service.join(live.table_id, BOB)
    await service.bet(live.table_id, ANN, 10)  # bob sits this round out
    live.deadline = 0.0
    await service.time_up(live.table_id)
    assert live.engine.phase is Phase.PLAYING and list(live.engine.boxes) == [str(ANN)]
    assert live.table_id in service.tables and live.empty_windows == 0
