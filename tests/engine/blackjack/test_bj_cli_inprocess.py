"""engine/blackjack/cli.py in the test's own process: the odds command's options (their
defaults are the table's, their ranges the rules'), and a replay's events and its refusal
of a seat the file gave no chips."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from engine.blackjack.cli import add_odds_parser, replay_doc


def odds_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_odds_parser(parser.add_subparsers(dest="game"))
    return parser.parse_args(["blackjack", *argv])


@pytest.mark.rule("BJ-TABLE-2", "BJ-SPLIT-1", "BJ-EDGE-1")
def test_the_odds_options_default_to_the_usual_table_and_keep_the_rules_ranges() -> None:
    args = odds_args()
    assert (args.decks, args.max_hands, args.dealer, args.blackjack_pays) == (6, 4, "s17", "3:2")
    assert odds_args("--decks", "1").decks == 1 and odds_args("--decks", "8").decks == 8
    assert odds_args("--max-hands", "2").max_hands == 2
    assert odds_args("--max-hands", "4").max_hands == 4
    for option, value in (("--decks", "0"), ("--decks", "9"), ("--max-hands", "1")):
        with pytest.raises((SystemExit, argparse.ArgumentError)):
            odds_args(option, value)
    with pytest.raises((SystemExit, argparse.ArgumentError)):
        odds_args("--max-hands", "5")


def doc(balances: dict[str, int], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": "blackjack",
        "rules": {},
        "seats": ["ann", "bob"],
        "balances": balances,
        "shoe": ["10S", "9D", "9H", "10C"],
        "actions": actions,
    }


@pytest.mark.rule("BJ-CHIPS-1", "BJ-BET-1")
def test_a_seat_the_file_gives_no_chips_cannot_bet() -> None:
    code, result = replay_doc(doc({"ann": 100}, [{"seat": "bob", "act": "bet", "amount": 1}]))
    assert code == 2 and "error" in result


@pytest.mark.rule("BJ-SETTLE-1")
def test_a_replay_lists_each_event_with_what_it_names() -> None:
    actions = [
        {"seat": "ann", "act": "bet", "amount": 10},
        {"act": "deal"},
        {"seat": "ann", "act": "stand"},
    ]
    code, result = replay_doc(doc({"ann": 100}, actions))
    assert code == 0
    kinds = [e["kind"] for e in result["events"]]
    assert kinds[0] == "bet" and kinds[-1] == "settled"
    assert {"kind": "bet", "actor": "ann", "amount": 10} in result["events"]
    assert {"kind": "dealt", "actor": "@dealer", "card": "9D"} in result["events"]
    assert all(None not in e.values() for e in result["events"])
