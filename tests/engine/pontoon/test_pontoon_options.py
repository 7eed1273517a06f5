"""Table options, the payout table and the stored format (mutation testing).

The option bounds a table is created with (P-TABLE-1, P-TABLE-2, P-SHOOT-1, the house's
stand total), the defaults a table gets when an option is not given, the cover a
doubled round needs (P-VAR-3, P-PAY-LIMIT), and what a saved table looks like, so that a
snapshot stored by an earlier version still loads (the bot saves after every action).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pontoon_helpers import HOUSE, E, K, act, table
from pydantic import ValidationError

from engine.errors import ConfigError, RuleError
from engine.pontoon import Phase, PontoonRules, Table
from engine.pontoon.payouts import Payouts

SNAPSHOTS = Path(__file__).parent.parent / "data" / "snapshots_f3d7cce.json"


# ------------------------------------------------------------------ option bounds


@pytest.mark.rule("P-SHOOT-1")
@pytest.mark.parametrize(
    ("kitty_min", "kitty_max", "ok"),
    [(0, 100, False), (1, 100, True), (1, 1, True), (10, 9, False), (10, 10, True)],
)
def test_P_SHOOT_1_the_kitty_bounds_need_1_le_min_le_max(
    kitty_min: int, kitty_max: int, ok: bool
) -> None:
    if ok:
        rules = PontoonRules(shoot=True, kitty_min=kitty_min, kitty_max=kitty_max)
        assert (rules.kitty_min, rules.kitty_max) == (kitty_min, kitty_max)
    else:
        with pytest.raises(ValidationError, match="P-SHOOT-1"):
            PontoonRules(shoot=True, kitty_min=kitty_min, kitty_max=kitty_max)


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(("max_seats", "ok"), [(0, False), (1, False), (2, True), (3, True)])
def test_P_TABLE_1_a_seat_limit_must_leave_room_for_a_banker_and_a_player(
    max_seats: int, ok: bool
) -> None:
    if ok:
        assert PontoonRules(max_seats=max_seats).max_seats == max_seats
    else:
        with pytest.raises(ValidationError, match="P-TABLE-1"):
            PontoonRules(max_seats=max_seats)


@pytest.mark.parametrize(
    ("stands_on", "ok"), [(1, False), (2, True), (17, True), (21, True), (22, False)]
)
def test_the_house_stand_total_is_between_2_and_21(stands_on: int, ok: bool) -> None:
    if ok:
        rules = PontoonRules(house_bank=True, house_stands_on=stands_on)
        assert rules.house_stands_on == stands_on
    else:
        with pytest.raises(ValidationError, match="between 2 and 21"):
            PontoonRules(house_bank=True, house_stands_on=stands_on)


# ------------------------------------------------------------------ defaults


@pytest.mark.rule("P-SHOOT-1")
def test_P_SHOOT_1_a_default_shoot_table_takes_a_kitty_of_10_to_100() -> None:
    t = table(shoot=True, balance=500)  # the banker could afford more than 100
    before = t.to_json()
    for amount in (9, 101):
        with pytest.raises(RuleError) as ei:
            act(t, "cat", K.KITTY, amount)
        assert ei.value.rule == "P-SHOOT-1"
        assert t.to_json() == before
    kitty = {a.kind: a for a in t.legal_actions("cat")}[K.KITTY]
    assert (kitty.min_amount, kitty.max_amount) == (10, 100)
    act(t, "cat", K.KITTY, 100)
    assert t.kitty == 100 and t.phase is Phase.BETTING


@pytest.mark.parametrize(("second", "draws"), [("6H", True), ("7H", False)])
def test_by_default_the_house_draws_on_16_and_stands_on_17(second: str, draws: bool) -> None:
    # ann 10+9 sticks; the house holds 10 and `second`, then a 2 is on top of the pack.
    t = table(["10S", "10H", "9S", second, "2C", "3C"], seats=("ann",), house_bank=True)
    assert t.banker == HOUSE
    act(t, "ann", K.BET, 5)
    out = act(t, "ann", K.STICK)
    drawn = [e.cards for e in out.events if e.kind is E.BANKER_DRAW]
    assert drawn == ([("2C",)] if draws else [])
    stays = next(e for e in out.events if e.kind is E.BANKER_STAYS)
    assert stays.total == (18 if draws else 17)


# ------------------------------------------------------------------ the payout table


@pytest.mark.rule("P-VAR-3")
@pytest.mark.rule("P-PAY-LIMIT")
def test_P_VAR_3_the_cover_is_never_below_a_doubled_ordinary_result() -> None:
    # A doubled round pays and collects 2 for an ordinary result, so a banker and a
    # player must cover twice every stake even when every special result paid only 1.
    flat = Payouts(pontoon=1, five_card_trick=1, royal_pontoon=0, banker_pontoon=1,
                   banker_five_card_trick=1)  # fmt: skip
    assert flat.player_win(17, doubled=True) == 2
    assert flat.player_loss(17, doubled=True) == 2
    assert flat.banker_cover == 2
    assert flat.player_cover == 2


@pytest.mark.rule("P-VAR-4")
@pytest.mark.rule("P-VAR-6")
@pytest.mark.rule("P-PAY-LIMIT")
def test_P_PAY_LIMIT_the_cover_is_the_largest_payout_of_the_table() -> None:
    assert Payouts.for_rules(PontoonRules()).banker_cover == 2
    assert Payouts.for_rules(PontoonRules(pontoon_pays="triple")).banker_cover == 3
    assert Payouts.for_rules(PontoonRules(royal_pontoon=True)).banker_cover == 3
    assert Payouts.for_rules(PontoonRules(pontoon_pays="triple")).player_cover == 3
    assert Payouts.for_rules(PontoonRules(pontoon_pays="single")).player_cover == 2


# ------------------------------------------------------------------ the stored format


def saved() -> dict[str, Any]:
    return dict(json.loads(SNAPSHOTS.read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", ["pontoon_shoot_mid_round", "pontoon_doubling"])
def test_a_table_saved_by_an_earlier_version_loads_and_saves_the_same(name: str) -> None:
    stored = saved()[name]
    assert stored["format"] == 1 and "max_seats" not in stored["rules"]
    t = Table.from_json(stored)
    assert t.to_json() == stored
    seat = t.to_act()[0]
    assert t.legal_actions(seat)


def test_a_snapshot_of_an_unknown_format_is_refused() -> None:
    stored = saved()["pontoon_doubling"]
    with pytest.raises(ConfigError, match="format"):
        Table.from_json({**stored, "format": 2})


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_a_seat_limit_is_kept_when_the_table_is_saved_and_loaded() -> None:
    t = table(seats=("ann", "bob", "cat"), deal=False, max_seats=3)
    assert t.to_json()["rules"]["max_seats"] == 3
    back = Table.from_json(t.to_json())
    assert back.rules.max_seats == 3 and back.seat_limit == 3
    before = back.to_json()
    with pytest.raises(RuleError) as ei:
        act(back, "dan", K.JOIN, 100)
    assert ei.value.rule == "P-TABLE-1"
    assert back.to_json() == before


def test_a_table_without_a_seat_limit_stores_no_limit_key() -> None:
    assert "max_seats" not in table(deal=False).to_json()["rules"]
