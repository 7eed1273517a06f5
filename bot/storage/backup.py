"""Online backups with SQLite's backup API, their rotation, and restoring one.

* :func:`backup_database` copies a live database page by page through a separate
  read connection (``sqlite3.Connection.backup``): consistent even while the bot writes.
  The copy is written to a temporary name and renamed, so a backup file is whole or
  absent.
* :func:`rotate` keeps the newest ``keep`` backups of a folder.
* :func:`restore_database` replaces the database atomically by a backup and removes the
  old journal files. The caller holds the database's process lock and has audited the
  backup first (:func:`bot.audit.audit_backup`, on a scratch copy migrated to the
  current schema), refusing one that fails.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
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
    "backup_database",
    "backup_name",
    "restore_database",
    "rotate",
]
