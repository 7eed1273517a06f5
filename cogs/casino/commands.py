"""The /casino group: a server's settings panel and their trail, and a fresh season, for
members with Manage Server. A new subcommand is one more ``@casino.command`` method
below."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.economy import Seasons
from bot.errors import ServiceError
from bot.i18n import t
from bot.i18n.languages import locale_of
from bot.storage.models import SeasonReset
from cogs.casino import panel
from cogs.casino.panel import SEASON_KEY
from cogs.common import GameBot, Interaction, can_manage_guild, in_installed_server, reply
from cogs.economy import ask_reset
from cogs.installs import server_only
from cogs.router import note_member, refuse


def owner_only(interaction: Interaction) -> int:
    """The server of ``interaction``, for a member with Manage Server; else refused
    (nothing shown)."""
    if not in_installed_server(interaction):
        raise ServiceError("Use this in a server.", key="casino.server_only")
    if not can_manage_guild(interaction):
        raise ServiceError("Only members with Manage Server.", key="casino.denied")
    assert interaction.guild_id is not None
    return interaction.guild_id


class Casino(commands.Cog):
    """/casino settings, /casino log and /casino reset, and the panel's select menus."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        # the server's seasons (one reset at a time per server); a reset goes to the trail
        self.seasons = Seasons(bot.store, lambda: bot.games.values())
        self.seasons.after_reset.append(self._to_trail)

    async def _to_trail(self, reset: SeasonReset) -> None:
        await self.bot.store.record_in_trail(
            reset.guild_id,
            SEASON_KEY,
            reset.season,
            reset.season + 1,
            by_user_id=reset.by_user_id,
            ts=reset.ended_at,
        )

    casino = server_only(
        app_commands.Group(
            name="casino",
            description="Run this server's casino (Manage Server)",
            default_permissions=discord.Permissions(manage_guild=True),
            guild_only=True,
        )
    )

    @casino.command(name="settings", description="See and change this server's settings")
    async def settings(self, interaction: Interaction) -> None:
        guild_id = owner_only(interaction)
        locale = await locale_of(interaction)
        current = await self.bot.store.guild_settings(guild_id)
        on_break = await self.bot.store.members_on_break(guild_id)
        await interaction.response.send_message(
            view=panel.panel(current, locale, on_break), ephemeral=True
        )

    @casino.command(name="log", description="Who changed which setting, and when")
    @app_commands.describe(latest="how many of the newest changes to show")
    async def log(
        self, interaction: Interaction, latest: app_commands.Range[int, 1, 25] = 10
    ) -> None:
        guild_id = owner_only(interaction)
        locale = await locale_of(interaction)
        entries = await self.bot.store.settings_log(guild_id, latest)
        if not entries:
            await reply(interaction, t(locale, "casino.log.empty"))
            return
        lines = [panel.log_line(entry, locale) for entry in entries]
        text = t(locale, "casino.log.head") + "\n" + "\n".join(lines)
        await reply(interaction, text[:1990])

    @casino.command(
        name="reset", description="Start a fresh season: every balance back to the start"
    )
    async def reset(self, interaction: Interaction) -> None:
        await ask_reset(self.bot, self.seasons, interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """The panel's select menus (the router answers its form): from the custom id."""
        data: dict[str, Any] = cast(dict[str, Any], interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if interaction.type is not discord.InteractionType.component or not custom_id.startswith(
            panel.PREFIX
        ):
            return
        note_member(interaction)
        try:
            await panel.picked(interaction, custom_id, [str(v) for v in data.get("values", [])])
        except Exception as exc:
            await refuse(interaction, exc)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Casino(bot))


__all__ = ["Casino", "owner_only", "setup"]
