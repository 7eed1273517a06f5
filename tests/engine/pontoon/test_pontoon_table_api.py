"""What the Table tells its caller: who is waited for, whether a round is in play, each
seat's net from the last round, the actions offered and the views (mutation
testing of engine/pontoon/table.py).

The offers must match what ``apply`` accepts at their edges: a range of one amount, a
sale for nothing (P-SELL-1), a shoot bet as large as the player can cover (P-SHOOT-2,
P-PAY-LIMIT), a kitty of exactly the agreed bounds (P-SHOOT-1).
"""

from __future__ import annotations

import pytest
from pontoon_helpers import K, act, stack, table

from engine.pontoon import Phase, Table
from engine.pontoon.types import LegalAction


def offers(t: Table, seat: str) -> dict[K, LegalAction]:
    return {a.kind: a for a in t.legal_actions(seat)}


def finished(t: Table, *players: str) -> None:
    for p in players:
        act(t, p, K.STICK)
    act(t, t.banker or "", K.STICK)


def shoot_round(balances: dict[str, int] | None = None) -> Table:
    """ann 19 and bob 17 against the banker's 18; cat banks a kitty of 50."""
    top = stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H"))
    t = table(top, shoot=True, balances=balances)
    act(t, "cat", K.KITTY, 50)
    return t


# ------------------------------------------------------------------ state of play


def test_nobody_is_waited_for_between_rounds() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), deal=False)
    assert t.phase is Phase.WAITING and t.banker == "cat"
    assert t.to_act() == []
    assert t.is_terminal()
    act(t, "cat", K.DEAL)
    assert t.to_act() == ["ann", "bob"] and not t.is_terminal()
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.to_act() == ["ann"] and not t.is_terminal()
    finished(t, "ann", "bob")
    assert t.phase is Phase.ROUND_OVER
    assert t.to_act() == []
    assert t.is_terminal()


@pytest.mark.rule("P-SHOOT-1")
def test_P_SHOOT_1_a_round_waiting_for_the_kitty_is_in_play() -> None:
    t = table(shoot=True)
    assert t.phase is Phase.KITTY
    assert t.to_act() == ["cat"] and not t.is_terminal()


@pytest.mark.rule("P-SHOOT-7")
@pytest.mark.rule("P-PAY-STAY")
def test_P_SHOOT_7_returns_are_each_seats_net_and_shoot_net_of_the_round() -> None:
    t = shoot_round()
    assert t.returns() == {}  # nothing settled yet
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 10)
    act(t, "ann", K.SHOOT, 10)
    act(t, "bob", K.SHOOT, 0)
    finished(t, "ann", "bob")
    # ann's 19 beats 18: +5 and her shoot bet +10 from the kitty; bob's 17 loses 10. The
    # banker's return is the hands' stakes only (the kitty is an account of its own).
    assert t.returns() == {"ann": 15, "bob": -10, "cat": 5}
    assert t.balances == {"ann": 115, "bob": 90, "cat": 55}
    assert t.kitty == 40


# ------------------------------------------------------------------ offers at their edges


@pytest.mark.rule("P-TABLE-2")
def test_P_TABLE_2_a_bet_range_of_one_amount_is_offered() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), min_bet=5, max_bet=5)
    bet = offers(t, "ann")[K.BET]
    assert (bet.min_amount, bet.max_amount) == (5, 5)
    act(t, "ann", K.BET, 5)


@pytest.mark.rule("P-SHOOT-1")
@pytest.mark.rule("P-SELL-1")
def test_P_SHOOT_1_a_kitty_range_of_one_amount_and_a_sale_for_nothing_are_offered() -> None:
    t = table(seats=("bob", "cat"), shoot=True, kitty_min=20, kitty_max=20)
    offer = offers(t, "cat")
    assert (offer[K.KITTY].min_amount, offer[K.KITTY].max_amount) == (20, 20)
    assert (offer[K.SELL_BANK].min_amount, offer[K.SELL_BANK].max_amount) == (0, None)
    assert offers(t, "bob") == {}
    act(t, "cat", K.KITTY, 20)
    assert t.kitty == 20


@pytest.mark.rule("P-SELL-1")
def test_P_SELL_1_between_rounds_the_banker_is_offered_a_sale_for_nothing() -> None:
    t = table(seats=("bob", "cat"), deal=False)
    sale = offers(t, "cat")[K.SELL_BANK]
    assert (sale.min_amount, sale.max_amount) == (0, None)
    assert K.SELL_BANK not in offers(t, "bob")
    act(t, "cat", K.SELL_BANK, 0, target="bob")
    assert t.banker == "bob"


@pytest.mark.rule("P-SELL-1")
def test_P_SELL_1_no_sale_offered_with_nobody_to_buy_or_at_a_house_table() -> None:
    alone = table(seats=("cat",), deal=False)
    assert K.SELL_BANK not in offers(alone, "cat")
    house = table(seats=("ann", "bob"), deal=False, house_bank=True)
    assert all(K.SELL_BANK not in offers(house, s) for s in ("ann", "bob"))


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_someone_not_seated_is_offered_a_seat_with_any_chips() -> None:
    t = table(deal=False)
    assert t.legal_actions("dan") == [LegalAction(K.JOIN, 0, None)]
    act(t, "dan", K.JOIN, 0)
    assert t.balances["dan"] == 0


@pytest.mark.rule("P-SHOOT-2")
@pytest.mark.rule("P-PAY-LIMIT")
def test_P_SHOOT_2_the_shoot_offer_is_what_the_player_can_cover() -> None:
    # ann has 20: after a bet of 5 she holds 15 and keeps 5 for a possible double loss,
    # so she may shoot 10 of the kitty's 50.
    t = shoot_round(balances={"ann": 20, "bob": 100, "cat": 100})
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    shoot = offers(t, "ann")[K.SHOOT]
    assert (shoot.min_amount, shoot.max_amount) == (0, 10)
    act(t, "ann", K.SHOOT, 10)
    assert t.private_view("ann")[0].shoot == 10


@pytest.mark.parametrize("stage", ["betting", "shooting", "playing"])
def test_someone_not_seated_is_offered_nothing_during_a_round(stage: str) -> None:
    t = shoot_round()
    if stage != "betting":
        act(t, "ann", K.BET, 5)
        act(t, "bob", K.BET, 5)
    if stage == "playing":
        act(t, "ann", K.SHOOT, 0)
        act(t, "bob", K.SHOOT, 0)
    assert t.legal_actions("dan") == []


# ------------------------------------------------------------------ views


@pytest.mark.rule("P-DEAL-3")
def test_P_DEAL_3_the_banker_sees_the_one_banker_hand_as_hand_0() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    mine = t.private_view("cat")
    assert [(h.seat, h.index, h.cards, h.hidden) for h in mine] == [("cat", 0, ("10H", "8H"), 0)]
    public = t.public_view().banker_hand
    assert public is not None
    assert (public.seat, public.index, public.cards, public.hidden) == ("cat", 0, (), 2)
