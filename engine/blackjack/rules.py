"""Table options of a Blackjack table (BJ-TABLE-1, BJ-TABLE-2, BJ-PEEK-1, BJ-INS-1,
BJ-NAT-1, BJ-DOUBLE-1, BJ-SPLIT-1, BJ-SURR-1, BJ-DEALER-1, BJ-BET-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.errors import OptionsError

DealerRule = Literal["s17", "h17"]
BlackjackPays = Literal["3:2", "6:5"]
Surrender = Literal["none", "late"]
DoubleOn = Literal["any", "9-11", "10-11"]

MAX_SEATS = 7  # BJ-TABLE-1


class BlackjackRules(BaseModel):
    """The options of one Blackjack table. Immutable; unknown keys are an error.

    =================== ============== =================================================
    field               default        rule
    =================== ============== =================================================
    decks               6 (1..8)       BJ-TABLE-2
    penetration         75 (50..90 %)  BJ-TABLE-2: reshuffle between rounds once dealt
    dealer              "s17"          BJ-DEALER-1 ("h17": the dealer hits soft 17)
    blackjack_pays      "3:2"          BJ-NAT-1 ("6:5"); odd amounts rounded down
    surrender           "none"         BJ-SURR-1 ("late")
    double_on           "any"          BJ-DOUBLE-1 ("9-11", "10-11": hard totals only)
    double_after_split  True           BJ-SPLIT-1
    resplit_aces        False          BJ-SPLIT-1
    max_hands           4 (2..4)       BJ-SPLIT-1: hands a seat may hold after splits
    peek                True           BJ-PEEK-1 (False: the no-hole-card game, BJ-NHC-1)
    insurance           True           BJ-INS-1
    min_bet, max_bet    1, 100         BJ-BET-1
    =================== ============== =================================================
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    decks: int = Field(default=6, ge=1, le=8)
    penetration: int = Field(default=75, ge=50, le=90)
    dealer: DealerRule = "s17"
    blackjack_pays: BlackjackPays = "3:2"
    surrender: Surrender = "none"
    double_on: DoubleOn = "any"
    double_after_split: bool = True
    resplit_aces: bool = False
    max_hands: int = Field(default=4, ge=2, le=4)
    peek: bool = True
    insurance: bool = True
    min_bet: int = Field(default=1, ge=1)
    max_bet: int = Field(default=100, ge=1)

    @model_validator(mode="after")
    def _limits(self) -> Self:
        if self.min_bet > self.max_bet:
            raise OptionsError("min_bet must not exceed max_bet", "err.config.bets")
        return self

    @property
    def blackjack_fraction(self) -> Fraction:
        """BJ-NAT-1: what a blackjack wins per unit bet (3/2 or 6/5)."""
        return Fraction(3, 2) if self.blackjack_pays == "3:2" else Fraction(6, 5)

    def blackjack_winnings(self, bet: int) -> int:
        """BJ-NAT-1: a blackjack's winnings on ``bet``, rounded down to whole chips
        (3:2 on 5 is 7; 6:5 on 5 is 6, on 10 is 12)."""
        frac = self.blackjack_fraction
        return bet * frac.numerator // frac.denominator

    @property
    def shoe_cards(self) -> int:
        return 52 * self.decks

    @property
    def cut_after(self) -> int:
        """BJ-TABLE-2: once this many cards of the shoe are dealt, it is reshuffled
        before the next round."""
        return self.shoe_cards * self.penetration // 100


__all__ = ["MAX_SEATS", "BlackjackPays", "BlackjackRules", "DealerRule", "DoubleOn", "Surrender"]
