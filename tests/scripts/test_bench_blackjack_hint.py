"""scripts/bench_blackjack_hint.py: it reaches real decisions (insurance and hand moves)
and prints p50/p95/max for cold and warm hints as JSON."""

from __future__ import annotations

import json
from itertools import islice

import pytest

from engine.blackjack import Phase
from tests.scripts.loading import load_script

bench = load_script("bench_blackjack_hint.py", "bench_blackjack_hint")


def test_the_decisions_are_the_seat_to_act_in_a_round() -> None:
    phases = set()
    n = 0
    for table, seat in islice(bench.decisions(3), 200):  # the live table: check it now
        assert table.phase in (Phase.INSURANCE, Phase.PLAYING)
        assert seat in table.to_act()
        phases.add(table.phase)
        n += 1
    assert n == 200 and Phase.PLAYING in phases


def test_it_prints_the_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--states", "40", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["states"] == 40
    for mode in ("cold", "warm"):
        times = out[mode]
        assert 0 < times["p50_ms"] <= times["p95_ms"] <= times["max_ms"]
