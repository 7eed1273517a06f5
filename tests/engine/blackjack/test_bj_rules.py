"""Blackjack's rules, one test or more per rule id (docs/rules/blackjack.md)."""

from __future__ import annotations

import pytest
from helpers_bj import Game, K, chance, stacked

from engine.blackjack import (
    DEALER,
    MAX_SEATS,
    Action,
    BlackjackRules,
    BlackjackTable,
    EventKind,
    HandOutcome,
    Phase,
    dealer_hits,
    hand_total,
    is_blackjack,
)
from engine.cards import parse_cards
from engine.errors import RuleError
from engine.game import Game as GameInterface
from engine.records import ESCROW, HOUSE


def refused(game: Game, seat: str, kind: K, amount: int | None = None) -> RuleError:
    before = game.table.to_json()
    with pytest.raises(RuleError) as err:
        game.act(seat, kind, amount)
    assert game.table.to_json() == before  # a refusal changes nothing
    return err.value


def test_the_table_is_a_game() -> None:
    assert isinstance(BlackjackTable(), GameInterface)


# ------------------------------------------------------------------ table and shoe
@pytest.mark.rule("BJ-TABLE-1")
def test_bj_table_1_seven_seats_and_only_the_dealer_deals() -> None:
    seats = [f"p{i}" for i in range(MAX_SEATS)]
    g = Game(seats=seats)
    assert g.table.seats == seats and MAX_SEATS == 7
    assert refused(g, "late", K.JOIN).rule == "BJ-TABLE-1"
    assert refused(g, "p0", K.JOIN).key == "engine.bj.already_seated"
    g.act("p0", K.BET, 5)
    with pytest.raises(RuleError) as err:
        g.table.apply(Action("p0", K.DEAL), g.luck)
    assert err.value.rule == "BJ-DEAL-1"
    assert refused(g, "stranger", K.BET, 5).key == "engine.bj.not_seated"


@pytest.mark.rule("BJ-TABLE-1")
def test_bj_table_1_leaving_returns_a_bet_but_not_mid_hand() -> None:
    g = Game(top=["9S", "5D", "7H", "10C"], seats=["ann", "bob"])
    g.act("ann", K.BET, 10)
    g.act("ann", K.LEAVE)
    assert g.ledger["ann"] == 100 and g.ledger[ESCROW] == 0
    g.act("ann", K.JOIN)
    g.round({"ann": 10})
    assert refused(g, "ann", K.LEAVE).key == "engine.bj.in_hand"
    g.act("bob", K.LEAVE)  # bob sat the round out
    assert g.table.seats == ["ann"]


@pytest.mark.rule("BJ-TABLE-2")
def test_bj_table_2_a_new_shoe_is_shuffled_before_the_first_round() -> None:
    g = Game(rules=BlackjackRules(decks=2))
    out = g.round({"ann": 5})
    assert out.events[0].kind is EventKind.SHUFFLED
    assert g.table.shoe.shuffles == 1
    assert len(g.table.shoe) + g.table.shoe.dealt == 104


@pytest.mark.rule("BJ-TABLE-2")
def test_bj_table_2_reshuffle_between_rounds_once_the_cut_is_passed() -> None:
    rules = BlackjackRules(decks=1, penetration=50)
    assert rules.cut_after == 26
    g = Game(rules=rules, top=["10S", "9D", "10H", "9C"])  # ann 20 against 18: stands
    g.table.shoe.dealt = 25  # 25 cards of the shoe already dealt
    out = g.round({"ann": 5})
    assert EventKind.SHUFFLED not in [e.kind for e in out.events]
    g.act("ann", K.STAND)
    assert g.table.shoe.dealt == 29 and g.table.shoe.shuffles == 0
    out = g.round({"ann": 5})
    assert out.events[0].kind is EventKind.SHUFFLED
    assert g.table.shoe.shuffles == 1 and len(g.table.shoe.discards) == 0


@pytest.mark.rule("BJ-TABLE-2")
def test_bj_table_2_a_round_never_runs_out_of_cards() -> None:
    g = Game(rules=BlackjackRules(decks=1), top=["2S", "10D", "2H", "6C", "3S", "3H"])
    g.round({"ann": 5})  # ann 2+2, dealer 10 up, 6 in the hole
    shoe = g.table.shoe
    # every card left but 3S and 3H goes to the discard tray, as if dealt in earlier rounds
    shoe.discard(shoe.pack.cards[2:])
    shoe.pack.replace(shoe.pack.cards[:2])
    g.act("ann", K.HIT)
    g.act("ann", K.HIT)  # 2+2+3+3 = 10; the shoe is empty
    assert len(shoe) == 0
    out = g.act("ann", K.HIT)
    assert out.events[0].kind is EventKind.RESHUFFLED_DISCARDS
    assert len(g.table.boxes["ann"].hands[0].cards) == 5
    assert len(shoe) + len(shoe.discards) == 52 - 7  # the 7 cards on the table stay out


