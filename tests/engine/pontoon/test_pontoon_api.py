"""The API contract (engine/pontoon/API.md): snapshots, versions, views, timeouts,
legal actions as buttons, abandon."""

from __future__ import annotations

import json

import pytest
from pontoon_helpers import CH, ESCROW, KITTY, E, K, act, stack, table, total_chips

from engine.errors import RuleError
from engine.pontoon import (
    Action,
    HandStatus,
    LegalAction,
    Phase,
    PontoonRules,
    Table,
)


def mid_round() -> Table:
    t = table(
        stack([("8S", "8D"), ("JC", "7C")], ("10H", "8H"), draws=("3C", "9C", "2D", "5S")),
        shoot=False,
        burn="13",
    )
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 4)
    act(t, "ann", K.SPLIT)
    return t


def test_snapshot_round_trip_mid_round_continues_identically() -> None:
    t = mid_round()
    doc = json.loads(json.dumps(t.to_json()))
    u = Table.from_json(doc)
    assert u.to_json() == t.to_json()
    for tab in (t, u):
        act(tab, "ann", K.TWIST)
        act(tab, "ann", K.TWIST)
        act(tab, "ann", K.STICK)
    outs = [act(tab, "ann", K.STICK) for tab in (t, u)]
    assert outs[0] == outs[1]
    assert t.to_json() == u.to_json()
    assert t.public_view() == u.public_view()


def test_version_counts_successful_applies_only() -> None:
    t = table()
    v = t.version
    act(t, "ann", K.BET, 2)
    assert t.version == v + 1
    with pytest.raises(RuleError):
        act(t, "ann", K.BET, 2)
    assert t.version == v + 1


def test_legal_actions_are_buttons() -> None:
    t = table(min_bet=2, max_bet=8)
    assert t.legal_actions("ann") == [LegalAction(K.BET, 2, 8), LegalAction(K.SIT_OUT)]
    assert t.legal_actions("cat") == []
    assert t.to_act() == ["ann", "bob"]
    t = mid_round()
    kinds = [la.kind for la in t.legal_actions("ann")]
    assert kinds == [K.TWIST, K.BUY]  # 8+3 = 11: no stick yet
    assert t.legal_actions("bob") == []
    assert t.turn == ("ann", 0)


def test_timeout_actions() -> None:
    t = table()
    assert t.timeout_action("ann") == Action("ann", K.SIT_OUT)
    assert t.timeout_action("cat") is None
    t = mid_round()
    assert t.timeout_action("ann") == Action("ann", K.TWIST)
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.timeout_action("ann") == Action("ann", K.DECLARE)
    act(t, "ann", K.DECLARE)
    assert t.timeout_action("bob") == Action("bob", K.STICK)
    act(t, "bob", K.STICK)
    assert t.timeout_action("cat") == Action("cat", K.STICK)
    t = table(banker_doubles=True)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.timeout_action("cat") == Action("cat", K.NO_DOUBLE)
    t = table(shoot=True)
    assert t.timeout_action("cat") is None
    act(t, "cat", K.KITTY, 20)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.timeout_action("ann") == Action("ann", K.SHOOT, 0)


def test_private_and_public_views() -> None:
    t = mid_round()
    mine = t.private_view("ann")
    assert [h.cards for h in mine] == [("8S", "3C"), ("8D", "9C")]
    assert mine[0].total == 11 and mine[0].status is HandStatus.OPEN
    pub = t.public_view()
    ann = pub.seats[0]
    assert ann.bet_placed and [h.hidden for h in ann.hands] == [1, 1]
    assert all(h.total is None for h in ann.hands)
    assert pub.banker_hand is not None and pub.banker_hand.hidden == 2
    assert t.private_view("bob")[0].cards == ("JC", "7C")
    assert pub.turn == ("ann", 0) and pub.phase is Phase.PLAYING


