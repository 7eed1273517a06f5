"""The games the engine plays, for whatever must go through every one of them without
the bot (the engine's command line, ``python -m engine``): one
:class:`engine.random_play.RandomPlay` per game, under the game's stored name.

Found, not listed: every package of ``engine`` with a ``random_play`` module (its
``RANDOM_PLAY``) is a game, so a new game's engine package is all it takes here. The
bot's registry (``bot/games.py``) names each game's engine package; the conformance test
(``tests/engine/test_conformance.py``) walks that registry, and a test checks that it
and this list name the same games."""

from __future__ import annotations

import importlib
import pkgutil

import engine
from engine.random_play import RandomPlay


def find_games() -> tuple[RandomPlay, ...]:
    """The ``RANDOM_PLAY`` of every game package of ``engine``, by name."""
    found: list[RandomPlay] = []
    for module in pkgutil.iter_modules(engine.__path__):
        if not module.ispkg:
            continue
        try:
            play = importlib.import_module(f"engine.{module.name}.random_play").RANDOM_PLAY
        except ModuleNotFoundError as exc:
            if exc.name != f"engine.{module.name}.random_play":
                raise
            continue
        found.append(play)
    return tuple(sorted(found, key=lambda play: play.name))


GAMES: tuple[RandomPlay, ...] = find_games()

__all__ = ["GAMES", "find_games"]
