"""Erasures told between bot processes on one PostgreSQL database (LISTEN/NOTIFY).

``/privacy delete`` (and ``/chips forget``) anonymise a member in the database in one
transaction; the process that ran it then scrubs its own open tables and language cache.
Every other process (another shard, another server's bot) holds open tables in memory
too, which would write the member's id and display name back at their next save, and a
language cache. So the erasure's transaction also runs ``pg_notify`` (see
:data:`NOTIFY_SQL`): PostgreSQL delivers the notification to every connection that
LISTENs on :data:`CHANNEL` once the transaction commits, and never if it rolls back.
The payload (JSON: the user id, the server or null, whether their language went, and
the sender's schema) lives only in PostgreSQL's notification queue until every listener
has read it; no table keeps it.

Each :class:`~bot.storage.pg.store.PgStore` with a callback (``store.on_erasure``) holds
an :class:`ErasureListener`: one asyncpg connection of its own, on the bot's event loop,
that LISTENs. A notification schedules the callback as a task on that loop (the
callback takes the table locks; the listener never waits for it). The connection is
checked every ``check_every`` seconds and re-established, with a growing pause, when it
is lost; a notification sent while it was down is lost (PostgreSQL queues them only for
connections that listen), which is logged with the count of erasures recorded meanwhile.
The erasing process receives its own notification too: the scrub finds nothing left.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from bot.storage.privacy import Erasure, ErasureCallback

log = logging.getLogger(__name__)

CHANNEL = "pontoon_erasure"

# Run inside the erasure's transaction (delivered at its commit): the payload names the
# sender's schema, so bots on other schemas of the same database ignore it.
NOTIFY_SQL = (
    "SELECT pg_notify(?, json_build_object('user_id', ?::bigint, 'guild_id', ?::bigint, "
    "'language', ?::boolean, 'schema', current_schema())::text)"
)


def parse(payload: str, schema: str | None) -> Erasure | None:
    """The erasure a notification tells of (None: malformed, or another schema's)."""
    try:
        data = json.loads(payload)
        if schema is not None and data.get("schema") != schema:
            return None
        user_id = data["user_id"]
        guild_id = data.get("guild_id")
        if not isinstance(user_id, int) or not (guild_id is None or isinstance(guild_id, int)):
            raise ValueError("ids are not integers")
        return Erasure(user_id, guild_id, bool(data.get("language", True)))
    except (ValueError, TypeError, KeyError, AttributeError):
        log.warning("ignored a malformed %s notification", CHANNEL)
        return None


class ErasureListener:
    """LISTEN on :data:`CHANNEL` on a connection of its own, re-established when lost;
    each erasure is passed to every callback, in a task on the loop that started it."""

    def __init__(
        self,
        url: str,
        *,
        now: Callable[[], str],
        check_every: float = 30.0,
        retry_max: float = 30.0,
        timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.callbacks: list[ErasureCallback] = []
        self.check_every = check_every
        self.retry_max = retry_max
        self.timeout = timeout
        self._now = now
        self._conn: Any = None
        self._schema: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._tried = asyncio.Event()  # the first connection attempt ended (either way)
        self._tasks: set[asyncio.Task[None]] = set()
        self.listening = False
        self.received = 0  # erasures passed to the callbacks (tests, logs)

    async def start(self) -> None:
        """Start listening; return once the first attempt to connect ended (connected, or
        failed: then the listener keeps trying in the background)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="erasure-listener")
        await self._tried.wait()

    async def _run(self) -> None:
        pause = 0.5
        down_since: str | None = None
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("erasure listener cannot reach the database: %s", exc)
            else:
                pause = 0.5
                if down_since is None:
                    log.info("listening for erasures made by any bot process (%s)", CHANNEL)
                else:
                    await self._report_gap(down_since)
                    down_since = None
                await self._watch()  # returns when the connection is lost
                log.warning("erasure listener lost its connection; reconnecting")
            finally:
                self._tried.set()
                await self._drop()
            if down_since is None:
                down_since = self._now()
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.retry_max)

    async def _listen(self) -> None:
        conn = await asyncpg.connect(self.url, timeout=self.timeout)
        try:
            self._lost.clear()
            conn.add_termination_listener(lambda _conn: self._lost.set())
            self._schema = await conn.fetchval("SELECT current_schema()", timeout=self.timeout)
            await conn.add_listener(CHANNEL, self._notified)
        except BaseException:
            conn.terminate()
            raise
        self._conn = conn
        self.listening = True
        self._tried.set()

    async def _watch(self) -> None:
        """Wait until the connection is lost: closed under it, or not answering a
        check every ``check_every`` seconds (a silently dropped network)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lost.wait(), self.check_every)
                return
            try:
                await self._conn.fetchval("SELECT 1", timeout=self.timeout)
            except asyncio.CancelledError:
                raise
            except Exception:
                return

    async def _report_gap(self, since: str) -> None:
        """The listener was down: erasures committed meanwhile were not signalled here."""
        try:
            missed = await self._conn.fetchval(
                "SELECT COUNT(*) FROM erasures WHERE erased_at >= $1", since, timeout=self.timeout
            )
        except Exception:
            missed = None
        log.warning(
            "erasure listener reconnected; it was down since %s, and %s erasure(s) made "
            "meanwhile were not signalled to this process (its open tables may still "
            "name those members)",
            since,
            "an unknown number of" if missed is None else missed,
        )

    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        """asyncpg's listener callback (on the loop): schedule the scrub, never wait."""
        erasure = parse(payload, self._schema)
        if erasure is None:
            return
        self.received += 1
        for callback in list(self.callbacks):
            task = asyncio.get_running_loop().create_task(self._deliver(callback, erasure))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _deliver(self, callback: ErasureCallback, erasure: Erasure) -> None:
        try:
            await callback(erasure)
        except Exception:
            log.exception("could not apply an erasure signalled by another process")

    async def _drop(self) -> None:
        self.listening = False
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), self.timeout)
            except Exception:
                conn.terminate()

    async def close(self) -> None:
        """Stop listening; let the scrubs under way finish."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self._drop()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


__all__ = ["CHANNEL", "NOTIFY_SQL", "ErasureListener", "parse"]
