"""What a server's owners may restrict of a new Punto Banco table (/casino settings): the
choices and numbers of /baccarat start, with the command's own defaults."""

from __future__ import annotations

from bot.casino import GameLimits, NumberOption, TableOption

LIMITS = GameLimits(
    "punto_banco",
    (TableOption("tableau", ("seed", "standard"), 0, "cmd.baccarat.start.opt.tableau.desc"),),
    min_bet=1,
    max_bet=100,
    # the numbers of /baccarat start, with the command's own ranges and defaults
    numbers=(
        NumberOption("packs", 1, 8, 1, "number", "casino.number.packs"),
        NumberOption("betting_seconds", 5, 3600, None, "seconds", "casino.number.betting_seconds"),
    ),
)

__all__ = ["LIMITS"]
