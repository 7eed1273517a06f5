"""Fixtures for end-to-end tests: a fake Discord and bots run as their own processes.

``fake_discord``       a started ``FakeDiscord`` on 127.0.0.1 (free port), stopped after the test
``start_bot_process``  ``await start_bot_process([sys.executable, "-m", "bot"], env={...})``
                       launches a bot pointed at the fake, waits until it IDENTIFYed and got
                       READY + every GUILD_CREATE, and returns a ``BotProcess``; every process
                       is killed at teardown (and by a hard timeout), and its output is
                       printed when the test failed.
``world``              a guild "Casino" with #pontoon and members alice (manage_guild), bob, carol
``minimal_bot``        the minimal bot (tests/e2e/minimal_bot.py) connected to the fake
``shared``             for tests that need no bot of their own: one ``python -m bot`` process
                       and one fake Discord for the whole session (started at the first
                       such test), and a fresh guild "Casino" with #pontoon, alice, bob and
                       carol for each test (``shared.fake``, ``shared.world``, ``shared.db``).
                       Mark such a test ``@SHARED`` (it runs on the session's event loop);
                       they are run one after the other, after the other e2e tests. A test
                       that kills, restarts or configures its bot keeps ``start_bot_process``.
``shared_minimal``     the same with the minimal bot, for tests of the fake that inject no
                       fault and change nothing outside their own guild
``conversation``       (autouse) watches every e2e test's whole conversation: the test fails
                       when an interaction was answered twice, late or never, when the fake
                       answered the bot a 4xx, or when a bot logged an ERROR or a traceback,
                       unless the test declared it (``conversation.expect_error(regex)`` or
                       ``@pytest.mark.expect_error(regex)``, ``expect_unanswered``,
                       ``expect_late``, ``expect_double``, ``expect_http``); see
                       tests/e2e/conversation.py
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
import pytest_asyncio

from localdiscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember, RateLimits
from localdiscord.server import die_with_parent
from tests.e2e import conversation as conversation_module
from tests.e2e.conversation import Conversation

REPO_ROOT = Path(__file__).resolve().parents[2]
MINIMAL_BOT_ARGS = [sys.executable, "-m", "tests.e2e.minimal_bot"]
BOT_ARGS = [sys.executable, "-m", "bot"]
# A test on the shared bot (the ``shared`` fixture) runs on the session's event loop,
# where the shared fake Discord lives.
SHARED = pytest.mark.asyncio(loop_scope="session")
# Bot processes running now (Table.quiet asks whether one of them is still working).
LIVE_BOTS: list[BotProcess] = []


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
    ready: bool = False  # connected (launch returned it)

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

    def busy(self) -> bool:
        """Whether a thread of the connected process is running or waiting for the disk
        now (Linux; elsewhere never). A bot still starting is not asked."""
        if not self.ready or self.proc.returncode is not None:
            return False
        try:
            tasks = os.listdir(f"/proc/{self.pid}/task")
        except OSError:
            return False
        for tid in tasks:
            try:
                with open(f"/proc/{self.pid}/task/{tid}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            state = stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3]
            if state in (b"R", b"D"):
                return True
        return False

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
        if self in LIVE_BOTS:
            LIVE_BOTS.remove(self)
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


@pytest.fixture(autouse=True)
def conversation(request: pytest.FixtureRequest) -> Generator[Conversation]:
    """The watcher of the test's whole conversation (tests/e2e/conversation.py): after
    the test, it fails it for any double, late or missing answer, any 4xx the fake gave
    the bot, and any ERROR or traceback a bot logged, that the test did not declare."""
    watch = Conversation()
    for marker in request.node.iter_markers("expect_error"):
        for pattern in marker.args:
            watch.expect_error(pattern)
    for marker in request.node.iter_markers("expect_http"):
        watch.expect_http(*marker.args, **marker.kwargs)
    if request.node.get_closest_marker("expect_unanswered") is not None:
        watch.expect_unanswered()
    if request.node.get_closest_marker("expect_late") is not None:
        watch.expect_late()
    conversation_module.RUNNING.append(watch)
    try:
        yield watch
    finally:
        conversation_module.RUNNING.remove(watch)
    if _failed(request.node):
        return  # the test's own failure says more
    problems = watch.problems()
    if problems:
        pytest.fail(
            "the conversation with the bot went wrong (declare what the test expects: "
            "tests/e2e/conversation.py):\n" + "\n".join(f"- {p}" for p in problems),
            pytrace=False,
        )


@pytest.fixture
async def fake_discord(conversation: Conversation) -> AsyncIterator[FakeDiscord]:
    # Discord's rate limits are on, with the windows shrunk to keep the suite fast
    # (FAKE_DISCORD_RATE_SCALE=1 for the real 5 s / 1 s windows).
    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = FakeDiscord(rate_limits=RateLimits(scale=scale))
    await fake.start()
    conversation.watch_fake(fake)
    try:
        yield fake
    finally:
        await fake.stop()


async def launch(
    target: FakeDiscord,
    args: Sequence[str],
    env: Mapping[str, str] | None,
    log_path: Path,
    *,
    ready_timeout: float = 20.0,
    wait_commands: bool = False,
    hard_timeout: float = 300.0,
    cwd: Path | None = None,
    shards: Sequence[int] | None = None,
) -> BotProcess:
    """Launch ``args`` (``python`` as args[0] means this interpreter) with
    DISCORD_API_BASE / DISCORD_GATEWAY_URL / DISCORD_TOKEN pointing at ``target`` plus
    ``env``, its output to ``log_path``; wait until it is connected (READY and GUILD_CREATEs
    sent; with ``wait_commands`` also until it synced commands). ``shards``: the bot runs
    only these shards of a sharded fake; wait for them alone (other processes run the
    rest). Fails the test with the bot's output if it exits or is not ready in time."""
    argv = list(args)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    pythonpath = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    full_env = {
        **os.environ,
        "PYTHONPATH": pythonpath,
        "PYTHONUNBUFFERED": "1",
        **target.bot_env(),
        "CARD_STYLE": "text",  # tests that want the card pictures say CARD_STYLE=emoji
        # the fake takes IDENTIFYs back to back: no 5 s wait before a second shard's or a
        # new session's (Discord allows one per 5 s, the bots' default)
        "IDENTIFY_DELAY_SECONDS": "0.1",
        **(env or {}),
    }
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
    LIVE_BOTS.append(handle)

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
        handle.ready = True
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


