"""Section 8 (next deal, passing and selling the bank) and the house-banked table."""

from __future__ import annotations

import pytest
from pontoon_helpers import HOUSE, E, K, act, complete, kinds, stack, table, total_chips

from engine.cards import ScriptedChance
from engine.errors import RuleError
from engine.pontoon import Action, Phase, PontoonRules, Table


def finish(t: Table, *players: str) -> None:
    for p in players:
        act(t, p, K.STICK)
    act(t, t.banker or "", K.STICK)


@pytest.mark.rule("P-NEXT-1")
def test_P_NEXT_1_no_pontoon_used_cards_to_bottom_no_shuffle() -> None:
    top = stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H"), draws=("2D", "3D", "4D"))
    t = table(top)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    finish(t, "ann", "bob")
    assert not t.needs_shuffle
    assert t.pack.codes()[:3] == ["2D", "3D", "4D"]
    assert t.pack.codes()[-6:] == ["10S", "9S", "JC", "7C", "10H", "8H"]
    act(t, "cat", K.NEXT_ROUND)
    out = act(t, "cat", K.DEAL)
    assert E.SHUFFLED not in kinds(out)
    assert [e.cards for e in out.events if e.kind is E.CARD_DEALT][:2] == [("2D",), ("3D",)]


@pytest.mark.rule("P-NEXT-1")
def test_P_NEXT_1_after_a_pontoon_the_pack_is_shuffled() -> None:
    top = stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H"))
    t = table(top)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    finish(t, "bob")
    assert t.needs_shuffle
    act(t, "ann", K.NEXT_ROUND)  # ann banks now (P-NEXT-2)
    new_order = complete(["QD", "QC", "QH", "2S"])
    chance = ScriptedChance([new_order])
    out = t.apply(Action("ann", K.DEAL), chance)
    assert out.events[0].kind is E.SHUFFLED and out.events[0].public
    assert not t.needs_shuffle
    first = [e.cards for e in out.events if e.kind is E.CARD_DEALT and e.cards]
    assert first == [("QD",), ("QC",)]  # bob, cat (ann banks)


@pytest.mark.rule("P-NEXT-2")
def test_P_NEXT_2_player_pontoon_takes_the_bank() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    finish(t, "bob")
    assert t.next_banker == "ann" and t.banker == "cat"
    out = act(t, "bob", K.NEXT_ROUND)
    assert t.banker == "ann"
    assert any(e.kind is E.BANK_PASSES and e.seat == "ann" for e in out.events)


@pytest.mark.rule("P-NEXT-2")
def test_P_NEXT_2_nearest_the_banker_left_takes_it() -> None:
    # banker bob: play order cat, ann; both hold pontoons
    t = table(stack([("AS", "KS"), ("AD", "QD")], ("10H", "8H")), banker="bob")
    act(t, "cat", K.BET, 5)
    act(t, "ann", K.BET, 5)
    act(t, "cat", K.DECLARE)
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)
    assert t.next_banker == "cat"


@pytest.mark.rule("P-NEXT-2", "P-DEAL-4")
def test_P_NEXT_2_no_pass_when_banker_had_pontoon() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("AH", "QH")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.phase is Phase.ROUND_OVER and t.next_banker == "cat"


@pytest.mark.rule("P-SELL-1")
def test_P_SELL_1_banker_sells_the_bank_for_a_price() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    finish(t, "ann", "bob")
    with pytest.raises(RuleError) as ei:
        act(t, "ann", K.SELL_BANK, 10, target="bob")
    assert ei.value.rule == "P-SELL-1"
    with pytest.raises(RuleError) as ei:
        act(t, "cat", K.SELL_BANK, 1000, target="bob")
    assert ei.value.rule == "P-SELL-1"
    before = dict(t.balances)
    out = act(t, "cat", K.SELL_BANK, 20, target="bob")
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [("bob", "cat", 20)]
    assert t.banker == "bob" and t.next_banker == "bob"
    assert t.balances["cat"] == before["cat"] + 20
    act(t, "bob", K.NEXT_ROUND)
    act(t, "bob", K.DEAL)
    assert t.players == ["cat", "ann"]


@pytest.mark.rule("P-SELL-1")
def test_P_SELL_1_not_during_a_hand_nor_when_bank_passes() -> None:
    t = table()
    with pytest.raises(RuleError):
        act(t, "cat", K.SELL_BANK, 1, target="ann")
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    finish(t, "bob")
    with pytest.raises(RuleError) as ei:
        act(t, "cat", K.SELL_BANK, 1, target="bob")
    assert ei.value.rule == "P-NEXT-2"


def test_house_bank_plays_documented_strategy() -> None:
    top = ["10S", "5H", "9S", "6H", "2C", "6C"]  # ann 10-9, house 5-6, draws 2 (13), 6 (19)
    t = table(top, seats=("ann",), house_bank=True, house_stands_on=17)
    assert t.banker == HOUSE
    act(t, "ann", K.BET, 5)
    out = act(t, "ann", K.STICK)
    draws = [e.cards for e in out.events if e.kind is E.BANKER_DRAW]
    assert draws == [("2C",), ("6C",)]
    stays = next(e for e in out.events if e.kind is E.BANKER_STAYS)
    assert stays.total == 19
    assert t.balances["ann"] == 95 and t.house_net == 5
    assert any(tr.dst == HOUSE for tr in out.transfers)
    assert total_chips(t) == 100


def test_house_bank_never_passes_and_anyone_deals() -> None:
    t = table(["AS", "5H", "KS", "6H", "10C"], seats=("ann", "bob"), house_bank=True)
    assert t.to_act() == ["ann", "bob"]
    t = table(["AS", "9C", "5H", "KS", "9D", "6H", "10C"], seats=("ann", "bob"), house_bank=True)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)  # 18 vs house 5+6+10 = 21
    assert t.phase is Phase.ROUND_OVER
    assert t.balances == {"ann": 110, "bob": 95}
    assert t.next_banker == HOUSE
    act(t, "bob", K.NEXT_ROUND)
    assert t.banker == HOUSE


def test_rules_validation() -> None:
    with pytest.raises(ValueError):
        PontoonRules(min_bet=5, max_bet=2)
    with pytest.raises(ValueError):
        PontoonRules(shoot=True, house_bank=True)
    with pytest.raises(ValueError):
        PontoonRules(unknown_option=True)  # type: ignore[call-arg]
    r = PontoonRules()
    with pytest.raises(ValueError):
        r.min_bet = 3  # type: ignore[misc]


@pytest.mark.rule("P-SELL-1")
def test_P_SELL_1_a_banker_who_wants_to_leave_sells_the_bank_even_for_nothing() -> None:
    """The banker's way out. Leaving while banking is refused with a message
    that names it; selling the bank (at any agreed price, 0 too) frees the seat."""
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    finish(t, "ann", "bob")
    with pytest.raises(RuleError) as ei:
        act(t, "cat", K.LEAVE)
    assert ei.value.key == "engine.banker_cannot_leave"
    out = act(t, "cat", K.SELL_BANK, 0, target="bob")
    assert not out.transfers and t.banker == "bob"
    act(t, "cat", K.LEAVE)
    assert "cat" not in t.seats
