"""PostgreSQL migrations: ``bot/migrations/pg/NNN_name.sql``, numbered like the SQLite ones
(the same version means the same schema in both), applied in order, once.

Each migration runs in one transaction holding a transaction-level advisory lock, so
processes starting at once apply it exactly once; a failing migration leaves the database
at the previous version (PostgreSQL's DDL is transactional).
"""

from __future__ import annotations

import logging
from pathlib import Path

import asyncpg

from bot.storage.errors import SchemaError
from bot.storage.migrations import MIGRATIONS_DIR, Migration, load_migrations

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = MIGRATIONS_DIR / "pg"
_LOCK_KEY = 0x706F6E746F6F6E  # "pontoon": serialises migrators of one database

_CREATE = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " checksum TEXT NOT NULL,"
    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)


def load_pg_migrations(directory: Path = PG_MIGRATIONS_DIR) -> list[Migration]:
    return load_migrations(directory)


async def pg_applied_versions(conn: asyncpg.Connection) -> dict[int, str]:
    """version -> checksum of every applied migration ({} on a fresh database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return {}
    rows = await conn.fetch("SELECT version, checksum FROM schema_version")
    return {int(r[0]): str(r[1]) for r in rows}


async def pg_migrate(conn: asyncpg.Connection, migrations: list[Migration]) -> list[int]:
    """Apply every migration not yet applied; returns the versions applied now."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
        await conn.execute(_CREATE)
    known = {m.version: m for m in migrations}
    done = await pg_applied_versions(conn)
    if any(v not in known for v in done):
        raise SchemaError(
            f"the database has schema version {max(done)}, newer than this code knows "
            f"({len(migrations)}); upgrade the bot"
        )
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
            already = await conn.fetchval(
                "SELECT 1 FROM schema_version WHERE version = $1", migration.version
            )
            if already is None:
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, checksum) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    migration.checksum,
                )
        if already is None:
            log.info("applied PostgreSQL migration %03d_%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied
