"""The bot process: dependencies passed in, extensions loaded in setup_hook
(after discord.py's examples/advanced_startup.py)."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import friendly
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import Languages
from bot.i18n.translator import CatalogTranslator
from bot.presenter import DiscordPresenter, TableButton
from bot.service import TableService, Timers
from bot.settings import Settings
from bot.storage import Store
from engine.cards import RandomChance

log = logging.getLogger(__name__)

EXTENSIONS: Sequence[str] = (
    "cogs.pontoon",
    "cogs.bank",
    "cogs.chips",
    "cogs.baccarat",
    "cogs.language",
)


class PontoonBot(commands.Bot):
    """discord.py bot holding the store, the table service and the presenter."""

    def __init__(self, settings: Settings, store: Store) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        self.settings = settings
        self.store = store
        self.languages = Languages(store, self._guild_preferred_locale)
        self.presenter = DiscordPresenter(self)
        self.service = TableService(
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
        )
        self._refreshed = False

    def _guild_preferred_locale(self, guild_id: int) -> object:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        self.languages.note(interaction)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        await self.languages.load()
        self.add_dynamic_items(TableButton)
        for ext in EXTENSIONS:
            try:
                await self.load_extension(ext)
            except commands.ExtensionNotFound:
                log.info("extension %s not present", ext)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        loaded = await self.service.load()
        log.info("reloaded %d open table(s)", len(loaded))
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        if not self._refreshed:
            self._refreshed = True
            for live in list(self.service.tables.values()):
                try:
                    await self.presenter.refresh_table_message(live)
                except discord.HTTPException:
                    log.exception("could not refresh table %s", live.table_id)

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
        await self.service.shutdown()
        await super().close()
