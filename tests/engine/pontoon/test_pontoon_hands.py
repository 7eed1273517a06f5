"""Hand values and ranking: P-VAL-*, P-RANK-*, P-VAR-6/7 scores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, full_pack, parse_card
from engine.pontoon.hands import (
    BUST,
    FIVE,
    PONTOON,
    ROYAL,
    STRONG_PONTOON,
    Hand,
    best_total,
    hard_total,
    score,
)


def cs(*codes: str) -> list:  # type: ignore[type-arg]
    return [parse_card(c) for c in codes]


@pytest.mark.rule("P-VAL-1")
def test_P_VAL_1_ace_one_or_eleven_and_picture_values() -> None:
    assert best_total(cs("AS", "6H")) == 17
    assert best_total(cs("AS", "6H", "9C")) == 16
    assert best_total(cs("AS", "AH")) == 12
    assert best_total(cs("KS", "QH")) == 20
    assert best_total(cs("JS", "10H")) == 20
    assert best_total(cs("7S", "2H")) == 9
    assert hard_total(cs("AS", "AH", "9C")) == 11


@pytest.mark.rule("P-VAL-2")
def test_P_VAL_2_over_21_is_bust() -> None:
    assert best_total(cs("KS", "QH", "2C")) == 22
    assert score(cs("KS", "QH", "2C")) == BUST


@pytest.mark.rule("P-RANK-1")
def test_P_RANK_1_pontoon_is_ace_and_ten_card_in_two_cards() -> None:
    for ten in ("10S", "JS", "QS", "KS"):
        assert score(cs("AH", ten)) == PONTOON
        assert score(cs(ten, "AH")) == PONTOON
    assert score(cs("AH", "5S", "5D")) == 21  # three-card 21 is no pontoon


@pytest.mark.rule("P-RANK-2")
def test_P_RANK_2_five_card_trick_beats_21() -> None:
    five = score(cs("2S", "2H", "3C", "4D", "AS"))  # 12 or 22 -> 12, five cards
    assert five == FIVE
    assert five > score(cs("7S", "7H", "7D"))
    assert score(cs("2S", "2H", "3C", "4D", "KS")) == FIVE  # 21 in five


@pytest.mark.rule("P-RANK-3")
def test_P_RANK_3_21_in_three_or_four_cards() -> None:
    assert score(cs("9S", "8H", "4C")) == 21
    assert score(cs("5S", "5H", "5C", "6D")) == 21
    assert score(cs("9S", "8H", "4C")) > score(cs("10S", "KH"))


@pytest.mark.rule("P-RANK-4")
def test_P_RANK_4_total_counts_not_number_of_cards() -> None:
    assert score(cs("10S", "9H")) == score(cs("2S", "3H", "4C", "10D")) == 19
    assert score(cs("10S", "9H")) > score(cs("10S", "8H"))


@pytest.mark.rule("P-RANK-5")
def test_P_RANK_5_bust_loses_to_anything() -> None:
    assert score(cs("KS", "QH", "5C")) < score(cs("2S", "3H"))


@pytest.mark.rule("P-RANK-1", "P-RANK-2", "P-RANK-3", "P-RANK-4")
def test_seeds_worked_example_ranking() -> None:
    hands = [
        cs("AS", "JH"),  # pontoon
        cs("7S", "3H", "4C", "2D", "2S"),  # five card trick
        cs("9S", "8H", "4C"),  # 21
        cs("9S", "AH"),  # 20
        cs("9S", "6H", "AC"),  # 16
    ]
    scores = [score(h) for h in hands]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == 5
    assert scores[3] == 20 and scores[4] == 16


@pytest.mark.rule("P-VAR-6")
def test_P_VAR_6_royal_only_when_enabled() -> None:
    assert score(cs("7S", "7H", "7D"), royal=True) == ROYAL
    assert score(cs("7S", "7H", "7D"), royal=False) == 21
    assert score(cs("7S", "7H", "7D"), royal=True) > score(cs("AS", "KH"))


@pytest.mark.rule("P-VAR-7")
def test_P_VAR_7_pontoon_strengths() -> None:
    # (a) ace + picture beats ace + ten
    assert score(cs("AS", "KH"), "picture_beats_ten") == STRONG_PONTOON
    assert score(cs("AS", "JH"), "picture_beats_ten") == STRONG_PONTOON
    assert score(cs("AS", "10H"), "picture_beats_ten") == PONTOON
    # (b) A-10 is an ordinary 21
    assert score(cs("AS", "10H"), "ace_ten_not_pontoon") == 21
    assert score(cs("AS", "QH"), "ace_ten_not_pontoon") == PONTOON
    # (c) natural A-K / A-Q beats ordinary A-J / A-10
    assert score(cs("AS", "KH"), "natural") == STRONG_PONTOON
    assert score(cs("AS", "QH"), "natural") == STRONG_PONTOON
    assert score(cs("AS", "JH"), "natural") == PONTOON
    assert score(cs("AS", "10H"), "natural") == PONTOON


@pytest.mark.rule("P-VAL-2")
@pytest.mark.rule("P-RANK-2")
@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (("KS", "QH", "2C"), BUST),  # exactly 22
        (("2S", "3H", "4C", "5D", "8S"), BUST),  # 22 in five cards: no five card trick
        (("2S", "3H", "4C", "5D", "7S"), FIVE),  # 21 in five cards
        (("KS", "9H", "2C"), 21),
        (("KS", "QH"), 20),
    ],
)
def test_P_VAL_2_a_hand_over_21_scores_bust_even_with_five_cards(
    codes: tuple[str, ...], expected: int
) -> None:
    assert Hand(cs(*codes)).score("standard", False) == expected


_ANY_PACK = full_pack()


@pytest.mark.rule("P-RANK-1")
@pytest.mark.rule("P-VAR-6")
@pytest.mark.rule("P-VAR-7")
@given(
    cards=st.lists(st.sampled_from(_ANY_PACK), min_size=1, max_size=5),
    strength=st.sampled_from(["standard", "picture_beats_ten", "ace_ten_not_pontoon", "natural"]),
    royal=st.booleans(),
)
def test_a_hands_score_is_the_score_of_its_cards(
    cards: list[Card], strength: str, royal: bool
) -> None:
    assert Hand(cards).score(strength, royal) == score(cards, strength, royal)
