"""The card pictures as application emojis.

At start (after the bot is ready) the application's emojis are listed; when some
``pc_*`` ones are missing, the 53 pictures are drawn once into ``<DATA_DIR>/cards/``
(read back after) and only the missing ones are uploaded, one after another (discord.py waits out Discord's
rate limits). Their markup then goes to :func:`bot.card_faces.use_emojis`, so every
card in every game shows as a picture. Until then, with ``CARD_STYLE=text``, or when
Discord refuses an upload, cards stay text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import discord
from discord.ext import commands

from bot import card_faces, cards_art
from cogs.common import GameBot

log = logging.getLogger(__name__)

#: Discord keeps at most 2000 emojis per application
APP_EMOJI_MAX = 2000


@dataclass
class EmojiSync:
    """What one start did: emojis found, uploaded, refused."""

    found: int = 0
    uploaded: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    markup: dict[str, str] = field(default_factory=dict)


# between two uploads: at most 40 a second, under Discord's 50 requests a second for the
# whole bot with room for the rest of a start (a first start's 53 uploads then take
# about 1.3 s, once per application, instead of meeting the limit and its warning)
UPLOAD_PAUSE_SECONDS = 0.025


def markup_of(emojis: Iterable[discord.Emoji]) -> dict[str, str]:
    """Card code → ``<:pc_AS:id>`` for the application's card emojis."""
    out: dict[str, str] = {}
    for emoji in emojis:
        if emoji.name.startswith(cards_art.EMOJI_PREFIX):
            code = emoji.name[len(cards_art.EMOJI_PREFIX) :]
            out[code] = card_faces.emoji_markup(emoji.name, emoji.id)
    return out


async def sync_card_emojis(
    client: discord.Client,
    pictures: Callable[[], Awaitable[Mapping[str, bytes]]],
    *,
    pause: float = UPLOAD_PAUSE_SECONDS,
) -> EmojiSync:
    """Find the card emojis the application has and upload the missing ones, in order,
    one at a time, ``pause`` seconds apart. ``pictures`` is called (to draw or read
    them) only when some are missing, so a start that finds all 53 makes one request and
    draws nothing. Stops at the first refusal that is not the picture's own fault."""
    result = EmojiSync()
    have = markup_of(await client.fetch_application_emojis())
    result.found = len(have)
    missing = [code for code in cards_art.all_codes() if code not in have]
    drawn = await pictures() if missing else {}
    for i, code in enumerate(missing):
        if i:
            await asyncio.sleep(pause)
        name = cards_art.emoji_name(code)
        try:
            emoji = await client.create_application_emoji(name=name, image=drawn[code])
        except discord.HTTPException as exc:
            log.warning("card emoji %s refused (%s %s)", name, exc.status, exc.text)
            result.refused.append(code)
            if exc.status != 400:  # forbidden, too many, server trouble: stop asking
                break
            continue
        have[code] = card_faces.emoji_markup(emoji.name, emoji.id)
        result.uploaded.append(code)
    if result.refused:
        # another process of the bot (a shard) may have uploaded the same picture first
        # ("name taken"): what the application holds now is what counts
        have = markup_of(await client.fetch_application_emojis()) | have
    result.markup = have
    return result


async def load_pictures(folder: Path) -> dict[str, bytes]:
    """The 53 pictures, drawn (off the event loop) into ``folder`` the first time."""
    return await asyncio.to_thread(cards_art.cached_pictures, folder)


class CardEmojis(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.last: EmojiSync | None = None

    async def cog_load(self) -> None:
        if self.bot.settings.card_style != "emoji":
            card_faces.use_text()
            return
        self.task = asyncio.create_task(self._run(), name="card-emojis")

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        try:
            await self.bot.wait_until_ready()
            folder = self.bot.settings.data_dir / "cards"
            self.last = await sync_card_emojis(self.bot, lambda: load_pictures(folder))
            card_faces.use_emojis(self.last.markup)
            log.info(
                "card emojis: %d found, %d uploaded, %d refused; cards show as %s",
                self.last.found,
                len(self.last.uploaded),
                len(self.last.refused),
                "pictures" if card_faces.pictures_on() else "text",
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("card emojis unavailable: cards stay text")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(CardEmojis(bot))
