"""/break (a member's own break from play), /give (chips to another member, when the
server has it on) and the body of /casino reset (a fresh season, Manage Server, with a
confirmation button: :func:`ask_reset`, called by the /casino group in
cogs/casino/commands.py). The commands are thin: the work is in bot/economy.py and the
store."""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands
from discord.ext import commands

from bot.economy import BREAK_UNITS, ResetPlan, Seasons, give_chips, take_break
from bot.errors import ServiceError
from bot.i18n import Raw, choose, t
from bot.i18n.languages import locale_of, public_locale_of
from bot.storage.errors import stamp
from cogs.common import (
    GameBot,
    can_manage_guild,
    display,
    economy_scope,
    in_installed_server,
    reply,
)
from cogs.installs import everywhere, server_only
from cogs.router import refuse

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]

CONFIRM_SECONDS = 300.0  # how long a reset's confirmation can be clicked


def guild_of(interaction: Interaction) -> int:
    """The server of a server-only command, refused anywhere else (a DM, a group DM, a
    server where only the member installed the app)."""
    if not in_installed_server(interaction):
        raise ServiceError(
            "Chips belong to a server: use this in a server channel.", key="chips.server_only"
        )
    assert interaction.guild_id is not None
    return interaction.guild_id


def check_may_reset(interaction: Interaction) -> None:
    if not can_manage_guild(interaction):
        raise ServiceError(
            "Only members with Manage Server can start a fresh season.",
            key="season.reset.denied",
        )


def reset_question(locale: str, plan: ResetPlan) -> str:
    """What the reset will do, named before the owner confirms it."""
    lines = [
        t(locale, "season.reset.ask", season=plan.season, next=plan.season + 1),
        t(
            locale,
            "season.reset.tables.none"
            if plan.tables == 0
            else choose(plan.tables, "season.reset.tables.one", "season.reset.tables.other"),
            tables=plan.tables,
        ),
        t(
            locale,
            choose(plan.members, "season.reset.members.one", "season.reset.members.other"),
            members=plan.members,
        ),
        t(locale, "season.reset.start", amount=plan.starting_chips),
        t(locale, "season.reset.standings", season=plan.season),
    ]
    return "\n".join(lines)


class ResetConfirmation(discord.ui.View):
    """The confirmation of one owner's reset, for one season: **Start season N** or
    **Cancel**, clickable by that owner only, for :data:`CONFIRM_SECONDS`."""

    def __init__(
        self, seasons: Seasons, owner_id: int, guild_id: int, plan: ResetPlan, locale: str
    ) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.seasons = seasons
        self.owner_id = owner_id
        self.guild_id = guild_id
        self.season = plan.season
        nonce = secrets.token_hex(4)
        go: discord.ui.Button[ResetConfirmation] = discord.ui.Button(
            style=discord.ButtonStyle.danger,
            label=t(locale, "season.reset.go", next=plan.season + 1),
            custom_id=f"season-reset:{nonce}:go",
        )
        stop: discord.ui.Button[ResetConfirmation] = discord.ui.Button(
            style=discord.ButtonStyle.secondary,
            label=t(locale, "season.reset.cancel"),
            custom_id=f"season-reset:{nonce}:cancel",
        )
        go.callback = self.confirmed  # type: ignore[method-assign]
        stop.callback = self.cancelled  # type: ignore[method-assign]
        self.add_item(go)
        self.add_item(stop)

    async def interaction_check(self, interaction: Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await reply(interaction, t(await locale_of(interaction), "season.reset.not_yours"))
            return False
        return True

    async def confirmed(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            check_may_reset(interaction)
        except ServiceError as exc:
            await refuse(interaction, exc)
            return
        self.stop()
        await interaction.response.edit_message(
            content=t(locale, "season.reset.working"), view=None
        )
        try:
            done = await self.seasons.reset(self.guild_id, interaction.user.id, self.season)
        except Exception as exc:
            await refuse(interaction, exc)
            return
        text = t(
            locale,
            "season.reset.done",
            season=done.season,
            next=done.season + 1,
            amount=done.starting_chips,
        )
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException:
            log.warning("the reset of server %s was not shown to its owner", self.guild_id)

    async def cancelled(self, interaction: Interaction) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=t(await locale_of(interaction), "season.reset.cancelled"), view=None
        )


async def ask_reset(bot: GameBot, seasons: Seasons, interaction: Interaction) -> None:
    """/casino reset: what a fresh season does, and the button that starts it."""
    guild_id = guild_of(interaction)
    check_may_reset(interaction)
    locale = await locale_of(interaction)
    plan = await seasons.plan(guild_id)
    view = ResetConfirmation(seasons, interaction.user.id, guild_id, plan, locale)
    await interaction.response.send_message(reset_question(locale, plan), view=view, ephemeral=True)


class Economy(commands.Cog):
    """/break and /give (/casino reset is in the /casino group, cogs/casino/commands.py,
    whose cog holds the server's :class:`Seasons`)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(
        name="break", description="Take a break from betting: 1 hour to 30 days, not ended early"
    )
    @app_commands.describe(length="how long, in the unit you choose", unit="minutes, hours or days")
    @app_commands.choices(unit=[app_commands.Choice(name=name, value=name) for name in BREAK_UNITS])
    async def break_cmd(self, interaction: Interaction, length: int, unit: str) -> None:
        # from the chips it is taken in: the server's, or outside servers the member's own
        guild_id = economy_scope(interaction)
        ends = await take_break(self.bot.store, guild_id, interaction.user.id, length, unit)
        await reply(
            interaction, t(await locale_of(interaction), "break.started", stamp=stamp(ends))
        )

    @server_only
    @app_commands.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(member="who gets them", amount="how many chips")
    @app_commands.guild_only()
    async def give(self, interaction: Interaction, member: discord.Member, amount: int) -> None:
        guild_id = guild_of(interaction)
        _, left = await give_chips(
            self.bot.store,
            guild_id,
            interaction.user.id,
            member.id,
            amount,
            receiver_is_bot=member.bot,
            joined_at=getattr(member, "joined_at", None),
        )
        public = await public_locale_of(interaction)
        await reply(
            interaction,
            t(
                public,
                "give.done",
                giver=display(interaction.user.display_name),
                receiver=Raw(member.mention),
                amount=amount,
            ),
            ephemeral=False,
        )
        try:
            await interaction.followup.send(
                t(await locale_of(interaction), "give.left", amount=left), ephemeral=True
            )
        except discord.HTTPException:
            log.warning("the gift allowance left was not shown to %s", interaction.user.id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Economy(bot))


__all__ = ["Economy", "ResetConfirmation", "ask_reset", "reset_question", "setup"]
