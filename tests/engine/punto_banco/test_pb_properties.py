"""Hypothesis properties: chip conservation through bets and settlement, escrow empty after
each coup, no negative balance, coups consistent with the tableau, state round-trips."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import RandomChance, full_pack
from engine.errors import RuleError
from engine.punto_banco import (
    ESCROW,
    HOUSE,
    Bet,
    PuntoBancoRules,
    PuntoBancoTable,
    Side,
    banco_draws,
    hand_total,
    play_cards,
    settle,
)
from engine.punto_banco.coup import card_point

BETTORS = ["ann", "bob", "cat"]
sides = st.sampled_from(list(Side))
bets = st.builds(Bet, st.sampled_from(BETTORS), sides, st.integers(1, 500))
rules_st = st.builds(
    PuntoBancoRules,
    packs=st.integers(1, 8),
    tableau=st.sampled_from(["seed", "standard"]),
    banco_commission_pct=st.integers(0, 25),
    tie_pays=st.integers(1, 10),
    max_bet=st.just(500),
)


@pytest.mark.rule("B-WIN-1")
@pytest.mark.rule("B-TIE-1")
@given(st.lists(bets, max_size=12), sides, rules_st)
def test_settlement_conserves_chips(
    bet_list: list[Bet], winner: Side, rules: PuntoBancoRules
) -> None:
    s = settle(bet_list, winner, rules)
    net: Counter[str] = Counter()
    for t in s.transfers:
        assert t.amount > 0
        assert t.src != t.dst
        net[t.src] -= t.amount
        net[t.dst] += t.amount
    assert sum(net.values()) == 0
    # everything staked leaves escrow
    assert net[ESCROW] == -sum(b.amount for b in bet_list)
    # bettors get back stake + net; the house pays what they win
    for bettor in BETTORS:
        staked = sum(b.amount for b in bet_list if b.bettor == bettor)
        assert net[bettor] == staked + s.net_by_bettor().get(bettor, 0)
        assert net[bettor] >= 0
    assert net[HOUSE] == s.house_net
    for r in s.results:
        assert r.net >= -r.bet.amount


ops = st.lists(
    st.one_of(
        st.tuples(st.just("place"), st.sampled_from(BETTORS), sides, st.integers(-3, 60)),
        st.tuples(st.just("withdraw"), st.sampled_from(BETTORS), sides),
        st.tuples(st.just("repeat"), st.sampled_from(BETTORS)),
        st.tuples(st.just("deal")),
        st.tuples(st.just("restore")),
    ),
    max_size=40,
)


@pytest.mark.rule("B-BET-1")
@pytest.mark.rule("B-TABLE-2")
@settings(max_examples=150, deadline=None)
@given(ops, rules_st, st.integers(0, 2**32), st.integers(0, 200))
def test_table_ledger_never_negative_and_escrow_empties(
    operations: list[tuple[object, ...]], rules: PuntoBancoRules, seed: int, start: int
) -> None:
    rules = rules.model_copy(update={"max_bet": 50, "min_bet": 1})
    table = PuntoBancoTable(rules)
    chance = RandomChance(random.Random(seed))
    ledger: Counter[str] = Counter({b: start for b in BETTORS})
    total = sum(ledger.values())

    def apply(transfers: list[object]) -> None:
        for t in transfers:
            ledger[t.src] -= t.amount  # type: ignore[attr-defined]
            ledger[t.dst] += t.amount  # type: ignore[attr-defined]

    for op in operations:
        before = json.dumps(table.to_json())
        try:
            if op[0] == "place":
                _, who, side, amount = op
                apply(table.place_bet(who, side, amount, balance=ledger[who]))  # type: ignore[arg-type]
            elif op[0] == "withdraw":
                apply(table.withdraw_bet(op[1], op[2]))  # type: ignore[arg-type]
            elif op[0] == "repeat":
                apply(table.repeat_bets(op[1], balance=ledger[op[1]]))  # type: ignore[arg-type]
            elif op[0] == "deal":
                result = table.deal(chance)
                apply(list(result.transfers))
                assert ledger[ESCROW] == 0
                assert hand_total(result.coup.punto) == result.coup.punto_total
                assert hand_total(result.coup.banco) == result.coup.banco_total
            else:
                table = PuntoBancoTable.from_json(json.loads(before))
                assert json.dumps(table.to_json()) == before
        except RuleError as err:
            assert err.rule == "B-BET-1"
            assert json.dumps(table.to_json()) == before  # refused: nothing changed
        assert ledger[ESCROW] == table.escrow
        assert sum(ledger.values()) == total
        for bettor in BETTORS:
            assert ledger[bettor] >= 0


@pytest.mark.rule("B-NAT-1")
@pytest.mark.rule("B-PUNTO-1")
@pytest.mark.rule("B-BANCO-1")
@pytest.mark.rule("B-BANCO-2")
@given(st.permutations(full_pack(1)), st.sampled_from(["seed", "standard"]))
def test_every_coup_follows_the_tableau(cards: list[object], tableau: str) -> None:
    coup = play_cards(cards, tableau)  # type: ignore[arg-type]
    p2 = hand_total(coup.punto[:2])
    b2 = hand_total(coup.banco[:2])
    assert [s for s, _ in coup.dealt[:4]] == [Side.PUNTO, Side.BANCO, Side.PUNTO, Side.BANCO]
    if p2 >= 8 or b2 >= 8:
        assert coup.natural and coup.cards_used == 4
        return
    assert (len(coup.punto) == 3) is (p2 <= 5)
    third = coup.punto_third
    expected = banco_draws(b2, None if third is None else card_point(third), tableau)  # type: ignore[arg-type]
    assert (len(coup.banco) == 3) is expected
    assert [c for _, c in coup.dealt] == cards[: coup.cards_used]
