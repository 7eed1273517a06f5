"""Blackjack's table at its edges, each test naming the rule it holds (found by
scripts/mutate.py: one-spot changes no other test noticed): the stored form, the
version every move counts, who may sit, the bet limits and the chips a refusal names."""

from __future__ import annotations

import pytest
from helpers_bj import Game, K, stacked

from engine.blackjack import DEALER, Action, BlackjackRules, BlackjackTable, Hand, Phase
from engine.cards import parse_cards
from engine.errors import ConfigError, RuleError


@pytest.mark.rule("BJ-TABLE-1")
def test_bj_table_1_the_stored_form_names_its_format_and_refuses_another() -> None:
    game = Game(top=["10S", "6D", "9H", "10C"])
    game.round({"ann": 10})
    stored = game.table.to_json()
    assert stored["format"] == 1
    (hand,) = stored["boxes"]["ann"]["hands"]
    assert hand == {
        "cards": ["10S", "9H"],
        "bet": 10,
        "doubled": 0,
        "from_split": False,
        "split_aces": False,
        "done": False,
        "outcome": None,
        "net": 0,
    }
    assert BlackjackTable.from_json(stored).to_json() == stored
    with pytest.raises(ConfigError):
        BlackjackTable.from_json({**stored, "format": 2})


@pytest.mark.rule("BJ-TABLE-1", "BJ-DEAL-1")
def test_bj_table_1_a_new_table_and_the_count_of_its_moves() -> None:
    table = BlackjackTable(BlackjackRules(), stacked(BlackjackRules(), ["10S", "6D", "9H", "10C"]))
    assert (table.round_no, table.version, table.up_card) == (0, 0, None)
    assert not table.is_terminal()
    table.apply(Action("ann", K.JOIN))
    assert table.version == 1
    with pytest.raises(RuleError):
        table.apply(Action("ann", K.JOIN))
    assert table.version == 1  # a refusal counts nothing
    table.apply(Action("ann", K.BET, 10))
    game_chance = Game().luck
    table.apply(Action(DEALER, K.DEAL), game_chance)
    assert (table.round_no, table.version) == (1, 3)
    assert table.up_card is not None and table.up_card.code == "6D"
    assert not table.is_terminal()
    table.apply(Action("ann", K.STAND), game_chance)
    assert table.is_terminal() and table.phase is Phase.ROUND_OVER and table.version == 4


@pytest.mark.rule("BJ-TABLE-1")
@pytest.mark.parametrize("who", ["", "@house", "@dealer", DEALER])
def test_bj_table_1_only_members_sit(who: str) -> None:
    table = BlackjackTable()
    with pytest.raises(RuleError) as err:
        table.apply(Action(who, K.JOIN))
    assert err.value.key == "engine.bj.no_member" and table.seats == []
    assert table.legal_actions(who) == []


@pytest.mark.rule("BJ-VAL-1")
def test_bj_val_1_a_hand_knows_whether_it_is_soft() -> None:
    assert Hand(parse_cards(["AS", "6D"]), 10).soft
    assert not Hand(parse_cards(["AS", "6D", "10C"]), 10).soft  # the ace counts 1: 17
    assert not Hand(parse_cards(["10S", "7D"]), 10).soft


@pytest.mark.rule("BJ-BET-1")
def test_bj_bet_1_the_largest_bet_is_allowed_and_a_raise_is_checked_on_what_it_adds() -> None:
    game = Game(rules=BlackjackRules(min_bet=2, max_bet=50), chips=30)
    game.act("ann", K.BET, 30)  # all the chips she has
    assert game.table.bets == {"ann": 30}
    game2 = Game(rules=BlackjackRules(max_bet=50), chips=60)
    game2.act("ann", K.BET, 50)  # exactly the table's largest bet
    assert game2.table.bets == {"ann": 50}
    game3 = Game(chips=30)
    game3.act("ann", K.BET, 10)  # 20 left outside the table
    with pytest.raises(RuleError) as err:
        game3.act("ann", K.BET, 31)  # 21 more than the 10 on the table
    assert err.value.key == "engine.bj.only_chips" and err.value.params == {"amount": 30}
    game3.act("ann", K.BET, 30)  # 20 more: exactly what she has
    assert game3.ledger["ann"] == 0


