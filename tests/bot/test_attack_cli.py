"""Attacks on the operator's commands, replayed with other parameters.

Each test runs ``python -m bot ...`` as an operator would and fails on the code before
the fix that it names.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.cli_helpers import one_error_line, run_bot


@pytest.mark.parametrize("command", [["audit"], ["backup"], ["init"], []])
def test_a_directory_at_database_path_is_one_error_line_for_every_command(
    tmp_path: Path, command: list[str]
) -> None:
    """DATABASE_PATH naming a directory: `audit` used to die with a pydantic traceback
    (exit 1); every command now reads its settings through one loader."""
    folder = tmp_path / "data"
    folder.mkdir()
    run = run_bot(command, folder)
    assert run.returncode == 2, run
    line = one_error_line(run)
    assert "DATABASE_PATH" in line and "directory" in line, line
    assert list(folder.iterdir()) == []  # nothing created inside it


HOLD = (
    "import sys, time\n"
    "from bot.storage.lock import ProcessLock\n"
    "ProcessLock.acquire(sys.argv[1])\n"
    "print('held', flush=True)\n"
    "time.sleep(60)\n"
)


@pytest.mark.parametrize("spelling", ["hard link", "symlink", "relative path, other cwd"])
def test_a_second_bot_on_another_name_of_the_same_database_is_refused(
    tmp_path: Path, spelling: str
) -> None:
    """Bot A holds data/bot.sqlite3; bot B is started on another name of that file. A
    hard link used to get its own sidecar lock and start (two writers on one ledger):
    the database file itself is now locked too."""
    import os
    import subprocess
    import sys

    from tests.bot.cli_helpers import REPO, bot_env

    data = tmp_path / "data"
    data.mkdir()
    db = data / "bot.sqlite3"
    assert run_bot(["init"], db).returncode == 0
    other = tmp_path / "elsewhere"
    other.mkdir()
    cwd = REPO
    if spelling == "hard link":
        name = other / "same.sqlite3"
        os.link(db, name)
    elif spelling == "symlink":
        name = other / "same.sqlite3"
        name.symlink_to(db)
    else:
        # a relative DATABASE_PATH is taken from the working folder
        name, cwd = Path(os.path.relpath(db, other)), other
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=bot_env(db),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for args in ([], ["restore", str(db)]):
            second = subprocess.run(
                [sys.executable, "-m", "bot", *args],
                env=bot_env(name),
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 3, second
            line = one_error_line(second)
            assert "in use by another bot process" in line, line
    finally:
        holder.kill()
        holder.wait()


TAMPERS = {
    # caught before: the totals do not add up
    "balance raised": "UPDATE accounts SET balance = balance + 500 WHERE user_id = 3",
    # one member's account (and chips) handed to another member (totals agree)
    "account handed over": "UPDATE members SET user_id = 99 WHERE user_id = 5",
    # the append-only trigger dropped, then a grant's recipient rewritten (totals agree)
    "ledger rewritten": "DROP TRIGGER transfers_no_update; "
    "UPDATE transfers SET dst = 'member:1:4' WHERE dst = 'member:1:3'; "
    "UPDATE accounts SET balance = 0 WHERE user_id = 3; "
    "UPDATE accounts SET balance = 2000 WHERE user_id = 4",
    "table dropped": "DROP TABLE chips_in_play",
}


@pytest.mark.parametrize("tamper", list(TAMPERS))
def test_restore_of_a_tampered_backup_is_refused(tmp_path: Path, tamper: str) -> None:
    """`restore` audits the backup first. A backup whose members row hands one member's
    account to another, or with
    its append-only trigger dropped and the ledger rewritten, used to pass the audit and
    be restored; a dropped table crashed `restore` and `audit` with a traceback."""
    import asyncio
    import sqlite3

    from bot.storage import Store

    db = tmp_path / "bot.sqlite3"

    async def fill() -> None:
        store = await Store.open(db)
        for uid in range(1, 10):
            await store.ensure_member(1, uid)
        await store.close()

    asyncio.run(fill())
    backup = tmp_path / "backup.sqlite3"
    assert run_bot(["backup", "--to", str(backup)], db).returncode == 0
    con = sqlite3.connect(backup)
    con.executescript(TAMPERS[tamper])
    con.commit()
    con.close()
    before = db.read_bytes()
    audit_run = run_bot(["audit", "--db", str(backup)], db)
    assert audit_run.returncode in (1, 2), audit_run
    assert "Traceback" not in audit_run.stdout + audit_run.stderr, audit_run
    run = run_bot(["restore", str(backup)], db)
    assert run.returncode == 1, run
    assert "Traceback" not in run.stdout + run.stderr, run
    assert "restore refused, nothing changed" in run.stderr.strip().splitlines()[-1], run
    assert db.read_bytes() == before


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """A Discord endpoint that accepts connections and never answers."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


