"""What players read at a Pontoon table: names, whose move, the countdown, timed
out moves, rules wording, and every message within Discord's limits."""

from __future__ import annotations

import dataclasses
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import LOCALES, t
from bot.pontoon import GAME_PONTOON, LoggedEvent, OpenPontoonTable, opening_rules, seat_limit
from cogs.common import display
from cogs.pontoon import render
from cogs.pontoon.controls import table_rows
from cogs.pontoon.presenter import PontoonDiscordPresenter
from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import Action, ActionKind, Event, EventKind, Phase
from localdiscord.layout import FLAG_COMPONENTS_V2, count_components, layout_errors, text_length

IDS = [str(10**17 + i) for i in range(40)]


def live_table(
    n: int, rules: PontoonRules | None = None, names: dict[str, str] | None = None
) -> OpenPontoonTable:
    eng = Table(rules or PontoonRules(min_bet=1, max_bet=10, packs=2))
    chance = RandomChance(random.Random(5))
    for seat in IDS[:n]:
        eng.apply(Action(seat, ActionKind.JOIN, amount=1000), chance)
    live = OpenPontoonTable("abc123", 1, 2, int(IDS[0]), eng)
    live.names = names if names is not None else {s: f"player{i}" for i, s in enumerate(IDS[:n])}
    return live


def presenter() -> PontoonDiscordPresenter:
    service: Any = SimpleNamespace(seconds_left=lambda live: 42.0)
    bot: Any = SimpleNamespace(get_guild=lambda gid: None, games={GAME_PONTOON: service})
    return PontoonDiscordPresenter(bot, service)  # built with its service, as start-up does


def laid_out(
    p: PontoonDiscordPresenter, live: OpenPontoonTable, closed_reason: Any = None
) -> list[dict[str, Any]]:
    """The table message the bot sends (its layout, serialised), checked against Discord's
    limits for a layout message: accepted as a whole, at most 40 components counting
    nested ones, at most 4,000 characters of text."""
    comps = p.layout(live, closed_reason).to_components()
    assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == []
    assert count_components(comps) <= 40
    assert text_length(comps) <= 4000
    return comps


def layout_texts(comps: list[dict[str, Any]]) -> list[str]:
    """The layout's texts in order: the header (title, phase, whose move), the banker's
    block, the seats' blocks, the log, the footer."""
    return [c["content"] for c in comps[0]["components"] if c["type"] == 10]


def button_states(live: OpenPontoonTable) -> dict[str | None, bool]:
    """The table message's buttons (label: disabled), as its layout's rows carry them."""
    return {b.item.label: b.item.disabled for r in table_rows(live) for b in r.children}  # type: ignore[attr-defined]


def play_to(live: OpenPontoonTable, phase: Phase) -> None:
    eng = live.engine
    chance = RandomChance(random.Random(11))
    if eng.banker is None:
        eng.apply(Action(IDS[0], ActionKind.CUT), chance)
        assert eng.banker is not None
        eng.apply(Action(eng.banker, ActionKind.DEAL), chance)
    for _ in range(200):
        if eng.phase is phase:
            return
        next_move(eng, chance)
    raise AssertionError(f"never reached {phase}")


def next_move(eng: Table, chance: RandomChance) -> None:
    """The first seat to act makes a plain move: bets 1, declares, sticks or twists."""
    seat = eng.to_act()[0]
    kinds = {la.kind for la in eng.legal_actions(seat)}
    if ActionKind.BET in kinds:
        eng.apply(Action(seat, ActionKind.BET, amount=1), chance)
    elif ActionKind.DECLARE in kinds:
        eng.apply(Action(seat, ActionKind.DECLARE), chance)
    else:
        eng.apply(
            Action(seat, ActionKind.STICK if ActionKind.STICK in kinds else ActionKind.TWIST),
            chance,
        )


def test_long_hostile_names_and_many_seats_stay_within_discord_limits() -> None:
    names = {s: ("**@everyone** `x`" + "é" * 300) for s in IDS[:20]}
    live = live_table(20, names=names)
    p = presenter()
    twist = Event(EventKind.TWISTED, IDS[0], 0, ("10S",), total=20)
    live.round_log = [LoggedEvent(twist, IDS[1], by_timer=i % 2 == 0) for i in range(200)]
    assert len(p.log_lines(live, "en")) == render.LOG_LINES_MAX  # only the visible tail
    comps = laid_out(p, live)
    text = str(comps)
    assert "@everyone" not in text.replace("@\u200beveryone", "")  # never a live mention
    # markdown escaped: the names' ** show as stars in the seats' heads, never as bold
    heads = [line for x in layout_texts(comps)[1:] for line in x.split("\n") if "é" in line]
    assert any("\\*\\*@" in line for line in heads)
    assert not any(re.search(r"(?<!\\)\*\*@", line) for line in heads)
    assert not any(i in text for i in IDS)  # never a raw user id
    play_to(live, Phase.PLAYING)
    laid_out(p, live)