# ------------------------------------------------------------------ values
@pytest.mark.rule("BJ-VAL-1")
@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        (["KS", "QH"], 20, False),
        (["AS", "6H"], 17, True),
        (["AS", "6H", "10D"], 17, False),
        (["AS", "AH"], 12, True),
        (["AS", "AH", "9D"], 21, True),
        (["5S", "6H", "JD"], 21, False),
        (["9S", "8H", "5D"], 22, False),
    ],
)
def test_bj_val_1_hand_values(cards: list[str], total: int, soft: bool) -> None:
    assert hand_total(parse_cards(cards)) == (total, soft)


@pytest.mark.rule("BJ-VAL-2")
def test_bj_val_2_blackjack_is_two_cards_not_after_a_split() -> None:
    assert is_blackjack(parse_cards(["AS", "KD"]))
    assert not is_blackjack(parse_cards(["AS", "KD"]), from_split=True)
    assert not is_blackjack(parse_cards(["7S", "7D", "7H"]))


@pytest.mark.rule("BJ-VAL-2")
def test_bj_val_2_a_blackjack_beats_a_dealer_21() -> None:
    # ann A+K; dealer 6 up, 5 hole, draws 10 = 21: the blackjack was paid at once
    g = Game(top=["AS", "6D", "KH", "5C", "10S"])
    g.round({"ann": 10})
    assert g.table.phase is Phase.ROUND_OVER
    assert g.table.last_result is not None
    assert g.table.last_result.hands[0].outcome is HandOutcome.BLACKJACK
    assert g.ledger["ann"] == 115


# ------------------------------------------------------------------ betting and the deal
@pytest.mark.rule("BJ-BET-1")
def test_bj_bet_1_limits_and_balance() -> None:
    g = Game(rules=BlackjackRules(min_bet=5, max_bet=50), seats=["ann", "bob"], chips=30)
    assert refused(g, "ann", K.BET, 4).key == "engine.bj.min"
    assert refused(g, "ann", K.BET, 51).key == "engine.bj.max"
    assert refused(g, "ann", K.BET, 40).rule == "BJ-CHIPS-1"
    for bad in (None, 0, -5):
        assert refused(g, "ann", K.BET, bad).rule == "BJ-BET-1"
    g.act("ann", K.BET, 30)
    g.act("ann", K.BET, 20)  # lowered: 10 back
    assert g.ledger["ann"] == 10 and g.ledger[ESCROW] == 20


@pytest.mark.rule("BJ-BET-1")
def test_bj_bet_1_members_without_a_bet_sit_out_and_no_bet_no_round() -> None:
    g = Game(top=["9S", "5D", "7H", "10C"], seats=["ann", "bob"])
    with pytest.raises(RuleError):
        g.deal()
    g.round({"ann": 10})
    assert list(g.table.boxes) == ["ann"]
    assert refused(g, "bob", K.BET, 5).key == "engine.bj.bets_closed"


@pytest.mark.rule("BJ-DEAL-1")
def test_bj_deal_1_casino_order_and_the_hole_card_hidden() -> None:
    g = Game(top=["2S", "3D", "4H", "5C", "6S", "7D"], seats=["ann", "bob"])
    out = g.round({"ann": 5, "bob": 5})
    t = g.table
    assert [c.code for c in t.boxes["ann"].hands[0].cards] == ["2S", "5C"]
    assert [c.code for c in t.boxes["bob"].hands[0].cards] == ["3D", "6S"]
    assert [c.code for c in t.dealer] == ["4H", "7D"]
    assert t.hole_card_hidden and [c.code for c in t.visible_dealer()] == ["4H"]
    assert "7D" not in [e.card for e in out.events]
    assert "7D" not in str(t.visible_dealer())


