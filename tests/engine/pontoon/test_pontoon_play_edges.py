"""Play at its edges (the survivors of engine/pontoon/play.py after the engine
became one module per stage): a buy of nothing, a fourth-card shoot bet that must leave
room for the buy beside it, and the banker standing once the pack is used up."""

from __future__ import annotations

import pytest
from pontoon_helpers import K, act, stack, table

from engine.errors import RuleError
from engine.pontoon import Table


def refused(t: Table, seat: str, kind: K, amount: int | None = None, **kw: int) -> RuleError:
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, seat, kind, amount, **kw)  # type: ignore[arg-type]
    assert t.to_json() == before
    return ei.value


@pytest.mark.rule("P-BUY-2")
def test_P_BUY_2_a_buy_of_nothing_is_refused_even_on_a_stake_of_1() -> None:
    t = table(stack([("2S", "3S"), ("JC", "7C")], ("10H", "8H"), draws=("4C",)))
    act(t, "ann", K.BET, 1)
    act(t, "bob", K.BET, 1)
    err = refused(t, "ann", K.BUY, 0)
    assert (err.rule, err.key) == ("P-BUY-2", "engine.buy_min")
    act(t, "ann", K.BUY, 1)
    assert t.private_view("ann")[0].stake == 2


@pytest.mark.rule("P-SHOOT-4")
@pytest.mark.rule("P-PAY-LIMIT")
def test_P_SHOOT_4_a_fourth_card_shoot_bet_keeps_room_to_cover_the_buy_beside_it() -> None:
    # ann has 30. Bet 5 and a third card bought for 5: she holds 20 with 10 at stake. A
    # fourth card bought for 5 needs 5 + 5 more to cover a double loss of 15: nothing is
    # left for a shoot bet alongside, though a twist could shoot 10.
    top = stack([("2S", "3S"), ("JC", "7C")], ("10H", "8H"), draws=("2C", "3C"))
    t = table(top, shoot=True, balances={"ann": 30, "bob": 100, "cat": 100})
    act(t, "cat", K.KITTY, 50)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 0)
    act(t, "bob", K.SHOOT, 0)
    act(t, "ann", K.BUY, 5)
    offer = {a.kind: a for a in t.legal_actions("ann")}
    assert (offer[K.BUY].min_amount, offer[K.BUY].max_amount, offer[K.BUY].shoot_max) == (
        5,
        5,
        0,
    )
    assert offer[K.TWIST].shoot_max == 10
    err = refused(t, "ann", K.BUY, 5, shoot=1)
    assert (err.rule, err.key) == ("P-PAY-LIMIT", "engine.shoot_cover")
    act(t, "ann", K.BUY, 5)
    assert t.private_view("ann")[0].stake == 15 and t.balances["ann"] == 15


@pytest.mark.rule("P-BANKER-2")
def test_P_BANKER_2_the_banker_stands_once_the_pack_is_used_up() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("5H", "7H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    d = t.to_json()
    d["pack"] = []  # every card dealt
    t = Table.from_json(d)
    assert [a.kind for a in t.legal_actions("cat")] == [K.STICK]
    act(t, "cat", K.STICK)  # 12 stands: ann's 19 and bob's 17 win
    assert t.balances == {"ann": 105, "bob": 105, "cat": 90}