def test_the_table_says_whose_move_it_is_in_every_phase() -> None:
    p = presenter()
    seen = {}
    for phase in (Phase.BETTING, Phase.PLAYING, Phase.BANKER):
        live = live_table(3)
        play_to(live, phase)
        desc = layout_texts(laid_out(p, live))[0]  # the header
        who = live.engine.to_act()
        assert who
        for seat in who:
            assert f"**{live.names[seat]}**" in desc, (phase, desc)
        seen[phase] = desc
    assert "Turn: **the banker**" in seen[Phase.BANKER]
    assert "<t:" in seen[Phase.PLAYING] and ":R>" in seen[Phase.PLAYING]  # a live countdown
    live = live_table(2)
    desc = layout_texts(laid_out(p, live))[0]
    assert "**player0**" in desc and "Deal" in desc  # between rounds: who deals
    # doubling, kitty and shooting say who, by name
    view = live.engine.public_view()
    for phase in (Phase.DOUBLING, Phase.KITTY, Phase.SHOOTING):
        line = render.whose_move(
            phase,
            lambda s: live.names[s],
            banker=IDS[0],
            turn=None,
            waiting_on=[IDS[1]],
            dealer=None,
        )
        assert "player0" in line or "player1" in line, (phase, line)
    assert view.phase is Phase.WAITING


def test_banker_buttons_read_as_the_bankers_and_same_bet_is_offered() -> None:
    live = live_table(3)
    play_to(live, Phase.BETTING)
    labels = button_states(live)
    # round 1: nothing to repeat, Same bet is greyed out (newcomer N-08)
    assert labels["Same bet"] is True and labels["Bet"] is False
    live.last_bets[IDS[1]] = 2
    assert button_states(live)["Same bet"] is False
    play_to(live, Phase.BANKER)
    labels = button_states(live)
    assert "Banker: stay" in labels and "Banker: twist" in labels
    assert "Stick" not in labels


