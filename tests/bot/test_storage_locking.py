"""A locked or full database refuses the action and leaves game and ledger as they were."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.audit import audit
from bot.storage import (
    Move,
    StaleVersion,
    StorageUnavailable,
    Store,
    escrow_account,
    house_account,
    member_account,
)
from engine.pontoon.types import ESCROW, Transfer

G = 111
ALICE = 1001
A = str(ALICE)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3", busy_timeout_ms=50)
    await s.ensure_member(G, ALICE, 100)
    await s.save_table("t1", G, 1, "pontoon", "v1", 1, None, [], "open")
    yield s
    await s.close()


@contextmanager
def write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection holding the database's write lock."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    finally:
        con.execute("ROLLBACK")
        con.close()


def _row_counts(path: Path) -> tuple[int, int, int]:
    with sqlite3.connect(path) as con:
        return (
            con.execute("SELECT COUNT(*) FROM transfers").fetchone()[0],
            con.execute("SELECT COUNT(*) FROM table_actions").fetchone()[0],
            con.execute("SELECT COUNT(*) FROM accounts").fetchone()[0],
        )


async def test_locked_database_refuses_every_write(store: Store) -> None:
    before = _row_counts(store.path)
    with write_lock(store.path):
        with pytest.raises(StorageUnavailable) as info:
            await store.save_table(
                "t1", G, 1, "pontoon", "v2", 2, None, [Transfer(A, ESCROW, 10, "bet")], "bet"
            )
        assert "try again" in info.value.user_message
        with pytest.raises(StorageUnavailable):
            await store.grant(G, ALICE, 5, "gift", by_user_id=1)
        with pytest.raises(StorageUnavailable):
            await store.claim_daily(G, ALICE, 10)
        with pytest.raises(StorageUnavailable):
            await store.ensure_member(G, 2002, 100)  # a new member needs a write
        with pytest.raises(StorageUnavailable):
            await store.close_table("t1", [])
        with pytest.raises(StorageUnavailable):
            await store.apply_transfers([Move(member_account(G, ALICE), house_account(G), 1, "x")])
        # Reads still work under WAL, and see the old state.
        assert await store.ensure_member(G, ALICE, 100) == 100
        rec = await store.get_table("t1")
        assert rec is not None and rec.version == 1 and rec.state_json == "v1"
    assert _row_counts(store.path) == before
    assert await store.balances([member_account(G, ALICE), escrow_account("t1")]) == {
        member_account(G, ALICE): 100,
        escrow_account("t1"): 0,
    }
    # The store is healthy again once the lock is gone: the same save now succeeds.
    await store.save_table(
        "t1", G, 1, "pontoon", "v2", 2, None, [Transfer(A, ESCROW, 10, "bet")], "bet"
    )
    assert await store.balance(member_account(G, ALICE)) == 90
    assert (await audit(store)).ok


async def test_full_database_refuses_and_rolls_back(store: Store) -> None:
    before = _row_counts(store.path)
    row = await store._call(lambda con: con.execute("PRAGMA page_count").fetchone())
    assert row is not None
    await store._call(lambda con: con.execute(f"PRAGMA max_page_count = {int(row[0])}"))
    big_state = "x" * 200_000
    with pytest.raises(StorageUnavailable):
        await store.save_table(
            "t1", G, 1, "pontoon", big_state, 2, None, [Transfer(A, ESCROW, 10, "bet")], "bet"
        )
    assert _row_counts(store.path) == before
    rec = await store.get_table("t1")
    assert rec is not None and rec.version == 1 and rec.state_json == "v1"
    assert await store.balance(member_account(G, ALICE)) == 100
    assert (await audit(store)).ok


async def test_concurrent_writers_in_one_process_are_serialised(store: Store) -> None:
    a, h = member_account(G, ALICE), house_account(G)
    await asyncio.gather(*(store.apply_transfers([Move(a, h, 1, "x")]) for _ in range(50)))
    assert await store.balances([a, h]) == {a: 50, h: 50}
    results = await asyncio.gather(
        *(store.apply_transfers([Move(a, h, 10, "y")]) for _ in range(8)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 5  # 50 chips pay for five of eight
    assert await store.balance(a) == 0
    assert (await audit(store)).ok


async def test_two_processes_saving_the_same_version_one_wins(store: Store) -> None:
    other = await Store.open(store.path, busy_timeout_ms=2000)
    try:
        results = await asyncio.gather(
            store.save_table("t1", G, 1, "pontoon", "mine", 2, None, [], "a"),
            other.save_table("t1", G, 1, "pontoon", "theirs", 2, None, [], "b"),
            return_exceptions=True,
        )
    finally:
        await other.close()
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleVersion"]
    assert any(isinstance(r, StaleVersion) for r in results)
    rec = await store.get_table("t1")
    assert rec is not None and rec.version == 2 and rec.state_json in ("mine", "theirs")


async def test_cancelled_write_leaves_no_open_transaction(store: Store) -> None:
    a, h = member_account(G, ALICE), house_account(G)
    with write_lock(store.path):
        task = asyncio.create_task(store.apply_transfers([Move(a, h, 1, "x")]))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises((asyncio.CancelledError, StorageUnavailable)):
            await task
    await store.apply_transfers([Move(a, h, 2, "after")])
    assert await store.balance(a) == 98
    assert (await audit(store)).ok


async def test_cancelled_caller_lets_the_started_transaction_finish(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "slow.sqlite3", busy_timeout_ms=5000)
    try:
        await store.ensure_member(G, ALICE, 100)
        a, h = member_account(G, ALICE), house_account(G)
        con = sqlite3.connect(store.path, isolation_level=None)
        con.execute("BEGIN IMMEDIATE")
        task = asyncio.create_task(store.apply_transfers([Move(a, h, 1, "x")]))
        await asyncio.sleep(0.02)  # the store now waits on the busy lock
        task.cancel()
        asyncio.get_running_loop().call_later(0.05, con.execute, "ROLLBACK")
        with pytest.raises(asyncio.CancelledError):
            await task
        con.close()
        # The write ran to its end (here: committed) and no transaction was left open.
        assert await store.balance(a) == 99
        await store.apply_transfers([Move(a, h, 2, "after")])
        assert await store.balance(a) == 97
        assert (await audit(store)).ok
    finally:
        await store.close()
