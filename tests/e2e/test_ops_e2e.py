"""Operators' view of a running bot: /metrics moves with play, /healthz and
`python -m bot health` say it is healthy, JSON logs name the member and never the token,
`python -m bot migrate --check` says the database is up to date."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from localdiscord import FakeDiscord
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _sample(text: str, name: str, **labels: str) -> float:
    """One sample's value in a Prometheus text page (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        metric, _, rest = key.partition("{")
        got = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
        if metric == name and got == want:
            return float(value)
    return 0.0


async def test_metrics_and_health_of_a_running_bot(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    port = _free_port()
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db, METRICS_PORT=str(port), LOG_FORMAT="json")
    base = f"http://127.0.0.1:{port}"
    t = Table(fake_discord, world)
    async with aiohttp.ClientSession() as http:

        async def scrape() -> str:
            async with http.get(f"{base}/metrics") as r:
                assert r.status == 200
                return await r.text()

        before = await scrape()
        await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
        await t.click(world.bob, "Join")
        refused = await t.click(world.carol, "Deal")  # not seated: refused privately
        assert refused.ephemeral
        after = await scrape()
        answered = "pontoon_interactions_answered_total"
        assert (
            _sample(after, answered, kind="callback")
            >= _sample(before, answered, kind="callback") + 3
        )
        assert _sample(after, "pontoon_interaction_answer_seconds_count") >= 3
        assert _sample(after, "pontoon_open_tables", game="pontoon") == 1
        assert _sample(after, "pontoon_storage_write_seconds_count") >= 2
        refusals = [
            line for line in after.splitlines() if line.startswith("pontoon_refusals_total{")
        ]
        assert refusals, after
        posts = _sample(after, "pontoon_rest_requests_total", method="POST", status="204")
        posts += _sample(after, "pontoon_rest_requests_total", method="POST", status="200")
        assert posts >= 1

        # healthy once discord.py is ready (it answers interactions a little before: it
        # waits up to 2 s for the last GUILD_CREATE before on_ready)
        deadline = asyncio.get_running_loop().time() + 15
        while True:
            async with http.get(f"{base}/healthz") as r:
                body = await r.json()
            if r.status == 200 or asyncio.get_running_loop().time() > deadline:
                break
            assert body["checks"]["gateway"] is False, body  # only the start may be pending
            await asyncio.sleep(0.2)
        assert r.status == 200 and body["ok"], body
        assert body["checks"] == {"gateway": True, "database": True, "shard_leases": True}

    env = {**os.environ, "METRICS_PORT": str(port), "DATABASE_PATH": str(db)}
    health = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "health"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )
    assert health.returncode == 0, health.stderr
    assert json.loads(health.stdout)["ok"] is True

    check = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "migrate", "--check"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
    )
    assert check.returncode == 0 and "up to date" in check.stdout, check.stdout + check.stderr

    # JSON logs: one object a line, the interaction's ids on the lines of its answer
    lines = [json.loads(x) for x in bot.output().splitlines() if x.startswith("{")]
    assert lines and all("message" in line and "level" in line for line in lines)
    assert any(line.get("member") == world.alice.user.id for line in lines), lines[-5:]
    await bot.stop()
    assert fake_discord.bot_env()["DISCORD_TOKEN"] not in bot.output()
