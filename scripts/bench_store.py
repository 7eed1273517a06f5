"""Storage speed: how long one table save (the write behind every click) takes.

Opens a Store on a fresh SQLite file in a temporary folder (WAL, synchronous=FULL by
default, as the bot runs), seats four members at a table, then times ``save_table`` with
a typical click's payload: a snapshot of a few KB, one or two chip moves (a stake into
escrow, a payout), chips-in-play rows and an action-log line. Prints the median, p95 and
mean in milliseconds and saves per second.

    python scripts/bench_store.py [--saves 2000] [--synchronous FULL|NORMAL]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import Move, Store, escrow_account, member_account

G, TABLE, CHANNEL = 1, "benchtable", 10
SEATS = [101, 102, 103, 104]


async def bench(saves: int, synchronous: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3", synchronous=synchronous)  # type: ignore[arg-type]
        try:
            for uid in SEATS:
                await store.ensure_member(G, uid, 10**6)
            state = '{"engine": ' + '{"pack": "' + "x" * 3000 + '"}, "meta": {}}'
            await store.save_table(TABLE, G, CHANNEL, "pontoon", state, 1, None, [], "open")
            escrow = escrow_account(TABLE)
            times: list[float] = []
            for i in range(saves):
                seat = member_account(G, SEATS[i % 4])
                moves = (
                    [Move(seat, escrow, 5, "bet")]
                    if i % 2 == 0
                    else [Move(escrow, seat, 5, "stake returned")]
                )
                started = time.perf_counter()
                await store.save_table(
                    TABLE,
                    G,
                    CHANNEL,
                    "pontoon",
                    state,
                    i + 2,
                    12345,
                    moves,
                    f"{i} bet",
                    in_play=SEATS,
                )
                times.append(time.perf_counter() - started)
        finally:
            await store.close()
    times.sort()
    return {
        "saves": float(saves),
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": times[int(len(times) * 0.95)] * 1000,
        "mean_ms": statistics.fmean(times) * 1000,
        "saves_per_s": len(times) / sum(times),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=2000, help="saves to time (default 2000)")
    parser.add_argument(
        "--synchronous",
        default="FULL",
        choices=["FULL", "NORMAL"],
        help="SQLite's fsync policy (default FULL, as the bot runs)",
    )
    ns = parser.parse_args()
    result = asyncio.run(bench(ns.saves, ns.synchronous))
    print(
        f"save_table x{int(result['saves'])} (synchronous={ns.synchronous}): "
        f"median {result['median_ms']:.3f} ms, p95 {result['p95_ms']:.3f} ms, "
        f"mean {result['mean_ms']:.3f} ms, {result['saves_per_s']:.0f} saves/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
