"""Where each slash command may be installed and used, declared on the command (or its
group) as Discord reads it from the synced payload (``integration_types``, ``contexts``).

* :func:`everywhere`: installable by a server and by a person on their own account
  (Discord's user install), usable in servers, DMs with the bot and group DMs. The game
  groups, /balance, /daily, /stats, /break, /help, /language and /privacy: a person who
  installed the app plays with their own chips outside servers (cogs.common.economy_scope).
* :func:`server_only`: installed by a server only and used in its channels only (a
  server's economy and administration: /chips, /casino, /give, /leaderboard).

Discord reads these on top-level commands and groups only (never on a subcommand), and
only on commands synced globally (bot/app.py)."""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands

from bot.errors import ServiceError
from cogs.common import PERSONAL_SCOPE, Interaction, economy_scope

T = TypeVar("T")


def everywhere(command: T) -> T:
    """Declare ``command`` (a command, a group or a GroupCog class) installable by servers
    and users, usable in servers, DMs and group DMs."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def server_only(command: T) -> T:
    """Declare ``command`` installable by servers only and usable in server channels only."""
    command = app_commands.allowed_installs(guilds=True, users=False)(command)
    command = app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)
    # allowed_contexts clears the older guild_only (``dm_permission``): set it again, so
    # a client that still reads it keeps the command out of DMs too
    return app_commands.guild_only()(command)


def whose_chips(interaction: Interaction, member: discord.abc.User | None) -> discord.abc.User:
    """The member whose chips /balance or /stats shows: ``member`` or the one asking.
    Outside servers a member's own chips are theirs alone to see (the same balance in
    every DM and group DM): naming someone else there is refused."""
    who = member or interaction.user
    if who.bot:
        raise ServiceError("Bots do not hold chips.", key="chips.bots")
    if who.id != interaction.user.id and economy_scope(interaction) == PERSONAL_SCOPE:
        raise ServiceError(
            "Outside servers you can see only your own chips.", key="chips.personal.own_only"
        )
    return who


__all__ = ["everywhere", "server_only", "whose_chips"]
