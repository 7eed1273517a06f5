"""Engine events say their details as catalog words (``Event.says``): the presenter
translates those, never the engine's English ``detail`` (issue 18). A round log saved
before events had words is read through a fixed table of the engine's old details
(``bot.pontoon.legacy_says``), and gives exactly the words the engine gives now."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import LOCALES
from bot.pontoon import LoggedEvent, legacy_says
from cogs.pontoon import render
from engine.cards import RandomChance
from engine.errors import Word
from engine.pontoon import Action, ActionKind, PontoonRules, Table
from engine.pontoon.types import Event, EventKind

K = ActionKind
WORDED = (EventKind.KITTY, EventKind.BANK_PASSES, EventKind.HAND_RESULT)
RULE_ID = re.compile(r"\b[PB]-[A-Z]{2,}")


def name(seat: str) -> str:
    return f"name-{seat}"


def _played_events(seed: int) -> list[Event]:
    """The public events of random rounds (Shoot tables too, for the kitty's events)."""
    rng = random.Random(seed)
    shoot = seed % 2 == 0
    rules = PontoonRules(min_bet=2, max_bet=20, shoot=shoot, kitty_min=10, kitty_max=60)
    seats = [f"s{i}" for i in range(rng.choice([2, 3, 4]))]
    table = Table(rules, seats, {s: rng.choice([60, 400]) for s in seats})
    chance = RandomChance(rng)
    seen: list[Event] = []
    for _ in range(400):
        moves = [(s, la) for s in table.seats for la in table.legal_actions(s)]
        moves = [m for m in moves if m[1].kind not in (K.LEAVE, K.SELL_BANK)]
        if not moves:
            break
        seat, la = rng.choice(moves)
        amount = None
        if la.min_amount is not None:
            top = la.max_amount if la.max_amount is not None else la.min_amount + 5
            amount = rng.randint(la.min_amount, top)
        seen += [
            ev for ev in table.apply(Action(seat, la.kind, amount), chance).events if ev.public
        ]
    return seen


EVENTS = [ev for seed in range(16) for ev in _played_events(seed) if ev.kind in WORDED]


def test_play_meets_every_kind_of_worded_event() -> None:
    keys = {ev.says.key for ev in EVENTS if ev.says is not None}
    why = {
        dict(ev.says.params)["why"].key  # type: ignore[union-attr]
        for ev in EVENTS
        if ev.kind is EventKind.HAND_RESULT and ev.says is not None
    }
    assert {"engine.result.win", "engine.result.lose", "engine.kitty.added"} <= keys
    assert {"engine.bank_passes.pontoon", "engine.bank_passes.from"} & keys
    assert {"engine.why.bust", "engine.why.beats", "engine.why.loses_to"} <= why


@pytest.mark.parametrize("locale", LOCALES)
def test_every_worded_event_is_said_from_the_catalog(locale: str) -> None:
    for ev in EVENTS:
        assert ev.says is not None, ev
        if ev.kind is EventKind.HAND_RESULT:
            line = render.result_line(ev, name, locale)
        else:
            line = render.event_line(ev, name, None, locale) or ""
        assert line and "{" not in line and not RULE_ID.search(line), (ev, line)
        if locale != "en":  # the engine's English never reaches another language
            assert ev.detail.split(":")[-1].strip() not in line or ev.detail.isdigit(), line


def test_an_old_saved_round_log_reads_the_engines_words_from_its_english() -> None:
    """Every detail the engine writes maps back, through the fixed table, to the words it
    gives now: a table saved before the change shows the same lines after it."""
    checked = 0
    for ev in EVENTS:
        saved = {"event": {k: v for k, v in ev.to_json().items() if k != "says"}}
        loaded = LoggedEvent.from_json(saved).event
        assert loaded.says == ev.says, ev.detail
        assert loaded == ev
        checked += 1
    assert checked > 50


def test_the_legacy_table_is_finite_and_knows_nothing_else() -> None:
    def old(kind: EventKind, detail: str) -> Word | None:
        return legacy_says(Event(kind, "s1", detail=detail))

    assert old(EventKind.KITTY, "returned") == Word("engine.kitty.returned")
    assert old(EventKind.HAND_RESULT, "win: royal pontoon beats banker's 19") == Word.of(
        "engine.result.win",
        why=Word.of(
            "engine.why.beats",
            label=Word("engine.label.royal"),
            blabel=Word.of("engine.label.banker_total", total=19),
        ),
    )
    assert old(EventKind.HAND_RESULT, "lose: 17 loses to banker's five card trick") == Word.of(
        "engine.result.lose",
        why=Word.of(
            "engine.why.loses_double_to", label=17, blabel=Word("engine.label.banker_five")
        ),
    )
    # English the engine never wrote (or a catalog text) is not looked up
    assert old(EventKind.KITTY, "the kitty") is None
    assert old(EventKind.HAND_RESULT, "win: the banker went bust") is None
    assert old(EventKind.HAND_RESULT, "draw: bust") is None
    assert old(EventKind.BANK_PASSES, "sold") is None
    assert old(EventKind.BANK_SOLD, "from s2") is None


def test_an_event_with_words_round_trips_through_a_saved_table() -> None:
    says = Word.of("engine.bank_passes.from", old="s3")
    ev = Event(EventKind.BANK_PASSES, "s1", detail="pontoon; from s3", says=says)
    assert Event.from_json(ev.to_json()) == ev
    assert ev.to_json()["says"] == {"key": "engine.bank_passes.from", "params": {"old": "s3"}}
