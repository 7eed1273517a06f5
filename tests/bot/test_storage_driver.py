"""The SQLite store runs on aiosqlite, the driver the product names.

Every transaction is still ONE call on the driver's thread (``BEGIN IMMEDIATE`` ...
``COMMIT`` inside one function), so a save costs one thread hop, not one per statement.
Fails on the code before the change (its own worker thread over plain ``sqlite3``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
import tomllib
from pathlib import Path

import aiosqlite

from bot.storage import Move, Store, escrow_account, member_account
from tests.bot.cli_helpers import REPO

G = 1


def test_aiosqlite_is_a_dependency() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    names = [
        dep.split(">")[0].split("=")[0].split("<")[0].strip().lower()
        for dep in project["project"]["dependencies"]
    ]
    assert "aiosqlite" in names


async def test_each_write_is_one_transaction_in_one_call_on_aiosqlites_thread(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "bank.sqlite3")
    try:
        connection = store.connection
        assert isinstance(connection, aiosqlite.Connection)
        for uid in (1, 2):
            await store.ensure_member(G, uid)
        await store.save_table("t", G, 10, "pontoon", "{}", 1, None, [], "open")

        seen: list[tuple[str, str]] = []

        def trace(statement: str) -> None:
            seen.append((threading.current_thread().name, statement.split()[0].upper()))

        await connection.set_trace_callback(trace)
        calls: list[object] = []
        hop = connection.call

        async def counted(fn: object) -> object:
            calls.append(fn)
            return await hop(fn)  # type: ignore[arg-type]

        connection.call = counted  # type: ignore[method-assign]
        await store.save_table(
            "t",
            G,
            10,
            "pontoon",
            '{"x": 1}',
            2,
            None,
            [Move(member_account(G, 1), escrow_account("t"), 5, "bet")],
            "bet",
            in_play=[1],
        )
        await connection.set_trace_callback(None)
        assert len(calls) == 1, "one call on the driver's thread per write"
        threads = {name for name, _ in seen}
        assert len(threads) == 1 and threading.main_thread().name not in threads
        words = [word for _, word in seen]
        assert words[0] == "BEGIN" and words[-1] == "COMMIT"
        assert words.count("BEGIN") == 1 and words.count("COMMIT") == 1
        assert await store.member_balance(G, 1) == 995
    finally:
        await store.close()


async def test_close_stops_the_drivers_thread(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    store = await Store.open(tmp_path / "bank.sqlite3")
    await store.ensure_member(G, 1)
    assert set(threading.enumerate()) - before
    await store.close()
    deadline = time.monotonic() + 5
    while {t for t in set(threading.enumerate()) - before if t.is_alive()}:
        assert time.monotonic() < deadline, "the driver's thread is still running"
        await asyncio.sleep(0.01)
    con = sqlite3.connect(tmp_path / "bank.sqlite3")
    assert con.execute("SELECT COUNT(*) FROM members").fetchone()[0] == 1
    con.close()
