"""High Card's registry entry, and a way to register it for one test."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from bot import games, i18n
from bot.games import Game
from tests.fourth_game.bot import highcard

HIGHCARD = Game(
    "highcard",
    "High Card",
    highcard.build_service,
    highcard.holdings,
    cogs="tests.fourth_game.cogs.highcard",
    engine="tests.fourth_game.engine.highcard",
)


@contextlib.contextmanager
def registered() -> Iterator[Game]:
    """High Card in the bot's registry (and its words in the catalogs) while the block
    runs, then gone again, so no other test of this process sees it."""
    games.register(HIGHCARD)
    try:
        yield HIGHCARD
    finally:
        games.GAMES.remove(HIGHCARD)
        i18n._ADDED.pop("highcard", None)
        for cached in (i18n.domains, i18n.domain_catalog, i18n.catalog):
            cached.cache_clear()
