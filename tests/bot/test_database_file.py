"""No silent fresh starts, and backups.

* The store notices its database file deleted, replaced or emptied while running: the
  write is refused (DatabaseGone), ``on_fatal`` is told once, and every later write too.
* At start, a database that is missing or empty where the bot has run before is refused
  (one line, non-zero) until the operator runs ``python -m bot init`` or restores one.
* ``python -m bot backup`` writes an online backup (rotated to BACKUP_KEEP), the bot
  writes them on a schedule, and ``python -m bot restore FILE`` audits FILE first,
  refuses a failing one or a database in use, and otherwise puts it in place.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import backup_loop
from bot.audit import audit
from bot.settings import Settings
from bot.storage import DatabaseGone, StorageError, Store
from bot.storage.files import marker_path
from tests.bot.cli_helpers import one_error_line, process_holding_lock, run_bot

G = 1


async def make_db(path: Path, grants: dict[int, int]) -> None:
    store = await Store.open(path)
    for user, amount in grants.items():
        await store.ensure_member(G, user)
        await store.grant(G, user, amount, "test", None)
    await store.close()


@pytest.mark.parametrize("how", ["deleted", "replaced", "emptied"])
async def test_a_vanished_database_stops_every_write(tmp_path: Path, how: str) -> None:
    db = tmp_path / "live.sqlite3"
    store = await Store.open(db)
    told: list[DatabaseGone] = []
    store.on_fatal = told.append
    await store.ensure_member(G, 5)
    if how == "deleted":
        db.unlink()
    elif how == "replaced":
        other = tmp_path / "other.sqlite3"
        await make_db(other, {})
        os.replace(other, db)
    else:
        os.truncate(db, 0)
    with pytest.raises(DatabaseGone) as info:
        await store.grant(G, 5, 100, "after the loss", None)
    assert how in str(info.value) or "was" in str(info.value)
    assert len(told) == 1
    with pytest.raises(DatabaseGone):  # and it stays refused, without telling again
        await store.ensure_member(G, 6)
    assert len(told) == 1
    await store.close()


async def test_refuses_a_missing_database_where_it_has_run(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_db(db, {5: 5007})
    marker_path(db).write_text("{}\n")  # the bot ran here
    for path in tmp_path.glob("bot.sqlite3*"):  # rm data/bot.sqlite3*
        path.unlink()
    for path in tmp_path.glob("*"):  # rm data/* (the shell's * skips hidden files)
        if not path.name.startswith("."):
            path.unlink()
    assert marker_path(db).exists()
    run = run_bot([], db)
    assert run.returncode == 3
    line = one_error_line(run)
    assert "missing" in line and "python -m bot init" in line and "restore" in line
    assert not db.exists()  # nothing was created


def test_refuses_an_empty_database_file(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    db.write_bytes(b"")
    run = run_bot([], db)
    assert run.returncode == 3
    assert "0-byte" in one_error_line(run)
    assert db.stat().st_size == 0  # not silently initialised


def test_init_creates_on_purpose_and_never_wipes(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    db.write_bytes(b"")
    marker_path(db).write_text("{}\n")
    made = run_bot(["init"], db)
    assert made.returncode == 0, made.stderr
    assert db.stat().st_size > 0 and marker_path(db).exists()
    again = run_bot(["init"], db)  # a database with data is never wiped by init
    assert again.returncode == 3
    assert "already exists" in one_error_line(again)


async def test_backup_restore_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_db(db, {5: 5007})
    backups = tmp_path / "backups"
    for _ in range(3):
        run = run_bot(["backup"], db, BACKUP_KEEP="2")
        assert run.returncode == 0, run.stderr
    kept = sorted(backups.glob("pontoon-*.sqlite3"))
    assert len(kept) == 2  # rotation
    # the database then loses its data
    store = await Store.open(db)
    await store.grant(G, 5, 1, "after the backup", None)
    await store.close()
    restored = run_bot(["restore", str(kept[-1])], db)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    store = await Store.open(db)
    assert await store.member_balance(G, 5) == 1000 + 5007
    assert (await audit(store)).ok
    await store.close()


async def test_restore_refuses_a_backup_that_fails_the_audit(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_db(db, {5: 100})
    bad = tmp_path / "bad.sqlite3"
    await make_db(bad, {5: 100})
    con = sqlite3.connect(bad)
    con.execute("UPDATE accounts SET balance = balance + 1000 WHERE kind = 'member'")
    con.commit()
    con.close()
    before = db.read_bytes()
    run = run_bot(["restore", str(bad)], db)
    assert run.returncode == 1
    assert "failed the audit" in run.stderr and "PROBLEM" in run.stdout
    assert db.read_bytes() == before


async def test_restore_refuses_while_a_bot_holds_the_database(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_db(db, {5: 100})
    good = tmp_path / "good.sqlite3"
    await make_db(good, {5: 300})
    with process_holding_lock(db):
        run = run_bot(["restore", str(good)], db)
        assert run.returncode == 3
        assert "in use by another bot process" in one_error_line(run)
    store = await Store.open(db)
    assert await store.member_balance(G, 5) == 1100
    await store.close()


async def test_scheduled_backups_rotate(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    await make_db(db, {5: 10})
    backups = tmp_path / "scheduled"
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_path=db,
        backup_dir=backups,
        backup_interval_minutes=0.004,  # 0.24 s
        backup_keep=2,
    )
    store = await Store.open(db)
    task = asyncio.create_task(backup_loop(settings, store))
    await asyncio.sleep(1.5)
    task.cancel()
    await store.close()
    kept = sorted(backups.glob("pontoon-*.sqlite3"))
    assert len(kept) == 2
    check = await Store.open(kept[-1], migrate_schema=False)
    assert await check.member_balance(G, 5) == 1010
    assert (await audit(check)).ok
    await check.close()


def test_unknown_command_is_an_error(tmp_path: Path) -> None:
    run = run_bot(["serve-please"], tmp_path / "bot.sqlite3")
    assert run.returncode == 2
    assert "unknown command" in run.stderr and "usage:" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "bot.sqlite3").exists()


def members_in(db: Path) -> int:
    """What the next start would find: the members in the file (a fresh connection)."""
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT COUNT(*) FROM members").fetchone()[0])
    finally:
        con.close()


LOSSES = {
    # SQLite's own files taken away under the running bot
    "wal and shm deleted": ("-wal", "-shm"),
    "wal deleted": ("-wal",),
    "shm deleted": ("-shm",),
    "wal replaced": ("-wal",),
    "journal appeared": ("-journal",),
    "folder renamed": (),
}


@pytest.mark.parametrize("noticed_by", ["write", "watch"])
@pytest.mark.parametrize("how", list(LOSSES))
async def test_sqlites_own_files_taken_away_stop_every_write(
    tmp_path: Path, how: str, noticed_by: str
) -> None:
    """Deleting the -wal and -shm files while the bot ran lost the whole ledger: writes
    went on "succeeding" into a log nobody else could see, a reader saw an empty
    database and after a crash the file had no tables. Now the loss is noticed like a
    deleted database (the write refused, ``on_fatal`` told once), and what this
    process's log holds is written into the database file before it stops."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "live.sqlite3"
    store = await Store.open(db)
    told: list[StorageError] = []
    store.on_fatal = told.append
    for uid in range(1, 30):
        await store.ensure_member(G, uid)
    if how == "folder renamed":
        folder.rename(tmp_path / "moved")
        db = tmp_path / "moved" / "live.sqlite3"
    for suffix in LOSSES[how]:
        side = Path(f"{db}{suffix}")
        if how == "wal replaced":
            side.unlink()
            side.write_bytes(b"\0" * 4096)
        elif how == "journal appeared":
            side.write_bytes(b"\0" * 512)
        else:
            side.unlink()
    if noticed_by == "watch":
        with pytest.raises(DatabaseGone):
            await store.check_written_elsewhere()
    with pytest.raises(DatabaseGone) as info:
        await store.ensure_member(G, 999)
    text = str(info.value)
    if how == "folder renamed":
        assert "folder" in text and "renamed or deleted" in text, text
    elif how == "journal appeared":
        assert f"{db}-journal" in text and "appeared" in text, text
    else:
        assert f"{db}{LOSSES[how][0]}" in text, text
        assert ("replaced" if how == "wal replaced" else "deleted") in text, text
    assert len(told) == 1
    with pytest.raises(DatabaseGone):
        await store.ensure_member(G, 1000)
    await store.close()
    for suffix in ("-wal", "-shm", "-journal"):  # as an operator cleaning up would
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    assert members_in(db) == 29  # every member written before the loss is in the file


