"""Shard leases: one row per shard in ``shard_leases``, so that no two bot processes
run the same Discord shard. The single-instance rule, generalised to many processes.

A process takes the leases of all its shards in ONE transaction (all or none) before it
connects to Discord, renews them well before they expire, and gives them back when it
stops. A process that dies stops renewing; its leases run out after ``ttl`` seconds and
a successor may take them. Every process of a bot must use the same shard count: a live
lease with another count is refused (the guild-to-shard mapping would differ).

Times are the processes' UTC clocks (keep them in sync, e.g. NTP); expiry is compared in
Python, not as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.base import Con, rows
from bot.storage.errors import StorageError
from bot.storage.store import Store


@dataclass(frozen=True, slots=True)
class Lease:
    shard_id: int
    shard_count: int
    owner: str
    acquired_at: datetime
    expires_at: datetime


class ShardsTaken(StorageError):
    """Another live process holds (some of) the shards asked for."""

    def __init__(self, held: Sequence[Lease], wanted_count: int) -> None:
        self.held = list(held)
        parts = []
        for lease in self.held:
            what = f"shard {lease.shard_id}"
            if lease.shard_count != wanted_count:
                what += f" (of SHARD_COUNT={lease.shard_count}, not {wanted_count})"
            parts.append(f"{what} is run by {lease.owner} until {lease.expires_at:%H:%M:%S} UTC")
        super().__init__(
            "; ".join(parts),
            key="err.storage.shards",
        )


class LeaseLost(StorageError):
    """A lease this process held was taken over (it had expired) or removed."""

    def __init__(self, owner: str, shard_ids: Sequence[int]) -> None:
        self.shard_ids = list(shard_ids)
        super().__init__(f"{owner} no longer holds the lease of shard(s) {self.shard_ids}")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _lease(row: Sequence[Any]) -> Lease:
    def when(text: object) -> datetime:
        moment = datetime.fromisoformat(str(text))
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

    return Lease(int(row[0]), int(row[1]), str(row[2]), when(row[3]), when(row[4]))


_COLUMNS = "shard_id, shard_count, owner, acquired_at, expires_at"


async def list_leases(store: Store) -> list[Lease]:
    """Every lease row, live or expired, by shard id."""

    def work(con: Con) -> list[Lease]:
        return [
            _lease(r) for r in rows(con, f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")
        ]

    return await store._read(work)


async def acquire_leases(
    store: Store,
    owner: str,
    shard_ids: Sequence[int],
    shard_count: int,
    ttl: timedelta,
    *,
    now: datetime | None = None,
) -> list[Lease]:
    """Take (or renew) the leases of ``shard_ids`` for ``owner``, all in one transaction.

    Raises :class:`ShardsTaken`, with nothing written, when another owner holds one of
    them, or any shard under another shard count, and has not let it expire."""
    if not shard_ids or any(not 0 <= s < shard_count for s in shard_ids):
        raise ValueError(f"shard ids {list(shard_ids)} outside 0..{shard_count - 1}")
    if ttl <= timedelta(0):
        raise ValueError("a lease needs a positive lifetime")

    def work(con: Con) -> list[Lease]:
        moment = now or store._clock()
        found = rows(con, f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")
        live = [
            lease
            for lease in map(_lease, found)
            if lease.owner != owner and lease.expires_at > moment
        ]
        held = [
            lease
            for lease in live
            if lease.shard_id in shard_ids or lease.shard_count != shard_count
        ]
        if held:
            raise ShardsTaken(held, shard_count)
        # Expired rows of a different shard count are history: clear them.
        con.execute("DELETE FROM shard_leases WHERE shard_count <> ?", (shard_count,))
        taken = []
        for shard_id in sorted(set(shard_ids)):
            lease = Lease(shard_id, shard_count, owner, moment, moment + ttl)
            con.execute(
                "INSERT INTO shard_leases (shard_id, shard_count, owner, acquired_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (shard_id) DO UPDATE SET "
                "shard_count = excluded.shard_count, owner = excluded.owner, "
                "acquired_at = excluded.acquired_at, expires_at = excluded.expires_at",
                (shard_id, shard_count, owner, _iso(moment), _iso(lease.expires_at)),
            )
            taken.append(lease)
        return taken

    return await store._write(work)


async def renew_leases(
    store: Store,
    owner: str,
    shard_ids: Sequence[int],
    ttl: timedelta,
    *,
    now: datetime | None = None,
) -> datetime:
    """Push the expiry of ``owner``'s leases to now + ``ttl``; returns the new expiry.
    Raises :class:`LeaseLost` (nothing written) if any of them is no longer ``owner``'s."""

    def work(con: Con) -> datetime:
        moment = now or store._clock()
        found = rows(
            con, f"SELECT {_COLUMNS} FROM shard_leases WHERE owner = ? ORDER BY shard_id", (owner,)
        )
        mine = {lease.shard_id for lease in map(_lease, found)}
        missing = sorted(set(shard_ids) - mine)
        if missing:
            raise LeaseLost(owner, missing)
        expires = moment + ttl
        con.execute(
            "UPDATE shard_leases SET expires_at = ? WHERE owner = ?", (_iso(expires), owner)
        )
        return expires

    return await store._write(work)


async def release_leases(store: Store, owner: str) -> int:
    """Give back every lease of ``owner`` (at a clean stop). Returns how many."""

    def work(con: Con) -> int:
        found = rows(con, "SELECT shard_id FROM shard_leases WHERE owner = ?", (owner,))
        con.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))
        return len(found)

    return await store._write(work)


__all__ = [
    "Lease",
    "LeaseLost",
    "ShardsTaken",
    "acquire_leases",
    "list_leases",
    "release_leases",
    "renew_leases",
]
