"""The bot asks Discord only for the events it uses: no message, typing or reaction
events. A bot in busy servers would otherwise be sent (and discord.py would parse) every
chat line of every channel, and an update for each edit of its own table messages."""

from __future__ import annotations

from pathlib import Path

from bot.app import make_bot
from bot.settings import Settings
from bot.storage import Store


async def test_the_bot_asks_for_no_message_typing_or_reaction_events(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        bot = make_bot(Settings(_env_file=None, database_path=tmp_path / "db.sqlite3"), store)
        intents = bot.intents
        assert intents.guilds  # servers, channels, roles: what the tables live in
        for name in (
            "guild_messages",
            "dm_messages",
            "message_content",
            "guild_typing",
            "dm_typing",
            "guild_reactions",
            "dm_reactions",
        ):
            assert not getattr(intents, name), name
        await bot.close()
    finally:
        await store.close()
