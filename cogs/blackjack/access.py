"""Blackjack's own service and presenter, as this package reaches them through the bot
(``bot.games`` / ``bot.presenters``, built by start-up under the game's registry name):
the shared bot type (:class:`cogs.common.GameBot`) names no game.

This module imports only ``bot.*``, ``cogs.common`` and ``cogs.table_message``, so every module of the package
may import it without an import circle."""

from __future__ import annotations

from typing import Protocol, cast

from bot.blackjack import GAME_BLACKJACK, BlackjackService, OpenBlackjackTable
from bot.host import Change
from cogs.common import GameBot, game_service
from cogs.table_message import Click


class BlackjackPresenterPart(Protocol):
    """What the commands and buttons ask of the Blackjack presenter
    (:class:`cogs.blackjack.presenter.BlackjackPresenter`, which also draws the buttons:
    naming it here would be an import circle)."""

    async def repost(self, live: OpenBlackjackTable) -> None: ...

    async def respond(
        self, click: Click, change: Change[OpenBlackjackTable], otherwise: str | None = None
    ) -> None: ...


def service(bot: GameBot) -> BlackjackService:
    """The bot's Blackjack service (a refusal the member reads if it is not running)."""
    return game_service(
        bot,
        GAME_BLACKJACK,
        BlackjackService,
        ("err.bj.not_running", "Blackjack is not running on this bot right now."),
    )


def presenter(bot: GameBot) -> BlackjackPresenterPart:
    """The bot's Blackjack presenter (the part the commands and buttons use)."""
    return cast(BlackjackPresenterPart, bot.presenters[GAME_BLACKJACK])


__all__ = ["BlackjackPresenterPart", "presenter", "service"]
