"""/privacy: what the bot stores about a member and for how long (``show``), erasing it
(``delete``); and, for Manage Server, ``/chips forget`` for a member who left (in
cogs/chips.py, which calls :func:`forget_in_server` here).

What deletion does is the storage's business (bot/storage/privacy.py): the member's
chips go to the house by a recorded ledger transfer, their members rows, language and
hints are deleted, the ledger's past rows stay. Refused while they have chips in play.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError, friendly
from bot.i18n import LOCALE_NAMES, choose, t
from bot.i18n.languages import locale_of
from cogs.common import GameBot, can_manage_guild, in_installed_server, reply
from cogs.installs import everywhere

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


@everywhere
class Privacy(commands.GroupCog, group_name="privacy", group_description="Your data"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="What the bot stores about you and how long")
    async def show(self, interaction: Interaction) -> None:
        try:
            reader = await locale_of(interaction)
            data = await self.bot.store.member_data(interaction.user.id)
            language = (
                LOCALE_NAMES[data.language]
                if data.language in LOCALE_NAMES
                else t(reader, "privacy.no_language")
            )
            text = t(
                reader,
                "privacy.info",
                servers=data.servers,
                chips=data.chips,
                ledger=data.ledger_rows,
                language=language,
                hints=data.hints,
                keep=self.bot.settings.backup_keep,
            )
            if data.personal_chips is not None:  # their own chips outside servers
                text += "\n" + t(reader, "privacy.personal", chips=data.personal_chips)
            await reply(interaction, text)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @app_commands.command(name="delete", description="Erase what the bot stores about you")
    @app_commands.describe(confirm="True: erase now (it cannot be undone)")
    async def delete(self, interaction: Interaction, confirm: bool = False) -> None:
        try:
            reader = await locale_of(interaction)
            user_id = interaction.user.id
            store = self.bot.store
            if not confirm:
                data = await store.member_data(user_id)
                text = t(
                    reader,
                    choose(data.servers, "privacy.delete.ask.one", "privacy.delete.ask.other"),
                    servers=data.servers,
                    chips=data.chips,
                )
                if data.personal_chips is not None:
                    text += "\n" + t(reader, "privacy.delete.personal.ask")
                await reply(interaction, text)
                return
            result = await store.forget_member(user_id)
            if result.refused:
                await reply(interaction, t(reader, "privacy.in_play"))
                return
            self.bot.languages.forgotten(user_id)
            await forget_at_tables(self.bot, user_id, None)
            text = t(
                reader,
                choose(result.servers, "privacy.delete.done.one", "privacy.delete.done.other"),
                servers=result.servers,
                chips=result.chips_to_house,
            )
            if result.personal:
                text += "\n" + t(reader, "privacy.delete.personal.done")
            await reply(interaction, text)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))


async def forget_at_tables(bot: GameBot, user_id: int, guild_id: int | None) -> None:
    """The erased member's id out of this process's open tables too (their names, the
    round's log): the store's copies are scrubbed already, and the live tables would
    write it back at their next save. A failure here is logged: the erasure stands.
    The other bot processes on the database do the same when the store tells them
    (``store.on_erasure``, wired in bot/app.py), this one again too: it is harmless."""
    for service in bot.games.values():
        try:
            await service.forget_member(user_id, guild_id)
        except Exception:
            log.exception("could not scrub an erased member from the open %s tables", service.game)


def _user_id(member: discord.User | None, user_id: str | None) -> int:
    """The user the admin named: the member option, else the typed id."""
    if member is not None:
        return int(member.id)
    text = (user_id or "").strip().removeprefix("<@").removeprefix("!").removesuffix(">")
    if not text:
        raise ServiceError("Name a member or give a user id.", key="privacy.forget.nobody")
    if not (text.isascii() and text.isdigit() and 15 <= len(text) <= 20):
        raise ServiceError("That is not a Discord user id.", key="privacy.forget.bad_id")
    return int(text)


async def forget_in_server(
    bot: GameBot,
    interaction: Interaction,
    member: discord.User | None,
    user_id: str | None,
    confirm: bool,
) -> None:
    """``/chips forget``: erase a member's data in this server (Manage Server)."""
    try:
        guild_id = interaction.guild_id if in_installed_server(interaction) else None
        if guild_id is None:  # a server's member data: a server that installed the bot
            raise ServiceError("Use this in a server channel.", key="err.server_only")
        if not can_manage_guild(interaction):
            raise ServiceError(
                "Only members with Manage Server can erase a member's data.",
                key="privacy.forget.denied",
            )
        who = _user_id(member, user_id)
        reader = await locale_of(interaction)
        store = bot.store
        if not confirm:
            chips = await store.member_balance(guild_id, who)
            await reply(interaction, t(reader, "privacy.forget.ask", user=str(who), chips=chips))
            return
        result = await store.forget_member(who, guild_id)
        if result.refused:
            await reply(interaction, t(reader, "privacy.forget.in_play"))
            return
        if not result.servers:
            await reply(interaction, t(reader, "privacy.forget.unknown", user=str(who)))
            return
        await forget_at_tables(bot, who, guild_id)
        if result.settings_erased:  # their last server: their language went too
            bot.languages.forgotten(who)
        text = t(reader, "privacy.forget.done", user=str(who), chips=result.chips_to_house)
        await reply(interaction, text)
    except Exception as exc:
        await reply(interaction, friendly(exc, await locale_of(interaction)))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Privacy(bot))
