"""Shard leases in the database: no two processes run the same shard; a dead process's
lease runs out; all of a process's shards are taken at once or none."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.leases import ShardLeaseKeeper
from bot.sharding import ShardPlan
from bot.storage import Store
from bot.storage.leases import (
    LeaseLost,
    ShardsTaken,
    acquire_leases,
    list_leases,
    release_leases,
    renew_leases,
)

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
TTL = timedelta(seconds=30)


async def test_a_live_lease_refuses_another_owner_and_writes_nothing(store: Store) -> None:
    await acquire_leases(store, "a", [0, 1], 4, TTL, now=T0)
    with pytest.raises(ShardsTaken, match="shard 1 is run by a"):
        await acquire_leases(store, "b", [1, 2], 4, TTL, now=T0 + timedelta(seconds=29))
    leases = await list_leases(store)
    assert [(x.shard_id, x.owner) for x in leases] == [(0, "a"), (1, "a")]  # no shard 2


async def test_an_expired_lease_is_taken_over_and_the_old_owner_learns_it(store: Store) -> None:
    await acquire_leases(store, "a", [0], 2, TTL, now=T0)
    later = T0 + TTL + timedelta(seconds=1)
    taken = await acquire_leases(store, "b", [0], 2, TTL, now=later)
    assert taken[0].owner == "b" and taken[0].expires_at == later + TTL
    with pytest.raises(LeaseLost):
        await renew_leases(store, "a", [0], TTL, now=later)
    assert await renew_leases(store, "b", [0], TTL, now=later) == later + TTL


async def test_every_process_must_use_the_same_shard_count(store: Store) -> None:
    await acquire_leases(store, "a", [0], 2, TTL, now=T0)
    with pytest.raises(ShardsTaken, match="SHARD_COUNT=2, not 4"):
        await acquire_leases(store, "b", [3], 4, TTL, now=T0)


async def test_release_frees_the_shards_at_once(store: Store) -> None:
    await acquire_leases(store, "a", [0, 1], 2, TTL, now=T0)
    assert await release_leases(store, "a") == 2
    await acquire_leases(store, "b", [0, 1], 2, TTL, now=T0)


async def test_bad_requests_are_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        await acquire_leases(store, "a", [2], 2, TTL)
    with pytest.raises(ValueError):
        await acquire_leases(store, "a", [], 2, TTL)
    with pytest.raises(ValueError):
        await acquire_leases(store, "a", [0], 2, timedelta(0))


async def test_keeper_waits_out_an_abandoned_lease_but_refuses_a_renewed_one(
    store: Store,
) -> None:
    plan = ShardPlan(2, (0,))
    short = timedelta(seconds=1)
    await acquire_leases(store, "dead", [0], 2, short)  # never renewed: a killed process
    keeper = await ShardLeaseKeeper.start(store, plan, short, owner="next", poll=0.1)
    assert [x.owner for x in await list_leases(store)] == ["next"]

    # "next" keeps renewing: a third process is refused instead of waiting forever.
    lost: list[str] = []

    async def on_lost(why: str) -> None:
        lost.append(why)

    runner = asyncio.create_task(keeper.run(on_lost))
    try:
        with pytest.raises(ShardsTaken, match="run by next"):
            await ShardLeaseKeeper.start(store, plan, short, owner="third", poll=0.1)
    finally:
        runner.cancel()
    await keeper.release()
    assert await list_leases(store) == [] and not lost


async def test_keeper_that_loses_its_lease_stops_the_bot(store: Store) -> None:
    plan = ShardPlan(2, (1,))
    ttl = timedelta(seconds=1.5)
    keeper = await ShardLeaseKeeper.start(store, plan, ttl, owner="slow")
    # Its lease ran out (the process hung) and another process took the shard over.
    await acquire_leases(store, "thief", [1], 2, ttl, now=datetime.now(UTC) + ttl * 2)
    lost: list[str] = []

    async def on_lost(why: str) -> None:
        lost.append(why)

    await asyncio.wait_for(keeper.run(on_lost), 5)  # returns once the loss is noticed
    assert keeper.lost and "lost" in lost[0]
    await keeper.release()  # gives back nothing: the leases are the thief's now
    assert [x.owner for x in await list_leases(store)] == ["thief"]
