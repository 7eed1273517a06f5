"""End-to-end tests of the fake Discord: the real discord.py client (the minimal bot, run as
its own process) against the fake, driven as people would drive Discord."""

from __future__ import annotations

import asyncio
import sys
import time

import aiohttp
import pytest

from localdiscord import FakeDiscord, InteractionFailed, NoResponse
from tests.e2e.minimal_bot import SECRET

from .conftest import MINIMAL_BOT_ARGS, SHARED, BotProcess, Shared, StartBot, World

pytestmark = pytest.mark.e2e


@SHARED
async def test_slash_button_edits_message_and_dms_clicker(shared_minimal: Shared) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake, ch = fake_discord, world.channel

    r = await fake.slash(world.alice, ch, "demo", "hello")
    assert r.callback_type == 4
    assert not r.ephemeral
    assert r.text == "Hello alice! Press Reveal."
    assert r.button("Reveal").disabled is False
    assert r.latency is not None and 0 < r.latency < 3
    # everyone in the channel sees it
    assert r.message in fake.visible_to(world.bob)

    click = await fake.click(world.bob, r, label="Reveal")
    assert click.callback_type == 7  # update message
    msg = fake.message(r.require_message().id)
    assert msg.text == "Revealed by bob"
    assert msg.button("Reveal").disabled is True
    assert [v.content for v in msg.history] == ["Hello alice! Press Reveal.", "Revealed by bob"]
    assert msg.edit_count == 1

    await fake.wait_until(lambda: len(fake.dms(world.bob)) == 1)
    [dm] = fake.dms(world.bob)
    assert dm.text == SECRET
    assert fake.dms(world.alice) == []
    assert dm in fake.visible_to(world.bob)
    assert dm not in fake.visible_to(world.alice)
    assert dm in fake.hidden_from(world.carol)
    # a disabled button cannot be clicked any more
    with pytest.raises(PermissionError):
        await fake.click(world.alice, msg, label="Reveal")


@pytest.mark.expect_http(403, r"/channels/\d+/messages")  # the closed DMs (50007)
@SHARED
async def test_closed_dms_fall_back_to_ephemeral_seen_only_by_clicker(
    shared_minimal: Shared,
) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake, ch = fake_discord, world.channel
    fake.close_dms(world.bob)

    r = await fake.slash(world.alice, ch, "demo hello")
    click = await fake.click(world.bob, r, label="Reveal")
    [followup] = await click.wait_followups(1)

    assert followup.ephemeral and followup.ephemeral_for == world.bob.id
    assert SECRET in followup.text
    assert len(fake.refused_dms(world.bob)) == 1
    assert fake.dms(world.bob) == []
    assert followup in fake.visible_to(world.bob)
    for other in (world.alice, world.carol):
        assert followup not in fake.visible_to(other)
        assert all(SECRET not in m.text for m in fake.visible_to(other))
    assert followup not in fake.channel_messages(ch)
    assert followup in fake.channel_messages(ch, viewer=world.bob)


@SHARED
async def test_modal_submit(shared_minimal: Shared) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake = fake_discord
    opened = await fake.slash(world.carol, world.channel, "demo", "form")
    assert opened.callback_type == 9
    assert opened.modal is not None and opened.modal.title == "Feedback"
    assert [t["custom_id"] for t in opened.modal.text_inputs()] == ["name", "comment"]

    with pytest.raises(ValueError, match="required"):
        await fake.submit_modal(world.carol, None, "minimal:feedback", {"comment": "x"})

    submitted = await fake.submit_modal(
        world.carol, None, "minimal:feedback", {"name": "Carol", "comment": "lovely"}
    )
    assert submitted.callback_type == 4
    assert submitted.text == "Thanks, Carol: lovely"
    assert submitted.message in fake.channel_messages(world.channel)


