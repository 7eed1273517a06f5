"""/balance, /daily, /leaderboard and /chips grant|audit: chips through the ledger."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.audit import audit
from bot.errors import ServiceError, friendly
from bot.interactions import can_manage_guild, reply
from bot.storage import member_account

if TYPE_CHECKING:
    from bot.app import PontoonBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Chips belong to a server: use this in a server channel.")
    return interaction.guild_id


class Chips(commands.Cog):
    def __init__(self, bot: PontoonBot) -> None:
        self.bot = bot

    @app_commands.command(name="balance", description="Your chips (or another member's)")
    async def balance(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        try:
            guild_id = _guild(interaction)
            who = member or interaction.user
            if who.bot:
                raise ServiceError("Bots do not hold chips.")
            chips = await self.bot.store.ensure_member(guild_id, who.id)
            live = self.bot.service.table_of_member(guild_id, who.id)
            extra = ""
            if live is not None:
                in_play = sum(h.stake + h.shoot for h in live.engine.private_view(str(who.id)))
                extra = f" (seated at <#{live.channel_id}>" + (
                    f", {in_play} in play)" if in_play > 0 else ")"
                )
            name = "You have" if who.id == interaction.user.id else f"{who.display_name} has"
            await reply(interaction, f"{name} **{chips}** chips{extra}.")
        except Exception as exc:
            await reply(interaction, friendly(exc))

    @app_commands.command(name="daily", description="Claim your daily chips")
    async def daily(self, interaction: Interaction) -> None:
        try:
            guild_id = _guild(interaction)
            s = self.bot.settings
            await self.bot.store.ensure_member(guild_id, interaction.user.id)
            chips = await self.bot.store.claim_daily(
                guild_id,
                interaction.user.id,
                None,
                timedelta(hours=s.daily_cooldown_hours),
                datetime.now(UTC),
            )
            await reply(interaction, f"You claim your daily chips. Balance: **{chips}**.")
        except Exception as exc:
            await reply(interaction, friendly(exc))

    @app_commands.command(name="leaderboard", description="The richest members of this server")
    async def leaderboard(self, interaction: Interaction) -> None:
        try:
            guild_id = _guild(interaction)
            rows = await self.bot.store.leaderboard(guild_id, 10)
            if not rows:
                await reply(interaction, "Nobody holds chips yet.", ephemeral=False)
                return
            lines = [f"{i + 1}. <@{uid}> — {bal}" for i, (uid, bal) in enumerate(rows)]
            em = discord.Embed(title="Leaderboard", description="\n".join(lines))
            await interaction.response.send_message(
                embed=em, allowed_mentions=discord.AllowedMentions.none()
            )
        except Exception as exc:
            await reply(interaction, friendly(exc))

    chips = app_commands.Group(
        name="chips",
        description="Chip administration",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @chips.command(name="grant", description="Give a member chips (Manage Server)")
    async def grant(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        try:
            guild_id = _guild(interaction)
            if not can_manage_guild(interaction):
                raise ServiceError("Only members with Manage Server can grant chips.")
            if member.bot:
                raise ServiceError("Bots do not hold chips.")
            await self.bot.store.ensure_member(guild_id, member.id)
            chips = await self.bot.store.grant(
                guild_id, member.id, amount, "admin grant", interaction.user.id
            )
            await reply(
                interaction,
                f"Granted **{amount}** chips to {member.display_name}; they now have **{chips}**.",
                ephemeral=False,
            )
        except Exception as exc:
            await reply(interaction, friendly(exc))

    @chips.command(
        name="settings", description="This server's starting and daily chips (Manage Server)"
    )
    @app_commands.describe(
        starting_chips="chips a member gets the first time they play here",
        daily_chips="chips /daily gives",
    )
    async def settings_cmd(
        self,
        interaction: Interaction,
        starting_chips: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_chips: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        try:
            guild_id = _guild(interaction)
            store = self.bot.store
            changes = {
                key: value
                for key, value in (("starting_chips", starting_chips), ("daily_chips", daily_chips))
                if value is not None
            }
            if changes:
                if not can_manage_guild(interaction):
                    raise ServiceError("Only members with Manage Server can change these.")
                for key, value in changes.items():
                    await store.set_guild_setting(guild_id, key, value, interaction.user.id)
            current = await store.guild_settings(guild_id)
            await reply(
                interaction,
                f"New members start with **{current.starting_chips}** chips; "
                f"`/daily` gives **{current.daily_chips}**." + (" (changed)" if changes else ""),
            )
        except Exception as exc:
            await reply(interaction, friendly(exc))

    @chips.command(name="audit", description="Check the chip ledger (Manage Server)")
    async def audit_cmd(self, interaction: Interaction) -> None:
        try:
            if not can_manage_guild(interaction):
                raise ServiceError("Only members with Manage Server can audit the ledger.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            report = await audit(self.bot.store)
            await interaction.followup.send(report.summary()[:1900], ephemeral=True)
        except Exception as exc:
            await reply(interaction, friendly(exc))


async def setup(bot: PontoonBot) -> None:
    await bot.add_cog(Chips(bot))


__all__ = ["Chips", "member_account", "setup"]
