"""Exact odds of Punto Banco by enumerating every deal (no sampling).

The enumeration works on composition counts over the ten baccarat value classes (0 for
tens and pictures, 1..9), weighting each path by the number of cards of each class left
in the shoe, drawing without replacement. All weights are integers scaled to the common
denominator ``T (T-1) (T-2) (T-3) (T-4) (T-5)`` (T = cards in a full shoe), so every
probability is an exact ``Fraction``. The cost does not depend on the number of packs.

Two kinds of house edge:

* :meth:`ExactOdds.edges` uses the commission as an exact fraction of the stake (at 5%
  a winning Banco bet pays 0.95 per chip). This is the published figure and what
  ``python -m engine odds punto-banco`` prints.
* :meth:`ExactOdds.edges_for_stake` is the real edge of a given whole-chip stake at this
  table, where Banco winnings are rounded DOWN to whole chips (B-WIN-1): a stake of 10
  wins 9, a stake of 1 wins nothing. Stakes that are multiples of 20 (at 5%) pay exactly.

Edges are the house's expected gain per unit staked, counting pushes (a Punto or Banco
bet on an Egalité, B-TIE-1) as resolved bets with zero result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.punto_banco.coup import TABLEAUX
from engine.punto_banco.rules import PuntoBancoRules, Tableau

_PAIRS = [(a, b) for a in range(10) for b in range(a, 10)]


@dataclass(frozen=True, slots=True)
class ExactOdds:
    """Exact outcome probabilities for a full shoe of ``packs`` packs."""

    packs: int | None  # None: odds of an arbitrary composition (exact_odds_for_counts)
    tableau: Tableau
    banco: Fraction
    punto: Fraction
    tie: Fraction
    natural: Fraction  # B-NAT-1: the coup ends after two cards each
    # joint distribution of the final (punto_total, banco_total)
    totals: tuple[tuple[Fraction, ...], ...]

    def edges(self, rules: PuntoBancoRules) -> dict[str, Fraction]:
        """House edge per bet with the table's payouts, commission as an exact fraction."""
        return self._edges(rules.banco_win_fraction, rules.tie_pays)

    def edges_for_stake(self, rules: PuntoBancoRules, stake: int) -> dict[str, Fraction]:
        """House edge per bet for a whole-chip ``stake``, Banco winnings rounded down."""
        if stake < 1:
            raise ValueError("stake must be at least 1 chip")
        return self._edges(Fraction(rules.banco_winnings(stake), stake), rules.tie_pays)

    def _edges(self, banco_pays: Fraction, tie_pays: int) -> dict[str, Fraction]:
        return {
            "banco": self.punto - self.banco * banco_pays,
            "punto": self.banco - self.punto,
            "tie": (1 - self.tie) - self.tie * tie_pays,
        }

    def to_json(self, rules: PuntoBancoRules, stake: int | None = None) -> dict[str, Any]:
        edges = self.edges(rules)
        excl = 1 - self.tie
        doc: dict[str, Any] = {
            "banco": float(self.banco),
            "punto": float(self.punto),
            "tie": float(self.tie),
            "edge": {k: float(v) for k, v in edges.items()},
            "edge_excluding_ties": {
                "banco": float(edges["banco"] / excl),
                "punto": float(edges["punto"] / excl),
            },
            "natural": float(self.natural),
            "packs": self.packs,
            "tableau": self.tableau,
            "banco_commission_pct": rules.banco_commission_pct,
            "tie_pays": rules.tie_pays,
            "exact": {
                "banco": str(self.banco),
                "punto": str(self.punto),
                "tie": str(self.tie),
                "edge": {k: str(v) for k, v in edges.items()},
            },
            "note": (
                "edges use the commission as an exact fraction of the stake; the table "
                "rounds Banco winnings down to whole chips (see edge_for_stake)"
            ),
        }
        if stake is not None:
            doc["stake"] = stake
            doc["edge_for_stake"] = {
                k: float(v) for k, v in self.edges_for_stake(rules, stake).items()
            }
        return doc


def exact_odds(packs: int = 1, tableau: Tableau = "seed") -> ExactOdds:
    """Exact probabilities for a freshly shuffled shoe of ``packs`` packs."""
    if not 1 <= packs <= 8:
        raise ValueError("packs must be 1..8")
    if tableau not in TABLEAUX:
        raise ValueError(f"unknown tableau {tableau!r}")
    return _exact_odds(packs, tableau)


