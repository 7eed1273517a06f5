"""What the bot needs of Discord, and the check that a channel gives it.

The bot uses no privileged intent (``discord.Intents.default()``). In a channel with a
table it posts and edits the table message and the result posts, with embeds, and after
a restart it reads its own table message back to see whether it is stale. It adds no
reactions, attaches no files, uses no custom emoji and manages nothing. Everything else
(answers to commands, clicks and forms, DMs) goes through the interaction or the DM
channel, which needs no server permission.
"""

from __future__ import annotations

import discord

from bot.i18n import t

#: needed in the channel of a table (in a thread, Send Messages in Threads replaces
#: Send Messages), by discord.Permissions' names
CHANNEL_NEEDS = ("view_channel", "send_messages", "embed_links", "read_message_history")
THREAD_NEEDS = ("view_channel", "send_messages_in_threads", "embed_links", "read_message_history")
#: what the invite link asks for: the above, in channels and in threads
INVITE_NEEDS = tuple(dict.fromkeys((*CHANNEL_NEEDS, *THREAD_NEEDS)))
INVITE_PERMISSIONS = discord.Permissions(**dict.fromkeys(INVITE_NEEDS, True))
INVITE_SCOPES = ("bot", "applications.commands")

_THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with exactly the permissions it uses."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES
    )


def in_installed_server(interaction: discord.Interaction[discord.Client]) -> bool:
    """The interaction comes from a server that installed the bot: the bot is there, may
    post and edit its own messages, and the server's economy and settings apply.
    Anywhere else (a group DM, a DM, a server where only the member installed the app)
    the bot may only answer interactions."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def missing_in(channel_type: object, granted: discord.Permissions) -> list[str]:
    """The names (``send_messages`` ...) of the permissions a table's channel lacks."""
    needed = THREAD_NEEDS if channel_type in _THREAD_TYPES else CHANNEL_NEEDS
    return [name for name in needed if not getattr(granted, name)]


def missing_permissions(interaction: discord.Interaction[discord.Client]) -> list[str]:
    """What the bot lacks, in the interaction's channel, to show a table there."""
    channel_type = getattr(interaction.channel, "type", None)
    return missing_in(channel_type, interaction.app_permissions)


def refusal(locale: str, missing: list[str]) -> str:
    """One line naming the missing permissions as Discord's settings name them."""
    names = t(locale, "perm.separator").join(f"**{t(locale, f'perm.{name}')}**" for name in missing)
    return t(locale, "err.bot_permissions", missing=names)
