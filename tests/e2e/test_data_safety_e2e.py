"""Data safety against the real bot process and the fake Discord:

* SIGINT (Ctrl-C) and SIGTERM stop the bot cleanly: exit 0, no traceback, the open table
  saved and reloaded by the next start.
* A second bot on the same database is refused while the first runs, and starts once
  the first was SIGKILLed (the OS released its lock).
* The database file deleted while the bot runs: the bot notices, logs one clear line and
  exits non-zero; the restart refuses to start a fresh, empty ledger.
* A token Discord refuses and an unreachable Discord each give one line and a non-zero
  exit, not a traceback.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from localdiscord import FakeDiscord
from tests.bot.cli_helpers import one_error_line, run_bot
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import BOT_ARGS, Table, bot_env, start

pytestmark = pytest.mark.e2e


def open_tables(db: Path) -> list[tuple[str, int]]:
    con = sqlite3.connect(db)
    try:
        return [
            (str(r[0]), int(r[1]))
            for r in con.execute("SELECT id, version FROM game_tables WHERE status = 'open'")
        ]
    finally:
        con.close()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_signals_stop_the_bot_cleanly(
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
    signum: signal.Signals,
) -> None:
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    saved = open_tables(db)
    assert len(saved) == 1
    bot.proc.send_signal(signum)
    code = await asyncio.wait_for(bot.proc.wait(), 20)
    out = bot.output()
    assert code == 0, out
    assert "Traceback" not in out, out
    assert "stopped cleanly" in out
    assert open_tables(db) == saved
    again = await start(start_bot_process, db)
    assert "reloaded 1 open table" in again.output()


async def test_second_bot_refused_until_the_first_is_killed(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    first = await start(start_bot_process, db)
    second = await asyncio.create_subprocess_exec(
        *[sys.executable if a == "python" else a for a in BOT_ARGS],
        env={**__import__("os").environ, **fake_discord.bot_env(), **bot_env(db)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(second.communicate(), 30)
    text = out.decode()
    assert second.returncode == 3, text
    assert "in use by another bot process" in text and f"pid {first.pid}" in text
    assert "Traceback" not in text
    first.proc.kill()  # SIGKILL: no chance to release anything itself
    await first.proc.wait()
    await start(start_bot_process, db)  # the OS released the lock


@pytest.mark.expect_error(r"was deleted while the bot was running")
async def test_database_deleted_while_running(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    db.unlink()
    code = await asyncio.wait_for(bot.proc.wait(), 20)
    out = bot.output()
    assert code == 3, out
    assert f"the database file {db} was deleted while the bot was running" in out
    # the restart refuses a fresh ledger where the bot has run before
    run = run_bot([], db)
    assert run.returncode == 3
    assert "missing" in one_error_line(run)


@pytest.mark.expect_error(
    r"renamed or deleted while the bot was running", r"copied this process's write-ahead log"
)
async def test_folder_deleted_the_member_is_answered_then_the_bot_stops_cleanly(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """The database's folder deleted under the running bot, then an admin grants chips:
    the grant is refused to the admin privately (nothing written), and only then does the
    bot stop (exit 3) with one clear line and no traceback. It used to close its HTTP
    session under the answer: the admin saw "interaction failed" and the log showed
    ``RuntimeError: Session is closed`` and "Task exception was never retrieved"."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "db.sqlite3"
    bot = await start(start_bot_process, db)
    r = await fake_discord.slash(world.carol, world.channel, "balance")
    assert "1,000" in r.all_text, r.all_text  # carol has an account
    shutil.rmtree(folder)
    r = await fake_discord.slash(
        world.alice, world.channel, "chips", "grant", {"member": world.carol, "amount": 500}
    )
    await fake_discord.wait_until(lambda: r.answered, 10)
    assert r.ephemeral and r.user.id == world.alice.user.id, r.all_text
    assert "nothing was changed" in r.all_text and "Granted" not in r.all_text, r.all_text
    code = await asyncio.wait_for(bot.proc.wait(), 20)
    out = bot.output()
    assert code == 3, out
    assert "Traceback" not in out, out
    assert "Session is closed" not in out and "never retrieved" not in out, out
    assert "stopping:" in out and "deleted" in out, out


@pytest.mark.expect_error(r"write-ahead log \S+ was deleted while the bot was running")
async def test_write_ahead_log_deleted_while_running(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """``rm db-wal db-shm`` while the bot runs used to lose the whole
    ledger (the bot went on answering). Now it stops (exit 3), and what it had
    committed is in the database file: the restart reloads the open table."""
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    Path(f"{db}-wal").unlink()
    Path(f"{db}-shm").unlink()
    code = await asyncio.wait_for(bot.proc.wait(), 20)
    out = bot.output()
    assert code == 3, out
    assert "Traceback" not in out, out
    assert f"the database's write-ahead log {db}-wal was deleted" in out, out
    assert len(open_tables(db)) == 1  # the table and its seat are in the file itself
    again = await start(start_bot_process, db)
    assert "reloaded 1 open table" in again.output()


@pytest.mark.expect_error(r"read-only")
async def test_database_made_read_only_while_running(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """``chmod a-w`` on the database while the bot runs was reported
    as a database replaced, then a PermissionError traceback. Now: named read-only,
    exit 3, nothing written."""
    import os

    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    before = db.read_bytes()
    os.chmod(db, 0o444)
    try:
        code = await asyncio.wait_for(bot.proc.wait(), 20)
        out = bot.output()
        assert code == 3, out
        assert "Traceback" not in out, out
        assert "read-only" in out and "overwritten" not in out and "replaced" not in out, out
        assert db.read_bytes() == before
    finally:
        os.chmod(db, 0o644)


@pytest.fixture
async def refusing_discord() -> AsyncIterator[str]:
    """A Discord API that refuses every token (401 on /users/@me)."""

    async def unauthorized(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


async def test_bad_token_is_one_line(refusing_discord: str, tmp_path: Path) -> None:
    run = await asyncio.to_thread(
        run_bot, [], tmp_path / "db.sqlite3", DISCORD_API_BASE=refusing_discord
    )
    assert run.returncode == 4, run.stderr
    line = one_error_line(run)
    assert "Discord refused the bot token" in line


def test_unreachable_discord_is_one_line(tmp_path: Path) -> None:
    run = run_bot([], tmp_path / "db.sqlite3")  # the API base points at a closed port
    assert run.returncode == 5, run.stderr
    line = one_error_line(run)
    assert "cannot reach Discord at http://127.0.0.1:9/api/v10" in line


def test_help_and_usage(tmp_path: Path) -> None:
    run = run_bot(["--help"], tmp_path / "db.sqlite3")
    assert run.returncode == 0 and "python -m bot restore FILE" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "bot", "audit", "--nope"], capture_output=True, text=True
    )
    assert bad.returncode == 2


async def test_a_refused_command_upload_is_not_called_unreachable(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord answering 400 to the slash-command upload is Discord refusing our request,
    not a network fault: one line that says so, exit 1 (not 5, "cannot reach")."""
    fake_discord.inject_fault(
        "re:/applications/[0-9]+/commands",
        method="PUT",
        status=400,
        body={"code": 50035, "message": "Invalid Form Body"},
    )
    run = await asyncio.to_thread(
        run_bot, [], tmp_path / "db.sqlite3", timeout=60, **fake_discord.bot_env()
    )
    assert run.returncode == 1, run.stderr
    line = one_error_line(run)
    assert "refused a start-up request" in line and "cannot reach" not in line, line
