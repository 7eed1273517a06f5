"""Several bot processes, each running some shards, on one PostgreSQL ledger: a guild per
shard with a Pontoon round and a Punto Banco coup in each; the last process is SIGKILLed
in the middle of its Pontoon rounds and restarted. Chips are conserved and the audit
passes.

Used by ``tests/e2e/test_scale_e2e.py`` (two processes x one shard, for CI) and by
``scripts/campaign_scale.py`` (two processes x two shards by default, or more)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.audit import audit
from bot.storage.pg import PgStore
from localdiscord import FakeDiscord, FakeMessage
from tests.e2e.conftest import REPO_ROOT, BotProcess, World
from tests.e2e.pontoon_driver import BOT_ARGS, Table, bot_env
from tests.e2e.test_pontoon_e2e import banker_name, open_table, play_out

START_CHIPS = 1000

# start(env, shards) -> a bot process running those shards of the fake, connected
StartShards = Callable[[dict[str, str], Sequence[int]], Awaitable[BotProcess]]


@dataclass
class Guild:
    pontoon: World  # alice, bob, carol at the Pontoon table
    baccarat: World  # dave, erin (as .alice, .bob) at the Punto Banco table


@dataclass
class ScaleReport:
    """What a run did, for the campaign's JSON report."""

    shards: int
    processes: list[list[int]]
    seconds: dict[str, float] = field(default_factory=dict)
    guild_totals: dict[str, dict[str, int]] = field(default_factory=dict)
    audit_ok: bool = False
    audit_summary: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "shards": self.shards,
            "processes": self.processes,
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
            "guild_totals": self.guild_totals,
            "audit_ok": self.audit_ok,
            "audit_summary": self.audit_summary,
        }


def coup_summaries(fake: FakeDiscord, w: World) -> list[FakeMessage]:
    return [
        m
        for m in fake.channel_messages(w.channel)
        if not m.ephemeral and any("Coup #" in str(e.get("title", "")) for e in m.embeds)
    ]


def split_shards(shards: int, processes: int) -> tuple[tuple[int, ...], ...]:
    """Shards 0..shards-1 in ``processes`` consecutive runs (4, 2 -> (0, 1), (2, 3))."""
    if shards < processes or processes < 2:
        raise ValueError("need at least two processes and a shard for each")
    per, extra = divmod(shards, processes)
    out, first = [], 0
    for i in range(processes):
        n = per + (1 if i < extra else 0)
        out.append(tuple(range(first, first + n)))
        first += n
    return tuple(out)


