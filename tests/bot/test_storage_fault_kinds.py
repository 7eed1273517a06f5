"""Faults say what they are.

A read-only, full or corrupt database is reported as such (to the member and in the log),
not as "busy, try again"; every refused write is logged with its cause; at start a
read-only or corrupt database is refused with one clear line.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

from bot.audit import audit
from bot.errors import friendly
from bot.storage import (
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseReadOnly,
    InsufficientChips,
    Store,
    member_account,
)
from tests.bot.cli_helpers import one_error_line, run_bot

G = 1


async def test_disk_full_is_reported_as_disk_full(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(tmp_path / "full.sqlite3")
    await store.ensure_member(G, 1)
    pages = await store._call(lambda con: con.execute("PRAGMA page_count").fetchone()[0])
    await store._call(lambda con: con.execute(f"PRAGMA max_page_count = {pages}"))
    caplog.set_level(logging.INFO, logger="bot.storage")
    with pytest.raises(DatabaseFull) as info:
        for user in range(2, 2000):  # new members need new pages sooner or later
            await store.ensure_member(G, user)
    text = friendly(info.value)
    assert "disk is full" in text and "busy" not in text
    assert any("write refused (disk full)" in r.getMessage() for r in caplog.records)
    await store.close()


async def test_read_only_database_is_reported_as_read_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(tmp_path / "ro.sqlite3")
    await store.ensure_member(G, 1)
    # writes now fail with SQLITE_READONLY
    await store._call(lambda con: con.execute("PRAGMA query_only = ON"))
    caplog.set_level(logging.INFO, logger="bot.storage")
    with pytest.raises(DatabaseReadOnly) as info:
        await store.grant(G, 1, 10, "x", None)
    assert "read-only" in friendly(info.value) and "busy" not in friendly(info.value)
    assert any("write refused (read-only)" in r.getMessage() for r in caplog.records)
    await store.close()


async def test_busy_is_still_busy(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    store = await Store.open(path, busy_timeout_ms=50)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseBusy) as info:
            await store.ensure_member(G, 1)
        assert "busy" in friendly(info.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    await store.close()


async def test_refusals_of_the_game_are_logged_with_their_cause(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(tmp_path / "r.sqlite3")
    await store.ensure_member(G, 1)
    await store.ensure_member(G, 2)
    caplog.set_level(logging.INFO, logger="bot.storage")
    from bot.storage import Move

    with pytest.raises(InsufficientChips):
        await store.apply_transfers([Move(member_account(G, 1), member_account(G, 2), 10**6, "x")])
    assert any("write refused (InsufficientChips)" in r.getMessage() for r in caplog.records), (
        caplog.text
    )
    await store.close()


async def test_corrupt_database_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "corrupt.sqlite3"
    db.write_bytes(b"this is not a database, it only has a name like one\n" * 200)
    with pytest.raises(DatabaseCorrupt):
        await Store.open(db)
    run = run_bot([], db)
    assert run.returncode == 3
    line = one_error_line(run)
    assert "corrupt" in line and str(db) in line


async def test_damaged_pages_are_reported_as_corrupt(tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite3"
    store = await Store.open(db)
    for user in range(1, 400):
        await store.ensure_member(G, user)
    await store.close()
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    raw = bytearray(db.read_bytes())
    for offset in range(4096 * 2, len(raw), 4096):  # scribble over every page but the first
        raw[offset : offset + 200] = b"\xff" * 200
    db.write_bytes(bytes(raw))
    try:
        store = await Store.open(db)
    except DatabaseCorrupt:
        return
    try:
        report = await audit(store)
    except DatabaseCorrupt:
        pass  # reported as damaged, not as busy
    else:
        assert not report.ok and "integrity" in report.summary()
    finally:
        await store.close()


async def test_read_only_database_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "ro.sqlite3"
    store = await Store.open(db)
    await store.ensure_member(G, 1)
    await store.close()
    os.chmod(db, 0o444)
    try:
        with pytest.raises(DatabaseReadOnly):
            await Store.open(db)
        run = run_bot([], db)
        assert run.returncode == 3
        line = one_error_line(run)
        assert "read-only" in line and str(db) in line
        # the audit only reads: it still works on a read-only database
        audit_run = run_bot(["audit", "--db", str(db)], db)
        assert audit_run.returncode == 0, audit_run.stdout + audit_run.stderr
    finally:
        os.chmod(db, 0o644)


FILE_SIZE_LIMIT = """
import asyncio, logging, os, resource, sys
from bot.errors import friendly
from bot.storage import Store, StorageError

