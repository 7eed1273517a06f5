"""A bot that may not post in a channel refuses to open a table there,
in one line naming what is missing, and opens nothing (before: "Table open", the table
message failed with 403 in the background and an invisible table blocked the channel)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from localdiscord import FakeDiscord
from localdiscord.models import EMBED_LINKS, SEND_MESSAGES
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import start

pytestmark = pytest.mark.e2e


async def test_no_send_messages_refuses_start_and_opens_nothing(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "perm.sqlite3"
    bot = await start(start_bot_process, db)
    fake, channel = fake_discord, world.channel
    fake.deny_bot(channel, SEND_MESSAGES)

    r = await fake.slash(world.alice, channel, "pontoon", "start")
    assert r.ephemeral, r.all_text
    assert "I am missing **Send Messages** here" in r.all_text, r.all_text
    assert len(r.all_text.splitlines()) == 1
    assert "Table open" not in r.all_text
    r = await fake.slash(world.alice, channel, "baccarat", "start")
    assert "I am missing **Send Messages** here" in r.all_text, r.all_text
    public = [m for m in fake.channel_messages(channel) if not m.ephemeral]
    assert public == []
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM game_tables").fetchone()[0] == 0

    # two permissions missing: both named, in the member's language
    fake.deny_bot(channel, EMBED_LINKS)
    fake.set_locale(world.bob, "de")
    r = await fake.slash(world.bob, channel, "pontoon", "start")
    assert "**Nachrichten senden**, **Links einbetten**" in r.all_text, r.all_text

    # the channel is not blocked: once allowed, a table opens and its message is posted
    fake.allow_bot(channel)
    r = await fake.slash(world.alice, channel, "pontoon", "start")
    assert "Table open" in r.all_text, r.all_text
    await fake.wait_until(
        lambda: any(
            not m.ephemeral and m.has_button("Show my cards")
            for m in fake.channel_messages(channel)
        )
    )
    assert "could not post the table message" not in bot.output()
    # the start-up log names where the data is and how to invite the bot
    out = bot.output()
    assert f"database: {db}; backups: " in out, out[-3000:]
    assert "scope=bot+applications.commands&permissions=274877991936" in out, out[-3000:]
