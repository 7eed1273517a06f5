"""/bank sell|kitty|auction|bid: selling the bank (P-SELL-1), the Shoot Pontoon kitty and
the auction of the bank when the kitty is empty (P-SHOOT-1/8)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError, friendly, parse_amount
from bot.i18n import DEFAULT_LOCALE, Raw, t
from bot.i18n.languages import locale_of, public_locale_of
from bot.ui.common import reply
from bot.ui.pontoon.presenter import Click, answer, display, member_action
from engine.errors import EngineError
from engine.pontoon.types import ActionKind

if TYPE_CHECKING:
    from bot.app import PontoonBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]


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

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        bot: PontoonBot = interaction.client  # type: ignore[assignment]
        locale = await locale_of(interaction)
        try:
            if interaction.user.id != self.buyer_id:
                raise ServiceError("This offer is for someone else.", key="err.bank.not_you")
            await interaction.response.defer()
            await bot.service.accept_bank(self.table_id, interaction.user.id)
            if interaction.message is not None:
                accepted = t(await public_locale_of(interaction), "bank.accepted")
                await interaction.message.edit(
                    content=f"{interaction.message.content}\n{accepted}", view=None
                )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))
        except Exception as exc:
            log.exception("accepting the bank failed")
            await reply(interaction, friendly(exc, locale))


class Bank(commands.GroupCog, group_name="bank", group_description="The Pontoon bank"):
    def __init__(self, bot: PontoonBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AcceptBank)

    @app_commands.command(name="sell", description="Offer the bank to a seated player (P-SELL-1)")
    async def sell(
        self,
        interaction: Interaction,
        member: discord.Member,
        price: app_commands.Range[int, 0, 1_000_000_000],
    ) -> None:
        try:
            if interaction.channel_id is None:
                raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
            live = self.bot.service.in_channel(interaction.channel_id)
            price = parse_amount(price, "price")
            await self.bot.service.offer_bank(live.table_id, interaction.user.id, member.id, price)
            locale = await public_locale_of(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(AcceptBank(live.table_id, member.id, price, locale))
            # the offer pings its buyer only, who has to accept it
            await interaction.response.send_message(
                t(
                    locale,
                    "bank.offer",
                    seller=display(interaction.user.display_name),
                    buyer=member.mention,
                    price=price,
                ),
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @app_commands.command(
        name="kitty", description="Put up or add to the kitty (P-SHOOT-1/8); 0 adds nothing"
    )
    async def kitty(
        self, interaction: Interaction, amount: app_commands.Range[int, 0, 1_000_000_000]
    ) -> None:
        try:
            if interaction.channel_id is None:
                raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
            live = self.bot.service.in_channel(interaction.channel_id)
            click = Click(interaction, "")
            with member_action(click):
                await self.bot.service.act(
                    live.table_id,
                    interaction.user.id,
                    ActionKind.KITTY,
                    amount=parse_amount(amount),
                )
            locale = await locale_of(interaction)
            await answer(
                click,
                t(locale, "pt.done.kitty", amount=amount)
                if amount
                else t(locale, "pt.done.kitty_none"),
            )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @app_commands.command(
        name="auction", description="Empty kitty: offer the bank to the highest bidder (P-SHOOT-8)"
    )
    @app_commands.describe(seconds="how long bids are taken")
    async def auction(
        self, interaction: Interaction, seconds: app_commands.Range[int, 10, 600] = 60
    ) -> None:
        try:
            if interaction.channel_id is None:
                raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
            live = self.bot.service.in_channel(interaction.channel_id)
            ends_at = await self.bot.service.open_auction(
                live.table_id, interaction.user.id, float(seconds)
            )
            await interaction.response.send_message(
                t(
                    await public_locale_of(interaction),
                    "bank.auction",
                    who=display(interaction.user.display_name),
                    ts=Raw(str(int(ends_at))),
                )
            )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @app_commands.command(name="bid", description="Bid for the bank in a running auction")
    async def bid(
        self, interaction: Interaction, amount: app_commands.Range[int, 1, 1_000_000_000]
    ) -> None:
        try:
            if interaction.channel_id is None:
                raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
            live = self.bot.service.in_channel(interaction.channel_id)
            best = await self.bot.service.bid(
                live.table_id, interaction.user.id, parse_amount(amount, "bid")
            )
            await interaction.response.send_message(
                t(
                    await public_locale_of(interaction),
                    "bank.bid",
                    name=interaction.user.display_name,
                    best=best,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))


async def setup(bot: PontoonBot) -> None:
    await bot.add_cog(Bank(bot))
