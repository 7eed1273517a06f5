"""What a server's owners may restrict of a new High Card table (/casino settings)."""

from __future__ import annotations

from bot.casino import GameLimits

LIMITS = GameLimits("highcard", (), min_bet=1, max_bet=100)

__all__ = ["LIMITS"]
