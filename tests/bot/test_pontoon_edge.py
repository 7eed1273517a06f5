"""The house edge of a Pontoon table's options (engine/pontoon/odds.py ``table_edges``)
in /pontoon rules and the table message's footer: the figure of the table's own rules,
the house's for a house-banked table and the banker seat's for a player-banked one
(docs/house-edge.md), computed once per rule set off the event loop, in every language."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.i18n import Raw, pct, t
from cogs.pontoon import edge as E
from cogs.pontoon.render import rules_text
from engine.pontoon import PontoonRules
from engine.pontoon.odds import table_edges
from engine.pontoon.types import Phase
from tests.bot.test_pontoon_words import live_table, play_to, presenter

LOCALES = ("en", "de", "fr", "hi", "fa")
HOUSE_17 = PontoonRules(min_bet=1, max_bet=10, house_bank=True)
HOUSE_16_SINGLE = PontoonRules(
    min_bet=1, max_bet=10, house_bank=True, house_stands_on=16, pontoon_pays="single"
)
PLAYER_BANKED = PontoonRules(min_bet=1, max_bet=10, packs=2)


@pytest.fixture()
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> dict[PontoonRules, dict[str, Any]]:
    cache: dict[PontoonRules, dict[str, Any]] = {}
    monkeypatch.setattr(E, "_EDGES", cache)
    return cache


def test_two_rule_sets_show_two_figures_each_the_engines(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    shown = []
    for rules in (HOUSE_17, HOUSE_16_SINGLE):
        E.edges(rules)
        want = table_edges(rules)["house_bank"]["edge"]
        text = rules_text(rules, "en")
        # a negative edge (rules that favour the player) is the player's advantage
        key = "pt.edge.house" if want >= 0 else "pt.edge.player"
        line = t("en", key, edge=pct("en", abs(want), 2))
        assert line in text.splitlines()
        assert "follows the hint" in line
        assert "estimate" not in text  # table_edges is exact
        shown.append(pct("en", want, 2))
    assert shown[0] != shown[1]
    assert shown[0] == "0.68%"  # docs/house-edge.md's default table
    assert "House edge at this table: 0.68%" in rules_text(HOUSE_17, "en")
    # a house that stands on 16 is beaten by the hint: said as the player's advantage
    assert shown[1].startswith("-")
    assert f"Player's advantage over the house at this table: {shown[1][1:]}" in rules_text(
        HOUSE_16_SINGLE, "en"
    )


def test_a_player_banked_table_shows_the_banker_seats_figure(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    E.edges(PLAYER_BANKED)
    want = table_edges(PLAYER_BANKED)["player_banker"]["edge"]
    text = rules_text(PLAYER_BANKED, "en")
    # against a banker seat that draws below 17 the hint comes out ahead: the figure is
    # negative, said as the players' advantage over the banker seat
    assert want < 0
    assert f"Players' advantage over the banker seat at this table: {pct('en', -want, 2)}" in text
    assert "House edge at this table" not in text and "banker seat's advantage" not in text


def test_before_it_is_computed_the_rules_say_so_and_the_footer_waits(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    assert t("en", "pt.edge.pending") in rules_text(HOUSE_17, "en").splitlines()
    live = live_table(4, PLAYER_BANKED)
    play_to(live, Phase.PLAYING)
    p = presenter()
    footer = p.parts(live).footer
    assert "against the hint" not in footer
    E.edges(PLAYER_BANKED)
    want = pct("en", abs(table_edges(PLAYER_BANKED)["player_banker"]["edge"]), 2)
    footer = p.parts(live).footer
    assert footer.endswith(" · " + t("en", "pt.edge.short.players_over_banker", edge=want))
    assert footer.startswith(t("en", "pt.footer"))


@pytest.mark.parametrize("locale", LOCALES)
def test_the_figure_is_said_in_every_language(
    locale: str, empty_cache: dict[PontoonRules, dict[str, Any]]
) -> None:
    E.edges(HOUSE_17)
    figure = pct(locale, table_edges(HOUSE_17)["house_bank"]["edge"], 2)
    text = rules_text(HOUSE_17, locale)
    assert figure in text
    live = live_table(3, HOUSE_17)
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    assert figure in p.parts(live).footer
    if locale != "en":
        assert t(locale, "pt.edge.house", edge="x") != t("en", "pt.edge.house", edge="x")


def test_a_simulated_figure_is_printed_as_an_estimate_with_its_interval() -> None:
    figures = {
        "exact": False,
        "house_bank": {"edge": 0.0123, "ci95": 0.0021},
        "player_banker": {"edge": 0.02, "ci95": 0.003},
    }
    found = E.pick(HOUSE_17, figures)
    assert found == E.TableEdge(0.0123, False, 0.0021)
    exact = E.pick(HOUSE_17, {**figures, "exact": True})
    assert exact.margin is None


def test_an_estimate_says_estimate_in_the_rules_and_the_footer(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    empty_cache[HOUSE_17] = {
        "exact": False,
        "house_bank": {"edge": 0.0123, "ci95": 0.0021},
        "player_banker": {"edge": 0.02, "ci95": 0.003},
    }
    assert "1.23% of each stake" in rules_text(HOUSE_17, "en")
    assert "(estimate ±0.21%)" in rules_text(HOUSE_17, "en")
    assert E.edge_footer(HOUSE_17, "en").endswith("(estimate ±0.21%)")


def test_it_is_computed_once_per_rule_set_in_a_worker_thread(
    empty_cache: dict[PontoonRules, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    calls: list[tuple[PontoonRules, bool]] = []
    main = threading.get_ident()

    def fake(rules: PontoonRules) -> dict[str, Any]:
        calls.append((rules, threading.get_ident() != main))
        return {"exact": True, "house_bank": {"edge": 0.01}, "player_banker": {"edge": 0.02}}

    monkeypatch.setattr(E, "table_edges", fake)

    async def run() -> list[E.TableEdge | None]:
        return [
            await E.edge_of(HOUSE_17),
            await E.edge_of(HOUSE_17),
            await E.edge_of(PLAYER_BANKED),
        ]

    got = asyncio.run(run())
    assert got == [
        E.TableEdge(0.01, False),
        E.TableEdge(0.01, False),
        E.TableEdge(0.02, True),
    ]
    assert calls == [(HOUSE_17, True), (PLAYER_BANKED, True)]


def test_a_slow_figure_does_not_hold_the_answer(
    empty_cache: dict[PontoonRules, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    release = threading.Event()

    def slow(rules: PontoonRules) -> dict[str, Any]:
        release.wait(5)
        return {"exact": True, "house_bank": {"edge": 0.01}, "player_banker": {"edge": 0.02}}

    monkeypatch.setattr(E, "table_edges", slow)

    async def run() -> tuple[E.TableEdge | None, E.TableEdge | None]:
        first = await E.edge_of(HOUSE_17, wait=0.05)  # gives up waiting, goes on computing
        release.set()
        for _ in range(200):
            if E.known_edge(HOUSE_17) is not None:
                break
            await asyncio.sleep(0.01)
        return first, E.known_edge(HOUSE_17)

    first, later = asyncio.run(run())
    assert first is None
    assert later == E.TableEdge(0.01, False)


async def test_only_messages_drawn_before_the_figure_are_drawn_again_for_it(
    empty_cache: dict[PontoonRules, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table drawn while its rules' figure was still being worked out is drawn again
    once it is known; a table this process has not drawn (one reloaded at a restart, whose
    message shows the figure from before the stop) is not edited for it."""
    from types import SimpleNamespace

    from cogs.table_message import TableMessages

    release = asyncio.Event()
    figures = {"exact": True, "house_bank": {"edge": 0.01}, "player_banker": {"edge": 0.02}}

    async def slow_edge(rules: PontoonRules, wait: float | None = None) -> E.TableEdge | None:
        await release.wait()
        empty_cache[rules] = figures
        return E.known_edge(rules)

    monkeypatch.setattr("cogs.pontoon.presenter.edge_of", slow_edge)
    edits: list[tuple[int, str]] = []

    class Message:
        def __init__(self, mid: int) -> None:
            self.mid = mid

        async def edit(self, **kw: Any) -> None:
            comps = kw["view"].to_components()
            texts = [c["content"] for c in comps[0]["components"] if c["type"] == 10]
            edits.append((self.mid, texts[-1]))

    channel = SimpleNamespace(get_partial_message=Message)
    p = presenter()
    p.writer = TableMessages(
        SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel),  # type: ignore[arg-type]
        p._render,
        p._posted,
    )
    drawn, restored = live_table(3, PLAYER_BANKED), live_table(3, PLAYER_BANKED)
    drawn.table_id, restored.table_id = "a1", "b2"
    drawn.message_id, restored.message_id = 1, 2
    p.check_after_restart([restored])  # works the figure out; draws nothing
    assert await p.writer.draw(drawn, None)
    assert edits == [(1, edits[0][1])] and "banker" not in edits[0][1].lower()
    release.set()
    for _ in range(100):
        if len(edits) > 1:
            break
        await asyncio.sleep(0.01)
    await p.writer.flush("a1")
    await asyncio.sleep(0.05)
    want = t("en", "pt.edge.short.banker_seat", edge=pct("en", 0.02, 2))
    assert [mid for mid, _ in edits] == [1, 1]  # the restored table's message untouched
    assert edits[1][1].endswith(want)
    await p.writer.close()


