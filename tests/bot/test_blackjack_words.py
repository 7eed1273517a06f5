"""Blackjack words the play review of 2026-11-28 found wrong, rendered as the bot renders
them (the e2e side is tests/e2e/test_blackjack_play_review_e2e.py)."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, catalog, t
from cogs.blackjack.text import refused
from engine.blackjack import Action, ActionKind, BlackjackRules, BlackjackTable
from engine.errors import RuleError


def test_german_blackjack_says_dealer_as_the_glossary_does() -> None:
    # the hints said „Geber“ while the table, the rules and the odds say „Dealer“
    # (docs/glossary/de.md)
    german = {
        k: v for k, v in catalog("de").items() if k.startswith(("bj.", "help.about.blackjack"))
    }
    assert german
    assert not [k for k, v in german.items() if "Geber" in v]
    assert "Dealer" in t("de", "bj.hint.head", cards="5♠ 5♦", up="Q♣")


@pytest.mark.rule("BJ-BET-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_is_a_sentence_that_says_nothing_changed(locale: str) -> None:
    table = BlackjackTable(BlackjackRules())
    table.apply(Action("ann", ActionKind.JOIN))
    error = table.why_not(Action("ann", ActionKind.BET, 0))
    assert isinstance(error, RuleError)
    said = refused(error, locale)
    one = t(locale, "engine.bj.min.one", amount=1)
    assert said == t(locale, "bj.refused", text=one.rstrip(".।"))
    assert said.endswith((".", "।")) and said != one
    if locale == "en":
        assert said == "The smallest bet at this table is 1 chip. Nothing was changed."
