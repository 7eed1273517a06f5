"""The hint's inputs at a bot's table: the cards a member has legitimately seen since
the last shuffle, and the hint itself computed off the event loop.

What a member may count (engine/pontoon/hint.py uses nothing else):

* the cards the table shows now (their own hands, every face-up card: the member's
  observation, ``Table.observe(seat)``);
* the public cards of the round being played that the table no longer shows (a bust
  hand's cards go back under the pack, burnt cards too), read from the round's log;
* the public cards of the earlier rounds since the last shuffle, kept with the table
  (``OpenPontoonTable.seen_cards``, saved in its meta, so a restart keeps them), emptied
  at each shuffle and never longer than :data:`SEEN_MAX` cards.

Cards are counted by where they lie (a seat's hand, the banker's hand, a burn), each place
as the most of each card any one event showed there: a card shown three times (twisted,
bust, settled) counts once, and with two packs two copies in two places count twice.
Cut cards are not counted: the cut draws from the pack without taking the card out.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, parse_card
from engine.pontoon import Table
from engine.pontoon.hint import HandSeen, Hint, hint
from engine.pontoon.types import Event, EventKind, Phase

#: hints are computed one at a time (the engine's memo tables are shared by threads)
_ONE_AT_A_TIME = threading.Lock()

#: the most earlier-round cards a table keeps: the hint forgets all but the newest
#: 52 × packs − 12 anyway (engine.pontoon.hint._known), so two packs' worth is plenty
SEEN_MAX = 104

#: public events that show cards of one place (seat, hand): the cards they carry
_SHOWING = frozenset(
    {
        EventKind.BANKER_PONTOON,
        EventKind.DECLARED,
        EventKind.TWISTED,
        EventKind.BUST,
        EventKind.BANKER_REVEAL,
        EventKind.BANKER_DRAW,
        EventKind.HAND_RESULT,
    }
)

Place = tuple[str, int, str]


def places_of(events: Iterable[Event]) -> dict[Place, Counter[str]]:
    """Each place's cards as the public ``events`` showed them (see the module text)."""
    out: dict[Place, Counter[str]] = {}

    def show(place: Place, cards: Iterable[str]) -> None:
        have = out.setdefault(place, Counter())
        for code, n in Counter(cards).items():
            if n > have[code]:
                have[code] = n

    burns: Counter[tuple[str, int]] = Counter()
    for ev in events:
        if ev.to is not None or ev.seat is None or not ev.cards:
            continue
        hand = ev.hand or 0
        if ev.kind in _SHOWING:
            show((ev.seat, hand, ""), ev.cards)
        elif ev.kind is EventKind.SPLIT and len(ev.cards) == 2:
            # the first card stays in the hand, the second starts the next one
            show((ev.seat, hand, ""), ev.cards[:1])
            show((ev.seat, hand + 1, ""), ev.cards[1:])
        elif ev.kind is EventKind.BURNED:
            # the burnt cards leave the hand, which is dealt new ones
            burns[(ev.seat, hand)] += 1
            show((ev.seat, hand, f"burn{burns[(ev.seat, hand)]}"), ev.cards)
    return out


def flatten(places: dict[Place, Counter[str]]) -> list[str]:
    return [code for cards in places.values() for code in cards.elements()]


def round_cards(events: Iterable[Event]) -> list[str]:
    """Every card the public ``events`` of one round showed, each copy once."""
    return flatten(places_of(events))


def note_seen(seen: list[str], events: Iterable[Event], round_events: Iterable[Event]) -> None:
    """Keep ``seen`` (the earlier rounds' public cards since the last shuffle, oldest
    first) up to date with a move's public ``events``: a shuffle empties it; the end of a
    round adds what the round (``round_events``, its log) showed."""
    for ev in events:
        if ev.to is not None:
            continue
        if ev.kind is EventKind.SHUFFLED:
            seen.clear()
        elif ev.kind is EventKind.ROUND_OVER:
            seen.extend(round_cards(round_events))
    del seen[:-SEEN_MAX]


def _view_places(table: Table, seat: str) -> dict[Place, Counter[str]]:
    """The cards the table shows ``seat`` now, by place (``seat``'s observation)."""
    out: dict[Place, Counter[str]] = {}
    seen = table.observe(seat)
    for hv in seen.hands:
        out[(seat, hv.index, "")] = Counter(hv.cards)
    public = seen.table
    for sv in public.seats:
        if sv.seat == seat:
            continue
        for hv in sv.hands:
            out[(sv.seat, hv.index, "")] = Counter(hv.cards)
    if public.banker_hand is not None and public.banker is not None and public.banker != seat:
        out[(public.banker, 0, "")] = Counter(public.banker_hand.cards)
    return out


def seen_now(
    table: Table, seat: str, earlier: list[str], round_events: Iterable[Event]
) -> list[str]:
    """What ``seat`` has seen since the last shuffle, oldest first: ``earlier`` rounds'
    cards, then this round's (its log and what the table shows now, each place once)."""
    places = places_of(round_events)
    for place, cards in _view_places(table, seat).items():
        have = places.setdefault(place, Counter())
        for code, n in cards.items():
            if n > have[code]:
                have[code] = n
    return [*earlier, *flatten(places)]


@dataclass(frozen=True)
class HintAsked:
    """Everything a hint needs, taken from the table at one moment (so the search can
    run in a worker thread while the table moves on)."""

    table: Table
    seat: str
    hand: HandSeen
    seen: tuple[Card, ...]

    def compute(self) -> Hint:
        rules = self.table.rules
        packs = rules.packs or (2 if len(self.table.seats) >= 8 else 1)
        with _ONE_AT_A_TIME:
            return hint(rules, self.hand, self.seen, self.table.legal_actions(self.seat), packs)


def hint_inputs(
    table: Table, seat: str, earlier: list[str], round_events: Iterable[Event]
) -> HintAsked | None:
    """The hint's inputs for ``seat``'s hand being played, or None when ``seat`` has no
    hand to play now (not its turn, the banker's turn, no round)."""
    turn = table.turn
    if table.phase is not Phase.PLAYING or turn is None or turn[0] != seat:
        return None
    if seat == table.banker:
        return None
    view = table.private_view(seat)[turn[1]]
    cards = tuple(parse_card(c) for c in view.cards)
    doubled = bool(table.to_json().get("doubled", False)) if table.rules.banker_doubles else False
    seen = tuple(parse_card(c) for c in seen_now(table, seat, earlier, round_events))
    # a copy: the worker thread reads it while the live table moves on
    return HintAsked(
        Table.from_json(table.to_json()), seat, HandSeen(cards, view.stake, doubled), seen
    )


async def compute_hint(asked: HintAsked) -> tuple[Hint, float]:
    """The hint, computed in a worker thread (the event loop keeps serving clicks), and
    how long it took in seconds."""
    start = time.perf_counter()
    result = await asyncio.to_thread(asked.compute)
    return result, time.perf_counter() - start