def _failed(node: pytest.Item) -> bool:
    return any(
        getattr(getattr(node, f"rep_{when}", None), "failed", False) for when in ("setup", "call")
    )


class NewFake(Protocol):
    def __call__(self, **options: Any) -> Awaitable[FakeDiscord]: ...


@pytest.fixture
async def new_fake(conversation: Conversation) -> AsyncIterator[NewFake]:
    """``await new_fake(shard_count=2, ...)``: another started ``FakeDiscord`` (options as
    its constructor's), watched by the conversation and stopped after the test's bots
    (a fake stopped under a running bot makes it log its reconnects as errors)."""
    fakes: list[FakeDiscord] = []

    async def make(**options: Any) -> FakeDiscord:
        fake = FakeDiscord(**options)
        await fake.start()
        fakes.append(fake)
        conversation.watch_fake(fake)
        return fake

    yield make
    for fake in fakes:
        await fake.stop()


@pytest.fixture
async def start_bot_process(
    fake_discord: FakeDiscord,
    new_fake: NewFake,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    conversation: Conversation,
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
        """See :func:`launch`; the bot runs on ``fake`` or else the test's fake Discord."""
        handle = await launch(
            fake or fake_discord,
            args,
            env,
            tmp_path / f"bot-{len(started)}.log",
            ready_timeout=ready_timeout,
            wait_commands=wait_commands,
            hard_timeout=hard_timeout,
            cwd=cwd,
            shards=shards,
        )
        started.append(handle)
        conversation.watch_fake(fake or fake_discord)
        conversation.watch_log(f"bot {len(started)} ({' '.join(handle.args[1:])})", handle.output)
        return handle

    yield start

    # the last interactions' answers, before the bots stop (their shutdown is watched too)
    await conversation.settle()
    # SIGTERM to every process at once, then wait for them all (not one after the other)
    await asyncio.gather(*(handle.stop() for handle in started))
    if _failed(request.node):
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
    return _make_world(fake_discord)


@pytest.fixture
async def minimal_bot(world: World, start_bot_process: StartBot) -> BotProcess:
    return await start_bot_process(MINIMAL_BOT_ARGS, wait_commands=True)


def _make_world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Casino")
    channel = fake.add_text_channel(guild, "pontoon")
    return World(
        guild=guild,
        channel=channel,
        alice=fake.add_member(guild, "alice", manage_guild=True),
        bob=fake.add_member(guild, "bob"),
        carol=fake.add_member(guild, "carol"),
    )


@dataclass
class SharedBot:
    """One ``python -m bot`` on one fake Discord for every test marked ``@SHARED``."""

    fake: FakeDiscord
    process: BotProcess
    db: Path


@dataclass
class Shared:
    """A test's view of the shared bot: its own guild, and where the records stood when
    the test began (``fake.requests[requests_from:]`` are the test's own)."""

    fake: FakeDiscord
    process: BotProcess
    db: Path
    world: World
    requests_from: int
    rate_limited_from: int

    def requests_to(self, route: str, method: str = "*") -> list[Any]:
        """``fake.requests_to`` over the requests made since this test began."""
        mine = {id(r) for r in self.fake.requests[self.requests_from :]}
        return [r for r in self.fake.requests_to(route, method) if id(r) in mine]

    def rate_limited(self) -> list[Any]:
        """The 429s the limits gave since this test began."""
        return self.fake.rate_limited[self.rate_limited_from :]

    def interactions(self) -> list[Any]:
        """The interactions sent in this test's guild, and outside servers (DMs, group
        DMs) by its members."""
        guild = self.world.guild
        return [
            r
            for r in self.fake.interactions.values()
            if r.channel.guild_id == guild.id
            or (r.channel.guild_id is None and r.user.id in guild.members)
        ]


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def shared_bot(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    from tests.e2e.pontoon_driver import bot_env

    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = FakeDiscord(rate_limits=RateLimits(scale=scale))
    await fake.start()
    where = tmp_path_factory.mktemp("shared-bot")
    db = where / "db.sqlite3"
    try:
        process = await launch(
            fake, BOT_ARGS, bot_env(db), where / "bot.log", wait_commands=True, hard_timeout=3600
        )
        try:
            yield SharedBot(fake, process, db)
        finally:
            # the session is over: no test looks at this bot's shutdown (test_data_safety
            # checks a clean stop); SIGKILL after 1 s
            await process.stop(timeout=1.0)
    finally:
        await fake.stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def shared_minimal_bot(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    """The minimal bot (tests/e2e/minimal_bot.py) on a fake Discord of its own, for
    the whole session."""
    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = FakeDiscord(rate_limits=RateLimits(scale=scale))
    await fake.start()
    where = tmp_path_factory.mktemp("shared-minimal-bot")
    try:
        process = await launch(
            fake, MINIMAL_BOT_ARGS, None, where / "bot.log", wait_commands=True, hard_timeout=3600
        )
        try:
            yield SharedBot(fake, process, where / "unused.sqlite3")
        finally:
            await process.stop(timeout=1.0)
    finally:
        await fake.stop()


async def _shared_view(
    shared_bot: SharedBot, request: pytest.FixtureRequest, conversation: Conversation
) -> AsyncIterator[Shared]:
    bot, fake = shared_bot.process, shared_bot.fake
    if bot.returncode is not None:
        pytest.fail(f"the shared bot exited ({bot.returncode}):\n{bot.output()[-6000:]}")
    output_from = len(bot.output())
    world = _make_world(fake)
    conversation.watch_fake(fake, guild_id=world.guild.id, from_now=True)
    conversation.watch_log(f"the shared bot {' '.join(bot.args[1:])}", bot.output, from_now=True)
    yield Shared(fake, bot, shared_bot.db, world, len(fake.requests), len(fake.rate_limited))
    await conversation.settle()
    if _failed(request.node):
        print(
            f"\n----- output of the shared bot {bot.args} (pid {bot.pid}) during this test -----\n"
            f"{bot.output()[output_from:]}",
            file=sys.stderr,
        )


@pytest_asyncio.fixture(loop_scope="session")
async def shared(
    shared_bot: SharedBot, request: pytest.FixtureRequest, conversation: Conversation
) -> AsyncIterator[Shared]:
    """The shared bot and a guild of this test's own (alice, bob, carol in #pontoon)."""
    async for view in _shared_view(shared_bot, request, conversation):
        yield view


@pytest_asyncio.fixture(loop_scope="session")
async def shared_minimal(
    shared_minimal_bot: SharedBot, request: pytest.FixtureRequest, conversation: Conversation
) -> AsyncIterator[Shared]:
    """The shared minimal bot and a guild of this test's own (alice, bob, carol in
    #pontoon), for tests of the fake that change nothing beyond their own guild."""
    async for view in _shared_view(shared_minimal_bot, request, conversation):
        yield view


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the tests on the shared bots one after the other, after the other end-to-end
    tests (those on the minimal bot, then those on the game bot): a shared fake Discord
    answers its bot only while the session's event loop runs. Under pytest-xdist each
    worker runs its share in this order (tests/conftest.py's scheduler hands the tests
    out one at a time in collection order), with a shared bot of its own."""
    here = Path(__file__).parent
    e2e = [i for i, item in enumerate(items) if here in Path(str(item.path)).parents]
    if not e2e:
        return

    def group(item: pytest.Item) -> int:
        names = getattr(item, "fixturenames", ())
        return 2 if "shared" in names else 1 if "shared_minimal" in names else 0

    block = sorted((items[i] for i in e2e), key=group)  # stable: file order within a group
    for i, item in zip(e2e, block, strict=True):
        items[i] = item
