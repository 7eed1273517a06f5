"""Every game the bot registers is played by the engine's conformance test
(tests/engine/test_conformance.py), which walks ``engine.games``."""

from __future__ import annotations

from bot.games import GAMES
from engine.games import GAMES as ENGINE_GAMES


def test_every_registered_game_gets_the_conformance_test() -> None:
    assert sorted(g.name for g in GAMES) == sorted(g.name for g in ENGINE_GAMES)
