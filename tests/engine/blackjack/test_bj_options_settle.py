"""Every table option through settlement (docs/rules/blackjack.md): the same stacked
round settled with and without the option, and each seat's chips after it. Each seat
plays the same decisions at both tables, each decision with a fallback where the table
without the option refuses it (a double that is refused is a hit, a resplit that is
refused is a stand); a seat with no decision left stands, and insurance is declined
unless a decision takes it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers_bj import Game, K

from engine.blackjack import BlackjackRules, EventKind, Phase
from engine.errors import RuleError

Step = Sequence[tuple[K, int | None]]  # a decision: what the seat tries, in order
START = 100


def settle(
    rules: BlackjackRules,
    top: Sequence[str],
    bets: dict[str, int],
    steps: dict[str, list[Step]] | None = None,
) -> dict[str, int]:
    """Deal ``top`` to ``bets`` (seats in that order), play each seat's ``steps`` when it
    is to act, and return each seat's chips once the round is settled."""
    game = Game(rules=rules, top=top, seats=list(bets), chips=START)
    game.round(bets)
    todo = {seat: list(s) for seat, s in (steps or {}).items()}
    while game.table.phase is not Phase.ROUND_OVER:
        seat = game.table.to_act()[0]
        if todo.get(seat):
            step = todo[seat].pop(0)
            for n, (kind, amount) in enumerate(step):
                try:
                    game.act(seat, kind, amount)
                    break
                except RuleError:
                    if n == len(step) - 1:
                        raise
        elif game.table.phase is Phase.INSURANCE:
            game.act(seat, K.INSURANCE, 0)
        else:
            game.act(seat, K.STAND)
    assert game.ledger.total == 2 * 0 + START * len(bets)  # no chip made or lost
    assert game.ledger["@escrow"] == 0
    return {seat: game.ledger[seat] - START for seat in bets}


DOUBLE_ELSE_HIT: Step = [(K.DOUBLE, None), (K.HIT, None)]
SPLIT_ELSE_STAND: Step = [(K.SPLIT, None), (K.STAND, None)]
SURRENDER_ELSE_STAND: Step = [(K.SURRENDER, None), (K.STAND, None)]


# ------------------------------------------------------------------ BJ-DEALER-1
# ann 10 8 (18), bob 10 7 (17), cat 10 10 (20); the dealer's two cards, then a 2
@pytest.mark.rule("BJ-DEALER-1")
@pytest.mark.parametrize(
    ("up", "hole", "s17", "h17"),
    [
        # soft 17: stands under s17 (ann wins, bob pushes), draws the 2 under h17 (19)
        ("6C", "AS", (10, 0, 10), (-10, -10, 10)),
        # hard 17 and soft 18: both stand
        ("10C", "7S", (10, 0, 10), (10, 0, 10)),
        ("7C", "AS", (0, -10, 10), (0, -10, 10)),
        # soft 16: both draw (the 2: 18)
        ("5C", "AS", (0, -10, 10), (0, -10, 10)),
    ],
)
def test_bj_dealer_1_h17_changes_only_a_soft_17(
    up: str, hole: str, s17: tuple[int, ...], h17: tuple[int, ...]
) -> None:
    top = ["10S", "10H", "10D", up, "8S", "7H", "10C", hole, "2D"]
    bets = {"ann": 10, "bob": 10, "cat": 10}
    for rule, want in (("s17", s17), ("h17", h17)):
        got = settle(BlackjackRules(dealer=rule), top, bets)  # type: ignore[arg-type]
        assert tuple(got.values()) == want, (rule, got)


# ------------------------------------------------------------------ BJ-NAT-1
@pytest.mark.rule("BJ-NAT-1")
def test_bj_nat_1_six_to_five_changes_only_the_blackjacks() -> None:
    # ann, bob, cat blackjacks on 10, 5 and 7; dan 20 against the dealer's 9 9 (18)
    top = ["AS", "AH", "AD", "10S", "9C", "KS", "QH", "JD", "10H", "9D"]
    bets = {"ann": 10, "bob": 5, "cat": 7, "dan": 10}
    assert settle(BlackjackRules(), top, bets) == {"ann": 15, "bob": 7, "cat": 10, "dan": 10}
    six_five = settle(BlackjackRules(blackjack_pays="6:5"), top, bets)
    assert six_five == {"ann": 12, "bob": 6, "cat": 8, "dan": 10}


