"""Exact odds by enumeration, checked against published figures and a brute force;
the simulation by play agrees with them."""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from helpers_pb import card

from engine.cards import RandomChance
from engine.errors import ConfigError
from engine.punto_banco import (
    PuntoBancoRules,
    Side,
    exact_odds,
    exact_odds_for_counts,
    play_cards,
    simulate,
)
from engine.punto_banco.cli import bench, run_odds, run_simulate


@pytest.mark.rule("B-BANCO-2")
def test_eight_deck_standard_matches_published_figures() -> None:
    odds = exact_odds(8, "standard")
    assert float(odds.banco) == pytest.approx(0.458597, abs=1e-6)
    assert float(odds.punto) == pytest.approx(0.446247, abs=1e-6)
    assert float(odds.tie) == pytest.approx(0.095156, abs=1e-6)
    edges = odds.edges(PuntoBancoRules(packs=8, tableau="standard"))
    assert float(edges["banco"]) == pytest.approx(0.010579, abs=1e-6)
    assert float(edges["punto"]) == pytest.approx(0.012351, abs=1e-6)
    assert float(edges["tie"]) == pytest.approx(0.143596, abs=1e-6)


@pytest.mark.rule("B-BANCO-2")
def test_six_and_one_deck_standard_match_published_edges() -> None:
    six = exact_odds(6, "standard").edges(PuntoBancoRules(packs=6, tableau="standard"))
    assert float(six["banco"]) == pytest.approx(0.010558, abs=1e-6)
    assert float(six["punto"]) == pytest.approx(0.012374, abs=1e-6)
    assert float(six["tie"]) == pytest.approx(0.144382, abs=1e-6)
    one = exact_odds(1, "standard").edges(PuntoBancoRules(tableau="standard"))
    assert float(one["banco"]) == pytest.approx(0.0101, abs=5e-5)  # 1.01%
    assert float(one["punto"]) == pytest.approx(0.0129, abs=5e-5)  # 1.29%
    assert float(one["tie"]) == pytest.approx(0.1575, abs=5e-5)  # 15.75%


@pytest.mark.rule("B-BANCO-2")
@pytest.mark.parametrize("packs", [1, 2, 8])
@pytest.mark.parametrize("tableau", ["seed", "standard"])
def test_probabilities_sum_to_one_and_tableaux_differ(packs: int, tableau: str) -> None:
    odds = exact_odds(packs, tableau)  # type: ignore[arg-type]
    assert odds.banco + odds.punto + odds.tie == 1
    assert sum(sum(row) for row in odds.totals) == 1
    other = exact_odds(packs, "seed" if tableau == "standard" else "standard")
    assert odds.banco != other.banco


def _brute_force(counts: Sequence[int], tableau: str) -> dict[Side, Fraction]:
    """Every ordered deal, card by card, played by the engine's coup."""
    out = {s: Fraction(0) for s in Side}
    c = list(counts)
    total = sum(c)

    def rec(prefix: list[int], weight: Fraction) -> None:
        try:
            coup = play_cards([card(v) for v in prefix], tableau)  # type: ignore[arg-type]
        except ConfigError:  # the coup wants another card
            left = total - len(prefix)
            for v in range(10):
                if c[v]:
                    w = weight * Fraction(c[v], left)
                    c[v] -= 1
                    rec([*prefix, v], w)
                    c[v] += 1
            return
        out[coup.winner] += weight

    rec([], Fraction(1))
    return out


@pytest.mark.rule("B-NAT-1")
@pytest.mark.rule("B-PUNTO-1")
@pytest.mark.rule("B-BANCO-1")
@pytest.mark.rule("B-BANCO-2")
@pytest.mark.parametrize(
    ("counts", "tableau"),
    [
        ([2, 1, 0, 2, 1, 0, 2, 1, 1, 1], "seed"),
        ([2, 1, 0, 2, 1, 0, 2, 1, 1, 1], "standard"),
        ([1, 0, 1, 1, 0, 2, 1, 1, 0, 2], "standard"),
    ],
)
def test_enumeration_equals_brute_force(counts: list[int], tableau: str) -> None:
    exact = exact_odds_for_counts(counts, tableau)  # type: ignore[arg-type]
    brute = _brute_force(counts, tableau)
    assert (exact.banco, exact.punto, exact.tie) == (
        brute[Side.BANCO],
        brute[Side.PUNTO],
        brute[Side.EGALITE],
    )


@pytest.mark.rule("B-WIN-1")
def test_edge_for_whole_chip_stakes_rounds_commission_down() -> None:
    odds = exact_odds(1, "seed")
    rules = PuntoBancoRules()
    exact = odds.edges(rules)
    assert odds.edges_for_stake(rules, 20) == exact  # 20 * 0.95 = 19 exactly
    assert odds.edges_for_stake(rules, 10)["banco"] == odds.punto - odds.banco * Fraction(9, 10)
    assert odds.edges_for_stake(rules, 1)["banco"] == odds.punto  # a 1-chip Banco win pays 0
    assert odds.edges_for_stake(rules, 10)["punto"] == exact["punto"]
    assert odds.edges_for_stake(rules, 10)["tie"] == exact["tie"]


@pytest.mark.rule("B-TIE-1")
def test_tie_edge_uses_table_payout() -> None:
    odds = exact_odds(8, "standard")
    assert odds.edges(PuntoBancoRules(tie_pays=9))["tie"] == 1 - 10 * odds.tie


def _ns(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "packs": 1,
        "tableau": "seed",
        "commission": 5,
        "tie_pays": 8,
        "stake": None,
    }
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize(("packs", "tableau"), [(1, "seed"), (8, "standard")])
def test_simulation_agrees_with_exact_odds(packs: int, tableau: str) -> None:
    code, sim = run_simulate(_ns(coups=100_000, seed=5, packs=packs, tableau=tableau))
    assert code == 0
    _, exact = run_odds(_ns(packs=packs, tableau=tableau))
    se = sim["stderr"]
    for key in ("banco", "punto", "tie"):
        assert abs(sim[key] - exact[key]) < 4 * se[key], key
        assert abs(sim["edge"][key] - exact["edge"][key]) < 4 * se["edge"][key], key
    assert sim["coups"] == 100_000
    assert sim["shuffles"] > 1


@pytest.mark.rule("B-WIN-1")
def test_simulation_with_a_stake_uses_rounded_winnings() -> None:
    rules = PuntoBancoRules()
    res = simulate(rules, 20_000, RandomChance(random.Random(1)), stake=1).to_json()
    assert res["banco_pays"] == 0
    assert res["edge"]["banco"] == pytest.approx(res["punto"])


def test_cli_odds_document_shape() -> None:
    code, doc = run_odds(_ns(packs=8, tableau="standard", stake=10))
    assert code == 0
    assert set(doc) >= {"banco", "punto", "tie", "edge", "exact", "edge_for_stake"}
    assert set(doc["edge"]) == {"banco", "punto", "tie"}
    assert Fraction(doc["exact"]["banco"]) == exact_odds(8, "standard").banco
    assert doc["edge_for_stake"]["banco"] > doc["edge"]["banco"]


def test_bench_reports_coups_and_enumeration_time() -> None:
    doc = bench(0.05)
    assert doc["coups_per_second"] > 0
    assert set(doc["odds_enumeration_seconds"]) == {"1", "8"}
