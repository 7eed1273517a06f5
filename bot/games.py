"""The registry of games: what the rest of the bot needs to know about each game, in
one entry per game (no ``if game == ...`` anywhere else).

An entry names the game (the name its tables are stored under, its key in the bot's
``games`` / ``presenters``), its three packages (its Discord package, by default
``cogs.<name>``; its engine package, by default ``engine.<name>``; its service, through
``build_service``), its slash-command group (and the sandbox's channel of that name),
and reads a saved table's chips for the audit. Start-up (``bot.app``) walks this list
to build every service, its presenter and its buttons, and loads each game's Discord
package as an extension; the router, /help, /stats, the casino panel, the audit, the
settings and the sandbox's channels all find each game here: nothing shared names a
game.

A new game is one engine package, one service module (a :class:`bot.host.TableHost`
subclass, ``build_service`` and ``holdings``), one Discord package (``Presenter``,
``Settings``, ``BUTTONS``, ``FORMS``, ``refusal_text``, ``HELP``, the extension's
``setup``) and one entry: a line in :data:`GAMES` below, or, for a game that lives
outside this repository's folders (the tests' own fourth game), :func:`register`
before the bot starts (as open_spiel's ``register_game``). CONTRIBUTING.md walks
through it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import blackjack, pontoon, punto_banco
from bot.host import Holdings, TableHost
from bot.i18n import add_domain


@dataclass(frozen=True)
class Game:
    name: str  # stored with its tables; its key in bot.games and bot.presenters
    title: str  # in logs and the audit
    build_service: Callable[..., TableHost[Any]]
    holdings: Callable[[Any], Holdings]  # a saved table's engine state -> its chips
    command: str = ""  # its slash-command group (default: its name); a sandbox channel
    cogs: str = ""  # its Discord package (default: cogs.<name>)
    engine: str = ""  # its engine package (default: engine.<name>)

    @property
    def package(self) -> str:
        """The game's Discord package, loaded as one discord.py extension."""
        return self.cogs or f"cogs.{self.name}"

    @property
    def engine_package(self) -> str:
        """The game's rules (``<package>.random_play`` gives the conformance test its
        :class:`engine.random_play.RandomPlay`)."""
        return self.engine or f"engine.{self.name}"

    @property
    def group(self) -> str:
        """Its slash-command group (``/<group> start``), and its channel in the sandbox."""
        return self.command or self.name


#: every game this bot runs, in the order /help and the casino panel list them
GAMES: list[Game] = [
    Game("pontoon", "Pontoon", pontoon.build_service, pontoon.holdings),
    Game(
        "punto_banco",
        "Punto Banco",
        punto_banco.build_service,
        punto_banco.holdings,
        command="baccarat",
    ),
    Game("blackjack", "Blackjack", blackjack.build_service, blackjack.holdings),
]


def register(game: Game) -> Game:
    """Add a game that lives outside this repository's game folders (before start-up
    reads the registry: before ``bot.__main__.main``). Its Discord package's ``locales``
    folder, if it has one, becomes its catalog domain. A name already taken is refused."""
    if any(known.name == game.name or known.group == game.group for known in GAMES):
        raise ValueError(f"a game named {game.name!r} (/{game.group}) is already registered")
    spec = importlib.util.find_spec(game.package)
    if spec is None or spec.origin is None:
        raise ValueError(f"no package {game.package!r} for the game {game.name!r}")
    locales = Path(spec.origin).parent / "locales"
    if locales.is_dir():
        add_domain(game.package.rsplit(".", 1)[-1], locales)
    GAMES.append(game)
    return game


def by_name(name: str) -> Game:
    """The registry entry of a stored game name; ValueError for a name no game has."""
    for game in GAMES:
        if game.name == name:
            return game
    raise ValueError(f"unknown game {name!r}")


__all__ = ["GAMES", "Game", "by_name", "register"]
