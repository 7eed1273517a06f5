"""Punto Banco's own section of the settings (``PUNTO_BANCO_…`` in the environment or
``.env``), read through :meth:`bot.settings.Settings.section`. The betting window's
name from before (``BACCARAT_BETTING_SECONDS``) still works, through the table of old
names (``renamed``) the shared settings read; the start-up names the new one."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, ClassVar

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from bot.punto_banco import PuntoBancoTimers
from bot.settings import GameSettings, Seconds


class PuntoBancoSettings(GameSettings):
    model_config = SettingsConfigDict(env_prefix="PUNTO_BANCO_")

    # the name read before this section was the game's own (the start-up names the new one)
    renamed: ClassVar[Mapping[str, str]] = {"BACCARAT_BETTING_SECONDS": "betting_seconds"}

    # Seconds of the betting window before each coup.
    betting_seconds: Seconds = 20

    # Minutes of betting windows with no bet at all after which a table closes (at least
    # two windows).
    idle_minutes: Annotated[float, Field(ge=0.05, le=7 * 24 * 60)] = 10

    def timers(self) -> PuntoBancoTimers:
        windows = max(2, math.ceil(self.idle_minutes * 60 / self.betting_seconds))
        return PuntoBancoTimers(betting_seconds=float(self.betting_seconds), idle_windows=windows)


__all__ = ["PuntoBancoSettings"]
