#!/usr/bin/env python
"""How long one hint takes (engine/pontoon/hint.py), over random points of real rounds.

Plays seeded rounds through the public Table API (a house-banked table of three players
and a player-banked one of four, bets 1-10, random legal choices: stick, twist, buy at
either end of its range, split, declare), and at every player decision computes the hint
for the seat to play with ``hint_for`` and the cards that seat saw in earlier rounds
since the last shuffle. Prints, as JSON, p50/p95/max milliseconds over ``--states``
decisions (default 1,000), twice: ``cold`` clears every memoised pool before each hint
(the worst case: nothing reused from the previous click), ``warm`` keeps them (consecutive
clicks in a round share most pools). The target is at most 100 ms per hint. Wall-clock
milliseconds (``p50_ms`` ...) include time other processes take from a shared machine;
``cpu_*`` count only this process's CPU time.

    python scripts/bench_hint.py [--states 1000] [--seed 1]
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

from engine.cards import Card, RandomChance, parse_card  # noqa: E402
from engine.pontoon import hint as H  # noqa: E402
from engine.pontoon.rules import PontoonRules  # noqa: E402
from engine.pontoon.table import Table  # noqa: E402
from engine.pontoon.types import HOUSE, Action, ActionKind, Phase  # noqa: E402


def decisions(
    seed: int, rules: PontoonRules, seats: list[str]
) -> Iterator[tuple[Table, str, list[Card]]]:
    """Every player decision of endless seeded rounds: (table, seat, cards seen before)."""
    rng = random.Random(seed)
    chance = RandomChance(random.Random(seed + 1))
    big = 10**9
    banker = None if rules.house_bank else seats[0]
    t = Table(rules, seats, {s: big for s in seats}, banker=banker)
    seen: dict[str, list[Card]] = {s: [] for s in seats}
    while True:
        if t.needs_shuffle:
            seen = {s: [] for s in seats}
        dealer = seats[0] if rules.house_bank else t.banker
        assert dealer is not None
        t.apply(Action(dealer, ActionKind.DEAL), chance)
        for s in t.to_act():
            t.apply(Action(s, ActionKind.BET, rng.randint(rules.min_bet, rules.max_bet)), chance)
        while t.phase in (Phase.PLAYING, Phase.BANKER):
            turn = t.turn
            assert turn is not None
            seat = turn[0]
            offered = t.legal_actions(seat)
            if seat == t.banker:
                total = t.private_view(seat)[0].total or 0
                kinds = {la.kind for la in offered}
                kind = (
                    ActionKind.TWIST
                    if total < 17 and ActionKind.TWIST in kinds
                    else ActionKind.STICK
                )
                t.apply(Action(seat, kind), chance)
                continue
            yield t, seat, list(seen[seat])
            la = rng.choice(offered)
            amount = None
            if la.kind is ActionKind.BUY:
                assert la.min_amount is not None and la.max_amount is not None
                amount = rng.choice((la.min_amount, la.max_amount))
            t.apply(Action(seat, la.kind, amount), chance)
        # everything shown at the end of the round is seen by everyone
        shown = [parse_card(c) for r in t.results for c in r["cards"]]
        bh = t.public_view().banker_hand
        if bh is not None:
            shown += [parse_card(c) for c in bh.cards]
        for s in seats:
            seen[s] = seen[s] + shown
        t.apply(Action(seats[0], ActionKind.NEXT_ROUND), chance)
        if t.banker != HOUSE and t.banker is not None:
            seats_now = t.seats
            del seats_now


def measure(states: int, seed: int, cold: bool) -> dict[str, Any]:
    tables = [
        decisions(seed, PontoonRules(house_bank=True), ["ann", "bob", "cat"]),
        decisions(seed + 7, PontoonRules(), ["dan", "eve", "fay", "gus"]),
    ]
    times: list[float] = []
    cpu: list[float] = []
    worst: dict[str, Any] = {}
    i = 0
    while len(times) < states:
        t, seat, seen = next(tables[i % 2])
        i += 1
        if cold:
            H.clear_caches()
        start = time.perf_counter()
        cpu_start = time.process_time()
        h = H.hint_for(t, seat, seen)
        ms = (time.perf_counter() - start) * 1000
        cpu.append((time.process_time() - cpu_start) * 1000)
        if not worst or ms > worst["ms"]:
            view = t.private_view(seat)[t.turn[1] if t.turn else 0]
            worst = {
                "ms": round(ms, 1),
                "cards": list(view.cards),
                "unseen": h.unseen,
                "actions": [a.kind.value for a in h.actions],
            }
        times.append(ms)
    times.sort()
    cpu.sort()

    def pct(xs: list[float], q: float) -> float:
        return round(xs[int(q * (len(xs) - 1))], 1)

    return {
        "states": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": pct(times, 0.95),
        "max_ms": round(times[-1], 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "cpu_p95_ms": pct(cpu, 0.95),
        "cpu_max_ms": round(cpu[-1], 1),
        "worst_wall": worst,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    # the banker's tables of card multisets are built once per process
    H._model(False, "standard", 17).table  # noqa: B018
    setup = (time.perf_counter() - start) * 1000
    out = {
        "target_ms": 100,
        "setup_ms_once_per_process": round(setup, 1),
        "cold": measure(args.states, args.seed, cold=True),
        "warm": measure(args.states, args.seed, cold=False),
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
