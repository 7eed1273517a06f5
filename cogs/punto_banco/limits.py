"""What a server's owners may restrict of a new Punto Banco table (/casino settings): the
choices of /baccarat start, with the command's own defaults."""

from __future__ import annotations

from bot.casino import GameLimits, TableOption

LIMITS = GameLimits(
    "punto_banco",
    (TableOption("tableau", ("seed", "standard"), 0, "cmd.baccarat.start.opt.tableau.desc"),),
    min_bet=1,
    max_bet=100,
)

__all__ = ["LIMITS"]
