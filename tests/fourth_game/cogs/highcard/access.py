"""High Card's own service and presenter, as this package reaches them through the bot
(``bot.games`` / ``bot.presenters``, under the game's registry name)."""

from __future__ import annotations

from typing import Protocol, cast

from bot.host import Change
from cogs.common import GameBot, game_service
from cogs.table_message import Click
from tests.fourth_game.bot.highcard import GAME_HIGHCARD, HighCardService, OpenHighCardTable


class HighCardPresenterPart(Protocol):
    """What the commands and buttons ask of the presenter."""

    async def respond(
        self, click: Click, change: Change[OpenHighCardTable], otherwise: str | None = None
    ) -> None: ...


def service(bot: GameBot) -> HighCardService:
    return game_service(
        bot,
        GAME_HIGHCARD,
        HighCardService,
        ("err.hc.not_running", "High Card is not running on this bot right now."),
    )


def presenter(bot: GameBot) -> HighCardPresenterPart:
    return cast(HighCardPresenterPart, bot.presenters[GAME_HIGHCARD])


__all__ = ["HighCardPresenterPart", "presenter", "service"]