async def test_own_checkpoints_and_readers_are_not_taken_for_a_loss(tmp_path: Path) -> None:
    """The new checks never stop a healthy bot: checkpoints (the log restarts), a second
    connection and backups."""
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    reader = await Store.open(db, migrate_schema=False)
    await store._call(lambda con: con.execute("PRAGMA wal_autocheckpoint = 20"))
    for uid in range(1, 1200):
        await store.ensure_member(G, uid)
        if uid % 400 == 0:
            await store.backup(tmp_path / f"b{uid}.sqlite3")
            assert await reader.member_balance(G, uid) == 1000
            await store.check_written_elsewhere()
    await reader.close()
    await store.close()
    assert members_in(db) == 1199


def test_refuses_a_used_database_whose_schema_is_empty(tmp_path: Path) -> None:
    """After the log was lost and the bot crashed, the file held no tables, and the next
    start ran every migration again and handed out fresh starting chips. A database the
    bot has run on whose schema is empty is refused like a 0-byte one."""
    db = tmp_path / "bot.sqlite3"
    con = sqlite3.connect(db)  # what was left: the WAL-mode header page, no tables
    con.execute("PRAGMA journal_mode = WAL")
    con.close()
    assert db.stat().st_size > 0
    marker_path(db).write_text("{}\n")
    before = db.read_bytes()
    run = run_bot([], db)
    assert run.returncode == 3
    line = one_error_line(run)
    assert "no tables" in line and "python -m bot restore" in line, line
    assert db.read_bytes() == before  # not migrated into a fresh ledger
    made = run_bot(["init"], db)  # starting over on purpose is still possible
    assert made.returncode == 0, made.stdout + made.stderr


class PendingAnswer:
    """An interaction whose answer is being written: done after ``after`` seconds (never
    when None)."""

    def __init__(self, interaction_id: int, after: float | None) -> None:
        self.id = interaction_id
        self.response = self
        self.done_at = None if after is None else asyncio.get_running_loop().time() + after

    def is_done(self) -> bool:
        return self.done_at is not None and asyncio.get_running_loop().time() >= self.done_at


async def test_a_stop_closes_the_http_session_only_after_the_answers_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A grant that ran into a deleted database is refused ("nothing was changed"), and
    the stop that refusal starts must not close the HTTP session under that answer: it
    did, so the member saw "interaction failed" and the log `Session is closed`. The
    bot's close() waits for the answers being written, never longer than Discord takes
    an answer."""
    from bot import app

    monkeypatch.setattr(app, "ANSWER_WINDOW_SECONDS", 1.0)
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    try:
        bot = app.make_bot(Settings(_env_file=None, database_path=db), store)
        answering = PendingAnswer(1, after=0.3)
        closed_with: list[bool] = []  # at the HTTP session's close: was the answer written?
        http_close = bot.http.close

        async def close_http() -> None:
            closed_with.append(answering.is_done())
            await http_close()

        bot.http.close = close_http  # type: ignore[method-assign]
        bot._note_unanswered(answering)  # type: ignore[arg-type]
        bot._note_unanswered(PendingAnswer(2, after=0.0))  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        start = loop.time()
        await bot.close()
        assert closed_with == [True]
        assert loop.time() - start < 0.9  # it waited for the answer, not the whole window

        # an answer that never comes holds the stop for the window only
        bot2 = app.make_bot(Settings(_env_file=None, database_path=db), store)
        bot2._note_unanswered(PendingAnswer(3, after=None))  # type: ignore[arg-type]
        start = loop.time()
        await bot2.close()
        assert 0.9 <= loop.time() - start < 3.0
    finally:
        await store.close()
