"""The table's own state: seats, chips, version, the cards a deal needs and the cover
(mutation testing of engine/pontoon/state.py).

P-TABLE-1 (how many seats one or two packs can deal), P-PAY-LIMIT (what a player can
cover when a variation pays more than double, P-VAR-4), P-SHOOT-2 (the smallest shoot
bet) and the amounts every action must carry as whole numbers.
"""

from __future__ import annotations

from typing import Any

import pytest
from pontoon_helpers import ESCROW, E, K, act, complete, kinds, stack, table

from engine.cards import ScriptedChance
from engine.errors import ConfigError, RuleError
from engine.pontoon import Action, PontoonRules, Table


def refusal(t: Table, action: Action) -> RuleError:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        t.apply(action, ScriptedChance([], 0))
    assert t.to_json() == before
    return ei.value


# ------------------------------------------------------------------ seats and chips


@pytest.mark.parametrize("bad", ["", "@escrow", "@house", 5, None])
def test_a_seat_id_is_a_non_empty_name_not_an_account(bad: Any) -> None:
    with pytest.raises(ConfigError, match="seat id"):
        Table(PontoonRules(), ["ann", bad], {"ann": 10})


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize("bad", ["", "@kitty"])
def test_P_TABLE_1_joining_under_an_account_name_is_refused(bad: str) -> None:
    t = table(deal=False)
    err = refusal(t, Action(bad, K.JOIN, 10))
    assert err.rule == "P-TABLE-1"
    assert bad not in t.balances


def test_a_seat_given_no_balance_starts_with_no_chips() -> None:
    t = Table(PontoonRules(), ["ann", "bob"], {"ann": 50})
    assert t.balances == {"ann": 50, "bob": 0}


def test_the_version_starts_at_0_and_counts_only_actions_that_happen() -> None:
    t = table(stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H")), deal=False)
    assert t.version == 0
    act(t, "cat", K.DEAL)
    assert t.version == 1
    refusal(t, Action("ann", K.BET, 0))
    assert t.version == 1
    act(t, "ann", K.BET, 5)
    assert t.version == 2


@pytest.mark.parametrize("amount", [True, None, "5", 2.5])
def test_an_amount_must_be_a_whole_number(amount: Any) -> None:
    t = table(stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H")))
    err = refusal(t, Action("ann", K.BET, amount))
    assert (err.rule, err.key) == ("P-DEAL-2", "engine.needs_amount")


# ------------------------------------------------------------------ cards for a deal


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(
    ("packs", "house", "limit"),
    [(1, False, 26), (2, False, 52), (None, False, 52), (1, True, 25), (2, True, 51)],
)
def test_P_TABLE_1_the_seats_one_or_two_packs_can_deal(
    packs: int | None, house: bool, limit: int
) -> None:
    t = Table(PontoonRules(packs=packs, house_bank=house), ["ann", "bob"], {})
    assert t.cards_seat_limit == limit
    assert t.seat_limit == limit


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(
    ("packs", "seats", "key"), [(1, 27, "engine.no_cards.one"), (2, 53, "engine.no_cards.other")]
)
def test_P_TABLE_1_a_deal_that_cannot_give_everyone_two_cards_is_refused(
    packs: int, seats: int, key: str
) -> None:
    names = [f"p{i}" for i in range(seats)]
    t = Table(
        PontoonRules(packs=packs),
        names,
        {n: 50 for n in names},
        banker="p0",
        pack=complete([], packs),
    )
    err = refusal(t, Action("p0", K.DEAL))
    assert (err.rule, err.key) == ("P-TABLE-1", key)
    assert err.params["need"] == 2 * seats
    assert err.params["have"] == 52 * packs
    assert err.params["limit"] == 26 * packs


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_a_full_deal_of_26_on_one_pack_is_dealt() -> None:
    names = [f"p{i}" for i in range(26)]
    t = Table(PontoonRules(packs=1), names, {n: 50 for n in names}, banker="p0", pack=complete([]))
    out = act(t, "p0", K.DEAL)
    assert E.CARD_DEALT in kinds(out)


# ------------------------------------------------------------------ the cover


@pytest.mark.rule("P-PAY-LIMIT")
@pytest.mark.rule("P-VAR-4")
def test_P_PAY_LIMIT_with_triple_payouts_a_player_covers_three_times_every_stake() -> None:
    # ann has 30: after her bet of 5 she holds 25 and must keep 3 x 5 for it, so a buy
    # may add at most (25 - 2 x 5) // 3 = 5 (each chip of the buy needs 3).
    top = stack([("5S", "4S"), ("JC", "7C")], ("10H", "8H"), draws=("2C",))
    t = table(top, balances={"ann": 30, "bob": 100, "cat": 300}, pontoon_pays="triple")
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    buy = {a.kind: a for a in t.legal_actions("ann")}[K.BUY]
    assert (buy.min_amount, buy.max_amount) == (5, 5)
    err = refusal(t, Action("ann", K.BUY, 6))
    assert (err.rule, err.key) == ("P-PAY-LIMIT", "engine.buy_cover")
    act(t, "ann", K.BUY, 5)
    assert t.private_view("ann")[0].stake == 10


# ------------------------------------------------------------------ shoot bets


@pytest.mark.rule("P-SHOOT-2")
def test_P_SHOOT_2_a_shoot_bet_of_1_is_placed() -> None:
    t = table(stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 30)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    out = act(t, "ann", K.SHOOT, 1)
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [("ann", ESCROW, 1)]
    assert E.SHOOT in kinds(out)
    assert t.private_view("ann")[0].shoot == 1
    shoot = {a.kind: a for a in t.legal_actions("bob")}[K.SHOOT]
    assert shoot.max_amount == 29  # the kitty's room: 30 less the 1 shot
