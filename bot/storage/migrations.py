"""Numbered SQL migrations: ``bot/migrations/NNN_name.sql``, applied in order, once.

The ``schema_version`` table records each applied migration. Each migration runs in its
own ``BEGIN IMMEDIATE`` transaction that re-checks ``schema_version`` first, so two
processes starting at once, or a restart, never apply a migration twice, and a failing
migration leaves the database at the previous version.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.storage.errors import SchemaError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"
_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def statements(self) -> list[str]:
        return split_statements(self.sql)


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``directory``, checked to be numbered 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise SchemaError(f"migration file name not NNN_name.sql: {path.name}")
        found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise SchemaError(
                f"migrations must be numbered 001, 002, ... without gaps or duplicates; "
                f"expected {expected:03d}, found {migration.version:03d}_{migration.name}"
            )
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (triggers' BEGIN ... END kept whole)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    rest = "\n".join(
        line for line in buffer.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if rest:
        raise SchemaError(f"incomplete SQL statement at the end of a migration: {rest[:80]!r}")
    return statements


async def applied_versions(db: aiosqlite.Connection) -> dict[int, str]:
    """version -> checksum of every applied migration ({} on a fresh database)."""
    async with db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ) as cur:
        if await cur.fetchone() is None:
            return {}
    async with db.execute("SELECT version, checksum FROM schema_version") as cur:
        return {int(row[0]): str(row[1]) for row in await cur.fetchall()}


async def migrate(db: aiosqlite.Connection, migrations: list[Migration]) -> list[int]:
    """Apply every migration not yet applied; returns the versions applied now.

    ``db`` must be in autocommit mode (``isolation_level=None``).
    """
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " checksum TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
    )
    known = {m.version: m for m in migrations}
    done = await applied_versions(db)
    newer = sorted(v for v in done if v not in known)
    if newer:
        raise SchemaError(
            f"the database has schema version {max(done)}, newer than this code knows "
            f"({len(migrations)}); upgrade the bot"
        )
    for version, checksum in done.items():
        if known[version].checksum != checksum:
            log.warning(
                "migration %03d_%s changed after it was applied; the database keeps the old one",
                version,
                known[version].name,
            )
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            async with db.execute(
                "SELECT 1 FROM schema_version WHERE version = ?", (migration.version,)
            ) as cur:
                already = await cur.fetchone() is not None
            if not already:
                for statement in migration.statements:
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_version (version, name, checksum) VALUES (?, ?, ?)",
                    (migration.version, migration.name, migration.checksum),
                )
            await db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            raise
        if not already:
            log.info("applied migration %03d_%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied
