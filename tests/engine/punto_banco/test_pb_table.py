"""The table: B-TABLE-1/2 (shoe, reshuffle), B-BET-1 (placing, changing, leaving bets),
JSON persistence."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import RandomChance, ScriptedChance, full_pack
from engine.errors import ConfigError, RuleError
from engine.punto_banco import (
    ESCROW,
    HOUSE,
    RESHUFFLE_BELOW,
    PuntoBancoRules,
    PuntoBancoTable,
    Shoe,
    Side,
    Transfer,
)


def chance(seed: int = 1) -> RandomChance:
    return RandomChance(random.Random(seed))


@pytest.mark.rule("B-TABLE-2")
def test_b_table_2_new_shoe_is_shuffled_before_first_coup() -> None:
    table = PuntoBancoTable(PuntoBancoRules(packs=2))
    assert table.needs_shuffle
    result = table.deal(chance())
    assert result.shuffled
    assert len(table.shoe) == 104 - result.coup.cards_used
    assert table.shoe.shuffles == 1


@pytest.mark.rule("B-TABLE-2")
def test_b_table_2_reshuffle_only_below_six_cards() -> None:
    pack = full_pack(1)
    # exactly six cards left: no reshuffle, the coup is dealt from them
    six = Shoe(1, pack[:6])
    assert not six.needs_shuffle
    table = PuntoBancoTable(PuntoBancoRules(), six)
    result = table.deal(chance())
    assert not result.shuffled
    assert [c for _, c in result.coup.dealt] == pack[: result.coup.cards_used]
    # five cards left: the full shoe is gathered and shuffled first
    five = PuntoBancoTable(PuntoBancoRules(), Shoe(1, pack[:5]))
    stacked = list(reversed(full_pack(1)))
    result = five.deal(ScriptedChance([stacked]))
    assert result.shuffled
    assert [c for _, c in result.coup.dealt] == stacked[: result.coup.cards_used]
    assert len(five.shoe) == 52 - result.coup.cards_used


@pytest.mark.rule("B-TABLE-2")
def test_b_table_2_the_cards_the_next_coup_is_dealt_from() -> None:
    """A new (empty) shoe and one below six cards are shuffled whole before the coup, so
    the table shows the full shoe; otherwise the cards left."""
    assert Shoe(2).cards_for_next_coup == 104  # the table footer said 0 before coup 1
    assert Shoe(1, full_pack(1)[:5]).cards_for_next_coup == 52
    assert Shoe(1, full_pack(1)[:6]).cards_for_next_coup == 6
    table = PuntoBancoTable(PuntoBancoRules(packs=3))
    result = table.deal(chance())
    assert table.shoe.cards_for_next_coup == 156 - result.coup.cards_used == len(table.shoe)


@pytest.mark.rule("B-TABLE-2")
def test_b_table_2_a_long_session_keeps_the_shoe_consistent() -> None:
    table = PuntoBancoTable(PuntoBancoRules(packs=1))
    rng = chance(7)
    used = 0
    for _ in range(300):
        before = len(table.shoe)
        result = table.deal(rng)
        # reshuffled exactly when fewer than six cards were left (a new shoe is empty)
        assert result.shuffled == (before < RESHUFFLE_BELOW)
        if result.shuffled:
            used = 0
        else:
            assert len(table.shoe) == before - result.coup.cards_used
        used += result.coup.cards_used
        assert len(table.shoe) == 52 - used
    assert table.shoe.shuffles > 1


@pytest.mark.rule("B-TABLE-1")
def test_b_table_1_json_round_trip_continues_identically() -> None:
    rules = PuntoBancoRules(packs=3, tableau="standard", min_bet=1, max_bet=500)
    table = PuntoBancoTable(rules)
    rng = random.Random(3)
    for _ in range(5):
        table.place_bet("ann", Side.BANCO, 20)
        table.deal(RandomChance(rng))
    table.place_bet("bob", Side.PUNTO, 15)
    table.place_bet("ann", Side.EGALITE, 2)
    state = json.loads(json.dumps(table.to_json()))
    restored = PuntoBancoTable.from_json(state)
    assert restored.to_json() == table.to_json()
    assert restored.bets == table.bets
    assert restored.rules == rules
    assert restored.last_coup == table.last_coup
    # same chance, same future
    for _ in range(200):
        a = table.deal(RandomChance(random.Random(11)))
        b = restored.deal(RandomChance(random.Random(11)))
        assert a == b
    assert restored.to_json() == table.to_json()


@pytest.mark.rule("B-TABLE-2")
def test_shoe_json_round_trip_and_validation() -> None:
    shoe = Shoe(2)
    shoe.shuffle(chance(5))
    for _ in range(17):
        shoe.deal()
    again = Shoe.from_json(json.loads(json.dumps(shoe.to_json())))
    assert again.pack.codes() == shoe.pack.codes()
    assert (again.packs, again.shuffles) == (shoe.packs, shoe.shuffles)
    with pytest.raises(ConfigError):  # three aces of spades cannot be in a 2-pack shoe
        Shoe.from_json({"packs": 2, "cards": ["AS", "AS", "AS"], "shuffles": 0})
    with pytest.raises(ConfigError):
        Shoe.from_json({"packs": 1, "cards": ["ZZ"], "shuffles": 0})
    with pytest.raises(ConfigError):
        PuntoBancoTable.from_json({"format": 99})
    with pytest.raises(ConfigError):
        PuntoBancoTable(PuntoBancoRules(packs=2), Shoe(1))


@pytest.mark.rule("B-BET-1")
def test_b_bet_1_place_raise_lower_withdraw() -> None:
    table = PuntoBancoTable(PuntoBancoRules(max_bet=100))
    assert table.place_bet("ann", Side.PUNTO, 10) == [Transfer("ann", ESCROW, 10, "punto bet")]
    assert table.place_bet("ann", Side.PUNTO, 25) == [
        Transfer("ann", ESCROW, 15, "punto bet raised")
    ]
    assert table.place_bet("ann", Side.PUNTO, 5) == [
        Transfer(ESCROW, "ann", 20, "punto bet lowered")
    ]
    assert table.place_bet("ann", Side.PUNTO, 5) == []
    table.place_bet("ann", Side.EGALITE, 1)
    assert table.escrow == 6
    assert table.withdraw_bet("ann", Side.EGALITE) == [
        Transfer(ESCROW, "ann", 1, "egalite bet withdrawn")
    ]
    with pytest.raises(RuleError) as err:
        table.withdraw_bet("ann", Side.EGALITE)
    assert err.value.rule == "B-BET-1"
    version = table.version
    with pytest.raises(RuleError):
        table.place_bet("ann", Side.PUNTO, 101)
    with pytest.raises(RuleError):  # raising 5 -> 20 needs 15 more chips
        table.place_bet("ann", Side.PUNTO, 20, balance=14)
    assert table.version == version  # refused: nothing changed
    assert table.bets_of("ann")[0].amount == 5
    assert table.place_bet("ann", Side.PUNTO, 20, balance=15)[0].amount == 15
    assert table.withdraw_all("ann") == [Transfer(ESCROW, "ann", 20, "punto bet withdrawn")]
    assert table.escrow == 0


@pytest.mark.rule("B-BET-1")
def test_b_bet_1_leave_bets_in_place_for_next_coup() -> None:
    table = PuntoBancoTable()
    with pytest.raises(RuleError):
        table.repeat_bets("ann")
    table.place_bet("ann", Side.BANCO, 20)
    table.place_bet("ann", Side.EGALITE, 2)
    result = table.deal(chance())
    assert table.bets == []
    assert table.escrow == 0
    assert sum(t.amount for t in result.transfers if t.src == ESCROW) == 22
    with pytest.raises(RuleError):
        table.repeat_bets("ann", balance=21)
    assert table.bets == []
    transfers = table.repeat_bets("ann", balance=22)
    assert sorted((t.src, t.dst, t.amount) for t in transfers) == [
        ("ann", ESCROW, 2),
        ("ann", ESCROW, 20),
    ]
    assert table.escrow == 22


@pytest.mark.rule("B-BET-1")
def test_repeating_bets_counts_only_the_sides_it_sets() -> None:
    """Found by the property test: a bet on another side was counted as paying towards
    the repeated one, and a bettor with 34 chips repeated a 35 bet (balance -1)."""
    table = PuntoBancoTable(PuntoBancoRules(max_bet=100))
    table.place_bet("ann", Side.EGALITE, 35)
    table.deal(chance())
    table.place_bet("ann", Side.PUNTO, 1)  # the new coup: 1 on Punto, 34 chips left
    with pytest.raises(RuleError) as refused:
        table.repeat_bets("ann", balance=34)
    assert refused.value.rule == "B-BET-1" and "34" in refused.value.message
    assert [(b.side, b.amount) for b in table.bets_of("ann")] == [(Side.PUNTO, 1)]
    # with 35 chips free it goes through, and the Punto bet stays
    table.repeat_bets("ann", balance=35)
    assert sorted((b.side.value, b.amount) for b in table.bets_of("ann")) == [
        ("egalite", 35),
        ("punto", 1),
    ]


@pytest.mark.rule("B-WIN-1")
def test_deal_settles_bets_from_escrow() -> None:
    table = PuntoBancoTable(PuntoBancoRules(max_bet=100))
    ledger: Counter[str] = Counter()
    for t in table.place_bet("ann", Side.BANCO, 20) + table.place_bet("bob", Side.PUNTO, 20):
        ledger[t.src] -= t.amount
        ledger[t.dst] += t.amount
    result = table.deal(chance(2))
    for t in result.transfers:
        ledger[t.src] -= t.amount
        ledger[t.dst] += t.amount
    assert ledger[ESCROW] == 0
    winner = result.coup.winner
    expected = {
        Side.BANCO: {"ann": 19, "bob": -20, HOUSE: 1},
        Side.PUNTO: {"ann": -20, "bob": 20, HOUSE: 0},
        Side.EGALITE: {"ann": 0, "bob": 0, HOUSE: 0},
    }[winner]
    assert {k: ledger[k] for k in expected} == expected


@pytest.mark.rule("B-TABLE-2")
def test_shoe_value_counts_feed_exact_odds_of_the_rest() -> None:
    from engine.punto_banco import exact_odds, exact_odds_for_counts

    shoe = Shoe(1)
    shoe.shuffle(chance(4))
    assert shoe.value_counts() == [16] + [4] * 9
    full = exact_odds_for_counts(shoe.value_counts(), "seed")
    assert (full.banco, full.punto, full.tie) == (
        exact_odds(1, "seed").banco,
        exact_odds(1, "seed").punto,
        exact_odds(1, "seed").tie,
    )
    for _ in range(10):
        shoe.deal()
    assert sum(shoe.value_counts()) == 42
    rest = exact_odds_for_counts(shoe.value_counts(), "seed")
    assert rest.banco + rest.punto + rest.tie == 1