@SHARED
async def test_typed_options_subcommand_group_select_and_defer(shared_minimal: Shared) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake, ch = fake_discord, world.channel

    assert (
        await fake.slash(world.alice, ch, "demo", "add", {"a": 2, "b": 40})
    ).text == "2 + 40 = 42"
    whois = await fake.slash(world.alice, ch, "demo", "whois", {"user": world.bob})
    assert whois.text == f"bob has id {world.bob.id}"

    echo = await fake.slash(world.bob, ch, "demo", ["admin", "echo"], {"text": "psst"})
    assert echo.ephemeral and echo.text == "echo: psst"
    assert echo.message not in fake.visible_to(world.alice)

    picker = await fake.slash(world.alice, ch, "demo", "pick")
    [menu] = picker.selects()
    assert menu.option_values == ["hearts", "spades"]
    picked = await fake.select(world.alice, picker, "minimal:pick", ["spades"])
    assert picked.callback_type == 7
    assert fake.message(picker.require_message().id).text == "You picked spades"
    assert fake.message(picker.require_message().id).components == []

    slow = await fake.slash(world.alice, ch, "demo", "slow")
    assert slow.callback_type == 5 and slow.deferred
    done = await slow.wait_message()
    assert done.text == "done thinking" and not done.loading

    with pytest.raises(ValueError, match="unknown option"):
        await fake.slash(world.alice, ch, "demo", "add", {"a": 1, "b": 2, "c": 3})
    with pytest.raises(LookupError):
        await fake.slash(world.alice, ch, "demo", "nope", timeout=0.5)


