"""The bot process: dependencies passed in, extensions loaded in setup_hook
(after discord.py's examples/advanced_startup.py)."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import os
import random
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import GAMES
from bot.host import TableHost, together
from bot.i18n import set_command_ids
from bot.i18n.languages import Languages
from bot.leases import ShardLeaseKeeper
from bot.logs import set_log_context
from bot.long_lived import LONG_LIVED
from bot.metrics import METRICS, Health, MetricsServer, trace_config
from bot.settings import Settings
from bot.sharding import ShardPlan, shard_of
from bot.storage import Store
from bot.storage.privacy import Erasure
from bot.translator import CatalogTranslator
from cogs.common import GameBot, GamePackage
from cogs.permissions import INVITE_NEEDS, invite_url
from cogs.privacy import forget_at_tables
from cogs.router import note_member, on_app_command_error
from engine.cards import RandomChance

log = logging.getLogger(__name__)

# Discord takes an interaction's first answer for 3 s after it was sent: a stop waits that
# long at most for the answers being written (a refusal "nothing was changed" among them)
ANSWER_WINDOW_SECONDS = 3.0

# besides each game's package (bot.games.GAMES), loaded first
EXTENSIONS: Sequence[str] = (
    "cogs.router",
    "cogs.chips",
    "cogs.language",
    "cogs.help",
    "cogs.card_emojis",
    "cogs.stats",
    "cogs.privacy",
    "cogs.economy",
    "cogs.casino",
)


def build_services(
    settings: Settings, store: Store, shard_plan: ShardPlan
) -> dict[str, TableHost[Any]]:
    """Every game's service, built with what it needs (its timers from its own settings
    section, the chance, the shards this process runs), by its name in the game
    registry :data:`bot.games.GAMES`; joined as one casino (one table per channel, chips
    in play at one table of a server, whatever the game)."""
    services: dict[str, TableHost[Any]] = {}
    for game in GAMES:
        package = cast(GamePackage, importlib.import_module(game.package))
        services[game.name] = game.build_service(
            store,
            settings.section(package.Settings).timers(),
            chance=(
                RandomChance(random.Random(settings.shuffle_seed))
                if settings.shuffle_seed is not None
                else None
            ),
            owns_guild=shard_plan.owns,
        )
    together(*services.values())
    return services


class CardBot(GameBot):
    """discord.py bot holding the store, every game's service (built by
    :func:`build_services` and handed in) and presenter (built here, each subscribed to
    its service's changes) and the member languages.

    ``make_bot`` builds the services and picks this plain, single-connection bot or,
    when SHARD_COUNT is set, :class:`ShardedGameBot`."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        games: dict[str, TableHost[Any]],
        **client_options: Any,
    ) -> None:
        # no cache of received messages: the bot reads none back from it, and discord.py
        # looks through the whole cache (1,000 messages) for each message event it gets
        client_options.setdefault("max_messages", None)
        intents = discord.Intents.default()
        # the bot reads no message, typing or reaction: without these events Discord
        # does not send it every message of every channel (nor the updates of its own
        # table messages), which discord.py would parse at each chat line or click
        intents.guild_messages = intents.dm_messages = False
        intents.guild_typing = intents.dm_typing = False
        intents.guild_reactions = intents.dm_reactions = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # nothing the bot says pings anyone unless a message allows it
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=trace_config(),
            **client_options,
        )
        self.settings = settings
        self.store = store
        self.shard_plan = ShardPlan.from_settings(settings)
        self.languages = Languages(store, self._guild_preferred_locale)
        # each game's presenter, built with its service and subscribed to its changes
        self.games = games
        self.presenters: dict[str, Any] = {}
        for game in GAMES:
            package = cast(GamePackage, importlib.import_module(game.package))
            presenter = package.Presenter(self, games[game.name])
            games[game.name].subscribe(presenter.on_change)
            self.presenters[game.name] = presenter
        self._refreshed = False
        self._metrics_server: MetricsServer | None = None
        self.lease_keeper: ShardLeaseKeeper | None = None  # set by `python -m bot` (PostgreSQL)
        self._reloaded: dict[str, list[Any]] = {}
        # interactions of the last ANSWER_WINDOW_SECONDS not answered yet (close() waits)
        self._unanswered: dict[int, tuple[float, discord.Interaction[discord.Client]]] = {}
        # erasures signalled while the open tables are being reloaded (setup_hook): they
        # are applied again once every table is in memory
        self._erased_while_loading: list[Erasure] | None = None

    async def erased(self, erasure: Erasure) -> None:
        """A member's data was erased, by this process or another one on the same
        database (``store.on_erasure``): their id leaves this process's open tables and
        their language choice its cache. Repeating it changes nothing."""
        if erasure.language:
            self.languages.forgotten(erasure.user_id)
            self.store.hints_forgotten(erasure.user_id)
        if self._erased_while_loading is not None:
            self._erased_while_loading.append(erasure)
        await forget_at_tables(self, erasure.user_id, erasure.guild_id)

    async def listen_for_erasures(self) -> None:
        """From now on an erasure committed by any process on the database reaches this
        one (:meth:`erased`; PostgreSQL, nothing to do on SQLite). Called at start-up
        before the languages and the open tables are read."""
        self._erased_while_loading = []
        await self.store.on_erasure(self.erased)

    async def reload_tables(self) -> None:
        """Every game's open tables back in memory after a (re)start; an erasure
        signalled while they were read is applied again once they are all in."""
        for game in GAMES:
            # after a restart these messages may be stale; a table opened since is not
            self._reloaded[game.name] = await self.games[game.name].load()
            log.info("reloaded %d open table(s) of %s", len(self._reloaded[game.name]), game.title)
        erased, self._erased_while_loading = self._erased_while_loading or [], None
        for erasure in erased:  # a table read just before the erasure committed
            await forget_at_tables(self, erasure.user_id, erasure.guild_id)

    def _guild_preferred_locale(self, guild_id: int) -> object:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        METRICS.received(interaction.id)
        self._note_unanswered(interaction)
        self._name_in_logs(interaction)
        self.languages.note(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        what = (
            f"/{interaction.command.qualified_name}"
            if interaction.command is not None
            else str(data.get("custom_id", ""))[:100] or interaction.type.name
        )
        # one line per interaction: what was used and by whom (the ids), never its text
        log.info("interaction %s", what, extra={"interaction": interaction.id})

    def _name_in_logs(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Every line logged while answering ``interaction`` names its server, channel,
        member and shard (bot.logs). discord.py runs the listener and the command in
        tasks of their own, so both set it (see setup_hook)."""
        set_log_context(
            guild=interaction.guild_id,
            channel=interaction.channel_id,
            member=interaction.user.id,
            shard=shard_of(interaction.guild_id, self.shard_plan.count)
            if interaction.guild_id
            else None,
        )

    async def _command_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        self._name_in_logs(interaction)
        note_member(interaction)
        return True

    # ------------------------------------------------------------- health, metrics
    async def health(self) -> Health:
        """Gateway connected, database answering (and its file writable), shard leases
        held: what /healthz reports (bot.metrics)."""
        checks = {
            "gateway": self._gateway_ok(),
            "database": await self._database_ok(),
            "shard_leases": self.lease_keeper is None or not self.lease_keeper.lost,
        }
        failing = [name for name, ok in checks.items() if not ok]
        return Health(not failing, checks, "not ok: " + ", ".join(failing) if failing else "")

    def _gateway_ok(self) -> bool:
        if not self.is_ready() or self.is_closed():
            return False
        if isinstance(self, commands.AutoShardedBot):
            return all(not shard.is_closed() for shard in self.shards.values())
        return self.ws is not None and self.ws.open

    async def _database_ok(self) -> bool:
        try:
            await self.store.schema_version()
        except Exception:
            return False
        if self.settings.database_url is not None:
            return True
        path = self.settings.database_path
        return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)

    def refresh_gauges(self) -> None:
        """Bring the gauges up to date (called before each scrape)."""
        for name, service in self.games.items():
            METRICS.open_tables.labels(name).set(len(service.tables))
            METRICS.escrow_chips.labels(name).set(
                sum(int(live.engine.escrow) for live in service.tables.values())
            )
        METRICS.write_retries.set(getattr(self.store, "retries", 0))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait IDENTIFY_DELAY_SECONDS (Discord's 5 s by default) before every IDENTIFY but
        the process's first, as discord.py's own hook waits a fixed 5 s."""
        if not initial:
            await asyncio.sleep(self.settings.identify_delay_seconds)

    async def setup_hook(self) -> None:
        if self.settings.metrics_port:
            self._metrics_server = MetricsServer(
                self.settings.metrics_host,
                self.settings.metrics_port,
                self.health,
                self.refresh_gauges,
            )
            await self._metrics_server.start()
        await self.tree.set_translator(CatalogTranslator())
        await self.listen_for_erasures()  # before the languages and tables are read
        await self.languages.load()
        for game in GAMES:
            # its buttons are answered by the router (cogs/router.py) from their custom
            # ids, not registered with discord.py's dispatch (add_dynamic_items)
            await self.load_extension(game.package)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.tree.on_error = on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self._command_check  # type: ignore[method-assign]
        if self.application_id is not None:
            log.info(
                "invite link (scopes bot and applications.commands; permissions %s): %s",
                ", ".join(INVITE_NEEDS),
                invite_url(self.application_id),
            )
        await self.reload_tables()
        # the reloaded tables live long: full garbage collections need not walk them again
        # (with thousands of open tables one took long enough to delay a click's answer),
        # nor what survives later ones (bot.long_lived)
        gc.collect()
        gc.freeze()
        LONG_LIVED.install()
        synced = await sync_commands(self.tree, self.settings.dev_guild_id)
        # texts name commands as clickable mentions, each reader in their client language
        set_command_ids({command.name: command.id for command in synced})

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
            # the servers, channels and members came after the tables: they live long too
            # (full collections walked them again and again, a click's answer waiting)
            gc.collect()
            gc.freeze()
            reloaded, self._reloaded = self._reloaded, {}
            for name, tables in reloaded.items():
                service = self.games[name]
                still_open = [live for live in tables if live.table_id in service.tables]
                # in the background: close() cancels it before the HTTP session closes
                self.presenters[name].check_after_restart(still_open)

    def _note_unanswered(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Keep ``interaction`` until it is answered or too old to be; drop the others."""
        now = asyncio.get_running_loop().time()
        for key, (since, old) in list(self._unanswered.items()):
            if old.response.is_done() or now - since > ANSWER_WINDOW_SECONDS:
                del self._unanswered[key]
        self._unanswered[interaction.id] = (now, interaction)

    async def answers_written(self) -> None:
        """Wait until every interaction that may still be answered has been (at most
        ANSWER_WINDOW_SECONDS): a member whose action ran into the stop, such as a grant
        refused because the database vanished, is told before the HTTP session closes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_WINDOW_SECONDS
        while loop.time() < deadline and any(
            not interaction.response.is_done() and loop.time() - since < ANSWER_WINDOW_SECONDS
            for since, interaction in self._unanswered.values()
        ):
            await asyncio.sleep(0.05)
        self._unanswered.clear()

    async def close(self) -> None:
        await self.answers_written()
        if self._metrics_server is not None:
            await self._metrics_server.stop()
        for service in self.games.values():
            await service.shutdown()
        # the restart re-checks and the table edits stop while the HTTP session is open
        # (after it closes they would fail with "Session is closed")
        for presenter in self.presenters.values():
            await presenter.close()
        await super().close()


class ShardedGameBot(CardBot, commands.AutoShardedBot):
    """The same bot over discord.py's AutoShardedBot: one gateway connection per shard
    id of this process (SHARD_IDS, or all of SHARD_COUNT)."""


async def sync_commands(
    tree: app_commands.CommandTree[Any], dev_guild_id: int | None
) -> list[app_commands.AppCommand]:
    """Register the slash commands with Discord: globally, where a server's install and
    a person's install on their own account (cogs/installs.py) both find them; with
    ``dev_guild_id`` (DEV_GUILD_ID) as copies in that one server instead, which appear at
    once but only there: Discord installs only global commands on an account."""
    if not dev_guild_id:
        return await tree.sync()
    log.warning(
        "DEV_GUILD_ID is set: the commands are synced to server %s only; the app "
        "installed on an account gets none until they are synced globally (unset it)",
        dev_guild_id,
    )
    guild = discord.Object(dev_guild_id)
    tree.copy_global_to(guild=guild)
    return await tree.sync(guild=guild)


def make_bot(settings: Settings, store: Store) -> CardBot:
    """The bot for these settings, in one step: every game's service built
    (:func:`build_services`) and handed to the bot, sharded when SHARD_COUNT is set,
    plain otherwise."""
    plan = ShardPlan.from_settings(settings)
    games = build_services(settings, store, plan)
    if not settings.sharded:
        return CardBot(settings, store, games)
    return ShardedGameBot(settings, store, games, shard_count=plan.count, shard_ids=list(plan.ids))