# ------------------------------------------------------------------ peek and insurance
@pytest.mark.rule("BJ-PEEK-1")
def test_bj_peek_1_dealer_blackjack_ends_the_round_at_once() -> None:
    # ann 10+9, bob A+K; dealer K up, A in the hole
    g = Game(top=["10S", "AD", "KH", "9C", "KD", "AS"], seats=["ann", "bob"])
    out = g.round({"ann": 10, "bob": 10})
    assert g.table.phase is Phase.ROUND_OVER and out.result is not None
    assert [h.outcome for h in out.result.hands] == [HandOutcome.LOSE, HandOutcome.PUSH]
    assert g.ledger["ann"] == 90 and g.ledger["bob"] == 100 and g.ledger[HOUSE] == 10
    assert not g.table.hole_card_hidden


@pytest.mark.rule("BJ-PEEK-1")
def test_bj_peek_1_no_blackjack_play_goes_on() -> None:
    g = Game(top=["10S", "KH", "9C", "7D"])
    out = g.round({"ann": 10})
    assert EventKind.PEEKED in [e.kind for e in out.events]
    assert g.table.to_act() == ["ann"]


@pytest.mark.rule("BJ-INS-1")
def test_bj_ins_1_insurance_pays_two_to_one_on_a_dealer_blackjack() -> None:
    g = Game(top=["10S", "AH", "9C", "KD"])
    g.round({"ann": 10})
    assert g.table.phase is Phase.INSURANCE and g.table.to_act() == ["ann"]
    assert refused(g, "ann", K.INSURANCE, 6).key == "engine.bj.insurance_range"
    out = g.act("ann", K.INSURANCE, 5)
    assert out.result is not None
    assert g.ledger["ann"] == 100  # -10 on the hand, +10 on the insurance


@pytest.mark.rule("BJ-INS-1")
def test_bj_ins_1_insurance_is_lost_without_a_dealer_blackjack() -> None:
    g = Game(top=["10S", "AH", "9C", "7D"])
    g.round({"ann": 10})
    g.act("ann", K.INSURANCE, 4)
    assert g.ledger["ann"] == 86 and g.ledger[HOUSE] == 4
    assert g.table.phase is Phase.PLAYING


@pytest.mark.rule("BJ-INS-1")
def test_bj_ins_1_not_offered_without_an_ace_or_with_the_option_off() -> None:
    g = Game(top=["10S", "KH", "9C", "7D"])
    g.round({"ann": 10})
    assert refused(g, "ann", K.INSURANCE, 1).key == "engine.bj.no_insurance"
    g2 = Game(rules=BlackjackRules(insurance=False), top=["10S", "AH", "9C", "7D"])
    g2.round({"ann": 10})
    assert g2.table.phase is Phase.PLAYING


@pytest.mark.rule("BJ-NAT-1")
@pytest.mark.parametrize(
    ("pays", "bet", "won"), [("3:2", 10, 15), ("3:2", 5, 7), ("6:5", 10, 12), ("6:5", 5, 6)]
)
def test_bj_nat_1_blackjack_paid_at_once_rounded_down(pays: str, bet: int, won: int) -> None:
    g = Game(rules=BlackjackRules(blackjack_pays=pays), top=["AS", "9D", "KH", "7C"])  # type: ignore[arg-type]
    out = g.round({"ann": bet})
    assert out.result is not None and out.result.hands[0].net == won
    assert g.ledger["ann"] == 100 + won


# ------------------------------------------------------------------ playing a hand
@pytest.mark.rule("BJ-HIT-1")
def test_bj_hit_1_a_bust_is_lost_at_once() -> None:
    g = Game(top=["10S", "6D", "5H", "10C", "KD"], seats=["ann"])
    g.round({"ann": 10})
    out = g.act("ann", K.HIT)
    assert any(t.src == ESCROW and t.dst == HOUSE and t.amount == 10 for t in out.transfers)
    assert out.result is not None and out.result.hands[0].outcome is HandOutcome.BUST
    assert len(out.result.dealer) == 2  # the dealer does not draw


@pytest.mark.rule("BJ-STAND-1")
def test_bj_stand_1_twenty_one_stands_by_itself_and_no_hit_after_standing() -> None:
    g = Game(top=["5S", "9D", "6H", "8C", "QD", "3S", "8H"], seats=["ann", "bob"])
    g.round({"ann": 5, "bob": 5})
    g.act("ann", K.HIT)  # 5+8+8 = 21
    assert g.table.to_act() == ["bob"]
    assert refused(g, "ann", K.HIT).key == "engine.bj.hands_done"
    g.act("bob", K.STAND)
    assert g.table.phase is Phase.ROUND_OVER


