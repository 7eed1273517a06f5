"""Table options of a Punto Banco table (B-TABLE-2, B-BANCO-2, B-WIN-1, B-TIE-1, B-BET-1)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.errors import OptionsError

Tableau = Literal["seed", "standard"]

# B-TABLE-2: the shoe is reshuffled when fewer than this many cards are left before a coup.
# A coup uses at most six cards, so a coup can never run the shoe dry.
RESHUFFLE_BELOW = 6


class PuntoBancoRules(BaseModel):
    """The options of one Punto Banco table. Immutable; unknown keys are an error.

    ===================== ======================= ==========================================
    field                 default                 rule
    ===================== ======================= ==========================================
    packs                 1 (1..8)                B-TABLE-2
    tableau               "seed"                  B-BANCO-2 ("standard": Banco on 3 also
                                                  draws when Punto's third card is a 9)
    banco_commission_pct  5 (whole percent 0..99) B-WIN-1 (winnings rounded DOWN to chips)
    tie_pays              8 (to 1, stake back)    B-TIE-1
    min_bet, max_bet      1, 100 (per bet)        B-BET-1
    reshuffle_below       6 (fixed)               B-TABLE-2
    ===================== ======================= ==========================================
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    packs: int = Field(default=1, ge=1, le=8)
    tableau: Tableau = "seed"
    banco_commission_pct: int = Field(default=5, ge=0, le=99)
    tie_pays: int = Field(default=8, ge=1, le=100)
    min_bet: int = Field(default=1, ge=1)
    max_bet: int = Field(default=100, ge=1)

    @model_validator(mode="after")
    def _limits(self) -> Self:
        if self.min_bet > self.max_bet:
            raise OptionsError("min_bet must not exceed max_bet", "err.config.bets")
        return self

    @property
    def reshuffle_below(self) -> int:
        """B-TABLE-2: reshuffle before a coup when fewer cards than this are left."""
        return RESHUFFLE_BELOW

    @property
    def banco_win_fraction(self) -> Fraction:
        """What a winning Banco bet pays per unit stake before rounding (0.95 at 5%)."""
        return Fraction(100 - self.banco_commission_pct, 100)

    @property
    def exact_banco_stake_multiple(self) -> int:
        """The smallest stake whose Banco winnings need no rounding (20 at 5%): stakes that
        are multiples of it are paid exactly 1:1 less the commission."""
        return 100 // math.gcd(100, 100 - self.banco_commission_pct)

    def banco_winnings(self, stake: int) -> int:
        """B-WIN-1: winnings of a winning Banco bet, commission taken, rounded DOWN.

        At 5% a stake of 20 wins 19, a stake of 10 wins 9 (not 9.5) and a stake of 1 wins 0.
        """
        return stake * (100 - self.banco_commission_pct) // 100
