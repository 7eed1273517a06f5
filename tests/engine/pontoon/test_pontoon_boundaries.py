"""Boundaries and chip amounts that mutation testing found unguarded.

Each test pins one rule at the exact value where a shifted comparison, a swapped sign or
a dropped flag would change a player's chips or a refusal: written against the public
Table API only (actions in, transfers, events and views out).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pontoon_helpers import HOUSE, E, K, act, kinds, stack, table, total_chips

from engine.errors import RuleError
from engine.pontoon import HandStatus, Outcome, Phase, Table


def playing(
    ann: tuple[str, str],
    bob: tuple[str, str] = ("JC", "7C"),
    banker: tuple[str, str] = ("10H", "8H"),
    draws: Sequence[str] = (),
    balances: dict[str, int] | None = None,
    **rules: object,
) -> Table:
    t = table(stack([ann, bob], banker, draws), balances=balances, **rules)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    return t


def refusal(t: Table, seat: str, kind: K, amount: int | None = None) -> RuleError:
    """The RuleError an action raises; the table must be left exactly as it was."""
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount)
    assert t.to_json() == before
    return ei.value


def moved(out_transfers: Sequence[object], src: str, dst: str) -> int:
    return sum(
        tr.amount  # type: ignore[attr-defined]
        for tr in out_transfers
        if tr.src == src and tr.dst == dst  # type: ignore[attr-defined]
    )


# ------------------------------------------------------------------ bust at 22


@pytest.mark.rule("P-BUST-1")
def test_a_hand_of_exactly_22_is_bust_and_pays_at_once() -> None:
    t = playing(("10S", "6S"), draws=("6C",))  # 16 + 6 = 22
    out = act(t, "ann", K.TWIST)
    assert E.BUST in kinds(out)
    assert t.private_view("ann")[0].status is HandStatus.BUST
    assert moved(out.transfers, "@escrow", "cat") == 5
    assert t.balances["ann"] == 95
    assert t.turn == ("bob", 0)


@pytest.mark.rule("P-BANKER-3")
def test_a_banker_on_exactly_22_is_bust_and_pays_every_hand_still_in() -> None:
    t = playing(("10S", "9S"), bob=("JC", "5C"), banker=("10H", "6H"), draws=("6D",))
    act(t, "ann", K.STICK)  # 19
    act(t, "bob", K.STICK)  # 15
    out = act(t, "cat", K.TWIST)  # 16 + 6 = 22: bust, the round is settled at once
    assert E.BUST in kinds(out)
    assert t.phase is Phase.ROUND_OVER
    assert t.balances == {"ann": 105, "bob": 105, "cat": 90}


# ------------------------------------------------------------------ P-VAR-3


@pytest.mark.rule("P-VAR-3")
def test_P_VAR_3_a_player_who_busts_after_the_banker_doubled_pays_the_doubled_stake() -> None:
    t = playing(("10S", "6S"), draws=("KC",), banker_doubles=True)
    act(t, "cat", K.DOUBLE)
    out = act(t, "ann", K.TWIST)  # 26: bust
    assert E.BUST in kinds(out)
    assert moved(out.transfers, "@escrow", "cat") == 5
    assert moved(out.transfers, "ann", "cat") == 5  # the second stake from ann herself
    assert t.balances["ann"] == 90
    act(t, "bob", K.STICK)  # 17 loses to 18: doubled as well
    act(t, "cat", K.STICK)
    assert t.balances == {"ann": 90, "bob": 90, "cat": 120}
    assert total_chips(t) == 300


# ------------------------------------------------------------------ shoot bets


def shoot_table(
    ann: tuple[str, str],
    bob: tuple[str, str],
    draws: Sequence[str],
    shoots: tuple[int, int],
    kitty: int = 50,
) -> Table:
    t = table(stack([ann, bob], ("10H", "8H"), draws), shoot=True)
    act(t, "cat", K.KITTY, kitty)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, shoots[0])
    act(t, "bob", K.SHOOT, shoots[1])
    return t


@pytest.mark.rule("P-SHOOT-6")
@pytest.mark.rule("P-SHOOT-4")
def test_P_SHOOT_6_a_bust_shoot_bet_raises_what_later_players_may_shoot() -> None:
    # kitty 50, ann shoots 20 and bob 30: nothing left. ann busts: her 20 goes into the
    # kitty (70) and no longer counts against it, so 70 - 30 = 40 may be shot again.
    t = shoot_table(("10S", "6S"), ("2C", "3C"), ("KC", "2D", "3D"), shoots=(20, 30))
    act(t, "ann", K.TWIST)
    assert t.kitty == 70
    act(t, "bob", K.BUY, 5)  # third card: no shoot bet with it
    twist = {x.kind: x for x in t.legal_actions("bob")}[K.TWIST]
    assert twist.shoot_max == 40
    with pytest.raises(RuleError) as ei:
        act(t, "bob", K.TWIST, shoot=41)
    assert ei.value.rule == "P-SHOOT-2"
    act(t, "bob", K.TWIST, shoot=40)  # fourth card
    assert t.private_view("bob")[0].shoot == 70


@pytest.mark.rule("P-SHOOT-5")
def test_P_SHOOT_5_a_shoot_bet_with_a_later_split_goes_on_the_new_hand() -> None:
    # ann splits 8-8, then splits her second hand 8-8 again with a shoot bet of 5: the
    # bet belongs to the third hand (the new one), not to the first or the second.
    t = shoot_table(("8S", "8D"), ("JC", "7C"), ("9C", "8C", "10C", "9D"), shoots=(10, 0), kitty=50)
    act(t, "ann", K.SPLIT)  # 8S+9C, 8D+8C
    act(t, "ann", K.STICK)  # first hand on 17
    out = act(t, "ann", K.SPLIT, shoot=5)  # second hand: 8D+10C, 8C+9D
    assert [(e.hand, e.amount) for e in out.events if e.kind is E.SHOOT] == [(2, 5)]
    assert [h.shoot for h in t.private_view("ann")] == [10, 0, 5]


# ------------------------------------------------------------------ P-PAY-LIMIT


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_a_buy_counts_against_the_banker_cover_for_later_players() -> None:
    # The banker's 30 cover 15 of stakes. 5 + 5 bet, ann buys 5: 15, all of it.
    t = playing(
        ("9S", "4S"),
        bob=("5C", "4C"),
        draws=("2D",),
        balances={"ann": 100, "bob": 100, "cat": 30},
    )
    act(t, "ann", K.BUY, 5)  # 15
    act(t, "ann", K.STICK)
    assert K.BUY not in {x.kind for x in t.legal_actions("bob")}
    assert refusal(t, "bob", K.BUY, 5).rule == "P-PAY-LIMIT"


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_a_split_counts_against_the_banker_cover_for_later_players() -> None:
    t = playing(
        ("8S", "8D"),
        bob=("7C", "7D"),
        draws=("9C", "10C"),
        balances={"ann": 100, "bob": 100, "cat": 30},
    )
    act(t, "ann", K.SPLIT)  # exactly the 5 left of the banker's cover
    act(t, "ann", K.STICK)
    act(t, "ann", K.STICK)
    assert refusal(t, "bob", K.SPLIT).rule == "P-PAY-LIMIT"


@pytest.mark.rule("P-PAY-LIMIT")
@pytest.mark.parametrize(("banker_chips", "allowed"), [(30, True), (29, False)])
def test_P_PAY_LIMIT_a_split_is_allowed_when_the_cover_left_equals_the_stake(
    banker_chips: int, allowed: bool
) -> None:
    # 30 // 2 = 15 of cover, 10 staked: 5 left = the new stake. 29 leaves 4.
    t = playing(
        ("8S", "8D"), draws=("9C", "10C"), balances={"ann": 100, "bob": 100, "cat": banker_chips}
    )
    assert (K.SPLIT in {x.kind for x in t.legal_actions("ann")}) is allowed
    if allowed:
        act(t, "ann", K.SPLIT)
        assert [h.stake for h in t.private_view("ann")] == [5, 5]
    else:
        assert refusal(t, "ann", K.SPLIT).rule == "P-PAY-LIMIT"


# ------------------------------------------------------------------ the banker


@pytest.mark.rule("P-NEXT-2")
@pytest.mark.rule("P-VAR-7")
def test_P_NEXT_2_a_stronger_pontoon_against_a_banker_pontoon_does_not_take_the_bank() -> None:
    # ace + picture beats the banker's ace + ten (P-VAR-7 a) and is paid, but the banker
    # had a pontoon, so the bank stays.
    t = table(
        stack([("AS", "KS"), ("JC", "7C")], ("AH", "10H")), pontoon_strength="picture_beats_ten"
    )
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 5)
    assert E.BANKER_PONTOON in kinds(out)
    assert t.phase is Phase.ROUND_OVER
    assert t.balances["ann"] > 100
    assert t.next_banker == "cat"
    assert Table.from_json(t.to_json()).next_banker == "cat"
    act(t, "cat", K.NEXT_ROUND)
    assert t.banker == "cat"


@pytest.mark.rule("P-BANKER-2")
def test_P_BANKER_2_only_the_banker_acts_in_the_banker_turn() -> None:
    t = playing(("10S", "9S"), draws=("2D",))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    assert t.phase is Phase.BANKER
    for kind in (K.TWIST, K.STICK):
        err = refusal(t, "ann", kind)
        assert (err.rule, err.key) == ("P-BANKER-2", "engine.banker_turn")
    act(t, "cat", K.TWIST)
    assert t.phase is Phase.BANKER


@pytest.mark.parametrize(
    ("house", "draws"),
    [(("10H", "7H"), []), (("10H", "6H"), [("2C",)])],
)
def test_the_house_stands_on_its_stand_total_and_draws_below_it(
    house: tuple[str, str], draws: list[tuple[str, ...]]
) -> None:
    top = ["10S", house[0], "9S", house[1], "2C", "3C"]
    t = table(top, seats=("ann",), house_bank=True, house_stands_on=17)
    assert t.banker == HOUSE
    act(t, "ann", K.BET, 5)
    out = act(t, "ann", K.STICK)  # ann 19
    assert [e.cards for e in out.events if e.kind is E.BANKER_DRAW] == draws
    stays = next(e for e in out.events if e.kind is E.BANKER_STAYS)
    assert stays.total == (17 if not draws else 18)
    assert t.balances["ann"] == 105


# ------------------------------------------------------------------ variations


@pytest.mark.rule("P-VAR-8")
def test_P_VAR_8_three_cards_making_a_hard_13_cannot_be_burned() -> None:
    t = playing(("5S", "4S"), draws=("4C",), burn="13")
    act(t, "ann", K.BUY, 5)  # 5 + 4 + 4 = 13 in three cards
    assert K.BURN not in {x.kind for x in t.legal_actions("ann")}
    err = refusal(t, "ann", K.BURN)
    assert (err.rule, err.key) == ("P-VAR-8", "engine.burn_hard")


@pytest.mark.rule("P-VAR-8")
def test_P_VAR_8_two_cards_with_an_ace_are_not_hard() -> None:
    err = refusal(playing(("AS", "2S"), burn="13"), "ann", K.BURN)
    assert (err.rule, err.key) == ("P-VAR-8", "engine.burn_hard")
    err = refusal(playing(("9S", "3S"), burn="13"), "ann", K.BURN)
    assert (err.rule, err.key) == ("P-VAR-8", "engine.burn_total")


@pytest.mark.rule("P-VAR-5")
@pytest.mark.parametrize(("fourth", "may_buy"), [("4D", False), ("5D", True)])
def test_P_VAR_5_four_cards_of_exactly_11_may_only_twist(fourth: str, may_buy: bool) -> None:
    # 2 + 3 + 2 + 4 = 11: no buy; 2 + 3 + 2 + 5 = 12: a buy is allowed.
    t = playing(("2S", "3S"), draws=("2C", fourth, "6D"), no_buy_five_on_eleven=True)
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 5)
    assert (K.BUY in {x.kind for x in t.legal_actions("ann")}) is may_buy
    if may_buy:
        act(t, "ann", K.BUY, 5)
    else:
        assert refusal(t, "ann", K.BUY, 5).rule == "P-VAR-5"
        act(t, "ann", K.TWIST)
    assert t.private_view("ann")[0].status is HandStatus.FIVE_CARD_TRICK


# ------------------------------------------------------------------ refusals name the rule


@pytest.mark.rule("P-TURN-END")
def test_P_TURN_END_an_action_out_of_turn_names_whose_turn_and_which_hand() -> None:
    t = playing(("10S", "7S"))
    err = refusal(t, "bob", K.STICK)
    assert (err.rule, err.key, err.params) == (
        "P-TURN-END",
        "engine.turn_of",
        {"seat": "ann", "hand": 1},
    )
    assert "hand 1" in err.message


@pytest.mark.rule("P-TURN-END")
def test_P_TURN_END_the_turn_is_announced_once_when_it_moves() -> None:
    t = playing(("2S", "3S"), draws=("2C", "10C"))
    out = act(t, "ann", K.BUY, 5)  # 7: still ann's turn, nothing to announce
    assert E.TURN not in kinds(out)
    out = act(t, "ann", K.TWIST)  # 17
    assert E.TURN not in kinds(out)
    out = act(t, "ann", K.STICK)
    turns = [(e.seat, e.hand) for e in out.events if e.kind is E.TURN]
    assert turns == [("bob", 0)]


@pytest.mark.rule("P-BUY-2")
@pytest.mark.rule("P-BUY-3")
@pytest.mark.rule("P-PAY-LIMIT")
def test_a_refused_buy_names_the_limit_that_applies() -> None:
    # ann holds 30: after her 5 stake she can cover a buy of (25 - 5) // 2 = 10, exactly
    # twice the stake, so a buy of 11 breaks P-BUY-2, not the cover.
    t = playing(("2S", "3S"), draws=("2C", "3C"), balances={"ann": 30, "bob": 100, "cat": 100})
    err = refusal(t, "ann", K.BUY, 11)
    assert (err.rule, err.key, err.params) == ("P-BUY-2", "engine.buy_first_max", {"high": 10})
    err = refusal(t, "ann", K.BUY, 4)
    assert (err.rule, err.key) == ("P-BUY-2", "engine.buy_min")
    t = playing(("2S", "3S"), draws=("2C", "3C"), balances={"ann": 29, "bob": 100, "cat": 100})
    err = refusal(t, "ann", K.BUY, 10)  # (24 - 5) // 2 = 9: now the cover is the limit
    assert (err.rule, err.key, err.params) == (
        "P-PAY-LIMIT",
        "engine.buy_cover",
        {"amount": 10, "high": 9},
    )
    t = playing(("2S", "3S"), draws=("2C", "3C"))
    act(t, "ann", K.BUY, 6)
    err = refusal(t, "ann", K.BUY, 7)
    assert (err.rule, err.key, err.params) == ("P-BUY-3", "engine.buy_later_max", {"high": 6})
    err = refusal(t, "ann", K.BUY, 4)
    assert (err.rule, err.key) == ("P-BUY-3", "engine.buy_min")


@pytest.mark.rule("P-SPLIT-2")
def test_P_SPLIT_2_four_hands_at_most() -> None:
    t = playing(
        ("8S", "8D"),
        draws=("8C", "9C", "8H", "10D", "8S", "9D", "10H"),
        packs=2,
    )
    act(t, "ann", K.SPLIT)  # 8S+8C, 8D+9C
    act(t, "ann", K.SPLIT)  # 8S+8H, 8C+10D
    act(t, "ann", K.SPLIT)  # 8S+8S, 8H+9D: four hands
    assert len(t.private_view("ann")) == 4
    assert K.SPLIT not in {x.kind for x in t.legal_actions("ann")}
    err = refusal(t, "ann", K.SPLIT)
    assert (err.rule, err.key) == ("P-SPLIT-2", "engine.split_four")


@pytest.mark.rule("P-NEXT-1")
@pytest.mark.rule("P-NEXT-2")
def test_P_NEXT_a_declared_pontoon_passes_the_bank_and_calls_for_a_shuffle() -> None:
    t = playing(("AS", "KS"))
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert t.phase is Phase.ROUND_OVER
    assert t.next_banker == "ann"
    assert t.needs_shuffle


@pytest.mark.rule("P-SHOOT-3")
@pytest.mark.rule("P-SHOOT-2")
def test_P_SHOOT_3_after_a_banker_pontoon_the_whole_kitty_may_be_shot_again() -> None:
    # ace + king beats the banker's ace + ten (P-VAR-7 a): ann's shoot bet of 10 is paid
    # from the kitty, bob's 5 goes into it. Every shoot bet is settled, so in the next
    # round the whole kitty (50 - 10 + 5 = 45) is open to shoot bets again.
    t = table(
        stack([("AS", "KS"), ("JC", "7C")], ("AH", "10H")),
        shoot=True,
        pontoon_strength="picture_beats_ten",
    )
    act(t, "cat", K.KITTY, 50)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 10)
    out = act(t, "bob", K.SHOOT, 5)
    assert E.BANKER_PONTOON in kinds(out)
    assert t.phase is Phase.ROUND_OVER and t.kitty == 45
    act(t, "cat", K.NEXT_ROUND)
    act(t, "cat", K.DEAL)
    act(t, "cat", K.KITTY, 0)
    act(t, "ann", K.BET, 1)
    act(t, "bob", K.BET, 1)
    assert t.phase is Phase.SHOOTING
    shoot = {x.kind: x for x in t.legal_actions("ann")}[K.SHOOT]
    assert shoot.max_amount == 45
    act(t, "ann", K.SHOOT, 45)


@pytest.mark.rule("P-BUST-1")
@pytest.mark.rule("P-FIVE-1")
@pytest.mark.rule("P-RANK-1")
@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (("10S", "6S", "6C"), "bust"),  # exactly 22
        (("10S", "5S", "6C"), "21"),
        (("2S", "3S", "4S", "5S", "8S"), "bust"),  # five cards of 22: bust, not a trick
        (("2S", "3S", "4S", "5S", "7S"), "five card trick"),  # five cards of 21
        (("AS", "2S", "3S", "4S", "KS"), "five card trick"),  # 20, the ace as 1
        (("7S", "7H", "7D"), "21"),  # three sevens without P-VAR-6
        (("AS", "KH"), "pontoon"),  # exactly the pontoon score
    ],
)
def test_hand_scores_at_the_bust_and_five_card_boundaries(
    codes: tuple[str, ...], expected: str
) -> None:
    from engine.cards import parse_card
    from engine.pontoon.hands import describe, score

    assert describe(score([parse_card(c) for c in codes])) == expected


# ------------------------------------------------------------------ the last cards of one pack

PLAYERS = [f"p{i}" for i in range(24)]


def crowded(
    first: tuple[str, str],
    draws: Sequence[str] = (),
    second: tuple[str, str] | None = None,
    **rules: object,
) -> Table:
    """One pack, 24 players and a banker: 50 cards dealt, two left (``draws``). p0 holds
    ``first`` and plays first, p1 ``second`` (else cards in the pack's order)."""
    from engine.cards import full_pack

    banker = ("10H", "8H")
    p1 = list(second or ())
    chosen = [*first, *p1, *banker, *draws]
    rest = [c.code for c in full_pack(1) if c.code not in chosen]
    n = 23 - len(p1) // 2
    firsts = [first[0], *p1[:1], *rest[:n], banker[0]]
    seconds = [first[1], *p1[1:], *rest[n : 2 * n], banker[1]]
    top = [*firsts, *seconds, *draws]
    t = table(top, seats=(*PLAYERS, "bank"), banker="bank", packs=1, **rules)
    for p in PLAYERS:
        act(t, p, K.BET, 1)
    assert t.turn == ("p0", 0)
    return t


@pytest.mark.rule("P-STICK-1")
@pytest.mark.rule("P-TABLE-1")
def test_the_last_cards_a_twist_each_then_a_low_stick_is_allowed() -> None:
    t = crowded(("2S", "3S"), draws=("4C", "5C"))
    assert len(t.pack) == 2
    act(t, "p0", K.TWIST)  # 9, one card left
    err = refusal(t, "p0", K.STICK)  # below 15 while a card is left: no
    assert err.rule == "P-STICK-1"
    act(t, "p0", K.TWIST)  # the last card: 14
    assert len(t.pack) == 0
    err = refusal(t, "p0", K.TWIST)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.pack_empty")
    assert {x.kind for x in t.legal_actions("p0")} == {K.STICK}
    act(t, "p0", K.STICK)  # 14 may stick on an empty pack
    assert t.turn == ("p1", 0)


@pytest.mark.rule("P-SPLIT-1")
def test_a_split_with_exactly_two_cards_left_is_allowed() -> None:
    t = crowded(("8S", "8D"), draws=("2C", "5C"))
    assert K.SPLIT in {x.kind for x in t.legal_actions("p0")}
    act(t, "p0", K.SPLIT)
    assert [h.cards for h in t.private_view("p0")] == [("8S", "2C"), ("8D", "5C")]
    assert len(t.pack) == 0


@pytest.mark.rule("P-SPLIT-1")
def test_a_split_with_one_card_left_is_refused() -> None:
    t = crowded(("10S", "5S"), draws=("2C", "5C"), second=("8S", "8D"))
    act(t, "p0", K.TWIST)  # 17, one card left
    act(t, "p0", K.STICK)
    assert K.SPLIT not in {x.kind for x in t.legal_actions("p1")}
    err = refusal(t, "p1", K.SPLIT)
    assert (err.rule, err.key) == ("P-SPLIT-1", "engine.pack_few")


@pytest.mark.rule("P-VAR-8")
def test_P_VAR_8_a_burn_needs_two_cards_in_the_pack() -> None:
    t = crowded(("9S", "4S"), draws=("10C", "7C"), burn="13")
    assert K.BURN in {x.kind for x in t.legal_actions("p0")}
    act(t, "p0", K.BURN)
    assert t.private_view("p0")[0].cards == ("10C", "7C")


@pytest.mark.rule("P-TURN-DECLARE")
def test_a_declared_pontoon_is_shown_as_21() -> None:
    t = playing(("AS", "KS"))
    out = act(t, "ann", K.DECLARE)
    declared = next(e for e in out.events if e.kind is E.DECLARED)
    assert (declared.seat, declared.hand, declared.cards, declared.total) == (
        "ann",
        0,
        ("AS", "KS"),
        21,
    )


@pytest.mark.rule("P-VAR-7")
@pytest.mark.rule("P-SPLIT-1")
def test_a_split_hand_dealt_a_plain_21_stands_at_once() -> None:
    # P-VAR-7 (b): ace + ten is no pontoon but an ordinary 21, which ends the hand's turn
    # as soon as the split deals it; a pontoon would wait for its declaration.
    t = playing(("10S", "10D"), draws=("AC", "5C"), pontoon_strength="ace_ten_not_pontoon")
    out = act(t, "ann", K.SPLIT)  # 10S + AC = 21, 10D + 5C = 15
    assert [(e.seat, e.hand) for e in out.events if e.kind is E.TWENTY_ONE] == [("ann", 0)]
    assert t.private_view("ann")[0].status is HandStatus.TWENTY_ONE
    assert t.turn == ("ann", 1)
    t = playing(("KS", "KD"), draws=("AC", "5C"))
    out = act(t, "ann", K.SPLIT)  # K + A after a split: a pontoon (P-SPLIT-3), declared
    assert E.TWENTY_ONE not in kinds(out)
    assert {x.kind for x in t.legal_actions("ann")} == {K.DECLARE}


# ------------------------------------------------------------ the banker's turn on the last card


def restored_with_pack(t: Table, pack: Sequence[str]) -> Table:
    """``t`` saved and restored with only ``pack`` left in it (a pack nearly used up)."""
    d = t.to_json()
    d["pack"] = list(pack)
    return Table.from_json(d)


@pytest.mark.rule("P-BANKER-2")
@pytest.mark.rule("P-TABLE-1")
def test_the_banker_may_twist_the_last_card_of_the_pack_and_no_more() -> None:
    t = playing(("10S", "9S"), banker=("5H", "7H"))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    t = restored_with_pack(t, ["2D"])
    assert {x.kind for x in t.legal_actions("cat")} == {K.TWIST, K.STICK}
    out = act(t, "cat", K.TWIST)  # the only card left: 14
    draws = [(e.cards, e.total) for e in out.events if e.kind is E.BANKER_DRAW]
    assert draws == [(("2D",), 14)]
    assert len(t.pack) == 0
    err = refusal(t, "cat", K.TWIST)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.pack_empty")
    assert {x.kind for x in t.legal_actions("cat")} == {K.STICK}


@pytest.mark.rule("P-BANKER-1")
@pytest.mark.rule("P-TABLE-1")
def test_the_house_draws_the_last_card_of_the_pack_then_stays() -> None:
    t = table(
        stack([("10S", "9S"), ("JC", "7C")], ("5H", "7H")), seats=("ann", "bob"), house_bank=True
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    t = restored_with_pack(t, ["3D"])
    out = act(t, "bob", K.STICK)  # the house's 12 draws the only card left, 15, and stays
    house = [(e.kind, e.cards, e.total) for e in out.events if e.seat == HOUSE]
    assert house == [
        (E.BANKER_REVEAL, ("5H", "7H"), 12),
        (E.BANKER_DRAW, ("3D",), 15),
        (E.BANKER_STAYS, (), 15),
    ]


# ------------------------------------------------------------ 21s against the banker's 21


def results(out: Outcome) -> dict[str | None, tuple[int | None, str]]:
    return {e.seat: (e.amount, e.detail) for e in out.events if e.kind is E.HAND_RESULT}


@pytest.mark.rule("P-RANK-1")
@pytest.mark.rule("P-RANK-3")
@pytest.mark.rule("P-RANK-6")
def test_a_pontoon_beats_the_bankers_three_card_21_and_a_17_loses() -> None:
    t = playing(("AS", "KS"), banker=("5H", "6H"), draws=["10D"])
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)  # the banker's 5, 6, 10: 21 in three cards
    assert results(out) == {
        "ann": (10, "win: pontoon beats banker's 21"),
        "bob": (-5, "lose: 17 loses to banker's 21"),
    }
    assert t.balances == {"ann": 110, "bob": 95, "cat": 95}


@pytest.mark.rule("P-VAR-6")
@pytest.mark.rule("P-RANK-6")
def test_with_royal_pontoon_three_sevens_beat_the_bankers_21_but_other_21s_tie() -> None:
    t = playing(
        ("7S", "7H"), ("5C", "6C"), ("5H", "6H"), draws=["7D", "KC", "10D"], royal_pontoon=True
    )
    act(t, "ann", K.TWIST)  # three sevens
    act(t, "bob", K.TWIST)  # 5, 6, K: an ordinary 21 in three cards
    out = act(t, "cat", K.TWIST)  # the banker's 21 in three cards
    assert results(out) == {
        "ann": (15, "win: royal pontoon beats banker's 21"),
        "bob": (-5, "lose: 21 loses to banker's 21"),
    }


# ------------------------------------------------------------------ joining and leaving


@pytest.mark.rule("P-TABLE-1")
def test_a_seat_joins_with_the_chips_it_brings_never_a_negative_balance() -> None:
    t = table(deal=False)
    err = refusal(t, "dan", K.JOIN, -5)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.negative_balance")
    assert "dan" not in t.seats
    act(t, "dan", K.JOIN)  # no amount: a seat with no chips
    assert t.balances["dan"] == 0
    act(t, "eve", K.JOIN, 0)
    assert t.balances["eve"] == 0


@pytest.mark.rule("P-TABLE-1")
def test_a_full_one_pack_table_refuses_with_the_cards_reason() -> None:
    seats = [f"p{i}" for i in range(26)]
    t = table(seats=seats, banker="p0", packs=1, deal=False)
    err = refusal(t, "late", K.JOIN, 10)
    assert (err.rule, err.key) == ("P-TABLE-1", "engine.table_full")
    assert err.params["limit"] == 26


@pytest.mark.rule("P-SELL-1")
def test_the_banker_leaves_only_last_and_others_leave_the_bank_in_place() -> None:
    t = table(deal=False)
    act(t, "ann", K.LEAVE)
    assert (t.banker, t.seats) == ("cat", ["bob", "cat"])
    err = refusal(t, "cat", K.LEAVE)
    assert (err.rule, err.key) == ("P-SELL-1", "engine.banker_cannot_leave")
    act(t, "bob", K.LEAVE)
    act(t, "cat", K.LEAVE)  # the banker alone may go
    assert (t.banker, t.seats) == (None, [])


# ------------------------------------------------------------------ the deal's events


@pytest.mark.rule("P-DEAL-1")
@pytest.mark.rule("P-DEAL-3")
@pytest.mark.rule("P-VAR-7")
def test_the_deal_counts_rounds_and_names_hand_0_and_a_dealt_21() -> None:
    t = table(
        stack([("AS", "10S"), ("JC", "7C")], ("10H", "8H")),
        deal=False,
        pontoon_strength="ace_ten_not_pontoon",  # ace and ten: a 21, not a pontoon
    )
    assert t.round_no == 0
    first = act(t, "cat", K.DEAL)
    assert t.round_no == 1
    bets = [act(t, "ann", K.BET, 5), act(t, "bob", K.BET, 5)]
    events = [e for out in (first, *bets) for e in out.events]
    assert [(e.kind, e.seat, e.hand) for e in events] == [
        (E.CARD_DEALT, "ann", 0),
        (E.CARD_DEALT, "bob", 0),
        (E.CARD_DEALT, "cat", 0),
        (E.BET, "ann", 0),
        (E.BET, "bob", 0),
        (E.CARD_DEALT, "ann", 0),
        (E.CARD_DEALT, "bob", 0),
        (E.CARD_DEALT, "cat", 0),
        (E.TWENTY_ONE, "ann", 0),  # ann's 21 ends her turn at once; bob's 17 plays
        (E.TURN, "bob", 0),
    ]
    assert (t.phase, t.turn) == (Phase.PLAYING, ("bob", 0))
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert (t.phase, t.round_no) == (Phase.ROUND_OVER, 1)
    act(t, "cat", K.NEXT_ROUND)
    assert (t.phase, t.round_no) == (Phase.WAITING, 1)
    act(t, "cat", K.DEAL)
    assert (t.phase, t.round_no) == (Phase.BETTING, 2)


@pytest.mark.rule("P-TABLE-2")
@pytest.mark.parametrize("amount", [0, 11])
def test_a_bet_outside_the_table_limits_is_refused(amount: int) -> None:
    t = table()  # min_bet 1, max_bet 10
    err = refusal(t, "ann", K.BET, amount)
    assert (err.rule, err.key, err.params) == (
        "P-TABLE-2",
        "engine.bet_range",
        {"low": 1, "high": 10},
    )
    assert t.balances["ann"] == 100
