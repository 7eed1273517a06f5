"""Issue 10 item 4: no silent fresh starts, and backups.

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
from bot.storage import DatabaseGone, Store
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
