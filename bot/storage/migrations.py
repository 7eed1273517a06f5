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

from bot.storage.errors import SchemaError

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"
_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
FK_OFF_MARK = "-- pragma: foreign_keys=off"


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


def applied_versions(db: sqlite3.Connection) -> dict[int, str]:
    """version -> checksum of every applied migration ({} on a fresh database)."""
    if (
        db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).fetchone()
        is None
    ):
        return {}
    return {
        int(row[0]): str(row[1])
        for row in db.execute("SELECT version, checksum FROM schema_version").fetchall()
    }


def migrate(db: sqlite3.Connection, migrations: list[Migration]) -> list[int]:
    """Apply every migration not yet applied; returns the versions applied now.

    ``db`` must be in autocommit mode (``isolation_level=None``). A migration whose text
    contains the line ``-- pragma: foreign_keys=off`` runs with foreign-key enforcement
    off (SQLite's procedure for rebuilding a table that others reference) and is checked
    with ``PRAGMA foreign_key_check`` before it commits.
    """
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " checksum TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
    )
    known = {m.version: m for m in migrations}
    done = applied_versions(db)
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
        fk_off = FK_OFF_MARK in migration.sql
        if fk_off:
            db.execute("PRAGMA foreign_keys = OFF")
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                already = (
                    db.execute(
                        "SELECT 1 FROM schema_version WHERE version = ?", (migration.version,)
                    ).fetchone()
                    is not None
                )
                if not already:
                    for statement in migration.statements:
                        db.execute(statement)
                    if fk_off:
                        broken = db.execute("PRAGMA foreign_key_check").fetchall()
                        if broken:
                            raise SchemaError(
                                f"migration {migration.version:03d}_{migration.name} would "
                                f"break foreign keys: {[tuple(r) for r in broken[:5]]}"
                            )
                    db.execute(
                        "INSERT INTO schema_version (version, name, checksum) VALUES (?, ?, ?)",
                        (migration.version, migration.name, migration.checksum),
                    )
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
        finally:
            if fk_off:
                db.execute("PRAGMA foreign_keys = ON")
        if not already:
            log.info("applied migration %03d_%s", migration.version, migration.name)
            applied.append(migration.version)
    return applied
