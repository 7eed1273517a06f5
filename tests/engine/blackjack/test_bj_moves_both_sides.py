"""Every Blackjack rule that says when a move is allowed, on both sides (the cases are in
cases_bj.py): where the rules allow the move, ``legal_actions`` offers it and ``apply``
takes it; where they do not (after a hit, after a split, on a later hand, out of turn, at
a table without the option), ``legal_actions`` leaves it out, ``why_not`` and ``apply``
refuse it with the same reason, and nothing changes: not the table, not a chip."""

from __future__ import annotations

import random

import pytest
from cases_bj import CASES, MoveCase, build

from engine.blackjack import Action, ActionKind, HandOutcome, LegalAction
from engine.cards import RandomChance
from engine.errors import RuleError

K = ActionKind


def rule_marked(c: MoveCase) -> object:
    return pytest.param(c, id=c.id, marks=pytest.mark.rule(c.rule))


@pytest.mark.parametrize("c", [rule_marked(c) for c in CASES])
def test_a_move_is_offered_and_taken_only_where_the_rules_allow_it(c: MoveCase) -> None:
    table, chips = build(c)
    seat, kind, amount = c.move
    offers = {la.kind: la for la in table.legal_actions(seat)}
    assert (kind in offers) == c.offered, sorted(offers)
    action = Action(seat, kind, amount, chips[seat])
    if c.refusal is not None:
        why = table.why_not(action)
        assert why is not None and why.key == c.refusal and why.rule.startswith("BJ-")
        before = table.to_json()
        with pytest.raises(RuleError) as err:
            table.apply(action, RandomChance(random.Random(0)))
        assert (err.value.key, err.value.rule) == (c.refusal, why.rule)
        assert table.to_json() == before  # a refusal changes nothing
        return
    assert table.why_not(action) is None
    box = table.boxes[seat]
    hands, hand = len(box.hands), table.current_hand()
    bet = box.hands[0].bet
    out = table.apply(action, RandomChance(random.Random(0)))
    taken = sum(t.amount for t in out.transfers if t.src == seat)
    if kind is K.DOUBLE:
        assert offers[kind] == LegalAction(K.DOUBLE, 1, hand.bet if hand else None)
        assert hand is not None and hand.doubled == (amount or hand.bet) == taken
        assert len(hand.cards) == 3 and hand.done
    elif kind is K.SPLIT:
        assert len(box.hands) == hands + 1 and taken == bet
    elif kind is K.SURRENDER:
        assert box.hands[0].outcome is HandOutcome.SURRENDER
        assert box.hands[0].net == -(bet - bet // 2)
    elif kind is K.INSURANCE:
        assert offers[kind] == LegalAction(K.INSURANCE, 0, bet // 2)
        assert box.insurance == amount == taken
    elif kind is K.HIT:
        assert hand is not None and hand.cards[-1].code == out.events[0].card
    else:
        assert kind is K.STAND and hand is not None and hand.done


def test_every_rule_that_limits_a_move_has_both_sides() -> None:
    """Each rule id and move the cases cover has an allowed case and a refused one."""
    sides: dict[tuple[str, ActionKind], set[bool]] = {}
    for c in CASES:
        sides.setdefault((c.rule, c.move[1]), set()).add(c.refusal is None)
    one_sided = [k for k, v in sides.items() if v != {True, False}]
    assert one_sided == [
        ("BJ-SPLIT-1", K.STAND),  # split aces may stand: there is nothing else to refuse
        ("BJ-STAND-1", K.HIT),
        ("BJ-STAND-1", K.STAND),
        ("BJ-VAL-2", K.STAND),
    ], one_sided
    moves = {(rule, kind) for rule, kind in sides}
    for needed in [
        ("BJ-DOUBLE-1", K.DOUBLE),
        ("BJ-SPLIT-1", K.SPLIT),
        ("BJ-SPLIT-1", K.DOUBLE),
        ("BJ-SPLIT-1", K.HIT),
        ("BJ-SURR-1", K.SURRENDER),
        ("BJ-INS-1", K.INSURANCE),
        ("BJ-CHIPS-1", K.DOUBLE),
        ("BJ-CHIPS-1", K.SPLIT),
        ("BJ-CHIPS-1", K.INSURANCE),
        ("BJ-HIT-1", K.HIT),
    ]:
        assert needed in moves, needed
