"""A Blackjack table whose rules favour a basic-strategy player (a negative house edge)
says so as the player's advantage, with the figure's absolute value and no minus sign, in
the table message and in /blackjack odds, in every language; a positive edge still reads
as the house edge."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.i18n import t
from cogs.blackjack import text as T
from cogs.blackjack.presenter import table_layout
from engine.blackjack import BlackjackRules
from engine.blackjack import odds as O
from tests.bot.test_blackjack_layout import TOP, dealt_table, texts
from tests.bot.test_pontoon_layout import LOCALES

#: a minus (hyphen-minus or U+2212), perhaps behind a direction mark, before a digit
MINUS = re.compile(r"[-\u2212][\u200e\u200f\u2066-\u2069]*[0-9\u06f0-\u06f9\u0966-\u096f]")
SIX_DECKS = BlackjackRules(decks=6)


@pytest.fixture()
def cache(monkeypatch: pytest.MonkeyPatch) -> dict[BlackjackRules, O.HouseEdge]:
    found: dict[BlackjackRules, O.HouseEdge] = {}
    monkeypatch.setattr(O, "_EDGES", found)
    return found


def put(cache: dict[BlackjackRules, O.HouseEdge], rules: BlackjackRules, edge: float) -> None:
    key = O._edge_rules(rules)
    cache[key] = O.HouseEdge(key, edge)


@pytest.mark.rule("BJ-EDGE-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_negative_edge_is_the_players_advantage_without_a_minus(
    locale: str, cache: dict[BlackjackRules, O.HouseEdge]
) -> None:
    put(cache, SIX_DECKS, -0.0012)
    figure = i18n.pct(locale, 0.0012, 2)
    line = T.edge_line(SIX_DECKS, locale)
    assert line == t(locale, "bj.edge.player", edge=figure)
    assert figure in line and not MINUS.search(line), line
    assert line != t(locale, "bj.edge", edge=figure)
    # the table message says it too
    whole = texts(table_layout(dealt_table(locale, TOP), locale=locale).to_components())
    assert line in whole and not MINUS.search(whole)
    assert i18n.pct(locale, -0.0012, 2) not in whole


@pytest.mark.rule("BJ-EDGE-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_positive_edge_is_still_the_house_edge(
    locale: str, cache: dict[BlackjackRules, O.HouseEdge]
) -> None:
    put(cache, SIX_DECKS, 0.0012)
    figure = i18n.pct(locale, 0.0012, 2)
    assert T.edge_line(SIX_DECKS, locale) == t(locale, "bj.edge", edge=figure)
    put(cache, SIX_DECKS, 0.0)  # exactly even stays on the house wording
    assert T.edge_line(SIX_DECKS, locale) == t(locale, "bj.edge", edge=i18n.pct(locale, 0, 2))


@pytest.mark.rule("BJ-EDGE-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_odds_say_the_players_advantage_when_the_rules_favour_the_player(
    locale: str, cache: dict[BlackjackRules, O.HouseEdge], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(T, "rule_alternatives", lambda rules: [])
    two_decks = BlackjackRules(decks=2)
    put(cache, two_decks, -0.0012)
    put(cache, BlackjackRules(), 0.0045)  # the usual table, which /blackjack odds compares
    head = T.odds_text(two_decks, locale).splitlines()[0]
    assert head == t(locale, "bj.odds.head.player", edge=i18n.pct(locale, 0.0012, 2))
    assert not MINUS.search(head), head
    put(cache, two_decks, 0.0012)
    head = T.odds_text(two_decks, locale).splitlines()[0]
    assert head == t(locale, "bj.odds.head", edge=i18n.pct(locale, 0.0012, 2))


@pytest.mark.rule("BJ-EDGE-1")
def test_a_really_favourable_rule_set_reads_as_the_players_advantage(
    cache: dict[BlackjackRules, O.HouseEdge],
) -> None:
    # one deck, resplit aces and late surrender: the engine's edge is below zero
    rules = BlackjackRules(decks=1, resplit_aces=True, surrender="late")
    edge = O.house_edge(rules).edge
    assert edge < 0
    text = T.odds_text(rules, "en")
    assert text.splitlines()[0].startswith("**This table favours a basic-strategy player")
    assert i18n.pct("en", -edge, 2) in text.splitlines()[0]
    assert T.edge_line(rules, "en") == t("en", "bj.edge.player", edge=i18n.pct("en", -edge, 2))
