"""Seats of kind computer (``cpu-1``...): they play with the house's chips (what they
bring comes from the house and goes back to it) and never take the bank: the cut, a
pontoon passing the bank (P-NEXT-2) and a sale (P-SELL-1) pass over them."""

from __future__ import annotations

import pytest
from pontoon_helpers import CH, HOUSE, E, K, act, complete, kinds, stack, table, total_chips

from engine.errors import RuleError
from engine.pontoon import Action, PontoonRules, Table
from engine.records import computer_seat, is_computer_seat


def test_computer_seat_ids_are_not_members() -> None:
    assert computer_seat(2) == "cpu-2"
    assert is_computer_seat("cpu-2")
    assert not is_computer_seat("123456789012345678")
    assert not is_computer_seat(HOUSE)
    assert not is_computer_seat(None)


@pytest.mark.rule("P-TABLE-1")
def test_a_computer_player_brings_the_houses_chips_and_gives_them_back() -> None:
    t = Table(PontoonRules(house_bank=True), ["ann"], {"ann": 50})
    before = total_chips(t)
    out = act(t, "cpu-1", K.JOIN, 200)
    assert t.balances["cpu-1"] == 200
    assert t.house_net == -200
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [(HOUSE, "cpu-1", 200)]
    assert total_chips(t) == before
    out = act(t, "cpu-1", K.LEAVE)
    assert "cpu-1" not in t.balances
    assert t.house_net == 0
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [("cpu-1", HOUSE, 200)]
    assert total_chips(t) == before


@pytest.mark.rule("P-TABLE-1")
def test_a_member_joining_brings_their_own_chips_not_the_houses() -> None:
    t = Table(PontoonRules(house_bank=True), ["ann"], {"ann": 50})
    out = act(t, "bob", K.JOIN, 70)
    assert t.balances["bob"] == 70 and t.house_net == 0 and out.transfers == []


class TopCard:
    """Cuts the top card of what is left."""

    def shuffle(self, cards: list[object]) -> list[object]:
        return list(cards)

    def randbelow(self, n: int) -> int:
        return 0


@pytest.mark.rule("P-BANK-1")
def test_computer_players_do_not_cut_for_the_bank() -> None:
    # the aces lie on top: a computer cutting would take one and the bank
    t = Table(PontoonRules(), ["cpu-1", "ann", "cpu-2"], pack=complete(["AS", "AH", "2C"]))
    with pytest.raises(RuleError) as refused:
        t.apply(Action("cpu-1", K.CUT), TopCard())
    assert refused.value.key == "engine.computer_no_bank"
    out = t.apply(Action("ann", K.CUT), TopCard())
    cutters = [e.seat for e in out.events if e.kind is E.CUT_CARD]
    assert cutters == ["ann"]
    assert t.banker == "ann"


@pytest.mark.rule("P-NEXT-2")
def test_a_computers_pontoon_does_not_pass_it_the_bank() -> None:
    t = table(stack([("AS", "KS"), ("9C", "7C")], ("10H", "8H")), seats=("cpu-1", "bob", "cat"))
    act(t, "cpu-1", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "cpu-1", K.DECLARE)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert t.bank_passes_to is None
    assert E.BANK_PASSES not in kinds(act(t, "cat", K.NEXT_ROUND))
    assert t.banker == "cat"


@pytest.mark.rule("P-NEXT-2")
def test_the_bank_passes_over_a_computer_to_the_next_pontoon() -> None:
    t = table(stack([("AS", "KS"), ("AC", "QC")], ("10H", "8H")), seats=("cpu-1", "bob", "cat"))
    act(t, "cpu-1", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "cpu-1", K.DECLARE)
    act(t, "bob", K.DECLARE)
    act(t, "cat", K.STICK)
    assert t.bank_passes_to == "bob"


@pytest.mark.rule("P-SELL-1")
def test_the_bank_cannot_be_sold_to_a_computer() -> None:
    t = table(seats=("cpu-1", "bob", "cat"), deal=False)
    before = t.to_json()
    with pytest.raises(RuleError) as refused:
        t.apply(Action("cat", K.SELL_BANK, 5, target="cpu-1"), CH)
    assert refused.value.key == "engine.computer_no_bank"
    assert t.to_json() == before
    act(t, "cat", K.SELL_BANK, 5, target="bob")
    assert t.banker == "bob"
