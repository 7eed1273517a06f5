"""Edges of the table's checks and changes (B-BET-1, B-TABLE-1) and of its stored
state, each one a wrong rule that the mutation run (scripts/mutate.py) showed no other
test would notice."""

from __future__ import annotations

import random

import pytest

from engine.cards import RandomChance
from engine.punto_banco import (
    CROUPIER,
    ESCROW,
    Action,
    ActionKind,
    EventKind,
    PuntoBancoRules,
    PuntoBancoTable,
    Side,
    Transfer,
)


@pytest.mark.rule("B-TABLE-1")
@pytest.mark.parametrize("actor", [CROUPIER, "@house", "@escrow", ""])
def test_B_TABLE_1_the_croupier_and_the_house_accounts_cannot_bet(actor: str) -> None:
    """B-TABLE-1: the croupier runs the game, players bet; an account name starting with
    "@" (the croupier, the house, the escrow) or an empty name is no bettor, and a bet by
    it changes nothing."""
    table = PuntoBancoTable(PuntoBancoRules())
    action = Action(actor, ActionKind.BET, Side.BANCO, 10)
    err = table.why_not(action)
    assert err is not None and err.rule == "B-BET-1"
    before = table.to_json()
    with pytest.raises(type(err)):
        table.apply(action)
    assert table.to_json() == before


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize("actor", ["a@b", "x@", "ann"])
def test_B_BET_1_a_bettor_whose_name_holds_an_at_sign_later_on_may_bet(actor: str) -> None:
    """B-BET-1: only a leading "@" marks an account of the table; a player's name with an
    "@" further on is a bettor like any other."""
    table = PuntoBancoTable(PuntoBancoRules())
    action = Action(actor, ActionKind.BET, Side.PUNTO, 10)
    assert table.why_not(action) is None
    assert table.apply(action).transfers == [Transfer(actor, ESCROW, 10, "punto bet")]


@pytest.mark.rule("B-BET-1")
def test_B_BET_1_a_bet_by_the_side_s_name_is_placed_on_that_side() -> None:
    """B-BET-1: the check accepts a side by its name ("banco"); the bet is then placed on
    that side, not refused or mistaken for another."""
    table = PuntoBancoTable(PuntoBancoRules())
    action = Action("ann", ActionKind.BET, "banco", 20)  # type: ignore[arg-type]
    assert table.why_not(action) is None
    out = table.apply(action)
    assert out.events == [(EventKind.BET, "ann", Side.BANCO, 20)]
    assert out.events[0].side is Side.BANCO
    assert [(b.side, b.amount) for b in table.bets_of("ann")] == [(Side.BANCO, 20)]


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize(("start", "to", "moved"), [(20, 21, 1), (20, 19, -1), (20, 30, 10)])
def test_B_BET_1_a_bet_raised_or_lowered_by_one_chip_moves_that_chip(
    start: int, to: int, moved: int
) -> None:
    """B-BET-1: raising or lowering a bet moves exactly the difference between the bettor
    and the escrow, one chip included."""
    table = PuntoBancoTable(PuntoBancoRules())
    table.place_bet("ann", Side.BANCO, start)
    transfers = table.place_bet("ann", Side.BANCO, to)
    if moved > 0:
        assert transfers == [Transfer("ann", ESCROW, moved, "banco bet raised")]
    else:
        assert transfers == [Transfer(ESCROW, "ann", -moved, "banco bet lowered")]
    assert table.escrow == to


@pytest.mark.rule("B-BET-1")
def test_B_BET_1_leaving_a_bet_in_place_costs_only_what_is_missing_on_that_side() -> None:
    """B-BET-1 (leave a bet in place): a repeat sets each side back to the last coup's
    stake; with part of it already on the side, the bettor needs only the rest."""
    table = PuntoBancoTable(PuntoBancoRules())
    table.place_bet("ann", Side.BANCO, 50)
    table.deal(RandomChance(random.Random(5)))
    table.place_bet("ann", Side.BANCO, 30)
    # 20 chips are missing on Banco: a balance of 20 covers them, 19 does not
    assert table.why_not(Action("ann", ActionKind.REPEAT, balance=20)) is None
    err = table.why_not(Action("ann", ActionKind.REPEAT, balance=19))
    assert err is not None and err.key == "engine.pb.only"
    assert table.repeat_bets("ann", balance=20) == [Transfer("ann", ESCROW, 20, "banco bet raised")]
    assert table.escrow == 50


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize(
    ("last", "key"),
    [
        ([("punto", 500)], "engine.pb.max"),
        ([("punto", 10), ("banco", 500)], "engine.pb.max"),
        ([("banco", 2), ("punto", 10)], "engine.pb.min"),
    ],
)
def test_B_BET_1_a_repeat_outside_the_table_s_limits_is_refused(
    last: list[tuple[str, int]], key: str
) -> None:
    """B-BET-1: a repeated bet is checked against the table's limits like a new one; a
    stored last bet outside them (any of them, not only the first) is refused and the
    table is unchanged."""
    state = PuntoBancoTable(PuntoBancoRules(min_bet=5, max_bet=100)).to_json()
    state["last_bets"] = [{"bettor": "ann", "side": s, "amount": a} for s, a in last]
    table = PuntoBancoTable.from_json(state)
    err = table.why_not(Action("ann", ActionKind.REPEAT))
    assert err is not None and err.key == key
    with pytest.raises(type(err)):
        table.repeat_bets("ann")
    assert table.to_json() == state


@pytest.mark.rule("B-TABLE-1")
def test_B_TABLE_1_a_state_stored_in_format_1_still_loads() -> None:
    """A table is stored between coups (and across restarts); the stored format is 1, and
    a state written in format 1 loads, while an unknown format is refused."""
    table = PuntoBancoTable(PuntoBancoRules())
    table.place_bet("ann", Side.PUNTO, 10)
    state = table.to_json()
    assert state["format"] == 1
    written_earlier = {**state, "format": 1}
    assert PuntoBancoTable.from_json(written_earlier).to_json() == state
