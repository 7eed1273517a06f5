"""/privacy show, /privacy delete and /chips forget through the fake Discord: a
member seated at a table is told to leave first and nothing changes; after a
deletion their chips are the house's, the ledger audit passes, and everyone else's chips
are as they were; an admin erases a member who left by their user id. And on PostgreSQL
with two bot processes (one shard each): /privacy delete run on one shard reaches the
open table the other process holds in memory (the erasure's notification), so that
table's next save does not write the member back."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from localdiscord import FakeDiscord, RateLimits
from tests.e2e.conftest import NewFake, StartBot, World
from tests.e2e.pontoon_driver import BOT_ARGS, Table, bot_env, start

pytestmark = pytest.mark.e2e


async def test_privacy_show_delete_and_forget(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = Table(fake_discord, world)
    ch = world.channel

    async def run(member: object, command: str, sub: object, options: dict[str, object]) -> str:
        r = await fake_discord.slash(member, ch, command, sub, options)  # type: ignore[arg-type]
        await t.answered(r)
        assert r.ephemeral
        return r.all_text

    for m in (world.bob, world.carol):
        await run(m, "balance", None, {})
    text = await run(world.bob, "privacy", "show", {})
    assert "What this bot stores about you" in text and "1,000 chips" in text
    assert "until deleted" in text

    # seated at a Pontoon table: refused, nothing changes
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    text = await run(world.bob, "privacy", "delete", {"confirm": True})
    assert "leave it" in text and "Nothing was changed" in text
    assert "1,000 chips" in await run(world.bob, "privacy", "show", {})
    await t.click(world.bob, "Leave")

    # without confirm: what would happen; with it: done
    text = await run(world.bob, "privacy", "delete", {})
    assert "confirm: True" in text and "1,000 chips go to the house" in text
    text = await run(world.bob, "privacy", "delete", {"confirm": True})
    assert "Done" in text and "1,000 chips went to the house" in text
    text = await run(world.bob, "privacy", "show", {})
    assert "0 in all" in text and "0 chips" in text
    # nothing in the database names Bob any more: his ledger rows are anonymised, the
    # open table he sat at names him by a token
    assert str(world.bob.user.id) not in _dump(db)
    assert _erasures(db) == [("everywhere", 1, 1000)]
    # the table carries on, and its next save does not bring him back
    await t.click(world.carol, "Join")
    assert str(world.bob.user.id) not in _dump(db)
    await t.click(world.carol, "Leave")

    # an admin forgets a member who left, by user id; a plain member may not
    carol = str(world.carol.user.id)
    text = await run(world.bob, "chips", "forget", {"user_id": carol, "confirm": True})
    assert "Manage Server" in text
    text = await run(world.alice, "chips", "forget", {"user_id": carol})
    assert "confirm: True" in text
    text = await run(world.alice, "chips", "forget", {"user_id": carol, "confirm": True})
    assert f"member {carol}" in text and "1,000 chips went to the house" in text
    assert carol not in _dump(db)
    assert _erasures(db) == [("everywhere", 1, 1000), ("server", 1, 1000)]
    text = await run(world.alice, "chips", "forget", {"user_id": "not an id", "confirm": True})
    assert "not a Discord user id" in text

    # the ledger adds up, alice's chips untouched
    assert "OK" in await run(world.alice, "chips", "audit", {})
    assert "1,000" in await run(world.alice, "balance", None, {})
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "audit", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr


def _dump(db: Path) -> str:
    """Every row of every table of the bot's database, as SQL text."""
    con = sqlite3.connect(db)
    try:
        return "\n".join(con.iterdump())
    finally:
        con.close()


def _erasures(db: Path) -> list[tuple[str, int, int]]:
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT scope, accounts, chips_to_house FROM erasures ORDER BY id")
        return [(str(r[0]), int(r[1]), int(r[2])) for r in found]
    finally:
        con.close()


async def test_privacy_delete_on_one_shard_reaches_the_other_process(
    start_bot_process: StartBot, new_fake: NewFake, pg_url: str, tmp_path: Path
) -> None:
    scale = float(os.environ.get("FAKE_DISCORD_RATE_SCALE", "0.2"))
    fake = await new_fake(shard_count=2, rate_limits=RateLimits(scale=scale))
    here, there = fake.add_guild_on_shard("Here", 0), fake.add_guild_on_shard("There", 1)
    ch_here, ch_there = fake.add_text_channel(here, "lobby"), fake.add_text_channel(there, "p")
    alice, carol = fake.add_member(there, "alice"), fake.add_member(there, "carol")
    bob = fake.add_member(there, "bobbington")
    bob_here = fake.add_member(here, "bobbington", user=bob.user)
    bob_id = str(bob.user.id)
    await asyncio.gather(
        *(
            start_bot_process(
                BOT_ARGS,
                bot_env(
                    tmp_path / "unused.sqlite3",
                    DATABASE_URL=pg_url,
                    SHARD_COUNT="2",
                    SHARD_IDS=str(shard),
                    SHARD_LEASE_SECONDS="3",
                ),
                fake=fake,
                shards=[shard],
                ready_timeout=40,
            )
            for shard in (0, 1)
        )
    )
    # Bob sits at a table of the server on shard 1 under his name, and leaves
    t = Table(fake, World(there, ch_there, alice, bob, carol))
    await t.slash(alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(bob, "Join")
    await t.click(bob, "Leave")
    assert bob_id in await _pg_tables(pg_url)

    # /privacy delete in the server on shard 0: the other process erases nothing
    # itself, it is told
    r = await fake.slash(bob_here, ch_here, "privacy", "delete", {"confirm": True})
    if r.callback_type == 5:
        await r.wait_message(timeout=10)
    assert "Done" in r.all_text, r.all_text
    for _ in range(100):  # the other process saves its table scrubbed at once
        if "member data erased" in await _pg_tables(pg_url):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the process on shard 1 did not scrub its open table")
    # its next save does not bring him back
    await t.click(carol, "Join")
    stored = await _pg_tables(pg_url)
    assert str(carol.user.id) in stored
    assert bob_id not in stored and "bobbington" not in stored
    t.assert_all_answered()


async def _pg_tables(url: str) -> str:
    """The table snapshots and table logs in the PostgreSQL database, as text."""
    conn = await asyncpg.connect(url)
    try:
        found = [r[0] for r in await conn.fetch("SELECT state_json FROM game_tables")]
        found += [r[0] for r in await conn.fetch("SELECT description FROM table_actions")]
        return "\n".join(found)
    finally:
        await conn.close()
