"""The games the engine plays, for whatever must go through every one of them without
the bot (the conformance test ``tests/engine/test_conformance.py``): one
:class:`engine.random_play.RandomPlay` per game, under the game's stored name. A new game
adds its entry here and in the bot's registry (``bot/games.py``); a test checks that both
name the same games."""

from __future__ import annotations

from engine.blackjack.random_play import RANDOM_PLAY as BLACKJACK
from engine.pontoon.random_play import RANDOM_PLAY as PONTOON
from engine.punto_banco.random_play import RANDOM_PLAY as PUNTO_BANCO
from engine.random_play import RandomPlay

GAMES: tuple[RandomPlay, ...] = (PONTOON, PUNTO_BANCO, BLACKJACK)

__all__ = ["GAMES"]
