"""Punto Banco's own section of the settings (``PUNTO_BANCO_…`` in the environment or
``.env``), read through :meth:`bot.settings.Settings.section`. The betting window's
name from before (``BACCARAT_BETTING_SECONDS``) still works; the start-up names the
new one."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import SettingsConfigDict

from bot.punto_banco import PuntoBancoTimers
from bot.settings import GameSettings, Seconds


class PuntoBancoSettings(GameSettings):
    model_config = SettingsConfigDict(env_prefix="PUNTO_BANCO_")

    # Seconds of the betting window before each coup.
    betting_seconds: Seconds = Field(
        20,
        validation_alias=AliasChoices("punto_banco_betting_seconds", "baccarat_betting_seconds"),
    )

    def timers(self) -> PuntoBancoTimers:
        return PuntoBancoTimers(betting_seconds=float(self.betting_seconds))


__all__ = ["PuntoBancoSettings"]