def test_a_timer_move_says_so_in_the_third_person() -> None:
    """The line is public: "for you" read as addressed to whoever looks at the table."""
    name = {"1": "bob"}.get
    ev = Event(EventKind.STUCK, "1", 0, (), None, None, None, "")
    assert (
        render.timed_out_line(ev, lambda s: name(s) or "?", None)
        == "⏱ bob ran out of time and sticks"
    )
    twisted = Event(EventKind.TWISTED, "1", 0, ("3S",), total=13)
    line = render.timed_out_line(twisted, lambda s: name(s) or "?", None)
    assert line is not None and line.startswith(
        "⏱ bob ran out of time: a card was twisted for them"
    )
    for locale in LOCALES:
        for ev in (twisted, Event(EventKind.DECLARED, "1", 0, ("AS", "KD"))):
            said = render.timed_out_line(ev, lambda s: name(s) or "?", None, locale)
            assert said is not None and "bob" in said
        assert "for you" not in str(render.timed_out_line(twisted, lambda s: "bob", None, locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_say_what_a_timeout_does(locale: str) -> None:
    """A player who steps away comes back to moves the bot made: the rules say which."""
    text = render.rules_text(PontoonRules(), locale)
    assert t(locale, "pt.rules.timeout", stick=15) in text.split("\n")
    sixteen = render.rules_text(PontoonRules(stick_on_16=True), locale).split("\n")
    assert t(locale, "pt.rules.timeout", stick=16) in sixteen


def test_rules_say_what_the_engine_pays() -> None:
    text = render.rules_text(PontoonRules(pontoon_pays="single"))
    assert "Pontoons are paid single" in text
    assert "a five card trick is paid double" in text
    assert "the banker's five card trick collects double from every hand but a pontoon" in text
    assert t("en", render.PHASE_TEXT[Phase.KITTY]).count("0") >= 1  # how to add nothing


def test_display_names_are_escaped_and_ids_are_named() -> None:
    assert display("*bold* _x_") == "\\*bold\\* \\_x\\_"
    assert "@everyone" not in display("@everyone").replace("@\u200beveryone", "")
    live = live_table(2)
    p = presenter()
    assert p.name_ids(live, f"{IDS[1]} is not seated") == "player1 is not seated"
    live.names.pop(IDS[1])
    assert IDS[1] not in p.name_ids(live, f"{IDS[1]} is not seated")
    # a computer player's seat is said as its name too, in the reader's language
    assert p.name_ids(live, "it is cpu-2's turn", "en") == "it is 🤖 Computer 2's turn"
    assert p.name_ids(live, "it is cpu-1's turn", "fr") == "it is 🤖 Ordinateur 1's turn"


@pytest.mark.parametrize(("packs", "limit"), [(1, 10), (2, 20), (None, 20)])
def test_seat_limit_is_what_a_message_shows_and_the_packs_deal(
    packs: int | None, limit: int
) -> None:
    rules = PontoonRules(packs=packs)
    assert seat_limit(rules) == limit
    assert Table(opening_rules(rules)).seat_limit == limit  # the engine's one limit
    # the largest table the engine allows lays out within Discord's layout limits, every
    # seat shown by name: at every move of its rounds, and with every button of every
    # variation (shown before the first deal)
    names = {s: f"p{i:02d}-" + "é" * 28 for i, s in enumerate(IDS[:limit])}
    p = presenter()

    def shows_every_seat(live: OpenPontoonTable) -> None:
        whole = "\n".join(layout_texts(laid_out(p, live)))
        for seat in live.engine.seats:
            assert live.names[seat][:6] in whole, (packs, live.engine.phase, seat)

    for variation in ({}, {"shoot": True, "banker_doubles": True, "burn": "13"}):
        full = opening_rules(PontoonRules(min_bet=1, max_bet=10, packs=packs, **variation))
        live = live_table(limit, rules=full, names=dict(names))
        eng = live.engine
        assert len(eng.seats) == limit
        chance = RandomChance(random.Random(1))
        with pytest.raises(RuleError):  # the engine seats no one more
            eng.apply(Action(IDS[limit], ActionKind.JOIN, amount=1000), chance)
        shows_every_seat(live)
    live = live_table(limit, rules=opening_rules(rules), names=dict(names))
    eng = live.engine
    seen: set[Phase] = set()
    eng.apply(Action(IDS[0], ActionKind.CUT), chance)
    for _ in range(5):
        assert eng.banker is not None
        if eng.phase is Phase.ROUND_OVER:
            eng.apply(Action(eng.banker, ActionKind.NEXT_ROUND), chance)
        seen.add(eng.phase)
        shows_every_seat(live)
        eng.apply(Action(eng.banker, ActionKind.DEAL), chance)
        while eng.phase is not Phase.ROUND_OVER:
            seen.add(eng.phase)
            shows_every_seat(live)
            next_move(eng, chance)
        seen.add(eng.phase)
        shows_every_seat(live)
        if {Phase.PLAYING, Phase.BANKER} <= seen:
            break
    assert seen >= {Phase.WAITING, Phase.BETTING, Phase.PLAYING, Phase.BANKER, Phase.ROUND_OVER}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_layout_never_fails_on_absurd_input(locale: str) -> None:
    """Huge names, huge logs, 60 seats' worth of text, in every language: the layout the
    bot sends is always built, within Discord's limits, and names every seat it is given."""
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    # through the presenter's own parts: 20 seats of 10,000-character names, a long log
    huge = {s: f"{i:02d}" + "n" * 9998 for i, s in enumerate(IDS[:20])}
    live = live_table(20, names=huge)
    twist = Event(EventKind.TWISTED, IDS[3], 0, ("10S", "KH", "QD"), total=20)
    live.round_log = [LoggedEvent(twist, IDS[1], by_timer=i % 2 == 0) for i in range(500)]
    play_to(live, Phase.PLAYING)
    whole = "\n".join(layout_texts(laid_out(p, live)))
    for i in range(20):
        assert f"{i:02d}nnnn" in whole, i
    # texts no table makes: every part far over any limit, and 60 seats
    seats = [(f"{i:02d}" + "h" * 998, "b" * 9999) for i in range(60)]
    absurd = render.TableParts(
        "t" * 999, ["d" * 9999] * 3, seats, ("B" * 999, "b" * 9999), ["l" * 9999] * 60, "f" * 9999
    )
    p.parts = lambda live, closed_reason=None: absurd  # type: ignore[method-assign]
    whole = "\n".join(layout_texts(laid_out(p, live)))
    for i in range(60):
        assert f"{i:02d}hhhh" in whole, i
    closed = dataclasses.replace(absurd, closed=True)
    p.parts = lambda live, closed_reason=None: closed  # type: ignore[method-assign]
    assert layout_texts(laid_out(p, live))[0].startswith("## ttt")


async def test_the_writer_keeps_one_edit_in_flight_and_draws_the_latest_state() -> None:
    import asyncio

    from cogs.table_message import TableMessages

    live = live_table(2)
    drawn: list[int] = []
    gate = asyncio.Event()

    async def draw(lv: OpenPontoonTable, closed: str | None) -> bool:
        drawn.append(lv.engine.version)
        await gate.wait()
        return True

    writer: TableMessages[OpenPontoonTable] = TableMessages(
        None,  # type: ignore[arg-type]
        lambda lv, closed: None,  # type: ignore[arg-type,return-value]
        lambda lv, mid: asyncio.sleep(0),
    )
    writer.draw = draw  # type: ignore[method-assign]
    writer.request(live)
    await asyncio.sleep(0)
    assert drawn == [live.engine.version] and writer.busy(live.table_id)
    chance = RandomChance(random.Random(1))
    for seat in IDS[2:6]:  # four changes while the first edit is in flight
        live.engine.apply(Action(seat, ActionKind.JOIN, amount=10), chance)
        writer.request(live)
    gate.set()
    await writer.flush(live.table_id)
    assert drawn == [drawn[0], live.engine.version]  # one more edit, of the latest state
    assert not writer.busy(live.table_id)


def test_each_log_event_is_formatted_once_and_only_the_tail_is_drawn() -> None:
    """A redraw formats only events it has not formatted before, and
    looks at the visible tail only (the cost of a redraw does not grow with the log)."""
    live = live_table(2)
    p = presenter()
    formatted: list[int] = []
    real = p._format_logged

    def counting(lv: OpenPontoonTable, logged: LoggedEvent, name: Any, locale: str) -> Any:
        formatted.append(logged.event.total or 0)
        return real(lv, logged, name, locale)

    p._format_logged = counting  # type: ignore[method-assign]
    for i in range(150):
        live.round_log.append(
            LoggedEvent(Event(EventKind.TWISTED, IDS[0], 0, ("10S",), total=i), IDS[1], False)
        )
    lines = p.log_lines(live, "en")
    assert len(lines) == render.LOG_LINES_MAX and len(formatted) == render.LOG_LINES_MAX
    assert "149" in lines[-1]
    formatted.clear()
    live.round_log.append(
        LoggedEvent(Event(EventKind.TWISTED, IDS[0], 0, ("10S",), total=150), IDS[1], False)
    )
    lines = p.log_lines(live, "en")
    assert formatted == [150] and "150" in lines[-1] and "139" in lines[0]
    formatted.clear()
    assert p.log_lines(live, "de") and len(formatted) == render.LOG_LINES_MAX  # per language


def test_only_the_tables_drawn_most_recently_keep_their_log_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A quiet table keeps no formatted lines (memory per open table); a table drawn
    again after its lines were dropped formats only the tail it shows, as at first."""
    import cogs.pontoon.presenter as presenter_module

    monkeypatch.setattr(presenter_module, "LOG_CACHE_KEPT", 3)
    p = presenter()
    formatted: list[str] = []
    real = p._format_logged

    def counting(lv: OpenPontoonTable, logged: LoggedEvent, name: Any, locale: str) -> Any:
        formatted.append(lv.table_id)
        return real(lv, logged, name, locale)

    p._format_logged = counting  # type: ignore[method-assign]
    tables = []
    for n in range(5):
        live = live_table(2)
        live.table_id = f"t{n}"
        for i in range(30):
            live.round_log.append(
                LoggedEvent(Event(EventKind.TWISTED, IDS[0], 0, ("10S",), total=i), IDS[1], False)
            )
        tables.append(live)
    drawn = {live.table_id: p.log_lines(live, "en") for live in tables}
    assert [key[0] for key in p._log_cache] == ["t2", "t3", "t4"]  # the newest three
    formatted.clear()
    assert p.log_lines(tables[4], "en") == drawn["t4"] and formatted == []  # remembered
    assert p.log_lines(tables[0], "en") == drawn["t0"]  # dropped: formatted again, the same
    assert formatted == ["t0"] * render.LOG_LINES_MAX
    assert [key[0] for key in p._log_cache] == ["t3", "t4", "t0"]


def _disabled(live: OpenPontoonTable, button: str = "pt.button.join") -> bool:
    found = [
        b.item.disabled  # type: ignore[attr-defined]
        for row in table_rows(live)
        for b in row.children
        if b.item.label == t("en", button)  # type: ignore[attr-defined]
    ]
    assert len(found) == 1
    return bool(found[0])


def _join_disabled(live: OpenPontoonTable) -> bool:
    return _disabled(live)


@pytest.mark.rule("P-TABLE-1")
def test_join_is_enabled_only_while_the_engine_would_seat_someone_new() -> None:
    """The Join button asks the engine (its legal actions for a newcomer): off when the
    table is full under its seat limit or in a phase that seats nobody."""
    rules = PontoonRules(min_bet=1, max_bet=10, packs=1, max_seats=3)
    live = live_table(2, rules)
    assert not _join_disabled(live)  # a seat is free while waiting
    live.engine.apply(Action(IDS[2], ActionKind.JOIN, amount=1000), RandomChance(random.Random(1)))
    assert live.engine.why_not(Action(IDS[3], ActionKind.JOIN, 1000)) is not None
    assert _join_disabled(live)  # three of three: full
    roomy = live_table(2)
    play_to(roomy, Phase.BETTING)
    assert _join_disabled(roomy)  # a round is on: the engine seats nobody now
    assert roomy.engine.why_not(Action(IDS[5], ActionKind.JOIN, 1000)) is not None


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.rule("P-SELL-1")
def test_deal_and_leave_are_enabled_only_when_the_engine_offers_them() -> None:
    """Deal and Leave ask the engine too: Deal needs two seated players,
    Leave is off while a round is on, and a banker alone at the table may leave."""
    alone = live_table(1)
    assert _disabled(alone, "pt.button.deal")  # one player: nobody to deal to
    assert not _disabled(alone, "pt.button.leave")
    two = live_table(2)
    assert not _disabled(two, "pt.button.deal")
    assert not _disabled(two, "pt.button.leave")
    play_to(two, Phase.BETTING)
    assert _disabled(two, "pt.button.deal") and _disabled(two, "pt.button.leave")


@pytest.mark.parametrize("locale", LOCALES)
def test_a_deal_nobody_bets_on_says_so_in_the_log(locale: str) -> None:
    """When every player sits the round out (the bet timer), the round ends with nothing
    to settle: the table's log says no round was played, instead of vanishing."""
    live = live_table(3)
    eng = live.engine
    chance = RandomChance(random.Random(3))
    live.note(eng.apply(Action(IDS[0], ActionKind.CUT), chance).events)
    assert eng.banker is not None
    live.note(eng.apply(Action(eng.banker, ActionKind.DEAL), chance).events)
    p = presenter()
    assert t(locale, "pt.nobody_bet") not in p.log_lines(live, locale)
    while eng.phase is Phase.BETTING:
        live.note(eng.apply(Action(eng.to_act()[0], ActionKind.SIT_OUT), chance).events)
    assert eng.phase is Phase.ROUND_OVER
    assert p.log_lines(live, locale)[-1] == t(locale, "pt.nobody_bet")


def test_a_played_round_does_not_say_nobody_bet() -> None:
    live = live_table(2)
    play_to(live, Phase.ROUND_OVER)
    eng = live.engine
    # the same round, logged: its results are in the log
    results = [Event(EventKind.HAND_RESULT, IDS[1], 0, (), amount=-1, detail="lose: bust")]
    live.note([*results, Event(EventKind.ROUND_OVER, amount=eng.round_no)])
    assert t("en", "pt.nobody_bet") not in presenter().log_lines(live, "en")


def test_after_a_split_each_players_hands_are_paid_together_and_in_order() -> None:
    """A bust hand is settled when it busts, the others at the end: the payout lines
    still list each player's hands together, numbered from 1, in seat order."""
    names = {"a": "ann", "b": "bob", "c": "cat"}

    def res(seat: str, hand: int, net: int) -> Event:
        return Event(EventKind.HAND_RESULT, seat, hand, ("5H", "KD"), amount=net, total=15)

    arrived = [res("c", 0, -20), res("c", 2, -20), res("b", 0, 5), res("c", 1, -20), res("a", 0, 2)]
    lines = render.result_lines(arrived, ["a", "b", "c"], lambda s: names[s], "en")
    assert [line.split(":")[0] for line in lines] == [
        "ann",
        "bob",
        "cat (hand 1)",
        "cat (hand 2)",
        "cat (hand 3)",
    ]
