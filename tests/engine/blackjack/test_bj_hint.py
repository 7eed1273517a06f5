"""The Blackjack hint (engine/blackjack/hint.py): the figures of the house-edge
computation (BJ-EDGE-1) for the hand being played, never from an unseen card."""

from __future__ import annotations

import random

import pytest
from helpers_bj import Game, chance

from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Phase
from engine.blackjack.hint import hint
from engine.blackjack.odds import basic_strategy
from engine.errors import RuleError

K = ActionKind


def test_a_first_decision_follows_the_basic_strategy_chart() -> None:
    # ann 10,6 against a ten up on a fresh six-deck shoe: the chart says hit (BJ-EDGE-1)
    game = Game(top=["TH", "KC", "6D", "7S"])
    game.table.shoe.dealt = 0
    game.round({"ann": 10})
    found = hint(game.table, "ann")
    chart = basic_strategy(game.rules)[("hard", 16, 10)]
    assert chart == "H"
    assert found.best.kind is K.HIT
    kinds = {a.kind for a in found.actions}
    assert kinds == {K.HIT, K.STAND, K.DOUBLE}  # no pair, no surrender at this table
    stand = next(a for a in found.actions if a.kind is K.STAND)
    assert -0.6 < stand.per_chip < -0.5  # 16 against a ten loses about 54%
    assert stand.chips == pytest.approx(10 * stand.per_chip)
    assert found.actions == tuple(sorted(found.actions, key=lambda a: -a.per_chip))


def test_eleven_against_a_six_doubles_and_surrender_is_valued_at_half() -> None:
    rules = BlackjackRules(surrender="late")
    game = Game(rules, top=["5H", "6C", "6D", "9S"])
    game.round({"ann": 4})
    found = hint(game.table, "ann")
    assert found.best.kind is K.DOUBLE and found.best.amount == 4
    surrender = next(a for a in found.actions if a.kind is K.SURRENDER)
    assert surrender.per_chip == -0.5 and surrender.chips == -2.0


@pytest.mark.rule("BJ-SURR-1")
@pytest.mark.parametrize(("bet", "lost"), [(5, 3), (1, 1), (3, 2), (10, 5)])
def test_surrender_is_valued_at_what_the_table_pays_back(bet: int, lost: int) -> None:
    # 16 against a ten: the hint's surrender figure is the chips the table keeps
    # (half the bet back, rounded down), the same as the round's result
    rules = BlackjackRules(surrender="late", min_bet=1)
    game = Game(rules, top=["TH", "KC", "6D", "7S"])
    game.round({"ann": bet})
    found = hint(game.table, "ann")
    surrender = next(a for a in found.actions if a.kind is K.SURRENDER)
    assert surrender.chips == pytest.approx(-lost)
    assert surrender.per_chip == pytest.approx(-lost / bet)
    game.act("ann", K.SURRENDER)
    assert game.table.boxes["ann"].hands[0].net == -lost


def test_on_a_bet_of_one_surrender_is_never_ranked_above_standing() -> None:
    # a bet of 1 surrenders for nothing back: giving up is the worst play there is
    rules = BlackjackRules(surrender="late", min_bet=1)
    game = Game(rules, top=["TH", "KC", "6D", "7S"])
    game.round({"ann": 1})
    found = hint(game.table, "ann")
    value = {a.kind: a.per_chip for a in found.actions}
    assert value[K.SURRENDER] == -1.0
    assert value[K.SURRENDER] < value[K.STAND] and value[K.SURRENDER] < value[K.HIT]
    assert found.best.kind is not K.SURRENDER


def test_insurance_is_valued_from_the_unseen_ten_value_cards() -> None:
    game = Game(top=["TH", "AC", "9D", "KS"])
    game.round({"ann": 10})
    assert game.table.phase is Phase.INSURANCE
    found = hint(game.table, "ann")
    take = next(a for a in found.actions if a.amount == 5)
    counts = 6 * 52 - 3  # the hole card is one of the unseen cards
    tens = 6 * 16 - 1  # ann's ten is seen, the hole card is not
    assert take.per_chip == pytest.approx(3 * tens / counts - 1)
    assert found.best.amount == 0  # a fresh shoe: insurance loses


def test_bad_input_is_refused_and_changes_nothing() -> None:
    game = Game(top=["TH", "KC", "6D", "7S", "9H", "8C"], seats=("ann", "bob"))
    with pytest.raises(RuleError):
        hint(game.table, "ann")  # no round
    game.round({"ann": 10, "bob": 10})
    before = game.table.to_json()
    for seat in ("bob", "zed", DEALER):  # out of turn, not seated, the dealer
        with pytest.raises(RuleError):
            hint(game.table, seat)
    hint(game.table, "ann")
    assert game.table.to_json() == before
    game.act("ann", K.STAND)
    game.act("bob", K.STAND)
    assert game.table.phase is Phase.ROUND_OVER
    with pytest.raises(RuleError):
        hint(game.table, "ann")  # after the round


def _scrambled(table: BlackjackTable, rng: random.Random) -> BlackjackTable:
    """The same table with the unseen cards reordered: the shoe shuffled and, while it
    is face down, the hole card swapped with a card of the shoe."""
    data = table.to_json()
    copy = BlackjackTable.from_json(data)
    cards = copy.shoe.pack.peek()
    rng.shuffle(cards)
    if copy.hole_card_hidden and cards:
        i = rng.randrange(len(cards))
        cards[i], copy.dealer[1] = copy.dealer[1], cards[i]
    copy.shoe.pack.replace(cards)
    return copy


@pytest.mark.parametrize("seed", range(6))
def test_privacy_the_figures_do_not_change_when_unseen_cards_are_reordered(seed: int) -> None:
    rng = random.Random(seed)
    rules = BlackjackRules(
        decks=rng.choice([1, 2, 6]),
        surrender=rng.choice(["none", "late"]),
        peek=rng.random() < 0.7,
        dealer=rng.choice(["s17", "h17"]),
    )
    game = Game(rules, seats=("ann", "bob"), chips=10**6, luck=chance(seed))
    checked = 0
    for _ in range(12):
        game.round({"ann": rng.randint(2, 10), "bob": 5})
        while game.table.phase in (Phase.INSURANCE, Phase.PLAYING):
            seat = game.table.to_act()[0]
            found = hint(game.table, seat)
            for _ in range(2):
                other = hint(_scrambled(game.table, rng), seat)
                assert other == found
            checked += 1
            la = rng.choice(game.table.legal_actions(seat))
            amount = la.max_amount if la.kind in (K.INSURANCE, K.DOUBLE) else None
            game.act(seat, la.kind, amount)
        game.ledger.move(game.table.apply(Action(DEALER, K.NEXT_ROUND)))
    assert checked >= 12