async def test_rate_limited_routes_still_complete(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    fake = fake_discord
    on_callback = fake.rate_limit_next("/interactions/*/*/callback", retry_after=0.3)
    r = await fake.slash(world.alice, world.channel, "demo", "hello")
    assert on_callback.hits == 1
    assert r.text == "Hello alice! Press Reveal."
    assert r.latency is not None and r.latency >= 0.3
    statuses = [q.status for q in fake.requests_to("/interactions/*/*/callback")]
    assert statuses == [429, 200]

    on_dm = fake.rate_limit_next("/channels/*/messages", method="POST", count=2, retry_after=0.1)
    await fake.click(world.alice, r, label="Reveal")
    await fake.wait_until(lambda: len(fake.dms(world.alice)) == 1)
    assert on_dm.hits == 2
    assert fake.dms(world.alice)[0].text == SECRET


async def test_server_error_on_edit_is_retried(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    fake = fake_discord
    fault = fake.fail_message_edits(count=1, status=500)
    slow = await fake.slash(world.alice, world.channel, "demo", "slow")
    done = await slow.wait_message(timeout=8)
    assert fault.hits == 1
    assert done.text == "done thinking"
    patches = fake.requests_to("/webhooks/*/*/messages/*", method="PATCH")
    assert [p.status for p in patches] == [500, 200]


@pytest.mark.parametrize("abort", [False, True], ids=["close-frame", "tcp-abort"])
async def test_gateway_drop_resumes_and_replays_missed_interaction(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess, abort: bool
) -> None:
    fake = fake_discord
    assert fake.identify_count == 1
    await fake.drop_gateway(abort=abort)
    # sent while the bot is disconnected: must be replayed on RESUME
    r = await fake.slash(world.alice, world.channel, "demo", "ping", timeout=10)
    assert r.text == "pong"
    await fake.wait_for_resume(1)
    assert fake.identify_count == 1  # resumed, not re-identified
    assert fake.resume_count == 1
    after = await fake.slash(world.bob, world.channel, "demo", "hello")
    click = await fake.click(world.bob, after, label="Reveal")
    assert click.callback_type == 7


async def test_guild_command_sync_and_live_world_changes(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot
) -> None:
    fake = fake_discord
    await start_bot_process(
        MINIMAL_BOT_ARGS, {"MINIMAL_BOT_GUILD_ID": str(world.guild.id)}, wait_commands=True
    )
    assert fake.commands() == []
    names = {c["name"] for c in fake.commands(world.guild)}
    assert names == {"demo", "where", "stamp", "serveronly"}
    cmd = fake.synced_command("demo", guild=world.guild)
    assert cmd["name"] == "demo" and cmd["guild_id"] == str(world.guild.id)
    subs = {o["name"] for o in cmd["options"]}
    assert subs == {"ping", "hello", "add", "whois", "form", "pick", "slow", "admin"}

    # a member and a channel added after the bot connected are known to it
    lounge = fake.add_text_channel(world.guild, "lounge")
    dave = fake.add_member(world.guild, "dave")
    r = await fake.slash(dave, lounge, "demo", "whois", {"user": dave})
    assert r.text == f"dave has id {dave.id}"
    assert r.message is not None and r.message.channel is lounge


@pytest.mark.expect_unanswered
async def test_unanswered_interaction_raises_no_response(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot
) -> None:
    fake = fake_discord
    # a bot that connects but never answers (plain discord.Client without a tree)
    code = (
        "import os, discord; from bot.endpoints import configure_endpoints;"
        "configure_endpoints(os.environ['DISCORD_API_BASE'], os.environ['DISCORD_GATEWAY_URL']);"
        "discord.Client(intents=discord.Intents.none()).run(os.environ['DISCORD_TOKEN'])"
    )
    fake.global_commands = [
        {"id": "1", "name": "ghost", "type": 1, "description": "", "options": []}
    ]
    await start_bot_process([sys.executable, "-c", code])
    with pytest.raises(NoResponse, match="ghost"):
        await fake.slash(world.alice, world.channel, "ghost", timeout=0.5)


@pytest.mark.expect_http(400)
@pytest.mark.expect_http(401)
@pytest.mark.expect_http(403)
@pytest.mark.expect_http(404)
async def test_rest_error_shapes_match_discord(fake_discord: FakeDiscord, world: World) -> None:
    """The exact bodies and headers discord.py depends on, checked without a bot."""
    fake = fake_discord
    auth = {"Authorization": "Bot x"}
    async with aiohttp.ClientSession() as http:
        async with http.get(fake.api_base + "/users/@me", headers=auth) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["bot"] is True
        async with http.get(fake.api_base + "/users/@me") as resp:
            assert resp.status == 401

        fake.close_dms(world.bob)
        async with http.post(
            fake.api_base + "/users/@me/channels",
            json={"recipient_id": str(world.bob.id)},
            headers=auth,
        ) as resp:
            dm = await resp.json()
        async with http.post(
            fake.api_base + f"/channels/{dm['id']}/messages", json={"content": "hi"}, headers=auth
        ) as resp:
            assert resp.status == 403
            assert resp.headers["Content-Type"] == "application/json"
            assert await resp.json() == {
                "message": "Cannot send messages to this user",
                "code": 50007,
            }

        url = fake.api_base + f"/channels/{world.channel.id}/messages"
        async with http.post(url, json={"content": ""}, headers=auth) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50006
        async with http.post(url, json={"content": "x" * 2001}, headers=auth) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035

        fake.rate_limit_next("/channels/*/messages", retry_after=1.5)
        async with http.post(url, json={"content": "ok"}, headers=auth) as resp:
            assert resp.status == 429
            assert resp.headers["Via"]
            body = await resp.json()
            assert body["retry_after"] == 1.5 and body["global"] is False
        async with http.post(url, json={"content": "ok"}, headers=auth) as resp:
            assert resp.status == 200

        fake.delete_channel(world.channel)
        async with http.post(url, json={"content": "gone"}, headers=auth) as resp:
            assert resp.status == 404
            assert await resp.json() == {"message": "Unknown Channel", "code": 10003}
    assert [m.text for m in fake.channel_messages(world.channel)] == ["ok"]
    assert fake.requests_to("/channels/*/messages", "POST")[-1].status == 404


@pytest.mark.expect_unanswered
async def test_bot_restart_reidentifies_and_old_non_persistent_view_is_dead(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot
) -> None:
    """Like Discord: after a restart the new process IDENTIFYs afresh, and a button of a
    non-persistent view sent by the old process gets no answer (the click is dropped)."""
    fake = fake_discord
    first = await start_bot_process(MINIMAL_BOT_ARGS, wait_commands=True)
    r = await fake.slash(world.alice, world.channel, "demo", "hello")
    await first.stop()
    await start_bot_process(MINIMAL_BOT_ARGS, wait_commands=True)
    assert fake.identify_count == 2
    with pytest.raises(NoResponse):
        await fake.click(world.alice, r, label="Reveal", timeout=1.0)
    assert (await fake.slash(world.alice, world.channel, "demo", "ping")).text == "pong"


@SHARED
async def test_user_messages_and_dm_buttons(shared_minimal: Shared) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake = fake_discord
    said = await fake.post_as(world.bob, world.channel, "hello table")
    assert said.author is world.bob.user
    assert said in fake.channel_messages(world.channel)
    # the bot cannot edit a person's message
    r = await fake.slash(world.alice, world.channel, "demo", "hello")
    await fake.click(world.alice, r, label="Reveal")
    await fake.wait_until(lambda: len(fake.dms(world.alice)) == 1)
    assert fake.dm_channel(world.alice).recipient is world.alice.user
    assert fake.dms(world.alice)[0].channel is fake.dm_channel(world.alice)


@pytest.mark.expect_late
@pytest.mark.expect_http(404, "/callback")
@pytest.mark.expect_error(r"10062|Unknown interaction")
async def test_callback_after_deadline_is_refused_like_discord(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    fake = fake_discord
    fake.interaction_deadline = 0.1
    fake.rate_limit_next("/interactions/*/*/callback", retry_after=0.3)
    with pytest.raises(InteractionFailed, match="deadline") as failed:
        await fake.slash(world.alice, world.channel, "demo", "ping")
    r = failed.value.result
    assert r.late and r.callback_status == 404
    assert r.message is None
    assert all(m.text != "pong" for m in fake.channel_messages(world.channel))


async def test_reconnect_op_resumes_and_invalid_session_reidentifies(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    fake = fake_discord
    await fake.send_reconnect()
    await fake.wait_for_resume(1)
    assert fake.identify_count == 1
    assert (await fake.slash(world.alice, world.channel, "demo", "ping")).text == "pong"

    # a new IDENTIFY (after IDENTIFY_DELAY_SECONDS: 0.1 s on the fake, Discord's 5 s else)
    await fake.invalidate_session()
    await fake.wait_for_bot_ready(10, identify_count=2)
    assert fake.identify_count == 2
    assert (await fake.slash(world.alice, world.channel, "demo", "ping")).text == "pong"


@SHARED
async def test_settle_waits_for_background_work(shared_minimal: Shared) -> None:
    fake_discord, world = shared_minimal.fake, shared_minimal.world
    fake = fake_discord
    r = await fake.slash(world.alice, world.channel, "demo", "hello")
    await fake.click(world.carol, r, label="Reveal")
    await fake.settle()
    assert [m.text for m in fake.dms(world.carol)] == [SECRET]
    msg = fake.message(r.require_message().id)
    assert msg.enabled_buttons() == []
    assert msg.history[0].buttons()[0].disabled is False
    assert "Hello alice" in msg.all_versions_text and "Revealed by carol" in msg.all_versions_text


@pytest.mark.expect_late
@pytest.mark.expect_http(404, "/callback")
@pytest.mark.expect_error(r"10062|Unknown interaction")
async def test_moderation_and_slow_discord(
    fake_discord: FakeDiscord, world: World, minimal_bot: BotProcess
) -> None:
    fake = fake_discord
    r = await fake.slash(world.alice, world.channel, "demo", "hello")
    fake.delete_message(r)
    assert r.require_message().deleted
    assert r.message not in fake.channel_messages(world.channel)
    with pytest.raises(PermissionError):
        await fake.click(world.alice, r, label="Reveal")

    # Discord slow to accept the callback: answered, but after the deadline
    fake.interaction_deadline = 0.2
    slow = fake.delay_next("/interactions/*/*/callback", 0.4)
    with pytest.raises(InteractionFailed, match="deadline"):
        await fake.slash(world.alice, world.channel, "demo", "ping")
    assert slow.hits == 1
    fake.interaction_deadline = 3.0
    assert (await fake.slash(world.alice, world.channel, "demo", "ping")).text == "pong"

    # a member who left cannot use commands; a deleted channel takes no interactions
    fake.remove_member(world.carol)
    with pytest.raises(ValueError, match="not a member"):
        await fake.slash(world.carol, world.channel, "demo", "ping")
    fake.delete_channel(world.channel)
    with pytest.raises(LookupError):
        await fake.slash(world.alice, world.channel, "demo", "ping")


async def test_discord_rate_limits_are_enforced_with_headers() -> None:
    """Creates and edits in one channel share a bucket of 5 per window; the 6th gets a 429
    shaped like Discord's; other channels and interaction callbacks are not affected; the
    global limit counts everything but interaction endpoints."""
    from localdiscord import RateLimits

    fake = FakeDiscord(rate_limits=RateLimits(scale=0.4))  # 5 per 2 s, 50 per 0.4 s
    await fake.start()
    try:
        guild = fake.add_guild("Casino")
        one = fake.add_text_channel(guild, "one")
        two = fake.add_text_channel(guild, "two")
        auth = {"Authorization": "Bot x"}
        async with aiohttp.ClientSession() as http:
            url = fake.api_base + f"/channels/{one.id}/messages"
            async with http.post(url, json={"content": "m"}, headers=auth) as resp:
                assert resp.status == 200
                assert resp.headers["X-RateLimit-Limit"] == "5"
                assert resp.headers["X-RateLimit-Remaining"] == "4"
                assert 0 < float(resp.headers["X-RateLimit-Reset-After"]) <= 2.0
                assert float(resp.headers["X-RateLimit-Reset"]) > 1e9
                bucket = resp.headers["X-RateLimit-Bucket"]
                mid = (await resp.json())["id"]
            for i in range(4):  # edits share the creates' bucket
                async with http.patch(
                    f"{url}/{mid}", json={"content": f"e{i}"}, headers=auth
                ) as resp:
                    assert resp.status == 200
                    assert resp.headers["X-RateLimit-Bucket"] == bucket
                    assert resp.headers["X-RateLimit-Remaining"] == str(3 - i)
            async with http.post(url, json={"content": "sixth"}, headers=auth) as resp:
                assert resp.status == 429
                refused_at = time.monotonic()
                body = await resp.json()
                assert set(body) == {"message", "retry_after", "global"}
                assert body["global"] is False and 0 < body["retry_after"] <= 2.0
                assert int(resp.headers["Retry-After"]) >= 1 and resp.headers["Via"]
            assert len(fake.rate_limited) == 1
            assert fake.message(int(mid)).text == "e3"  # the refused request changed nothing
            other = fake.api_base + f"/channels/{two.id}/messages"
            async with http.post(other, json={"content": "x"}, headers=auth) as resp:
                assert resp.status == 200  # another channel, another bucket
            # wait out the window the 429 named (not a fixed 2 s: part of it has passed)
            await asyncio.sleep(body["retry_after"] - (time.monotonic() - refused_at) + 0.05)
            async with http.post(url, json={"content": "later"}, headers=auth) as resp:
                assert resp.status == 200  # the window reset

    finally:
        await fake.stop()

    # global: 50 per second, GET /users/@me included, interaction callbacks excluded
    fake = FakeDiscord()
    await fake.start()
    try:
        auth = {"Authorization": "Bot x"}
        async with aiohttp.ClientSession() as http:

            async def get() -> tuple[int, bool | None]:
                async with http.get(fake.api_base + "/users/@me", headers=auth) as resp:
                    body = await resp.json()
                    return resp.status, body.get("global") if resp.status == 429 else None

            results = await asyncio.gather(*(get() for _ in range(60)))
        refused = [g for status, g in results if status == 429]
        assert 1 <= len(refused) <= 10 and all(refused)
        assert len(fake.rate_limited) == len(refused)
    finally:
        await fake.stop()


async def test_limits_off_still_send_headers() -> None:
    fake = FakeDiscord(rate_limits=False)
    await fake.start()
    try:
        guild = fake.add_guild("Casino")
        ch = fake.add_text_channel(guild, "one")
        auth = {"Authorization": "Bot x"}
        async with aiohttp.ClientSession() as http:
            url = fake.api_base + f"/channels/{ch.id}/messages"
            for _ in range(8):
                async with http.post(url, json={"content": "m"}, headers=auth) as resp:
                    assert resp.status == 200 and "X-RateLimit-Limit" in resp.headers
        assert fake.rate_limited == []
    finally:
        await fake.stop()
