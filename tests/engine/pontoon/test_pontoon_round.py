"""The round: table, cut, deal, bets and a player's turn (sections 1, 3, 4, 5, 6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from pontoon_helpers import CH, ESCROW, E, K, act, kinds, stack, table, total_chips

from engine.cards import Card, RandomChance, full_pack
from engine.errors import RuleError
from engine.pontoon import Action, HandStatus, Phase, PontoonRules, Table

SEATS = ("ann", "bob", "cat")


def raises(rule: str, t: Table, seat: str, kind: K, amount: int | None = None) -> RuleError:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount)
    assert ei.value.rule == rule, ei.value
    assert t.to_json() == before  # state untouched
    return ei.value


# ---------------------------------------------------------------- section 1


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_one_pack_then_two_with_eight_people() -> None:
    t = Table(PontoonRules(), SEATS, {s: 100 for s in SEATS}, banker="cat")
    act(t, "cat", K.DEAL)
    in_hands = sum(len(h.cards) for hs in t.hands.values() for h in hs) + 1
    assert len(t.pack) + in_hands == 52
    eight = [f"p{i}" for i in range(8)]
    t8 = Table(PontoonRules(), eight, {s: 100 for s in eight}, banker="p0")
    act(t8, "p0", K.DEAL)
    assert len(t8.pack) + 8 == 104
    t2 = Table(PontoonRules(packs=2), SEATS, {s: 100 for s in SEATS}, banker="cat")
    act(t2, "cat", K.DEAL)
    assert len(t2.pack) + 3 == 104


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_two_people_needed_and_pack_deals_from_top() -> None:
    t = Table(PontoonRules(), ["ann"], {"ann": 100}, banker="ann")
    raises("P-TABLE-1", t, "ann", K.DEAL)
    t = table(stack([("5S", "6S"), ("7S", "8S")], ("9S", "2H")))
    assert [h.cards[0].code for h in (t.hands["ann"][0], t.hands["bob"][0])] == ["5S", "7S"]


@pytest.mark.rule("P-TABLE-2")
def test_P_TABLE_2_initial_bet_between_min_and_max() -> None:
    t = table(min_bet=2, max_bet=8)
    raises("P-TABLE-2", t, "ann", K.BET, 1)
    raises("P-TABLE-2", t, "ann", K.BET, 9)
    act(t, "ann", K.BET, 2)
    act(t, "bob", K.BET, 8)
    assert t.escrow == 10


# ---------------------------------------------------------------- section 3


class Cuts:
    """A chance whose cuts pick the given positions of the remaining pack."""

    def __init__(self, picks: Sequence[int]) -> None:
        self.picks = list(picks)

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        return list(cards)

    def randbelow(self, n: int) -> int:
        return self.picks.pop(0)


@pytest.mark.rule("P-BANK-1")
def test_P_BANK_1_highest_cut_takes_the_bank_ace_high() -> None:
    t = Table(PontoonRules(), SEATS, {s: 100 for s in SEATS}, pack=full_pack())
    # new-pack order AS 2S ... KS AH ...: ann cuts 2S (1), bob AS (0), cat 2nd card = 3S
    out = t.apply(Action("ann", K.CUT), Cuts([1, 0, 0]))
    cut = [(e.seat, e.cards[0]) for e in out.events if e.kind is E.CUT_CARD]
    assert cut == [("ann", "2S"), ("bob", "AS"), ("cat", "3S")]
    assert t.banker == "bob"
    assert out.events[-1].kind is E.BANKER_CHOSEN and out.events[-1].public


@pytest.mark.rule("P-BANK-1")
def test_P_BANK_1_ties_cut_again() -> None:
    t = Table(PontoonRules(), SEATS, {s: 100 for s in SEATS}, pack=full_pack())
    # ann AS, bob AH (index 12 once AS is gone), cat 2S; ann and bob cut again: 3S, 4S
    out = t.apply(Action("ann", K.CUT), Cuts([0, 12, 0, 0, 0]))
    cut = [(e.seat, e.cards[0]) for e in out.events if e.kind is E.CUT_CARD]
    assert cut == [("ann", "AS"), ("bob", "AH"), ("cat", "2S"), ("ann", "3S"), ("bob", "4S")]
    assert t.banker == "bob"
    with pytest.raises(RuleError) as ei:
        t.apply(Action("ann", K.CUT), CH)
    assert ei.value.rule == "P-BANK-1"


@pytest.mark.rule("P-BANK-1")
def test_P_BANK_1_random_cut_picks_a_seated_banker() -> None:
    for seed in range(20):
        t = Table(PontoonRules(), SEATS, {s: 100 for s in SEATS})
        t.apply(Action("cat", K.CUT), RandomChance(random.Random(seed)))
        assert t.banker in SEATS


# ---------------------------------------------------------------- section 4


@pytest.mark.rule("P-DEAL-1")
def test_P_DEAL_1_one_face_down_card_each_banker_last_and_blind() -> None:
    t = table(deal=False, top=stack([("5S", "6S"), ("7S", "8S")], ("9S", "2H")))
    out = act(t, "cat", K.DEAL)
    dealt = [e for e in out.events if e.kind is E.CARD_DEALT]
    assert [(e.seat, e.to, e.cards) for e in dealt] == [
        ("ann", "ann", ("5S",)),
        ("bob", "bob", ("7S",)),
        ("cat", "cat", ()),  # the banker may not look at the first card
    ]
    assert t.phase is Phase.BETTING
    (bv,) = t.private_view("cat")
    assert bv.cards == () and bv.hidden == 1
    assert t.private_view("ann")[0].cards == ("5S",)
    pub = t.public_view()
    assert all(h.cards == () for s in pub.seats for h in s.hands)


@pytest.mark.rule("P-DEAL-2")
def test_P_DEAL_2_bets_in_any_order_and_sit_out() -> None:
    t = table(seats=("ann", "bob", "dan", "cat"))
    act(t, "dan", K.BET, 3)
    act(t, "ann", K.BET, 2)
    assert t.to_act() == ["bob"]
    raises("P-DEAL-2", t, "ann", K.BET, 2)  # only one initial bet
    raises("P-DEAL-2", t, "cat", K.BET, 2)  # the banker does not bet
    act(t, "bob", K.SIT_OUT)
    assert t.phase is Phase.PLAYING
    assert t.active == ["ann", "dan"]
    assert t.public_view().seats[1].sitting_out


@pytest.mark.rule("P-DEAL-3")
def test_P_DEAL_3_second_card_to_everyone_and_all_look() -> None:
    t = table(stack([("5S", "6S"), ("7S", "8S")], ("9S", "2H")))
    act(t, "ann", K.BET, 2)
    out = act(t, "bob", K.BET, 2)
    dealt = [e for e in out.events if e.kind is E.CARD_DEALT]
    assert [(e.seat, e.to) for e in dealt] == [("ann", "ann"), ("bob", "bob"), ("cat", "cat")]
    assert t.private_view("ann")[0].cards == ("5S", "6S")
    assert t.private_view("cat")[0].cards == ("9S", "2H")
    assert all(e.to is not None or not e.cards for e in dealt)


@pytest.mark.rule("P-DEAL-4")
def test_P_DEAL_4_banker_pontoon_collects_double_from_everyone() -> None:
    t = table(stack([("AS", "KS"), ("7S", "8S")], ("AH", "QH")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 3)
    assert E.BANKER_PONTOON in kinds(out)
    assert t.phase is Phase.ROUND_OVER
    assert t.balances == {"ann": 90, "bob": 94, "cat": 116}
    assert t.escrow == 0
    assert t.needs_shuffle  # P-NEXT-1: a pontoon was seen
    assert t.next_banker == "cat"


# ---------------------------------------------------------------- section 5


def playing(
    ann: tuple[str, str] = ("9S", "6S"),
    bob: tuple[str, str] = ("JC", "7C"),
    banker: tuple[str, str] = ("10H", "7H"),
    draws: Sequence[str] = (),
    bets: tuple[int, int] = (5, 5),
    **rules: object,
) -> Table:
    t = table(stack([ann, bob], banker, draws), **rules)
    act(t, "ann", K.BET, bets[0])
    act(t, "bob", K.BET, bets[1])
    assert t.phase is Phase.PLAYING
    return t


@pytest.mark.rule("P-TURN-DECLARE")
def test_P_TURN_DECLARE_pontoon_must_be_declared_and_is_shown() -> None:
    t = playing(ann=("AS", "KS"))
    assert [la.kind for la in t.legal_actions("ann")] == [K.DECLARE]
    raises("P-TURN-DECLARE", t, "ann", K.TWIST)
    raises("P-TURN-DECLARE", t, "ann", K.STICK)
    out = act(t, "ann", K.DECLARE)
    ev = out.events[0]
    assert ev.kind is E.DECLARED and ev.public and set(ev.cards) == {"AS", "KS"}
    assert t.turn == ("bob", 0)
    assert t.public_view().seats[0].hands[0].status is HandStatus.PONTOON


@pytest.mark.rule("P-TURN-DECLARE")
def test_P_TURN_DECLARE_refused_without_pontoon() -> None:
    t = playing()
    raises("P-TURN-DECLARE", t, "ann", K.DECLARE)


@pytest.mark.rule("P-SPLIT-1")
def test_P_SPLIT_1_same_rank_splits_with_equal_stake() -> None:
    t = playing(ann=("8S", "8H"), draws=("3C", "9C"))
    out = act(t, "ann", K.SPLIT)
    sp = next(e for e in out.events if e.kind is E.SPLIT)
    assert sp.public and sp.cards == ("8S", "8H") and sp.amount == 5
    deals = [e for e in out.events if e.kind is E.CARD_DEALT]
    assert [(e.hand, e.cards, e.to) for e in deals] == [(0, ("3C",), "ann"), (1, ("9C",), "ann")]
    assert t.balances["ann"] == 90 and t.escrow == 15
    views = t.private_view("ann")
    assert [v.cards for v in views] == [("8S", "3C"), ("8H", "9C")]
    assert [v.stake for v in views] == [5, 5]
    pub = t.public_view().seats[0].hands
    assert [(h.cards, h.hidden) for h in pub] == [(("8S",), 1), (("8H",), 1)]


@pytest.mark.rule("P-SPLIT-1")
def test_P_SPLIT_1_queen_and_jack_do_not_split() -> None:
    t = playing(ann=("QS", "JH"))
    raises("P-SPLIT-1", t, "ann", K.SPLIT)
    assert K.SPLIT not in {la.kind for la in t.legal_actions("ann")}


@pytest.mark.rule("P-SPLIT-2")
def test_P_SPLIT_2_split_again_up_to_four_hands() -> None:
    t = playing(
        ann=("8S", "8H"),
        draws=("8D", "2C", "8C", "3C", "4D", "5D", "2D", "3D"),
    )
    act(t, "ann", K.SPLIT)  # hands: 8S+8D, 8H+2C
    act(t, "ann", K.SPLIT)  # 8S+8C, 8D+3C, 8H+2C
    act(t, "ann", K.SPLIT)  # 8S+4D, 8C+5D, 8D+3C, 8H+2C
    assert len(t.hands["ann"]) == 4
    assert [v.cards for v in t.private_view("ann")][:2] == [("8S", "4D"), ("8C", "5D")]
    assert t.escrow == 25
    t2 = playing(ann=("8S", "8H"), draws=("8D", "8C", "8H", "3C", "8C", "5D"), packs=2)
    act(t2, "ann", K.SPLIT)
    act(t2, "ann", K.SPLIT)
    act(t2, "ann", K.SPLIT)
    assert len(t2.hands["ann"]) == 4
    assert t2.current_hand().cards[0].rank is t2.current_hand().cards[1].rank
    raises("P-SPLIT-2", t2, "ann", K.SPLIT)


@pytest.mark.rule("P-SPLIT-3")
def test_P_SPLIT_3_split_pontoon_pays_as_pontoon_but_keeps_the_bank() -> None:
    t = playing(ann=("AS", "AH"), draws=("KC", "QD"))
    act(t, "ann", K.SPLIT)
    assert [la.kind for la in t.legal_actions("ann")] == [K.DECLARE]
    act(t, "ann", K.DECLARE)
    act(t, "ann", K.DECLARE)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)  # banker 17
    assert t.balances["ann"] == 100 - 10 + 10 + 20  # two stakes back plus 2x each
    assert t.next_banker == "cat"
    assert t.needs_shuffle


@pytest.mark.rule("P-BUY-1")
def test_P_BUY_1_buy_adds_stake_and_card_is_private() -> None:
    t = playing(ann=("5S", "4S"), draws=("2C",))
    out = act(t, "ann", K.BUY, 5)
    bought = next(e for e in out.events if e.kind is E.BOUGHT)
    assert bought.public and bought.cards == () and bought.amount == 5
    priv = [e for e in out.events if e.kind is E.CARD_DEALT]
    assert priv[0].to == "ann" and priv[0].cards == ("2C",)
    assert t.private_view("ann")[0].stake == 10
    assert t.balances["ann"] == 90


@pytest.mark.rule("P-BUY-1")
def test_P_BUY_1_no_buy_on_21_or_pontoon() -> None:
    t = playing(ann=("5S", "4S"), draws=("3C", "9C"))
    act(t, "ann", K.BUY, 5)
    out = act(t, "ann", K.BUY, 5)  # 21 in four cards stands at once
    assert E.TWENTY_ONE in kinds(out)
    assert t.turn == ("bob", 0)


@pytest.mark.rule("P-BUY-2")
def test_P_BUY_2_first_buy_between_stake_and_twice_stake() -> None:
    t = playing(ann=("5S", "4S"), draws=("2C",), bets=(6, 5))
    la = {la.kind: la for la in t.legal_actions("ann")}[K.BUY]
    assert (la.min_amount, la.max_amount) == (6, 12)
    raises("P-BUY-2", t, "ann", K.BUY, 5)
    raises("P-BUY-2", t, "ann", K.BUY, 13)
    act(t, "ann", K.BUY, 12)
    assert t.private_view("ann")[0].stake == 18


@pytest.mark.rule("P-BUY-3")
def test_P_BUY_3_later_buys_capped_by_previous_buy() -> None:
    t = playing(ann=("2S", "3S"), draws=("2C", "3C", "2D"), bets=(6, 5), balance=200)
    act(t, "ann", K.BUY, 10)
    la = {la.kind: la for la in t.legal_actions("ann")}[K.BUY]
    assert (la.min_amount, la.max_amount) == (6, 10)
    raises("P-BUY-3", t, "ann", K.BUY, 11)
    raises("P-BUY-3", t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 7)
    raises("P-BUY-3", t, "ann", K.BUY, 8)  # the fifth card's cap is the fourth's price
    act(t, "ann", K.BUY, 7)
    assert t.private_view("ann")[0].stake == 30


@pytest.mark.rule("P-TWIST-1")
def test_P_TWIST_1_twist_is_public_and_stake_stays() -> None:
    t = playing(ann=("5S", "4S"), draws=("2C",))
    out = act(t, "ann", K.TWIST)
    tw = out.events[0]
    assert tw.kind is E.TWISTED and tw.public and tw.cards == ("2C",)
    assert t.private_view("ann")[0].stake == 5
    assert t.public_view().seats[0].hands[0].cards == ("2C",)


@pytest.mark.rule("P-TWIST-2")
def test_P_TWIST_2_no_buy_after_twist_but_twist_after_buy() -> None:
    t = playing(ann=("2S", "3S"), draws=("2C", "3C", "2D"))
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.TWIST)
    raises("P-TWIST-2", t, "ann", K.BUY, 5)
    assert K.BUY not in {la.kind for la in t.legal_actions("ann")}
    act(t, "ann", K.TWIST)


@pytest.mark.rule("P-STICK-1")
def test_P_STICK_1_stick_needs_15() -> None:
    t = playing(ann=("9S", "5S"), bob=("9D", "6D"))
    raises("P-STICK-1", t, "ann", K.STICK)
    assert K.STICK not in {la.kind for la in t.legal_actions("ann")}
    t2 = playing(ann=("9S", "6S"))
    out = act(t2, "ann", K.STICK)
    assert out.events[0].kind is E.STUCK and out.events[0].cards == ()
    assert t2.turn == ("bob", 0)


@pytest.mark.rule("P-STICK-1")
def test_P_STICK_1_soft_total_counts_best() -> None:
    t = playing(ann=("AS", "4S"))  # 15 with the ace as 11
    act(t, "ann", K.STICK)
    assert t.turn == ("bob", 0)


@pytest.mark.rule("P-STICK-1")
def test_P_STICK_1_21_in_three_cards_stands_at_once() -> None:
    t = playing(ann=("9S", "5S"), draws=("7D",))
    out = act(t, "ann", K.TWIST)
    assert E.TWENTY_ONE in kinds(out)
    assert t.turn == ("bob", 0)
    assert t.private_view("ann")[0].status is HandStatus.TWENTY_ONE


@pytest.mark.rule("P-BUST-1")
def test_P_BUST_1_bust_shown_paid_and_cards_to_bottom_at_once() -> None:
    t = playing(ann=("9S", "5S"), draws=("KC",))
    out = act(t, "ann", K.BUY, 5)
    bust = next(e for e in out.events if e.kind is E.BUST)
    assert bust.public and set(bust.cards) == {"9S", "5S", "KC"}
    assert t.balances["cat"] == 110 and t.balances["ann"] == 90
    assert t.pack.codes()[-3:] == ["9S", "5S", "KC"]
    assert t.turn == ("bob", 0)
    pub = t.public_view().seats[0].hands[0]
    assert pub.status is HandStatus.BUST and pub.hidden == 0


@pytest.mark.rule("P-FIVE-1")
def test_P_FIVE_1_five_cards_end_the_turn_and_stay_hidden() -> None:
    t = playing(ann=("2S", "3S"), draws=("2C", "3C", "4D"))
    act(t, "ann", K.BUY, 5)
    act(t, "ann", K.BUY, 5)
    out = act(t, "ann", K.BUY, 5)
    fct = next(e for e in out.events if e.kind is E.FIVE_CARD_TRICK)
    assert fct.public and fct.cards == ()
    assert t.turn == ("bob", 0)
    pub = t.public_view().seats[0].hands[0]
    assert pub.status is HandStatus.FIVE_CARD_TRICK and pub.hidden == 5


@pytest.mark.rule("P-TURN-END")
def test_P_TURN_END_split_hands_played_in_order() -> None:
    t = playing(ann=("8S", "8H"), draws=("9C", "2C", "10D"))
    act(t, "ann", K.SPLIT)
    assert t.turn == ("ann", 0)
    out = act(t, "ann", K.STICK)  # 17
    assert t.turn == ("ann", 1)
    assert out.events[-1].kind is E.TURN and out.events[-1].hand == 1
    act(t, "ann", K.TWIST)  # 8+2+10 = 20
    act(t, "ann", K.STICK)
    assert t.turn == ("bob", 0)
    with pytest.raises(RuleError) as ei:
        act(t, "ann", K.STICK)
    assert ei.value.rule == "P-TURN-END"


# ---------------------------------------------------------------- section 6


@pytest.mark.rule("P-BANKER-1")
def test_P_BANKER_1_banker_cards_turned_up_players_stay_hidden() -> None:
    t = playing()
    act(t, "ann", K.STICK)
    out = act(t, "bob", K.STICK)
    rev = out.events[-1]
    assert rev.kind is E.BANKER_REVEAL and rev.public and rev.cards == ("10H", "7H")
    assert t.phase is Phase.BANKER and t.turn == ("cat", 0)
    pub = t.public_view()
    assert pub.banker_hand is not None and pub.banker_hand.cards == ("10H", "7H")
    assert all(h.cards == () and h.hidden == 2 for s in pub.seats for h in s.hands)


@pytest.mark.rule("P-BANKER-2")
def test_P_BANKER_2_banker_draws_face_up_and_stays_any_time() -> None:
    t = playing(banker=("5H", "7H"), draws=("2D",))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)
    assert out.events[0].kind is E.BANKER_DRAW and out.events[0].cards == ("2D",)
    out = act(t, "cat", K.STICK)  # stays on 14: no minimum for the banker
    assert out.events[0].kind is E.BANKER_STAYS and out.events[0].total == 14
    assert t.phase is Phase.ROUND_OVER
    with pytest.raises(RuleError):
        act(t, "ann", K.TWIST)


@pytest.mark.rule("P-BANKER-3")
def test_P_BANKER_3_five_cards_21_or_bust_end_the_banker_turn() -> None:
    t = playing(banker=("2H", "3H"), draws=("2D", "3D", "4C"))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    act(t, "cat", K.TWIST)
    act(t, "cat", K.TWIST)
    out = act(t, "cat", K.TWIST)
    assert E.FIVE_CARD_TRICK in kinds(out) and t.phase is Phase.ROUND_OVER
    t = playing(banker=("10H", "5H"), draws=("6D",))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)
    assert E.TWENTY_ONE in kinds(out) and t.phase is Phase.ROUND_OVER
    t = playing(banker=("10H", "5H"), draws=("9D",))
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)
    assert E.BUST in kinds(out) and t.phase is Phase.ROUND_OVER


def test_all_players_bust_skips_banker_turn() -> None:
    t = playing(ann=("10S", "5S"), bob=("10D", "6D"), draws=("KC", "KD"))
    act(t, "ann", K.TWIST)
    act(t, "bob", K.TWIST)
    assert t.phase is Phase.ROUND_OVER
    assert t.balances == {"ann": 95, "bob": 95, "cat": 110}
    assert total_chips(t) == 300


def test_escrow_holds_stakes_until_settlement() -> None:
    t = playing()
    assert t.escrow == 10
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)
    assert t.escrow == 0
    assert any(tr.src == ESCROW for tr in out.transfers)
