"""Run ``python -m bot ...`` as the operator would, isolated from any .env."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def bot_env(db: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BACKUP_", "DATABASE_"))
    }
    env.update(
        DATABASE_PATH=str(db),
        DISCORD_TOKEN="not-a-real-token",
        # nothing listens there: a bot that got past its start checks fails to connect
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway",
        BACKUP_DIR=str(db.parent / "backups"),
        PYTHONPATH=str(REPO),
    )
    env.update(extra)
    return env


def run_bot(
    args: list[str], db: Path, timeout: float = 60, **extra: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=bot_env(db, **extra),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING) ")


def one_error_line(run: subprocess.CompletedProcess[str]) -> str:
    """The single ``error:`` line a refused start prints; besides it only ordinary log
    lines of the start-up (INFO/WARNING), never a traceback or an ERROR log."""
    out = (run.stdout + run.stderr).strip()
    assert "Traceback" not in out, out
    lines = [line for line in out.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, out
    assert all(line in errors or LOG_LINE.match(line) for line in lines), out
    return errors[0]


@contextmanager
def process_holding_lock(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the bot's process lock on ``db`` (as a running bot
    does) until the block ends; yields it once it holds the lock."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from bot.storage.lock import ProcessLock\n"
            "ProcessLock.acquire(sys.argv[1])\n"
            "print('held', flush=True)\n"
            "time.sleep(120)\n",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def nobody_python() -> tuple[str, int, int, str] | str:
    """(python, uid, gid, site-packages) to run the bot as the unprivileged user
    'nobody' (root ignores file permissions, so a read-only folder can only be tried
    without root), or the reason it cannot be done here."""
    import pwd
    import sysconfig

    if os.geteuid() != 0:
        return "needs root to switch to 'nobody'"
    try:
        who = pwd.getpwnam("nobody")
    except KeyError:
        return "no user 'nobody'"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    python = f"/usr/bin/{version}"
    if not os.access(python, os.X_OK):
        return f"no {python} that 'nobody' can run (this one may be in a private folder)"
    site = sysconfig.get_paths()["purelib"]
    probe = subprocess.run(
        [python, "-c", "import aiosqlite, pydantic, discord, bot.storage"],
        env={"PYTHONPATH": f"{REPO}:{site}", "PATH": "/usr/bin:/bin"},
        cwd="/",
        user=who.pw_uid,
        group=who.pw_gid,
        extra_groups=[],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return f"'nobody' cannot import the bot with {python}: {probe.stderr.strip()[-200:]}"
    return python, who.pw_uid, who.pw_gid, site


def run_bot_as_nobody(
    args: list[str],
    db: Path,
    how: tuple[str, int, int, str],
    timeout: float = 60,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    python, uid, gid, site = how
    env = bot_env(db)
    env["PYTHONPATH"] = f"{REPO}:{site}"
    return subprocess.run(
        [python, "-m", "bot", *args],
        env=env,
        # a working folder of its own, beside the data folder: never the checkout, whose
        # .env (made 600 by root with the README's first command) 'nobody' cannot read
        cwd=cwd or db.parent.parent,
        user=uid,
        group=gid,
        extra_groups=[],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
