"""The Blackjack table message and result post in every language: the layout fits
Discord's limits with a full table of hostile names, the dealer's hole card is in no text
until the dealer's turn, only the buttons offered now are shown, and no rule id reaches
a member."""

from __future__ import annotations

import random
import re

import pytest

from bot import card_faces
from bot.blackjack import OpenBlackjackTable
from bot.i18n import t
from cogs.blackjack.controls import offered
from cogs.blackjack.presenter import table_layout
from cogs.blackjack.text import odds_text, refused, result_text
from engine.blackjack import (
    DEALER,
    Action,
    ActionKind,
    BlackjackRules,
    BlackjackTable,
    Phase,
    Shoe,
)
from engine.cards import RandomChance, full_pack, parse_card
from engine.errors import RuleError
from localdiscord.layout import FLAG_COMPONENTS_V2, count_components, layout_errors, text_length
from localdiscord.models import BUTTON, TEXT_DISPLAY, walk_components
from tests.bot.test_card_pictures import MARKUP
from tests.bot.test_pontoon_layout import HOSTILE, LOCALES

K = ActionKind
RULE_ID = re.compile(r"\bBJ-[A-Z]")


def texts(comps: list[dict[str, object]]) -> str:
    return "\n".join(str(c["content"]) for c in walk_components(comps) if c["type"] == TEXT_DISPLAY)


def labels(comps: list[dict[str, object]]) -> list[str]:
    return [str(c["label"]) for c in walk_components(comps) if c["type"] == BUTTON]


@pytest.fixture()
def pictures() -> object:
    card_faces.use_emojis(MARKUP)
    yield None
    card_faces.use_text()


def dealt_table(locale: str, top: list[str], seats: int = 7) -> OpenBlackjackTable:
    rules = BlackjackRules(decks=6)
    cards = [parse_card(c) for c in top]
    rest = full_pack(6)
    for c in cards:
        rest.remove(c)
    eng = BlackjackTable(rules, Shoe(6, cards + rest))
    live = OpenBlackjackTable("ab12", 1, 2, 3, eng, 30.0, 45.0, closes_at=1_900_000_000.0)
    for i in range(seats):
        seat = str(1000 + i)
        live.names[seat] = (f"{i} " + HOSTILE[locale] * 10)[:100]
        eng.apply(Action(seat, K.JOIN))
        eng.apply(Action(seat, K.BET, 10))
    eng.apply(Action(DEALER, K.DEAL), RandomChance(random.Random(1)))
    return live


# 7 seats: each gets a 9 then a 7 (16); the dealer 6 up, the 4 of clubs in the hole
TOP = [f"9{s}" for s in "SHDCSHD"] + ["6D"] + [f"7{s}" for s in "SHDCSHD"] + ["4C"]


@pytest.mark.rule("BJ-DEAL-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_the_hole_card_is_hidden_and_the_table_fits_in_every_language(
    locale: str, pictures: object
) -> None:
    live = dealt_table(locale, TOP)
    eng = live.engine
    assert eng.phase is Phase.PLAYING and eng.dealer[1].code == "4C"
    comps = table_layout(live, locale=locale).to_components()
    assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == []
    assert count_components(comps) <= 40 and text_length(comps) <= 4000
    whole = texts(comps)
    assert MARKUP["6D"] in whole and MARKUP["4C"] not in whole and MARKUP["back"] in whole
    assert "4♣" not in whole and not RULE_ID.search(whole)
    assert "{" not in whole
    # the first seat plays: its moves are offered, seating and betting are not
    shown = labels(comps)
    for act in ("hit", "stand", "double"):
        assert t(locale, f"bj.button.{act}") in shown
    for act in ("join", "bet", "split", "insurance"):
        assert t(locale, f"bj.button.{act}") not in shown
    assert offered(live) == {"hit", "stand", "double", "hint"}  # the Hint answers privately
    # every seat stands: the dealer turns the 4 (10) and draws; every card is shown now
    for i in range(7):
        eng.apply(Action(str(1000 + i), K.STAND), RandomChance(random.Random(1)))
    assert eng.phase is Phase.ROUND_OVER and eng.last_result is not None
    post = result_text(live, eng.last_result, {"1000": 990}, locale)
    assert MARKUP["4C"] in post and MARKUP["6D"] in post and not RULE_ID.search(post)
    assert t(locale, "bj.result.title", round=1) in post
    after = texts(table_layout(live, locale=locale).to_components())
    assert t(locale, "bj.button.bet") in labels(table_layout(live, locale=locale).to_components())
    assert "{" not in after


@pytest.mark.rule("BJ-INS-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_insurance_is_offered_only_against_an_ace(locale: str) -> None:
    top = ["10S", "AH", "9C", "7D"]
    live = dealt_table(locale, top, seats=1)
    assert live.engine.phase is Phase.INSURANCE
    assert offered(live) == {"insurance", "noinsurance", "hint"}
    shown = labels(table_layout(live, locale=locale).to_components())
    assert t(locale, "bj.button.insurance") in shown and t(locale, "bj.button.hit") not in shown


@pytest.mark.rule("BJ-EDGE-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_odds_and_refusals_read_in_every_language(locale: str) -> None:
    text = odds_text(BlackjackRules(dealer="h17"), locale)
    assert not RULE_ID.search(text) and "{" not in text
    assert t(locale, "bj.rules.h17") in text  # what the option adds is named
    error = RuleError("BJ-SPLIT-1", "only pairs", key="engine.bj.split_pair")
    said = refused(error, locale)
    assert said and "BJ-" not in said and said != t(locale, "err.generic.refused")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.rule("BJ-TIMER-1")
def test_a_timed_out_players_cards_are_counted_in_words(locale: str) -> None:
    """The note of a hand the timer played: "one card" and "3 cards", never "card(s)"."""
    from cogs.blackjack.text import notes_lines

    live = dealt_table(locale, ["10S", "9D", "6H", "8C"], seats=1)
    seat = live.engine.seats[0]
    live.names[seat] = "ann"
    lines = {}
    for hits in (0, 1, 3):
        live.notes = [{"kind": "timed_out", "seat": seat, "hits": hits}]
        (lines[hits],) = notes_lines(live, locale)
    assert len(set(lines.values())) == 3 and all("ann" in line for line in lines.values())
    assert "(" not in lines[1] + lines[3]
    if locale == "en":
        assert "one card drawn" in lines[1] and "3 cards drawn" in lines[3]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.rule("BJ-DEAL-1")
def test_a_dealers_ace_up_is_said_as_an_ace(locale: str) -> None:
    """The dealer shows one card before its turn: an ace reads "shows an ace", not "shows
    soft 11"; another card its value."""
    from cogs.blackjack.text import dealer_line

    ace = dealer_line(dealt_table(locale, ["9S", "AD", "7S", "4C"], seats=1), locale)
    assert t(locale, "bj.total.ace") in ace
    assert t(locale, "bj.total.soft", total=11) not in ace
    six = dealer_line(dealt_table(locale, ["9S", "6D", "7S", "4C"], seats=1), locale)
    assert t(locale, "bj.total.ace") not in six
    if locale == "en":
        assert "(shows an ace;" in ace and "(shows 6;" in six
