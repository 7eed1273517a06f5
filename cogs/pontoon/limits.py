"""What a server's owners may restrict of a new Pontoon table (/casino settings): the
choices and numbers of /pontoon start, with the command's own defaults."""

from __future__ import annotations

from bot.casino import GameLimits, NumberOption, TableOption


def _option(name: str, choices: tuple[str | bool, ...], default: int = 0) -> TableOption:
    return TableOption(name, choices, default, f"cmd.pontoon.start.opt.{name}.desc")


_FLAG = (False, True)  # the flags are off by default

LIMITS = GameLimits(
    "pontoon",
    (
        _option("banker", ("players", "house")),
        _option("banker_doubles", _FLAG),
        _option("pontoon_pays", ("double", "single", "triple", "players_double_banker_single")),
        _option("shoot", _FLAG),
        _option("split_aces_only", _FLAG),
        _option("stick_on_16", _FLAG),
        _option("no_buy_five_on_eleven", _FLAG),
        _option("royal_pontoon", _FLAG),
        _option(
            "pontoon_strength", ("standard", "picture_beats_ten", "ace_ten_not_pontoon", "natural")
        ),
        _option("burn", ("off", "13", "14")),
        _option("cards", ("dm", "button")),
    ),
    min_bet=1,
    max_bet=10,
    # the numbers of /pontoon start, with the command's own ranges and defaults (packs
    # left out: one, two with 8+ players; the turn timer: the bot's)
    numbers=(
        NumberOption("packs", 1, 2, None, "number", "casino.number.packs"),
        NumberOption("kitty_min", 1, 1_000_000, 10, "chips", "casino.number.kitty_min"),
        NumberOption("kitty_max", 1, 1_000_000, 100, "chips", "casino.number.kitty_max"),
        NumberOption("turn_timer", 10, 3600, None, "seconds", "casino.number.turn_timer"),
    ),
)

__all__ = ["LIMITS"]
