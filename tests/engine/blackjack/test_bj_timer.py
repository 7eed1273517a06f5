"""BJ-TIMER-1, what the turn timer plays, for every hand total where its answer changes:
a hand under 12 hits until it reaches 12 or more, then stands; 12 and over (soft or
hard) stands at once; a hand that reaches 21 on the way stands by itself; split aces
are never hit. Unanswered insurance is declined, an answer given is kept."""

from __future__ import annotations

import pytest
from helpers_bj import Game, K

from engine.blackjack import BlackjackRules, EventKind, HandOutcome, Outcome, Phase


def timed_out(out: Outcome) -> list[tuple[str | None, int | None, int | None]]:
    return [(e.actor, e.hand, e.amount) for e in out.events if e.kind is EventKind.TIMED_OUT]


@pytest.mark.rule("BJ-TIMER-1")
@pytest.mark.parametrize(
    ("cards", "draws", "hits", "total"),
    [
        (("2S", "2H"), ("2C", "2D", "2S", "2H"), 4, 12),  # 4: four hits to 12
        (("4S", "5H"), ("2C", "2D"), 2, 13),  # 9: to 11, still under: again, 13
        (("4S", "6H"), ("2C",), 1, 12),  # 10 takes a 2: exactly 12, stands
        (("5S", "6H"), ("AC",), 1, 12),  # 11 takes an ace, counted 1: 12
        (("5S", "6H"), ("10C",), 1, 21),  # 11 takes a ten: 21 stands by itself
        (("5S", "6H"), ("KC",), 1, 21),
        (("5S", "7H"), (), 0, 12),  # 12: stands at once
        (("AS", "AH"), (), 0, 12),  # soft 12
        (("AS", "2H"), (), 0, 13),  # soft 13
        (("AS", "5H"), (), 0, 16),  # soft 16
        (("10S", "6H"), (), 0, 16),
        (("10S", "QH"), (), 0, 20),
    ],
)
def test_bj_timer_1_the_turn_timer_hits_under_12_then_stands(
    cards: tuple[str, str], draws: tuple[str, ...], hits: int, total: int
) -> None:
    # ann plays, bob waits his turn; the dealer 7 10 (17)
    top = [cards[0], "10D", "7C", cards[1], "9D", "10C", *draws]
    game = Game(top=top, seats=["ann", "bob"])
    game.round({"ann": 10, "bob": 10})
    out = game.timeout()
    assert timed_out(out) == [("ann", 0, hits)]
    hand = game.table.boxes["ann"].hands[0]
    assert len(hand.cards) == 2 + hits and hand.total == total and hand.done
    assert game.table.to_act() == ["bob"]  # the timer played ann's hand only
    assert [e.card for e in out.events if e.kind is EventKind.HIT] == list(draws[:hits])
    game.act("bob", K.STAND)  # the dealer's 17: ann's total wins, pushes or loses
    outcome = game.table.boxes["ann"].hands[0].outcome
    want = HandOutcome.WIN if total > 17 else HandOutcome.LOSE
    assert outcome is want and game.ledger["ann"] == (110 if total > 17 else 90)


@pytest.mark.rule("BJ-TIMER-1", "BJ-SPLIT-1")
def test_bj_timer_1_on_a_split_hand_and_on_split_aces() -> None:
    # ann 8 8 splits: the first hand 8 2 (10) times out and hits a 2 (12); the second
    # hand 8 4 (12) times out and stands at once
    game = Game(top=["8S", "10D", "8H", "7C", "2C", "2D", "4H"])
    game.round({"ann": 10})
    game.act("ann", K.SPLIT)
    assert timed_out(game.timeout()) == [("ann", 0, 1)]
    assert [c.code for c in game.table.boxes["ann"].hands[0].cards] == ["8S", "2C", "2D"]
    out = game.timeout()
    assert timed_out(out) == [("ann", 1, 0)] and out.result is not None
    # split aces (resplit on, an ace again): the timer stands, it never hits them
    game = Game(rules=BlackjackRules(resplit_aces=True), top=["AS", "10D", "AH", "7C", "AC"])
    game.round({"ann": 10})
    game.act("ann", K.SPLIT)
    hand = game.table.boxes["ann"].hands[0]
    assert [c.code for c in hand.cards] == ["AS", "AC"] and not hand.done
    assert timed_out(game.timeout()) == [("ann", 0, 0)]
    assert [c.code for c in hand.cards] == ["AS", "AC"]


@pytest.mark.rule("BJ-TIMER-1", "BJ-INS-1")
@pytest.mark.parametrize(("hole", "ann", "bob"), [("KC", 100, 90), ("7C", 105, 110)])
def test_bj_timer_1_unanswered_insurance_is_declined_an_answer_kept(
    hole: str, ann: int, bob: int
) -> None:
    # ann 10 9 insures 5; bob 10 10 does not answer; the dealer A up, K (blackjack) or 7
    game = Game(top=["10S", "10H", "AD", "9S", "10D", hole], seats=["ann", "bob"])
    game.round({"ann": 10, "bob": 10})
    game.act("ann", K.INSURANCE, 5)
    assert game.table.to_act() == ["bob"]
    out = game.timeout()
    insured = [(e.actor, e.amount) for e in out.events if e.kind is EventKind.INSURANCE]
    assert insured == [("bob", 0)]  # only the unanswered seat declines
    assert game.table.boxes["ann"].insurance == 5 and game.table.boxes["bob"].insurance == 0
    while game.table.phase is Phase.PLAYING:
        game.act(game.table.to_act()[0], K.STAND)
    # a dealer blackjack: ann's insurance pays 2:1 (10 + 10 lost = 0 net), bob loses 10;
    # else ann loses the 5 and wins 10 with 19 over 18, bob wins 10 with 20
    assert (game.ledger["ann"], game.ledger["bob"]) == (ann, bob)
