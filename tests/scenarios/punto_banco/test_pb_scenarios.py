"""Punto Banco replay scenarios: every JSON file here is a scripted game (``"game":
"punto_banco"``, format in engine/punto_banco/API.md) with an ``expect`` block worked
out by hand from docs/rules/punto-banco.md. Each is replayed through
``python -m engine replay``'s main function; one also as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.scenarios.replay_checks import check_common, replay, replay_error, replay_subprocess

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))
COUP_KEYS = ("punto", "banco", "punto_total", "banco_total", "winner", "natural")


def check(doc: dict[str, Any], code: int, result: dict[str, Any]) -> None:
    check_common(doc, code, result, ("balances", "house", "escrow"))
    expect = doc["expect"]
    assert len(result["coups"]) == len(expect["coups"])
    for got, want in zip(result["coups"], expect["coups"], strict=True):
        for key in COUP_KEYS:
            if key in want:
                assert got[key] == want[key], (key, got[key], want[key])


def test_the_scenarios_cover_naturals_the_tableau_ties_and_the_commission() -> None:
    assert len(FILES) >= 10
    text = " ".join(json.loads(f.read_text())["description"] for f in FILES)
    for rule in ("B-NAT-1", "B-PUNTO-1", "B-BANCO-1", "B-BANCO-2", "B-WIN-1", "B-TIE-1"):
        assert rule in text, rule
    assert "B-BET-1" in text


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check(json.loads(path.read_text()), *replay(path, capsys))


def test_a_scenario_through_python_m_engine() -> None:
    path = HERE / "b_banco_2_standard_banco_3_draws_on_9.json"
    check(json.loads(path.read_text()), *replay_subprocess(path))


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
    assert message in replay_error(doc, tmp_path, capsys)
