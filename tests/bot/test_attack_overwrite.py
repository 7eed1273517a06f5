"""An attack replayed with other parameters: the database replaced by a copy IN PLACE while the bot runs (``cp backup.sqlite3 pontoon.sqlite3``: same inode, so
the deleted/renamed-file check does not see it).

Before the fix the store kept "succeeding" on top of the copy, and the write-ahead log
was later checkpointed over it: "database disk image is malformed". Now the next write
(or the periodic watch) refuses, the bot is told to stop, and the copy is left exactly
as written (the process's log is moved aside, never replayed into it).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import DatabaseGone, Store

G = 1

CHECK = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(con.execute("PRAGMA integrity_check").fetchone()[0])
print(con.execute("SELECT COUNT(*) FROM members").fetchone()[0])
"""


def integrity_and_members(db: Path) -> tuple[str, int]:
    """Read the file from a fresh process, as the next start of the bot would."""
    out = subprocess.run(
        [sys.executable, "-c", CHECK, str(db)], capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], int(out[1])


def overwrite_in_place(src: Path, dest: Path, *, same_size: bool) -> None:
    data = src.read_bytes()
    size = dest.stat().st_size
    if same_size:  # pad the copy to the live file's size (free pages at the end)
        assert len(data) <= size
        data += b"\0" * (size - len(data))
    with dest.open("r+b") as f:
        f.write(data)
        f.truncate(len(data))


@pytest.mark.parametrize("same_size", [True, False], ids=["same-size", "other-size"])
@pytest.mark.parametrize("noticed_by", ["write", "watch"])
async def test_database_overwritten_in_place_stops_writes_and_keeps_the_copy(
    tmp_path: Path, same_size: bool, noticed_by: str
) -> None:
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    fatal: list[DatabaseGone] = []
    store.on_fatal = fatal.append
    for uid in range(1, 40):
        await store.ensure_member(G, uid)
    copy = await store.backup(tmp_path / "copy.sqlite3")
    for uid in range(40, 300):
        await store.ensure_member(G, uid)
    overwrite_in_place(copy, db, same_size=same_size)
    if noticed_by == "watch":
        with pytest.raises(DatabaseGone):
            await store.check_written_elsewhere()
    with pytest.raises(DatabaseGone) as info:
        await store.ensure_member(G, 999)
    assert "overwritten in place" in str(info.value)
    assert len(fatal) == 1
    await store.close()
    # the next start sees the copy, whole: 39 members, not a mix of two databases
    assert integrity_and_members(db) == ("ok", 39)
    assert Path(f"{db}-wal.overwritten").exists()


async def test_own_writes_and_backups_are_not_taken_for_an_overwrite(tmp_path: Path) -> None:
    """The check must never stop a healthy bot: many writes (with checkpoints into the
    file), backups and a second reader in between."""
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    reader = await Store.open(db, migrate_schema=False)
    for uid in range(1, 1500):
        await store.ensure_member(G, uid)
        if uid % 300 == 0:
            await store.backup(tmp_path / f"b{uid}.sqlite3")
            await store.check_written_elsewhere()
            assert await reader.member_balance(G, uid) == 1000
    await store.check_written_elsewhere()
    await reader.close()
    await store.close()
    assert integrity_and_members(db) == ("ok", 1499)
