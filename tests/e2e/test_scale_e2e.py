"""Two bot processes x two shards each on one PostgreSQL ledger, four guilds (one per
shard), Pontoon rounds and Punto Banco coups in every guild; one process is SIGKILLed in
the middle of its Pontoon rounds and restarted. Chips are conserved and the audit passes.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.audit import audit
from bot.storage.pg import PgStore
from localdiscord import FakeDiscord, FakeMessage
from tests.e2e.conftest import REPO_ROOT, BotProcess, StartBot, World
from tests.e2e.pontoon_driver import BOT_ARGS, Table, bot_env
from tests.e2e.test_pontoon_e2e import banker_name, open_table, play_out

pytestmark = pytest.mark.e2e

SHARDS = 4
PROCESS_SHARDS = ((0, 1), (2, 3))
START_CHIPS = 1000


@dataclass
class Guild:
    pontoon: World  # alice, bob, carol at the Pontoon table
    baccarat: World  # dave, erin (as .alice, .bob) at the Punto Banco table


def coup_summaries(fake: FakeDiscord, w: World) -> list[FakeMessage]:
    return [
        m
        for m in fake.channel_messages(w.channel)
        if not m.ephemeral and any("Coup #" in str(e.get("title", "")) for e in m.embeds)
    ]


async def test_two_processes_four_shards_on_postgres_with_a_kill(
    start_bot_process: StartBot, pg_url: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(shard_count=SHARDS)
    await fake.start()
    try:
        await _play(fake, start_bot_process, pg_url, tmp_path)
    finally:
        await fake.stop()


async def _play(fake: FakeDiscord, start_bot_process: StartBot, url: str, tmp: Path) -> None:
    guilds: list[Guild] = []
    for shard in range(SHARDS):
        g = fake.add_guild_on_shard(f"Casino {shard}", shard)
        pontoon = fake.add_text_channel(g, "pontoon")
        baccarat = fake.add_text_channel(g, "baccarat")
        alice = fake.add_member(g, "alice", manage_guild=True)
        dave, erin = fake.add_member(g, "dave"), fake.add_member(g, "erin")
        guilds.append(
            Guild(
                World(g, pontoon, alice, fake.add_member(g, "bob"), fake.add_member(g, "carol")),
                World(g, baccarat, dave, erin, alice),
            )
        )
    env = [
        bot_env(
            tmp / "unused.sqlite3",
            DATABASE_URL=url,
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=",".join(map(str, ids)),
            SHARD_LEASE_SECONDS="3",
            BACCARAT_BETTING_SECONDS="12",
        )
        for ids in PROCESS_SHARDS
    ]
    procs: list[BotProcess] = list(
        await asyncio.gather(
            *(
                start_bot_process(BOT_ARGS, e, fake=fake, shards=ids, ready_timeout=40)
                for e, ids in zip(env, PROCESS_SHARDS, strict=True)
            )
        )
    )
    # A third process asking for shards the two hold is refused, and changes nothing.
    code, out = await _run_refused({**fake.bot_env(), **env[0], "SHARD_IDS": "1,2"})
    assert code == 3 and "another bot process is running these shards" in out, out

    # Punto Banco: a coup in every guild, bets on both sides.
    tables = [Table(fake, g.pontoon) for g in guilds]
    for g in guilds:
        b = Table(fake, g.baccarat)
        r = await b.slash(g.baccarat.alice, "start", {"max_bet": 500}, command="baccarat")
        assert "Punto Banco table open" in r.all_text, r.all_text
        for member, side in ((g.baccarat.alice, "banco"), (g.baccarat.bob, "punto")):
            r = await b.slash(member, "bet", {"side": side, "amount": 20}, command="baccarat")
            assert "placed" in r.all_text, r.all_text

    # Pontoon: a round dealt and bet in every guild.
    for t, g in zip(tables, guilds, strict=True):
        w = g.pontoon
        await open_table(t, players=(w.alice, w.bob, w.carol))
        await t.click(w.alice, "Deal")
        banker = banker_name(t)
        for m in (w.alice, w.bob, w.carol):
            if m.user.name != banker:
                await t.form(m, "Bet", "2")

    # Kill the process running shards 2 and 3 in the middle of those rounds.
    killed = procs[1]
    killed.proc.send_signal(signal.SIGKILL)
    await killed.proc.wait()
    # Meanwhile the other process plays its guilds to the end.
    for t, g in zip(tables[:2], guilds[:2], strict=True):
        await play_out(t, g.pontoon)
    # Restarted, it waits out its dead predecessor's leases, reloads only its guilds'
    # tables, and the rounds go on where they stopped.
    procs[1] = await start_bot_process(
        BOT_ARGS, env[1], fake=fake, shards=PROCESS_SHARDS[1], ready_timeout=40
    )
    await fake.wait_until(lambda: "reloaded" in procs[1].output(), timeout=10)
    assert re.search(r"reloaded 2 open table\(s\)", procs[1].output()), procs[1].output()
    for t, g in zip(tables[2:], guilds[2:], strict=True):
        await play_out(t, g.pontoon)

    for t in tables:
        assert any("Payouts" in x for x in t.public_texts()), t.channel_text()
    for g in guilds:
        await fake.wait_until(lambda g=g: bool(coup_summaries(fake, g.baccarat)), timeout=40)
    await tables[0].quiet()

    store = await PgStore.connect(url, migrate_schema=False)
    try:
        report = await audit(store)
        assert report.ok, report.summary()
        for g in guilds:
            totals = report.guilds[g.pontoon.guild.id]
            assert totals.granted == 5 * START_CHIPS  # five members' starting chips
            assert totals.total == totals.granted  # not a chip created or lost
    finally:
        await store.close()


async def _run_refused(env: dict[str, str]) -> tuple[int, str]:
    """Run a bot that must refuse to start; its exit code and output."""
    pythonpath = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    proc = await asyncio.create_subprocess_exec(
        *BOT_ARGS,
        env={**os.environ, "PYTHONPATH": pythonpath, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=str(REPO_ROOT),
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return int(proc.returncode or 0), out.decode(errors="replace")
