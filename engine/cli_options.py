"""Option types and limits shared by the ``python -m engine`` commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

MAX_ROUNDS = 10_000_000  # simulate pontoon --rounds, simulate punto-banco --coups
MAX_SECONDS = 3600.0  # bench --seconds


class Parser(argparse.ArgumentParser):
    """Every command shows each option's default in ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.ArgumentDefaultsHelpFormatter)
        super().__init__(*args, **kwargs)


def _grouped(n: float) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:g}"


def _bounded(
    convert: Callable[[str], float], kind: str, least: float, most: float, unit: str
) -> Callable[[str], Any]:
    """An argparse type: ``convert(text)`` from ``least`` to ``most``, else a clear error."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        if not least <= value <= most:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"must be between {_grouped(least)} and {_grouped(most)}{unit} (got {text})"
            )
        return value

    return parse


def whole_number(least: int, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``least`` to ``most``."""
    return _bounded(int, "a whole number", least, most, "")


def seconds(least: float, most: float) -> Callable[[str], float]:
    """An argparse type: a number of seconds from ``least`` to ``most``."""
    return _bounded(float, "a number of seconds", least, most, " seconds")


def add_play_options(parser: argparse.ArgumentParser, count: str, what: str) -> None:
    """A simulation's ``--<count>`` (how many rounds or coups to play, 1 to MAX_ROUNDS)
    and ``--seed`` (the shuffles'), the same for every game."""
    parser.add_argument(
        f"--{count}",
        type=whole_number(1, MAX_ROUNDS),
        default=100_000,
        help=f"{what} to play, 1 to {MAX_ROUNDS:,}",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffles")
