"""BJ-EDGE-1: the house edge computed from a table's rules, checked against the published
figures the rules name (within 0.05 percentage points), and ``python -m engine odds
blackjack``."""

from __future__ import annotations

import json

import pytest

from engine.__main__ import main
from engine.blackjack import BlackjackRules, house_edge
from engine.blackjack.odds import (
    basic_strategy,
    known_house_edge,
    rule_alternatives,
    rule_effects,
)

BASE = BlackjackRules()  # 6 decks, S17, DAS, no surrender, 3:2, peek


def pct(**options: object) -> float:
    return house_edge(BlackjackRules(**options)).edge * 100  # type: ignore[arg-type]


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_six_decks_s17_das_three_to_two_is_about_point_four() -> None:
    assert abs(pct() - 0.40) <= 0.05
    assert house_edge(BASE).percent == round(house_edge(BASE).edge * 100, 2)


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_h17_costs_about_point_two() -> None:
    assert abs(pct(dealer="h17") - pct() - 0.2) <= 0.05


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_six_to_five_costs_about_one_point_four() -> None:
    assert abs(pct(blackjack_pays="6:5") - pct() - 1.4) <= 0.05


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_the_other_rules_move_it_the_published_way() -> None:
    base = pct()
    assert pct(surrender="late") < base  # about -0.07
    assert pct(double_after_split=False) > base  # about +0.14
    assert pct(double_on="10-11") > pct(double_on="9-11") > base
    assert pct(decks=1) < pct(decks=2) < base < pct(decks=8)
    assert pct(max_hands=2) > base


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_rule_effects_name_what_each_option_changes() -> None:
    effects = rule_effects(BlackjackRules(dealer="h17", blackjack_pays="6:5", min_bet=5))
    assert set(effects) == {"dealer", "blackjack_pays"}
    assert 0.0015 < effects["dealer"] < 0.0025
    assert 0.0135 < effects["blackjack_pays"] < 0.0145
    assert rule_effects(BASE) == {}


@pytest.mark.rule("BJ-EDGE-1")
def test_python_m_engine_odds_blackjack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "blackjack", "--dealer", "h17", "--decks", "6"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["house_edge"] == pytest.approx(
        house_edge(BlackjackRules(dealer="h17")).edge, abs=1e-6
    )
    assert doc["rules"]["dealer"] == "h17" and doc["rules"]["peek"] is True
    with pytest.raises(SystemExit) as bad:
        main(["odds", "blackjack", "--decks", "9"])
    assert bad.value.code == 2
    assert "between 1 and 8" in capsys.readouterr().err


@pytest.mark.rule("BJ-EDGE-1")
def test_bj_edge_1_each_rule_is_worth_the_difference_with_its_other_choice() -> None:
    worth = {name: (other, change) for name, other, change in rule_alternatives(BASE)}
    assert worth["dealer"][0] == "h17" and 0.0015 < worth["dealer"][1] < 0.0025
    assert worth["blackjack_pays"][0] == "6:5" and 0.0135 < worth["blackjack_pays"][1] < 0.0145
    assert worth["surrender"][0] == "late" and worth["surrender"][1] < 0
    assert worth["decks"][0] == 1 and worth["decks"][1] < 0
    no_peek = {name for name, _, _ in rule_alternatives(BASE.model_copy(update={"peek": False}))}
    assert "surrender" not in no_peek  # no surrender without the peek


def test_a_house_edge_not_computed_yet_is_not_known() -> None:
    rules = BlackjackRules(decks=3, max_hands=3, double_on="9-11")
    assert known_house_edge(rules) is None
    edge = house_edge(rules)
    assert known_house_edge(rules.model_copy(update={"min_bet": 5})) is edge  # limits don't count


@pytest.mark.rule("BJ-EDGE-1")
@pytest.mark.parametrize(
    ("options", "cell", "move"),
    [  # the published six-deck basic strategy charts
        ({}, ("hard", 16, 10), "H"),
        ({}, ("hard", 12, 2), "H"),
        ({}, ("hard", 12, 4), "S"),
        ({}, ("hard", 11, 1), "H"),  # S17: 11 against an ace hits
        ({"dealer": "h17"}, ("hard", 11, 1), "D"),  # H17: it doubles
        ({}, ("soft", 18, 2), "S"),
        ({"dealer": "h17"}, ("soft", 18, 2), "Ds"),
        ({}, ("soft", 18, 9), "H"),
        ({}, ("pair", 9, 7), "S"),
        ({}, ("pair", 8, 1), "P"),
        ({}, ("pair", 10, 6), "S"),
        ({"double_after_split": False}, ("pair", 4, 5), "H"),
        ({}, ("pair", 4, 5), "P"),
        ({"surrender": "late"}, ("hard", 16, 10), "R"),
        ({"surrender": "late"}, ("hard", 15, 10), "R"),
    ],
)
def test_bj_edge_1_the_strategy_chart_is_the_published_one(
    options: dict[str, object], cell: tuple[str, int, int], move: str
) -> None:
    assert basic_strategy(BlackjackRules(**options))[cell] == move  # type: ignore[arg-type]