def test_a_table_opened_with_options_shares_their_figure(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    """/pontoon start works the figure out for the options asked for; the table opens
    with them plus its seat limit, and must find that figure (not start another
    computation and edit its message for it a moment later)."""
    from bot.pontoon import opening_rules

    E.edges(HOUSE_17)
    opened = opening_rules(HOUSE_17)
    assert opened.max_seats is not None and opened != HOUSE_17
    assert E.known_edge(opened) is not None
    assert E.known_edge(opened) == E.known_edge(HOUSE_17)
    assert len(empty_cache) == 1


#: a minus (hyphen-minus or U+2212), perhaps behind a direction mark, before a digit
MINUS = re.compile(r"[-\u2212][\u200e\u200f\u2066-\u2069]*[0-9\u06f0-\u06f9\u0966-\u096f]")


def _figures(house: float, banker: float) -> dict[str, Any]:
    return {"exact": True, "house_bank": {"edge": house}, "player_banker": {"edge": banker}}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_negative_edge_is_said_as_the_players_advantage_without_a_minus(
    locale: str, empty_cache: dict[PontoonRules, dict[str, Any]]
) -> None:
    empty_cache[HOUSE_17] = _figures(-0.0012, 0.02)
    empty_cache[E._key(PLAYER_BANKED)] = _figures(0.01, -0.0034)
    house, seat = pct(locale, 0.0012, 2), pct(locale, 0.0034, 2)
    # a house-banked table: the player's advantage over the house
    line = E.edge_line(HOUSE_17, locale)
    assert line == t(locale, "pt.edge.player", edge=Raw(house))
    assert line in rules_text(HOUSE_17, locale).splitlines()
    footer = E.edge_footer(HOUSE_17, locale)
    assert footer == t(locale, "pt.edge.short.player", edge=Raw(house))
    # a player-banked table: the players' advantage over the banker seat
    line_b = E.edge_line(PLAYER_BANKED, locale)
    assert line_b == t(locale, "pt.edge.players_over_banker", edge=Raw(seat))
    footer_b = E.edge_footer(PLAYER_BANKED, locale)
    assert footer_b == t(locale, "pt.edge.short.players_over_banker", edge=Raw(seat))
    for text, figure in ((line, house), (footer, house), (line_b, seat), (footer_b, seat)):
        assert figure in text and not MINUS.search(text), text
    # and none of them is the house's or the banker seat's wording
    assert line != t(locale, "pt.edge.house", edge=Raw(house))
    assert footer != t(locale, "pt.edge.short.house", edge=Raw(house))
    assert line_b != t(locale, "pt.edge.banker_seat", edge=Raw(seat))
    assert footer_b != t(locale, "pt.edge.short.banker_seat", edge=Raw(seat))
    # the table message's footer says it too
    live = live_table(3, HOUSE_17)
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    whole = p.parts(live).footer
    assert whole.endswith(footer) and not MINUS.search(whole)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_positive_or_zero_edge_keeps_the_house_and_banker_seat_wording(
    locale: str, empty_cache: dict[PontoonRules, dict[str, Any]]
) -> None:
    empty_cache[HOUSE_17] = _figures(0.0068, 0.02)
    empty_cache[E._key(PLAYER_BANKED)] = _figures(0.01, 0.0)
    assert E.edge_line(HOUSE_17, locale) == t(
        locale, "pt.edge.house", edge=Raw(pct(locale, 0.0068, 2))
    )
    assert E.edge_footer(HOUSE_17, locale) == t(
        locale, "pt.edge.short.house", edge=Raw(pct(locale, 0.0068, 2))
    )
    zero = pct(locale, 0, 2)
    assert E.edge_line(PLAYER_BANKED, locale) == t(locale, "pt.edge.banker_seat", edge=Raw(zero))
    assert E.edge_footer(PLAYER_BANKED, locale) == t(
        locale, "pt.edge.short.banker_seat", edge=Raw(zero)
    )


def test_a_negative_estimate_keeps_its_interval(
    empty_cache: dict[PontoonRules, dict[str, Any]],
) -> None:
    empty_cache[HOUSE_17] = {
        "exact": False,
        "house_bank": {"edge": -0.0123, "ci95": 0.0021},
        "player_banker": {"edge": 0.02, "ci95": 0.003},
    }
    line = E.edge_line(HOUSE_17, "en")
    assert line.startswith("• Player's advantage over the house at this table: 1.23% of each")
    assert line.endswith("(estimate ±0.21%)") and not MINUS.search(line)
