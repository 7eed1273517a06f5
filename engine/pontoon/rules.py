"""Table options of a Pontoon table (rule ids in docs/rules/pontoon.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from engine.errors import OptionsError

PontoonPays = Literal["double", "single", "triple", "players_double_banker_single"]
PontoonStrength = Literal["standard", "picture_beats_ten", "ace_ten_not_pontoon", "natural"]
BurnOption = Literal["off", "13", "14"]


class PontoonRules(BaseModel):
    """Everything agreed before play. Frozen; unknown keys are an error."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_bet: int = 1  # P-TABLE-2
    max_bet: int = 10  # P-TABLE-2
    packs: int | None = None  # P-TABLE-1: None = 1, automatically 2 when 8+ seated
    split_aces_only: bool = False  # P-VAR-1
    stick_on_16: bool = False  # P-VAR-2
    banker_doubles: bool = False  # P-VAR-3
    pontoon_pays: PontoonPays = "double"  # P-VAR-4
    no_buy_five_on_eleven: bool = False  # P-VAR-5
    royal_pontoon: bool = False  # P-VAR-6
    pontoon_strength: PontoonStrength = "standard"  # P-VAR-7
    burn: BurnOption = "off"  # P-VAR-8
    shoot: bool = False  # P-SHOOT-*
    kitty_min: int = 10  # P-SHOOT-1
    kitty_max: int = 100  # P-SHOOT-1
    house_bank: bool = False  # the bot banks for the players
    house_stands_on: int = 17  # house strategy: draw while the best total is below this
    # P-TABLE-1: the most seats (None: as many as the pack(s) deal two cards each). The bot
    # sets it from what one table message can show.
    max_seats: int | None = None

    @model_validator(mode="after")
    def _check(self) -> PontoonRules:
        if self.min_bet < 1 or self.max_bet < self.min_bet:
            raise OptionsError("need 1 <= min_bet <= max_bet (P-TABLE-2)", "err.config.bets")
        if self.packs is not None and self.packs not in (1, 2):
            raise OptionsError("packs must be 1 or 2 (P-TABLE-1)", "err.config.packs")
        if self.kitty_min < 1 or self.kitty_max < self.kitty_min:
            raise OptionsError("need 1 <= kitty_min <= kitty_max (P-SHOOT-1)", "err.config.kitty")
        if self.house_bank and self.shoot:
            raise OptionsError(
                "a house-banked table does not play Shoot Pontoon", "err.config.house_shoot"
            )
        if self.max_seats is not None and self.max_seats < 2:
            raise OptionsError("max_seats must be at least 2 (P-TABLE-1)", "err.config.seats")
        if not 2 <= self.house_stands_on <= 21:
            raise OptionsError(
                "house_stands_on must be between 2 and 21", "err.config.house_stands"
            )
        return self

    # Payouts per result: engine.pontoon.payouts.Payouts.for_rules(rules)

    @property
    def stick_min(self) -> int:
        return 16 if self.stick_on_16 else 15
