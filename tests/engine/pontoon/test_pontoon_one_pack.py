"""With one pack and as many seats as the rules allow, every
action checks everything (cards left included) before it changes anything, so a refused
action leaves the table exactly as it was (P-TABLE-1)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import RandomChance
from engine.errors import EngineError, RuleError
from engine.pontoon import Action, ActionKind, Phase, PontoonRules, Table

K = ActionKind


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(("house", "limit"), [(False, 26), (True, 25)])
def test_one_pack_seats_at_most_two_cards_each(house: bool, limit: int) -> None:
    rules = PontoonRules(packs=1, house_bank=house)
    t = Table(rules)
    assert t.seat_limit == limit
    for i in range(limit):
        t.apply(Action(f"p{i}", K.JOIN, 50), RandomChance(random.Random(0)))
    assert [la.kind for la in t.legal_actions("late")] == []
    before = t.to_json()
    with pytest.raises(RuleError) as err:
        t.apply(Action("late", K.JOIN, 50), RandomChance(random.Random(0)))
    assert err.value.rule == "P-TABLE-1"
    assert "the table is full" in err.value.message and str(limit) in err.value.message
    assert t.to_json() == before


@pytest.mark.rule("P-TABLE-1")
def test_a_deal_that_could_not_be_completed_is_refused_before_anything_changes() -> None:
    # 27 seats on one pack (e.g. a table saved before the seat limit): the first card
    # would go round, but the second could not. The deal is refused up front.
    seats = [f"p{i}" for i in range(27)]
    t = Table(PontoonRules(packs=1), seats, {s: 100 for s in seats}, banker="p0")
    assert K.DEAL not in {la.kind for la in t.legal_actions("p0")}
    before = t.to_json()
    with pytest.raises(RuleError) as err:
        t.apply(Action("p0", K.DEAL), RandomChance(random.Random(1)))
    assert err.value.rule == "P-TABLE-1"
    assert "not enough cards left for another deal" in err.value.message
    assert "27 seats need 54 cards" in err.value.message
    assert t.to_json() == before
    # one seat leaves: the deal goes ahead and the last bet deals everyone a second card
    t.apply(Action("p26", K.LEAVE), RandomChance(random.Random(1)))
    t.apply(Action("p0", K.DEAL), RandomChance(random.Random(1)))
    for seat in t.to_act():
        t.apply(Action(seat, K.BET, 1), RandomChance(random.Random(1)))
    assert t.phase in (Phase.PLAYING, Phase.ROUND_OVER)
    assert len(t.pack) == 0


def _random_action(t: Table, rng: random.Random) -> Action:
    """Mostly a legal move of someone the table waits for; otherwise anything at all."""
    waiting = t.to_act() or list(t.seats) or ["stranger"]
    if t.phase is Phase.BANKER and t.banker is not None:
        waiting = [t.banker]
    if rng.random() < 0.75:
        seat = rng.choice(waiting)
        offered = [la for la in t.legal_actions(seat) if la.kind is not K.LEAVE]
        if offered:
            la = rng.choice(offered)
            if la.kind is K.SIT_OUT and rng.random() < 0.9:
                la = offered[0]  # mostly bet: a full table is what runs the pack out
            amount = None
            if la.min_amount is not None:
                most = la.max_amount if la.max_amount is not None else la.min_amount + 5
                amount = rng.randint(la.min_amount, max(la.min_amount, most))
            target = rng.choice(t.seats) if la.kind is K.SELL_BANK else None
            return Action(seat, la.kind, amount, None, target)
    seat = rng.choice([*t.seats, "stranger"])
    if rng.random() < 0.5:  # mostly someone the table waits for, to reach the pack's end
        seat = rng.choice(waiting)
    amount = rng.choice([None, -1, 0, 1, 2, 5, 10**9, True])
    shoot = rng.choice([None, None, 0, 1, -3])
    return Action(seat, rng.choice(list(K)), amount, shoot, rng.choice([None, *t.seats]))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    house=st.booleans(),
    shoot=st.booleans(),
    burn=st.sampled_from(["off", "13", "14"]),
    doubles=st.booleans(),
)
def test_one_pack_most_seats_a_refused_action_changes_nothing(
    seed: int, house: bool, shoot: bool, burn: str, doubles: bool
) -> None:
    rng = random.Random(seed)
    rules = PontoonRules(
        packs=1,
        min_bet=1,
        max_bet=5,
        house_bank=house,
        shoot=shoot and not house,
        burn=burn,  # type: ignore[arg-type]
        banker_doubles=doubles,
    )
    chance = RandomChance(random.Random(seed ^ 0xC0FFEE))
    t = Table(rules)
    for i in range(t.seat_limit):
        t.apply(Action(f"s{i}", K.JOIN, rng.choice([0, 3, 40, 400, 400, 400])), chance)
    if not house:
        t.apply(Action("s0", K.CUT), chance)
    refused = 0
    for _ in range(500):
        action = _random_action(t, rng)
        before = t.to_json()
        try:
            t.apply(action, chance)
        except RuleError as exc:
            refused += 1
            assert exc.rule.startswith("P-") and exc.message, exc
            assert t.to_json() == before, (action, exc)
        except EngineError as exc:  # pragma: no cover - the bug this test guards against
            raise AssertionError(f"{action} raised {exc!r} instead of a RuleError") from exc
        if len(t.seats) < 2 or (t.phase is Phase.WAITING and t.round_no >= 3):
            break
    assert refused > 0