@pytest.mark.rule("BJ-NAT-1", "BJ-PEEK-1")
def test_bj_nat_1_a_blackjack_against_a_dealer_blackjack_pushes_at_both_payouts() -> None:
    top = ["AS", "10H", "AD", "KS", "9C", "KC"]  # ann blackjack, bob 19; dealer A K
    for pays in ("3:2", "6:5"):
        got = settle(BlackjackRules(blackjack_pays=pays), top, {"ann": 10, "bob": 10})  # type: ignore[arg-type]
        assert got == {"ann": 0, "bob": -10}


# ------------------------------------------------------------------ BJ-SURR-1
@pytest.mark.rule("BJ-SURR-1")
def test_bj_surr_1_late_surrender_changes_only_the_seat_that_gives_up() -> None:
    # ann 10 6 (16) and bob 10 6 on 5 chips give up; cat 10 8 (18) stands; dealer 10 7
    top = ["10S", "10H", "10D", "10C", "6S", "6H", "8D", "7C"]
    bets = {"ann": 10, "bob": 5, "cat": 10}
    steps = {"ann": [SURRENDER_ELSE_STAND], "bob": [SURRENDER_ELSE_STAND]}
    assert settle(BlackjackRules(), top, bets, steps) == {"ann": -10, "bob": -5, "cat": 10}
    late = settle(BlackjackRules(surrender="late"), top, bets, steps)
    assert late == {"ann": -5, "bob": -3, "cat": 10}  # half back, rounded down
    # the no-hole-card game has no surrender: the same round as without the option
    no_peek = ["10S", "10H", "10D", "10C", "6S", "6H", "8D", "7C"]
    rules = BlackjackRules(surrender="late", peek=False)
    assert settle(rules, no_peek, bets, steps) == {"ann": -10, "bob": -5, "cat": 10}


# ------------------------------------------------------------------ BJ-DOUBLE-1
@pytest.mark.rule("BJ-DOUBLE-1")
@pytest.mark.parametrize(
    ("double_on", "ann", "bob"),
    [
        ("any", 20, 20),  # both double: 9 and 10 take a 10 (19, 20)
        ("9-11", 20, 20),
        ("10-11", 10, 20),  # ann's 9 may not double: she hits the same 10 (19)
    ],
)
def test_bj_double_1_double_on_changes_only_the_totals_it_names(
    double_on: str, ann: int, bob: int
) -> None:
    # ann 4 5 (9), bob 6 4 (10), cat 10 2 (12) tries a double; the dealer 10 8 (18)
    top = ["4S", "6S", "10H", "10C", "5H", "4D", "2C", "8D", "10D", "10S", "6C"]
    bets = {"ann": 10, "bob": 10, "cat": 10}
    steps = {"ann": [DOUBLE_ELSE_HIT], "bob": [DOUBLE_ELSE_HIT], "cat": [DOUBLE_ELSE_HIT]}
    got = settle(BlackjackRules(double_on=double_on), top, bets, steps)  # type: ignore[arg-type]
    # cat's 12 takes the 6: 18, a push whether doubled (any) or hit (9-11, 10-11)
    assert got == {"ann": ann, "bob": bob, "cat": 0}


@pytest.mark.rule("BJ-SPLIT-1", "BJ-DOUBLE-1")
@pytest.mark.parametrize(("das", "ann"), [(True, 40), (False, 20)])
def test_bj_split_1_double_after_split_changes_only_the_split_hands(das: bool, ann: int) -> None:
    # ann 8 8 splits: 8 3 takes a 10 (21), 8 2 takes a 9 (19); bob 5 6 doubles on a 9
    # (20); the dealer 10 8 (18)
    top = ["8S", "5S", "10H", "8H", "6S", "8D", "3C", "10C", "2D", "9D", "9S"]
    bets = {"ann": 10, "bob": 10}
    steps = {
        "ann": [[(K.SPLIT, None)], DOUBLE_ELSE_HIT, DOUBLE_ELSE_HIT],
        "bob": [DOUBLE_ELSE_HIT],
    }
    got = settle(BlackjackRules(double_after_split=das), top, bets, steps)
    assert got == {"ann": ann, "bob": 20}


