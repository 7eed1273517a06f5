"""The Store on PostgreSQL (``DATABASE_URL=postgresql://...``), for several bot processes
sharing one database.

Same interface and the same queries as the SQLite Store (it IS the Store, running on an
asyncpg connection through :class:`~bot.storage.pg.connection.PgConnection`). What
changes is how concurrent writers are kept apart:

* every write transaction is SERIALIZABLE. Two processes that read and then change the
  same rows (one member's balance, one table's version, one shard's lease) cannot both
  commit: PostgreSQL aborts one with a serialization failure, and the whole transaction
  (reads, checks and writes) is run again from the start, up to ``max_attempts`` times,
  with a short random back-off. So the checks the Store makes before writing
  (InsufficientChips, StaleVersion, TableAlreadyOpen, ShardsTaken...) hold across
  processes exactly as they hold within one;
* the schema enforces the invariants on its own too: CHECK (balance >= 0 except the
  house), one open table per channel (unique index), an append-only ledger (trigger);
* a lost or refused connection becomes :class:`StorageUnavailable` (nothing changed; the
  member is told to try again) and the next call reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from bot.storage.errors import SchemaError, StorageUnavailable
from bot.storage.models import GuildSettings
from bot.storage.pg.connection import PgConnection
from bot.storage.pg.migrations import load_pg_migrations, pg_applied_versions, pg_migrate
from bot.storage.store import Clock, Store, _utcnow

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


class PgStore(Store):
    """All persistent state of the bot in PostgreSQL. ``await PgStore.connect(url)``."""

    max_attempts = 12

    def __init__(
        self, conn: PgConnection, url: str, *, defaults: GuildSettings, clock: Clock
    ) -> None:
        super().__init__(
            cast(aiosqlite.Connection, conn), Path(redact(url)), defaults=defaults, clock=clock
        )
        self.url = url
        self.pg = conn
        self.retries = 0  # serialization failures retried (the benchmark reports it)

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
        try:
            conn = await PgConnection.connect(url)
        except (*_UNAVAILABLE, asyncpg.PostgresError) as exc:
            raise StorageUnavailable(f"cannot connect to {redact(url)}: {exc}") from exc
        try:
            migrations = load_pg_migrations()
            if migrate_schema:
                await pg_migrate(conn.raw, migrations)
            else:
                done = await pg_applied_versions(conn.raw)
                if max(done, default=0) != len(migrations):
                    raise SchemaError(
                        f"database schema version {max(done, default=0)}, this code needs "
                        f"{len(migrations)}: start the bot once to migrate it"
                    )
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, _UNAVAILABLE):
                raise StorageUnavailable(f"database unavailable: {exc}") from exc
            raise
        return cls(conn, url, defaults=defaults or GuildSettings(), clock=clock or _utcnow)

    async def _reconnect_if_lost(self) -> None:
        if self.pg.raw.is_closed():
            log.warning("PostgreSQL connection lost; reconnecting")
            try:
                self.pg.raw = (await PgConnection.connect(self.url)).raw
            except (*_UNAVAILABLE, asyncpg.PostgresError) as exc:
                raise StorageUnavailable(f"database unavailable: {exc}") from exc

    def _unavailable(self, exc: BaseException) -> StorageUnavailable:
        """The error to raise for a connection failure; the broken connection is dropped
        so that the next call connects afresh."""
        with contextlib.suppress(Exception):
            self.pg.raw.terminate()
        return StorageUnavailable(f"database unavailable: {exc}")

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with super()._read() as db:
            try:
                await self._reconnect_if_lost()
                yield db
            except _UNAVAILABLE as exc:
                raise self._unavailable(exc) from exc

    async def _run_transaction(
        self, work: Callable[[aiosqlite.Connection], Awaitable[T]], mode: str
    ) -> T:
        """SERIALIZABLE, retried from the start when PostgreSQL aborts it for a conflict
        with another process's transaction."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                await self._reconnect_if_lost()
                return await super()._run_transaction(work, mode)
            except _RETRY as exc:
                if attempt == self.max_attempts:
                    raise StorageUnavailable(
                        f"too much contention: gave up after {attempt} attempts ({exc})"
                    ) from exc
                self.retries += 1
                await asyncio.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
            except _UNAVAILABLE as exc:
                raise self._unavailable(exc) from exc
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            async with self._lock:
                with contextlib.suppress(*_UNAVAILABLE):
                    await self.pg.close()


__all__ = ["PgStore", "is_postgres_url", "redact"]
