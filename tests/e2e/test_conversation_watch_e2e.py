"""The watcher every end-to-end test gets (tests/e2e/conversation.py) sees each kind of
fault it is there for: an interaction answered twice, answered late, never answered, a
4xx the fake gave, an ERROR or a traceback in a bot's log; and lets through what a test
declared. Each fault is made here by driving the fake directly beside the shared minimal
bot; a watcher of this test's own judges it, and the test's autouse watcher is told to
expect it."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from localdiscord import FakeDiscord, InteractionFailed, InteractionResult
from tests.e2e.conftest import SHARED, Shared
from tests.e2e.conversation import Conversation, bad_records, log_records

pytestmark = pytest.mark.e2e


def own_watch(shared: Shared) -> Conversation:
    watch = Conversation()
    watch.watch_fake(shared.fake, guild_id=shared.world.guild.id, from_now=True)
    return watch


async def as_bot(fake: FakeDiscord, method: str, path: str, body: object) -> int:
    """A REST request to the fake as the bot would make it; returns the status."""
    headers = {"Authorization": f"Bot {fake.bot_env()['DISCORD_TOKEN']}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_base + path, json=body, headers=headers) as resp,
    ):
        await resp.read()
        return resp.status


async def ping(shared: Shared, *, wait: bool = True) -> InteractionResult:
    return await shared.fake.slash(
        shared.world.alice, shared.world.channel, "demo", "ping", wait=wait
    )


@SHARED
async def test_a_clean_conversation_has_no_problem(shared_minimal: Shared) -> None:
    watch = own_watch(shared_minimal)
    r = await ping(shared_minimal)
    assert r.text == "pong"
    await watch.settle()
    assert watch.problems() == []


@SHARED
async def test_a_second_answer_is_seen(shared_minimal: Shared, conversation: Conversation) -> None:
    watch = own_watch(shared_minimal)
    r = await ping(shared_minimal)
    conversation.expect_double(r)
    conversation.expect_http(400, "/callback")
    status = await as_bot(
        shared_minimal.fake,
        "POST",
        f"/interactions/{r.interaction_id}/{r.token}/callback",
        {"type": 4, "data": {"content": "again"}},
    )
    assert status == 400  # Discord: 40060, already acknowledged
    problems = watch.problems()
    assert any(p.startswith("answered 2 times") and "demo ping" in p for p in problems), problems
    assert any(p.startswith("the fake answered 400 to POST /interactions/") for p in problems)
    assert len(problems) == 2, problems


@SHARED
async def test_a_late_answer_is_seen(shared_minimal: Shared, conversation: Conversation) -> None:
    watch = own_watch(shared_minimal)
    fake = shared_minimal.fake
    fake.delay_next("/interactions/*/*/callback", 3.3)
    r = await ping(shared_minimal, wait=False)
    conversation.expect_late(r)
    conversation.expect_http(404, "/callback")  # Discord: 10062, unknown interaction
    conversation.expect_error(r"10062|Unknown interaction")  # the bot's own log says so
    log_from = len(shared_minimal.process.output())
    with pytest.raises(InteractionFailed):
        await r.wait_callback(6)
    # the bot logs the fake's 404 once its delayed answer comes back: wait for that line
    # here, or it lands in the next test's log on this shared bot
    for _ in range(100):
        if "10062" in shared_minimal.process.output()[log_from:]:
            break
        await asyncio.sleep(0.1)
    problems = watch.problems()
    assert any(p.startswith("answered late") and "demo ping" in p for p in problems), problems
    assert not any(p.startswith("never answered") for p in problems), problems


@SHARED
async def test_a_missing_answer_is_seen(shared_minimal: Shared, conversation: Conversation) -> None:
    watch = own_watch(shared_minimal)
    fake, world = shared_minimal.fake, shared_minimal.world
    button = {"type": 2, "style": 1, "label": "Nobody", "custom_id": "watch:nobody"}
    status = await as_bot(
        fake,
        "POST",
        f"/channels/{world.channel.id}/messages",
        {"content": "a button no code reads", "components": [{"type": 1, "components": [button]}]},
    )
    assert status == 200
    [posted] = [m for m in fake.channel_messages(world.channel) if m.has_button("Nobody")]
    r = await fake.click(world.bob, posted, label="Nobody", wait=False)
    conversation.expect_unanswered(r)
    assert [i.interaction_id for i in watch.pending()] == [r.interaction_id]
    started = asyncio.get_running_loop().time()
    await watch.settle()  # waits out the deadline, no longer
    assert asyncio.get_running_loop().time() - started < 4.5
    problems = watch.problems()
    assert problems == [
        f"never answered: component watch:nobody by bob (interaction {r.interaction_id})"
    ]


BOT_LOG = """\
2026-12-07 20:00:00,001 INFO bot: ready
2026-12-07 20:00:01,002 ERROR cogs.router: answering interaction 5 failed
Traceback (most recent call last):
  File "x.py", line 1, in f
ValueError: boom
2026-12-07 20:00:02,003 WARNING bot.host: slow save
2026-12-07 20:00:03,004 WARNING bot.host: retried
Traceback (most recent call last):
  File "y.py", line 2, in g
OSError: disk
[2026-12-07 20:00:04] [ERROR   ] discord.client: Ignoring exception in on_ready
{"ts": "2026-12-07T20:00:05.000", "level": "CRITICAL", "logger": "bot", "message": "gone"}
{"ts": "2026-12-07T20:00:06.000", "level": "INFO", "logger": "bot", "message": "fine"}
\x1b[30;1m2026-12-07 20:00:07\x1b[0m \x1b[31mERROR   \x1b[0m \x1b[35mdiscord.app_commands.tree\x1b[0m Ignoring exception in command 'ping'
"""


def test_errors_and_tracebacks_in_a_log_are_seen_unless_expected() -> None:
    levels = [level for level, _ in log_records(BOT_LOG)]
    assert levels == ["INFO", "ERROR", "WARNING", "WARNING", "ERROR", "CRITICAL", "INFO", "ERROR"]
    bad = bad_records(BOT_LOG)
    assert len(bad) == 5, bad
    assert "ERROR cogs.router" in bad[0]
    assert "WARNING bot.host: retried" in bad[1]  # a warning, but with a traceback
    assert "Ignoring exception in on_ready" in bad[2]
    assert '"level": "CRITICAL"' in bad[3]
    assert "Ignoring exception in command 'ping'" in bad[4]  # discord.py's coloured lines
    assert "ValueError: boom" in bad[0] and "OSError: disk" in bad[1]

    watch = Conversation()
    watch.watch_log("a bot", lambda: BOT_LOG)
    assert len(watch.problems()) == 5
    watch.expect_error(r"ValueError: boom")
    watch.expect_error(r"on_ready|command 'ping'")
    problems = watch.problems()
    assert len(problems) == 2, problems
    assert "OSError: disk" in problems[0] and '"gone"' in problems[1]
    # what the log said before the watch began is not the test's
    later = Conversation()
    later.watch_log("a bot", lambda: BOT_LOG, from_now=True)
    assert later.problems() == []


@pytest.mark.expect_error(r"declared by a marker")
def test_an_error_can_be_declared_by_a_marker(conversation: Conversation) -> None:
    conversation.watch_log("a bot", lambda: "2026-12-07 20:00:00,001 ERROR x: declared by a marker")
    assert conversation.problems() == []
