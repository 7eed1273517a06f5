"""What settlement tells the table (issue 17's mutation survivors): each hand's result
event with its net (stake and shoot bet together), the cards shown to everyone, and the
end-of-round events. Public API only: events of ``apply`` and ``public_view``."""

from __future__ import annotations

import pytest
from pontoon_helpers import E, K, act, stack, table

from engine.pontoon import Outcome, Table


def results(out: Outcome) -> list[tuple[str | None, int | None, int | None, str | None]]:
    return [(e.seat, e.hand, e.amount, e.detail) for e in out.events if e.kind is E.HAND_RESULT]


def seat_cards(t: Table, seat: str) -> list[tuple[tuple[str, ...], int]]:
    view = next(s for s in t.public_view().seats if s.seat == seat)
    return [(h.cards, h.hidden) for h in view.hands]


@pytest.mark.rule("P-SHOOT-7")
@pytest.mark.rule("P-PAY-STAY")
def test_each_result_carries_the_net_of_stake_and_shoot_bet() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 50)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 10)
    act(t, "bob", K.SHOOT, 5)
    assert seat_cards(t, "bob") == [((), 2)]  # face down while the round is played
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)
    assert results(out) == [
        ("ann", 0, 5 + 10, "win: 19 beats banker's 18"),
        ("bob", 0, -5 - 5, "lose: 17 loses to banker's 18"),
    ]
    # every hand still in play is shown at settlement
    assert seat_cards(t, "ann") == [(("10S", "9S"), 0)]
    assert seat_cards(t, "bob") == [(("JC", "7C"), 0)]
    # nothing else happens at the end of an ordinary round
    assert not [e for e in out.events if e.kind in (E.BANK_PASSES, E.KITTY)]


@pytest.mark.rule("P-PAY-BUST")
def test_a_banker_bust_pays_every_hand_and_says_so() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "6H"), ["KD"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 3)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)
    assert results(out) == [("ann", 0, 5, "win: banker bust"), ("bob", 0, 3, "win: banker bust")]
    assert not [e for e in out.events if e.kind is E.KITTY]  # no kitty without Shoot


@pytest.mark.rule("P-BUST-1")
def test_a_bust_hand_result_is_the_lost_stake() -> None:
    t = table(stack([("10S", "6S"), ("JC", "7C")], ("10H", "8H"), ["KD"]))
    act(t, "ann", K.BET, 4)
    act(t, "bob", K.BET, 5)
    out = act(t, "ann", K.TWIST)
    assert results(out) == [("ann", 0, -4, "lose: bust")]
    assert seat_cards(t, "ann") == [(("10S", "6S", "KD"), 0)]


@pytest.mark.rule("P-DEAL-4")
def test_a_banker_pontoon_is_shown_and_every_hand_with_it() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("AH", "KH")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 3)
    shown = next(e for e in out.events if e.kind is E.BANKER_PONTOON)
    assert (shown.seat, shown.hand, shown.cards, shown.total) == ("cat", 0, ("AH", "KH"), 21)
    banker = t.public_view().banker_hand
    assert banker is not None and banker.cards == ("AH", "KH") and banker.hidden == 0
    assert results(out) == [
        ("ann", 0, -10, "lose: banker's pontoon"),
        ("bob", 0, -6, "lose: banker's pontoon"),
    ]
    assert seat_cards(t, "bob") == [(("JC", "7C"), 0)]


@pytest.mark.rule("P-NEXT-2")
def test_the_bank_passing_is_announced_with_the_new_banker() -> None:
    t = table(stack([("10S", "9S"), ("AC", "KC")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    act(t, "bob", K.DECLARE)
    out = act(t, "cat", K.STICK)
    passes = [(e.seat, e.detail) for e in out.events if e.kind is E.BANK_PASSES]
    assert passes == [("bob", "pontoon (P-NEXT-2)")]


@pytest.mark.rule("P-SHOOT-8")
def test_an_emptied_kitty_is_announced_as_zero() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 20)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 20)
    act(t, "bob", K.SHOOT, 0)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)
    kitty = [(e.seat, e.amount, e.detail) for e in out.events if e.kind is E.KITTY]
    assert kitty == [("cat", 0, "empty (P-SHOOT-8)")]
