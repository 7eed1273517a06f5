"""Punto Banco measured by play (engine/punto_banco/simulate.py): the counts of a stacked
shoe exactly, and the figures and standard errors of the document against a direct
computation from each coup's result per bet (B-WIN-1, B-TIE-1, B-NAT-1, B-TABLE-2)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from statistics import fmean, pvariance

import pytest

from engine.cards import Card, RandomChance, ScriptedChance, full_pack, parse_cards
from engine.punto_banco import PuntoBancoRules
from engine.punto_banco.simulate import SimulationResult, simulate

# deal order Punto, Banco, Punto, Banco for each coup
_COUPS = [
    "9S KH QS JH",  # Punto 9 against Banco 0: a natural, Punto wins
    "8S 8H KD KC",  # 8 against 8: a natural, Egalité
    "6S 7H QD QC",  # Punto stands on 6, Banco on 7: Banco wins, no natural
]


def _stacked_shoe() -> list[Card]:
    top = parse_cards(" ".join(_COUPS).split())
    rest = [c for c in full_pack(1) if c not in top]
    return [*top, *rest]


@pytest.mark.rule("B-NAT-1")
@pytest.mark.rule("B-TABLE-2")
def test_B_NAT_1_a_stacked_shoe_is_counted_coup_by_coup() -> None:
    """Three coups from a stacked one-pack shoe (B-TABLE-2: a new shoe is shuffled once
    before its first coup): one win each for Punto, Egalité and Banco, two naturals."""
    res = simulate(PuntoBancoRules(), 3, ScriptedChance([_stacked_shoe()]))
    assert (res.coups, res.punto_wins, res.ties, res.banco_wins) == (3, 1, 1, 1)
    assert res.naturals == 2
    assert res.shuffles == 1
    assert (res.banco_pays, res.tie_pays) == (Fraction(19, 20), 8)


@pytest.mark.rule("B-TABLE-2")
def test_B_TABLE_2_a_simulation_deals_at_least_one_coup() -> None:
    """One coup is the shortest simulation; none is refused."""
    res = simulate(PuntoBancoRules(), 1, RandomChance(random.Random(2)))
    assert res.coups == 1 and res.banco_wins + res.punto_wins + res.ties == 1
    with pytest.raises(ValueError, match="at least 1"):
        simulate(PuntoBancoRules(), 0, RandomChance(random.Random(2)))


@pytest.mark.rule("B-WIN-1")
@pytest.mark.rule("B-TIE-1")
def test_B_WIN_1_B_TIE_1_the_figures_and_standard_errors_of_a_simulation() -> None:
    """The document's chances, house edges and their standard errors, computed directly
    from what each bet won per chip in each coup: Banco pays 0.95 (B-WIN-1) and is
    returned on an Egalité, Punto pays 1, Egalité pays 8 and loses otherwise (B-TIE-1)."""
    # eight coups: Banco wins 4, Punto 2, Egalité 2; 3 naturals
    res = SimulationResult(
        coups=8,
        banco_wins=4,
        punto_wins=2,
        ties=2,
        naturals=3,
        shuffles=1,
        banco_pays=Fraction(19, 20),
        tie_pays=8,
    )
    winners = ["banco"] * 4 + ["punto"] * 2 + ["tie"] * 2
    per_chip = {
        "banco": [{"banco": 0.95, "punto": -1.0, "tie": 0.0}[w] for w in winners],
        "punto": [{"banco": -1.0, "punto": 1.0, "tie": 0.0}[w] for w in winners],
        "tie": [{"banco": -1.0, "punto": -1.0, "tie": 8.0}[w] for w in winners],
    }
    doc = res.to_json()
    assert (doc["banco"], doc["punto"], doc["tie"]) == (4 / 8, 2 / 8, 2 / 8)
    assert doc["natural"] == 3 / 8
    assert (doc["coups"], doc["shuffles"], doc["banco_pays"]) == (8, 1, 0.95)
    for bet, results in per_chip.items():
        assert doc["edge"][bet] == pytest.approx(-fmean(results), abs=1e-12)
        se = math.sqrt(pvariance(results) / 8)
        assert doc["stderr"]["edge"][bet] == pytest.approx(se, abs=1e-12)
        won = winners.count(bet) / 8
        assert doc["stderr"][bet] == pytest.approx(math.sqrt(won * (1 - won) / 8), abs=1e-12)
