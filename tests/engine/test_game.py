"""The one game interface (engine/game.py): both engines offer it, ``why_not`` says what
``apply`` would refuse (and changes nothing), tables saved by the code before the
interface still load, and the rules it moved into the engine (the seat limit, who deals,
the auction of the bank, Punto Banco's bets as actions) hold."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.cards import RandomChance
from engine.errors import RuleError
from engine.game import Game
from engine.pontoon import Action, ActionKind, Phase, PontoonRules, Table
from engine.punto_banco import (
    CROUPIER,
    EventKind,
    PuntoBancoRules,
    PuntoBancoTable,
    Side,
)
from engine.punto_banco import Action as PBAction
from engine.punto_banco import ActionKind as PBKind

K = ActionKind
SNAPSHOTS = Path(__file__).parent / "data" / "snapshots_f3d7cce.json"


def chance(seed: int = 0) -> RandomChance:
    return RandomChance(random.Random(seed))


def test_both_engines_are_games() -> None:
    assert isinstance(Table(PontoonRules()), Game)
    assert isinstance(PuntoBancoTable(PuntoBancoRules()), Game)


# ------------------------------------------------------------------ saved tables load
def _saved() -> dict[str, Any]:
    return dict(json.loads(SNAPSHOTS.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "name", ["pontoon_shoot_mid_round", "pontoon_waiting_no_banker", "pontoon_doubling"]
)
def test_pontoon_tables_saved_before_the_interface_load_and_save_the_same(name: str) -> None:
    saved = _saved()[name]
    table = Table.from_json(saved)
    assert table.to_json() == saved  # nothing added to a table that does not use it
    for seat in table.to_act():  # and it plays on
        offered = table.legal_actions(seat)
        assert offered
        la = offered[0]
        table.apply(Action(seat, la.kind, la.min_amount), chance())


def test_a_punto_banco_table_saved_before_the_interface_loads_and_deals() -> None:
    saved = _saved()["punto_banco_with_bets"]
    table = PuntoBancoTable.from_json(saved)
    assert table.to_json() == saved
    assert table.to_act() == [CROUPIER]
    out = table.apply(PBAction(CROUPIER, PBKind.DEAL), chance())
    assert out.coup is not None and table.escrow == 0 and table.is_terminal()
    assert set(table.returns()) == {"ann", "bob"}


# ------------------------------------------------------------------ why_not == apply
def _random_pontoon_action(t: Table, rng: random.Random) -> Action:
    seats = [*t.seats, "stranger"]
    seat = rng.choice(t.to_act() or seats) if rng.random() < 0.7 else rng.choice(seats)
    offered = t.legal_actions(seat)
    if offered and rng.random() < 0.7:
        la = rng.choice(offered)
        amount = la.min_amount
        if la.max_amount is not None and la.min_amount is not None:
            amount = rng.randint(la.min_amount, la.max_amount)
        target = rng.choice(t.seats) if la.kind is K.SELL_BANK else None
        return Action(seat, la.kind, amount, None, target)
    amount = rng.choice([None, -1, 0, 1, 5, 40, 10**6])
    return Action(seat, rng.choice(list(K)), amount, rng.choice([None, 0, 2]))


@pytest.mark.parametrize("seed", range(12))
def test_pontoon_why_not_is_what_apply_does_and_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    rules = PontoonRules(shoot=seed % 2 == 0, kitty_min=5, kitty_max=40, max_seats=6)
    t = Table(rules, ["a", "b", "c"], {s: 200 for s in "abc"})
    luck = chance(seed)
    for _ in range(400):
        action = _random_pontoon_action(t, rng)
        before = t.to_json()
        refusal = t.why_not(action)
        assert t.to_json() == before
        try:
            t.apply(action, luck)
        except RuleError as exc:
            assert refusal is not None, action
            assert (exc.rule, exc.key, exc.params) == (refusal.rule, refusal.key, refusal.params)
            assert t.to_json() == before
        else:
            assert refusal is None, (action, refusal)
        if t.phase is Phase.ROUND_OVER and rng.random() < 0.5:
            t.apply(Action(t.seats[0], K.NEXT_ROUND), luck)


@pytest.mark.parametrize("seed", range(6))
def test_punto_banco_why_not_is_what_apply_does_and_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    t = PuntoBancoTable(PuntoBancoRules(max_bet=50))
    luck = chance(seed)
    for _ in range(300):
        actor = rng.choice(["ann", "bob", CROUPIER, "@house", ""])
        action = PBAction(
            actor,
            rng.choice(list(PBKind)),
            rng.choice([None, *Side, "nonsense"]),  # type: ignore[arg-type]
            rng.choice([None, -3, 0, 1, 20, 50, 51, True, "x"]),  # type: ignore[arg-type]
            rng.choice([None, 0, 10, 100]),
        )
        before = t.to_json()
        refusal = t.why_not(action)
        assert t.to_json() == before
        try:
            t.apply(action, luck)
        except RuleError as exc:
            assert refusal is not None, action
            assert (exc.rule, exc.key) == (refusal.rule, refusal.key)
            assert t.to_json() == before
        else:
            assert refusal is None, (action, refusal)
            assert t.escrow == sum(b.amount for b in t.bets)


# ------------------------------------------------------------------ Punto Banco as actions
def test_punto_banco_bets_withdrawals_repeats_and_the_deal_are_actions() -> None:
    t = PuntoBancoTable(PuntoBancoRules())
    assert t.to_act() == [] and not t.is_terminal()
    kinds = [(la.kind, la.side) for la in t.legal_actions("ann")]
    assert kinds == [(PBKind.BET, s) for s in Side]
    assert t.legal_actions(CROUPIER)[0].kind is PBKind.DEAL
    out = t.apply(PBAction("ann", PBKind.BET, Side.BANCO, 20, balance=25))
    assert [e.kind for e in out.events] == [EventKind.BET] and t.to_act() == [CROUPIER]
    refusal = t.why_not(PBAction("ann", PBKind.BET, Side.PUNTO, 10, balance=5))
    assert refusal is not None and refusal.key == "engine.pb.only"
    assert t.why_not(PBAction("ann", PBKind.DEAL)) is not None  # B-TABLE-1: the croupier
    t.apply(PBAction("ann", PBKind.BET, Side.EGALITE, 2))
    out = t.apply(PBAction("ann", PBKind.WITHDRAW))  # every bet back
    assert sum(tr.amount for tr in out.transfers) == 22 and t.bets == []
    nothing = t.why_not(PBAction("ann", PBKind.WITHDRAW))
    assert nothing is not None and nothing.key == "engine.pb.no_coup_bet"
    t.apply(PBAction("ann", PBKind.BET, Side.BANCO, 20))
    out = t.apply(PBAction(CROUPIER, PBKind.DEAL), chance(3))
    assert out.coup is not None and out.events[-1].kind is EventKind.COUP
    assert t.is_terminal() and set(t.returns()) == {"ann"}
    assert PBKind.REPEAT in {la.kind for la in t.legal_actions("ann")}
    out = t.apply(PBAction("ann", PBKind.REPEAT, balance=100))
    assert [e.kind for e in out.events] == [EventKind.REPEATED]


# ------------------------------------------------------------------ Pontoon: rules moved in
@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(("packs", "max_seats"), [(1, 10), (2, 20), (None, 20)])
def test_max_seats_is_the_one_seat_limit(packs: int | None, max_seats: int) -> None:
    t = Table(PontoonRules(packs=packs, max_seats=max_seats))
    assert t.seat_limit == max_seats
    for i in range(max_seats):
        t.apply(Action(f"p{i}", K.JOIN, 10), chance())
    assert t.legal_actions("late") == []
    refusal = t.why_not(Action("late", K.JOIN, 10))
    assert refusal is not None and refusal.key == "engine.table_full_at"
    assert refusal.params == {"limit": max_seats}
    with pytest.raises(RuleError):
        t.apply(Action("late", K.JOIN, 10), chance())
    assert len(t.seats) == max_seats


def test_max_seats_above_what_the_packs_deal_leaves_the_cards_limit() -> None:
    assert Table(PontoonRules(packs=1, max_seats=40)).seat_limit == 26
    with pytest.raises(ValueError):
        PontoonRules(max_seats=1)


@pytest.mark.rule("P-BANK-1")
def test_the_first_seat_deals_first_and_its_deal_begins_with_the_cut() -> None:
    t = Table(PontoonRules(), ["ann", "bob", "cat"], {s: 100 for s in ("ann", "bob", "cat")})
    refusal = t.why_not(Action("bob", K.DEAL))
    assert refusal is not None and refusal.key == "engine.svc.who_deals"
    out = t.apply(Action("ann", K.DEAL), chance(4))
    kinds = [e.kind.value for e in out.events]
    assert kinds[:4] == ["cut_card", "cut_card", "cut_card", "banker_chosen"]
    assert t.banker in t.seats and t.phase is Phase.BETTING
    lone = Table(PontoonRules(), ["ann"], {"ann": 100})
    alone = lone.why_not(Action("ann", K.DEAL))
    assert alone is not None and alone.key == "engine.two_needed"


@pytest.mark.rule("P-SHOOT-8")
def test_the_auction_of_the_bank_is_the_engines() -> None:
    seats = ["ann", "bob", "cat"]
    t = Table(PontoonRules(shoot=True), seats, {"ann": 100, "bob": 30, "cat": 50}, banker="ann")
    luck = chance()
    assert t.phase is Phase.WAITING and t.kitty == 0  # (or KITTY, after the deal)
    refusal = t.why_not(Action("bob", K.AUCTION))
    assert refusal is not None and refusal.key == "engine.svc.auction_banker"
    t.apply(Action("ann", K.AUCTION), luck)
    again = t.why_not(Action("ann", K.AUCTION))
    assert again is not None and again.key == "err.svc.auction_running"
    assert (K.BID, 1, 30) in [
        (la.kind, la.min_amount, la.max_amount) for la in t.legal_actions("bob")
    ]
    own = t.why_not(Action("ann", K.BID, 5))
    assert own is not None and own.key == "engine.svc.own_bank"
    t.apply(Action("bob", K.BID, 20), luck)
    low = t.why_not(Action("cat", K.BID, 20))
    assert low is not None and low.key == "engine.svc.bid_beat" and low.params == {"best": 20}
    rich = t.why_not(Action("bob", K.BID, 31))
    assert rich is not None and rich.key == "engine.svc.bid_chips"
    t.apply(Action("cat", K.BID, 25), luck)
    saved = Table.from_json(t.to_json())  # the bids are saved with the table
    assert saved.auction == {"bob": 20, "cat": 25} and saved.best_bid == 25
    t.set_balance("cat", 10)  # cat can no longer pay: bob's bid wins
    out = t.apply(Action("ann", K.END_AUCTION), luck)
    assert t.banker == "bob" and t.auction is None
    assert t.balances["ann"] == 120 and t.balances["bob"] == 10
    assert [e.kind.value for e in out.events] == ["auction_over", "bank_sold"]
    over = t.why_not(Action("bob", K.BID, 5))
    assert over is not None and over.key == "err.svc.no_auction"


def test_an_auction_is_refused_outside_shoot_pontoon_and_with_a_kitty() -> None:
    t = Table(PontoonRules(), ["ann", "bob"], {"ann": 100, "bob": 100}, banker="ann")
    plain = t.why_not(Action("ann", K.AUCTION))
    assert plain is not None and plain.key == "engine.svc.auction_shoot"
    s = Table(PontoonRules(shoot=True), ["ann", "bob"], {"ann": 100, "bob": 100}, banker="ann")
    s.apply(Action("ann", K.DEAL), chance())
    s.apply(Action("ann", K.KITTY, 20), chance())
    full = s.why_not(Action("ann", K.AUCTION))
    assert full is not None and full.key == "engine.svc.auction_when"
