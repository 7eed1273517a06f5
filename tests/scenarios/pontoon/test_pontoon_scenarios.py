"""Replay scenarios (docs/engine-cli.md): every JSON file here is a scripted game
with an ``expect`` block. Most run in-process through the CLI function; a few run as
``python -m engine replay FILE`` subprocesses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.pontoon.cli import replay_doc
from tests.scenarios.replay_checks import check_common, replay_subprocess, run_replay

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))
SUBPROCESS = {"s7_pay_stay.json", "s5_split_q_j_refused.json", "s10_shoot_basic.json"}


def check(doc: dict[str, Any], code: int, result: dict[str, Any]) -> None:
    assert "balances" in result and "next_banker" in result
    keys = ("balances", "next_banker", "banker", "kitty", "house", "phase", "needs_shuffle")
    check_common(doc, code, result, keys)
    expect = doc["expect"]
    if "banker_in" in expect:
        assert result["banker"] in expect["banker_in"]
    for want in expect.get("events", []):
        assert any(all(ev.get(k) == v for k, v in want.items()) for ev in result["events"]), want


def test_at_least_thirty_scenarios_cover_every_section() -> None:
    assert len(FILES) >= 30
    text = " ".join(json.loads(f.read_text())["description"] for f in FILES)
    for rule in (
        "P-TABLE-1", "P-TABLE-2", "P-BANK-1", "P-DEAL-2", "P-DEAL-4", "P-TURN-DECLARE",
        "P-SPLIT-1", "P-SPLIT-2", "P-SPLIT-3", "P-BUY-2", "P-BUY-3", "P-TWIST-2", "P-STICK-1",
        "P-BUST-1", "P-FIVE-1", "P-BANKER-2", "P-BANKER-3", "P-PAY-BUST", "P-PAY-STAY",
        "P-PAY-FIVE", "P-PAY-LIMIT", "P-NEXT-1", "P-NEXT-2", "P-SELL-1", "P-VAR-1", "P-VAR-2",
        "P-VAR-3", "P-VAR-4", "P-VAR-5", "P-VAR-6", "P-VAR-7", "P-VAR-8", "P-SHOOT-1",
        "P-SHOOT-2", "P-SHOOT-3", "P-SHOOT-4", "P-SHOOT-5", "P-SHOOT-6", "P-SHOOT-7",
        "P-SHOOT-8", "P-SHOOT-9",
    ):  # fmt: skip
        assert rule in text, rule


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_in_process(path: Path) -> None:
    doc = json.loads(path.read_text())
    check(doc, *replay_doc(doc))


@pytest.mark.parametrize("name", sorted(SUBPROCESS))
def test_scenario_subprocess(name: str) -> None:
    path = HERE / name
    check(json.loads(path.read_text()), *replay_subprocess(path))


def test_bad_replay_file_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rules": {"no_such_option": 1}, "seats": ["a", "b"], "actions": []}))
    proc = run_replay(bad)
    assert proc.returncode == 1
    assert "no_such_option" in proc.stderr
