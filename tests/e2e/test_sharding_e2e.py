"""Sharding through the fake Discord: the gateway speaks Discord's sharding (``GET
/gateway/bot`` shard count, IDENTIFY ``[shard_id, shard_count]``, each guild on shard
``(guild_id >> 22) % shard_count``), and the real bot runs as discord.py's AutoShardedBot
when SHARD_COUNT is set."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.sharding import shard_of
from localdiscord import FakeDiscord, FakeGuild
from tests.e2e.conftest import StartBot
from tests.e2e.pontoon_driver import bot_env

pytestmark = pytest.mark.e2e

BOT_ARGS = [sys.executable, "-m", "bot"]


@pytest.fixture
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


class RawShard:
    """A bare gateway client: IDENTIFY with a shard, collect what is dispatched."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []

    async def next_event(self, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"gateway closed: {msg.type} {self.ws.close_code}")
            frame = json.loads(msg.data)
            if frame.get("op") == 0:
                self.events.append(frame)
                return dict(frame)

    async def until(self, name: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            frame = await self.next_event(timeout)
            if frame["t"] == name:
                return dict(frame["d"])


async def identify(
    session: aiohttp.ClientSession, fake: FakeDiscord, shard: list[int] | None
) -> RawShard:
    ws = await session.ws_connect(fake.gateway_url + "?v=10&encoding=json")
    hello = await ws.receive_json(timeout=5)
    assert hello["op"] == 10
    d: dict[str, Any] = {"token": "fake-token", "intents": 1, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    await ws.send_json({"op": 2, "d": d})
    return RawShard(ws)


def guilds_in(ready: dict[str, Any]) -> set[int]:
    return {int(g["id"]) for g in ready["guilds"]}


async def test_gateway_bot_recommends_the_shard_count(sharded_fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            sharded_fake.api_base + "/gateway/bot", headers={"Authorization": "Bot fake-token"}
        ) as resp,
    ):
        body = await resp.json()
    assert resp.status == 200
    assert body["shards"] == 2


async def test_each_shard_gets_only_its_guilds_and_their_events(
    sharded_fake: FakeDiscord,
) -> None:
    fake = sharded_fake
    g0 = fake.add_guild_on_shard("Zero", 0)
    g1 = fake.add_guild_on_shard("One", 1)
    assert (shard_of(g0.id, 2), shard_of(g1.id, 2)) == (0, 1)
    async with aiohttp.ClientSession() as session:
        s0 = await identify(session, fake, [0, 2])
        s1 = await identify(session, fake, [1, 2])
        ready0, ready1 = await s0.until("READY"), await s1.until("READY")
        assert ready0["shard"] == [0, 2] and ready1["shard"] == [1, 2]
        assert guilds_in(ready0) == {g0.id} and guilds_in(ready1) == {g1.id}
        assert int((await s0.until("GUILD_CREATE"))["id"]) == g0.id
        assert int((await s1.until("GUILD_CREATE"))["id"]) == g1.id
        await fake.wait_for_shards([0, 1])
        assert fake.bot_ready

        # A later event of guild One goes on shard 1 only.
        member = fake.add_member(g1, "late")
        added = await s1.until("GUILD_MEMBER_ADD")
        assert int(added["user"]["id"]) == member.id
        with pytest.raises(TimeoutError):
            await s0.next_event(timeout=0.5)
        await s0.ws.close()
        await s1.ws.close()


async def test_identify_without_or_with_a_wrong_shard_is_refused(
    sharded_fake: FakeDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        for shard, code in ((None, 4011), ([2, 2], 4010), ([0, 1], 4010)):
            raw = await identify(session, sharded_fake, shard)
            with pytest.raises(ConnectionError):
                await raw.next_event()
            assert raw.ws.close_code == code, (shard, raw.ws.close_code)
    assert sharded_fake.identify_count == 0


async def test_one_process_runs_every_shard_with_shard_count_set(
    sharded_fake: FakeDiscord, start_bot_process: StartBot, tmp_path: Path
) -> None:
    fake = sharded_fake
    guilds: list[FakeGuild] = [fake.add_guild_on_shard(f"G{i}", i) for i in (0, 1)]
    people = [fake.add_member(g, f"p{g.name}") for g in guilds]
    channels = [fake.add_text_channel(g, "chips") for g in guilds]
    await start_bot_process(BOT_ARGS, bot_env(tmp_path / "db.sqlite3", SHARD_COUNT="2"), fake=fake)
    assert sorted(p["shard"] for p in fake.identify_payloads) == [[0, 2], [1, 2]]
    for person, channel in zip(people, channels, strict=True):
        r = await fake.slash(person, channel, "balance", timeout=15)
        assert "**1,000** chips" in r.all_text, r.all_text
