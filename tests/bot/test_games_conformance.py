"""Every game the bot registers gets the engine's conformance test
(tests/engine/test_conformance.py), which walks the games ``engine.games`` finds (and the
tests' own fourth game, whose engine lives under tests/): the registry and what the
engine finds name the same games, each through its registry entry's engine package."""

from __future__ import annotations

import importlib

from bot.games import GAMES
from engine.games import GAMES as ENGINE_GAMES
from tests.fourth_game.registry import HIGHCARD, registered


def test_every_registered_game_gets_the_conformance_test() -> None:
    in_engine = [g for g in GAMES if g.engine_package.startswith("engine.")]
    assert sorted(g.name for g in in_engine) == sorted(g.name for g in ENGINE_GAMES)
    with registered():
        for game in GAMES:
            play = importlib.import_module(f"{game.engine_package}.random_play").RANDOM_PLAY
            assert play.name == game.name
    assert HIGHCARD.engine_package == "tests.fourth_game.engine.highcard"