# ------------------------------------------------------------------ BJ-SPLIT-1
@pytest.mark.rule("BJ-SPLIT-1")
@pytest.mark.parametrize(("max_hands", "ann"), [(2, -20), (3, 10), (4, 40)])
def test_bj_split_1_max_hands_changes_how_many_hands_a_seat_plays(max_hands: int, ann: int) -> None:
    # ann 8 8 splits whenever she may, then stands; her hands draw 8, 8, then tens;
    # bob 10 9 (19) stands; the dealer 10 7 (17)
    top = ["8S", "10S", "10H", "8H", "9S", "7C", "8C", "8D", "10D", "10H", "10C", "10S"]
    bets = {"ann": 10, "bob": 10}
    steps = {"ann": [SPLIT_ELSE_STAND] * 6}
    got = settle(BlackjackRules(max_hands=max_hands), top, bets, steps)
    assert got == {"ann": ann, "bob": 10}


@pytest.mark.rule("BJ-SPLIT-1")
@pytest.mark.parametrize(("resplit", "ann"), [(False, 0), (True, 30)])
def test_bj_split_1_resplit_aces_changes_only_an_ace_on_a_split_ace(
    resplit: bool, ann: int
) -> None:
    # ann A A splits, her first ace draws an ace, then nines; the dealer 10 8 (18)
    top = ["AS", "10D", "AH", "8C", "AC", "9D", "9H", "9C"]
    steps = {"ann": [SPLIT_ELSE_STAND, SPLIT_ELSE_STAND]}
    got = settle(BlackjackRules(resplit_aces=resplit), top, {"ann": 10}, steps)
    assert got == {"ann": ann}


# ------------------------------------------------------------------ BJ-PEEK-1, BJ-NHC-1
# ann 6 5 doubles (a 10: 21); bob 8 8 splits (each takes a 10: 18, 18); cat A K; dan
# 10 2 doubles (a 10: bust). The dealer 10 up, then an ace or a 9.
PLAYERS = {"ann": 10, "bob": 10, "cat": 10, "dan": 10}
STEPS = {
    "ann": [[(K.DOUBLE, None)]],
    "bob": [[(K.SPLIT, None)]],
    "dan": [[(K.DOUBLE, None)]],
}


FIRST = ["6S", "8S", "AS", "10S", "10D", "5H", "8H", "KS", "2H"]  # casino order
DRAWN = ["10C", "10H", "10C", "10S"]  # ann's double, bob's two hands, dan's double


def peek_top(second: str) -> list[str]:
    """The dealer's second card is the hole card, dealt before the players draw."""
    return [*FIRST, second, *DRAWN]


def no_peek_top(second: str) -> list[str]:
    """The same cards to everyone, the dealer's second one dealt after the players."""
    return [*FIRST, *DRAWN, second]


@pytest.mark.rule("BJ-PEEK-1", "BJ-NHC-1")
def test_bj_peek_1_and_nhc_1_a_dealer_blackjack_with_and_without_the_peek() -> None:
    # with the peek the round ends before anyone plays: every bet lost, cat pushes
    peek = settle(BlackjackRules(), peek_top("AD"), PLAYERS, STEPS)
    assert peek == {"ann": -10, "bob": -10, "cat": 0, "dan": -10}
    # without it they play first: the dealer's blackjack takes only the first bets (ann's
    # double and bob's second hand come back); dan's double bust before, lost at once
    no_peek = settle(BlackjackRules(peek=False), no_peek_top("AD"), PLAYERS, STEPS)
    assert no_peek == {"ann": -10, "bob": -10, "cat": 0, "dan": -20}