@pytest.mark.rule("BJ-DOUBLE-1")
def test_bj_double_1_one_card_only_on_two_cards() -> None:
    g = Game(top=["5S", "9D", "6H", "8C", "2D", "3S", "9S", "3C"], seats=["ann", "bob"])
    g.round({"ann": 10, "bob": 10})
    assert refused(g, "ann", K.DOUBLE, 11).key == "engine.bj.double_range"
    out = g.act("ann", K.DOUBLE)  # 11 + 2 = 13, one card, done
    assert g.ledger["ann"] == 80 and out.events[0].amount == 10
    assert g.table.to_act() == ["bob"]
    g.act("bob", K.HIT)  # 9+8+3 = 20
    assert refused(g, "bob", K.DOUBLE).key == "engine.bj.double_two"


@pytest.mark.rule("BJ-DOUBLE-1")
def test_bj_double_1_double_on_hard_nine_to_eleven() -> None:
    rules = BlackjackRules(double_on="10-11")
    g = Game(rules=rules, top=["5S", "9D", "4H", "8C"])
    g.round({"ann": 10})
    assert refused(g, "ann", K.DOUBLE).key == "engine.bj.double_on"  # hard 9
    g2 = Game(rules=BlackjackRules(double_on="9-11"), top=["AS", "9D", "8H", "8C"])
    g2.round({"ann": 10})
    assert refused(g2, "ann", K.DOUBLE).key == "engine.bj.double_on"  # soft 19
    g3 = Game(rules=BlackjackRules(double_on="9-11"), top=["5S", "9D", "4H", "8C", "10D"])
    g3.round({"ann": 10})
    out = g3.act("ann", K.DOUBLE, 5)  # less than the bet: hard 9 + 10 = 19 against 17
    assert out.transfers[0].amount == 5
    assert g3.ledger["ann"] == 115


@pytest.mark.rule("BJ-SPLIT-1")
def test_bj_split_1_king_and_queen_do_not_split() -> None:
    g = Game(top=["KS", "9D", "QH", "8C"])
    g.round({"ann": 10})
    assert refused(g, "ann", K.SPLIT).key == "engine.bj.split_pair"


@pytest.mark.rule("BJ-SPLIT-1")
def test_bj_split_1_split_aces_take_one_card_and_do_not_resplit() -> None:
    g = Game(top=["AS", "9D", "AH", "8C", "AD", "KC"], seats=["ann"])
    g.round({"ann": 10})
    out = g.act("ann", K.SPLIT)  # first ace gets the ace: done (no re-split), second a K
    assert out.result is not None
    hands = out.result.hands
    assert [h.cards for h in hands] == [("AS", "AD"), ("AH", "KC")]
    assert hands[1].outcome is HandOutcome.WIN and hands[1].net == 10  # 21, not a blackjack
    assert hands[0].outcome is HandOutcome.LOSE  # 12 against 17


@pytest.mark.rule("BJ-SPLIT-1")
def test_bj_split_1_resplit_aces_when_the_option_is_on() -> None:
    g = Game(rules=BlackjackRules(resplit_aces=True), top=["AS", "9D", "AH", "8C", "AD"])
    g.round({"ann": 10})
    g.act("ann", K.SPLIT)
    assert refused(g, "ann", K.HIT).key == "engine.bj.split_aces"
    g.act("ann", K.SPLIT)
    assert len(g.table.boxes["ann"].hands) == 3


@pytest.mark.rule("BJ-SPLIT-1")
def test_bj_split_1_up_to_max_hands_and_no_das_when_off() -> None:
    rules = BlackjackRules(max_hands=2, double_after_split=False)
    g = Game(rules=rules, top=["8S", "9D", "8H", "8C", "8D", "3C"])
    g.round({"ann": 10})
    g.act("ann", K.SPLIT)  # first hand 8+8
    assert refused(g, "ann", K.SPLIT).key == "engine.bj.max_hands"
    assert refused(g, "ann", K.DOUBLE).key == "engine.bj.no_das"


@pytest.mark.rule("BJ-SURR-1")
def test_bj_surr_1_half_back_rounded_down_on_two_cards() -> None:
    rules = BlackjackRules(surrender="late")
    g = Game(rules=rules, top=["10S", "9D", "6H", "KC"])
    g.round({"ann": 5})
    out = g.act("ann", K.SURRENDER)
    assert out.result is not None and out.result.hands[0].net == -3
    assert g.ledger["ann"] == 97
    g2 = Game(top=["10S", "9D", "6H", "KC"])
    g2.round({"ann": 5})
    assert refused(g2, "ann", K.SURRENDER).key == "engine.bj.no_surrender"


