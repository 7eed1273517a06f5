"""Blackjack replay scenarios: every JSON file here is a scripted game (``"game":
"blackjack"``, format in engine/blackjack/API.md) with an ``expect`` block worked out
by hand from the rules (ids ``BJ-...``). Each is replayed through ``python -m engine
replay``'s main function; one also as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.scenarios.replay_checks import check_common, replay, replay_error, replay_subprocess

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))
ROUND_KEYS = ("dealer", "dealer_total", "dealer_blackjack", "insurance")
HAND_KEYS = ("seat", "hand", "cards", "total", "outcome", "net")


def check(doc: dict[str, Any], code: int, result: dict[str, Any]) -> None:
    check_common(doc, code, result, ("balances", "house", "escrow", "shuffles"))
    expect = doc["expect"]
    assert len(result["rounds"]) == len(expect["rounds"])
    for got, want in zip(result["rounds"], expect["rounds"], strict=True):
        for key in ROUND_KEYS:
            if key in want:
                assert got[key] == want[key], (key, got[key], want[key])
        assert len(got["hands"]) == len(want["hands"])
        for got_hand, want_hand in zip(got["hands"], want["hands"], strict=True):
            for key in HAND_KEYS:
                assert got_hand[key] == want_hand[key], (key, got_hand, want_hand)


def test_the_scenarios_cover_the_issue_list() -> None:
    assert len(FILES) >= 12
    text = " ".join(json.loads(f.read_text())["description"] for f in FILES)
    for rule in (
        "BJ-INS-1",
        "BJ-PEEK-1",
        "BJ-NAT-1",
        "BJ-SPLIT-1",
        "BJ-DOUBLE-1",
        "BJ-SURR-1",
        "BJ-HIT-1",
        "BJ-SETTLE-1",
        "BJ-NHC-1",
        "BJ-TABLE-2",
    ):
        assert rule in text, rule


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check(json.loads(path.read_text()), *replay(path, capsys))


def test_a_scenario_through_python_m_engine() -> None:
    path = HERE / "bj_split_1_resplit_to_four_hands_and_double_after_split.json"
    check(json.loads(path.read_text()), *replay_subprocess(path))


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"game": "blackjack", "oops": 1}, "unknown replay keys ['oops']"),
        ({"game": "blackjack", "actions": [{"act": "fly"}]}, "action 0: unknown act 'fly'"),
        ({"game": "blackjack", "actions": [{"act": "hit"}]}, 'action 0: "hit" needs a "seat"'),
        ({"game": "blackjack", "shoe": ["AS"] * 7}, "the shoe holds AS too often"),
        ({"game": "blackjack", "rules": {"decks": 9}}, "bad rules"),
        ({"game": "blackjack", "rules": {"colour": "red"}}, "bad rules"),
    ],
)
def test_a_bad_blackjack_replay_names_what_is_wrong(
    doc: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in replay_error(doc, tmp_path, capsys)
