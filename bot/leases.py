"""Keeps this process's shard leases (``bot.storage.leases``) while the bot runs.

``await ShardLeaseKeeper.start(store, plan, ttl)`` takes the leases before the bot
connects to Discord. If another process holds one of the shards the keeper waits for the
lease to run out only when it looks abandoned (a killed predecessor: its expiry does not
move); a lease that is being renewed belongs to a live process and start-up is refused
with :class:`ShardsTaken`. While running, ``run(on_lost)`` renews every ``ttl / 3``
seconds; if renewal fails until the lease would have expired, or another process took it,
``on_lost`` is called (the bot closes: two processes must never serve one shard).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta

from bot.settings import Settings
from bot.sharding import ShardPlan
from bot.storage import StorageError, Store
from bot.storage.leases import (
    Lease,
    LeaseLost,
    ShardsTaken,
    acquire_leases,
    release_leases,
    renew_leases,
)
from bot.storage.pg import PgStore

log = logging.getLogger(__name__)


def new_owner() -> str:
    """A name for this process that no other process has: host, pid and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class ShardLeaseKeeper:
    def __init__(self, store: Store, plan: ShardPlan, ttl: timedelta, owner: str) -> None:
        self.store = store
        self.plan = plan
        self.ttl = ttl
        self.owner = owner
        self.expires_at: datetime | None = None
        self.lost = False

    @classmethod
    async def start(
        cls,
        store: Store,
        plan: ShardPlan,
        ttl: timedelta,
        *,
        owner: str | None = None,
        poll: float = 0.5,
    ) -> ShardLeaseKeeper:
        """Take the leases of ``plan.ids``, waiting out abandoned ones. Raises
        :class:`ShardsTaken` when a live process holds one of them."""
        keeper = cls(store, plan, ttl, owner or new_owner())
        first_seen: dict[tuple[int, str], datetime] = {}
        while True:
            try:
                leases = await acquire_leases(store, keeper.owner, plan.ids, plan.count, ttl)
            except ShardsTaken as exc:
                renewed = [
                    lease
                    for lease in exc.held
                    if first_seen.setdefault((lease.shard_id, lease.owner), lease.expires_at)
                    != lease.expires_at
                ]
                if renewed:
                    raise ShardsTaken(renewed, plan.count) from None
                wait = max(lease.expires_at for lease in exc.held) - datetime.now(UTC)
                log.warning(
                    "waiting up to %.1fs for shard lease(s) to run out (%s)",
                    wait.total_seconds(),
                    exc,
                )
                await asyncio.sleep(min(max(wait.total_seconds(), 0.0) + 0.05, poll))
                continue
            keeper._taken(leases)
            log.info(
                "holding shard lease(s) %s of %d as %s",
                ",".join(map(str, plan.ids)),
                plan.count,
                keeper.owner,
            )
            return keeper

    def _taken(self, leases: list[Lease]) -> None:
        self.expires_at = min(lease.expires_at for lease in leases)

    async def renew(self) -> None:
        self.expires_at = await renew_leases(self.store, self.owner, self.plan.ids, self.ttl)

    async def run(self, on_lost: Callable[[str], Awaitable[None]]) -> None:
        """Renew until cancelled; call ``on_lost`` once if the leases cannot be kept."""
        interval = self.ttl.total_seconds() / 3
        while True:
            await asyncio.sleep(interval)
            try:
                await self.renew()
            except LeaseLost as exc:
                await self._lose(on_lost, f"shard lease lost: {exc}")
                return
            except StorageError as exc:
                if self.expires_at is not None and datetime.now(UTC) >= self.expires_at:
                    await self._lose(on_lost, f"could not renew the shard lease in time: {exc}")
                    return
                log.warning("could not renew the shard lease (will retry): %s", exc)

    async def _lose(self, on_lost: Callable[[str], Awaitable[None]], why: str) -> None:
        self.lost = True
        log.critical("%s; stopping so that no two processes serve one shard", why)
        await on_lost(why)

    async def release(self) -> None:
        """Give the leases back (clean stop), unless they were lost."""
        if self.lost:
            return
        with contextlib.suppress(StorageError):
            count = await release_leases(self.store, self.owner)
            log.info("released %d shard lease(s)", count)


@contextlib.asynccontextmanager
async def hold_shard_leases(
    store: Store, settings: Settings, on_lost: Callable[[], Awaitable[None]]
) -> AsyncIterator[ShardLeaseKeeper | None]:
    """While the bot runs: hold the leases of its shards (PostgreSQL, where several
    processes share the database; SQLite has one process and its own lock: None).
    Raises :class:`ShardsTaken` before yielding if a live process holds one of them."""
    if not isinstance(store, PgStore):
        yield None
        return
    keeper = await ShardLeaseKeeper.start(
        store, ShardPlan.from_settings(settings), timedelta(seconds=settings.shard_lease_seconds)
    )

    async def lost(_why: str) -> None:
        await on_lost()

    task = asyncio.create_task(keeper.run(lost))
    try:
        yield keeper
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await keeper.release()
