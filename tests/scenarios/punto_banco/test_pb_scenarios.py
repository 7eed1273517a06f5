"""Punto Banco replay scenarios: every JSON file here is a scripted game (``"game":
"punto_banco"``, format in engine/punto_banco/API.md) with an ``expect`` block worked
out by hand from docs/rules/punto-banco.md. Each is replayed through
``python -m engine replay``'s main function; one also as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
FILES = sorted(HERE.glob("*.json"))
COUP_KEYS = ("punto", "banco", "punto_total", "banco_total", "winner", "natural")


def replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return code, result


def check(doc: dict[str, Any], code: int, result: dict[str, Any]) -> None:
    expect = doc["expect"]
    if "error" in expect:
        assert code == 2, result
        assert result["error"]["action"] == expect["error"]["action"]
        assert result["error"]["rule"] == expect["error"]["rule"]
        assert result["error"]["message"]
    else:
        assert code == 0, result.get("error")
        assert "error" not in result
    for key in ("balances", "house", "escrow"):
        if key in expect:
            assert result[key] == expect[key], (key, result[key], expect[key])
    assert len(result["coups"]) == len(expect["coups"])
    for got, want in zip(result["coups"], expect["coups"], strict=True):
        for key in COUP_KEYS:
            if key in want:
                assert got[key] == want[key], (key, got[key], want[key])
    # chips are conserved: bettors + house + escrow = what the bettors brought
    held = sum(result["balances"].values()) + result["house"] + result["escrow"]
    assert held == sum(doc["balances"].values())


def test_the_scenarios_cover_naturals_the_tableau_ties_and_the_commission() -> None:
    assert len(FILES) >= 10
    text = " ".join(json.loads(f.read_text())["description"] for f in FILES)
    for rule in ("B-NAT-1", "B-PUNTO-1", "B-BANCO-1", "B-BANCO-2", "B-WIN-1", "B-TIE-1"):
        assert rule in text, rule
    assert "B-BET-1" in text


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(path.read_text())
    code, result = replay(path, capsys)
    check(doc, code, result)


def test_a_scenario_through_python_m_engine() -> None:
    path = HERE / "b_banco_2_standard_banco_3_draws_on_9.json"
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    check(json.loads(path.read_text()), 0, json.loads(proc.stdout))


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"game": "punto_banco", "oops": 1}, "unknown replay keys ['oops']"),
        ({"game": "punto_banco", "actions": [{"act": "fly"}]}, "action 0: unknown act 'fly'"),
        ({"game": "punto_banco", "actions": [{"act": "bet"}]}, 'action 0: "bet" needs a "seat"'),
        (
            {"game": "punto_banco", "actions": [{"act": "bet", "seat": "a", "side": "x"}]},
            '"side" must be one of',
        ),
        ({"game": "punto_banco", "shoe": ["AS", "AS"]}, "the shoe holds AS too often"),
        ({"game": "punto_banco", "rules": {"packs": 9}}, "bad rules"),
    ],
)
def test_a_bad_punto_banco_replay_names_what_is_wrong(
    doc: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and message in err, err
    assert "Traceback" not in err