@pytest.mark.rule("BJ-TIMER-1")
def test_bj_timer_1_a_hand_under_twelve_hits_then_stands() -> None:
    g = Game(top=["2S", "9D", "9H", "3C", "4D", "10S", "4H", "10C"], seats=["ann", "bob"])
    g.round({"ann": 5, "bob": 5})
    out = g.timeout()  # ann 2+3 = 5 -> 9 (4H) -> 19 (10C): stands
    timed = [e for e in out.events if e.kind is EventKind.TIMED_OUT]
    assert timed[0].amount == 2 and g.table.to_act() == ["bob"]


@pytest.mark.rule("BJ-TIMER-1")
def test_bj_timer_1_unanswered_insurance_is_declined() -> None:
    g = Game(top=["10S", "AH", "9C", "7D"])
    g.round({"ann": 10})
    g.timeout()
    assert g.table.phase is Phase.PLAYING and g.table.boxes["ann"].insurance == 0


@pytest.mark.rule("BJ-CHIPS-1")
def test_bj_chips_1_no_double_or_split_without_the_chips() -> None:
    g = Game(top=["8S", "9D", "8H", "8C"], chips=15)
    g.round({"ann": 10})
    assert refused(g, "ann", K.SPLIT).key == "engine.bj.chips_split"
    assert refused(g, "ann", K.DOUBLE).key == "engine.bj.chips_double"
    g.act("ann", K.DOUBLE, 5)  # a double for less is still open


# ------------------------------------------------------------------ dealer and settlement
@pytest.mark.rule("BJ-DEALER-1")
@pytest.mark.parametrize(("rule", "cards"), [("s17", 2), ("h17", 3)])
def test_bj_dealer_1_soft_seventeen(rule: str, cards: int) -> None:
    g = Game(rules=BlackjackRules(dealer=rule), top=["10S", "AD", "9H", "6C", "2S"])  # type: ignore[arg-type]
    g.round({"ann": 10})
    g.act("ann", K.INSURANCE, 0)
    out = g.act("ann", K.STAND)
    assert out.result is not None and len(out.result.dealer) == cards
    assert dealer_hits(17, True, h17=True) and not dealer_hits(17, True, h17=False)


@pytest.mark.rule("BJ-SETTLE-1")
def test_bj_settle_1_win_push_lose() -> None:
    # ann 10+10=20, bob 10+8=18, cat 10+7=17; dealer 9+9 = 18
    g = Game(top=["10S", "10D", "10H", "9C", "10C", "8D", "7H", "9S"], seats=["ann", "bob", "cat"])
    g.round({"ann": 10, "bob": 10, "cat": 10})
    for s in ("ann", "bob", "cat"):
        g.act(s, K.STAND)
    assert g.table.last_result is not None
    assert [h.outcome for h in g.table.last_result.hands] == [
        HandOutcome.WIN,
        HandOutcome.PUSH,
        HandOutcome.LOSE,
    ]
    assert (g.ledger["ann"], g.ledger["bob"], g.ledger["cat"]) == (110, 100, 90)
    assert g.table.returns() == {"ann": 10, "bob": 0, "cat": -10}


@pytest.mark.rule("BJ-NHC-1")
def test_bj_nhc_1_dealer_blackjack_takes_only_the_original_bet() -> None:
    rules = BlackjackRules(peek=False, insurance=False)
    # ann 6+5 doubles (gets 9), dealer 10 up then A: blackjack after the players
    g = Game(rules=rules, top=["6S", "10D", "5H", "9C", "AS"])
    g.round({"ann": 10})
    assert len(g.table.dealer) == 1 and g.table.to_act() == ["ann"]
    out = g.act("ann", K.DOUBLE)
    assert out.result is not None and out.result.dealer_blackjack
    assert g.ledger["ann"] == 90  # the double came back


def test_a_stranger_and_the_house_act_on_nothing() -> None:
    t = BlackjackTable()
    assert t.legal_actions("@house") == []
    assert [a.kind for a in t.legal_actions("ann")] == [K.JOIN]
    assert t.legal_actions(DEALER) == []
    t.apply(Action("ann", K.JOIN))
    t.apply(Action("ann", K.BET, 5))
    assert [a.kind for a in t.legal_actions(DEALER)] == [K.DEAL]
    assert stacked(BlackjackRules(decks=1), ["AS"]).pack.cards[0].code == "AS"
    assert chance(1).randbelow(5) in range(5)
