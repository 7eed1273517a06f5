"""/help: what the bot does, its commands grouped as clickable command mentions, and how a
round goes, in the member's language. Each game brings its own section (its package's
``HELP``, a :class:`HelpSection`, found through the registry bot.games); the shared
commands follow. The first time a member joins a table they
get a one-line pointer to /help (remembered per member in the store)."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from babel.lists import format_list
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.i18n import catalog, command, command_name, t
from bot.i18n.languages import locale_of
from cogs.common import GameBot, in_installed_server
from cogs.installs import everywhere

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


@dataclass(frozen=True)
class HelpGroup:
    """One heading of /help and its commands, as their English paths (each reader sees
    the clickable mention and, where their client names it otherwise, the name their
    command picker shows)."""

    heading: str  # the heading's message id
    paths: Sequence[str]


@dataclass(frozen=True)
class HelpSection:
    """A game's part of /help (its package's ``HELP``, found through bot.games): its
    groups of commands (those only some tables play under a heading that says so) and,
    if it has one, how a round goes (title and text message ids)."""

    name: str  # message id of the game's name (its section's first heading too)
    about: str  # message id of one line on what the game is
    groups: Sequence[HelpGroup]
    round: tuple[str, str] | None = None
    #: the game's lessons for /help's Learn part, in a locale: (title, one line,
    #: [(lesson title, lesson text)]), each text within an embed field (1024 characters)
    learn: Callable[[str], tuple[str, str, list[tuple[str, str]]]] | None = None


#: the commands every game shares, after the games' own
SHARED: Sequence[HelpGroup] = (
    HelpGroup("help.group.chips", ("balance", "daily", "leaderboard", "stats", "give", "break")),
    HelpGroup("help.group.settings", ("language", "help", "privacy show", "privacy delete")),
    HelpGroup(
        "help.group.admin",
        (
            "casino settings",
            "casino log",
            "casino reset",
            "chips grant",
            "chips settings",
            "chips audit",
            "chips forget",
        ),
    ),
)


def game_sections() -> list[HelpSection]:
    """Every registered game's /help section, in the registry's order."""
    return [importlib.import_module(game.package).HELP for game in GAMES]


def help_groups(usable: Callable[[str], bool] | None = None) -> list[HelpGroup]:
    """Every group /help shows: each game's, then the shared ones. ``usable``: only the
    commands it keeps (a group left with none is left out)."""
    groups = [g for section in game_sections() for g in section.groups] + list(SHARED)
    if usable is None:
        return groups
    kept = [HelpGroup(g.heading, [p for p in g.paths if usable(p)]) for g in groups]
    return [g for g in kept if g.paths]


def usable_outside_servers(tree: app_commands.CommandTree[Any]) -> Callable[[str], bool]:
    """Whether a command (its English path) works outside servers, in DMs and group DMs:
    its top-level command is declared usable there (cogs/installs.py ``everywhere``)."""

    def usable(path: str) -> bool:
        top = tree.get_command(path.split(" ", 1)[0])
        contexts = getattr(top, "allowed_contexts", None)
        return contexts is not None and bool(contexts.dm_channel and contexts.private_channel)

    return usable


#: the one-time hint's name in the store
HELP_HINT = "help"


def command_label(locale: str, path: str) -> str:
    """The command as the reader finds it: the clickable mention (which Discord writes
    with the command's own name), followed by the name the reader's command picker
    shows when their language names it otherwise (``</balance:ID> `/kontostand```)."""
    mention = command(locale, path)
    name = command_name(locale, path)
    if name == "/" + path or f"`{name}`" == mention:
        return mention
    return f"{mention} `{name}`"


def command_line(locale: str, path: str) -> str:
    """``</balance:ID> — Your chips …`` in ``locale``: the command and what it does."""
    desc = catalog(locale).get("cmd." + path.replace(" ", ".") + ".desc") or catalog("en").get(
        "cmd." + path.replace(" ", ".") + ".desc", ""
    )
    return t(locale, "help.command", command=command_label(locale, path), desc=desc)


def group_text(locale: str, paths: Sequence[str]) -> str:
    """A group's commands, one a line with what each does; only the clickable commands,
    side by side, when that would not fit in an embed field (1024 characters)."""
    full = "\n".join(command_line(locale, p) for p in paths)
    return full if len(full) <= 1024 else " · ".join(command_label(locale, p) for p in paths)


def help_text(
    locale: str, outside: Callable[[str], bool] | None = None
) -> tuple[str, str, list[tuple[str, str]]]:
    """The help's title, description and (group heading, lines) fields, in ``locale``.
    ``outside``: /help outside servers (a DM, a group DM), with only the commands that
    work there (those it keeps) and a line saying the chips there are the member's own."""
    fields = [(t(locale, g.heading), group_text(locale, g.paths)) for g in help_groups(outside)]
    for section in game_sections():
        if section.round is not None:
            title, text = section.round
            fields.append((t(locale, title), t(locale, text)))
    sections = game_sections()
    games = format_list([t(locale, s.name) for s in sections], locale=locale)
    bot_line = t(locale, "help.about.bot" if outside is None else "help.about.bot.personal")
    about = "\n".join([bot_line, *(t(locale, s.about) for s in sections)])
    if outside is not None:
        about += "\n" + t(locale, "chips.personal.note")
    return t(locale, "help.title.of", games=games), about, fields


def help_embed(locale: str, outside: Callable[[str], bool] | None = None) -> discord.Embed:
    title, about, fields = help_text(locale, outside)
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


def learn_embeds(locale: str) -> list[discord.Embed]:
    """/help's Learn part: one embed for each game that brings lessons, in ``locale``."""
    out = []
    for section in game_sections():
        if section.learn is None:
            continue
        title, about, fields = section.learn(locale)
        em = discord.Embed(title=title, description=about, colour=discord.Colour.blue())
        for head, body in fields:
            em.add_field(name=head, value=body[:1024], inline=False)
        out.append(em)
    return out


#: Discord's limit on the characters of all a message's embeds together (titles,
#: descriptions, field names and values, footers and authors)
EMBED_CHARACTERS = 6000
#: Discord's limit on a message's embeds
EMBEDS_PER_MESSAGE = 10


def within_limit(em: discord.Embed) -> list[discord.Embed]:
    """``em`` itself when it is within Discord's 6,000 characters, else its fields
    spread over as many embeds as that takes (the first keeps the title and
    description)."""
    if len(em) <= EMBED_CHARACTERS:
        return [em]
    parts = [discord.Embed(title=em.title, description=em.description, colour=em.colour)]
    for f in em.fields:
        size = len(f.name or "") + len(f.value or "")
        if parts[-1].fields and len(parts[-1]) + size > EMBED_CHARACTERS:
            parts.append(discord.Embed(colour=em.colour))
        parts[-1].add_field(name=f.name, value=f.value, inline=f.inline)
    return parts


def as_messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """``embeds`` packed into as few messages as Discord's limits allow, in order: each
    message at most 10 embeds and 6,000 characters in all."""
    out: list[list[discord.Embed]] = []
    size = 0
    for em in (part for whole in embeds for part in within_limit(whole)):
        n = len(em)
        if not out or size + n > EMBED_CHARACTERS or len(out[-1]) == EMBEDS_PER_MESSAGE:
            out.append([])
            size = 0
        out[-1].append(em)
        size += n
    return out


def help_messages(
    locale: str, outside: Callable[[str], bool] | None = None
) -> list[list[discord.Embed]]:
    """/help as the messages it is sent in: the commands first (``outside``: only those
    that work outside servers, :func:`help_text`), then the Learn part in messages of its
    own."""
    return as_messages([help_embed(locale, outside)]) + as_messages(learn_embeds(locale))


class Help(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        # outside servers (a DM, a group DM): only the commands that work there
        outside = (
            None if in_installed_server(interaction) else usable_outside_servers(self.bot.tree)
        )
        first, *rest = help_messages(locale, outside)
        await interaction.response.send_message(embeds=first, ephemeral=True)
        for embeds in rest:
            try:
                await interaction.followup.send(embeds=embeds, ephemeral=True)
            except discord.HTTPException:
                log.warning("a part of /help was not sent")
                return


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Help(bot))
