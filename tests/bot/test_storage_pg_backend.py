"""The PostgreSQL backend's own parts: migrations in lockstep with SQLite's, applied once
even by processes starting together, and the SQL translation refusing what it cannot
translate."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import SchemaError, StorageUnavailable
from bot.storage.migrations import load_migrations
from bot.storage.pg import PgStore, UnsupportedSQL, redact
from bot.storage.pg.connection import translate
from bot.storage.pg.migrations import load_pg_migrations


def test_both_backends_have_the_same_numbered_migrations() -> None:
    sqlite = [(m.version, m.name) for m in load_migrations()]
    pg = [(m.version, m.name) for m in load_pg_migrations()]
    assert sqlite == pg, "every SQLite migration needs its bot/migrations/pg twin, same number"


def test_translation_of_the_stores_sql() -> None:
    assert translate("SELECT a FROM t WHERE x = ? AND y = '?' AND z = ?") == (
        "SELECT a FROM t WHERE x = $1 AND y = '?' AND z = $2",
        True,
    )
    assert translate("BEGIN IMMEDIATE") == ("BEGIN ISOLATION LEVEL SERIALIZABLE", False)
    assert translate("INSERT OR IGNORE INTO a (x) VALUES (?)") == (
        "INSERT INTO a (x) VALUES ($1) ON CONFLICT DO NOTHING",
        False,
    )
    assert translate("SELECT id FROM t WHERE typeof(t.amount) <> 'integer'")[0] == (
        "SELECT id FROM t WHERE FALSE"
    )
    assert translate("UPDATE t SET a = ? RETURNING id")[1] is True
    for sqlite_only in ("PRAGMA page_count", "SELECT strftime('%s', 'now')"):
        with pytest.raises(UnsupportedSQL):
            translate(sqlite_only)


async def test_fresh_schema_migrates_and_reopening_keeps_data(pg_url: str) -> None:
    store = await PgStore.connect(pg_url)
    try:
        assert await store.schema_version() == len(load_pg_migrations())
        await store.ensure_member(1, 2, 50)
    finally:
        await store.close()
    again = await PgStore.connect(pg_url, migrate_schema=False)
    try:
        assert await again.member_balance(1, 2) == 50
    finally:
        await again.close()


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    stores = await asyncio.gather(*(PgStore.connect(pg_url) for _ in range(4)))
    try:
        conn = await asyncpg.connect(pg_url)
        try:
            rows = await conn.fetch("SELECT version FROM schema_version ORDER BY version")
        finally:
            await conn.close()
        assert [r[0] for r in rows] == [m.version for m in load_pg_migrations()]
    finally:
        for s in stores:
            await s.close()


async def test_unmigrated_or_newer_schema_is_refused(pg_url: str) -> None:
    with pytest.raises(SchemaError, match="start the bot once"):
        await PgStore.connect(pg_url, migrate_schema=False)
    store = await PgStore.connect(pg_url)
    await store.close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(
            "INSERT INTO schema_version (version, name, checksum) VALUES (999, 'future', 'x')"
        )
    finally:
        await conn.close()
    with pytest.raises(SchemaError, match="newer than this code"):
        await PgStore.connect(pg_url)


async def test_unreachable_server_is_storage_unavailable() -> None:
    url = "postgresql://nobody:secret@127.0.0.1:1/none"
    with pytest.raises(StorageUnavailable) as info:
        await PgStore.connect(url)
    assert "secret" not in str(info.value) and redact(url) in str(info.value)


async def kill_session(url: str, pid: int) -> None:
    """The server ends a session (a restart, an admin, a failover)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()


async def test_a_lost_connection_is_refused_politely_then_reconnected(pg_url: str) -> None:
    store = await PgStore.connect(pg_url)
    try:
        await store.ensure_member(1, 2, 50)
        await kill_session(pg_url, store.pg.raw.get_server_pid())
        try:
            balance = await store.grant(1, 2, 5, "after the kill", None)
        except StorageUnavailable:
            balance = 50  # refused: nothing written
        assert await store.member_balance(1, 2) == balance  # reconnected
        assert await store.grant(1, 2, 5, "again", None) == balance + 5
        await kill_session(pg_url, store.pg.raw.get_server_pid())
        try:
            seen = await store.member_balance(1, 2)
        except StorageUnavailable:
            seen = balance + 5
        assert seen == balance + 5
    finally:
        await store.close()


