"""Which of the table message's seating and betting buttons it shows, and what each
button carries (rules: BJ-TABLE-1 seven seats, BJ-BET-1 bets between rounds, BJ-INS-1):
Join only while a seat is free and bets are open, Leave while someone is out of the
round, Bet and Same bet between rounds, and the moves' buttons carrying the table's
version while the betting ones carry the round."""

from __future__ import annotations

import random

import pytest

from bot.blackjack import OpenBlackjackTable
from cogs.blackjack.controls import BlackjackButton, offered, table_rows
from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Phase
from engine.cards import RandomChance
from tests.engine.blackjack.cases_bj import ANN, CASES, build, shoe_of

K = ActionKind


def live_of(table: BlackjackTable) -> OpenBlackjackTable:
    return OpenBlackjackTable("ab12", 1, 2, 3, table, 30.0, 45.0)


def ids(live: OpenBlackjackTable, closed: bool = False) -> dict[str, str]:
    out: dict[str, str] = {}
    rows = table_rows(live, closed=True) if closed else table_rows(live)  # open: the default
    for row in rows:
        for item in row.children:
            assert isinstance(item, BlackjackButton)
            match = BlackjackButton.pattern.fullmatch(item.item.custom_id or "")
            assert match is not None
            out[match["act"]] = match["number"]
    return out


@pytest.mark.rule("BJ-TABLE-1")
def test_join_only_while_a_seat_is_free_and_bets_are_open() -> None:
    table = BlackjackTable()
    live = live_of(table)
    assert offered(live) == {"join"}  # an empty table: nobody to bet or leave
    for n in range(6):
        table.apply(Action(str(100 + n), K.JOIN))
    assert offered(live) == {"join", "leave", "bet"}  # six seats: one free
    table.apply(Action("106", K.JOIN))
    assert offered(live) == {"leave", "bet"}  # seven: full
    assert set(ids(live)) == {"leave", "bet"} and ids(live, closed=True) == {}


@pytest.mark.rule("BJ-BET-1", "BJ-TABLE-1")
def test_bet_same_and_leave_between_rounds_only() -> None:
    # 101 plays 10 9 against 6 10 and stands; 102 sits the round out
    table = BlackjackTable(BlackjackRules(), shoe_of(BlackjackRules(), ["10S", "6D", "9H", "10C"]))
    live = live_of(table)
    luck = RandomChance(random.Random(3))
    for seat in ("101", "102"):
        table.apply(Action(seat, K.JOIN))
    table.apply(Action("101", K.BET, 10))
    assert offered(live) == {"join", "leave", "bet"}  # no last round: no Same bet
    table.apply(Action(DEALER, K.DEAL), luck)
    assert table.phase is Phase.PLAYING
    # 102 sits out the round: it may leave; nobody may bet or sit down now
    assert offered(live) == {"leave", "hit", "stand", "double", "hint"}
    table.apply(Action("101", K.STAND), luck)
    assert table.phase is Phase.ROUND_OVER
    # between rounds: a bet, the same bet as last round, a seat to take, leaving
    assert offered(live) == {"join", "leave", "bet", "same"}
    numbers = ids(live)
    assert numbers["bet"] == numbers["same"] == numbers["join"] == str(live.round) == "2"


@pytest.mark.rule("BJ-TABLE-1")
def test_nobody_may_leave_while_every_seat_plays() -> None:
    (c,) = [c for c in CASES if c.id == "BJ-DOUBLE-1:first two cards"]
    table, _ = build(c)
    live = live_of(table)
    assert table.to_act() == [ANN] and "leave" not in offered(live)
    numbers = ids(live)
    # the moves carry the table's version (a second click on the same state is stale);
    # the hint too
    assert numbers["hit"] == numbers["double"] == numbers["hint"] == str(table.version)


@pytest.mark.rule("BJ-INS-1")
def test_insurance_buttons_carry_the_round() -> None:
    (c,) = [c for c in CASES if c.id == "BJ-INS-1:an ace up"]
    table, _ = build(c)
    live = live_of(table)
    numbers = ids(live)
    assert numbers["insurance"] == numbers["noinsurance"] == str(live.round) == "1"
    assert numbers["hint"] == str(table.version)


@pytest.mark.rule("BJ-BET-1", "BJ-INS-1")
def test_the_amount_form_asks_for_a_required_short_whole_number() -> None:
    from cogs.blackjack.controls import AmountForm

    form = AmountForm("ab12", "insurance", 1, 5, 5)
    (field,) = form.children
    assert field.required is True and field.max_length == 12  # type: ignore[attr-defined]
    assert field.default == "5"  # type: ignore[attr-defined]