def test_a_silent_endpoint_is_given_up_on_with_one_line(
    tmp_path: Path, silent_endpoint: str
) -> None:
    """An endpoint that accepts but never answers used to hang the start for ever."""
    run = run_bot(
        [],
        tmp_path / "bot.sqlite3",
        DISCORD_API_BASE=f"http://{silent_endpoint}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://{silent_endpoint}/gateway",
        DISCORD_LOGIN_TIMEOUT_SECONDS="1",
    )
    assert run.returncode == 5, run
    assert "no answer to the login in 1 s" in one_error_line(run)


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
def test_a_signal_during_the_login_stops_cleanly(
    tmp_path: Path, silent_endpoint: str, signum: str
) -> None:
    """Ctrl-C while the bot is still logging in (the gateway not ready) used to end with
    "the bot stopped on an unexpected error: ClientConnectionError" and exit 1."""
    import signal
    import subprocess
    import sys

    from tests.bot.cli_helpers import REPO, bot_env

    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        env=bot_env(
            tmp_path / "bot.sqlite3",
            DISCORD_API_BASE=f"http://{silent_endpoint}/api/v10",
            DISCORD_GATEWAY_URL=f"ws://{silent_endpoint}/gateway",
        ),
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        seen = []
        for line in proc.stderr:
            seen.append(line)
            if "logging in" in line:
                break
        proc.send_signal(getattr(signal, signum))
        rest = proc.stderr.read()
        assert proc.wait(timeout=30) == 0, "".join(seen) + rest
    finally:
        proc.kill()
        proc.wait()
    assert "Traceback" not in rest and "error:" not in rest, rest
    assert "stopped cleanly" in rest, rest


def open_files(pid: int) -> set[str]:
    fds = Path(f"/proc/{pid}/fd")
    found = set()
    for fd in fds.iterdir() if fds.exists() else []:
        try:
            found.add(os.readlink(fd))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGINT"])
def test_a_signal_early_in_the_start_up_stops_cleanly(tmp_path: Path, signum: str) -> None:
    """SIGTERM in the first half second of start-up (before the bot's loop handled
    signals) ended the process by the signal (status -15), with no "stopped cleanly".
    Here the start-up is held where it opens the database (another connection holds
    it exclusively, so the bot's first read waits), the signal arrives then, and the
    start goes on only to stop: exit 0, "stopped cleanly", no traceback."""
    import asyncio
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    from bot.storage import Store
    from tests.bot.cli_helpers import REPO, bot_env

    db = tmp_path / "bot.sqlite3"

    async def make() -> None:
        store = await Store.open(db)
        await store.ensure_member(1, 1)
        await store.close()

    asyncio.run(make())
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")
    holder.execute("BEGIN EXCLUSIVE")  # the bot's first read waits for this
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        env=bot_env(db),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while str(db) not in open_files(proc.pid):  # the start-up is at the database
            assert proc.poll() is None and time.monotonic() < deadline, proc.poll()
            time.sleep(0.01)
        proc.send_signal(getattr(signal, signum))
        holder.execute("ROLLBACK")
        holder.close()
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "error:" not in out, out
    assert "stopped cleanly" in out, out