def odds_for(rules: PuntoBancoRules) -> ExactOdds:
    return exact_odds(rules.packs, rules.tableau)


def exact_odds_for_counts(counts: Sequence[int], tableau: Tableau = "seed") -> ExactOdds:
    """Exact probabilities for any shoe composition: ``counts[v]`` cards of baccarat value
    ``v`` (0..9), e.g. the cards left in a shoe. At least six cards are needed."""
    if len(counts) != 10 or any(n < 0 for n in counts) or sum(counts) < 6:
        raise ValueError("counts: ten non-negative numbers with at least six cards in all")
    if tableau not in TABLEAUX:
        raise ValueError(f"unknown tableau {tableau!r}")
    return _from_counts(None, list(counts), tableau)


@lru_cache(maxsize=32)
def _exact_odds(packs: int, tableau: Tableau) -> ExactOdds:
    return _from_counts(packs, [16 * packs] + [4 * packs] * 9, tableau)


def _from_counts(packs: int | None, counts: list[int], tableau: Tableau) -> ExactOdds:
    table = _enumerate(counts, TABLEAUX[tableau])
    n = len(counts)
    denom = 1
    t = sum(counts)
    for i in range(6):
        denom *= t - i
    totals = tuple(tuple(Fraction(table[p][b], denom) for b in range(n)) for p in range(n))
    banco = sum((totals[p][b] for p in range(10) for b in range(10) if b > p), Fraction(0))
    punto = sum((totals[p][b] for p in range(10) for b in range(10) if p > b), Fraction(0))
    tie = sum((totals[p][p] for p in range(10)), Fraction(0))
    natural = Fraction(table[10][0], denom)
    return ExactOdds(packs, tableau, banco, punto, tie, natural, totals)


def _pair_weight(c: list[int], a: int, b: int) -> int:
    """Number of ordered ways to draw the value pair {a, b} from counts c."""
    if a == b:
        return c[a] * (c[a] - 1)
    return 2 * c[a] * c[b]


def _enumerate(counts: list[int], banco_rule: dict[int, frozenset[int]]) -> list[list[int]]:
    """Integer weights (scaled to T(T-1)...(T-5)) of each final (punto, banco) total.

    Row 10, column 0 holds the weight of the naturals."""
    out = [[0] * 10 for _ in range(11)]
    c = list(counts)
    t = sum(c)
    s45 = (t - 4) * (t - 5)  # scale for a coup of four cards
    s5 = t - 5  # scale for a coup of five cards
    natural = 0
    for pa, pb in _PAIRS:
        wp = _pair_weight(c, pa, pb)
        if wp == 0:
            continue
        c[pa] -= 1
        c[pb] -= 1
        pt = (pa + pb) % 10
        for ba, bb in _PAIRS:
            wb = _pair_weight(c, ba, bb)
            if wb == 0:
                continue
            w4 = wp * wb
            c[ba] -= 1
            c[bb] -= 1
            bt = (ba + bb) % 10
            if pt >= 8 or bt >= 8:  # B-NAT-1
                out[pt][bt] += w4 * s45
                natural += w4 * s45
            elif pt <= 5:  # B-PUNTO-1: Punto draws
                draws_on = banco_rule[bt]
                for p3 in range(10):
                    cp = c[p3]
                    if cp == 0:
                        continue
                    w5 = w4 * cp
                    pt3 = (pt + p3) % 10
                    if p3 in draws_on:  # B-BANCO-2
                        c[p3] -= 1
                        row = out[pt3]
                        for b3 in range(10):
                            cb = c[b3]
                            if cb:
                                row[(bt + b3) % 10] += w5 * cb
                        c[p3] += 1
                    else:
                        out[pt3][bt] += w5 * s5
            elif bt <= 5:  # B-BANCO-1: Punto stood on 6-7, Banco draws on 0-5
                row = out[pt]
                for b3 in range(10):
                    cb = c[b3]
                    if cb:
                        row[(bt + b3) % 10] += w4 * cb * s5
            else:  # both stand
                out[pt][bt] += w4 * s45
            c[ba] += 1
            c[bb] += 1
        c[pa] += 1
        c[pb] += 1
    out[10][0] = natural
    return out