def test_audit_command_line_on_postgres(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.audit import main

    assert main(["--db", pg_url]) == 2  # not migrated yet: refused, nothing created

    async def populate() -> None:
        store = await PgStore.connect(pg_url)
        await store.ensure_member(5, 6, 70)
        await store.close()

    asyncio.run(populate())
    assert main(["--db", pg_url]) == 0
    out = capsys.readouterr().out
    assert "Ledger audit: OK" in out and "granted 70" in out


def _store_whose_writes_conflict(
    monkeypatch: pytest.MonkeyPatch, conflicts: int
) -> tuple[PgStore, list[int]]:
    """A PgStore (no connection needed) whose underlying write aborts with a
    serialization failure ``conflicts`` times, then commits."""
    from bot.storage.store import Store

    calls: list[int] = []

    async def write(self: Store, fn: object, *, mode: str = "IMMEDIATE") -> str:
        calls.append(1)
        if len(calls) <= conflicts:
            raise asyncpg.SerializationError("could not serialize access")
        return "committed"

    monkeypatch.setattr(Store, "_write", write)
    store = object.__new__(PgStore)
    store.retries = 0
    return store, calls


async def test_a_conflicting_write_is_retried_until_it_commits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """30 conflicts in a row (the old 12-attempt limit refused this write) still commit
    within the retry time."""
    store, calls = _store_whose_writes_conflict(monkeypatch, conflicts=30)
    store.retry_seconds = 30.0
    store.retry_pause_max = 0.001
    assert await store._write(lambda con: None) == "committed"
    assert len(calls) == 31 and store.retries == 30


async def test_endless_conflicts_are_refused_within_the_retry_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, calls = _store_whose_writes_conflict(monkeypatch, conflicts=10**9)
    store.retry_seconds = 0.2
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(StorageUnavailable, match="too much contention"):
        await store._write(lambda con: None)
    assert loop.time() - started < 1.0  # within the retry time (0.2 s), with slack
    assert len(calls) > 1


async def test_members_erased_before_009_are_anonymised(pg_url: str) -> None:
    """A PostgreSQL schema at version 8 where a member was erased the old way (chips to
    the house, members row gone, rows under member:...): migration 009 moves their rows
    to an anonymous account and drops the member account; the audit passes."""
    from bot.audit import audit
    from bot.storage.pg.migrations import pg_migrate

    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrate(conn, load_pg_migrations()[:8])
        await conn.execute(
            "INSERT INTO accounts (id, kind, guild_id, user_id, balance, created_at) VALUES "
            "('member:1:9', 'member', 1, 9, 0, 'x'), ('member:1:8', 'member', 1, 8, 50, 'x'), "
            "('house:1', 'house', 1, NULL, 50, 'x')"
        )
        await conn.execute(
            "INSERT INTO members (guild_id, user_id, account_id, joined_at) "
            "VALUES (1, 8, 'member:1:8', 'x')"
        )
        await conn.execute(
            "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) VALUES "
            "('x', 1, 'grant', NULL, 'member:1:9', 50, 'starting chips'), "
            "('x', 1, 'grant', NULL, 'member:1:8', 50, 'starting chips'), "
            "('y', 1, 'transfer', 'member:1:9', 'house:1', 50, 'member data erased')"
        )
    finally:
        await conn.close()
    store = await PgStore.connect(pg_url)
    try:
        assert await store.schema_version() == len(load_pg_migrations())
        report = await audit(store)
        assert report.ok, report.summary()
        conn = await asyncpg.connect(pg_url)
        try:
            ids = {r[0] for r in await conn.fetch("SELECT id FROM accounts")}
            used = {r[0] for r in await conn.fetch("SELECT src FROM transfers")}
        finally:
            await conn.close()
        anon = {a for a in ids if a.startswith("anon:")}
        assert "member:1:9" not in ids and "member:1:9" not in used and len(anon) == 1
        assert {"member:1:8", "house:1"} <= ids and anon <= used
    finally:
        await store.close()


async def test_old_pontoon_snapshots_are_upgraded_by_011_as_on_sqlite(pg_url: str) -> None:
    """Migration 011 on PostgreSQL: an open Pontoon table saved before tables had a seat
    limit, with a bank auction in the bot's meta and a round log of English details,
    reads as today's shape: the limit, the bids in the engine, the engine's words (the
    same fixed table as SQLite's twin; tests/bot/test_pontoon_event_words.py for every detail)."""
    import json

    from bot.pontoon import LoggedEvent
    from bot.storage.pg.migrations import pg_migrate
    from engine.errors import Word
    from engine.pontoon import PontoonRules, Table
    from engine.pontoon.types import Event, EventKind

    engine = Table(PontoonRules(packs=1), ["42", "7"], {"42": 100, "7": 100}).to_json()
    engine["rules"]["max_seats"] = None
    engine["banker"] = "42"
    details = [
        (EventKind.KITTY, "returned"),
        (EventKind.HAND_RESULT, "lose: 17 loses to banker's five card trick"),
        (EventKind.HAND_RESULT, "win: 18 beats banker's 5"),
        (EventKind.BANK_PASSES, "pontoon; from s3"),
        (EventKind.HAND_RESULT, "win: lucky beats banker's 19"),
    ]
    meta = {
        "guild_id": 1,
        "channel_id": 2,
        "opener_id": 42,
        "auction": {"seller": 42, "bids": {"7": 30}, "ends_at": 5.0},
        "round_log": [{"event": Event(k, "s1", detail=d).to_json()} for k, d in details],
    }
    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrate(conn, load_pg_migrations()[:10])
        await conn.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            "created_at, updated_at) VALUES ('t1', 1, 2, 'pontoon', 1, $1, 'x', 'x')",
            json.dumps({"engine": engine, "meta": meta}),
        )
        await pg_migrate(conn, load_pg_migrations())
        state = json.loads(await conn.fetchval("SELECT state_json FROM game_tables"))
    finally:
        await conn.close()
    assert Table.from_json(state["engine"]).seat_limit == state["engine"]["rules"]["max_seats"]
    assert state["engine"]["rules"]["max_seats"] == 10
    assert state["engine"]["auction"] == {"7": 30}
    assert state["meta"]["auction"] == {"ends_at": 5.0}
    says = [LoggedEvent.from_json(e).event.says for e in state["meta"]["round_log"]]
    assert says == [
        Word("engine.kitty.returned"),
        Word.of(
            "engine.result.lose",
            why=Word.of(
                "engine.why.loses_double_to", label=17, blabel=Word("engine.label.banker_five")
            ),
        ),
        Word.of(
            "engine.result.win",
            why=Word.of(
                "engine.why.beats",
                label=18,
                blabel=Word.of("engine.label.banker_total", total=5),
            ),
        ),
        Word.of("engine.bank_passes.from", old="s3"),
        None,
    ]


