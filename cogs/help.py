"""/help: what the bot does, its commands grouped as clickable command mentions, and how a
Pontoon round goes, in the member's language. The first time a member joins a table they
get a one-line pointer to /help (remembered per member in the store)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import catalog, command, t
from bot.i18n.languages import locale_of
from cogs.common import GameBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

#: the commands by group, as their English paths (the command mention shows each reader
#: the command in their own client language)
GROUPS: Sequence[tuple[str, Sequence[str]]] = (
    (
        "play",
        (
            "pontoon start",
            "pontoon join",
            "pontoon leave",
            "pontoon deal",
            "pontoon bet",
            "pontoon buy",
            "pontoon twist",
            "pontoon stick",
            "pontoon split",
            "pontoon declare",
            "pontoon shoot",
            "pontoon burn",
            "pontoon double",
            "pontoon no-double",
            "pontoon cards",
            "pontoon rules",
            "pontoon end",
            "baccarat start",
            "baccarat bet",
            "baccarat repeat",
            "baccarat withdraw",
            "baccarat table",
            "baccarat odds",
            "baccarat end",
            "blackjack start",
            "blackjack join",
            "blackjack bet",
            "blackjack hit",
            "blackjack stand",
            "blackjack double",
            "blackjack split",
            "blackjack surrender",
            "blackjack insurance",
            "blackjack leave",
            "blackjack table",
            "blackjack odds",
            "blackjack end",
        ),
    ),
    ("chips", ("balance", "daily", "leaderboard")),
    ("bank", ("bank sell", "bank kitty", "bank auction", "bank bid")),
    ("settings", ("language", "help", "privacy show", "privacy delete")),
    ("admin", ("chips grant", "chips settings", "chips audit", "chips forget")),
)

#: the one-time hint's name in the store
HELP_HINT = "help"


def command_line(locale: str, path: str) -> str:
    """``</pontoon start:ID> — Open a Pontoon table in this channel`` in ``locale``."""
    desc = catalog(locale).get("cmd." + path.replace(" ", ".") + ".desc") or catalog("en").get(
        "cmd." + path.replace(" ", ".") + ".desc", ""
    )
    return t(locale, "help.command", command=command(locale, path), desc=desc)


def group_text(locale: str, paths: Sequence[str]) -> str:
    """A group's commands, one a line with what each does; only the clickable commands,
    side by side, when that would not fit in an embed field (1024 characters)."""
    full = "\n".join(command_line(locale, p) for p in paths)
    return full if len(full) <= 1024 else " · ".join(command(locale, p) for p in paths)


def help_text(locale: str) -> tuple[str, str, list[tuple[str, str]]]:
    """The help's title, description and (group heading, lines) fields, in ``locale``."""
    fields = [
        (t(locale, f"help.group.{group}"), group_text(locale, paths)) for group, paths in GROUPS
    ]
    fields.append((t(locale, "help.round.title"), t(locale, "help.round")))
    return t(locale, "help.title"), t(locale, "help.about"), fields


def help_embed(locale: str) -> discord.Embed:
    title, about, fields = help_text(locale)
    em = discord.Embed(title=title, description=about, colour=discord.Colour.green())
    for head, body in fields:
        em.add_field(name=head, value=body[:1024], inline=False)
    return em


async def first_join_hint(interaction: Interaction, locale: str) -> None:
    """After a member's first join at any table: one private line pointing to /help.
    Remembered in the store, so it is shown once per member, across restarts."""
    store = getattr(interaction.client, "store", None)
    if store is None:
        return
    try:
        first = await store.mark_hint_shown(interaction.user.id, HELP_HINT)
    except Exception:
        log.exception("could not remember the help hint for %s", interaction.user.id)
        return
    if not first:
        return
    try:
        await interaction.followup.send(t(locale, "help.hint"), ephemeral=True)
    except discord.HTTPException:
        log.warning("help hint for %s not sent", interaction.user.id)


class Help(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        await interaction.response.send_message(embed=help_embed(locale), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Help(bot))
