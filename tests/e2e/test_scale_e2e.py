"""Two bot processes, one shard each, on one PostgreSQL ledger: a guild per shard with a
Pontoon round and a Punto Banco coup in each; one process is SIGKILLed in the middle of
its Pontoon round and restarted. Chips are conserved and the audit passes.

The longer run (two processes x two shards, four guilds, or more) is a campaign:
``python scripts/campaign_scale.py`` (tests/e2e/scale_scenario.py plays both).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from localdiscord import RateLimits
from tests.e2e.conftest import BotProcess, NewFake, StartBot
from tests.e2e.pontoon_driver import BOT_ARGS
from tests.e2e.scale_scenario import play_scale, split_shards

pytestmark = pytest.mark.e2e

SHARDS = 2


async def test_two_processes_on_postgres_with_a_kill_mid_round(
    start_bot_process: StartBot, new_fake: NewFake, pg_url: str, tmp_path: Path
) -> None:
    # Discord's rate limits with the windows shrunk, as for the other end-to-end tests
    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = await new_fake(shard_count=SHARDS, rate_limits=RateLimits(scale=scale))

    async def start(env: dict[str, str], shards: Sequence[int]) -> BotProcess:
        return await start_bot_process(BOT_ARGS, env, fake=fake, shards=shards, ready_timeout=40)

    report = await play_scale(
        fake,
        start,
        pg_url,
        tmp_path,
        split_shards(SHARDS, 2),
        betting_seconds=8,
        restart_at_once=True,
    )
    print(report.as_json())  # the laps, shown with -s or when it failed
    assert report.audit_ok
    assert len(report.guild_totals) == SHARDS
