"""/bank sell|kitty|auction|bid: selling the bank (P-SELL-1), the Shoot Pontoon kitty and
the auction of the bank when the kitty is empty (P-SHOOT-1/8). The offer's Accept button
is in cogs/pontoon/bank_offer.py."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError, parse_amount
from bot.i18n import Raw, t
from bot.i18n.languages import locale_of, public_locale_of
from cogs.common import GameBot, Interaction, display
from cogs.installs import everywhere
from cogs.pontoon import access
from cogs.pontoon.bank_offer import AcceptBank
from cogs.pontoon.commands import check_variation
from cogs.table_message import Click, answer, answered_in_time
from engine.pontoon.types import ActionKind


@everywhere
class Bank(commands.GroupCog, group_name="bank", group_description="The Pontoon bank"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.service = access.service(bot)
        super().__init__()

    @app_commands.command(name="sell", description="Offer the bank to a seated player")
    @app_commands.describe(member="the player who may buy the bank", price="chips the buyer pays")
    async def sell(
        self,
        interaction: Interaction,
        member: discord.Member,
        price: app_commands.Range[int, 0, 1_000_000_000],
    ) -> None:
        if interaction.channel_id is None:
            raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
        live = self.service.in_channel(interaction.channel_id)
        price = parse_amount(price, "price")
        await self.service.offer_bank(live.table_id, interaction.user.id, member.id, price)
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

    @app_commands.command(name="kitty", description="Put up or add to the kitty; 0 adds nothing")
    @app_commands.describe(amount="chips to put in the kitty (0 adds nothing)")
    async def kitty(
        self, interaction: Interaction, amount: app_commands.Range[int, 0, 1_000_000_000]
    ) -> None:
        if interaction.channel_id is None:
            raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
        live = self.service.in_channel(interaction.channel_id)
        check_variation(live, ActionKind.KITTY)  # kitty and auction: Shoot only
        click = Click(interaction, "")
        with answered_in_time(click):
            await self.service.act(
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

    @app_commands.command(
        name="auction", description="Empty kitty: offer the bank to the highest bidder"
    )
    @app_commands.describe(seconds="how long bids are taken")
    async def auction(
        self, interaction: Interaction, seconds: app_commands.Range[int, 10, 600] = 60
    ) -> None:
        if interaction.channel_id is None:
            raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
        live = self.service.in_channel(interaction.channel_id)
        check_variation(live, ActionKind.KITTY)  # kitty and auction: Shoot only
        ends_at = await self.service.open_auction(
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

    @app_commands.command(name="bid", description="Bid for the bank in a running auction")
    @app_commands.describe(amount="chips you offer for the bank")
    async def bid(
        self, interaction: Interaction, amount: app_commands.Range[int, 1, 1_000_000_000]
    ) -> None:
        if interaction.channel_id is None:
            raise ServiceError("Use this in the table's channel.", key="err.bank.channel")
        live = self.service.in_channel(interaction.channel_id)
        check_variation(live, ActionKind.KITTY)  # kitty and auction: Shoot only
        best = await self.service.bid(
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


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Bank(bot))
