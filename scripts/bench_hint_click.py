#!/usr/bin/env python
"""What a click on **Hint** costs the bot (PontoonService.hint, bot/pontoon_hint.py).

Plays seeded rounds through the service with a real SQLite store (three members and a
player-banker; every decision takes the hint's best play) and, at every decision, asks the
hint as a click does. Prints, as JSON, p50/p95/max milliseconds of:

* ``click``: the whole answer (the inputs taken from the table, a copy of it, the search
  in a worker thread);
* ``loop_blocked``: the longest the event loop went without running, measured by a
  ticker task every 1 ms while the hint was computed: what other clicks wait.

    python scripts/bench_hint_click.py [--decisions 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bot.pontoon import PontoonService, PontoonTimers  # noqa: E402
from bot.storage import Store  # noqa: E402
from engine.cards import RandomChance  # noqa: E402
from engine.pontoon import PontoonRules  # noqa: E402
from engine.pontoon.types import ActionKind, Phase  # noqa: E402

MEMBERS = [100, 200, 300, 400]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(p95 * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


async def ticker(stop: asyncio.Event) -> float:
    """The longest gap between two runs of a task asking to run every millisecond."""
    longest = 0.0
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    return longest


async def run(decisions: int, seed: int) -> dict[str, object]:
    clicks: list[float] = []
    stalls: list[float] = []
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        svc = PontoonService(
            store,
            chance=RandomChance(random.Random(seed)),
            timers=PontoonTimers(3600, 3600, 3600),
        )
        live = await svc.open_table(1, 10, MEMBERS[0], PontoonRules(max_bet=10))
        for uid in MEMBERS[1:]:
            await svc.act(live.table_id, uid, ActionKind.JOIN)
        while len(clicks) < decisions:
            eng = live.engine
            if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
                dealer = int(eng.banker) if eng.banker and eng.banker.isdigit() else MEMBERS[0]
                await svc.deal(live.table_id, dealer)
            elif eng.phase is Phase.BETTING:
                for s in eng.to_act():
                    await svc.act(live.table_id, int(s), ActionKind.BET, amount=rng.randint(1, 10))
            elif eng.phase is Phase.PLAYING and eng.turn is not None:
                seat = eng.turn[0]
                stop = asyncio.Event()
                tick = asyncio.create_task(ticker(stop))
                await asyncio.sleep(0)
                start = time.perf_counter()
                found, _ = await svc.hint(live.table_id, int(seat))
                clicks.append(time.perf_counter() - start)
                stop.set()
                stalls.append(await tick)
                best = found.best
                await svc.act(live.table_id, int(seat), best.kind, amount=best.amount)
            elif eng.phase is Phase.BANKER and eng.banker:
                b = eng.banker
                total = eng.private_view(b)[0].total or 0
                kinds = {la.kind for la in eng.legal_actions(b)}
                kind = ActionKind.TWIST if total < 17 and ActionKind.TWIST in kinds else None
                await svc.act(live.table_id, int(b), kind or ActionKind.STICK)
            else:
                raise RuntimeError(f"stuck in {eng.phase}")
        await svc.shutdown()
        await store.close()
    return {
        "decisions": len(clicks),
        "click": summary(clicks),
        "loop_blocked": summary(stalls),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.decisions, args.seed)), indent=2))


if __name__ == "__main__":
    main()
