"""Pontoon's own service and presenter, as this package reaches them through the bot
(``bot.games`` / ``bot.presenters``, built by start-up under the game's registry name):
the shared bot type (:class:`cogs.common.GameBot`) names no game.

This module imports only ``bot.*``, ``cogs.common`` and ``cogs.table_message``, so every
module of the package may import it without an import circle."""

from __future__ import annotations

from typing import Protocol, cast

from bot.host import Change
from bot.pontoon import GAME_PONTOON, OpenPontoonTable, PontoonService
from cogs.common import GameBot, Interaction
from cogs.table_message import Click


class PontoonPresenter(Protocol):
    """What buttons, forms and commands ask of the Pontoon presenter
    (:class:`cogs.pontoon.presenter.PontoonDiscordPresenter`, which also draws those buttons:
    naming it here would be an import circle)."""

    def remember(self, live: OpenPontoonTable, interaction: Interaction) -> None: ...

    async def respond(
        self, click: Click, change: Change[OpenPontoonTable], otherwise: str | None = None
    ) -> None: ...

    def hand_summary(self, live: OpenPontoonTable, seat: str, locale: str | None = None) -> str: ...

    def name_ids(self, live: OpenPontoonTable, text: str, locale: str | None = None) -> str: ...

    async def repost(self, live: OpenPontoonTable) -> None: ...


def service(bot: GameBot) -> PontoonService:
    """The bot's Pontoon service."""
    return cast(PontoonService, bot.games[GAME_PONTOON])


def presenter(bot: GameBot) -> PontoonPresenter:
    """The bot's Pontoon presenter (the parts buttons, forms and commands use)."""
    return cast(PontoonPresenter, bot.presenters[GAME_PONTOON])


__all__ = ["PontoonPresenter", "presenter", "service"]