def test_abandon_refunds_escrow_and_kitty() -> None:
    t = table(shoot=True)
    act(t, "cat", K.KITTY, 30)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 10)
    act(t, "bob", K.SHOOT, 0)
    refunds = t.abandon()
    moved = {(tr.src, tr.dst, tr.amount) for tr in refunds}
    assert moved == {(ESCROW, "ann", 15), (ESCROW, "bob", 5), (KITTY, "cat", 30)}
    assert t.escrow == 0 and t.kitty == 0
    assert t.balances == {"ann": 100, "bob": 100, "cat": 100}
    assert t.phase is Phase.WAITING and t.needs_shuffle


def test_join_leave_and_set_balance_between_rounds() -> None:
    t = Table(PontoonRules(), [], {})
    act(t, "ann", K.JOIN, 50)
    act(t, "bob", K.JOIN, 70)
    with pytest.raises(RuleError):
        act(t, "ann", K.JOIN, 5)
    # P-BANK-1: anyone may cut; the first seat (the opener) may also deal, cutting first
    assert [la.kind for la in t.legal_actions("ann")] == [K.LEAVE, K.CUT, K.DEAL]
    assert [la.kind for la in t.legal_actions("bob")] == [K.LEAVE, K.CUT]
    act(t, "ann", K.CUT)
    assert t.banker in ("ann", "bob")
    t.set_balance("ann", 80)
    assert t.balances["ann"] == 80
    act(t, t.banker or "", K.DEAL)
    with pytest.raises(RuleError):
        t.set_balance("ann", 10)
    with pytest.raises(RuleError):
        act(t, "ann", K.LEAVE)


def test_illegal_action_names_rule_and_leaves_state() -> None:
    t = mid_round()
    before = t.to_json()
    for a in (
        Action("bob", K.TWIST),
        Action("ann", K.BUY, 100),
        Action("ann", K.STICK),
        Action("ann", K.BURN),
        Action("cat", K.NEXT_ROUND),
        Action("zed", K.BET, 1),
    ):
        with pytest.raises(RuleError) as ei:
            t.apply(a, CH)
        assert ei.value.rule.startswith("P-") and ei.value.message
        assert t.to_json() == before


def test_chip_conservation_over_a_full_round() -> None:
    t = mid_round()
    assert total_chips(t) == 300
    while t.phase is Phase.PLAYING:
        seat, _ = t.turn or ("", 0)
        kinds = {la.kind for la in t.legal_actions(seat)}
        act(t, seat, K.STICK if K.STICK in kinds else K.TWIST)
    if t.phase is Phase.BANKER:
        act(t, "cat", K.STICK)
    assert t.phase is Phase.ROUND_OVER and t.escrow == 0
    assert total_chips(t) == 300
    results = [e for e in t.to_json()["results"]]
    assert results


def test_event_audience() -> None:
    t = table(stack([("5S", "4S"), ("JC", "7C")], ("10H", "8H"), draws=("2C", "3C")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 5)
    for e in out.events:
        if e.kind is E.CARD_DEALT:
            assert e.to == e.seat
    out = act(t, "ann", K.BUY, 5)
    pub = [e for e in out.events if e.public]
    assert all("2C" not in e.cards for e in pub)


def test_event_and_transfer_are_frozen_records() -> None:
    import dataclasses

    from engine.pontoon.types import Event, EventKind, Transfer

    e = Event(EventKind.BET, "ann", 0, ("AS",), 5, 21, "ann", "x")
    assert e == Event(
        kind=EventKind.BET,
        seat="ann",
        hand=0,
        cards=("AS",),
        amount=5,
        total=21,
        to="ann",
        detail="x",
    )
    assert hash(e) == hash(Event(EventKind.BET, "ann", 0, ("AS",), 5, 21, "ann", "x"))
    assert Event(EventKind.TURN).public and not e.public
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.amount = 6  # type: ignore[misc]
    tr = Transfer("a", "b", 3, "r")
    assert dataclasses.asdict(tr)["amount"] == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        tr.amount = 4  # type: ignore[misc]
