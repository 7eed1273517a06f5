"""Engine events say their details as catalog words (``Event.says``): the presenter
translates those, never the engine's English ``detail``. A round log saved before events
had words is upgraded once, by migration 011, through a fixed table of the engine's old
details, to exactly the words the engine gives now; the bot reads only the new shape."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import LOCALES
from bot.pontoon import LoggedEvent
from bot.storage.migrations import load_migrations, migrate
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


def upgraded(tmp_path: Path, round_log: list[dict[str, Any]]) -> list[LoggedEvent]:
    """``round_log`` saved (with the rest of a table) by a bot at schema version 10, after
    the migrations: the round log the bot reads now."""
    con = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    try:
        migrate(con, load_migrations()[:10])
        state = {"engine": {"rules": {"max_seats": 10}}, "meta": {"round_log": round_log}}
        con.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            "created_at, updated_at) VALUES ('t1', 1, 2, 'pontoon', 1, ?, 'x', 'x')",
            (json.dumps(state),),
        )
        migrate(con, load_migrations())
        (text,) = con.execute("SELECT state_json FROM game_tables").fetchone()
    finally:
        con.close()
    return [LoggedEvent.from_json(e) for e in json.loads(text)["meta"]["round_log"]]


def test_an_old_saved_round_log_is_upgraded_to_the_engines_words(tmp_path: Path) -> None:
    """Every detail the engine writes maps, through the migration's fixed table, to the
    words it gives now: a table saved before the change shows the same lines after it,
    in the same order, and the events saved with words are left as they were."""
    saved = [
        {"event": {k: v for k, v in ev.to_json().items() if k != "says"}, "banker": "s0"}
        for ev in EVENTS
    ]
    saved.append({"event": EVENTS[0].to_json(), "timer": True})  # already has its words
    loaded = upgraded(tmp_path, saved)
    assert [e.event for e in loaded] == [*EVENTS, EVENTS[0]]
    assert all(e.banker == "s0" for e in loaded[:-1]) and loaded[-1].by_timer
    assert len(EVENTS) > 50


def test_the_upgrade_table_is_finite_and_knows_nothing_else(tmp_path: Path) -> None:
    olds = [
        (EventKind.KITTY, "returned"),
        (EventKind.HAND_RESULT, "win: royal pontoon beats banker's 19"),
        (EventKind.HAND_RESULT, "lose: 17 loses to banker's five card trick"),
        (EventKind.BANK_PASSES, "pontoon; from s3"),
        # English the engine never wrote (or a catalog text) is not looked up
        (EventKind.KITTY, "the kitty"),
        (EventKind.HAND_RESULT, "win: the banker went bust"),
        (EventKind.HAND_RESULT, "draw: bust"),
        (EventKind.HAND_RESULT, "win: lucky beats banker's 19"),
        (EventKind.BANK_PASSES, "sold"),
        (EventKind.BANK_SOLD, "from s2"),
    ]
    saved = [{"event": Event(kind, "s1", detail=detail).to_json()} for kind, detail in olds]
    says = [e.event.says for e in upgraded(tmp_path, saved)]
    assert says[:4] == [
        Word("engine.kitty.returned"),
        Word.of(
            "engine.result.win",
            why=Word.of(
                "engine.why.beats",
                label=Word("engine.label.royal"),
                blabel=Word.of("engine.label.banker_total", total=19),
            ),
        ),
        Word.of(
            "engine.result.lose",
            why=Word.of(
                "engine.why.loses_double_to", label=17, blabel=Word("engine.label.banker_five")
            ),
        ),
        Word.of("engine.bank_passes.from", old="s3"),
    ]
    assert says[4:] == [None] * 6


def test_an_event_with_words_round_trips_through_a_saved_table() -> None:
    says = Word.of("engine.bank_passes.from", old="s3")
    ev = Event(EventKind.BANK_PASSES, "s1", detail="pontoon; from s3", says=says)
    assert Event.from_json(ev.to_json()) == ev
    assert ev.to_json()["says"] == {"key": "engine.bank_passes.from", "params": {"old": "s3"}}
