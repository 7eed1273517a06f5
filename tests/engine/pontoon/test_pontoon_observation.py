"""What the engine tells each member (Table.observe), the round moving on by itself
(P-NEXT-3) and an offer of the bank lapsing (P-SELL-2)."""

from __future__ import annotations

import pytest
from pontoon_helpers import K, act, stack, table

from engine.pontoon import Action, Phase


def _finish(t, *players: str) -> None:  # type: ignore[no-untyped-def]
    for p in players:
        act(t, p, K.STICK)
    act(t, t.banker or "", K.STICK)


@pytest.mark.rule("P-DEAL-1", "P-DEAL-3", "P-BANKER-1")
def test_cards_are_due_to_a_player_from_the_second_card_and_to_the_banker_in_no_deal() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    assert t.phase is Phase.BETTING
    assert not t.observe("ann").cards_due  # the first card rides with the second
    assert not t.observe("cat").cards_due  # the banker may not look (P-DEAL-1)
    assert [h.cards for h in t.observe("ann").hands] == [("10S",)]
    assert t.observe("cat").hands[0].cards == ()  # the banker's own card, unseen yet
    assert t.observe("cat").hands[0].hidden == 1
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.phase is Phase.PLAYING
    assert t.observe("ann").cards_due and t.observe("bob").cards_due
    assert not t.observe("cat").cards_due  # turned up in the banker's turn (P-BANKER-1)
    assert t.observe(None).hands == () and not t.observe(None).cards_due


@pytest.mark.rule("P-VAR-3")
def test_the_banker_looks_at_the_first_card_when_deciding_to_double() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), banker_doubles=True)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.phase is Phase.DOUBLING
    seen = t.observe("cat")
    assert seen.cards_due and seen.hands[0].cards == ("10H",)
    assert not t.observe("ann").cards_due


@pytest.mark.rule("P-PAY-LIMIT")
def test_the_cover_room_is_the_banker_s_limit_while_stakes_are_open() -> None:
    t = table(
        stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")),
        balances={"ann": 100, "bob": 100, "cat": 12},
        max_bet=10,
    )
    room = t.observe("ann").cover_room
    assert room is not None and room < 10
    bet = next(la for la in t.legal_actions("ann") if la.kind is K.BET)
    assert bet.max_amount == room  # the offer's maximum is the banker's, said as such
    act(t, "ann", K.BET, room)
    assert t.observe("bob").cover_room == 0 < room
    act(t, "bob", K.SIT_OUT)
    _finish(t, "ann")
    assert t.observe("ann").cover_room is None  # no stake is open between rounds


@pytest.mark.rule("P-NEXT-2", "P-NEXT-3")
def test_a_settled_round_moves_on_by_itself_and_the_bank_passes() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    assert t.round_follow_up() is None  # a round in play
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    _finish(t, "bob")
    seen = t.observe("bob")
    assert seen.next_banker == "ann" and t.banker == "cat"
    assert seen.returns == t.returns() and seen.net == t.returns()["bob"]
    assert t.observe("ann").net is not None and t.observe("ann").net > 0  # type: ignore[operator]
    follow = t.round_follow_up()
    assert follow == Action("cat", K.NEXT_ROUND)  # in the (old) banker's name
    act(t, follow.seat, follow.kind)
    assert t.phase is Phase.WAITING and t.banker == "ann"
    assert t.round_follow_up() is None


@pytest.mark.rule("P-SELL-1", "P-SELL-2")
def test_an_offer_of_the_bank_lapses_when_the_bank_changes_hands() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.DECLARE)
    _finish(t, "bob")
    assert t.offer_refusal("cat") is None  # cat banks: an offer of cat's stands
    refusal = t.offer_refusal("bob")
    assert refusal is not None and refusal.rule == "P-SELL-2"
    act(t, "cat", K.NEXT_ROUND)  # the bank passes to ann (P-NEXT-2)
    lapsed = t.offer_refusal("cat")
    assert lapsed is not None and lapsed.key == "err.svc.offer_lapsed"
    assert t.offer_refusal("ann") is None
