"""Bets and settlement: B-BET-1, B-WIN-1 (commission rounding), B-TIE-1."""

from __future__ import annotations

import pytest

from engine.errors import RuleError
from engine.punto_banco import (
    ESCROW,
    HOUSE,
    Bet,
    BetOutcome,
    PuntoBancoRules,
    Side,
    Transfer,
    settle,
    validate_amount,
)

RULES = PuntoBancoRules(min_bet=2, max_bet=50)


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize(
    ("amount", "words"),
    [
        (0, "0 chips"),
        (-5, "negative"),
        (51, "largest bet"),
        (1, "smallest bet"),
        (2.5, "whole number"),
        ("5", "whole number"),
        (True, "whole number"),
        (None, "whole number"),
    ],
)
def test_b_bet_1_bad_amounts_refused(amount: object, words: str) -> None:
    with pytest.raises(RuleError) as err:
        validate_amount(amount, RULES)
    assert err.value.rule == "B-BET-1"
    assert words in err.value.message


@pytest.mark.rule("B-BET-1")
def test_b_bet_1_limits_and_balance() -> None:
    assert validate_amount(2, RULES) == 2
    assert validate_amount(50, RULES) == 50
    assert validate_amount(30, RULES, balance=30) == 30
    with pytest.raises(RuleError, match="only 29 chips"):
        validate_amount(30, RULES, balance=29)


@pytest.mark.rule("B-BET-1")
def test_b_bet_1_three_bets() -> None:
    assert {s.value for s in Side} == {"punto", "banco", "egalite"}


def _net(transfers: tuple[Transfer, ...], account: str) -> int:
    return sum(t.amount for t in transfers if t.dst == account) - sum(
        t.amount for t in transfers if t.src == account
    )


@pytest.mark.rule("B-WIN-1")
@pytest.mark.parametrize(
    ("pct", "stake", "winnings"),
    [
        (5, 20, 19),
        (5, 100, 95),
        (5, 10, 9),  # 9.5 rounded down
        (5, 19, 18),  # 18.05
        (5, 39, 37),  # 37.05
        (5, 1, 0),  # 0.95 -> nothing but the stake back
        (5, 2, 1),  # 1.9
        (0, 7, 7),
        (4, 25, 24),
        (4, 26, 24),  # 24.96
        (10, 15, 13),  # 13.5
    ],
)
def test_b_win_1_banco_commission_rounds_down(pct: int, stake: int, winnings: int) -> None:
    rules = PuntoBancoRules(banco_commission_pct=pct, max_bet=1000)
    assert rules.banco_winnings(stake) == winnings
    s = settle([Bet("ann", Side.BANCO, stake)], Side.BANCO, rules)
    assert s.results[0].outcome is BetOutcome.WIN
    assert s.results[0].net == winnings
    assert _net(s.transfers, "ann") == stake + winnings  # stake back from escrow + winnings
    assert _net(s.transfers, ESCROW) == -stake
    assert _net(s.transfers, HOUSE) == -winnings
    assert all(t.amount > 0 for t in s.transfers)  # no zero-chip transfer for stake 1


@pytest.mark.rule("B-WIN-1")
def test_b_win_1_punto_pays_even_money_and_losers_go_to_house() -> None:
    bets = [Bet("ann", Side.PUNTO, 10), Bet("bob", Side.BANCO, 10), Bet("cat", Side.EGALITE, 3)]
    s = settle(bets, Side.PUNTO, PuntoBancoRules())
    assert [r.net for r in s.results] == [10, -10, -3]
    assert s.transfers == (
        Transfer(ESCROW, "ann", 10, "punto stake back"),
        Transfer(HOUSE, "ann", 10, "punto bet won"),
        Transfer(ESCROW, HOUSE, 10, "banco bet lost"),
        Transfer(ESCROW, HOUSE, 3, "egalite bet lost"),
    )
    assert s.house_net == 3
    assert s.net_by_bettor() == {"ann": 10, "bob": -10, "cat": -3}


@pytest.mark.rule("B-TIE-1")
def test_b_tie_1_egalite_pays_8_and_returns_punto_banco() -> None:
    bets = [
        Bet("ann", Side.PUNTO, 10),
        Bet("bob", Side.BANCO, 7),
        Bet("cat", Side.EGALITE, 5),
        Bet("ann", Side.EGALITE, 1),
    ]
    s = settle(bets, Side.EGALITE, PuntoBancoRules())
    assert [r.outcome for r in s.results] == [
        BetOutcome.PUSH,
        BetOutcome.PUSH,
        BetOutcome.WIN,
        BetOutcome.WIN,
    ]
    assert [r.net for r in s.results] == [0, 0, 40, 8]
    assert _net(s.transfers, "ann") == 10 + 1 + 8
    assert _net(s.transfers, "bob") == 7
    assert _net(s.transfers, "cat") == 5 + 40
    assert _net(s.transfers, ESCROW) == -(10 + 7 + 5 + 1)
    assert _net(s.transfers, HOUSE) == -48


@pytest.mark.rule("B-TIE-1")
def test_b_tie_1_tie_pays_is_a_table_option() -> None:
    s = settle([Bet("ann", Side.EGALITE, 4)], Side.EGALITE, PuntoBancoRules(tie_pays=9))
    assert s.results[0].net == 36


@pytest.mark.rule("B-BANCO-2")
def test_rules_model_is_frozen_and_strict() -> None:
    rules = PuntoBancoRules()
    assert (rules.packs, rules.tableau, rules.banco_commission_pct, rules.tie_pays) == (
        1,
        "seed",
        5,
        8,
    )
    assert rules.reshuffle_below == 6
    with pytest.raises(ValueError):
        PuntoBancoRules(tableau="macau")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        PuntoBancoRules(packs=9)
    with pytest.raises(ValueError):
        PuntoBancoRules(min_bet=10, max_bet=5)
    with pytest.raises(ValueError):
        PuntoBancoRules.model_validate({"packs": 2, "colour": "red"})
    with pytest.raises(ValueError):
        rules.packs = 2  # type: ignore[misc]


@pytest.mark.rule("B-WIN-1")
@pytest.mark.parametrize(("pct", "multiple"), [(5, 20), (0, 1), (4, 25), (10, 10), (2, 50)])
def test_b_win_1_exact_stake_multiple(pct: int, multiple: int) -> None:
    rules = PuntoBancoRules(banco_commission_pct=pct, max_bet=1000)
    assert rules.exact_banco_stake_multiple == multiple
    for stake in range(1, 201):
        exact = rules.banco_win_fraction * stake
        assert (rules.banco_winnings(stake) == exact) is (stake % multiple == 0)
