"""Online backups with SQLite's backup API, their rotation, and restoring one.

* :func:`backup_database` copies a live database page by page through a separate
  read connection (``sqlite3.Connection.backup``): consistent even while the bot writes.
  The copy is written to a temporary name and renamed, so a backup file is whole or
  absent.
* :func:`rotate` keeps the newest ``keep`` backups of a folder.
* :func:`restore_database` audits the backup first (on a scratch copy, migrated to the
  current schema) and refuses one that fails; then replaces the database atomically and
  removes the old journal files. The caller holds the database's process lock.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.errors import DatabaseRefused

BACKUP_PREFIX = "pontoon-"
BACKUP_SUFFIX = ".sqlite3"


def backup_name(moment: datetime | None = None) -> str:
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return f"{BACKUP_PREFIX}{moment.strftime('%Y%m%dT%H%M%S%fZ')}{BACKUP_SUFFIX}"


def backup_database(source: Path, dest: Path) -> Path:
    """Copy the database at ``source`` to ``dest`` (a file, or a folder to put a
    timestamped file in). Returns the backup's path."""
    if not source.is_file() or source.stat().st_size == 0:
        raise DatabaseRefused(f"nothing to back up: {source} is missing or empty")
    if dest.is_dir():
        dest = dest / backup_name()
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        out = sqlite3.connect(tmp)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode = DELETE")
        finally:
            out.close()
    finally:
        src.close()
    os.replace(tmp, dest)
    return dest


def rotate(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``folder``; returns the deleted."""
    backups = sorted(folder.glob(f"{BACKUP_PREFIX}*{BACKUP_SUFFIX}"))
    doomed = backups[: max(0, len(backups) - max(1, keep))]
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


async def audit_backup(backup: Path) -> tuple[bool, str]:
    """Audit a backup file without touching it: on a scratch copy brought up to the
    current schema. Returns (ok, the audit's report)."""
    from bot.audit import audit
    from bot.storage.errors import StorageError
    from bot.storage.store import Store

    if not backup.is_file() or backup.stat().st_size == 0:
        return False, f"{backup} is missing or empty"
    with tempfile.TemporaryDirectory(prefix="pontoon-restore-") as scratch:
        copy = Path(scratch) / "audit.sqlite3"
        try:
            backup_database(backup, copy)
            store = await Store.open(copy)
        except (StorageError, sqlite3.Error) as exc:
            return False, f"{backup} cannot be opened as a bot database: {exc}"
        try:
            report = await audit(store)
        except StorageError as exc:
            return False, f"{backup} cannot be read as a bot database: {exc}"
        finally:
            await store.close()
        return report.ok, report.summary()


def restore_database(backup: Path, database: Path) -> None:
    """Replace ``database`` by a copy of ``backup`` (already audited), atomically: the
    copy is written next to the database and renamed over it; the old database's
    write-ahead log and shared-memory files are removed so they cannot be replayed
    onto the restored file."""
    database.parent.mkdir(parents=True, exist_ok=True)
    staged = database.with_name(database.name + ".restoring")
    staged.unlink(missing_ok=True)
    backup_database(backup, staged)
    if database.exists() and database.stat().st_size > 0:
        # keep what is being replaced (through SQLite, so its write-ahead log is included)
        keep = database.with_name(database.name + ".before-restore")
        try:
            backup_database(database, keep)
        except sqlite3.Error:  # a damaged database: keep its bytes as they are
            shutil.copy2(database, keep)
    for journal in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        journal.unlink(missing_ok=True)
    os.replace(staged, database)


__all__ = [
    "audit_backup",
    "backup_database",
    "backup_name",
    "restore_database",
    "rotate",
]
