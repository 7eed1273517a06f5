"""Does the bot process grow during a long session? Python's own accounting, not RSS.

Starts the fake Discord on 127.0.0.1 and the real bot (``python -m bot``) under
``tracemalloc``, opens ``--tables`` Pontoon tables, and has one member at each click
Join/Leave ``--clicks`` times per step. After each step the bot (on SIGUSR1) collects
its garbage and writes what the step added: the heap objects the garbage collector
tracks, the memory tracemalloc sees allocated, and the allocation sites that grew most
since the step before, with where they were made (the resident size is shown only with
``--frames 0``, no tracemalloc: under tracemalloc it mostly measures the probe's own
snapshots). A bot that holds on to something per click shows it here as a line that grows
step after step; caches with a bound show as small ups and downs.

    python scripts/probe_memory.py                     # 2 tables, 3 steps of 1,000 clicks
    python scripts/probe_memory.py --clicks 500 --steps 4 --top 5

The bot runs slower under tracemalloc, and taking a snapshot stops it for a few seconds:
the probe waits for each snapshot before it clicks again. CPU figures belong to
``scripts/bench_round.py --mode session``, not here.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
for path in (REPO_ROOT, REPO_ROOT / "scripts"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bench_round import JoinLeave, launch, quiet, rss_mb, stop  # noqa: E402

from localdiscord import FakeDiscord, RateLimits  # noqa: E402

# Run by the bot process: tracemalloc from the first import, a report per SIGUSR1.
BOT_WRAPPER = """
import gc, linecache, os, signal, sys, tracemalloc
FRAMES = int(os.environ["PROBE_FRAMES"])
if FRAMES:
    tracemalloc.start(FRAMES)
state = {"before": None, "n": 0}
def report(*_):
    gc.collect()
    # counted before the snapshot, whose own records would count too
    objects, traced = len(gc.get_objects()), tracemalloc.get_traced_memory()[0]
    lines = [f"objects {objects} traced_kib {traced // 1024}"]
    if not FRAMES:  # objects only, at full speed
        write(lines)
        return
    snap = tracemalloc.take_snapshot().filter_traces(
        # the probe's own reading of source lines for its report is left out
        [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, linecache.__file__)]
    )
    if state["before"] is not None:
        for stat in snap.compare_to(state["before"], "traceback")[: int(os.environ["PROBE_TOP"])]:
            lines.append(f"{stat.size_diff / 1024:+.1f} KiB {stat.count_diff:+d} blocks")
            lines.extend("    " + ln for ln in stat.traceback.format()[-6:])
    state["before"] = snap
    write(lines)
def write(lines):
    state["n"] += 1
    out = os.path.join(os.environ["PROBE_DIR"], f"report-{state['n']}.txt")
    with open(out + ".part", "w") as f:
        f.write("\\n".join(lines) + "\\n")
    os.replace(out + ".part", out)
signal.signal(signal.SIGUSR1, report)
from bot.__main__ import main
sys.exit(main([]))
"""


async def probe(args: argparse.Namespace) -> int:
    fake = FakeDiscord(rate_limits=RateLimits(enabled=False))
    await fake.start()
    tmp = tempfile.TemporaryDirectory(prefix="probe-memory-")
    wrapper = Path(tmp.name) / "probe_bot.py"
    wrapper.write_text(BOT_WRAPPER)
    launch_args = argparse.Namespace(bot_cmd=f"{sys.executable} {wrapper}")
    extra = {"PROBE_DIR": tmp.name, "PROBE_FRAMES": str(args.frames), "PROBE_TOP": str(args.top)}
    proc = None
    try:
        session = JoinLeave(fake, click_timeout=30)
        proc = await launch(fake, launch_args, args.bot_dir, tmp.name, extra_env=extra)
        tables = await session.open_tables(args.tables)

        async def report(n: int) -> None:
            await quiet(fake, 0.5, most=10)
            proc.send_signal(signal.SIGUSR1)  # type: ignore[union-attr]
            path = Path(tmp.name) / f"report-{n}.txt"
            end = time.monotonic() + 120
            while not path.exists():
                if time.monotonic() > end:
                    raise TimeoutError(f"the bot wrote no report {n} within 120 s")
                await asyncio.sleep(0.2)
            clicks = sum(session.done.values())
            rss = "" if args.frames else f", bot RSS {rss_mb(proc.pid):.1f} MB"  # type: ignore[union-attr]
            print(f"== after {clicks} clicks{rss}")
            print(path.read_text(), flush=True)

        await report(1)
        for step in range(args.steps):
            await session.click(tables, args.clicks)
            await report(step + 2)
        return 0
    finally:
        await stop(proc)
        await fake.stop()
        tmp.cleanup()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--clicks", type=int, default=1000, help="clicks per table in each step")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--top", type=int, default=8, help="allocation sites shown per step")
    ap.add_argument(
        "--frames",
        type=int,
        default=6,
        help="frames kept per allocation (0: no tracemalloc, objects only)",
    )
    ap.add_argument("--bot-dir", type=Path, default=REPO_ROOT, help="checkout the bot runs from")
    return asyncio.run(probe(ap.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