async def play_scale(
    fake: FakeDiscord,
    start: StartShards,
    url: str,
    tmp: Path,
    process_shards: tuple[tuple[int, ...], ...],
    *,
    betting_seconds: int = 12,
    lease_seconds: int = 3,
    restart_at_once: bool = False,
) -> ScaleReport:
    """Play the scenario on ``fake`` (sharded: ``fake.shard_count`` shards, split between
    processes as ``process_shards``); raise AssertionError on anything wrong.
    ``restart_at_once``: restart the killed process right after the kill, while the
    others play out their rounds (shorter), instead of after."""
    shards = fake.shard_count
    assert sorted(s for ids in process_shards for s in ids) == list(range(shards))
    report = ScaleReport(shards, [list(ids) for ids in process_shards])
    began = time.monotonic()

    def lap(name: str) -> None:
        report.seconds[name] = time.monotonic() - began

    guilds: list[Guild] = []
    for shard in range(shards):
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
            SHARD_COUNT=str(shards),
            SHARD_IDS=",".join(map(str, ids)),
            SHARD_LEASE_SECONDS=str(lease_seconds),
            PUNTO_BANCO_BETTING_SECONDS=str(betting_seconds),
        )
        for ids in process_shards
    ]
    procs: list[BotProcess] = list(
        await asyncio.gather(*(start(e, ids) for e, ids in zip(env, process_shards, strict=True)))
    )
    lap("started")
    # A further process asking for shards of two running processes is refused, and
    # changes nothing (it runs while the games begin; its answer is checked below).
    taken = f"{process_shards[0][-1]},{process_shards[1][0]}"
    refusal = asyncio.ensure_future(run_refused({**fake.bot_env(), **env[0], "SHARD_IDS": taken}))

    # Punto Banco: a coup in every guild, bets on both sides.
    tables = [Table(fake, g.pontoon) for g in guilds]
    for g in guilds:
        b = Table(fake, g.baccarat)
        r = await b.slash(g.baccarat.alice, "start", {"max_bet": 500}, command="baccarat")
        assert "Punto Banco table open" in r.all_text, r.all_text
        for member, side in ((g.baccarat.alice, "banco"), (g.baccarat.bob, "punto")):
            r = await b.slash(member, "bet", {"side": side, "amount": 20}, command="baccarat")
            assert "placed" in r.all_text, r.all_text
    lap("coups bet")

    # Pontoon: a round dealt and bet in every guild.
    for t, g in zip(tables, guilds, strict=True):
        w = g.pontoon
        await open_table(t, players=(w.alice, w.bob, w.carol))
        await t.click(w.alice, "Deal")
        banker = banker_name(t)
        for m in (w.alice, w.bob, w.carol):
            if m.user.name != banker:
                await t.form(m, "Bet", "2")
    lap("rounds bet")
    code, out = await refusal
    assert code == 3 and "another bot process is running these shards" in out, out
    lap("refused")

    # Kill the last process in the middle of its guilds' rounds.
    killed_shards = process_shards[-1]
    killed = procs[-1]
    killed.proc.send_signal(signal.SIGKILL)
    await killed.proc.wait()
    on_killed = [i for i in range(shards) if i in killed_shards]
    on_living = [i for i in range(shards) if i not in killed_shards]
    # ``restart_at_once``: its successor starts now (and waits out the dead process's
    # leases) while the other processes play; else only after they played.
    restarting = asyncio.ensure_future(start(env[-1], killed_shards)) if restart_at_once else None
    # Meanwhile the other processes play their guilds to the end.
    for i in on_living:
        await play_out(tables[i], guilds[i].pontoon)
    lap("killed; others played out")
    # Restarted, it waits out its dead predecessor's leases, reloads only its guilds'
    # tables, and the rounds go on where they stopped.
    procs[-1] = await (restarting or start(env[-1], killed_shards))
    # Start-up logs one line per game (bot/games.py's registry), Punto Banco's last:
    # every killed guild has one open Pontoon table and one open Punto Banco table.
    await fake.wait_until(lambda: "table(s) of Punto Banco" in procs[-1].output(), timeout=10)
    for title in ("Pontoon", "Punto Banco"):
        reloaded = rf"reloaded {len(on_killed)} open table\(s\) of {title}"
        assert re.search(reloaded, procs[-1].output()), procs[-1].output()
    lap("restarted")
    for i in on_killed:
        await play_out(tables[i], guilds[i].pontoon)
    lap("played out")

    for t in tables:
        assert any("Payouts" in x for x in t.public_texts()), t.channel_text()
    for g in guilds:
        await fake.wait_until(lambda g=g: bool(coup_summaries(fake, g.baccarat)), timeout=40)
    await tables[0].quiet()
    lap("coups dealt")

    store = await PgStore.connect(url, migrate_schema=False)
    try:
        result = await audit(store)
        report.audit_ok, report.audit_summary = result.ok, result.summary()
        assert result.ok, result.summary()
        for g in guilds:
            totals = result.guilds[g.pontoon.guild.id]
            report.guild_totals[g.pontoon.guild.name] = {
                "granted": totals.granted,
                "total": totals.total,
            }
            assert totals.granted == 5 * START_CHIPS  # five members' starting chips
            assert totals.total == totals.granted  # not a chip created or lost
    finally:
        await store.close()
    lap("audited")
    return report


async def run_refused(env: dict[str, str]) -> tuple[int, str]:
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
