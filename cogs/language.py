"""/language: the language the bot speaks to a member privately, and (Manage Server) the
language of a server's public table messages."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError, friendly
from bot.i18n import LOCALE_NAMES, LOCALES, t
from bot.i18n.languages import Languages, locale_of
from cogs.common import GameBot, can_manage_guild, in_installed_server, reply
from cogs.installs import everywhere

Interaction = discord.Interaction[discord.Client]
AUTO = "auto"
CHOICES = [app_commands.Choice(name=LOCALE_NAMES[code], value=code) for code in LOCALES] + [
    app_commands.Choice(name="Discord's language", value=AUTO)
]


def language_name(reader: str, code: str) -> str:
    """``code``'s language named in the reader's language, with its own name."""
    own = LOCALE_NAMES[code]
    named = t(reader, f"lang.name.{code}")
    return own if named == own else f"{named} ({own})"


def redraw_tables(bot: GameBot, guild_id: int) -> int:
    """Every open table of the server, of every game, drawn again in the server's new
    language (not left in the old one until someone clicks). Returns how many."""
    count = 0
    for name, service in bot.games.items():
        presenter = bot.presenters.get(name)
        if presenter is None:
            continue
        for live in list(service.tables.values()):
            if live.guild_id == guild_id:
                presenter.redraw(live)
                count += 1
    return count


class Language(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def languages(self) -> Languages:
        return self.bot.languages

    @everywhere
    @app_commands.command(
        name="language",
        description="The language the bot speaks to you (and at a server's tables)",
    )
    @app_commands.describe(
        member="your private answers and DMs",
        server="public table messages of this server (Manage Server)",
    )
    @app_commands.choices(member=CHOICES, server=CHOICES)
    async def language(
        self,
        interaction: Interaction,
        member: app_commands.Choice[str] | None = None,
        server: app_commands.Choice[str] | None = None,
    ) -> None:
        langs = self.languages
        user_id = interaction.user.id
        # a server's language is that of a server that installed the bot (its tables);
        # a DM, a group DM, a server where only the member installed the app has none
        guild_id = interaction.guild_id if in_installed_server(interaction) else None
        lines: list[str] = []
        try:
            if server is not None:
                if guild_id is None:
                    raise ServiceError(
                        "There is no server here whose language could be set.",
                        key="lang.server.personal",
                    )
                if not can_manage_guild(interaction):
                    raise ServiceError(
                        "Only members with Manage Server can change the server's language.",
                        key="lang.need_manage",
                    )
            if member is not None:
                await langs.choose_member(user_id, None if member.value == AUTO else member.value)
            reader = await locale_of(interaction)
            if member is not None:
                key = "lang.member.auto" if member.value == AUTO else "lang.member.set"
                lines.append(t(reader, key, language=language_name(reader, reader)))
            if server is not None and guild_id is not None:
                chosen = None if server.value == AUTO else server.value
                await langs.choose_guild(guild_id, chosen, user_id)
                redraw_tables(self.bot, guild_id)
                now = await langs.guild(guild_id)
                key = "lang.server.auto" if chosen is None else "lang.server.set"
                lines.append(t(reader, key, language=language_name(reader, now)))
            if not lines:
                lines.append(await self._show(interaction, reader))
            await reply(interaction, "\n".join(lines))
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    async def _show(self, interaction: Interaction, reader: str) -> str:
        langs = self.languages
        chosen = await langs.member_choice(interaction.user.id)
        member_text = t(
            reader,
            "lang.chosen" if chosen else "lang.from_discord",
            language=language_name(reader, reader),
        )
        if not in_installed_server(interaction) or interaction.guild_id is None:
            # no server's language here: a table speaks its opener's
            return t(reader, "lang.show.personal", member=member_text)
        server_chosen = await langs.guild_choice(interaction.guild_id)
        server_text = t(
            reader,
            "lang.server_chosen" if server_chosen else "lang.from_discord",
            language=language_name(reader, await langs.guild(interaction.guild_id)),
        )
        return t(reader, "lang.show", member=member_text, server=server_text)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Language(bot))
