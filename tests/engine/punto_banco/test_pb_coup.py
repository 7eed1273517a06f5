"""The coup: B-VAL-1, B-DEAL-1, B-NAT-1, B-PUNTO-1, B-BANCO-1, B-BANCO-2, B-WIN-1, B-TIE-1."""

from __future__ import annotations

import pytest
from helpers_pb import card, stack

from engine.cards import parse_cards
from engine.errors import ConfigError
from engine.punto_banco import Coup, Side, banco_draws, hand_total, play_cards, winner_of
from engine.punto_banco.coup import punto_draws

# B-BANCO-2 written out from docs/rules/punto-banco.md, independent of the engine's table:
# Banco total -> values of Punto's third card on which Banco DRAWS.
SEED_TABLEAU = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}
STANDARD_TABLEAU = {**SEED_TABLEAU, 3: {0, 1, 2, 3, 4, 5, 6, 7, 9}}
CELLS = [
    (name, bt, p3, p3 in tab[bt])
    for name, tab in (("seed", SEED_TABLEAU), ("standard", STANDARD_TABLEAU))
    for bt in range(8)
    for p3 in range(10)
]


@pytest.mark.rule("B-VAL-1")
@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (["5S", "6H"], 1),  # the seed's examples
        (["7S", "8H"], 5),
        (["QS", "6H"], 6),
        (["AS", "KH"], 1),
        (["10S", "JH"], 0),
        (["9S", "9H"], 8),
        (["9S", "9H", "9D"], 7),
        (["AS", "2H", "3D"], 6),
        (["4S", "5H", "KD"], 9),
    ],
)
def test_b_val_1_totals(codes: list[str], expected: int) -> None:
    assert hand_total(parse_cards(codes)) == expected


@pytest.mark.rule("B-DEAL-1")
def test_b_deal_1_two_cards_each_in_order() -> None:
    cards = parse_cards(["7S", "6H", "KD", "QC", "2S"])  # P 7, B 6: both stand
    coup = play_cards(cards, "seed")
    assert [(s, c.code) for s, c in coup.dealt] == [
        (Side.PUNTO, "7S"),
        (Side.BANCO, "6H"),
        (Side.PUNTO, "KD"),
        (Side.BANCO, "QC"),
    ]
    assert [c.code for c in coup.punto] == ["7S", "KD"]
    assert [c.code for c in coup.banco] == ["6H", "QC"]
    assert (coup.punto_total, coup.banco_total, coup.winner) == (7, 6, Side.PUNTO)
    assert coup.cards_used == 4


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize("natural", [8, 9])
@pytest.mark.parametrize("other", range(10))
def test_b_nat_1_natural_stops_both(natural: int, other: int) -> None:
    for punto, banco in ((natural, other), (other, natural)):
        coup = play_cards(stack(punto, banco, 1, 1), "seed")
        assert coup.natural
        assert coup.cards_used == 4
        assert (coup.punto_total, coup.banco_total) == (punto, banco)


@pytest.mark.rule("B-PUNTO-1")
@pytest.mark.parametrize("punto", range(8))
def test_b_punto_1_punto_draws_on_0_to_5(punto: int) -> None:
    coup = play_cards(stack(punto, 7, 3, 1), "seed")  # Banco 7 never draws
    draws = punto <= 5
    assert punto_draws(punto) is draws
    assert len(coup.punto) == (3 if draws else 2)
    assert len(coup.banco) == 2
    assert coup.punto_total == ((punto + 3) % 10 if draws else punto)


@pytest.mark.rule("B-BANCO-1")
@pytest.mark.parametrize("tableau", ["seed", "standard"])
@pytest.mark.parametrize("punto", [6, 7])
@pytest.mark.parametrize("banco", range(8))
def test_b_banco_1_punto_stood(tableau: str, punto: int, banco: int) -> None:
    draws = banco <= 5
    assert banco_draws(banco, None, tableau) is draws  # type: ignore[arg-type]
    coup = play_cards(stack(punto, banco, 2), tableau)  # type: ignore[arg-type]
    assert len(coup.punto) == 2
    assert len(coup.banco) == (3 if draws else 2)
    assert coup.banco_total == ((banco + 2) % 10 if draws else banco)


@pytest.mark.rule("B-BANCO-2")
@pytest.mark.parametrize(("tableau", "banco", "third", "draws"), CELLS)
def test_b_banco_2_every_cell(tableau: str, banco: int, third: int, draws: bool) -> None:
    assert banco_draws(banco, third, tableau) is draws  # type: ignore[arg-type]
    # and the same decision in a played coup: Punto on 0 draws ``third``.
    coup = play_cards(stack(0, banco, third, 5), tableau)  # type: ignore[arg-type]
    assert coup.punto_third == card(third, "C")
    assert len(coup.banco) == (3 if draws else 2)
    if draws:
        assert coup.dealt[-1] == (Side.BANCO, card(5, "C"))
        assert coup.banco_total == (banco + 5) % 10


@pytest.mark.rule("B-BANCO-2")
def test_b_banco_2_tableaux_differ_in_exactly_one_cell() -> None:
    diffs = [
        (bt, p3)
        for bt in range(8)
        for p3 in range(10)
        if banco_draws(bt, p3, "seed") != banco_draws(bt, p3, "standard")
    ]
    assert diffs == [(3, 9)]
    assert banco_draws(3, 9, "standard") and not banco_draws(3, 9, "seed")


@pytest.mark.rule("B-WIN-1")
def test_b_win_1_closer_to_nine_wins() -> None:
    assert winner_of(7, 6) is Side.PUNTO
    assert winner_of(0, 9) is Side.BANCO
    coup = play_cards(stack(2, 6, 3), "seed")  # P 2 draws 3 -> 5; B 6 stands on a 3
    assert (coup.punto_total, coup.banco_total, coup.winner) == (5, 6, Side.BANCO)


@pytest.mark.rule("B-TIE-1")
def test_b_tie_1_equal_totals_are_egalite() -> None:
    assert winner_of(4, 4) is Side.EGALITE
    coup = play_cards(stack(7, 7), "seed")
    assert coup.winner is Side.EGALITE


@pytest.mark.rule("B-DEAL-1")
def test_coup_json_round_trip_and_short_stack() -> None:
    coup = play_cards(stack(1, 4, 2, 9), "standard")
    again = Coup.from_json(coup.to_json())
    assert again == coup
    with pytest.raises(ConfigError):
        play_cards(stack(1, 4), "seed")
