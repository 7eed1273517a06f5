"""The database file on disk: refuse silent fresh starts.

A bot that has run on a database leaves a hidden marker next to it
(``.<database name>.initialised`` in the database's folder).
At the next start, a database that is missing or empty (0 bytes) while its marker says
the bot has run there before is refused: the data was lost or moved, and starting a
fresh ledger would silently reset every balance. The operator decides instead:
``python -m bot restore FILE`` puts a backup back, ``python -m bot init`` starts an
empty database on purpose. A 0-byte file is never taken for a database.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.errors import DatabaseRefused


def marker_path(database: str | Path) -> Path:
    """``<folder>/.<database name>.initialised``: a hidden file next to the database, so
    that removing the database's files (``rm data/pontoon.sqlite3*``) or everything
    visible in its folder (``rm data/*``) does not remove the memory that the bot ran
    there."""
    database = Path(database)
    return database.with_name(f".{database.name}.initialised")


def mark_initialised(database: str | Path) -> None:
    """Record that the bot has run on this database (idempotent)."""
    marker = marker_path(database)
    if marker.exists():
        return
    text = json.dumps(
        {"database": str(database), "since": datetime.now(UTC).isoformat(timespec="seconds")}
    )
    tmp = marker.with_name(marker.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    os.replace(tmp, marker)


def check_start(database: str | Path) -> None:
    """Raise :class:`DatabaseRefused` when the bot must not start on ``database``
    as it is (see the module notes). A missing database with no marker is a first
    start: allowed (the database is created)."""
    database = Path(database)
    marker = marker_path(database)
    try:
        size: int | None = database.stat().st_size
    except FileNotFoundError:
        size = None
    if size is None and marker.exists():
        raise DatabaseRefused(
            f"the database {database} is missing, but the bot has run on it before "
            f"({marker} exists); refusing to start a fresh, empty ledger. Put the file "
            "back, run `python -m bot restore BACKUP_FILE`, or start over on purpose with "
            "`python -m bot init`"
        )
    if size == 0:
        raise DatabaseRefused(
            f"the database {database} is an empty (0-byte) file, not a database; "
            "refusing to start on it. Run `python -m bot restore BACKUP_FILE`, or start "
            "over on purpose with `python -m bot init`"
        )
    if size is not None and marker.exists() and has_no_tables(database):
        raise DatabaseRefused(
            f"the database {database} has no tables, but the bot has run on it before "
            f"({marker} exists): its contents were lost (say, its -wal file deleted while "
            "the bot ran); refusing to start a fresh, empty ledger. Run `python -m bot "
            "restore BACKUP_FILE`, or start over on purpose with `python -m bot init`"
        )


def has_no_tables(database: Path) -> bool:
    """True when ``database`` is an SQLite file whose schema is empty (read without
    writing anything; a file SQLite cannot read is left to the store to name)."""
    try:
        con = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        return bool(con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0)
    except sqlite3.Error:
        return False
    finally:
        with contextlib.suppress(sqlite3.Error):
            con.close()


def prepare_init(database: str | Path) -> None:
    """For ``python -m bot init``: refuse to wipe a database that holds data; clear a
    missing or empty one (0 bytes or no tables), and its stale journal files, so it is
    created afresh."""
    database = Path(database)
    if database.exists() and database.stat().st_size > 0 and not has_no_tables(database):
        raise DatabaseRefused(
            f"the database {database} already exists and is not empty; `init` only creates "
            "a new database. Move it away first if you really want to start over"
        )
    for stale in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        stale.unlink(missing_ok=True)
    marker_path(database).unlink(missing_ok=True)


__all__ = ["check_start", "mark_initialised", "marker_path", "prepare_init"]
