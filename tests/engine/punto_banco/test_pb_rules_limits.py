"""The limits of a Punto Banco table's options (B-WIN-1, B-TIE-1, B-BET-1): the largest
and smallest values each option takes, and its default. Each one a wrong rule the
mutation run showed no other test would notice."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.punto_banco import PuntoBancoRules


@pytest.mark.rule("B-WIN-1")
def test_B_WIN_1_the_banco_commission_is_at_most_99_percent() -> None:
    """B-WIN-1: the commission is a whole percent of a winning Banco bet's winnings from 0
    to 99; 100% would make a winning Banco bet pay nothing and is refused."""
    assert PuntoBancoRules(banco_commission_pct=99).banco_winnings(100) == 1
    assert PuntoBancoRules(banco_commission_pct=0).banco_winnings(100) == 100
    with pytest.raises(ValidationError):
        PuntoBancoRules(banco_commission_pct=100)


@pytest.mark.rule("B-TIE-1")
def test_B_TIE_1_egalite_pays_at_most_100_to_1() -> None:
    """B-TIE-1: the Egalité payout is a table option from 1:1 to 100:1 (8:1 by default)."""
    assert PuntoBancoRules().tie_pays == 8
    assert PuntoBancoRules(tie_pays=100).tie_pays == 100
    with pytest.raises(ValidationError):
        PuntoBancoRules(tie_pays=101)


@pytest.mark.rule("B-BET-1")
def test_B_BET_1_the_default_limits_are_1_to_100_chips() -> None:
    """B-BET-1: without options a bet is 1 to 100 chips."""
    rules = PuntoBancoRules()
    assert (rules.min_bet, rules.max_bet) == (1, 100)


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize("stake", [1, 7])
def test_B_BET_1_a_table_may_take_one_fixed_stake(stake: int) -> None:
    """B-BET-1: the smallest and the largest bet may be the same (a table of one fixed
    stake, a stake of 1 chip included); only a smallest bet above the largest is wrong."""
    rules = PuntoBancoRules(min_bet=stake, max_bet=stake)
    assert (rules.min_bet, rules.max_bet) == (stake, stake)
    with pytest.raises(ValidationError):
        PuntoBancoRules(min_bet=stake + 1, max_bet=stake)


@pytest.mark.rule("B-WIN-1")
@pytest.mark.parametrize(("pct", "multiple"), [(1, 100), (3, 100), (99, 100), (50, 2)])
def test_B_WIN_1_the_stake_paid_exactly_at_an_odd_commission(pct: int, multiple: int) -> None:
    """B-WIN-1: at 1% (or 3%, or 99%) only a multiple of 100 chips wins a whole number of
    chips (99 of 100 at 1%); at 50% every even stake does."""
    rules = PuntoBancoRules(banco_commission_pct=pct)
    assert rules.exact_banco_stake_multiple == multiple
    assert rules.banco_winnings(multiple) * 100 == multiple * (100 - pct)
    assert all(rules.banco_winnings(s) * 100 != s * (100 - pct) for s in range(1, multiple))
