"""Blackjack's table options: their defaults and their limits, each at both ends
(docs/rules/blackjack.md, the defaults in brackets)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from engine.blackjack import BlackjackRules, Shoe
from engine.cards import full_pack
from engine.errors import ConfigError, OptionsError


@pytest.mark.rule("BJ-TABLE-2", "BJ-DEALER-1", "BJ-NAT-1", "BJ-SURR-1", "BJ-DOUBLE-1", "BJ-SPLIT-1")
def test_the_defaults_are_the_rules_defaults() -> None:
    r = BlackjackRules()
    assert (r.decks, r.penetration, r.dealer, r.blackjack_pays) == (6, 75, "s17", "3:2")
    assert (r.surrender, r.double_on, r.double_after_split, r.resplit_aces) == (
        "none",
        "any",
        True,
        False,
    )
    assert (r.max_hands, r.peek, r.insurance, r.min_bet, r.max_bet) == (4, True, True, 1, 100)
    assert r.shoe_cards == 312 and r.cut_after == 234  # 75% of six packs
    assert r.blackjack_fraction == Fraction(3, 2)


@pytest.mark.rule("BJ-TABLE-2", "BJ-SPLIT-1", "BJ-BET-1")
@pytest.mark.parametrize(
    ("option", "low", "high"),
    [("decks", 1, 8), ("penetration", 50, 90), ("max_hands", 2, 4), ("min_bet", 1, None)],
)
def test_each_option_is_taken_at_both_ends_and_refused_past_them(
    option: str, low: int, high: int | None
) -> None:
    extra = {"max_bet": 1000} if option == "min_bet" else {}
    assert getattr(BlackjackRules(**{option: low, **extra}), option) == low
    with pytest.raises(ValidationError):
        BlackjackRules(**{option: low - 1, **extra})
    if high is not None:
        assert getattr(BlackjackRules(**{option: high}), option) == high
        with pytest.raises(ValidationError):
            BlackjackRules(**{option: high + 1})


@pytest.mark.rule("BJ-BET-1")
def test_the_smallest_bet_may_equal_the_largest_not_exceed_it() -> None:
    assert BlackjackRules(min_bet=5, max_bet=5).max_bet == 5
    assert BlackjackRules(max_bet=1).max_bet == 1
    with pytest.raises((OptionsError, ValidationError)):
        BlackjackRules(min_bet=6, max_bet=5)
    with pytest.raises(ValidationError):
        BlackjackRules(max_bet=0)


@pytest.mark.rule("BJ-TABLE-2")
@pytest.mark.parametrize(
    ("decks", "penetration", "cut"), [(1, 50, 26), (1, 90, 46), (8, 75, 312), (2, 67, 69)]
)
def test_the_cut_is_the_share_of_the_shoe_rounded_down(
    decks: int, penetration: int, cut: int
) -> None:
    r = BlackjackRules(decks=decks, penetration=penetration)
    assert r.shoe_cards == 52 * decks and r.cut_after == cut


@pytest.mark.rule("BJ-NAT-1")
@pytest.mark.parametrize(
    ("pays", "bet", "won"),
    [("3:2", 1, 1), ("3:2", 2, 3), ("3:2", 5, 7), ("6:5", 1, 1), ("6:5", 5, 6), ("6:5", 7, 8)],
)
def test_a_blackjacks_winnings_are_rounded_down(pays: str, bet: int, won: int) -> None:
    assert BlackjackRules(blackjack_pays=pays).blackjack_winnings(bet) == won  # type: ignore[arg-type]


@pytest.mark.rule("BJ-TABLE-2")
def test_a_shoe_holds_six_decks_unless_told() -> None:
    assert Shoe().decks == 6 and len(Shoe()) == 0  # new and empty: shuffled first
    assert Shoe().needs_shuffle(BlackjackRules().cut_after)
    stacked = Shoe(1, full_pack(1))
    assert (stacked.dealt, stacked.shuffles, len(stacked)) == (0, 0, 52)
    assert not stacked.needs_shuffle(1)  # nothing dealt from it yet
    for decks in (1, 8):
        assert Shoe(decks).decks == decks
    for decks in (0, 9):
        with pytest.raises(ConfigError):
            Shoe(decks)
    # the cards in the shoe and in the tray together are at most the decks' cards
    assert len(Shoe(1, full_pack(1)[1:], discards=full_pack(1)[:1]).discards) == 1
    with pytest.raises(ConfigError):
        Shoe(1, full_pack(1), discards=full_pack(1)[:1])