@pytest.mark.rule("BJ-CHIPS-1")
def test_bj_chips_1_a_refusal_names_the_chips_the_member_has_none_below_zero() -> None:
    game = Game(top=["8S", "6D", "8H", "10C"], chips=10)
    game.round({"ann": 10})  # every chip she had is on the table
    for kind, key in ((K.SPLIT, "engine.bj.chips_split"), (K.DOUBLE, "engine.bj.chips_double")):
        with pytest.raises(RuleError) as err:
            game.act("ann", kind)
        assert err.value.key == key and err.value.params == {"amount": 10, "balance": 0}
    table = game.table
    for kind in (K.SPLIT, K.DOUBLE):  # a balance the ledger says is negative reads as 0
        why = table.why_not(Action("ann", kind, None, -5))
        assert why is not None and why.params["balance"] == 0


@pytest.mark.rule("BJ-BET-1", "BJ-CHIPS-1")
def test_bj_bet_1_placing_the_same_bet_again_moves_no_chip() -> None:
    game = Game(seats=["ann", "bob"])
    game.act("ann", K.BET, 10)
    out = game.act("ann", K.BET, 10)
    assert out.transfers == [] and game.table.bets == {"ann": 10}
    lower = game.act("ann", K.BET, 4)
    assert [(t.src, t.dst, t.amount) for t in lower.transfers] == [("@escrow", "ann", 6)]
    higher = game.act("ann", K.BET, 9)
    assert [(t.src, t.dst, t.amount) for t in higher.transfers] == [("ann", "@escrow", 5)]
    assert game.ledger["ann"] == 91


@pytest.mark.rule("BJ-VAL-2", "BJ-STAND-1")
def test_bj_val_2_a_blackjack_is_finished_from_the_deal_while_insurance_is_asked() -> None:
    game = Game(top=["AS", "AD", "KH", "7C"])  # ann A K against an ace up
    game.round({"ann": 10})
    assert game.table.phase is Phase.INSURANCE
    hand = game.table.boxes["ann"].hands[0]
    assert hand.blackjack and hand.done
    assert game.table.to_json()["boxes"]["ann"]["hands"][0]["done"] is True


@pytest.mark.rule("BJ-NAT-1", "BJ-NHC-1")
@pytest.mark.parametrize(
    ("up", "second", "ann"),
    [
        ("AD", "KC", 0),  # an ace up: waits, the dealer's blackjack pushes it
        ("AD", "7C", 15),  # an ace up, no dealer blackjack: paid after the players
        ("KD", "AC", 0),  # a ten up: the same
        ("KD", "7C", 15),
        ("9D", "AC", 15),  # any other card up: paid at once, before anyone plays
    ],
)
def test_bj_nat_1_without_a_peek_a_blackjack_waits_only_against_an_ace_or_a_ten(
    up: str, second: str, ann: int
) -> None:
    rules = BlackjackRules(peek=False, insurance=False)
    game = Game(rules=rules, top=["AS", "10H", up, "KS", "9H", second], seats=["ann", "bob"])
    out = game.round({"ann": 10, "bob": 10})
    paid_at_once = any(e.kind.value == "blackjack" for e in out.events)
    assert paid_at_once == (up == "9D")
    last = game.act("bob", K.STAND)
    assert game.ledger["ann"] - 100 == ann
    events = [*out.events, *last.events]
    blackjacks = [(e.actor, e.hand, e.amount) for e in events if e.kind.value == "blackjack"]
    assert blackjacks == ([("ann", 0, 15)] if ann else [])
    # every hand of the settled round is finished, the paid blackjack too
    assert all(h.done for b in game.table.boxes.values() for h in b.hands)


