"""Section 9: every variation as a table option (P-VAR-1..8)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pontoon_helpers import E, K, act, kinds, stack, table, total_chips

from engine.errors import RuleError
from engine.pontoon import HandStatus, Phase, Table


def playing(
    ann: tuple[str, str],
    bob: tuple[str, str] = ("JC", "7C"),
    banker: tuple[str, str] = ("10H", "8H"),
    draws: Sequence[str] = (),
    **rules: object,
) -> Table:
    t = table(stack([ann, bob], banker, draws), **rules)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    return t


def rule_of(t: Table, seat: str, kind: K, amount: int | None = None) -> str:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount)
    assert t.to_json() == before
    return ei.value.rule


def net(t: Table) -> dict[str, int]:
    return {s: b - 100 for s, b in t.balances.items()}


@pytest.mark.rule("P-VAR-1")
def test_P_VAR_1_only_aces_split() -> None:
    t = playing(("8S", "8D"), split_aces_only=True)
    assert rule_of(t, "ann", K.SPLIT) == "P-VAR-1"
    t = playing(("AS", "AH"), draws=("5C", "6C"), split_aces_only=True)
    act(t, "ann", K.SPLIT)
    assert len(t.hands["ann"]) == 2


@pytest.mark.rule("P-VAR-2")
def test_P_VAR_2_stick_needs_16() -> None:
    t = playing(("9S", "6S"), stick_on_16=True)
    assert rule_of(t, "ann", K.STICK) == "P-VAR-2"
    t = playing(("9S", "7S"), stick_on_16=True)
    act(t, "ann", K.STICK)
    assert t.turn == ("bob", 0)


@pytest.mark.rule("P-VAR-3")
def test_P_VAR_3_banker_looks_at_first_card_and_doubles() -> None:
    t = table(
        stack([("10S", "9S"), ("AD", "KD")], ("10H", "8H")),
        seats=("ann", "bob", "dan", "cat"),
        banker_doubles=True,
    )
    t = table(
        stack([("10S", "9S"), ("AD", "KD"), ("10C", "7C")], ("10H", "8H")),
        seats=("ann", "bob", "dan", "cat"),
        banker_doubles=True,
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    out = act(t, "dan", K.BET, 5)
    assert t.phase is Phase.DOUBLING and t.to_act() == ["cat"]
    look = [e for e in out.events if e.kind is E.CARD_DEALT][-1]
    assert look.to == "cat" and look.cards == ("10H",)
    assert t.private_view("cat")[0].cards == ("10H",)
    assert {x.kind for x in t.legal_actions("cat")} == {K.DOUBLE, K.NO_DOUBLE}
    with pytest.raises(RuleError) as ei:
        act(t, "ann", K.DOUBLE)
    assert ei.value.rule == "P-VAR-3"
    out = act(t, "cat", K.DOUBLE)
    assert out.events[0].kind is E.DOUBLED and out.events[0].public
    act(t, "ann", K.STICK)  # 19 beats 18: paid double
    act(t, "bob", K.DECLARE)  # pontoon: twice the undoubled stake, not four times
    act(t, "dan", K.STICK)  # 17 loses double
    act(t, "cat", K.STICK)
    assert net(t) == {"ann": 10, "bob": 10, "dan": -10, "cat": -10}


@pytest.mark.rule("P-VAR-3")
def test_P_VAR_3_no_double_plays_normally_and_option_off_skips_phase() -> None:
    t = playing(("10S", "9S"), banker_doubles=True)
    act(t, "cat", K.NO_DOUBLE)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert net(t) == {"ann": 5, "bob": -5, "cat": 0}
    t = playing(("10S", "9S"))
    assert t.phase is Phase.PLAYING


@pytest.mark.rule("P-VAR-4")
@pytest.mark.parametrize(
    ("pays", "player_gets", "banker_collects"),
    [
        ("double", 10, 10),
        ("single", 5, 5),
        ("triple", 15, 15),
        ("players_double_banker_single", 10, 5),
    ],
)
def test_P_VAR_4_pontoon_payouts(pays: str, player_gets: int, banker_collects: int) -> None:
    t = playing(("AS", "KS"), pontoon_pays=pays)
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)  # 17 loses to 18
    act(t, "cat", K.STICK)
    assert net(t)["ann"] == player_gets
    t = playing(("10S", "9S"), banker=("AH", "QH"), pontoon_pays=pays)
    assert t.phase is Phase.ROUND_OVER
    assert net(t)["ann"] == -banker_collects
    assert total_chips(t) == 300


@pytest.mark.rule("P-VAR-5")
def test_P_VAR_5_fifth_card_only_twisted_on_four_cards_of_11_or_less() -> None:
    t = playing(("2S", "3S"), draws=("2C", "3C", "4D"), no_buy_five_on_eleven=True)
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 5)  # 2+3+2+3 = 10 in four cards
    assert rule_of(t, "ann", K.BUY, 5) == "P-VAR-5"
    assert K.BUY not in {x.kind for x in t.legal_actions("ann")}
    out = act(t, "ann", K.TWIST)
    assert E.FIVE_CARD_TRICK in kinds(out)
    t = playing(("2S", "3S"), draws=("2C", "3C", "4D"))
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 5)  # allowed without the variation


@pytest.mark.rule("P-VAR-6")
def test_P_VAR_6_royal_pontoon_beats_everything_paid_triple() -> None:
    t = playing(("7S", "7H"), banker=("10H", "8H"), draws=("7D", "3C"), royal_pontoon=True)
    out = act(t, "ann", K.TWIST)
    assert t.private_view("ann")[0].status is HandStatus.ROYAL
    assert E.TWENTY_ONE in kinds(out)
    act(t, "bob", K.STICK)
    act(t, "cat", K.TWIST)  # banker 21
    assert net(t)["ann"] == 15
    t = playing(("7S", "7H"), banker=("10H", "8H"), draws=("7D", "3C"))
    act(t, "ann", K.TWIST)
    act(t, "bob", K.STICK)
    act(t, "cat", K.TWIST)
    assert net(t)["ann"] == -5  # without the variation 21 ties the banker's 21


@pytest.mark.rule("P-VAR-6")
def test_P_VAR_6_banker_three_sevens_are_only_21() -> None:
    t = playing(("10S", "9S"), banker=("7H", "7D"), draws=("7S",), royal_pontoon=True)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    act(t, "cat", K.TWIST)
    assert net(t) == {"ann": -5, "bob": -5, "cat": 10}


@pytest.mark.rule("P-VAR-7")
def test_P_VAR_7b_ace_ten_is_an_ordinary_21() -> None:
    t = playing(("AS", "10S"), pontoon_strength="ace_ten_not_pontoon")
    assert t.turn == ("bob", 0)  # 21 stands at once, nothing to declare
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert net(t)["ann"] == 5
    assert t.next_banker == "cat" and not t.needs_shuffle
    t = playing(("10S", "9S"), banker=("AH", "10H"), pontoon_strength="ace_ten_not_pontoon")
    assert t.phase is Phase.PLAYING  # the banker's A-10 is no pontoon


@pytest.mark.rule("P-VAR-7")
@pytest.mark.parametrize("strength", ["picture_beats_ten", "natural"])
def test_P_VAR_7ac_stronger_pontoon_beats_banker_pontoon(strength: str) -> None:
    t = playing(("AS", "KS"), bob=("AD", "10D"), banker=("AH", "10H"), pontoon_strength=strength)
    assert t.phase is Phase.ROUND_OVER
    assert net(t) == {"ann": 10, "bob": -10, "cat": 0}
    t = playing(("AS", "KS"), banker=("AH", "10H"))
    assert net(t)["ann"] == -10  # standard: every pontoon is equal, the banker wins


@pytest.mark.rule("P-VAR-8")
def test_P_VAR_8_burn_hard_13() -> None:
    t = playing(("9S", "4S"), draws=("10C", "8C"), burn="13")
    assert K.BURN in {x.kind for x in t.legal_actions("ann")}
    out = act(t, "ann", K.BURN)
    burned = out.events[0]
    assert burned.kind is E.BURNED and burned.public and burned.cards == ("9S", "4S")
    new = next(e for e in out.events if e.kind is E.CARD_DEALT)
    assert new.to == "ann" and new.cards == ("10C", "8C")
    assert t.private_view("ann")[0].stake == 5
    assert t.pack.codes()[-2:] == ["9S", "4S"]
    t = playing(("AS", "2S"), burn="13")  # A-2 is not a hard 13
    assert rule_of(t, "ann", K.BURN) == "P-VAR-8"
    t = playing(("9S", "4S"))
    assert rule_of(t, "ann", K.BURN) == "P-VAR-8"


@pytest.mark.rule("P-VAR-8")
def test_P_VAR_8_burn_14_again_and_after_split() -> None:
    t = playing(("7S", "7H"), draws=("8C", "6C", "10C", "9C"), burn="14")
    act(t, "ann", K.BURN)
    act(t, "ann", K.BURN)  # 8+6 = 14 again
    assert t.private_view("ann")[0].cards == ("10C", "9C")
    t = playing(("7S", "7H"), draws=("6C", "8C"), burn="14")
    act(t, "ann", K.SPLIT)  # 7S+6C = 13, 7H+8C = 15
    assert K.BURN not in {x.kind for x in t.legal_actions("ann")}
    t = playing(("7S", "7H"), draws=("7C", "2D", "5D", "9D"), burn="14", packs=2)
    act(t, "ann", K.SPLIT)  # 7S+7C = 14 may be burned after a split
    act(t, "ann", K.BURN)
    assert t.private_view("ann")[0].cards == ("5D", "9D")


@pytest.mark.rule("P-VAR-6")
def test_P_VAR_6_royal_is_not_revealed_before_settlement() -> None:
    t = playing(("7S", "7H"), banker=("10H", "8H"), draws=("7D",), royal_pontoon=True)
    out = act(t, "ann", K.TWIST)
    assert all("royal" not in e.detail for e in out.events if e.public)
    assert t.public_view().seats[0].hands[0].status is HandStatus.TWENTY_ONE
    assert t.private_view("ann")[0].status is HandStatus.ROYAL
