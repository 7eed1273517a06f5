"""Events survive JSON exactly (the replay's event log; a saved table's round log)."""

from __future__ import annotations

import json
import random

from engine.cards import RandomChance
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import Action, ActionKind, Event

PREFER = [
    ActionKind.CUT,
    ActionKind.DEAL,
    ActionKind.BET,
    ActionKind.DECLARE,
    ActionKind.STICK,
    ActionKind.TWIST,
    ActionKind.NEXT_ROUND,
]


def test_every_event_of_played_rounds_round_trips_through_json() -> None:
    chance = RandomChance(random.Random(7))
    table = Table(PontoonRules(min_bet=1, max_bet=10))
    for seat in ("a", "b", "c"):
        table.apply(Action(seat, ActionKind.JOIN, amount=1000), chance)
    seen: list[Event] = []
    for _ in range(200):
        offers = [(seat, la) for seat in ("a", "b", "c") for la in table.legal_actions(seat)]
        choice = next(
            ((seat, la) for kind in PREFER for seat, la in offers if la.kind is kind), None
        )
        if choice is None:
            break
        seat, la = choice
        seen.extend(table.apply(Action(seat, la.kind, amount=la.min_amount), chance).events)
    assert len({e.kind for e in seen}) >= 5, seen
    assert any(e.to is not None for e in seen) and any(e.cards for e in seen)
    for ev in seen:
        assert Event.from_json(json.loads(json.dumps(ev.to_json()))) == ev
