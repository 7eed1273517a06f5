"""Open a test Store on either backend, and reach its database behind its back.

``open_test_store(backend, request, tmp_path)``: SQLite (a file in tmp_path) or
PostgreSQL (this test's own schema, ``pg_url`` in tests/conftest.py).
``raw_sql(store, sql, *params)``: one statement on a separate connection, ``?``
parameters on both. ``tamper(store, *statements)``: change rows the way a broken tool or
a person with a SQL shell could, with the schema's own checks switched off.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import GuildSettings, Store

# What the database itself raises when a write breaks the schema's rules (a CHECK, a
# unique index, the append-only trigger), on either backend.
REFUSED_BY_DATABASE: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.IntegrityConstraintViolationError,
    asyncpg.RaiseError,
)


async def open_test_store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, **kw: Any
) -> Store:
    """A Store on ``backend`` (PostgreSQL: this test's schema)."""
    defaults = kw.pop("defaults", GuildSettings(1000, 100))
    if backend == "postgresql":
        from bot.storage.pg import PgStore

        url = str(request.getfixturevalue("pg_url"))
        return await PgStore.connect(url, defaults=defaults, **kw)
    return await Store.open(tmp_path / "bank.sqlite3", defaults=defaults, **kw)


async def raw_sql(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Run one statement on a separate connection (autocommit); the rows it returns."""
    from bot.storage.pg import PgStore

    if isinstance(store, PgStore):
        from bot.storage.pg.connection import translate

        text, returns_rows = translate(sql)
        conn = await asyncpg.connect(store.url)
        try:
            if returns_rows:
                return [tuple(r) for r in await conn.fetch(text, *params)]
            await conn.execute(text, *params)
            return []
        finally:
            await conn.close()
    con = sqlite3.connect(store.path, isolation_level=None)
    try:
        return [tuple(r) for r in con.execute(sql, params).fetchall()]
    finally:
        con.close()


async def tamper(store: Store, *statements: str) -> None:
    """Change the database behind the Store's back the way a broken tool or a person with
    a SQL shell could, with the schema's own checks switched off (SQLite:
    ignore_check_constraints, the append-only triggers dropped; PostgreSQL: the balance
    CHECKs dropped, triggers off)."""
    from bot.storage.pg import PgStore

    if isinstance(store, PgStore):
        conn = await asyncpg.connect(store.url)
        try:
            await conn.execute("SET session_replication_role = replica")
            await conn.execute("ALTER TABLE accounts DROP CONSTRAINT balance_not_negative")
            await conn.execute("ALTER TABLE accounts DROP CONSTRAINT IF EXISTS anon_holds_nothing")
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()
        return
    con = sqlite3.connect(store.path, isolation_level=None)
    try:
        con.execute("PRAGMA ignore_check_constraints = ON")
        # the triggers are put back afterwards (the audit refuses a schema without them)
        triggers = [
            str(r[0])
            for r in con.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'transfers'"
            )
        ]
        con.execute("DROP TRIGGER IF EXISTS transfers_no_update")
        con.execute("DROP TRIGGER IF EXISTS transfers_no_delete")
        for sql in statements:
            con.execute(sql)
        for sql in triggers:
            con.execute(sql)
    finally:
        con.close()
