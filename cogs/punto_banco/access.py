"""Punto Banco's own service and presenter, as this package reaches them through the
bot (``bot.games`` / ``bot.presenters``, built by start-up under the game's registry
name): the shared bot type (:class:`cogs.common.GameBot`) names no game.

This module imports only ``bot.*``, ``cogs.common`` and ``cogs.table_message``, so every
module of the package may import it without an import circle."""

from __future__ import annotations

from typing import Protocol, cast

from bot.host import Change
from bot.punto_banco import GAME_PUNTO_BANCO, OpenPuntoBancoTable, PuntoBancoService
from cogs.common import GameBot, game_service
from cogs.table_message import Click


class PuntoBancoPresenterPart(Protocol):
    """What the commands and buttons ask of the Punto Banco presenter
    (:class:`cogs.punto_banco.presenter.PuntoBancoPresenter`, which also draws the
    buttons: naming it here would be an import circle)."""

    async def repost(self, live: OpenPuntoBancoTable) -> None: ...

    async def respond(
        self, click: Click, change: Change[OpenPuntoBancoTable], otherwise: str | None = None
    ) -> None: ...


def service(bot: GameBot) -> PuntoBancoService:
    """The bot's Punto Banco service (a refusal the member reads if it is not running)."""
    return game_service(
        bot,
        GAME_PUNTO_BANCO,
        PuntoBancoService,
        ("err.pb.not_running", "Punto Banco is not running on this bot right now."),
    )


def presenter(bot: GameBot) -> PuntoBancoPresenterPart:
    """The bot's Punto Banco presenter (the part the commands use)."""
    return cast(PuntoBancoPresenterPart, bot.presenters[GAME_PUNTO_BANCO])


__all__ = ["PuntoBancoPresenterPart", "presenter", "service"]
