"""The Store on PostgreSQL (``DATABASE_URL=postgresql://...``), for several bot processes
sharing one database.

Same interface and the same queries as the SQLite Store (it IS the Store: the same
transaction functions, run on the store's worker thread against
:class:`~bot.storage.pg.connection.PgConnection` instead of ``sqlite3``). What changes is
how concurrent writers are kept apart:

* every write transaction is SERIALIZABLE. Two processes that read and then change the
  same rows (one member's balance, one table's version, one member's chips-in-play row,
  one shard's lease) cannot both commit: PostgreSQL aborts one with a serialization
  failure, and the whole transaction (reads, checks and writes) is run again from the
  start, for up to ``retry_seconds``, with a short random back-off. So the checks the
  Store makes before writing (InsufficientChips, StaleVersion, ChipsInPlayElsewhere,
  TableAlreadyOpen, ShardsTaken...) hold across processes exactly as within one;
* the schema enforces the invariants on its own too: CHECK (balance >= 0 except the
  house), one open table per channel and one table with chips in play per member and
  server (unique keys), an append-only ledger (trigger);
* a lost or refused connection becomes :class:`StorageUnavailable` (nothing changed; the
  member is told to try again) and the next call reconnects.

There is no database file: ``check_file`` has nothing to watch and ``backup`` refuses
(back PostgreSQL up with ``pg_dump``; the process lock is replaced by shard leases).

Several processes share the database, so an erasure (/privacy delete) is told to all of
them: its transaction sends a notification and ``on_erasure`` listens for them on a
connection of its own (bot/storage/pg/listen.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.base import Clock, Con, require_current_schema, run_to_end, utcnow
from bot.storage.errors import StorageError, StorageUnavailable
from bot.storage.models import GuildSettings
from bot.storage.pg.connection import PgConnection
from bot.storage.pg.listen import CHANNEL, NOTIFY_SQL, ErasureListener
from bot.storage.pg.migrations import load_pg_migrations, pg_applied_versions, pg_migrate
from bot.storage.privacy import Erasure, ErasureCallback
from bot.storage.store import Store

log = logging.getLogger(__name__)
T = TypeVar("T")

_RETRY = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,  # the connection broke in the middle of a message
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.InsufficientResourcesError,  # disk full, out of memory
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.OperatorInterventionError,  # admin shutdown, query cancelled
    ConnectionError,
    OSError,
    TimeoutError,
)


def is_postgres_url(url: str) -> bool:
    return urlsplit(url).scheme in ("postgresql", "postgres")


def redact(url: str) -> str:
    """The URL without its password (for logs and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    netloc = f"{parts.username}:***@{host}" if parts.username else host
    return urlunsplit(parts._replace(netloc=netloc))


def _connect(url: str, migrate_schema: bool) -> PgConnection:
    """Connect and migrate (on the worker thread, which the connection's loop lives on)."""
    con = PgConnection(url)
    try:
        con.connect()
        migrations = load_pg_migrations()
        if migrate_schema:
            con.run(pg_migrate(con.raw, migrations))
        else:
            require_current_schema(con.run(pg_applied_versions(con.raw)), len(migrations))
    except BaseException:
        con.close()
        raise
    return con


class PgStore(Store):
    """All persistent state of the bot in PostgreSQL. ``await PgStore.connect(url)``."""

    # A write PostgreSQL aborts for a conflict with another process is retried from the
    # start, with a random back-off, for up to ``retry_seconds``: long enough to ride out
    # a burst of contention, short enough that the click is still answered within
    # Discord's 3 s (a slow one is acknowledged at 2.2 s and answered after).
    retry_seconds = 1.5
    retry_pause_max = 0.1

    def __init__(
        self,
        con: PgConnection,
        url: str,
        *,
        executor: ThreadPoolExecutor,
        defaults: GuildSettings,
        clock: Clock,
    ) -> None:
        super().__init__(None, Path(redact(url)), defaults=defaults, clock=clock)
        self._executor = executor
        self._file_id = None  # no database file to watch
        self.url = url
        self.pg = con
        self.retries = 0  # serialization failures retried (the benchmark reports it)
        self.erasures: ErasureListener | None = None  # started by on_erasure

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        defaults: GuildSettings | None = None,
        migrate_schema: bool = True,
        clock: Clock | None = None,
    ) -> PgStore:
        """Connect to ``url`` and bring the schema up to date (``migrate_schema=False``:
        refuse an out-of-date schema instead; the audit never writes)."""
        if not is_postgres_url(url):
            raise ValueError(f"not a postgresql:// URL: {redact(url)}")
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-pg")
        loop = asyncio.get_running_loop()
        try:
            con = await loop.run_in_executor(executor, _connect, url, migrate_schema)
        except BaseException as exc:
            executor.shutdown(wait=False)
            if isinstance(exc, (*_UNAVAILABLE, asyncpg.PostgresError)):
                raise StorageUnavailable(f"cannot connect to {redact(url)}: {exc}") from exc
            raise
        return cls(
            con, url, executor=executor, defaults=defaults or GuildSettings(), clock=clock or utcnow
        )

    async def _call(self, fn: Callable[[Con], T]) -> T:
        """Run ``fn`` on the worker thread, reconnecting first if the connection was
        lost; a connection failure is :class:`StorageUnavailable`."""
        pg = self.pg

        def guarded(con: Con) -> T:
            pg.ensure_connected()
            try:
                return fn(con)
            except _UNAVAILABLE:
                pg.broken = True
                raise

        loop = asyncio.get_running_loop()
        con = cast(sqlite3.Connection, pg)  # the transaction functions see a Con
        try:
            return await run_to_end(loop.run_in_executor(self._executor, guarded, con))
        except _UNAVAILABLE as exc:
            raise StorageUnavailable(f"database unavailable: {exc}") from exc

    async def _write(self, fn: Callable[[Con], T], *, mode: str = "IMMEDIATE") -> T:
        """SERIALIZABLE, retried from the start when PostgreSQL aborts it for a conflict
        with another process's transaction, for up to ``retry_seconds``."""
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + self.retry_seconds
        attempt = 0
        while True:
            attempt += 1
            try:
                return await super()._write(fn, mode=mode)
            except _RETRY as exc:
                pause = random.uniform(0, min(0.002 * 2**attempt, self.retry_pause_max))
                if loop.time() + pause > give_up_at:
                    raise StorageUnavailable(
                        f"too much contention: gave up after {attempt} attempts in "
                        f"{self.retry_seconds:g} s ({exc})"
                    ) from exc
                self.retries += 1
                await asyncio.sleep(pause)

    async def on_erasure(self, callback: ErasureCallback) -> None:
        """Call ``callback`` after every erasure committed on this database (by any
        process, this one included), from a LISTEN connection of the store's own on this
        event loop. Returns once that connection is made, or its first attempt failed
        (it keeps trying in the background: the bot starts anyway)."""
        if self.erasures is None:
            self.erasures = ErasureListener(self.url, now=self._now)
        self.erasures.callbacks.append(callback)
        await self.erasures.start()

    def _signal_erasure_tx(self, con: Con, erasure: Erasure) -> None:
        con.execute(NOTIFY_SQL, (CHANNEL, erasure.user_id, erasure.guild_id, erasure.language))

    async def backup(self, dest: str | Path) -> Path:
        raise StorageError(
            "backups of a PostgreSQL database are made with pg_dump, not by the bot",
            key="err.storage.pg_backup",
        )

    async def close(self) -> None:
        if not self._closed:
            if self.erasures is not None:  # first: a scrub under way may still save
                await self.erasures.close()
            self._closed = True
            with contextlib.suppress(StorageError, *_UNAVAILABLE):
                await self._call(lambda con: self.pg.close())
            self._executor.shutdown(wait=True)


__all__ = ["PgStore", "is_postgres_url", "redact"]
