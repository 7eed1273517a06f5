"""High Card's own section of the settings (``HIGHCARD_…``)."""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from bot.settings import GameSettings, Seconds
from tests.fourth_game.bot.highcard import HighCardTimers


class HighCardSettings(GameSettings):
    model_config = SettingsConfigDict(env_prefix="HIGHCARD_")

    # Seconds a table waits for a move before it counts a window without one.
    betting_seconds: Seconds = 60

    # Minutes without a move after which a table closes, its stakes returned.
    idle_minutes: Annotated[float, Field(ge=0.05, le=7 * 24 * 60)] = 10

    def timers(self) -> HighCardTimers:
        windows = max(2, math.ceil(self.idle_minutes * 60 / self.betting_seconds))
        return HighCardTimers(betting_seconds=float(self.betting_seconds), idle_windows=windows)


__all__ = ["HighCardSettings"]
