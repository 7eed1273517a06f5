"""Numbered migrations: applied once, in order, each in its own transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import SchemaError, Store, member_account
from bot.storage.migrations import MIGRATIONS_DIR, load_migrations, migrate, split_statements


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as con:
        return [r[0] for r in con.execute("SELECT version FROM schema_version ORDER BY version")]


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    db = tmp_path / "bank.sqlite3"
    store = await Store.open(db)
    try:
        expected = [m.version for m in load_migrations()]
        assert expected[:2] == [1, 2]
        assert await store.schema_version() == expected[-1]
    finally:
        await store.close()
    assert _versions(db) == expected
    with sqlite3.connect(db) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"accounts", "members", "transfers", "game_tables", "guild_settings"} <= tables
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_is_idempotent_and_keeps_data(tmp_path: Path) -> None:
    db = tmp_path / "bank.sqlite3"
    for _ in range(3):
        store = await Store.open(db)
        assert await store.ensure_member(1, 2, 500) == 500
        await store.close()
    assert _versions(db) == [m.version for m in load_migrations()]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM transfers").fetchone()[0] == 1
        assert con.execute(
            "SELECT balance FROM accounts WHERE id = ?", (member_account(1, 2),)
        ).fetchone() == (500,)


def test_a_failing_migration_rolls_back_alone(tmp_path: Path) -> None:
    from bot.storage.migrations import Migration

    good = Migration(1, "good", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "bad", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    db = sqlite3.connect(tmp_path / "m.sqlite3", isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError):
            migrate(db, [good, bad])
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "a" in names and "b" not in names
        assert [r[0] for r in db.execute("SELECT version FROM schema_version")] == [1]
        fixed = Migration(2, "bad", "CREATE TABLE b (x INTEGER);")
        assert migrate(db, [good, fixed]) == [2]
        assert migrate(db, [good, fixed]) == []
    finally:
        db.close()


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "bank.sqlite3"
    store = await Store.open(db)
    await store.close()
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO schema_version (version, name, checksum) VALUES (999, 'x', 'y')")
    with pytest.raises(SchemaError):
        await Store.open(db)


async def test_open_without_migrating_needs_current_schema(tmp_path: Path) -> None:
    with pytest.raises(SchemaError):
        await Store.open(tmp_path / "empty.sqlite3", migrate_schema=False)


def test_migration_files_are_numbered_without_gaps(tmp_path: Path) -> None:
    names = sorted(p.name for p in MIGRATIONS_DIR.glob("*.sql"))
    assert names[:2] == ["001_initial.sql", "002_guild_settings.sql"]
    (tmp_path / "001_a.sql").write_text("SELECT 1;")
    (tmp_path / "003_c.sql").write_text("SELECT 1;")
    with pytest.raises(SchemaError):
        load_migrations(tmp_path)


def test_split_statements_keeps_triggers_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER tr BEFORE DELETE ON t\nBEGIN\n  SELECT RAISE(ABORT, 'no');\nEND;\n"
        "-- trailing comment\n"
    )
    parts = split_statements(sql)
    assert len(parts) == 2
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(SchemaError):
        split_statements("CREATE TABLE t (x INTEGER)")


async def test_games_are_not_a_check_constraint_any_more(tmp_path: Path) -> None:
    """Migration 004 rebuilds game_tables without CHECK (game IN (...)): a database with
    open tables, escrow accounts and actions referencing them keeps every row and every
    foreign key, and a new game's name needs no table rebuild."""
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    migrate(con, load_migrations()[:3])
    con.execute(
        "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
        "created_at, updated_at) VALUES ('t1', 1, 10, 'pontoon', 3, '{}', 'x', 'x')"
    )
    con.execute(
        "INSERT INTO accounts (id, kind, guild_id, table_id, balance, created_at) "
        "VALUES ('escrow:t1', 'escrow', 1, 't1', 0, 'x')"
    )
    con.execute(
        "INSERT INTO table_actions (table_id, version, ts, description) VALUES ('t1', 3, 'x', 'a')"
    )
    con.close()
    store = await Store.open(db)
    rec = await store.table_for_channel(10)
    assert rec is not None and rec.table_id == "t1" and rec.version == 3
    assert await store.schema_version() == len(load_migrations())
    await store.close()
    with sqlite3.connect(db) as con:
        sql = con.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'game_tables'"
        ).fetchone()[0]
        assert "'baccarat'" not in sql
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        con.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            "created_at, updated_at) VALUES ('t2', 1, 11, 'chemin_de_fer', 1, '{}', 'x', 'x')"
        )
        with pytest.raises(sqlite3.IntegrityError):  # one open table per channel still holds
            con.execute(
                "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
                "created_at, updated_at) VALUES ('t3', 1, 11, 'pontoon', 1, '{}', 'x', 'x')"
            )