async def test_013_adds_the_shown_countdown_as_on_sqlite(pg_url: str) -> None:
    """Migration 013 on PostgreSQL: a nullable DOUBLE PRECISION ``shown_deadline``; a
    table confirmed under 012 keeps its confirmation, with no known countdown."""
    from bot.storage.pg.migrations import pg_migrate

    conn = await asyncpg.connect(pg_url)
    try:
        await pg_migrate(conn, load_pg_migrations()[:12])
        await conn.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            "message_id, shown_version, created_at, updated_at) "
            "VALUES ('t1', 1, 10, 'pontoon', 3, '{}', 77, 3, 'x', 'x')"
        )
    finally:
        await conn.close()
    store = await PgStore.connect(pg_url)
    try:
        assert await store.confirmed_shown() == {"t1": None}
        (rec,) = await store.load_open_tables()
        assert rec.shows_its_version and rec.shown_deadline is None
        conn = await asyncpg.connect(pg_url)
        try:
            row = await conn.fetchrow(
                "SELECT data_type, is_nullable FROM information_schema.columns "
                "WHERE table_name = 'game_tables' AND column_name = 'shown_deadline' "
                "AND table_schema = current_schema()"
            )
        finally:
            await conn.close()
        assert row is not None and tuple(row) == ("double precision", "YES")
    finally:
        await store.close()
