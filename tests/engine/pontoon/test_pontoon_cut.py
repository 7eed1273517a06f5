"""P-BANK-1: the first banker is whoever cuts the highest card, ace high, then K, Q, J,
10 down to 2 (every step of the cut order is pinned)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import pytest
from pontoon_helpers import E, K, complete, kinds

from engine.cards import Card
from engine.pontoon import Action, PontoonRules, Table

CUT_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class TopCard:
    """A chance that always cuts the top card of what is left (no randomness)."""

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        return list(cards)

    def randbelow(self, n: int) -> int:
        return 0


def cut(top: Sequence[str]) -> Table:
    t = Table(PontoonRules(), ["ann", "bob"], {"ann": 50, "bob": 50}, pack=complete(top))
    out = t.apply(Action("ann", K.CUT), TopCard())
    assert kinds(out)[-1] is E.BANKER_CHOSEN
    cut_cards = [e.cards[0] for e in out.events if e.kind is E.CUT_CARD]
    assert cut_cards == list(top[: len(cut_cards)])
    return t


@pytest.mark.rule("P-BANK-1")
@pytest.mark.parametrize(("lower", "higher"), list(pairwise(CUT_ORDER)))
def test_P_BANK_1_the_higher_of_two_neighbouring_ranks_takes_the_bank(
    lower: str, higher: str
) -> None:
    assert cut([lower + "S", higher + "H"]).banker == "bob"
    assert cut([higher + "S", lower + "H"]).banker == "ann"


@pytest.mark.rule("P-BANK-1")
def test_P_BANK_1_equal_ranks_cut_again() -> None:
    t = cut(["KS", "KH", "3C", "9C"])  # a tie of kings, then 3 against 9
    assert t.banker == "bob"