@pytest.mark.rule("BJ-PEEK-1", "BJ-NHC-1", "BJ-NAT-1")
def test_bj_peek_1_without_a_dealer_blackjack_the_peek_changes_nothing() -> None:
    # the dealer 10 9 (19): ann 21 doubled wins 20, bob's 18s lose, cat paid 3:2, dan bust
    want = {"ann": 20, "bob": -20, "cat": 15, "dan": -20}
    assert settle(BlackjackRules(), peek_top("9D"), PLAYERS, STEPS) == want
    assert settle(BlackjackRules(peek=False), no_peek_top("9D"), PLAYERS, STEPS) == want


# ------------------------------------------------------------------ BJ-INS-1
@pytest.mark.rule("BJ-INS-1")
@pytest.mark.parametrize(
    ("hole", "on", "off"),
    [
        ("KC", {"ann": 0, "bob": -10}, {"ann": -10, "bob": -10}),  # insurance pays 2:1
        ("7C", {"ann": 5, "bob": 10}, {"ann": 10, "bob": 10}),  # insurance lost
    ],
)
def test_bj_ins_1_the_insurance_option_changes_only_the_insured_seat(
    hole: str, on: dict[str, int], off: dict[str, int]
) -> None:
    # ann 10 9 insures 5, bob 10 10 declines; the dealer A up, then a K or a 7 (18)
    top = ["10S", "10H", "AD", "9S", "10D", hole]
    bets = {"ann": 10, "bob": 10}
    steps = {"ann": [[(K.INSURANCE, 5)]]}
    assert settle(BlackjackRules(), top, bets, steps) == on
    assert settle(BlackjackRules(insurance=False), top, bets, {}) == off


@pytest.mark.rule("BJ-INS-1", "BJ-NHC-1")
def test_bj_ins_1_without_a_peek_insurance_waits_for_the_dealers_second_card() -> None:
    # ann 10 9 insures 5 and stands; the dealer A up, K after the players
    top = ["10S", "AD", "9S", "KC"]
    rules = BlackjackRules(peek=False)
    assert settle(rules, top, {"ann": 10}, {"ann": [[(K.INSURANCE, 5)]]}) == {"ann": 0}
    top = ["10S", "AD", "9S", "7C"]  # A 7: soft 18, ann's 19 wins; the insurance is lost
    assert settle(rules, top, {"ann": 10}, {"ann": [[(K.INSURANCE, 5)]]}) == {"ann": 5}


# ------------------------------------------------------------------ BJ-TABLE-2
@pytest.mark.rule("BJ-TABLE-2", "BJ-SETTLE-1")
@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_bj_table_2_the_number_of_decks_changes_no_settlement(decks: int) -> None:
    # ann 10 8, bob 10 7, cat 10 10 against 9 8 (17): the same at any number of decks
    top = ["10S", "10H", "10D", "9C", "8S", "7H", "10C", "8D"]
    got = settle(BlackjackRules(decks=decks), top, {"ann": 10, "bob": 10, "cat": 10})
    assert got == {"ann": 10, "bob": 0, "cat": 10}


@pytest.mark.rule("BJ-TABLE-2")
@pytest.mark.parametrize(("penetration", "cut"), [(50, 26), (75, 39), (90, 46)])
def test_bj_table_2_the_shoe_is_reshuffled_once_the_cut_is_passed(
    penetration: int, cut: int
) -> None:
    """One deck, one seat standing on its two cards: the shoe is shuffled before the
    first round, then before the first round dealt once ``cut`` cards are gone (and not
    a round earlier)."""
    game = Game(rules=BlackjackRules(decks=1, penetration=penetration, insurance=False))
    assert game.rules.cut_after == cut
    dealt_before: list[int] = []
    shuffled: list[int] = []
    for n in range(12):
        dealt_before.append(game.table.shoe.dealt)
        out = game.round({"ann": 1})
        if any(e.kind is EventKind.SHUFFLED for e in out.events):
            shuffled.append(n)
        while game.table.phase is not Phase.ROUND_OVER:
            game.act("ann", K.STAND)
    assert shuffled[0] == 0 and len(shuffled) >= 2
    second = shuffled[1]
    assert dealt_before[second] >= cut > dealt_before[second - 1]
