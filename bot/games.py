"""The registry of games: what the rest of the bot needs to know about each game, in
one entry per game (no ``if game == ...`` anywhere else).

An entry names the game (the name its tables are stored under, its key in the bot's
``games`` / ``presenters``, and its Discord package ``cogs.<name>``), builds its service
from the settings, and reads a saved table's chips for the audit. Start-up
(``bot.app``) walks this list to build every service, its presenter and its buttons,
and loads each game's package as an extension; the audit asks the entry of a stored
table's game.

A third game is one engine package (``engine/<name>/``), one service module
(``bot/<name>.py``: a :class:`bot.host.TableHost` subclass, ``build_service`` and
``holdings``), one Discord package (``cogs/<name>/``: ``Presenter``, ``BUTTONS``,
``FORMS``, ``refusal_text``, ``HELP``, the extension's ``setup`` and ``access.py``, its
typed way to its own service and presenter in the bot's ``games`` / ``presenters``) and
one entry below. The router, the error handler, /help and /stats find each game here:
nothing shared names a game. CONTRIBUTING.md walks through it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import blackjack, pontoon, punto_banco
from bot.host import Holdings, TableHost


@dataclass(frozen=True)
class Game:
    name: str  # stored with its tables; its key in bot.games; its package is cogs.<name>
    title: str  # in logs and the audit
    build_service: Callable[..., TableHost[Any]]
    holdings: Callable[[Any], Holdings]  # a saved table's engine state -> its chips

    @property
    def package(self) -> str:
        """The game's Discord package, loaded as one discord.py extension."""
        return f"cogs.{self.name}"


GAMES: tuple[Game, ...] = (
    Game("pontoon", "Pontoon", pontoon.build_service, pontoon.holdings),
    Game("punto_banco", "Punto Banco", punto_banco.build_service, punto_banco.holdings),
    Game("blackjack", "Blackjack", blackjack.build_service, blackjack.holdings),
)


def by_name(name: str) -> Game:
    """The registry entry of a stored game name; ValueError for a name no game has."""
    for game in GAMES:
        if game.name == name:
            return game
    raise ValueError(f"unknown game {name!r}")


__all__ = ["GAMES", "Game", "by_name"]
