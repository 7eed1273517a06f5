"""What a server's owners may restrict of a new Blackjack table (/casino settings): the
choices and numbers of /blackjack start, with the command's own defaults."""

from __future__ import annotations

from bot.casino import GameLimits, NumberOption, TableOption


def _option(name: str, choices: tuple[str | bool, ...], default: int) -> TableOption:
    return TableOption(name, choices, default, f"cmd.blackjack.start.opt.{name}.desc")


LIMITS = GameLimits(
    "blackjack",
    (
        _option("blackjack_pays", ("3:2", "6:5"), 0),
        _option("dealer", ("s17", "h17"), 0),
        _option("surrender", ("none", "late"), 0),
        _option("double_on", ("any", "9-11", "10-11"), 0),
        _option("double_after_split", (True, False), 0),
        _option("resplit_aces", (False, True), 0),
        _option("peek", (True, False), 0),
    ),
    min_bet=1,
    max_bet=100,
    # the numbers of /blackjack start, with the command's own ranges and defaults
    numbers=(
        NumberOption("decks", 1, 8, 6, "number", "casino.number.decks"),
        NumberOption("betting_seconds", 5, 3600, None, "seconds", "casino.number.betting_seconds"),
    ),
)

__all__ = ["LIMITS"]
