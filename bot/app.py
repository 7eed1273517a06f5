"""The bot process: dependencies passed in, extensions loaded in setup_hook
(after discord.py's examples/advanced_startup.py)."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import friendly
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import Languages
from bot.pontoon import OpenPontoonTable, PontoonService, Timers
from bot.settings import Settings
from bot.sharding import ShardPlan
from bot.storage import Store
from bot.translator import CatalogTranslator
from cogs.common import GameBot
from cogs.pontoon.controls import PontoonButton
from cogs.pontoon.presenter import PontoonDiscordPresenter
from engine.cards import RandomChance

log = logging.getLogger(__name__)

EXTENSIONS: Sequence[str] = (
    "cogs.pontoon",
    "cogs.punto_banco",
    "cogs.chips",
    "cogs.language",
)


class CardBot(GameBot):
    """discord.py bot holding the store, the table service and the presenter.

    ``make_bot`` picks this plain, single-connection bot or, when SHARD_COUNT is set,
    :class:`ShardedGameBot`."""

    presenter: PontoonDiscordPresenter

    def __init__(self, settings: Settings, store: Store, **client_options: Any) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # nothing the bot says pings anyone unless a message allows it (issue 9)
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.settings = settings
        self.store = store
        self.shard_plan = ShardPlan.from_settings(settings)
        self.languages = Languages(store, self._guild_preferred_locale)
        self.presenter = PontoonDiscordPresenter(self)
        self.pontoon = PontoonService(
            store,
            timers=Timers(
                bet_seconds=settings.bet_timer_seconds,
                turn_seconds=settings.turn_timer_seconds,
                idle_seconds=settings.idle_table_minutes * 60,
            ),
            presenter=self.presenter,
            chance=(
                RandomChance(random.Random(settings.shuffle_seed))
                if settings.shuffle_seed is not None
                else None
            ),
            owns_guild=self.shard_plan.owns,
        )
        self._refreshed = False
        self._reloaded_tables: list[OpenPontoonTable] = []

    def _guild_preferred_locale(self, guild_id: int) -> object:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        self.languages.note(interaction)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        await self.languages.load()
        self.add_dynamic_items(PontoonButton)
        for ext in EXTENSIONS:
            try:
                await self.load_extension(ext)
            except commands.ExtensionNotFound:
                log.info("extension %s not present", ext)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        loaded = await self.pontoon.load()
        # after a restart these messages may be stale; a table opened since is not
        self._reloaded_tables = loaded
        log.info("reloaded %d open table(s)", len(loaded))
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info(
            "ready as %s in %d guild(s), shard(s) %s of %d",
            self.user,
            len(self.guilds),
            ",".join(map(str, self.shard_plan.ids)),
            self.shard_plan.count,
        )
        if not self._refreshed:
            self._refreshed = True
            # only a message that may be stale is redrawn, paced, through the writer
            reloaded, self._reloaded_tables = self._reloaded_tables, []
            still_open = [live for live in reloaded if live.table_id in self.pontoon.tables]
            await self.presenter.redraw_stale(still_open)

    async def on_tree_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if not isinstance(original, Exception) or type(original).__module__.startswith("discord"):
            log.warning("command error: %s", error)
        else:
            log.exception("command failed", exc_info=original)
        locale = await self.languages.of(interaction)
        text = (
            friendly(original, locale)
            if not isinstance(error, app_commands.CheckFailure)
            else t(locale, "err.generic.refused")
            if locale != DEFAULT_LOCALE
            else str(error)
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close(self) -> None:
        await self.pontoon.shutdown()
        await super().close()


class ShardedGameBot(CardBot, commands.AutoShardedBot):
    """The same bot over discord.py's AutoShardedBot: one gateway connection per shard
    id of this process (SHARD_IDS, or all of SHARD_COUNT)."""


def make_bot(settings: Settings, store: Store) -> CardBot:
    """The bot for these settings: sharded when SHARD_COUNT is set, plain otherwise."""
    if not settings.sharded:
        return CardBot(settings, store)
    plan = ShardPlan.from_settings(settings)
    return ShardedGameBot(settings, store, shard_count=plan.count, shard_ids=list(plan.ids))
