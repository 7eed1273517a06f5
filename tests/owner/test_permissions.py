"""The permissions the bot asks for in its invite link and checks at /pontoon start and
/baccarat start: exactly what it uses (README "Setting up the Discord application")."""

from __future__ import annotations

import discord

from bot.i18n import LOCALES, t
from cogs.permissions import (
    CHANNEL_NEEDS,
    INVITE_NEEDS,
    INVITE_PERMISSIONS,
    invite_url,
    missing_in,
    refusal,
)

REPO_README = __import__("pathlib").Path(__file__).resolve().parents[2] / "README.md"


def test_the_invite_asks_for_what_the_bot_uses_and_nothing_more() -> None:
    wanted = {
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "embed_links",
        "read_message_history",
    }
    assert set(INVITE_NEEDS) == wanted
    assert discord.Permissions(**dict.fromkeys(wanted, True)) == INVITE_PERMISSIONS
    assert INVITE_PERMISSIONS.value == 274877991936
    url = invite_url(1234)
    assert "client_id=1234" in url and "permissions=274877991936" in url
    assert "scope=bot+applications.commands" in url
    # the README gives the same number
    assert "274877991936" in REPO_README.read_text(encoding="utf-8")


def test_missing_permissions_are_named_for_channels_and_threads() -> None:
    everything = discord.Permissions.all()
    assert missing_in(discord.ChannelType.text, everything) == []
    no_send = discord.Permissions(**dict.fromkeys(CHANNEL_NEEDS, True))
    no_send.send_messages = False
    assert missing_in(discord.ChannelType.text, no_send) == ["send_messages"]
    # in a thread it is Send Messages in Threads that counts
    assert missing_in(discord.ChannelType.public_thread, no_send) == ["send_messages_in_threads"]
    assert missing_in(None, discord.Permissions.none()) == [
        "view_channel",
        "send_messages",
        "embed_links",
        "read_message_history",
    ]


def test_the_refusal_is_one_line_in_every_language() -> None:
    for locale in LOCALES:
        text = refusal(locale, ["send_messages", "embed_links"])
        assert "\n" not in text
        assert t(locale, "perm.send_messages") in text and t(locale, "perm.embed_links") in text
