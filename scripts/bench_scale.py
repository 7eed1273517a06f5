#!/usr/bin/env python
"""Scaling benchmark: clicks per second with one and with two bot processes on PostgreSQL,
and the storage cost of one click on PostgreSQL and on SQLite, measured in the same run.

1. **Clicks/s** (through the fake Discord on 127.0.0.1, real bot processes): a fake with 2
   shards, ``--guilds`` guilds spread over both, ``--tables`` Pontoon tables per guild and
   ``--members`` members per table, each member clicking Join, then Leave, then Join...
   as fast as the bot answers (every click is one stored table write). Run with
   (a) one process running both shards on PostgreSQL, (b) two processes, one shard each,
   on the same PostgreSQL database, and (c) for reference one process on SQLite. Reported:
   answered clicks per second over ``--seconds`` after a warm-up, late answers (> 3 s).
2. **Per-click storage cost** (in this process, no Discord): the table service's
   Join + Leave on one table, ``--ops`` times, on a PostgreSQL database and on a SQLite
   file (FULL sync, as the bot runs it): mean and p50/p90 milliseconds per click, and
   SQL statements per click on PostgreSQL.

    python scripts/bench_scale.py                       # prints JSON, then a summary
    python scripts/bench_scale.py --seconds 20 --postgres postgresql://postgres@127.0.0.1:5432/test
    python scripts/bench_scale.py --open-tables 5000   # one process, many tables

``--open-tables N`` measures something else, in one process on SQLite (no PostgreSQL):
N open tables over many servers, at N and at 50: memory per table, idle CPU, click CPU
and latency percentiles, a clean restart's and a killed restart's time and requests
(``scripts/bench_open_tables.py`` says how). ``--bot-dir`` measures another checkout.

Needs a PostgreSQL server (``--postgres``, default the tests' one); creates and drops a
database of its own. The load generator shares the machine with the bots: on a small
machine the two-process figure is bounded by the CPUs, not by the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO_ROOT = Path(__file__).resolve().parents[1]
for _path in (REPO_ROOT, REPO_ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import asyncpg  # noqa: E402

from bot.pontoon import PontoonService  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.storage.pg import PgStore  # noqa: E402
from engine.pontoon import PontoonRules  # noqa: E402
from engine.pontoon.types import ActionKind  # noqa: E402
from localdiscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
)
from localdiscord.server import die_with_parent  # noqa: E402

DEFAULT_PG = os.environ.get("PONTOON_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


@contextlib.asynccontextmanager
async def scratch_database(server: str) -> AsyncIterator[str]:
    """A new empty database on the server for this run; dropped afterwards."""
    name = f"pontoon_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield with_database(server, name)
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


# ------------------------------------------------------------------ 1. clicks per second
async def start_bot(
    fake: FakeDiscord, env: dict[str, str], shard_ids: list[int], log: Path
) -> asyncio.subprocess.Process:
    full = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        **fake.bot_env(),
        "LOG_LEVEL": "WARNING",
        "PONTOON_IDLE_MINUTES": "600",
        "PONTOON_BET_SECONDS": "3600",
        "PONTOON_TURN_SECONDS": "3600",
        "SHARD_COUNT": str(fake.shard_count),
        "SHARD_IDS": ",".join(map(str, shard_ids)),
        **env,
    }
    before = fake.identify_count
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=full,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=log.open("ab"),
        stderr=asyncio.subprocess.STDOUT,
        cwd=str(REPO_ROOT),
        preexec_fn=die_with_parent,
    )
    await fake.wait_for_shards(shard_ids, 60, identify_count=before + len(shard_ids))
    return proc


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def has_join(fake: FakeDiscord, channel: FakeChannel) -> bool:
    return any(m.has_button("Join") for m in fake.channel_messages(channel))


def click_done(fake: FakeDiscord, r: InteractionResult, message_id: int, edits: int) -> bool:
    """The click had its effect: a private answer, or the table message was redrawn."""
    return bool(r.followups) or fake.message(message_id).edit_count > edits


async def table_writes(env: dict[str, str]) -> int:
    """Every table version ever written (each applied Join or Leave adds one)."""
    sql = "SELECT COALESCE(SUM(version), 0) FROM game_tables"
    if "DATABASE_URL" in env:
        conn = await asyncpg.connect(env["DATABASE_URL"])
        try:
            return int(await conn.fetchval(sql))
        finally:
            await conn.close()
    with sqlite3.connect(env["DATABASE_PATH"]) as con:
        return int(con.execute(sql).fetchone()[0])


async def stop(procs: list[asyncio.subprocess.Process]) -> None:
    for p in procs:
        if p.returncode is None:
            p.terminate()
    for p in procs:
        try:
            await asyncio.wait_for(p.wait(), 10)
        except TimeoutError:
            p.kill()
            await p.wait()


async def clicks_per_second(
    label: str,
    *,
    processes: list[list[int]],
    env: dict[str, str],
    guilds: int,
    tables: int,
    members: int,
    seconds: float,
    warmup: float,
    log_dir: Path,
) -> dict[str, Any]:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    procs: list[asyncio.subprocess.Process] = []
    try:
        seats: list[tuple[FakeMessage, list[FakeMember]]] = []
        layout = []
        for i in range(guilds):
            g = fake.add_guild_on_shard(f"G{i}", i % 2)
            for j in range(tables):
                ch = fake.add_text_channel(g, f"table{j}")
                opener = fake.add_member(g, f"o{i}_{j}")
                people = [fake.add_member(g, f"m{i}_{j}_{k}") for k in range(members)]
                layout.append((ch, opener, people))
        procs = list(
            await asyncio.gather(
                *(
                    start_bot(fake, env, ids, log_dir / f"{label}-{n}.log")
                    for n, ids in enumerate(processes)
                )
            )
        )
        for ch, opener, people in layout:
            await fake.slash(opener, ch, "pontoon", "start", {"min_bet": 1}, timeout=30)
            await fake.wait_until(partial(has_join, fake, ch), 30)
            msg = fake.latest_message_with_button(ch, "Join")
            seats.append((msg, people))
        await fake.settle(quiet=0.5, timeout=30)

        done: list[float] = []
        late = unanswered = 0
        stop_at = time.perf_counter() + warmup + seconds
        measure_from = time.perf_counter() + warmup

        async def member_loop(msg: FakeMessage, member: FakeMember) -> None:
            """Click, wait until the click had its effect (the table message redrawn or a
            private refusal), click the other button, and so on."""
            nonlocal late, unanswered
            label_next = "Join"
            while time.perf_counter() < stop_at:
                current = fake.message(msg.id)
                edits = current.edit_count
                try:
                    r = await fake.click(member, current, label=label_next, timeout=10)
                    await fake.wait_until(partial(click_done, fake, r, msg.id, edits), 10)
                except Exception:
                    unanswered += 1
                    await asyncio.sleep(0.05)
                    continue
                now = time.perf_counter()
                if r.late:
                    late += 1
                if now >= measure_from:
                    done.append(now)
                label_next = "Leave" if label_next == "Join" else "Join"

        cpu: dict[str, list[float]] = {}

        async def versions_at(moment: float) -> int:
            await asyncio.sleep(max(0.0, moment - time.perf_counter()))
            for proc in procs:
                cpu.setdefault(f"bot{proc.pid}", []).append(cpu_seconds(proc.pid))
            cpu.setdefault("driver", []).append(time.process_time())
            return await table_writes(env)

        loops = [member_loop(msg, m) for msg, people in seats for m in people]
        first = asyncio.ensure_future(versions_at(measure_from))
        last = asyncio.ensure_future(versions_at(measure_from + seconds))
        await asyncio.gather(*loops)
        v0, v1 = await first, await last
        measured = [t for t in done if t <= measure_from + seconds]
        writes = max(1, v1 - v0)
        bots = [round(v[1] - v[0], 2) for k, v in cpu.items() if k.startswith("bot")]
        return {
            "label": label,
            "processes": len(processes),
            "shards_per_process": [len(p) for p in processes],
            "concurrent_members": sum(len(p) for _, p in seats),
            "clicks": len(measured),
            "clicks_per_s": round(len(measured) / seconds, 1),
            "table_writes_per_s": round((v1 - v0) / seconds, 1),
            "bot_cpu_s": bots,
            "bot_cpu_ms_per_click": round(sum(bots) * 1000 / writes, 2),
            "driver_cpu_s": round(cpu["driver"][1] - cpu["driver"][0], 2),
            "late_over_3s": late,
            "unanswered": unanswered,
        }
    finally:
        await stop(procs)
        await fake.stop()


# --------------------------------------------------------- 2. storage cost of one click
async def storage_cost(store: Store, ops: int) -> dict[str, Any]:
    service = PontoonService(store)
    live = await service.open_table(1 << 22, 10, 1, PontoonRules(min_bet=1))
    for user in range(100, 104):  # a few seated members make the snapshot realistic
        await service.act(live.table_id, user, ActionKind.JOIN)
    times: list[float] = []
    pg = store.pg if isinstance(store, PgStore) else None
    statements_before = pg.statements if pg is not None else 0
    for _ in range(ops):
        for kind in (ActionKind.JOIN, ActionKind.LEAVE):
            t0 = time.perf_counter()
            await service.act(live.table_id, 7, kind)
            times.append(time.perf_counter() - t0)
    await service.shutdown()
    ms = sorted(t * 1000 for t in times)
    out: dict[str, Any] = {
        "clicks": len(ms),
        "mean_ms": round(statistics.fmean(ms), 3),
        "p50_ms": round(ms[len(ms) // 2], 3),
        "p90_ms": round(ms[int(len(ms) * 0.9)], 3),
    }
    if pg is not None:
        out["statements_per_click"] = round((pg.statements - statements_before) / len(ms), 1)
        out["serialization_retries"] = store.retries  # type: ignore[attr-defined]
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {"clicks": [], "storage_per_click": {}}
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        async with scratch_database(args.postgres) as url:
            # 2. per-click storage cost, both backends, this run
            pg = await PgStore.connect(url)
            try:
                results["storage_per_click"]["postgresql"] = await storage_cost(pg, args.ops)
            finally:
                await pg.close()
            lite = await Store.open(tmpdir / "cost.sqlite3")
            try:
                results["storage_per_click"]["sqlite"] = await storage_cost(lite, args.ops)
            finally:
                await lite.close()

        common = {
            "guilds": args.guilds,
            "tables": args.tables,
            "members": args.members,
            "seconds": args.seconds,
            "warmup": args.warmup,
            "log_dir": tmpdir,
        }
        runs: list[tuple[str, list[list[int]], str | None]] = [
            ("postgresql, 1 process x 2 shards", [[0, 1]], "pg"),
            ("postgresql, 2 processes x 1 shard", [[0], [1]], "pg"),
            ("sqlite, 1 process x 2 shards", [[0, 1]], None),
        ]
        for label, procs, backend in runs:
            if backend == "pg":
                async with scratch_database(args.postgres) as url:
                    env = {"DATABASE_URL": url}
                    results["clicks"].append(
                        await clicks_per_second(label, processes=procs, env=env, **common)
                    )
            else:
                env = {"DATABASE_PATH": str(tmpdir / f"bench-{secrets.token_hex(3)}.sqlite3")}
                results["clicks"].append(
                    await clicks_per_second(label, processes=procs, env=env, **common)
                )
    results["machine"] = {"cpus": os.cpu_count(), "load_avg_1m": round(os.getloadavg()[0], 2)}
    return results


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--postgres", default=DEFAULT_PG, help="PostgreSQL server URL (any database)")
    p.add_argument("--seconds", type=float, default=15.0, help="measured seconds per run")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--guilds", type=int, default=8)
    p.add_argument("--tables", type=int, default=4, help="Pontoon tables per guild")
    p.add_argument("--members", type=int, default=1, help="clicking members per table")
    p.add_argument("--ops", type=int, default=300, help="Join+Leave pairs for the cost test")
    many = p.add_argument_group("--open-tables mode (one process, SQLite)")
    many.add_argument("--open-tables", type=int, default=0, help="open tables at the most")
    many.add_argument("--bot-dir", default=str(REPO_ROOT), help="the checkout whose bot runs")
    many.add_argument("--per-guild", type=int, default=500, help="tables per server")
    many.add_argument("--clickers", type=int, default=10, help="waiting tables clicked at")
    many.add_argument("--pause", type=float, default=0.05, help="seconds between a member's clicks")
    many.add_argument("--clicks", type=int, default=1000, help="Join/Leave clicks measured")
    many.add_argument(
        "--lockstep",
        action="store_true",
        help="the clicking members start at the same moment and pause exactly --pause "
        "each time (the way this bench clicked up to commit 7e7674c)",
    )
    many.add_argument("--changed", type=int, default=10, help="tables clicked before the kill")
    many.add_argument("--idle-seconds", type=float, default=10.0)
    many.add_argument("--settle", type=float, default=3.0, help="seconds before reading RSS")
    many.add_argument(
        "--tracemalloc",
        type=int,
        nargs="?",
        const=1,
        default=0,
        metavar="FRAMES",
        help="trace the bot's allocations (FRAMES deep); print where memory grows per table",
    )
    many.add_argument(
        "--profile",
        action="store_true",
        help="profile the bot (cProfile) over the measured clicks and print its busiest code",
    )
    many.add_argument(
        "--gc-stats",
        action="store_true",
        help="time the bot's garbage collections over the measured clicks (not with --profile)",
    )
    many.add_argument(
        "--trim",
        action="store_true",
        help="after reading RSS, have the bot give freed C-heap memory back (malloc_trim) "
        "and read it again: what is left is memory in use, the rest fragmentation",
    )
    many.add_argument("--concurrency", type=int, default=4, help="clicks in flight at setup")
    args = p.parse_args()
    if args.gc_stats and args.profile:
        p.error("--gc-stats and --profile both use the bot's SIGUSR2: choose one")
    if args.open_tables:
        from bench_open_tables import run, summary

        many_result = asyncio.run(run(args))
        print(json.dumps(many_result, indent=2))
        print(summary(many_result))
        return 0
    results = asyncio.run(main_async(args))
    print(json.dumps(results, indent=2))
    for run in results["clicks"]:
        print(
            f"{run['label']:<36} {run['clicks_per_s']:>7} clicks/s done, "
            f"{run['table_writes_per_s']:>7} table writes/s, "
            f"bot CPU {run['bot_cpu_ms_per_click']} ms/click {run['bot_cpu_s']}, "
            f"driver CPU {run['driver_cpu_s']} s, late {run['late_over_3s']}"
        )
    for name, cost in results["storage_per_click"].items():
        extra = (
            f", {cost['statements_per_click']} statements" if "statements_per_click" in cost else ""
        )
        print(
            f"storage per click, {name:<11} mean {cost['mean_ms']} ms, p90 {cost['p90_ms']} ms{extra}"
        )
    bad = any(r["late_over_3s"] or r["unanswered"] for r in results["clicks"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
