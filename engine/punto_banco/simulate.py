"""Punto Banco measured by play: a shoe of ``packs`` packs, reshuffled as B-TABLE-2 says."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import Chance
from engine.punto_banco.coup import Side, play_coup
from engine.punto_banco.rules import PuntoBancoRules
from engine.punto_banco.table import Shoe


@dataclass(frozen=True, slots=True)
class SimulationResult:
    coups: int
    banco_wins: int
    punto_wins: int
    ties: int
    naturals: int
    shuffles: int
    banco_pays: Fraction  # what a winning Banco bet paid per unit stake
    tie_pays: int

    def to_json(self) -> dict[str, Any]:
        n = self.coups
        pb, pp, pt = self.banco_wins / n, self.punto_wins / n, self.ties / n
        w = float(self.banco_pays)
        # per-unit-stake results of each bet, and the house edge = -mean result
        banco_mean = pb * w - pp
        banco_var = pb * w * w + pp - banco_mean**2
        punto_mean = pp - pb
        punto_var = pp + pb - punto_mean**2
        tie_mean = pt * self.tie_pays - (1 - pt)
        tie_var = pt * self.tie_pays**2 + (1 - pt) - tie_mean**2

        def se(var: float) -> float:
            return math.sqrt(max(var, 0.0) / n)

        return {
            "banco": pb,
            "punto": pp,
            "tie": pt,
            "edge": {"banco": -banco_mean, "punto": -punto_mean, "tie": -tie_mean},
            "stderr": {
                "banco": se(pb * (1 - pb)),
                "punto": se(pp * (1 - pp)),
                "tie": se(pt * (1 - pt)),
                "edge": {"banco": se(banco_var), "punto": se(punto_var), "tie": se(tie_var)},
            },
            "coups": n,
            "natural": self.naturals / n,
            "shuffles": self.shuffles,
            "banco_pays": w,
        }


def simulate(
    rules: PuntoBancoRules, coups: int, chance: Chance, *, stake: int | None = None
) -> SimulationResult:
    """Play ``coups`` coups from one continuing shoe and count the outcomes.

    Banco wins are valued at the exact commission fraction (0.95 at 5%), or, with
    ``stake``, at that stake's rounded-down winnings divided by the stake (B-WIN-1).
    """
    if coups < 1:
        raise ValueError("coups must be at least 1")
    shoe = Shoe(rules.packs)
    counts = {Side.BANCO: 0, Side.PUNTO: 0, Side.EGALITE: 0}
    naturals = 0
    tableau = rules.tableau
    deal = shoe.deal
    for _ in range(coups):
        if shoe.needs_shuffle:  # B-TABLE-2
            shoe.shuffle(chance)
        coup = play_coup(deal, tableau)
        counts[coup.winner] += 1
        naturals += coup.natural
    pays = (
        rules.banco_win_fraction if stake is None else Fraction(rules.banco_winnings(stake), stake)
    )
    return SimulationResult(
        coups=coups,
        banco_wins=counts[Side.BANCO],
        punto_wins=counts[Side.PUNTO],
        ties=counts[Side.EGALITE],
        naturals=naturals,
        shuffles=shoe.shuffles,
        banco_pays=pays,
        tie_pays=rules.tie_pays,
    )
