"""Punto Banco boundaries mutation testing found unguarded (issue 17)."""

from __future__ import annotations

import pytest
from helpers_pb import stack

from engine.punto_banco import Coup, play_cards


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize(
    ("punto", "banco", "rest", "cards"),
    [
        (3, 4, (5, 9), 6),  # Punto draws (3), Banco draws on 4 against a 5
        (6, 3, (2,), 5),  # Punto stands on 6, Banco draws on 3
        (2, 7, (9,), 5),  # Punto draws, Banco stands on 7
        (6, 7, (), 4),  # nobody draws, and no natural either
    ],
)
def test_B_NAT_1_a_coup_without_a_natural_is_not_marked_natural(
    punto: int, banco: int, rest: tuple[int, ...], cards: int
) -> None:
    coup = play_cards(stack(punto, banco, *rest))
    assert coup.cards_used == cards
    assert coup.natural is False
    assert coup.to_json()["natural"] is False
    assert Coup.from_json(coup.to_json()).natural is False


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize(("punto", "banco"), [(8, 2), (2, 9), (8, 9), (9, 9)])
def test_B_NAT_1_a_natural_on_either_side_is_marked_and_ends_the_coup(
    punto: int, banco: int
) -> None:
    coup = play_cards(stack(punto, banco, 5, 5))
    assert coup.natural is True and coup.cards_used == 4
    assert Coup.from_json(coup.to_json()).natural is True
