"""Fixtures for end-to-end tests: a fake Discord and bots run as their own processes.

``fake_discord``       a started ``FakeDiscord`` on 127.0.0.1 (free port), stopped after the test
``start_bot_process``  ``await start_bot_process([sys.executable, "-m", "bot"], env={...})``
                       launches a bot pointed at the fake, waits until it IDENTIFYed and got
                       READY + every GUILD_CREATE, and returns a ``BotProcess``; every process
                       is killed at teardown (and by a hard timeout), and its output is
                       printed when the test failed.
``world``              a guild "Casino" with #pontoon and members alice (manage_guild), bob, carol
``minimal_bot``        the minimal bot (tests/e2e/minimal_bot.py) connected to the fake
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

import pytest

from localdiscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, RateLimits
from localdiscord.server import die_with_parent

REPO_ROOT = Path(__file__).resolve().parents[2]
MINIMAL_BOT_ARGS = [sys.executable, "-m", "tests.e2e.minimal_bot"]


@dataclass
class BotProcess:
    """A bot running as a subprocess; its stdout and stderr go to ``log_path``."""

    proc: asyncio.subprocess.Process
    args: list[str]
    log_path: Path
    started_at: float
    _log_file: IO[bytes]
    _watchdog: asyncio.TimerHandle | None = None
    killed_by_watchdog: bool = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def output(self) -> str:
        """Everything the bot printed so far (stdout and stderr)."""
        with contextlib.suppress(OSError, ValueError):
            self._log_file.flush()
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def _hard_kill(self) -> None:
        if self.proc.returncode is None:
            self.killed_by_watchdog = True
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    async def stop(self, timeout: float = 5.0) -> int:
        """SIGTERM, then SIGKILL after ``timeout`` seconds. Returns the exit code."""
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        self._log_file.close()
        return int(self.proc.returncode or 0)


class StartBot(Protocol):
    def __call__(
        self,
        args: Sequence[str],
        env: Mapping[str, str] | None = None,
        *,
        fake: FakeDiscord | None = None,
        ready_timeout: float = 20.0,
        wait_commands: bool = False,
        hard_timeout: float = 300.0,
        cwd: Path | None = None,
        shards: Sequence[int] | None = None,
    ) -> Awaitable[BotProcess]: ...


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    # Discord's rate limits are on, with the windows shrunk to keep the suite fast
    # (FAKE_DISCORD_RATE_SCALE=1 for the real 5 s / 1 s windows).
    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = FakeDiscord(rate_limits=RateLimits(scale=scale))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def start_bot_process(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[StartBot]:
    started: list[BotProcess] = []

    async def start(
        args: Sequence[str],
        env: Mapping[str, str] | None = None,
        *,
        fake: FakeDiscord | None = None,
        ready_timeout: float = 20.0,
        wait_commands: bool = False,
        hard_timeout: float = 300.0,
        cwd: Path | None = None,
        shards: Sequence[int] | None = None,
    ) -> BotProcess:
        """Launch ``args`` (``python`` as args[0] means this interpreter) with
        DISCORD_API_BASE / DISCORD_GATEWAY_URL / DISCORD_TOKEN pointing at the fake plus
        ``env``; wait until it is connected (READY and GUILD_CREATEs sent; with
        ``wait_commands`` also until it synced commands). ``shards``: the bot runs only
        these shards of a sharded fake; wait for them alone (other processes run the rest)."""
        target = fake or fake_discord
        argv = list(args)
        if argv and argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        pythonpath = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
        full_env = {
            **os.environ,
            "PYTHONPATH": pythonpath,
            "PYTHONUNBUFFERED": "1",
            **target.bot_env(),
            **(env or {}),
        }
        log_path = tmp_path / f"bot-{len(started)}.log"
        log_file = log_path.open("wb")
        identifies_before = target.identify_count
        syncs_before = target.command_syncs
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file,
            stderr=asyncio.subprocess.STDOUT,
            env=full_env,
            cwd=str(cwd or REPO_ROOT),
            preexec_fn=die_with_parent,
        )
        handle = BotProcess(proc, argv, log_path, time.monotonic(), log_file)
        handle._watchdog = asyncio.get_running_loop().call_later(hard_timeout, handle._hard_kill)
        started.append(handle)

        ready = asyncio.ensure_future(
            target.wait_for_bot_ready(
                ready_timeout,
                commands=wait_commands,
                identify_count=identifies_before + 1,
                command_syncs=syncs_before + 1,
            )
            if shards is None
            else target.wait_for_shards(
                shards, ready_timeout, identify_count=identifies_before + len(shards)
            )
        )
        exited = asyncio.ensure_future(proc.wait())
        done, _ = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        if ready in done and ready.exception() is None:
            exited.cancel()
            return handle
        ready.cancel()
        exited.cancel()
        with contextlib.suppress(BaseException):
            await ready
        reason = (
            f"exited with code {proc.returncode}"
            if proc.returncode is not None
            else f"not ready within {ready_timeout}s"
        )
        await handle.stop()
        pytest.fail(f"bot {argv} {reason}; its output:\n{handle.output()[-6000:]}", pytrace=False)

    yield start

    for handle in started:
        await handle.stop()
    node = request.node
    failed = any(
        getattr(getattr(node, f"rep_{when}", None), "failed", False) for when in ("setup", "call")
    )
    if failed:
        for handle in started:
            print(
                f"\n----- output of bot {handle.args} (pid {handle.pid}) -----\n{handle.output()}",
                file=sys.stderr,
            )


@dataclass
class World:
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember
    extra: dict[str, Any] = field(default_factory=dict)


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    guild = fake_discord.add_guild("Casino")
    channel = fake_discord.add_text_channel(guild, "pontoon")
    return World(
        guild=guild,
        channel=channel,
        alice=fake_discord.add_member(guild, "alice", manage_guild=True),
        bob=fake_discord.add_member(guild, "bob"),
        carol=fake_discord.add_member(guild, "carol"),
    )


@pytest.fixture
async def minimal_bot(world: World, start_bot_process: StartBot) -> BotProcess:
    return await start_bot_process(MINIMAL_BOT_ARGS, wait_commands=True)
