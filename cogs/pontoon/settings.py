"""Pontoon's own section of the settings (``PONTOON_…`` in the environment or ``.env``),
read through :meth:`bot.settings.Settings.section`. The names the timers had before
they were Pontoon's own (``BET_TIMER_SECONDS``, ``TURN_TIMER_SECONDS``,
``IDLE_TABLE_MINUTES``) still work, through the table of old names (``renamed``) the
shared settings read; the start-up names the new one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from bot.pontoon import PontoonTimers
from bot.settings import GameSettings, Seconds


class PontoonSettings(GameSettings):
    model_config = SettingsConfigDict(env_prefix="PONTOON_")

    # the names read before this section was the game's own (the start-up names the new ones)
    renamed: ClassVar[Mapping[str, str]] = {
        "BET_TIMER_SECONDS": "bet_seconds",
        "TURN_TIMER_SECONDS": "turn_seconds",
        "IDLE_TABLE_MINUTES": "idle_minutes",
    }

    # Seconds each player has to place a bet before sitting the round out.
    bet_seconds: Seconds = 60
    # Seconds a player (or the banker) has to act on their turn before the default move.
    turn_seconds: Seconds = 60
    # Minutes without any action after which a table closes and refunds its stakes.
    idle_minutes: Annotated[float, Field(ge=0.05, le=7 * 24 * 60)] = 15

    # A computer player's pause before each move: a random time from this many seconds
    # to twice as many (1 to 2 s by default, so its moves feel like a person's).
    computer_pause_seconds: Annotated[float, Field(ge=0, le=30)] = 1.0

    def timers(self) -> PontoonTimers:
        pause = self.computer_pause_seconds
        return PontoonTimers(
            bet_seconds=self.bet_seconds,
            turn_seconds=self.turn_seconds,
            idle_seconds=self.idle_minutes * 60,
            computer_pause=(pause, 2 * pause),
        )


__all__ = ["PontoonSettings"]
