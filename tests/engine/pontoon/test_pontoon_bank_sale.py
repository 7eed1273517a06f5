"""Selling and auctioning the bank, closing a table and syncing balances.

P-SELL-1 (a sale to another seated player), P-SHOOT-8 (the auction of the bank with an
empty kitty, between hands), and the two calls outside the actions: ``abandon`` (every
stake and the kitty go back) and ``set_balance`` (the ledger's chips, between rounds).
Each refusal must leave the table exactly as it was.
"""

from __future__ import annotations

import random

import pytest
from pontoon_helpers import ESCROW, KITTY, E, K, act, kinds, stack, table, total_chips

from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon import Action, Phase, Table


def refused(t: Table, seat: str, kind: K, amount: int | None = None, **kw: str) -> str:
    """The rule id of the refusal; the table is unchanged."""
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount, **kw)  # type: ignore[arg-type]
    assert t.to_json() == before
    return ei.value.rule


def offered(t: Table, seat: str) -> set[K]:
    return {a.kind for a in t.legal_actions(seat)}


def auction_table(seats: tuple[str, ...] = ("ann", "bob", "cat")) -> Table:
    """A Shoot table between hands with no kitty up yet; cat banks."""
    return table(seats=seats, shoot=True, deal=False)


# ------------------------------------------------------------------ selling (P-SELL-1)


@pytest.mark.rule("P-SELL-1")
@pytest.mark.parametrize("buyer", ["cat", "zed", None])
def test_P_SELL_1_the_bank_is_sold_only_to_another_seated_player(buyer: str | None) -> None:
    t = table(deal=False)
    kw = {} if buyer is None else {"target": buyer}
    assert refused(t, "cat", K.SELL_BANK, 5, **kw) == "P-SELL-1"
    assert t.banker == "cat"


# ------------------------------------------------------------------ the auction (P-SHOOT-8)


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_the_highest_bid_buys_the_bank() -> None:
    t = auction_table()
    assert K.AUCTION in offered(t, "cat")
    act(t, "cat", K.AUCTION)
    act(t, "bob", K.BID, 5)
    act(t, "ann", K.BID, 12)
    out = act(t, "cat", K.END_AUCTION)
    assert E.AUCTION_OVER in kinds(out)
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [("ann", "cat", 12)]
    assert t.banker == "ann" and t.auction is None
    assert t.balances == {"ann": 88, "bob": 100, "cat": 112}


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_the_first_bid_may_be_1_and_each_bid_must_beat_the_best() -> None:
    t = auction_table()
    act(t, "cat", K.AUCTION)
    bid = {a.kind: a for a in t.legal_actions("bob")}[K.BID]
    assert (bid.min_amount, bid.max_amount) == (1, 100)
    assert refused(t, "bob", K.BID, 0) == "P-SHOOT-8"
    act(t, "bob", K.BID, 1)
    assert t.auction == {"bob": 1}
    assert refused(t, "ann", K.BID, 1) == "P-SHOOT-8"  # equal to the best: not enough
    bid = {a.kind: a for a in t.legal_actions("ann")}[K.BID]
    assert bid.min_amount == 2
    act(t, "ann", K.BID, 2)
    assert t.auction == {"bob": 1, "ann": 2}


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_the_banker_cannot_bid_for_their_own_bank() -> None:
    t = auction_table()
    act(t, "cat", K.AUCTION)
    assert refused(t, "cat", K.BID, 5) == "P-SHOOT-8"
    assert K.BID not in offered(t, "cat")


@pytest.mark.rule("P-SHOOT-8")
@pytest.mark.rule("P-SELL-1")
def test_P_SHOOT_8_an_auction_needs_someone_else_seated_to_bid() -> None:
    alone = auction_table(seats=("cat",))
    assert refused(alone, "cat", K.AUCTION) == "P-SELL-1"
    assert K.AUCTION not in offered(alone, "cat")
    two = auction_table(seats=("bob", "cat"))
    assert K.AUCTION in offered(two, "cat")
    act(two, "cat", K.AUCTION)
    assert two.auction == {}