async def main(db: str) -> None:
    store = await Store.open(db)
    await store.ensure_member(1, 1)
    sizes = [os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p)]
    limit = max(sizes) + 40_000
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    try:
        for user in range(2, 5000):  # each new member writes new pages into the log
            await store.ensure_member(1, user)
    except StorageError as exc:
        print(type(exc).__name__)
        print(friendly(exc))
    else:
        print("no error")
    await store.close()

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
asyncio.run(main(sys.argv[1]))
"""


def test_a_file_size_limit_is_reported_as_a_full_disk(tmp_path: Path) -> None:
    """``ulimit -f`` (EFBIG: SQLite says SQLITE_IOERR_WRITE) used to be "busy or
    unavailable, try again"; it is named as a full disk, as SQLITE_FULL is."""
    import subprocess
    import sys

    from tests.bot.cli_helpers import REPO

    run = subprocess.run(
        [sys.executable, "-c", FILE_SIZE_LIMIT, str(tmp_path / "limited.sqlite3")],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    out = run.stdout.splitlines()
    assert run.returncode == 0 and len(out) == 2, run
    kind, text = out
    assert kind == "DatabaseFull", run
    assert "disk is full" in text and "busy" not in text
    assert "write refused (disk full)" in run.stderr and "file size limit" in run.stderr, run.stderr


def chmod_tree(folder: Path, mode: int) -> None:
    for path in [folder, *folder.iterdir()]:
        os.chmod(path, mode if path.is_file() else mode | 0o111)


@pytest.mark.parametrize("made_read_only", ["file", "folder"])
@pytest.mark.parametrize("noticed_by", ["write", "watch"])
async def test_a_database_made_read_only_while_running_is_named_read_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, made_read_only: str, noticed_by: str
) -> None:
    """``chmod a-w`` on the database (or its folder) while the bot ran: the ctime change
    tripped the "overwritten in place" check (member and log told the database was
    replaced; the WAL rename then died with PermissionError). Now it is named read-only,
    the bot is told to stop (exit 3) and nothing more is written, not even by root."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "ro.sqlite3"
    store = await Store.open(db)
    told: list[Exception] = []
    store.on_fatal = told.append
    await store.ensure_member(G, 1)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    os.chmod(
        folder if made_read_only == "folder" else db, 0o555 if made_read_only == "folder" else 0o444
    )
    caplog.set_level(logging.INFO, logger="bot.storage")
    try:
        if noticed_by == "watch":
            with pytest.raises(DatabaseReadOnly):
                await store.check_written_elsewhere()
        with pytest.raises(DatabaseReadOnly) as info:
            await store.grant(G, 1, 10, "x", None)
        text = friendly(info.value)
        assert "read-only" in text and "replaced" not in text and "disappeared" not in text
        assert "read-only" in str(info.value) and "overwritten" not in str(info.value)
        assert info.value.fatal and len(told) == 1
        assert any("write refused (read-only)" in r.getMessage() for r in caplog.records)
        assert not any("overwritten" in r.getMessage() for r in caplog.records), caplog.text
        await store.close()
        after = {p.name: p.read_bytes() for p in folder.iterdir()}
        assert after == before  # nothing written, the log left for the next start
    finally:
        os.chmod(folder, 0o755)
        os.chmod(db, 0o644)
    again = await Store.open(db)  # writable again: every committed chip is there
    assert await again.member_balance(G, 1) == 1000
    await again.close()


async def test_a_permission_change_that_keeps_it_writable_is_not_an_overwrite(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    await store.ensure_member(G, 1)
    os.chmod(db, 0o600)  # the inode changes, the contents do not
    os.link(db, tmp_path / "hard-link.sqlite3")
    await store.check_written_elsewhere()
    await store.ensure_member(G, 2)
    await store.close()


def test_a_read_only_folder_at_start_is_one_line_as_an_unprivileged_user(
    tmp_path: Path,
) -> None:
    """Restarting in a read-only folder gave a traceback on ``.lock`` and exit 1. Run
    as 'nobody', since root ignores the permissions."""
    from tests.bot.cli_helpers import nobody_python, run_bot_as_nobody

    how = nobody_python()
    if isinstance(how, str):
        pytest.skip(how)
    import shutil
    import tempfile

    _, uid, gid, _ = how
    # pytest's tmp_path is in root's private folder: 'nobody' needs a way in
    folder = Path(tempfile.mkdtemp(prefix="ro-folder-")) / "data"
    try:
        folder.mkdir()
        os.chmod(folder.parent, 0o755)
        os.chown(folder, uid, gid)
        db = folder / "bot.sqlite3"
        first = run_bot_as_nobody(["init"], db, how)
        assert first.returncode == 0, first
        for lock_left in (True, False):
            if not lock_left:
                for lock in folder.glob("*.lock"):
                    lock.unlink()
            chmod_tree(folder, 0o444)
            try:
                run = run_bot_as_nobody([], db, how)
            finally:
                chmod_tree(folder, 0o644)
            assert run.returncode == 3, run
            line = one_error_line(run)
            assert "read-only" in line and str(folder) in line, line
    finally:
        shutil.rmtree(folder.parent)


async def test_a_lock_file_that_cannot_be_created_is_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same refusal seen from inside (as root the folder's mode does not stop the
    lock file): a PermissionError creating ``<database>.lock`` is DatabaseReadOnly."""
    from bot.storage.lock import ProcessLock

    real_open = os.open

    def refused(path: object, *args: object, **kw: object) -> int:
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(DatabaseReadOnly) as info:
        ProcessLock.acquire(tmp_path / "bot.sqlite3")
    assert "read-only" in str(info.value) and ".lock" in str(info.value)