async def test_punto_banco_tables_stored_as_baccarat_take_the_games_one_name(
    tmp_path: Path,
) -> None:
    """Migration 007: an open Punto Banco table saved by older code under 'baccarat'
    reloads under 'punto_banco', the name bot/games.py gives the game; Pontoon's rows
    are untouched."""
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    migrate(con, load_migrations()[:6])
    for table_id, channel, game in (("b1", 20, "baccarat"), ("p1", 21, "pontoon")):
        con.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            f"created_at, updated_at) VALUES ('{table_id}', 1, {channel}, '{game}', 1, "
            "'{}', 'x', 'x')"
        )
    con.close()
    store = await Store.open(db)
    baccarat, pontoon = await store.table_for_channel(20), await store.table_for_channel(21)
    await store.close()
    assert baccarat is not None and baccarat.game == "punto_banco"
    assert pontoon is not None and pontoon.game == "pontoon"


async def test_anonymous_accounts_arrive_without_losing_a_row(tmp_path: Path) -> None:
    """Migration 009 rebuilds accounts (a new kind, 'anon'): a database at version 8 with
    members, grants and transfers keeps every row and foreign key, audits clean, and its
    members can then be erased (their rows anonymised)."""
    from bot.audit import audit

    db = tmp_path / "v8.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("PRAGMA foreign_keys = ON")
    migrate(con, load_migrations()[:8])
    for user in (7, 8):
        account = member_account(1, user)
        con.execute(
            "INSERT INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
            "VALUES (?, 'member', 1, ?, 0, 'x')",
            (account, user),
        )
        con.execute(
            "INSERT INTO members (guild_id, user_id, account_id, joined_at) VALUES (1, ?, ?, 'x')",
            (user, account),
        )
        con.execute(
            "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) "
            "VALUES ('x', 1, 'grant', NULL, ?, 100, 'starting chips')",
            (account,),
        )
        con.execute("UPDATE accounts SET balance = 100 WHERE id = ?", (account,))
    con.execute(
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) "
        "VALUES ('x', 1, 'transfer', ?, ?, 30, 'gift')",
        (member_account(1, 7), member_account(1, 8)),
    )
    con.execute("UPDATE accounts SET balance = 70 WHERE id = ?", (member_account(1, 7),))
    con.execute("UPDATE accounts SET balance = 130 WHERE id = ?", (member_account(1, 8),))
    # member 9 was erased before 009: chips to the house, members row gone, rows kept
    gone = member_account(1, 9)
    con.execute(
        "INSERT INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
        "VALUES (?, 'member', 1, 9, 0, 'x'), ('house:1', 'house', 1, NULL, 50, 'x')",
        (gone,),
    )
    con.execute(
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) "
        "VALUES ('x', 1, 'grant', NULL, ?, 50, 'starting chips'), "
        "('y', 1, 'transfer', ?, 'house:1', 50, 'member data erased')",
        (gone, gone),
    )
    con.close()
    store = await Store.open(db)
    try:
        assert await store.schema_version() == len(load_migrations())
        assert (await store.member_balance(1, 7), await store.member_balance(1, 8)) == (70, 130)
        assert (await audit(store)).ok
        assert await store.balance("house:1") == 50
        result = await store.forget_member(7)
        assert (result.chips_to_house, result.ledger_rows) == (70, 3)
        report = await audit(store)
        assert report.ok, report.summary()
        assert await store.member_balance(1, 8) == 130
    finally:
        await store.close()
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        assert con.execute("SELECT COUNT(*) FROM transfers").fetchone() == (6,)
        assert con.execute("SELECT COUNT(*) FROM accounts WHERE kind = 'anon'").fetchone() == (2,)
        dump = "\n".join(con.iterdump())
        assert "member:1:9" not in dump and "member:1:7" not in dump
        assert "member:1:8" in dump


