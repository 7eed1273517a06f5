"""The buyer's Accept button on a Pontoon bank offer (/bank sell, P-SELL-1), and what a
click on it does. Its custom id ``bk:{table}:{buyer}:{price}`` is kept exactly, so an
offer can be accepted after a restart."""

from __future__ import annotations

import logging
import re

import discord

from bot.errors import ServiceError
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import public_locale_of
from cogs.common import Interaction, bot_of
from cogs.pontoon import access
from cogs.router import RoutedButton

log = logging.getLogger(__name__)


class AcceptBank(
    RoutedButton,
    template=r"bk:(?P<table>[0-9a-f]+):(?P<buyer>[0-9]+):(?P<price>[0-9]+)",
):
    """The buyer's Accept button on a bank offer; works across restarts."""

    prefix = "bk"
    inactive = "err.pt.inactive_button"

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

    async def clicked(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.user.id != self.buyer_id:
            raise ServiceError("This offer is for someone else.", key="err.bank.not_you")
        await interaction.response.defer()
        await access.service(bot).accept_bank(self.table_id, interaction.user.id)
        if interaction.message is not None:
            accepted = t(await public_locale_of(interaction), "bank.accepted")
            await interaction.message.edit(
                content=f"{interaction.message.content}\n{accepted}", view=None
            )