@pytest.mark.rule("BJ-NAT-1")
def test_bj_nat_1_the_blackjack_is_paid_on_the_seats_first_hand() -> None:
    game = Game(top=["AS", "9D", "KH", "7C"])
    out = game.round({"ann": 10})
    paid = [(e.actor, e.hand, e.amount) for e in out.events if e.kind.value == "blackjack"]
    assert paid == [("ann", 0, 15)]


@pytest.mark.rule("BJ-SPLIT-1", "BJ-STAND-1", "BJ-VAL-2")
def test_bj_split_1_a_split_hand_dealt_21_stands_and_wins_even_money() -> None:
    # ann 10 10 splits: the first hand takes a 5 (15) and stands, the second an ace (21):
    # it stands by itself, no turn of its own, and wins 1:1 (not a blackjack)
    game = Game(top=["10S", "6D", "10H", "10C", "5C", "AD", "9S"])
    game.round({"ann": 10})
    game.act("ann", K.SPLIT)
    out = game.act("ann", K.STAND)
    second = [(e.hand, e.card) for e in out.events if e.kind.value == "hit"]
    assert second == [(1, "AD")]  # the second hand's second card, said as dealt
    assert out.result is not None  # no turn on the 21: the dealer played (16 + 9: bust)
    hands = out.result.hands
    assert [(h.total, h.outcome.value, h.net) for h in hands] == [(15, "win", 10), (21, "win", 10)]


@pytest.mark.rule("BJ-SPLIT-1")
def test_bj_split_1_split_aces_get_no_turn_after_the_next_seat_plays() -> None:
    # ann A A splits (one card each: 5, 6); bob 10 7 stands; the dealer 9 10
    game = Game(top=["AS", "10H", "9D", "AH", "7S", "10C", "5C", "6C"], seats=["ann", "bob"])
    game.round({"ann": 10, "bob": 10})
    game.act("ann", K.SPLIT)
    assert game.table.to_act() == ["bob"]
    assert [h.done for h in game.table.boxes["ann"].hands] == [True, True]
    out = game.act("bob", K.STAND)
    assert out.result is not None and game.table.phase is Phase.ROUND_OVER
    assert [len(h.cards) for h in game.table.boxes["ann"].hands] == [2, 2]


@pytest.mark.rule("BJ-STAND-1", "BJ-SPLIT-1")
def test_bj_stand_1_a_split_hand_dealt_21_is_finished_before_the_next_seat_plays() -> None:
    # ann 10 10 splits: 10 5 stands, 10 A (21) stands by itself; bob 10 7 is to play
    game = Game(top=["10S", "10D", "6D", "10H", "7S", "10C", "5C", "AD"], seats=["ann", "bob"])
    game.round({"ann": 10, "bob": 10})
    game.act("ann", K.SPLIT)
    game.act("ann", K.STAND)
    assert game.table.to_act() == ["bob"]
    assert [h.done for h in game.table.boxes["ann"].hands] == [True, True]
    why = game.table.why_not(Action("ann", K.HIT, None, 80))
    assert why is not None and why.key == "engine.bj.hands_done"


@pytest.mark.rule("BJ-HIT-1", "BJ-DOUBLE-1", "BJ-SPLIT-1")
def test_bj_hit_1_each_card_drawn_is_the_card_the_event_names() -> None:
    # ann 8 8 splits (a 2 on the first hand), doubles on 10 (a 5), then the second hand
    # takes a 4 (12) and hits a 10: 22, one over, a bust
    game = Game(top=["8S", "10D", "8H", "7C", "2C", "5D", "4H", "10S"])
    game.round({"ann": 10})
    split = game.act("ann", K.SPLIT)
    assert [(e.kind.value, e.hand, e.card) for e in split.events if e.card] == [("hit", 0, "2C")]
    double = game.act("ann", K.DOUBLE)
    cards = [(e.kind.value, e.hand, e.card) for e in double.events if e.card]
    assert cards == [("double", 0, "5D"), ("hit", 1, "4H")]
    hit = game.act("ann", K.HIT)
    assert next((e.kind.value, e.hand, e.card) for e in hit.events if e.card) == ("hit", 1, "10S")
    busts = [(e.hand, e.amount) for e in hit.events if e.kind.value == "bust"]
    assert busts == [(1, 10)] and game.table.boxes["ann"].hands[1].outcome is not None
    assert game.table.boxes["ann"].hands[1].total == 22


