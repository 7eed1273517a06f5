"""The deal and the kitty at its edges (the last survivors of
engine/pontoon/betting.py): who may open the first deal, the first turn announced, the
banker's look when doubling, and how much the banker may add to a standing kitty."""

from __future__ import annotations

import pytest
from pontoon_helpers import E, K, act, kinds, stack, table

from engine.errors import RuleError
from engine.pontoon import Phase, PontoonRules, Table


def refused(t: Table, seat: str, kind: K, amount: int | None = None) -> RuleError:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount)
    assert t.to_json() == before
    return ei.value


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.rule("P-BANK-1")
def test_P_TABLE_1_a_lone_opener_cannot_cut_and_deal() -> None:
    t = Table(PontoonRules(), ["ann"], {"ann": 50})
    assert t.banker is None
    err = refused(t, "ann", K.DEAL)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.two_needed")
    assert K.DEAL not in {a.kind for a in t.legal_actions("ann")}


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.rule("P-BANK-1")
def test_P_TABLE_1_the_opener_of_a_table_too_big_for_its_pack_cannot_cut_and_deal() -> None:
    names = [f"p{i}" for i in range(27)]
    t = Table(PontoonRules(packs=1), names, {n: 50 for n in names})
    err = refused(t, "p0", K.DEAL)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.no_cards.one")
    assert t.banker is None


@pytest.mark.rule("P-TURN-END")
def test_P_TURN_END_the_first_turn_is_announced_when_play_begins() -> None:
    t = table(stack([("10S", "6S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 5)
    assert t.phase is Phase.PLAYING
    assert [(e.seat, e.hand) for e in out.events if e.kind is E.TURN] == [("ann", 0)]


@pytest.mark.rule("P-VAR-3")
def test_P_VAR_3_the_banker_looks_at_the_one_banker_hand_hand_0() -> None:
    t = table(stack([("10S", "6S"), ("JC", "7C")], ("10H", "8H")), banker_doubles=True)
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 5)
    assert t.phase is Phase.DOUBLING
    look = [e for e in out.events if e.kind is E.CARD_DEALT and e.seat == "cat"]
    assert [(e.hand, e.cards, e.to) for e in look] == [(0, ("10H",), "cat")]
    assert E.TURN not in kinds(out)


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_a_kitty_is_topped_up_to_its_maximum_and_no_further() -> None:
    # cat has chips to spare: what limits the top-up is kitty_max (100) less the 30 in it.
    top = stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H"))
    t = table(top, shoot=True, balances={"ann": 100, "bob": 100, "cat": 500})
    act(t, "cat", K.KITTY, 30)
    for seat, kind in [("ann", K.BET), ("bob", K.BET), ("ann", K.SHOOT), ("bob", K.SHOOT)]:
        act(t, seat, kind, 5 if kind is K.BET else 0)
    for seat in ("ann", "bob", "cat"):
        act(t, seat, K.STICK)  # 17 and 17 lose to 18: the kitty keeps its 30
    act(t, "cat", K.NEXT_ROUND)
    act(t, "cat", K.DEAL)
    assert t.phase is Phase.KITTY and t.kitty == 30
    kitty = {a.kind: a for a in t.legal_actions("cat")}[K.KITTY]
    assert (kitty.min_amount, kitty.max_amount) == (0, 70)
    err = refused(t, "cat", K.KITTY, 71)
    assert (err.rule, err.key) == ("P-SHOOT-8", "engine.kitty_add_max")
    act(t, "cat", K.KITTY, 70)
    assert t.kitty == 100
