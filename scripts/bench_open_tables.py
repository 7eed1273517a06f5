"""Many open tables in one bot process: memory, idle CPU, click cost and restart cost.

The ``--open-tables`` mode of ``scripts/bench_scale.py``. For each size (50,
then ``--open-tables``) it builds that many Pontoon tables over many servers (at most
``--per-guild`` channels each) in a SQLite file, in this process's own subprocess through
the table service (fast: no Discord, the database unsynced while it fills), then starts the
real bot (``python -m bot`` from ``--bot-dir``) against the fake Discord on 127.0.0.1
(rate limits off) and measures:

- every table but ``--clickers`` is mid-round: four seated members, the cut made, dealt,
  the three players' bets in; each of the four then clicks **Show my cards** (so the bot
  has seen an interaction from each); the other ``--clickers`` tables wait for players,
  one member at each clicking Join / Leave for the click figures;
- ``rss_mib``: the bot's resident memory after that (a full collection run first by the
  time it settles); ``kib_per_table`` is the slope between the two sizes;
- ``idle_cpu_pct``: the bot's CPU over ``--idle-seconds`` with no traffic;
- ``click_cpu_ms`` and latency p50/p95/p99/max of ``--clicks`` Join/Leave clicks at the
  waiting tables (each clicking member pauses ``--pause`` seconds after each answer, and
  the members start one after another, spread over one pause, so the bot is not saturated
  and the latency is not a queue's) (bot CPU over the clicks divided by the clicks;
  ``click_cpu_ms_net`` takes away what the process used idle over the same seconds);
  ``slowest``: the 15 slowest clicks, in ms, with the second of the run they were sent
  at; ``driver_cpu_ms`` and ``driver_gc``: this process's (the fake Discord's) CPU per
  click and its collections over the same clicks;
- ``burst``: one click from each of those members at the same moment, before the timed
  clicks: how long the last of them waited for its answer (a queue: shown, not judged);
- a clean restart (SIGTERM, start again): seconds until the restart's check of the table
  messages is over (no request for 3 s), its REST requests and its message reads
  (``GET /channels/{id}/messages/{id}``);
- a restart after a kill: ``--changed`` waiting tables clicked once, the bot SIGKILLed at
  once, started again: the same figures.

It ends with the five targets, PASS or FAIL, judged at the largest size: at most 32 KiB a
mid-round table, idle CPU at most 1% of a core, click CPU at most 1.2 times its value at
50 tables, p99 latency at most twice p50 plus 10 ms, no message read after a clean
restart and no more than the changed tables after a kill. The load average is printed with
each size (the machine may be shared).

The bench finds each table's message by its id (one pass over the fake's messages when
the bot has posted them), never by scanning every message of the fake per channel: that
scan made the bench itself quadratic in the number of tables and stopped the first
5,000-table runs. ``--tracemalloc [FRAMES]`` traces the bot's allocations and prints
where memory grows per table between the two sizes; ``--profile`` prints the bot's
busiest functions (cProfile) over the measured clicks at each size. Both slow the bot:
their runs are for finding causes, not for the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from localdiscord import (
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionFailed,
    RateLimits,
)
from localdiscord.server import die_with_parent

SHOW = "Show my cards"
MESSAGE_READ = "/channels/{c}/messages/{m}"

# Run with the measured checkout first on sys.path: fills the database through its service.
SEED = r"""
import asyncio, json, sys
from bot.storage import Store
from bot.host import seat_of
from bot.pontoon import PontoonService
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind

async def main(db, plan_file):
    plan = json.load(open(plan_file))
    store = await Store.open(db, synchronous="OFF")
    service = PontoonService(store)
    rules = PontoonRules(min_bet=1)
    for t in plan:
        g, ch, seats = t["guild"], t["channel"], t["seats"]
        live = await service.open_table(
            g, ch, seats[0], rules, opener_name=f"m{seats[0]}"
        )
        if not t["mid_round"]:
            continue
        for uid in seats[1:]:
            await service.act(live.table_id, uid, ActionKind.JOIN, name=f"m{uid}")
        await service.deal(live.table_id, seats[0])
        for uid in seats:
            if seat_of(uid) != live.engine.banker:
                await service.act(live.table_id, uid, ActionKind.BET, amount=1)
    await service.shutdown()
    await store.close()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))] if s else 0.0


