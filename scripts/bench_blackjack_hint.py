#!/usr/bin/env python
"""How long one Blackjack hint takes (engine/blackjack/hint.py), over random points of
real rounds.

Plays seeded rounds through the public table API (three seats, a random rule set per
run of rounds: 1, 2, 6 or 8 decks, S17/H17, surrender, peek or not; random legal
choices) and at every decision (insurance or a hand's move) computes the hint for the
seat to act over the cards shown since the last shuffle. Prints, as JSON, p50/p95/max
milliseconds over ``--states`` decisions (default 1,000), ``cold`` (every memo cleared
before each hint: nothing reused from the previous click) and ``warm``. The target is at
most 100 ms per hint. Wall-clock figures include time other processes take from a
shared machine; ``cpu_*`` count only this process's CPU time.

    python scripts/bench_blackjack_hint.py [--states 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from engine.blackjack import (  # noqa: E402
    DEALER,
    Action,
    ActionKind,
    BlackjackRules,
    BlackjackTable,
    Phase,
    odds,
)
from engine.blackjack.hint import hint  # noqa: E402
from engine.cards import RandomChance  # noqa: E402

K = ActionKind
SEATS = ["ann", "bob", "cat"]


def decisions(seed: int) -> Iterator[tuple[BlackjackTable, str]]:
    """Every decision of endless seeded rounds: (table, seat to act)."""
    rng = random.Random(seed)
    chance = RandomChance(random.Random(seed + 1))
    while True:
        rules = BlackjackRules(
            decks=rng.choice([1, 2, 6, 8]),
            dealer=rng.choice(["s17", "h17"]),
            surrender=rng.choice(["none", "late"]),
            peek=rng.random() < 0.8,
            max_bet=10,
        )
        t = BlackjackTable(rules)
        for s in SEATS:
            t.apply(Action(s, K.JOIN))
        for _ in range(30):
            for s in SEATS:
                t.apply(Action(s, K.BET, rng.randint(2, 10)))
            t.apply(Action(DEALER, K.DEAL), chance)
            while t.phase in (Phase.INSURANCE, Phase.PLAYING):
                seat = t.to_act()[0]
                yield t, seat
                la = rng.choice(t.legal_actions(seat))
                amount = la.max_amount if la.kind in (K.INSURANCE, K.DOUBLE) else None
                t.apply(Action(seat, la.kind, amount), chance)
            t.apply(Action(DEALER, K.NEXT_ROUND))


def _clear() -> None:
    odds._dealer_totals.cache_clear()


def stats(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "max": round(ordered[-1], 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"states": args.states, "target_ms": 100}
    for mode in ("cold", "warm"):
        wall: list[float] = []
        cpu: list[float] = []
        for n, (table, seat) in enumerate(decisions(args.seed)):
            if n >= args.states:
                break
            if mode == "cold":
                _clear()
            w0, c0 = time.perf_counter(), time.process_time()
            hint(table, seat)
            wall.append((time.perf_counter() - w0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        out[mode] = {
            **{f"{k}_ms": v for k, v in stats(wall).items()},
            **{f"cpu_{k}_ms": v for k, v in stats(cpu).items()},
        }
    out["within_target"] = out["cold"]["max_ms"] <= 100
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
