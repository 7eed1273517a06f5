"""Properties of random Blackjack play under many table options: chips are conserved
through every transfer, no card is dealt twice from one shoe, the dealer follows S17 /
H17 exactly, ``why_not`` is what ``apply`` does (and changes nothing), what
``legal_actions`` offers is allowed, and the JSON round trip is exact at every step."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers_bj import Ledger, chance

from engine.blackjack import (
    DEALER,
    Action,
    ActionKind,
    BlackjackRules,
    BlackjackTable,
    Phase,
    RoundResult,
    hand_total,
)
from engine.cards import full_pack, parse_cards
from engine.errors import RuleError
from engine.records import ESCROW, HOUSE

K = ActionKind
SEATS = ["ann", "bob", "cat"]


def _rules(seed: int) -> BlackjackRules:
    rng = random.Random(seed)
    return BlackjackRules(
        decks=rng.choice([1, 2, 6]),
        penetration=rng.choice([50, 75, 90]),
        dealer=rng.choice(["s17", "h17"]),
        blackjack_pays=rng.choice(["3:2", "6:5"]),
        surrender=rng.choice(["none", "late"]),
        double_on=rng.choice(["any", "9-11", "10-11"]),
        double_after_split=rng.random() < 0.5,
        resplit_aces=rng.random() < 0.5,
        max_hands=rng.choice([2, 3, 4]),
        peek=rng.random() < 0.7,
        insurance=rng.random() < 0.8,
        min_bet=2,
        max_bet=40,
    )


def _random_action(t: BlackjackTable, ledger: Ledger, rng: random.Random) -> Action:
    actors = t.to_act() or [*SEATS, DEALER]
    actor = rng.choice(actors) if rng.random() < 0.8 else rng.choice([*SEATS, DEALER, "zed"])
    offered = t.legal_actions(actor)
    balance = ledger.accounts.get(actor, 0)
    if offered and rng.random() < 0.85:
        la = rng.choice(offered)
        amount = la.min_amount
        if la.min_amount is not None and la.max_amount is not None:
            amount = rng.randint(la.min_amount, la.max_amount)
        return Action(actor, la.kind, amount, balance)
    return Action(actor, rng.choice(list(K)), rng.choice([None, -1, 0, 1, 3, 20, 500]), balance)


def _cards_on_table(t: BlackjackTable) -> list[str]:
    if t.phase is Phase.ROUND_OVER:
        return []
    cards = [c.code for c in t.dealer]
    for box in t.boxes.values():
        for hand in box.hands:
            cards += [c.code for c in hand.cards]
    return cards


def _hits(total: int, soft: bool, h17: bool) -> bool:
    """BJ-DEALER-1 written out again: below 17, or a soft 17 under H17."""
    return total < 17 or (h17 and soft and total == 17)


def _check_dealer(result: RoundResult, rules: BlackjackRules) -> None:
    cards = parse_cards(result.dealer)
    compared = [h for h in result.hands if h.outcome.value in ("win", "lose", "push")]
    h17 = rules.dealer == "h17"
    if result.dealer_blackjack:
        assert len(cards) == 2
        return
    if not compared:  # every hand bust, surrendered or paid: the dealer does not draw
        assert len(cards) <= 2, result
        return
    for i in range(2, len(cards)):  # each card was drawn on a total the rule hits
        assert _hits(*hand_total(cards[:i]), h17), result
    total, soft = hand_total(cards)
    assert total > 21 or not _hits(total, soft, h17), result  # and it stopped in time


@pytest.mark.rule("BJ-CHIPS-1", "BJ-TABLE-2", "BJ-DEALER-1")
@pytest.mark.parametrize("seed", range(16))
def test_random_play_keeps_chips_cards_and_the_dealer_rule(seed: int) -> None:
    rng = random.Random(seed)
    rules = _rules(seed)
    t = BlackjackTable(rules)
    ledger = Ledger({s: 150 for s in SEATS})
    brought = ledger.total
    luck = chance(seed)
    full = Counter(c.code for c in full_pack(rules.decks))
    for s in SEATS:
        t.apply(Action(s, K.JOIN))
    rounds = 0
    for _ in range(700):
        action = _random_action(t, ledger, rng)
        before = t.to_json()
        refusal = t.why_not(action)
        assert t.to_json() == before
        try:
            out = t.apply(action, luck)
        except RuleError as exc:
            assert refusal is not None, action
            assert (exc.rule, exc.key, exc.params) == (refusal.rule, refusal.key, refusal.params)
            assert t.to_json() == before
            continue
        assert refusal is None, (action, refusal)
        ledger.move(out)
        # chips: nothing created or lost, escrow is what the table holds
        assert ledger.total == brought
        assert ledger[ESCROW] == t.escrow == sum(t.stake_of(s) for s in SEATS)
        assert all(ledger[s] >= 0 for s in SEATS)
        # cards: each card of the shoe in exactly one place
        held = Counter(c.code for c in t.shoe.pack.peek())
        held += Counter(c.code for c in t.shoe.discards)
        held += Counter(_cards_on_table(t))
        if t.shoe.shuffles:
            assert held == full
        if out.result is not None:
            rounds += 1
            _check_dealer(out.result, rules)
            assert t.returns() == out.result.net_by_seat()
        # the JSON round trip is exact
        assert BlackjackTable.from_json(t.to_json()).to_json() == t.to_json()
    assert rounds >= 3


@pytest.mark.rule("BJ-CHIPS-1")
@pytest.mark.parametrize("seed", range(4))
def test_the_house_gains_what_the_seats_lose(seed: int) -> None:
    """Over whole rounds, the house's net is minus the sum of the seats' returns."""
    rng = random.Random(seed)
    t = BlackjackTable(BlackjackRules(decks=2, surrender="late"))
    ledger = Ledger({s: 1000 for s in SEATS})
    luck = chance(seed)
    for s in SEATS:
        t.apply(Action(s, K.JOIN))
    seats_net = 0
    plays = (K.HIT, K.STAND, K.DOUBLE, K.SPLIT, K.SURRENDER, K.INSURANCE)
    for _ in range(40):
        for s in SEATS:
            ledger.move(t.apply(Action(s, K.BET, rng.randint(1, 20))))
        ledger.move(t.apply(Action(DEALER, K.DEAL), luck))
        while t.phase is not Phase.ROUND_OVER:
            actor = t.to_act()[0]
            la = rng.choice([a for a in t.legal_actions(actor) if a.kind in plays])
            ledger.move(t.apply(Action(actor, la.kind, la.max_amount), luck))
        seats_net += sum(t.returns().values())
        ledger.move(t.apply(Action(DEALER, K.NEXT_ROUND)))
    assert t.escrow == 0 == ledger[ESCROW]
    assert ledger[HOUSE] == -seats_net != 0
    assert sum(ledger[s] for s in SEATS) == 3000 + seats_net
