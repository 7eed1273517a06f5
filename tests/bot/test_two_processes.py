"""Two bots on one database.

* A second ``python -m bot`` on a database another process holds (an OS-level lock on
  ``<db>.lock``) exits non-zero at once with one clear line, before touching anything.
* The lock dies with its process: after a SIGKILL the next start gets it.
* Every table write checks the stored version, so a stale copy of a table (another
  connection that loaded it earlier) can neither save over nor close the live table.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.audit import audit
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.storage import StaleVersion, Store
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from tests.bot.cli_helpers import process_holding_lock

REPO = Path(__file__).resolve().parents[2]
G, CH = 1, 10
ANN, BOB, CAT = 100, 200, 300

HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(120)
"""


def bot_env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        DATABASE_PATH=str(db),
        DISCORD_TOKEN="not-a-real-token",
        # nothing listens there: if the bot got past the lock it would fail to connect
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway",
        PYTHONPATH=str(REPO),
    )
    return env


@pytest.fixture
def lock_holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    db = tmp_path / "bot.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, f"{db}.lock"], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    yield proc
    proc.kill()
    proc.wait()


def test_second_bot_on_the_same_database_is_refused(
    tmp_path: Path, lock_holder: subprocess.Popen[str]
) -> None:
    db = tmp_path / "bot.sqlite3"
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "bot"],
        env=bot_env(db),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode not in (0, None)
    assert time.monotonic() - started < 30
    out = (run.stdout + run.stderr).strip()
    assert "Traceback" not in out, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    assert "another bot process" in lines[0] and str(db) in lines[0], out


def test_the_lock_dies_with_its_process(tmp_path: Path) -> None:
    from bot.storage.lock import DatabaseInUse, ProcessLock

    db = tmp_path / "bot.sqlite3"
    with process_holding_lock(db) as holder:
        with pytest.raises(DatabaseInUse) as info:
            ProcessLock.acquire(db)
        assert str(holder.pid) in str(info.value)  # the operator's line; members read no pid
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        lock = ProcessLock.acquire(db)  # the OS released it with the killed process
        lock.release()


async def test_a_stale_copy_of_a_table_can_neither_save_nor_close(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    live_store = await Store.open(db)
    stale_store = await Store.open(db)
    try:
        live_svc = PontoonService(
            live_store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
        )
        table = await live_svc.open_table(G, CH, ANN, PontoonRules())
        await live_svc.act(table.table_id, BOB, ActionKind.JOIN)
        # a second service loads the table now: its copy goes stale with the next move
        stale_svc = PontoonService(
            stale_store, chance=RandomChance(random.Random(2)), timers=PontoonTimers(600, 600, 600)
        )
        await stale_svc.load()
        await live_svc.deal(table.table_id, ANN)
        assert table.engine.phase is Phase.BETTING
        bettor = int(table.engine.to_act()[0])
        await live_svc.act(table.table_id, bettor, ActionKind.BET, amount=5)
        rec = await live_store.get_table(table.table_id)
        assert rec is not None
        with pytest.raises(StaleVersion):
            await stale_svc.act(table.table_id, CAT, ActionKind.JOIN)
        with pytest.raises(StaleVersion):
            await stale_svc.close(table.table_id, Msg("reason.ended_by", name="alice"))
        after = await live_store.get_table(table.table_id)
        assert after == rec  # the live table is untouched, still open at its version
        assert await live_store.member_balance(G, bettor) == 995
        assert (await audit(live_store)).ok
        await stale_svc.shutdown()
        await live_svc.shutdown()
    finally:
        await stale_store.close()
        await live_store.close()


def test_a_deleted_lock_file_is_locked_afresh(tmp_path: Path) -> None:
    """``rm data/*`` while the bot runs removes its lock file; the bot's watcher locks
    the path again, so a second bot is still refused."""
    from bot.storage.lock import ProcessLock, lock_path

    db = tmp_path / "bot.sqlite3"
    lock = ProcessLock.acquire(db)
    try:
        lock_path(db).unlink()
        assert not ProcessLock.held_elsewhere(db)  # the gap the watcher closes
        lock.ensure()
        assert ProcessLock.held_elsewhere(db)
        lock.ensure()  # nothing to do the second time
        assert ProcessLock.held_elsewhere(db)
    finally:
        lock.release()
    assert not ProcessLock.held_elsewhere(db)
