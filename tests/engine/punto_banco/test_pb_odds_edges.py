"""The exact odds beyond win/lose/tie: the naturals and the final totals against a brute
force (B-NAT-1), the figures that leave the pushes out (B-TIE-1), and the limits of the
inputs (B-TABLE-2). Each one a wrong rule the mutation run showed no other test would
notice."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import pytest
from helpers_pb import card

from engine.errors import ConfigError
from engine.punto_banco import PuntoBancoRules, exact_odds, exact_odds_for_counts, play_cards


def _brute_force(counts: Sequence[int], tableau: str) -> tuple[Fraction, list[list[Fraction]]]:
    """Every ordered deal, card by card, played by the engine's coup: the chance of a
    natural and of each final (Punto, Banco) total."""
    natural = Fraction(0)
    totals = [[Fraction(0)] * 10 for _ in range(10)]
    c = list(counts)
    total = sum(c)

    def rec(prefix: list[int], weight: Fraction) -> None:
        nonlocal natural
        try:
            coup = play_cards([card(v) for v in prefix], tableau)  # type: ignore[arg-type]
        except ConfigError:  # the coup wants another card
            left = total - len(prefix)
            for v in range(10):
                if c[v]:
                    c[v] -= 1
                    rec([*prefix, v], weight * Fraction(c[v] + 1, left))
                    c[v] += 1
            return
        totals[coup.punto_total][coup.banco_total] += weight
        if coup.natural:
            natural += weight

    rec([], Fraction(1))
    return natural, totals


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize(
    ("counts", "tableau"),
    [
        ([2, 1, 0, 2, 1, 0, 2, 1, 1, 1], "seed"),
        ([1, 0, 1, 1, 0, 2, 1, 1, 0, 2], "standard"),
    ],
)
def test_B_NAT_1_enumerated_naturals_and_final_totals_equal_a_brute_force(
    counts: list[int], tableau: str
) -> None:
    """B-NAT-1: the chance that the coup ends on a natural after two cards each, and the
    chance of every final pair of totals, are exactly what playing every deal gives."""
    exact = exact_odds_for_counts(counts, tableau)  # type: ignore[arg-type]
    natural, totals = _brute_force(counts, tableau)
    assert natural > 0
    assert exact.natural == natural
    assert [list(row) for row in exact.totals] == totals


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize("packs", [1, 8])
def test_B_NAT_1_naturals_of_a_full_shoe_are_those_of_the_first_four_cards(packs: int) -> None:
    """B-NAT-1: a coup ends on a natural when Punto's or Banco's two cards make 8 or 9;
    the chance of that, from the first four cards of a full shoe alone, is the
    enumeration's."""
    counts = [16 * packs] + [4 * packs] * 9
    left = sum(counts)
    natural = Fraction(0)
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        c = list(counts)
        weight = Fraction(1)
        for i, v in enumerate((p1, b1, p2, b2)):
            weight *= Fraction(c[v], left - i)
            c[v] -= 1
        if weight and ((p1 + p2) % 10 >= 8 or (b1 + b2) % 10 >= 8):
            natural += weight
    assert exact_odds(packs, "standard").natural == natural
    assert exact_odds(packs, "seed").natural == natural


@pytest.mark.rule("B-TIE-1")
def test_B_TIE_1_the_edges_without_ties_leave_the_pushes_out() -> None:
    """B-TIE-1: a Punto or Banco bet is returned on an Egalité; the edge per bet that is
    resolved (pushes left out) is the edge divided by the chance of no tie."""
    rules = PuntoBancoRules(packs=8, tableau="standard")
    odds = exact_odds(8, "standard")
    doc = odds.to_json(rules)
    edges = odds.edges(rules)
    for side in ("banco", "punto"):
        assert doc["edge_excluding_ties"][side] == pytest.approx(
            float(edges[side] / (1 - odds.tie)), rel=1e-12
        )
    assert doc["edge_excluding_ties"]["banco"] > doc["edge"]["banco"] > 0


@pytest.mark.rule("B-TABLE-2")
def test_B_TABLE_2_the_odds_of_a_shoe_default_to_one_pack_and_the_seed_tableau() -> None:
    """B-TABLE-2: a shoe holds one pack unless told; the seed's tableau is the default."""
    default = exact_odds()
    assert default.packs == 1 and default.tableau == "seed"
    assert default == exact_odds(1, "seed")


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize("packs", [0, 9])
def test_B_TABLE_2_odds_for_no_pack_or_nine_packs_are_refused(packs: int) -> None:
    """B-TABLE-2: a shoe holds 1 to 8 packs."""
    with pytest.raises(ValueError, match=r"1\.\.8"):
        exact_odds(packs)


@pytest.mark.rule("B-TABLE-2")
def test_B_TABLE_2_six_cards_are_enough_for_the_odds_of_a_coup() -> None:
    """B-TABLE-2: a coup uses at most six cards, so six cards left (the fewest a coup is
    dealt from) have odds, and they sum to one."""
    odds = exact_odds_for_counts([1, 1, 1, 1, 1, 1, 0, 0, 0, 0])
    assert odds.banco + odds.punto + odds.tie == 1


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize(
    "counts",
    [
        [1, 1, 1, 1, 1, 0, 0, 0, 0, 0],  # five cards
        [4, 4, 4, 4, 4, 4, 4, 4, 4],  # nine values
        [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],  # eleven values
        [-1, 4, 4, 4, 4, 4, 4, 4, 4, 4],  # a negative count
    ],
)
def test_B_TABLE_2_a_shoe_of_fewer_than_six_cards_or_a_bad_composition_is_refused(
    counts: list[int],
) -> None:
    """B-TABLE-2: fewer than six cards cannot be dealt a coup; a composition must give
    a whole number of cards for each of the ten values."""
    with pytest.raises(ValueError, match="ten non-negative numbers"):
        exact_odds_for_counts(counts)
