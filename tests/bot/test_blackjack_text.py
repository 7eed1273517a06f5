"""How the Blackjack table says a hand's total (BJ-VAL-1, BJ-HIT-1): a soft total below
21 as soft, 21 plainly (soft or not), over 21 as a bust, in every language."""

from __future__ import annotations

import pytest

from bot.i18n import t
from cogs.blackjack.text import total_text
from engine.cards import parse_cards
from tests.bot.test_pontoon_layout import LOCALES


@pytest.mark.rule("BJ-VAL-1", "BJ-HIT-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_total_is_said_soft_plain_or_bust_at_its_edges(locale: str) -> None:
    def said(*cards: str) -> str:
        return total_text(parse_cards(list(cards)), locale)

    assert said("AS", "6D") == t(locale, "bj.total.soft", total=17)
    assert said("AS", "9D") == t(locale, "bj.total.soft", total=20)
    assert said("AS", "KD") == "21" and said("AS", "5D", "5C") == "21"  # soft 21: 21
    assert said("10S", "5D", "6C") == "21"
    assert said("10S", "5D", "7C") == t(locale, "bj.total.bust", total=22)
    assert said("10S", "9D") == "19"