async def test_old_pontoon_snapshots_are_upgraded_once_to_the_shape_saved_today(
    tmp_path: Path,
) -> None:
    """Migration 011: an open Pontoon table saved before tables had a seat limit gets the
    bot's (10 with one pack, else 20); a bank auction saved in the bot's meta moves into
    the engine while its seller holds the bank, and goes when they no longer do. The bot
    then reads these tables without any reader of older shapes."""
    import json

    from bot.pontoon import PontoonService, seat_limit
    from engine.pontoon import PontoonRules, Table

    def old_state(channel: int, packs: int | None, banker: str, seller: int | None) -> str:
        engine = Table(PontoonRules(packs=packs), ["42", "7"], {"42": 100, "7": 100}).to_json()
        engine["rules"]["max_seats"] = None
        engine["banker"] = banker
        meta: dict[str, object] = {"guild_id": 1, "channel_id": channel, "opener_id": 42}
        if seller is not None:
            meta["auction"] = {"seller": seller, "bids": {"7": 30}, "ends_at": 5.0}
        return json.dumps({"engine": engine, "meta": meta})

    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    migrate(con, load_migrations()[:10])
    rows = [
        ("t1", 30, "pontoon", old_state(30, 1, "42", 42)),
        ("t2", 31, "pontoon", old_state(31, None, "7", 42)),
        ("t3", 32, "punto_banco", '{"engine": {}, "meta": {}}'),
    ]
    for table_id, channel, game, state in rows:
        con.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
            "created_at, updated_at) VALUES (?, 1, ?, ?, 1, ?, 'x', 'x')",
            (table_id, channel, game, state),
        )
    con.close()
    store = await Store.open(db)
    try:
        service = PontoonService(store)
        loaded = {live.table_id: live for live in await service.load()}
        await service.shutdown()
        one, two = loaded["t1"], loaded["t2"]
        assert one.engine.rules.max_seats == seat_limit(PontoonRules(packs=1)) == 10
        assert two.engine.rules.max_seats == seat_limit(PontoonRules()) == 20
        assert one.engine.auction == {"7": 30} and one.auction == {"ends_at": 5.0}
        assert two.engine.auction is None and two.auction is None  # the seller lost the bank
        pb = await store.table_for_channel(32)
        assert pb is not None and json.loads(pb.state_json) == {"engine": {}, "meta": {}}
    finally:
        await store.close()


async def test_013_adds_the_shown_countdown_and_keeps_what_012_confirmed(tmp_path: Path) -> None:
    """Migration 013: a nullable REAL ``shown_deadline`` beside 012's ``shown_version``. A
    table confirmed before it keeps its confirmation and shows no known countdown (NULL):
    the restart after the upgrade gives it a fresh clock and draws its message again."""
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db, isolation_level=None)
    migrate(con, load_migrations()[:12])
    con.execute(
        "INSERT INTO game_tables (id, guild_id, channel_id, game, version, state_json, "
        "message_id, shown_version, created_at, updated_at) "
        "VALUES ('t1', 1, 10, 'pontoon', 3, '{}', 77, 3, 'x', 'x')"
    )
    con.close()
    store = await Store.open(db)
    try:
        assert await store.confirmed_shown() == {"t1": None}
        (rec,) = await store.load_open_tables()
        assert rec.shows_its_version and rec.shown_deadline is None
    finally:
        await store.close()
    with sqlite3.connect(db) as con:
        columns = {r[1]: r for r in con.execute("PRAGMA table_info(game_tables)")}
        assert columns["shown_deadline"][2] == "REAL" and columns["shown_deadline"][3] == 0
