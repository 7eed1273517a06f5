"""Is a database behind this code? Read-only: nothing is migrated or written
(``python -m bot migrate --check``)."""

from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

from bot.storage.errors import SchemaError
from bot.storage.migrations import Migration, load_migrations

if TYPE_CHECKING:
    from bot.settings import Settings


def _sqlite_versions(path: str) -> set[int]:
    if not os.path.exists(path):
        return set()
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        exists = con.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).fetchone()
        if exists is None:
            return set()
        return {int(row[0]) for row in con.execute("SELECT version FROM schema_version")}
    finally:
        con.close()


async def _pg_versions(url: str) -> set[int]:
    import asyncpg

    from bot.storage.pg.migrations import pg_applied_versions

    conn = await asyncpg.connect(url)
    try:
        return set(await pg_applied_versions(conn))
    finally:
        await conn.close()


async def pending_migrations(settings: Settings) -> tuple[int, list[Migration]]:
    """(the database's schema version, the migrations the next start would apply).
    Raises SchemaError for a database newer than this code."""
    if settings.database_url is not None:
        from bot.storage.pg.migrations import load_pg_migrations

        have = await _pg_versions(settings.database_url.get_secret_value())
        known = load_pg_migrations()
    else:
        have = _sqlite_versions(str(settings.database_path))
        known = load_migrations()
    newest = max(have, default=0)
    if newest > max((m.version for m in known), default=0):
        raise SchemaError(
            f"the database is at schema version {newest}, newer than this code "
            f"({len(known)}): run the newer code, or restore a backup"
        )
    return newest, [m for m in known if m.version not in have]


__all__ = ["pending_migrations"]