class World:
    """The servers, channels and members of one size, in the fake."""

    def __init__(self, fake: FakeDiscord, n: int, clickers: int, per_guild: int) -> None:
        self.fake = fake
        self.mid: list[tuple[FakeChannel, list[FakeMember]]] = []
        self.waiting: list[tuple[FakeChannel, FakeMember, FakeMember]] = []
        self.posted: dict[int, int] = {}  # channel id -> the table message's id
        guilds = [fake.add_guild(f"Casino {i}") for i in range(max(1, math.ceil(n / per_guild)))]
        for i in range(n):
            g = guilds[i // per_guild]
            ch = fake.add_text_channel(g, f"pontoon-{i}")
            if i < clickers:
                self.waiting.append((ch, fake.add_member(g, f"o{i}"), fake.add_member(g, f"c{i}")))
            else:
                self.mid.append((ch, [fake.add_member(g, f"p{i}_{k}") for k in range(4)]))

    def plan(self) -> list[dict[str, Any]]:
        out = [
            {"guild": ch.guild_id, "channel": ch.id, "seats": [o.user.id], "mid_round": False}
            for ch, o, _ in self.waiting
        ]
        out += [
            {
                "guild": ch.guild_id,
                "channel": ch.id,
                "seats": [m.user.id for m in ms],
                "mid_round": True,
            }
            for ch, ms in self.mid
        ]
        return out

    def shown(self) -> int:
        """Tables whose message the bot has posted (noted for :meth:`table_message`); one
        pass over the fake's messages, not one per channel (5,000 channels)."""
        for m in self.fake.messages.values():
            if not m.ephemeral and not m.deleted and m.components:
                self.posted.setdefault(m.channel.id, m.id)
        return len(self.posted)

    def table_message(self, ch: FakeChannel, label: str) -> FakeMessage:
        """The table message of the channel as it is now, with a button ``label``: the one
        the bot posted (looked up by its id), or else the channel's newest such message
        (a scan of every message, which costs more with more tables)."""
        mid = self.posted.get(ch.id)
        if mid is not None:
            msg = self.fake.message(mid)
            if not msg.deleted and msg.has_button(label):
                return msg
        msg = self.fake.latest_message_with_button(ch, label)
        self.posted[ch.id] = msg.id
        return msg


async def until(check: Callable[[], bool], timeout: float, every: float = 1.0) -> None:
    """Poll ``check`` every ``every`` seconds (the fake's ``wait_until`` checks at each of
    its changes, too often for a check that looks at every table)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise TimeoutError(f"not done within {timeout} s")
        await asyncio.sleep(every)


async def seed(bot_dir: Path, db: Path, plan: list[dict[str, Any]], tmp: Path) -> float:
    plan_file = tmp / "plan.json"
    plan_file.write_text(json.dumps(plan))
    began = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SEED,
        str(db),
        str(plan_file),
        env={**os.environ, "PYTHONPATH": str(bot_dir), "LOG_LEVEL": "WARNING"},
        cwd=str(bot_dir),
        preexec_fn=die_with_parent,
    )
    if await proc.wait() != 0:
        raise RuntimeError("seeding the tables failed")
    return time.perf_counter() - began


# With --tracemalloc or --profile: imported by the bot at its start (``sitecustomize``).
# SIGUSR1 writes a snapshot of its traced allocations; SIGUSR2 starts cProfile, and the
# next SIGUSR2 writes its statistics.
HOOKS = r"""
import gc, os, signal
if os.environ.get("BENCH_TRACE_FILE"):
    import tracemalloc
    tracemalloc.start(int(os.environ["BENCH_TRACE_FRAMES"]))
    def _dump(*_):
        gc.collect()
        tracemalloc.take_snapshot().dump(os.environ["BENCH_TRACE_FILE"])
    signal.signal(signal.SIGUSR1, _dump)
if os.environ.get("BENCH_PROFILE_FILE"):
    import cProfile
    _prof = []
    def _toggle(*_):
        if not _prof:
            _prof.append(cProfile.Profile())
            _prof[0].enable()
        else:
            _prof[0].disable()
            _prof.pop().dump_stats(os.environ["BENCH_PROFILE_FILE"])
    signal.signal(signal.SIGUSR2, _toggle)
if os.environ.get("BENCH_TRIM"):
    import ctypes
    def _trim(*_):
        gc.collect()
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    signal.signal(signal.SIGWINCH, _trim)
if os.environ.get("BENCH_GC_FILE"):
    import json, time
    _gc = {"on": False, "start": 0.0, "pauses": []}
    def _timed(phase, info):
        if phase == "start":
            _gc["start"] = time.perf_counter()
        elif _gc["on"]:
            _gc["pauses"].append((info["generation"], time.perf_counter() - _gc["start"]))
    gc.callbacks.append(_timed)
    def _gc_toggle(*_):
        if not _gc["on"]:
            _gc["pauses"].clear()
            _gc["on"] = True
        else:
            _gc["on"] = False
            with open(os.environ["BENCH_GC_FILE"], "w") as f:
                json.dump(_gc["pauses"], f)
    signal.signal(signal.SIGUSR2, _gc_toggle)
"""


async def launch(
    fake: FakeDiscord,
    bot_dir: Path,
    db: Path,
    log: Path,
    trace: Path | None = None,
    frames: int = 1,
    profile: Path | None = None,
    gc_file: Path | None = None,
    trim: bool = False,
) -> asyncio.subprocess.Process:
    path = str(bot_dir)
    extra: dict[str, str] = {}
    if trim:
        extra["BENCH_TRIM"] = "1"
    if gc_file is not None:
        extra["BENCH_GC_FILE"] = str(gc_file)
    if trace is not None:
        extra |= {"BENCH_TRACE_FILE": str(trace), "BENCH_TRACE_FRAMES": str(frames)}
    if profile is not None:
        extra["BENCH_PROFILE_FILE"] = str(profile)
    if extra:
        hooks = db.parent / "hooks"
        hooks.mkdir(exist_ok=True)
        (hooks / "sitecustomize.py").write_text(HOOKS)
        path = f"{hooks}{os.pathsep}{path}"
    env = {
        **os.environ,
        **fake.bot_env(),
        **extra,
        "PYTHONPATH": path,
        "DATABASE_PATH": str(db),
        "BET_TIMER_SECONDS": "3600",
        "TURN_TIMER_SECONDS": "3600",
        "IDLE_TABLE_MINUTES": "600",
        "LOG_LEVEL": "WARNING",
    }
    before = fake.identify_count
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            cwd=str(bot_dir),
            preexec_fn=die_with_parent,
        )
    await fake.wait_for_bot_ready(300, identify_count=before + 1)
    return proc


async def quiet_for(fake: FakeDiscord, seconds: float, most: float) -> float:
    """Wait until the bot made no request for ``seconds``; the time of its last one."""
    end = time.monotonic() + most
    while time.monotonic() < end:
        last = fake.requests[-1].at if fake.requests else 0.0
        if time.monotonic() - last >= seconds:
            return last
        await asyncio.sleep(0.5)
    return fake.requests[-1].at if fake.requests else 0.0


async def restart(
    fake: FakeDiscord, bot_dir: Path, db: Path, log: Path, n: int
) -> tuple[asyncio.subprocess.Process, dict[str, Any]]:
    first = len(fake.requests)
    t0 = time.monotonic()
    proc = await launch(fake, bot_dir, db, log)
    ready = time.monotonic() - t0
    last = await quiet_for(fake, 3.0, most=60 + n * 0.1)
    mine = fake.requests[first:]
    reads = [
        r for r in mine if r.method == "GET" and r.path.count("/") == 4 and "/messages/" in r.path
    ]
    return proc, {
        "ready_s": round(ready, 2),
        "done_s": round(max(last - t0, ready), 2),
        "requests": len(mine),
        "message_reads": len(reads),
        "edits": sum(1 for r in mine if r.method == "PATCH" and "/messages/" in r.path),
    }


async def stop(proc: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> None:
    if proc.returncode is None:
        proc.send_signal(sig)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()


async def one_size(n: int, args: Any, tmp: Path) -> dict[str, Any]:
    fake = FakeDiscord(rate_limits=RateLimits(enabled=False))
    await fake.start()
    bot_dir = Path(args.bot_dir).resolve()
    db, log = tmp / f"scale-{n}.sqlite3", tmp / f"bot-{n}.log"
    proc: asyncio.subprocess.Process | None = None
    try:
        world = World(fake, n, args.clickers, args.per_guild)
        out: dict[str, Any] = {"tables": n, "servers": math.ceil(n / args.per_guild)}
        out["seed_s"] = round(await seed(bot_dir, db, world.plan(), tmp), 1)
        t0 = time.monotonic()
        trace = tmp / f"trace-{n}.snapshot" if args.tracemalloc else None
        profile = tmp / f"profile-{n}.pstats" if args.profile else None
        gc_file = tmp / f"gc-{n}.json" if args.gc_stats else None
        proc = await launch(
            fake, bot_dir, db, log, trace, args.tracemalloc, profile, gc_file, args.trim
        )
        await until(lambda: world.shown() >= n, timeout=120 + n * 0.2)
        await quiet_for(fake, 2.0, most=60 + n * 0.1)
        out["first_start_s"] = round(time.monotonic() - t0, 1)
        pid = proc.pid

        # every seated member of the mid-round tables clicks Show my cards once
        gate = asyncio.Semaphore(args.concurrency)

        failed = 0

        async def show(ch: FakeChannel, member: FakeMember) -> None:
            nonlocal failed
            async with gate:
                msg = world.table_message(ch, SHOW)
                try:
                    await fake.click(member, msg, label=SHOW, timeout=60)
                except Exception:  # answered late on a busy machine: counted, not fatal
                    failed += 1

        await asyncio.gather(*(show(ch, m) for ch, ms in world.mid for m in ms))
        out["setup_clicks_failed"] = failed
        # the bench's own fake holds every table's channel, members and messages: its full
        # collections must not delay the answers it times
        gc.collect()
        gc.freeze()
        await quiet_for(fake, 2.0, most=60)
        await asyncio.sleep(args.settle)
        out["rss_mib"] = round(rss_mib(pid), 1)
        if args.trim:  # what the C heap keeps freed but not given back (fragmentation)
            os.kill(pid, signal.SIGWINCH)
            await asyncio.sleep(2)
            out["rss_trimmed_mib"] = round(rss_mib(pid), 1)
        if trace is not None:
            os.kill(pid, signal.SIGUSR1)
            await until(trace.exists, timeout=300, every=0.5)
            await asyncio.sleep(5)  # written in full
            out["traced"] = str(trace)

        c0, w0 = cpu_seconds(pid), time.monotonic()
        await asyncio.sleep(args.idle_seconds)
        idle = (cpu_seconds(pid) - c0) / (time.monotonic() - w0)
        out["idle_cpu_pct"] = round(idle * 100, 2)

        # Join/Leave at the waiting tables, one member at each, the tables at once
        lat: list[float] = []
        started: list[float] = []  # when each timed click was sent
        late: list[float] = []
        per = max(2, args.clicks // max(1, len(world.waiting)))
        done: dict[int, int] = {}
        pace = random.Random(n)  # the pauses: seeded, the bench's own (not the global random)

        async def clicks(ch: FakeChannel, member: FakeMember, k: int, after: float = 0.0) -> None:
            await asyncio.sleep(after)
            for _ in range(k):
                j = done.get(ch.id, 0)
                label = "Join" if j % 2 == 0 else "Leave"
                msg = world.table_message(ch, label)
                s = time.perf_counter()
                try:
                    await fake.click(member, msg, label=label, timeout=30)
                except InteractionFailed:  # answered after Discord's 3 s: counted
                    late.append((time.perf_counter() - s) * 1000)
                    await fake.settle(quiet=0.3, timeout=10)
                    continue
                lat.append((time.perf_counter() - s) * 1000)
                started.append(s)
                done[ch.id] = j + 1
                # a member's own pace: the same mean pause, never the same twice; equal
                # pauses let the members fall into step, one behind the other, and their
                # clicks arrive as a train (each waiting for the answers before it)
                await asyncio.sleep(args.pause * (1.0 if args.lockstep else pace.uniform(0.5, 1.5)))

        # The members start one after another, spread over one pause: started at the same
        # moment, the clicks of the first rounds queue behind each other (the tenth of ten
        # simultaneous clicks waits for nine answers) and make the slowest percent alone.
        # That burst is measured on its own, once, after the warm-up.
        spread = 0.0 if args.lockstep else args.pause / max(1, len(world.waiting))

        def staggered(k: int) -> list[Any]:
            return [clicks(ch, m, k, i * spread) for i, (ch, _, m) in enumerate(world.waiting)]

        await asyncio.gather(*staggered(4))  # warm up
        await quiet_for(fake, 1.0, most=30)
        lat.clear()
        started.clear()
        await asyncio.gather(*(clicks(ch, m, 1) for ch, _, m in world.waiting))
        out["burst"] = {"clicks": len(lat), "slowest_ms": round(max(lat), 1) if lat else None}
        lat.clear()
        started.clear()
        await quiet_for(fake, 1.0, most=30)
        if profile is not None or gc_file is not None:
            os.kill(pid, signal.SIGUSR2)
        c0, w0 = cpu_seconds(pid), time.monotonic()
        d0 = time.process_time()
        driver_gc: list[tuple[int, float]] = []
        gc_start = [0.0]

        def driver_collection(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                gc_start[0] = time.perf_counter()
            else:
                driver_gc.append((info["generation"], time.perf_counter() - gc_start[0]))

        gc.callbacks.append(driver_collection)
        try:
            await asyncio.gather(*staggered(per))
        finally:
            gc.callbacks.remove(driver_collection)
        driver_cpu = time.process_time() - d0
        await quiet_for(fake, 0.5, most=30)
        cpu, wall = cpu_seconds(pid) - c0, time.monotonic() - w0 - 0.5
        t_first = min(started)
        out["slowest"] = sorted(
            ((round(ms, 1), round(at - t_first, 3)) for ms, at in zip(lat, started, strict=True)),
            reverse=True,
        )[:15]
        out["driver_gc"] = gc_summary([[g, d] for g, d in driver_gc])
        if profile is not None:
            os.kill(pid, signal.SIGUSR2)
            await until(profile.exists, timeout=60, every=0.5)
            await asyncio.sleep(2)  # written in full
            print(profiled(profile, n), file=sys.stderr, flush=True)
            if os.environ.get("BENCH_KEEP_PROFILE"):  # a directory to keep it in
                keep = Path(os.environ["BENCH_KEEP_PROFILE"]) / profile.name
                keep.write_bytes(profile.read_bytes())
        if gc_file is not None:
            os.kill(pid, signal.SIGUSR2)
            await until(gc_file.exists, timeout=60, every=0.5)
            await asyncio.sleep(0.5)  # written in full
            out["gc"] = gc_summary(json.loads(gc_file.read_text()))
        out["clicks"] = len(lat)
        out["load_avg_1m"] = round(os.getloadavg()[0], 2)
        out["late_over_3s"] = len(late)
        answered = len(lat) + len(late)
        out["click_cpu_ms"] = round(cpu / answered * 1000, 3)
        out["driver_cpu_ms"] = round(driver_cpu / answered * 1000, 3)
        out["click_cpu_ms_net"] = round(max(0.0, cpu - idle * wall) / answered * 1000, 3)
        out["latency_ms"] = {
            "p50": round(pct(lat, 50), 1),
            "p95": round(pct(lat, 95), 1),
            "p99": round(pct(lat, 99), 1),
            "max": round(max(lat), 1),
            "mean": round(statistics.fmean(lat), 1),
        }

        await stop(proc)
        proc, out["clean_restart"] = await restart(fake, bot_dir, db, log, n)

        # a restart after a kill: some tables changed in the last moment
        await asyncio.gather(*(clicks(ch, m, 1) for ch, _, m in world.waiting[: args.changed]))
        await stop(proc, signal.SIGKILL)
        proc, out["kill_restart"] = await restart(fake, bot_dir, db, log, n)
        out["kill_restart"]["changed_before_kill"] = min(args.changed, len(world.waiting))
        return out
    finally:
        if proc is not None:
            with contextlib.suppress(Exception):
                await stop(proc)
        await fake.stop()


async def run(args: Any) -> dict[str, Any]:
    sizes = sorted({min(50, args.open_tables), args.open_tables})
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-open-tables-") as tmp:
        for n in sizes:
            rows.append(await one_size(n, args, Path(tmp)))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)  # one row at a time
        if args.tracemalloc and len(rows) == 2:
            print(traced_growth(rows), file=sys.stderr, flush=True)
    result: dict[str, Any] = {"sizes": rows, "bot_dir": str(args.bot_dir)}
    if len(rows) == 2:
        small, big = rows
        result["kib_per_table"] = round(
            (big["rss_mib"] - small["rss_mib"]) * 1024 / (big["tables"] - small["tables"]), 1
        )
        result["click_cpu_ratio"] = round(big["click_cpu_ms"] / small["click_cpu_ms"], 2)
        result["click_cpu_net_ratio"] = round(
            big["click_cpu_ms_net"] / max(1e-9, small["click_cpu_ms_net"]), 2
        )
    return result


def gc_summary(pauses: list[list[float]]) -> dict[str, dict[str, float]]:
    """Per generation: how many collections ran over the measured clicks, their total
    and their longest pause in milliseconds."""
    out: dict[str, dict[str, float]] = {}
    for gen in sorted({int(g) for g, _ in pauses}):
        ms = [d * 1000 for g, d in pauses if int(g) == gen]
        out[f"gen{gen}"] = {
            "count": len(ms),
            "total_ms": round(sum(ms), 1),
            "max_ms": round(max(ms), 2),
        }
    return out


def profiled(path: Path, n: int) -> str:
    """The bot's busiest functions over the measured clicks (cProfile, own time)."""
    import io
    import pstats

    text = io.StringIO()
    pstats.Stats(str(path), stream=text).sort_stats("tottime").print_stats(30)
    return f"profile of the clicks at {n} tables:\n{text.getvalue()}"


def traced_growth(rows: list[dict[str, Any]]) -> str:
    """Where the traced memory grew between the two sizes, in bytes per table."""
    import tracemalloc

    small, big = (tracemalloc.Snapshot.load(r["traced"]) for r in rows)
    tables = rows[1]["tables"] - rows[0]["tables"]
    diffs = big.compare_to(small, "lineno")
    total = sum(d.size_diff for d in diffs)
    lines = [f"traced growth: {total / tables:.0f} bytes per table; the largest lines:"]
    for d in diffs[:40]:
        frame = d.traceback[0]
        lines.append(
            f"{d.size_diff / tables:8.0f} B {d.count_diff / tables:6.1f} blocks  "
            f"{frame.filename}:{frame.lineno}"
        )
    if len(big.traces[0].traceback) > 1:  # more than one frame traced: who allocated
        for d in big.compare_to(small, "traceback")[:12]:
            lines.append(f"{d.size_diff / tables:8.0f} B per table, allocated at:")
            lines += [f"    {f.filename}:{f.lineno}" for f in d.traceback]
    return "\n".join(lines)


def summary(result: dict[str, Any]) -> str:
    lines = []
    for r in result["sizes"]:
        lat = r["latency_ms"]
        lines.append(
            f"{r['tables']:>6} tables: RSS {r['rss_mib']} MiB, idle CPU {r['idle_cpu_pct']}%, "
            f"click CPU {r['click_cpu_ms']} ms ({r['click_cpu_ms_net']} net), latency "
            f"p50/p95/p99/max {lat['p50']}/{lat['p95']}/{lat['p99']}/{lat['max']} ms "
            f"({r['burst']['clicks']} clicks at once: the last answered in "
            f"{r['burst']['slowest_ms']} ms); "
            f"clean restart {r['clean_restart']['done_s']} s, {r['clean_restart']['requests']} "
            f"requests, {r['clean_restart']['message_reads']} message reads; after a kill "
            f"{r['kill_restart']['done_s']} s, {r['kill_restart']['message_reads']} reads "
            f"({r['kill_restart']['changed_before_kill']} tables changed just before); "
            f"load average {r['load_avg_1m']}"
        )
    if "kib_per_table" in result:
        lines.append(
            f"per table {result['kib_per_table']} KiB; click CPU at the most / at 50: "
            f"{result['click_cpu_ratio']} ({result['click_cpu_net_ratio']} net)"
        )
    lines += [f"{'PASS' if ok else 'FAIL'}  {what}" for what, ok in targets(result).items()]
    return "\n".join(lines)


def targets(result: dict[str, Any]) -> dict[str, bool]:
    """The five targets, judged on the largest size measured (they are asked at 5,000)."""
    big = result["sizes"][-1]
    n, lat = big["tables"], big["latency_ms"]
    out: dict[str, bool] = {}
    if "kib_per_table" in result:
        out[f"memory: {result['kib_per_table']} KiB a mid-round table of four <= 32 KiB"] = (
            result["kib_per_table"] <= 32
        )
    out[f"idle CPU at {n} tables: {big['idle_cpu_pct']}% of a core <= 1%"] = (
        big["idle_cpu_pct"] <= 1.0
    )
    if "click_cpu_ratio" in result:
        out[f"click CPU at {n} / at 50: x{result['click_cpu_ratio']} <= x1.2"] = (
            result["click_cpu_ratio"] <= 1.2
        )
    limit = 2 * lat["p50"] + 10
    out[f"latency at {n}: p99 {lat['p99']} ms <= 2 x p50 + 10 = {limit:.1f} ms"] = (
        lat["p99"] <= limit
    )
    clean, killed = big["clean_restart"], big["kill_restart"]
    out[
        f"restarts at {n}: {clean['message_reads']} reads after a clean stop (0), "
        f"{killed['message_reads']} after a kill (<= {killed['changed_before_kill']} changed)"
    ] = clean["message_reads"] == 0 and killed["message_reads"] <= killed["changed_before_kill"]
    return out
