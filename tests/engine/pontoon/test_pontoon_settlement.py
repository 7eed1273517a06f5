"""Section 7: settlement in every case, and the cover limit P-PAY-LIMIT."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pontoon_helpers import HOUSE, E, K, act, kinds, stack, table, total_chips

from engine.errors import RuleError
from engine.pontoon import Phase, Table

FOUR = ("ann", "bob", "dan", "cat")


def four(
    ann: tuple[str, str],
    bob: tuple[str, str],
    dan: tuple[str, str],
    banker: tuple[str, str],
    draws: Sequence[str] = (),
    **rules: object,
) -> Table:
    t = table(stack([ann, bob, dan], banker, draws), seats=FOUR, **rules)
    for p in ("ann", "bob", "dan"):
        act(t, p, K.BET, 5)
    return t


def net(t: Table, start: int = 100) -> dict[str, int]:
    return {s: b - start for s, b in t.balances.items()}


def rule_of(t: Table, seat: str, kind: K, amount: int | None = None) -> str:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount)
    assert t.to_json() == before
    return ei.value.rule


@pytest.mark.rule("P-PAY-STAY", "P-RANK-6")
def test_P_PAY_STAY_beats_total_wins_equal_or_less_loses_pontoon_double() -> None:
    t = four(("10S", "9S"), ("10D", "8D"), ("AS", "KS"), ("10H", "8H"))
    act(t, "ann", K.STICK)  # 19
    act(t, "bob", K.STICK)  # 18 = banker's 18: banker wins the tie
    act(t, "dan", K.DECLARE)
    out = act(t, "cat", K.STICK)
    assert net(t) == {"ann": 5, "bob": -5, "dan": 10, "cat": -10}
    results = {e.seat: e for e in out.events if e.kind is E.HAND_RESULT}
    assert results["bob"].detail.startswith("lose")
    assert results["ann"].cards == ("10S", "9S")  # shown at settlement
    assert total_chips(t) == 400 and t.escrow == 0


@pytest.mark.rule("P-PAY-STAY")
def test_P_PAY_STAY_banker_on_21_pays_only_pontoons_and_five_card_tricks() -> None:
    t = four(
        ("10S", "9S"),
        ("2D", "3D"),
        ("AS", "KS"),
        ("10H", "5H"),
        draws=("4C", "2H", "3C", "6C"),
    )
    act(t, "ann", K.STICK)
    act(t, "bob", K.BUY, 5)
    act(t, "bob", K.BUY, 5)
    out = act(t, "bob", K.BUY, 5)  # 2+3+4+2+3 = 14, five card trick, stake 20
    assert E.FIVE_CARD_TRICK in kinds(out)
    act(t, "dan", K.DECLARE)
    act(t, "cat", K.TWIST)  # 21 ends the banker's turn
    assert t.phase is Phase.ROUND_OVER
    assert net(t) == {"ann": -5, "bob": 40, "dan": 10, "cat": -45}


@pytest.mark.rule("P-PAY-STAY", "P-FIVE-1")
def test_P_PAY_STAY_five_card_trick_paid_double() -> None:
    t = four(("10S", "9S"), ("2D", "3D"), ("10C", "7C"), ("10H", "8H"), draws=("4C", "2H", "3C"))
    act(t, "ann", K.STICK)
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)
    act(t, "dan", K.STICK)
    act(t, "cat", K.STICK)
    assert net(t) == {"ann": 5, "bob": 10, "dan": -5, "cat": -10}


@pytest.mark.rule("P-PAY-BUST")
def test_P_PAY_BUST_banker_bust_pays_stake_and_double_to_specials() -> None:
    t = four(
        ("10S", "6S"),
        ("2D", "3D"),
        ("AS", "KS"),
        ("10H", "6H"),
        draws=("4C", "2H", "3C", "KC"),
    )
    act(t, "ann", K.STICK)  # 16
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)  # five card trick on stake 5
    act(t, "dan", K.DECLARE)
    out = act(t, "cat", K.TWIST)  # 26: bust
    assert E.BUST in kinds(out)
    assert net(t) == {"ann": 5, "bob": 10, "dan": 10, "cat": -25}


@pytest.mark.rule("P-PAY-BUST", "P-BUST-1")
def test_P_PAY_BUST_a_player_bust_first_still_loses() -> None:
    t = four(("10S", "6S"), ("10D", "7D"), ("10C", "8C"), ("10H", "6H"), draws=("KS", "KC"))
    act(t, "ann", K.TWIST)  # bust
    act(t, "bob", K.STICK)
    act(t, "dan", K.STICK)
    act(t, "cat", K.TWIST)  # banker bust
    assert net(t) == {"ann": -5, "bob": 5, "dan": 5, "cat": -5}


@pytest.mark.rule("P-PAY-FIVE")
def test_P_PAY_FIVE_banker_five_pays_only_pontoons_others_lose_double() -> None:
    seats = ("ann", "bob", "dan", "eve", "cat")
    top = stack(
        [("10S", "6S"), ("2D", "3D"), ("AS", "KS"), ("10C", "9C")],
        ("2H", "3H"),
        draws=("KD", "4C", "2C", "3C", "2S", "3S", "4D"),
    )
    t = table(top, seats=seats)
    for p in ("ann", "bob", "dan", "eve"):
        act(t, p, K.BET, 5)
    act(t, "ann", K.TWIST)  # 26 bust: loses 5 once
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)
    act(t, "bob", K.TWIST)  # five card trick 2+3+4+2+3 = 14
    act(t, "dan", K.DECLARE)
    act(t, "eve", K.STICK)  # 19
    act(t, "cat", K.TWIST)
    act(t, "cat", K.TWIST)
    out = act(t, "cat", K.TWIST)  # 2+3+2+3+4 = 14 in five cards
    assert E.FIVE_CARD_TRICK in kinds(out)
    assert net(t) == {"ann": -5, "bob": -10, "dan": 10, "eve": -10, "cat": 15}
    # the result line of a hand that loses double says "double" (a bust says "bust")
    why = {
        ev.seat: dict(ev.says.params)["why"]
        for ev in out.events
        if ev.kind is E.HAND_RESULT and ev.says is not None and ev.says.key == "engine.result.lose"
    }
    assert {seat: getattr(w, "key", None) for seat, w in why.items()} == {
        "eve": "engine.why.loses_double_to",
        "bob": "engine.why.loses_double_to",
    }


# ---------------------------------------------------------------- P-PAY-LIMIT


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_banker_must_cover_worst_case() -> None:
    t = table(balances={"ann": 100, "bob": 100, "cat": 10})
    act(t, "ann", K.BET, 5)  # 5 x 2 = 10 = all the banker holds
    assert rule_of(t, "bob", K.BET, 1) == "P-PAY-LIMIT"
    assert [la.kind for la in t.legal_actions("bob")] == [K.SIT_OUT]


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_triple_pontoons_need_triple_cover() -> None:
    t = table(balances={"ann": 100, "bob": 100, "cat": 15}, pontoon_pays="triple")
    act(t, "ann", K.BET, 5)
    assert rule_of(t, "bob", K.BET, 1) == "P-PAY-LIMIT"
    # a player must hold a possible triple loss (banker's triple pontoon)
    t = table(balances={"ann": 14, "bob": 100, "cat": 100}, pontoon_pays="triple")
    assert rule_of(t, "ann", K.BET, 5) == "P-PAY-LIMIT"
    act(t, "ann", K.BET, 4)


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_player_must_cover_stake_and_double_loss() -> None:
    t = table(balances={"ann": 9, "bob": 100, "cat": 100})
    la = {x.kind: x for x in t.legal_actions("ann")}[K.BET]
    assert la.max_amount == 4
    assert rule_of(t, "ann", K.BET, 5) == "P-PAY-LIMIT"
    act(t, "ann", K.BET, 4)
    assert t.balances["ann"] == 5


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_buy_and_split_refused_when_not_covered() -> None:
    t = table(
        stack([("5S", "4S"), ("10D", "7D")], ("10H", "8H")),
        balances={"ann": 20, "bob": 100, "cat": 100},
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    la = {x.kind: x for x in t.legal_actions("ann")}[K.BUY]
    assert (la.min_amount, la.max_amount) == (5, 5)
    assert rule_of(t, "ann", K.BUY, 6) == "P-PAY-LIMIT"
    t = table(
        stack([("5S", "5H"), ("10D", "7D")], ("10H", "8H")),
        balances={"ann": 14, "bob": 100, "cat": 100},
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert K.SPLIT not in {x.kind for x in t.legal_actions("ann")}
    assert rule_of(t, "ann", K.SPLIT) == "P-PAY-LIMIT"
    t = table(
        stack([("5S", "5H"), ("10D", "7D")], ("10H", "8H")),
        balances={"ann": 100, "bob": 100, "cat": 20},
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert rule_of(t, "ann", K.SPLIT) == "P-PAY-LIMIT"


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_house_bank_has_no_limit() -> None:
    t = table(seats=("ann",), balance=1000, house_bank=True, max_bet=500)
    assert t.banker == HOUSE
    act(t, "ann", K.BET, 500)
    assert t.escrow == 500
