"""The buyer's Accept button on a Pontoon bank offer (/bank sell, P-SELL-1), and what a
click on it does. Its custom id ``bk:{table}:{buyer}:{price}`` is kept exactly, so an
offer can be accepted after a restart."""

from __future__ import annotations

import logging
import re

import discord

from bot.errors import ServiceError, friendly
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import locale_of, public_locale_of
from cogs.common import Interaction, bot_of, reply
from cogs.pontoon import access
from cogs.pontoon.controls import refuse
from engine.errors import EngineError

log = logging.getLogger(__name__)


class AcceptBank(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bk:(?P<table>[0-9a-f]+):(?P<buyer>[0-9]+):(?P<price>[0-9]+)",
):
    """The buyer's Accept button on a bank offer; works across restarts."""

    def __init__(
        self, table_id: str, buyer_id: int, price: int, locale: str = DEFAULT_LOCALE
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, "bank.accept", price=price),
                style=discord.ButtonStyle.success,
                custom_id=f"bk:{table_id}:{buyer_id}:{price}",
            )
        )
        self.table_id = table_id
        self.buyer_id = buyer_id
        self.price = price

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls,
        interaction: Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> AcceptBank:
        return cls(match["table"], int(match["buyer"]), int(match["price"]))

    async def callback(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        locale = await locale_of(interaction)
        try:
            if interaction.user.id != self.buyer_id:
                raise ServiceError("This offer is for someone else.", key="err.bank.not_you")
            await interaction.response.defer()
            await access.service(bot).accept_bank(self.table_id, interaction.user.id)
            if interaction.message is not None:
                accepted = t(await public_locale_of(interaction), "bank.accepted")
                await interaction.message.edit(
                    content=f"{interaction.message.content}\n{accepted}", view=None
                )
        except (ServiceError, EngineError) as exc:
            await refuse(interaction, exc, self.table_id, locale=locale)  # seats as names
        except Exception as exc:
            log.exception("accepting the bank failed")
            await reply(interaction, friendly(exc, locale))