@pytest.mark.rule("BJ-STAND-1", "BJ-SPLIT-1")
def test_bj_stand_1_the_first_split_hand_dealt_21_stands_by_itself() -> None:
    # ann 10 10 splits: the first hand takes an ace (21) and stands, the second is next
    game = Game(top=["10S", "6D", "10H", "10C", "AD", "5C"])
    game.round({"ann": 10})
    game.act("ann", K.SPLIT)
    hands = game.table.boxes["ann"].hands
    assert hands[0].total == 21 and hands[0].done and game.table.turn == ("ann", 1)
    assert [c.code for c in hands[1].cards] == ["10H", "5C"]


@pytest.mark.rule("BJ-SURR-1")
@pytest.mark.parametrize(("bet", "back"), [(1, 0), (2, 1), (3, 1)])
def test_bj_surr_1_half_back_rounded_down_and_no_empty_transfer(bet: int, back: int) -> None:
    game = Game(rules=BlackjackRules(surrender="late"), top=["10S", "9D", "6H", "10C"])
    game.round({"ann": bet})
    out = game.act("ann", K.SURRENDER)
    moved = [(t.src, t.dst, t.amount) for t in out.transfers]
    kept = [("@escrow", "ann", back)] if back else []
    assert moved == [*kept, ("@escrow", "@house", bet - back)]
    assert game.ledger["ann"] == 100 - bet + back


@pytest.mark.rule("BJ-DEALER-1", "BJ-NHC-1")
@pytest.mark.parametrize("insured", [False, True])
def test_bj_dealer_1_without_a_peek_no_second_card_when_nothing_is_left(insured: bool) -> None:
    """Every hand bust and nothing insured: the dealer does not take a second card; an
    insurance still to settle needs it."""
    rules = BlackjackRules(peek=False)
    game = Game(rules=rules, top=["10S", "AD", "6H", "10C", "KC"])  # ann 16 hits a 10
    game.round({"ann": 10})
    game.act("ann", K.INSURANCE, 5 if insured else 0)
    out = game.act("ann", K.HIT)
    assert out.result is not None
    assert out.result.dealer == (("AD", "KC") if insured else ("AD",))
    assert game.ledger["ann"] == (100 - 10 - 5 + 15 if insured else 90)


@pytest.mark.rule("BJ-NHC-1")
def test_bj_nhc_1_every_hand_is_finished_when_the_dealer_blackjack_comes() -> None:
    # ann 6 5 doubles (a 2: 13), bob 9 8 stands; the dealer 10 up, then an ace
    rules = BlackjackRules(peek=False)
    game = Game(rules=rules, top=["6S", "9H", "10D", "5H", "8C", "2C", "AS"], seats=["ann", "bob"])
    game.round({"ann": 10, "bob": 10})
    game.act("ann", K.DOUBLE)
    out = game.act("bob", K.STAND)
    assert out.result is not None and out.result.dealer_blackjack
    hands = [h for b in game.table.boxes.values() for h in b.hands]
    assert all(h.done for h in hands)
    assert [(h.outcome.value, h.net) for h in out.result.hands] == [("lose", -10), ("lose", -10)]
    assert (game.ledger["ann"], game.ledger["bob"]) == (90, 90)


@pytest.mark.rule("BJ-CHIPS-1", "BJ-BET-1")
@pytest.mark.parametrize("balance", [0, -3])
def test_bj_chips_1_a_bet_refused_for_want_of_chips_names_none_below_zero(balance: int) -> None:
    table = BlackjackTable()
    table.apply(Action("ann", K.JOIN))
    why = table.why_not(Action("ann", K.BET, 5, balance))
    assert why is not None and why.key == "engine.bj.only_chips"
    assert why.params == {"amount": 0}