def kitty_of_30_nobody_won() -> Table:
    """A Shoot table between hands after one round with a kitty of 30 that nobody won:
    it still holds 30 (ann and bob stick on 17 against the banker's 18)."""
    t = table(stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 30)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 0)
    act(t, "bob", K.SHOOT, 0)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    act(t, "cat", K.NEXT_ROUND)
    assert t.phase is Phase.WAITING and t.kitty == 30
    return t


@pytest.mark.rule("P-SHOOT-8")
def test_P_SHOOT_8_no_auction_between_hands_while_the_kitty_still_holds_chips() -> None:
    t = kitty_of_30_nobody_won()
    assert refused(t, "cat", K.AUCTION) == "P-SHOOT-8"
    assert K.AUCTION not in offered(t, "cat")


@pytest.mark.rule("P-SELL-1")
@pytest.mark.rule("P-SHOOT-9")
def test_P_SHOOT_9_a_sold_shoot_bank_pays_the_seller_the_price_and_the_kitty_left() -> None:
    """A sale at a Shoot table with chips still in the kitty: the buyer pays the price to
    the seller (P-SELL-1) and the seller takes back what is left in the kitty (P-SHOOT-9),
    so the kitty ends at 0 and no chip is made or lost."""
    t = kitty_of_30_nobody_won()
    before = total_chips(t)
    ann, cat = t.balances["ann"], t.balances["cat"]
    out = t.apply(Action("cat", K.SELL_BANK, 12, target="ann"), RandomChance(random.Random(0)))
    assert sorted((tr.src, tr.dst, tr.amount) for tr in out.transfers) == sorted(
        [("ann", "cat", 12), (KITTY, "cat", 30)]
    )
    assert t.balances["cat"] == cat + 12 + 30
    assert t.balances["ann"] == ann - 12
    assert t.kitty == 0 and t.banker == "ann"
    assert total_chips(t) == before
    assert [e.kind for e in out.events].count(E.KITTY) == 1


# ------------------------------------------------------------------ closing and syncing


def test_closing_a_table_moves_its_version_on_by_one() -> None:
    t = table(stack([("10S", "7S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    version = t.version
    refunds = t.abandon()
    assert {(tr.src, tr.dst, tr.amount) for tr in refunds} == {
        (ESCROW, "ann", 5),
    }
    assert t.version == version + 1
    assert t.phase is Phase.WAITING and total_chips(t) == 300


@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_a_synced_balance_may_be_0_but_never_negative() -> None:
    t = table(deal=False)
    t.set_balance("ann", 0)
    assert t.balances["ann"] == 0
    with pytest.raises(RuleError) as ei:
        t.set_balance("bob", -1)
    assert ei.value.rule == "P-PAY-LIMIT"
    assert t.balances["bob"] == 100


def test_closing_returns_the_kitty_to_the_banker() -> None:
    t = table(shoot=True)
    act(t, "cat", K.KITTY, 40)
    refunds = t.abandon()
    assert [(tr.src, tr.dst, tr.amount) for tr in refunds] == [(KITTY, "cat", 40)]
    assert t.kitty == 0 and t.balances["cat"] == 100


@pytest.mark.rule("P-SHOOT-9")
def test_P_SHOOT_9_a_banker_leaving_as_the_last_seat_takes_the_kitty_back() -> None:
    """The banker may leave only as the last seat (P-SELL-1); a kitty still up goes back
    to them by a transfer, so no chip stays on a table with nobody at it."""
    t = kitty_of_30_nobody_won()
    before = total_chips(t)
    act(t, "ann", K.LEAVE)
    act(t, "bob", K.LEAVE)
    cat = t.balances["cat"]
    out = t.apply(Action("cat", K.LEAVE), RandomChance(random.Random(0)))
    assert [(tr.src, tr.dst, tr.amount) for tr in out.transfers] == [(KITTY, "cat", 30)]
    assert [e.kind for e in out.events] == [E.KITTY, E.LEFT]
    assert t.kitty == 0 and t.seats == [] and t.banker is None
    assert cat + 30 <= before  # what cat takes away is theirs: the kitty they put up
