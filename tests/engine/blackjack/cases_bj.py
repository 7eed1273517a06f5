"""Every Blackjack rule that says when a move is allowed, as stacked rounds: for each
move, a state where the rules allow it and states where they do not (after a hit, after
a split, on a later hand, out of turn, at a table without the option).

Shared by the engine's refusal tests (tests/engine/blackjack/test_bj_moves_both_sides.py:
``legal_actions`` and ``apply``) and the table message's (tests/bot/
test_blackjack_buttons_both_sides.py: the button is shown or not). Self-contained (engine
imports only), so both test folders can import it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Shoe
from engine.cards import RandomChance, full_pack, parse_card

K = ActionKind
Move = tuple[str, ActionKind, int | None] | tuple[str, ActionKind]
ANN, BOB = "101", "102"  # member seats (the table message names them as members)

LATE = BlackjackRules(surrender="late")
NO_PEEK = BlackjackRules(peek=False)


def one(p1: str, p2: str, up: str = "6D", hole: str | None = "10C", *draws: str) -> list[str]:
    """The top of the shoe for one seat: its two cards, the dealer's up card and hole card
    (none: the no-hole-card game), then the cards drawn after the deal, in order."""
    return [p1, up, p2, *([hole] if hole else []), *draws]


def two(a: tuple[str, str], b: tuple[str, str], up: str = "6D", hole: str = "10C") -> list[str]:
    """The top of the shoe for two seats (casino order), each with two cards."""
    return [a[0], b[0], up, a[1], b[1], hole]


@dataclass(frozen=True)
class MoveCase:
    """A stacked round played up to one move, and what the rules say of that move.

    ``offered``: the move is in ``legal_actions`` for ``actor`` (its amount aside);
    ``refusal``: the key ``apply`` refuses it with (None: it is allowed); ``shown``: the
    table message shows the move's button although someone else is to act (None: it
    shows it as ``offered`` says when the actor or nobody is to act, and is not checked
    when another member is: the button is there for their move)."""

    rule: str
    name: str
    top: tuple[str, ...]
    move: tuple[str, ActionKind, int | None]
    offered: bool
    refusal: str | None
    rules: BlackjackRules = field(default_factory=BlackjackRules)
    before: tuple[tuple[str, ActionKind, int | None], ...] = ()
    bets: tuple[tuple[str, int], ...] = ((ANN, 10),)
    chips: int = 100
    shown: bool | None = None

    @property
    def id(self) -> str:
        return f"{self.rule}:{self.name}"


def case(
    rule: str,
    name: str,
    top: Sequence[str],
    move: Move,
    refusal: str | None = None,
    *,
    offered: bool | None = None,
    shown: bool | None = None,
    rules: BlackjackRules | None = None,
    before: Sequence[Move] = (),
    bets: dict[str, int] | None = None,
    chips: int = 100,
) -> MoveCase:
    """A case; ``offered`` defaults to "allowed" (a refused amount is still offered)."""

    def full(m: Move) -> tuple[str, ActionKind, int | None]:
        return (m[0], m[1], m[2]) if len(m) == 3 else (m[0], m[1], None)

    return MoveCase(
        rule,
        name,
        tuple(top),
        full(move),
        refusal is None if offered is None else offered,
        refusal,
        rules or BlackjackRules(),
        tuple(full(m) for m in before),
        tuple((bets or {ANN: 10}).items()),
        chips,
        shown,
    )


def shoe_of(rules: BlackjackRules, top: Sequence[str]) -> Shoe:
    """A shoe whose top cards are ``top`` (top first), then the rest in new-deck order."""
    cards = [parse_card(x) for x in top]
    rest = full_pack(rules.decks)
    for card in cards:
        rest.remove(card)
    return Shoe(rules.decks, cards + rest)


def build(c: MoveCase) -> tuple[BlackjackTable, dict[str, int]]:
    """The case's table played up to its move, and each seat's chips outside it."""
    table = BlackjackTable(c.rules, shoe_of(c.rules, c.top))
    luck = RandomChance(random.Random(0))
    chips: dict[str, int] = {}
    for seat, _ in c.bets:
        table.apply(Action(seat, K.JOIN))
        chips[seat] = c.chips
    moves = [(seat, K.BET, amount) for seat, amount in c.bets]
    for seat, kind, amount in [*moves, (DEALER, K.DEAL, None), *c.before]:
        out = table.apply(Action(seat, kind, amount, chips.get(seat)), luck)
        for t in out.transfers:
            if t.src in chips:
                chips[t.src] -= t.amount
            if t.dst in chips:
                chips[t.dst] += t.amount
    return table, chips


D, S, SP, H = K.DOUBLE, K.SPLIT, K.SURRENDER, K.HIT
SPLIT_8S = one("8S", "8H", "6D", "10C", "3C", "2D")  # hand 1: 8 3 (11), hand 2: 8 2 (10)

CASES: list[MoveCase] = [
    # ---------------------------------------------------------------- BJ-DOUBLE-1
    case("BJ-DOUBLE-1", "first two cards", one("5S", "6H"), (ANN, D)),
    case("BJ-DOUBLE-1", "soft 18 at any total", one("AS", "7H"), (ANN, D)),
    case(
        "BJ-DOUBLE-1",
        "after a hit",
        one("2S", "3H", "6D", "10C", "4C"),
        (ANN, D),
        "engine.bj.double_two",
        before=[(ANN, H)],
    ),
    case("BJ-DOUBLE-1", "for the whole bet", one("5S", "6H"), (ANN, D, 10)),
    case("BJ-DOUBLE-1", "for one chip", one("5S", "6H"), (ANN, D, 1)),
    case("BJ-DOUBLE-1", "a bet of one chip", one("5S", "6H"), (ANN, D), bets={ANN: 1}),
    case(
        "BJ-DOUBLE-1",
        "for more than the bet",
        one("5S", "6H"),
        (ANN, D, 11),
        "engine.bj.double_range",
        offered=True,
    ),
    case(
        "BJ-DOUBLE-1",
        "for nothing",
        one("5S", "6H"),
        (ANN, D, 0),
        "engine.bj.double_range",
        offered=True,
    ),
    case(
        "BJ-DOUBLE-1",
        "9-11 on hard 9",
        one("4S", "5H"),
        (ANN, D),
        rules=BlackjackRules(double_on="9-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "9-11 on hard 11",
        one("5S", "6H"),
        (ANN, D),
        rules=BlackjackRules(double_on="9-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "9-11 on hard 8",
        one("3S", "5H"),
        (ANN, D),
        "engine.bj.double_on",
        rules=BlackjackRules(double_on="9-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "9-11 on hard 12",
        one("5S", "7H"),
        (ANN, D),
        "engine.bj.double_on",
        rules=BlackjackRules(double_on="9-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "9-11 on soft 18",
        one("AS", "7H"),
        (ANN, D),
        "engine.bj.double_on",
        rules=BlackjackRules(double_on="9-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "10-11 on hard 9",
        one("4S", "5H"),
        (ANN, D),
        "engine.bj.double_on",
        rules=BlackjackRules(double_on="10-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "10-11 on hard 10",
        one("4S", "6H"),
        (ANN, D),
        rules=BlackjackRules(double_on="10-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "10-11 on hard 11",
        one("5S", "6H"),
        (ANN, D),
        rules=BlackjackRules(double_on="10-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "10-11 on hard 12",
        one("4S", "8H"),
        (ANN, D),
        "engine.bj.double_on",
        rules=BlackjackRules(double_on="10-11"),
    ),
    case(
        "BJ-DOUBLE-1",
        "out of turn",
        two(("5S", "6H"), ("4S", "6C")),
        (BOB, D),
        "engine.bj.not_your_turn",
        bets={ANN: 10, BOB: 10},
    ),
    case(
        "BJ-DOUBLE-1",
        "after doubling, on the next seat's turn",
        [*two(("5S", "6H"), ("4S", "6C")), "2C"],
        (ANN, D),
        "engine.bj.hands_done",
        bets={ANN: 10, BOB: 10},
        before=[(ANN, D)],
    ),
    # ---------------------------------------------------------------- BJ-SPLIT-1
    case("BJ-SPLIT-1", "a pair", one("8S", "8H"), (ANN, S)),
    case("BJ-SPLIT-1", "a king and a queen", one("KS", "QH"), (ANN, S), "engine.bj.split_pair"),
    case("BJ-SPLIT-1", "two tens", one("10S", "10H"), (ANN, S)),
    case(
        "BJ-SPLIT-1",
        "a pair after a hit",
        one("2S", "2H", "6D", "10C", "2C"),
        (ANN, S),
        "engine.bj.split_pair",
        before=[(ANN, H)],
    ),
    case("BJ-SPLIT-1", "a hit after a split", SPLIT_8S, (ANN, H), before=[(ANN, S)]),
    case("BJ-SPLIT-1", "double after a split", SPLIT_8S, (ANN, D), before=[(ANN, S)]),
    case(
        "BJ-SPLIT-1",
        "double after a split, the table without it",
        SPLIT_8S,
        (ANN, D),
        "engine.bj.no_das",
        rules=BlackjackRules(double_after_split=False),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "double on the later hand of a split",
        SPLIT_8S,
        (ANN, D),
        before=[(ANN, S), (ANN, K.STAND)],
    ),
    case(
        "BJ-SPLIT-1",
        "double on the later hand, the table without it",
        SPLIT_8S,
        (ANN, D),
        "engine.bj.no_das",
        rules=BlackjackRules(double_after_split=False),
        before=[(ANN, S), (ANN, K.STAND)],
    ),
    case(
        "BJ-SPLIT-1",
        "a resplit to three hands",
        one("8S", "8H", "6D", "10C", "8C"),
        (ANN, S),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "a resplit at two hands most",
        one("8S", "8H", "6D", "10C", "8C"),
        (ANN, S),
        "engine.bj.max_hands",
        rules=BlackjackRules(max_hands=2),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "a resplit to four hands",
        one("8S", "8H", "6D", "10C", "8C", "8D"),
        (ANN, S),
        before=[(ANN, S), (ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "a resplit at three hands most",
        one("8S", "8H", "6D", "10C", "8C", "8D"),
        (ANN, S),
        "engine.bj.max_hands",
        rules=BlackjackRules(max_hands=3),
        before=[(ANN, S), (ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "a fifth hand",
        one("8S", "8H", "6D", "10C", "8C", "8D", "8S"),
        (ANN, S),
        "engine.bj.max_hands",
        before=[(ANN, S), (ANN, S), (ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "a resplit on the later hand",
        one("8S", "8H", "6D", "10C", "10D", "8D"),
        (ANN, S),
        before=[(ANN, S), (ANN, K.STAND)],
    ),
    case(
        "BJ-SPLIT-1",
        "split aces are not split again",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, S),
        "engine.bj.no_turn",
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "split aces split again where the table allows it",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, S),
        rules=BlackjackRules(resplit_aces=True),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "split aces stand",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, K.STAND),
        rules=BlackjackRules(resplit_aces=True),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "no hit on split aces",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, H),
        "engine.bj.split_aces",
        rules=BlackjackRules(resplit_aces=True),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "no double on split aces",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, D),
        "engine.bj.split_aces",
        rules=BlackjackRules(resplit_aces=True),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "split aces split again on the later hand",
        one("AS", "AH", "6D", "10C", "5C", "AD"),
        (ANN, S),
        rules=BlackjackRules(resplit_aces=True),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "split aces at the most hands",
        one("AS", "AH", "6D", "10C", "AC", "AD"),
        (ANN, S),
        "engine.bj.no_turn",
        rules=BlackjackRules(resplit_aces=True, max_hands=2),
        before=[(ANN, S)],
    ),
    case(
        "BJ-SPLIT-1",
        "out of turn",
        two(("5S", "6H"), ("8S", "8C")),
        (BOB, S),
        "engine.bj.not_your_turn",
        bets={ANN: 10, BOB: 10},
    ),
    case(
        "BJ-CHIPS-1",
        "a split without the chips",
        one("8S", "8H"),
        (ANN, S),
        "engine.bj.chips_split",
        offered=True,
        chips=19,
    ),
    case("BJ-CHIPS-1", "a split with just the chips", one("8S", "8H"), (ANN, S), chips=20),
    case(
        "BJ-CHIPS-1",
        "a double without the chips",
        one("5S", "6H"),
        (ANN, D),
        "engine.bj.chips_double",
        offered=True,
        chips=19,
    ),
    case("BJ-CHIPS-1", "a double with just the chips", one("5S", "6H"), (ANN, D), chips=20),
    # ---------------------------------------------------------------- BJ-SURR-1
    case("BJ-SURR-1", "the first two cards", one("10S", "6H", "10D", "7C"), (ANN, SP), rules=LATE),
    case(
        "BJ-SURR-1",
        "the table without it",
        one("10S", "6H", "10D", "7C"),
        (ANN, SP),
        "engine.bj.no_surrender",
    ),
    case(
        "BJ-SURR-1",
        "the no-hole-card game",
        one("10S", "6H", "10D", None),
        (ANN, SP),
        "engine.bj.no_surrender",
        rules=BlackjackRules(surrender="late", peek=False),
    ),
    case(
        "BJ-SURR-1",
        "after a hit",
        one("10S", "2H", "10D", "7C", "3C"),
        (ANN, SP),
        "engine.bj.surrender_two",
        rules=LATE,
        before=[(ANN, H)],
    ),
    case(
        "BJ-SURR-1",
        "after a split",
        one("8S", "8H", "10D", "7C", "3C", "2D"),
        (ANN, SP),
        "engine.bj.surrender_two",
        rules=LATE,
        before=[(ANN, S)],
    ),
    case(
        "BJ-SURR-1",
        "the later hand of a split",
        one("8S", "8H", "10D", "7C", "3C", "2D"),
        (ANN, SP),
        "engine.bj.surrender_two",
        rules=LATE,
        before=[(ANN, S), (ANN, K.STAND)],
    ),
    case(
        "BJ-SURR-1",
        "the next seat's only hand",
        two(("10S", "9H"), ("10H", "6C"), "10D", "7C"),
        (BOB, SP),
        rules=LATE,
        bets={ANN: 10, BOB: 10},
        before=[(ANN, K.STAND)],
    ),
    case(
        "BJ-SURR-1",
        "against an ace, after insurance",
        one("10S", "6H", "AD", "7C"),
        (ANN, SP),
        rules=LATE,
        before=[(ANN, K.INSURANCE, 0)],
    ),
    case(
        "BJ-SURR-1",
        "before the peek",
        one("10S", "6H", "AD", "7C"),
        (ANN, SP),
        "engine.bj.no_turn",
        rules=LATE,
    ),
    # ---------------------------------------------------------------- BJ-INS-1
    case("BJ-INS-1", "an ace up", one("10S", "9H", "AD", "7C"), (ANN, K.INSURANCE, 5)),
    case("BJ-INS-1", "declined", one("10S", "9H", "AD", "7C"), (ANN, K.INSURANCE, 0)),
    case(
        "BJ-INS-1",
        "more than half the bet",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 6),
        "engine.bj.insurance_range",
        offered=True,
    ),
    case(
        "BJ-INS-1",
        "a ten up",
        one("10S", "9H", "10D", "7C"),
        (ANN, K.INSURANCE, 5),
        "engine.bj.no_insurance",
    ),
    case(
        "BJ-INS-1",
        "the table without it",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 5),
        "engine.bj.no_insurance",
        rules=BlackjackRules(insurance=False),
    ),
    case(
        "BJ-INS-1",
        "answered already",
        two(("10S", "9H"), ("10H", "8C"), "AD", "7C"),
        (ANN, K.INSURANCE, 5),
        "engine.bj.no_insurance",
        shown=True,  # the other seat is still asked
        bets={ANN: 10, BOB: 10},
        before=[(ANN, K.INSURANCE, 0)],
    ),
    case(
        "BJ-INS-1",
        "after the peek",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 5),
        "engine.bj.no_insurance",
        before=[(ANN, K.INSURANCE, 0)],
    ),
    case(
        "BJ-INS-1",
        "a bet of one chip",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 0),
        "engine.bj.no_insurance",
        bets={ANN: 1},
    ),
    case(
        "BJ-INS-1",
        "a bet of two chips",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 1),
        bets={ANN: 2},
    ),
    case(
        "BJ-INS-1",
        "a bet of one chip beside a seat that is asked",
        two(("10S", "9H"), ("10H", "8C"), "AD", "7C"),
        (ANN, K.INSURANCE, 0),
        "engine.bj.no_insurance",
        shown=True,
        bets={ANN: 1, BOB: 10},
    ),
    case(
        "BJ-INS-1",
        "the no-hole-card game",
        one("10S", "9H", "AD", None),
        (ANN, K.INSURANCE, 5),
        rules=NO_PEEK,
    ),
    case(
        "BJ-CHIPS-1",
        "insurance without the chips",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 3),
        "engine.bj.only_chips",
        offered=True,
        chips=12,
    ),
    case(
        "BJ-CHIPS-1",
        "insurance with just the chips",
        one("10S", "9H", "AD", "7C"),
        (ANN, K.INSURANCE, 2),
        chips=12,
    ),
    # ---------------------------------------------------------------- BJ-HIT-1, BJ-STAND-1
    case("BJ-HIT-1", "two cards", one("10S", "2H"), (ANN, H)),
    case(
        "BJ-HIT-1", "after a hit", one("2S", "3H", "6D", "10C", "4C"), (ANN, H), before=[(ANN, H)]
    ),
    case(
        "BJ-HIT-1",
        "while insurance is asked",
        one("10S", "2H", "AD", "7C"),
        (ANN, H),
        "engine.bj.no_turn",
    ),
    case(
        "BJ-HIT-1",
        "out of turn",
        two(("10S", "2H"), ("10H", "3C")),
        (BOB, H),
        "engine.bj.not_your_turn",
        bets={ANN: 10, BOB: 10},
    ),
    case(
        "BJ-STAND-1",
        "after standing",
        two(("10S", "2H"), ("10H", "3C")),
        (ANN, H),
        "engine.bj.hands_done",
        bets={ANN: 10, BOB: 10},
        before=[(ANN, K.STAND)],
    ),
    case(
        "BJ-STAND-1",
        "a hand at 21 stands by itself",
        [*two(("10S", "5H"), ("10H", "3C")), "6C"],
        (ANN, K.STAND),
        "engine.bj.hands_done",
        bets={ANN: 10, BOB: 10},
        before=[(ANN, H)],
    ),
    case(
        "BJ-VAL-2",
        "a blackjack does not play",
        two(("AS", "KH"), ("10H", "3C")),
        (ANN, K.STAND),
        "engine.bj.hands_done",
        bets={ANN: 10, BOB: 10},
    ),
]
