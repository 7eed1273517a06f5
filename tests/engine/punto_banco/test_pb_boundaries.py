"""Punto Banco boundaries mutation testing found unguarded."""

from __future__ import annotations

import random

import pytest
from helpers_pb import card, stack

from engine.cards import RandomChance, parse_cards
from engine.errors import ConfigError
from engine.punto_banco import (
    CROUPIER,
    Action,
    ActionKind,
    Coup,
    LegalAction,
    PuntoBancoRules,
    PuntoBancoTable,
    Shoe,
    Side,
    amount_refusal,
    banco_draws,
    hand_total,
    play_cards,
)


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize(
    ("punto", "banco", "rest", "cards"),
    [
        (3, 4, (5, 9), 6),  # Punto draws (3), Banco draws on 4 against a 5
        (6, 3, (2,), 5),  # Punto stands on 6, Banco draws on 3
        (2, 7, (9,), 5),  # Punto draws, Banco stands on 7
        (6, 7, (), 4),  # nobody draws, and no natural either
    ],
)
def test_B_NAT_1_a_coup_without_a_natural_is_not_marked_natural(
    punto: int, banco: int, rest: tuple[int, ...], cards: int
) -> None:
    coup = play_cards(stack(punto, banco, *rest))
    assert coup.cards_used == cards
    assert coup.natural is False
    assert coup.to_json()["natural"] is False
    assert Coup.from_json(coup.to_json()).natural is False


@pytest.mark.rule("B-NAT-1")
@pytest.mark.parametrize(("punto", "banco"), [(8, 2), (2, 9), (8, 9), (9, 9)])
def test_B_NAT_1_a_natural_on_either_side_is_marked_and_ends_the_coup(
    punto: int, banco: int
) -> None:
    coup = play_cards(stack(punto, banco, 5, 5))
    assert coup.natural is True and coup.cards_used == 4
    assert Coup.from_json(coup.to_json()).natural is True


@pytest.mark.rule("B-VAL-1")
@pytest.mark.parametrize(
    ("codes", "total"),
    [(["5S", "6H"], 1), (["KS", "9H"], 9), (["7S", "8H", "9D"], 4), (["AS", "QH", "JD"], 1)],
)
def test_B_VAL_1_hand_total_keeps_the_last_digit(codes: list[str], total: int) -> None:
    assert hand_total(parse_cards(codes)) == total


@pytest.mark.rule("B-BANCO-1")
@pytest.mark.parametrize("third", [None, 0, 3, 9])
def test_banco_has_no_third_card_decision_on_8_or_9(third: int | None) -> None:
    for banco in (8, 9, -1):
        with pytest.raises(ValueError):
            banco_draws(banco, third)
    assert banco_draws(7, third) is False  # 7 always stands


@pytest.mark.rule("B-DEAL-1")
def test_the_third_cards_are_named_per_side() -> None:
    both = play_cards(stack(3, 4, 5, 9))  # Punto draws a 5, Banco on 4 draws against it
    assert (both.punto_third, both.banco_third) == (card(5, "C"), card(9, "C"))
    punto_only = play_cards(stack(2, 7, 9))  # Banco stands on 7
    assert (punto_only.punto_third, punto_only.banco_third) == (card(9, "C"), None)
    banco_only = play_cards(stack(6, 3, 2))  # Punto stands on 6, Banco draws on 3
    assert (banco_only.punto_third, banco_only.banco_third) == (None, card(2, "C"))
    none = play_cards(stack(8, 3))
    assert (none.punto_third, none.banco_third) == (None, None)


@pytest.mark.rule("B-VAL-1")
def test_B_VAL_1_the_total_of_values_keeps_the_last_digit() -> None:
    from engine.punto_banco.coup import total

    assert [total(v) for v in ([5, 6], [0, 9], [7, 8, 9], [1, 0, 0], [])] == [1, 9, 4, 1, 0]


@pytest.mark.rule("B-BET-1")
@pytest.mark.parametrize(("balance", "says"), [(0, 0), (-3, 0), (4, 4)])
def test_B_BET_1_a_bet_beyond_the_chips_names_what_the_bettor_has(balance: int, says: int) -> None:
    rules = PuntoBancoRules(packs=1, min_bet=1, max_bet=100)
    err = amount_refusal(5, rules, balance=balance)
    assert err is not None
    assert (err.rule, err.key, err.params["amount"]) == ("B-BET-1", "engine.pb.only", says)
    assert amount_refusal(5, rules, balance=5) is None


@pytest.mark.rule("B-TABLE-1")
def test_B_TABLE_1_each_action_bumps_the_version_and_each_deal_the_coup_number() -> None:
    table = PuntoBancoTable(PuntoBancoRules(packs=1))
    assert (table.version, table.coup_no) == (0, 0)
    table.place_bet("ann", Side.PUNTO, 5)
    assert (table.version, table.coup_no) == (1, 0)
    table.deal(RandomChance(random.Random(3)))
    assert (table.version, table.coup_no) == (2, 1)
    table.deal(RandomChance(random.Random(4)))  # a coup with no bets is still a coup
    assert (table.version, table.coup_no) == (3, 2)
    again = PuntoBancoTable.from_json(table.to_json())
    assert (again.version, again.coup_no) == (3, 2)


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize("packs", [1, 8])
def test_B_TABLE_2_a_shoe_holds_one_to_eight_packs(packs: int) -> None:
    assert Shoe(packs).packs == packs
    assert Shoe().packs == 1  # a new shoe is one pack unless told


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize("packs", [0, 9])
def test_B_TABLE_2_a_shoe_of_no_pack_or_nine_is_refused(packs: int) -> None:
    with pytest.raises(ConfigError):
        Shoe(packs)


@pytest.mark.rule("B-BET-1")
def test_B_BET_1_what_each_actor_may_do_and_when_a_coup_is_over() -> None:
    table = PuntoBancoTable(PuntoBancoRules(packs=1, min_bet=1, max_bet=50))
    bets = [LegalAction(ActionKind.BET, side, 1, 50) for side in Side]
    assert table.legal_actions(CROUPIER) == [LegalAction(ActionKind.DEAL)]
    assert table.legal_actions("@house") == []
    assert table.legal_actions("ann") == bets
    assert table.is_terminal() is False and table.returns() == {}
    assert table.why_not(Action("ann", ActionKind.BET, Side.PUNTO, 5)) is None
    err = table.why_not(Action("ann", ActionKind.BET, Side.PUNTO, 0))
    assert err is not None and err.key == "engine.pb.zero"
    table.place_bet("ann", Side.PUNTO, 5)
    assert table.legal_actions("ann") == [
        *bets,
        LegalAction(ActionKind.WITHDRAW, Side.PUNTO),
        LegalAction(ActionKind.WITHDRAW),
    ]
    assert table.legal_actions("bob") == bets
    assert table.is_terminal() is False
    table.deal(RandomChance(random.Random(3)))
    assert table.is_terminal() is True
    assert set(table.returns()) == {"ann"}
    assert table.legal_actions("ann") == [*bets, LegalAction(ActionKind.REPEAT)]
    table.place_bet("bob", Side.BANCO, 5)
    assert table.is_terminal() is False
