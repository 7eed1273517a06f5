"""Blackjack's own section of the settings (``BLACKJACK_…`` in the environment or
``.env``), read through :meth:`bot.settings.Settings.section`. A table opened with
``/blackjack start`` may set its own betting window; these are the defaults."""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from bot.blackjack import MAX_BETTING_SECONDS, MIN_BETTING_SECONDS, BlackjackTimers
from bot.settings import GameSettings, Seconds


class BlackjackSettings(GameSettings):
    model_config = SettingsConfigDict(env_prefix="BLACKJACK_")

    # Seconds of the betting window before each round, unless the table sets its own.
    betting_seconds: Annotated[float, Field(ge=MIN_BETTING_SECONDS, le=MAX_BETTING_SECONDS)] = 30

    # Seconds a player has to act on a hand (or on insurance) before the table stands
    # for them.
    turn_seconds: Seconds = 45

    # Minutes of betting windows with no bet at all after which a table closes (at least
    # two windows).
    idle_minutes: Annotated[float, Field(ge=0.05, le=7 * 24 * 60)] = 1.5

    def timers(self) -> BlackjackTimers:
        windows = max(2, math.ceil(self.idle_minutes * 60 / self.betting_seconds))
        return BlackjackTimers(
            betting_seconds=float(self.betting_seconds),
            turn_seconds=float(self.turn_seconds),
            idle_windows=windows,
        )


__all__ = ["BlackjackSettings"]
