"""Section 10: Shoot Pontoon (P-SHOOT-1..9)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pontoon_helpers import KITTY, E, K, act, kinds, stack, table, total_chips

from engine.errors import RuleError, Word
from engine.pontoon import Phase, Table


def shoot_table(
    ann: tuple[str, str],
    bob: tuple[str, str] = ("JC", "7C"),
    banker: tuple[str, str] = ("10H", "8H"),
    draws: Sequence[str] = (),
    kitty: int = 50,
    shoots: tuple[int, int] = (0, 0),
    **rules: object,
) -> Table:
    t = table(stack([ann, bob], banker, draws), shoot=True, **rules)
    assert t.phase is Phase.KITTY
    act(t, "cat", K.KITTY, kitty)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.phase is Phase.SHOOTING
    act(t, "ann", K.SHOOT, shoots[0])
    act(t, "bob", K.SHOOT, shoots[1])
    return t


def rule_of(
    t: Table, seat: str, kind: K, amount: int | None = None, shoot: int | None = None
) -> str:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount, shoot)
    assert t.to_json() == before
    return ei.value.rule


@pytest.mark.rule("P-SHOOT-1")
def test_P_SHOOT_1_banker_forms_kitty_between_min_and_max() -> None:
    t = table(shoot=True, kitty_min=10, kitty_max=60)
    assert t.phase is Phase.KITTY and t.to_act() == ["cat"]
    assert rule_of(t, "cat", K.KITTY, 9) == "P-SHOOT-1"
    assert rule_of(t, "cat", K.KITTY, 61) == "P-SHOOT-1"
    assert rule_of(t, "ann", K.KITTY, 20) == "P-SHOOT-1"
    out = act(t, "cat", K.KITTY, 40)
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [("cat", KITTY, 40)]
    assert t.kitty == 40 and t.balances["cat"] == 60
    assert t.phase is Phase.BETTING


@pytest.mark.rule("P-SHOOT-2")
def test_P_SHOOT_2_shoot_bets_in_order_limited_by_kitty() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 30)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.BET, 5)
    assert t.phase is Phase.SHOOTING and t.to_act() == ["ann"]
    assert rule_of(t, "bob", K.SHOOT, 5) == "P-SHOOT-2"
    la = t.legal_actions("ann")[0]
    assert (la.kind, la.min_amount, la.max_amount) == (K.SHOOT, 0, 30)
    act(t, "ann", K.SHOOT, 30)  # the whole kitty: nobody else can shoot
    assert t.legal_actions("bob")[0].max_amount == 0
    assert rule_of(t, "bob", K.SHOOT, 1) == "P-SHOOT-2"
    act(t, "bob", K.SHOOT, 0)
    assert t.phase is Phase.PLAYING
    assert t.private_view("ann")[0].shoot == 30


@pytest.mark.rule("P-SHOOT-3")
def test_P_SHOOT_3_banker_pontoon_takes_shoot_bets_and_double_stakes() -> None:
    t = shoot_table(("10S", "9S"), banker=("AH", "KH"), shoots=(10, 5))
    assert t.phase is Phase.ROUND_OVER
    assert t.kitty == 65
    assert t.balances == {"ann": 80, "bob": 85, "cat": 50 + 20}
    assert total_chips(t) == 300


@pytest.mark.rule("P-SHOOT-4")
def test_P_SHOOT_4_shoot_only_before_the_fourth_card() -> None:
    t = shoot_table(("2S", "3S"), draws=("2C", "3C", "4D"))
    assert rule_of(t, "ann", K.BUY, 5, shoot=5) == "P-SHOOT-4"  # third card: no
    act(t, "ann", K.BUY, 5)
    las = {x.kind: x for x in t.legal_actions("ann")}
    assert las[K.TWIST].shoot_max == 50
    act(t, "ann", K.TWIST, shoot=10)  # fourth card: yes
    assert t.private_view("ann")[0].shoot == 10
    assert rule_of(t, "ann", K.TWIST, shoot=1) == "P-SHOOT-4"  # fifth: no


@pytest.mark.rule("P-SHOOT-4")
def test_P_SHOOT_4_fourth_card_shoot_with_a_buy_respects_the_kitty() -> None:
    t = shoot_table(("2S", "3S"), draws=("2C", "3C"), shoots=(40, 0))
    act(t, "ann", K.BUY, 5)
    assert rule_of(t, "ann", K.BUY, 5, shoot=11) == "P-SHOOT-2"
    act(t, "ann", K.BUY, 5, shoot=10)
    assert t.private_view("ann")[0].shoot == 50


@pytest.mark.rule("P-SHOOT-5")
def test_P_SHOOT_5_split_keeps_shoot_on_first_hand_new_one_on_other() -> None:
    t = shoot_table(("8S", "8D"), draws=("9C", "10C"), shoots=(10, 0))
    act(t, "ann", K.SPLIT, shoot=7)
    v = t.private_view("ann")
    assert [(h.cards[0], h.shoot) for h in v] == [("8S", 10), ("8D", 7)]
    assert t.balances["ann"] == 100 - 10 - 10 - 7


@pytest.mark.rule("P-SHOOT-6")
def test_P_SHOOT_6_bust_shoot_bets_go_to_kitty_at_once() -> None:
    t = shoot_table(("10S", "6S"), draws=("KC",), shoots=(20, 30))
    assert t.legal_actions("ann")  # turn
    out = act(t, "ann", K.TWIST)
    assert E.BUST in kinds(out)
    assert t.kitty == 70
    assert any(tr.dst == KITTY and tr.amount == 20 for tr in out.transfers)


@pytest.mark.rule("P-SHOOT-7")
def test_P_SHOOT_7_shoot_bets_paid_even_money_from_kitty() -> None:
    t = shoot_table(("AS", "KS"), draws=(), shoots=(20, 10))
    act(t, "ann", K.DECLARE)  # pontoon: stake paid double, shoot only even money
    act(t, "bob", K.STICK)  # 17 loses to 18: shoot bet to the kitty
    act(t, "cat", K.STICK)
    assert t.balances["ann"] == 100 + 10 + 20
    assert t.balances["bob"] == 100 - 5 - 10
    assert t.kitty == 50 - 20 + 10
    assert t.escrow == 0 and total_chips(t) == 300


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_banker_may_add_never_take_and_must_refill_empty_kitty() -> None:
    t = shoot_table(("10S", "9S"), shoots=(0, 0), kitty=20)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    act(t, "cat", K.NEXT_ROUND)
    act(t, "cat", K.DEAL)
    assert t.phase is Phase.KITTY
    la = t.legal_actions("cat")[0]
    assert (la.min_amount, la.max_amount) == (0, 80)
    assert rule_of(t, "cat", K.KITTY, -5) == "P-SHOOT-8"
    assert rule_of(t, "cat", K.KITTY, 81) == "P-SHOOT-8"
    act(t, "cat", K.KITTY, 0)
    assert t.kitty == 20 and t.phase is Phase.BETTING


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_empty_kitty_must_be_put_up_again() -> None:
    t = shoot_table(("10S", "9S"), shoots=(20, 0), kitty=20)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)  # ann's 19 beats 18: the kitty pays out all 20
    assert t.kitty == 0
    assert any(e.kind is E.KITTY and e.detail.startswith("empty") for e in out.events)
    act(t, "cat", K.NEXT_ROUND)
    act(t, "cat", K.DEAL)
    assert rule_of(t, "cat", K.KITTY, 0) == "P-SHOOT-8"
    # a new kitty, or the bank sold or offered to the highest bidder
    assert {x.kind for x in t.legal_actions("cat")} == {K.KITTY, K.SELL_BANK, K.AUCTION}
    act(t, "cat", K.SELL_BANK, 5, target="bob")  # or offer the bank
    assert t.banker == "bob" and t.phase is Phase.KITTY


@pytest.mark.rule("P-SHOOT-9")
def test_P_SHOOT_9_old_banker_takes_kitty_back_when_bank_passes() -> None:
    t = shoot_table(("AS", "KS"), shoots=(0, 0), kitty=30)
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert t.next_banker == "ann"
    cat_before = t.balances["cat"]
    out = act(t, "cat", K.NEXT_ROUND)
    assert t.kitty == 0 and t.balances["cat"] == cat_before + 30
    assert any(e.kind is E.BANK_PASSES for e in out.events)
    words = [
        (e.kind, e.seat, e.amount, e.says) for e in out.events if e.kind in (E.KITTY, E.BANK_PASSES)
    ]
    assert words == [
        (E.KITTY, "cat", 30, Word("engine.kitty.returned")),
        (E.BANK_PASSES, "ann", None, Word.of("engine.bank_passes.from", old="cat")),
    ]
    assert t.banker == "ann"
    act(t, "ann", K.DEAL)
    assert t.phase is Phase.KITTY and t.to_act() == ["ann"]
