"""Computer players at a Pontoon table, through the service with a real SQLite store: the
opener seats them (at the start or between rounds), they bet the table minimum and play
the hint's best action through the host's one move path after a short pause, with the
house's chips; they never bank, leave with the last member and resume after a restart."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.audit import audit
from bot.errors import ServiceError
from bot.pontoon import (
    OpenPontoonTable,
    PontoonService,
    PontoonTimers,
    broke_computers,
    computer_action,
    computer_chips,
)
from bot.storage import Store, house_account, member_account
from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon import PontoonRules
from engine.pontoon.payouts import Payouts
from engine.pontoon.types import ActionKind, EventKind, Phase
from tests.waiting import eventually

G, CH = 1, 10
ANN, BOB, CAT = 100, 200, 300
FAST = (0.01, 0.02)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


def service(
    store: Store, *, pause: tuple[float, float] = FAST, seed: int = 5, turn: float = 600
) -> PontoonService:
    return PontoonService(
        store,
        chance=RandomChance(random.Random(seed)),
        timers=PontoonTimers(turn, turn, 600, computer_pause=pause),
    )


async def chips(store: Store) -> dict[str, int]:
    """Every account that could take part: the two members, the house, the escrows."""
    accounts = [member_account(G, ANN), member_account(G, BOB), house_account(G)]
    return await store.balances(accounts)


async def play_rounds(svc: PontoonService, live: OpenPontoonTable, rounds: int) -> None:
    """Ann deals, bets the minimum and plays like the timer would; the computers play
    themselves. Returns when ``rounds`` rounds are settled."""
    for _ in range(rounds):
        start = live.engine.round_no
        await svc.deal(live.table_id, ANN)
        while live.engine.round_no == start or live.engine.phase not in (
            Phase.WAITING,
            Phase.ROUND_OVER,
        ):
            eng = live.engine
            if str(ANN) in eng.to_act():
                if eng.phase is Phase.BETTING:
                    await svc.act(live.table_id, ANN, ActionKind.BET, amount=eng.rules.min_bet)
                else:
                    action = eng.timeout_action(str(ANN))
                    assert action is not None
                    await svc.act(live.table_id, ANN, action.kind)
                continue
            v = eng.version
            await eventually(lambda v=v: live.engine.version != v, what="the computers' move")


async def test_a_member_alone_with_the_house_and_two_computers_gets_a_full_table(
    store: Store,
) -> None:
    svc = service(store)
    await store.ensure_member(G, ANN)
    before = await chips(store)
    live = await svc.open_table(
        G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann", computers=2
    )
    assert live.engine.seats == [str(ANN), "cpu-1", "cpu-2"]
    assert live.engine.balances["cpu-1"] == computer_chips(live.engine.rules)
    assert await chips(store) == before  # lending the house's chips moves nothing
    await play_rounds(svc, live, 3)
    bets = [e.event for e in live.round_log if e.event.kind is EventKind.BET and e.event.seat]
    assert {e.seat for e in bets} == {str(ANN), "cpu-1", "cpu-2"}  # in the table's log
    assert all(e.amount == 1 for e in bets if e.seat != str(ANN))  # the table minimum
    after = await chips(store)
    # conserved: what ann won or lost, the house lost or won (the computers' included)
    assert sum(after.values()) == sum(before.values())
    report = await audit(store)
    assert report.ok, report.summary()
    assert report.computer_players == 2
    assert "computer player(s) seated: they play with the house's chips" in report.summary()
    await svc.shutdown()


async def test_a_computers_wins_and_losses_move_the_house_never_a_member(store: Store) -> None:
    # a player-banked table: ann banks, the computer plays against her
    svc = service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann", computers=1)
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await store.ensure_member(G, BOB)
    before = await chips(store)
    await svc.deal(live.table_id, ANN)  # the cut: the computer does not cut
    cutters = {e.event.seat for e in live.round_log if e.event.kind is EventKind.CUT_CARD}
    assert "cpu-1" not in cutters and live.engine.banker in (str(ANN), str(BOB))
    banker = int(live.engine.banker or 0)
    other = ANN if banker == BOB else BOB
    while live.engine.phase not in (Phase.WAITING, Phase.ROUND_OVER):
        eng = live.engine
        waiting = eng.to_act()
        if str(other) in waiting and eng.phase is Phase.BETTING:
            await svc.act(live.table_id, other, ActionKind.SIT_OUT)
        elif waiting and not waiting[0].startswith("cpu-"):
            action = eng.timeout_action(waiting[0])
            assert action is not None
            await svc.act(live.table_id, int(waiting[0]), action.kind)
        else:
            v = eng.version
            await eventually(lambda v=v: live.engine.version != v, what="the computer's move")
    after = await chips(store)
    (net,) = [
        e.event.amount
        for e in live.round_log
        if e.event.kind is EventKind.HAND_RESULT and e.event.seat == "cpu-1"
    ]
    assert net is not None
    # the computer's result is the house's; the sitting-out member is untouched
    assert after[member_account(G, other)] == before[member_account(G, other)]
    assert after[house_account(G)] - before[house_account(G)] == net
    assert after[member_account(G, banker)] - before[member_account(G, banker)] == -net
    assert (await audit(store)).ok
    await svc.shutdown()


async def test_who_may_add_a_computer_and_when(store: Store) -> None:
    svc = service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    snap = live.snapshot()
    with pytest.raises(ServiceError) as refused:
        await svc.add_computer(live.table_id, BOB)  # not the opener
    assert refused.value.key == "err.pt.computers_opener"
    assert live.snapshot() == snap
    for n in (1, 2, 3):
        await svc.add_computer(live.table_id, ANN)
        assert f"cpu-{n}" in live.engine.seats
    snap = live.snapshot()
    with pytest.raises(ServiceError) as refused:
        await svc.add_computer(live.table_id, ANN)  # a fourth
    assert refused.value.key == "err.pt.computers_most"
    assert live.snapshot() == snap
    await svc.act(live.table_id, BOB, ActionKind.LEAVE)
    await svc.deal(live.table_id, ANN)
    snap = live.snapshot()
    with pytest.raises(ServiceError) as refused:
        await svc.add_computer(live.table_id, ANN)  # mid-round
    assert refused.value.key == "err.pt.computers_between"
    assert live.engine.seats == [str(ANN), "cpu-1", "cpu-2", "cpu-3"]
    await svc.shutdown()
    assert (await audit(store)).ok


async def test_once_the_opener_has_left_a_seated_member_may_add_a_computer(
    store: Store,
) -> None:
    svc = service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.act(live.table_id, ANN, ActionKind.LEAVE)  # the opener goes, bob stays
    snap = live.snapshot()
    with pytest.raises(ServiceError) as refused:
        await svc.add_computer(live.table_id, CAT)  # not at the table
    assert refused.value.key == "err.pt.computers_seated"
    assert live.snapshot() == snap
    await svc.add_computer(live.table_id, BOB)
    assert live.engine.seats == [str(BOB), "cpu-1"]
    await svc.act(live.table_id, ANN, ActionKind.JOIN)  # the opener is back: hers again
    with pytest.raises(ServiceError) as refused:
        await svc.add_computer(live.table_id, BOB)
    assert refused.value.key == "err.pt.computers_opener"
    await svc.add_computer(live.table_id, ANN)
    assert live.engine.seats == [str(BOB), "cpu-1", str(ANN), "cpu-2"]
    await svc.shutdown()
    assert (await audit(store)).ok


async def test_a_computer_that_cannot_cover_the_smallest_bet_leaves_at_the_next_deal(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # lent just enough for one smallest bet (and the double loss it may bring), the
    # computer is broke after the first round it loses
    monkeypatch.setattr(
        "bot.pontoon.computer_chips",
        lambda rules: rules.min_bet * Payouts.for_rules(rules).player_cover,
    )
    svc = service(store)
    await store.ensure_member(G, ANN)
    before = await chips(store)
    rules = PontoonRules(house_bank=True, min_bet=2)
    live = await svc.open_table(G, CH, ANN, rules, opener_name="ann", computers=1)
    for _ in range(40):
        if broke_computers(live.engine):
            break
        await play_rounds(svc, live, 1)
    assert broke_computers(live.engine) == ["cpu-1"], "the computer never lost"
    assert live.engine.player_cap("cpu-1") < rules.min_bet
    house = (await chips(store))[house_account(G)]
    await svc.deal(live.table_id, ANN)
    assert "cpu-1" not in live.engine.seats
    assert any(e.event.kind is EventKind.LEFT and e.event.seat == "cpu-1" for e in live.round_log)
    assert live.engine.round_no > 0 and live.engine.phase is Phase.BETTING  # dealt on
    after = await chips(store)
    assert after[house_account(G)] == house  # what it had left went back to the house
    assert sum(after.values()) == sum(before.values())
    assert live.engine.seats == [str(ANN)]  # its seat is free (for a new one, lent anew)
    await svc.shutdown()
    assert (await audit(store)).ok


async def test_no_computer_beyond_the_seat_limit(store: Store) -> None:
    svc = service(store)
    rules = PontoonRules(house_bank=True, max_seats=2)
    live = await svc.open_table(G, CH, ANN, rules, opener_name="ann", computers=1)
    snap = live.snapshot()
    with pytest.raises(RuleError) as refused:
        await svc.add_computer(live.table_id, ANN)
    assert refused.value.key == "engine.table_full_at"
    assert live.snapshot() == snap
    with pytest.raises(ServiceError):
        await svc.open_table(G, CH + 1, BOB, rules, computers=4)
    await svc.shutdown()


async def test_computers_leave_with_the_last_member(store: Store) -> None:
    svc = service(store)
    await store.ensure_member(G, ANN)
    before = await chips(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann", computers=2)
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.act(live.table_id, BOB, ActionKind.LEAVE)
    assert live.engine.seats == [str(ANN), "cpu-1", "cpu-2"]  # a member is still there
    await svc.act(live.table_id, ANN, ActionKind.LEAVE)
    assert live.engine.seats == []
    assert live.engine.house_net == 0
    after = await chips(store)
    assert after[house_account(G)] == before[house_account(G)]
    await svc.shutdown()
    assert (await audit(store)).ok


async def test_a_computers_pending_move_resumes_after_a_restart(store: Store) -> None:
    slow = service(store, pause=(600, 600))
    live = await slow.open_table(
        G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann", computers=1
    )
    await slow.deal(live.table_id, ANN)
    await slow.act(live.table_id, ANN, ActionKind.BET, amount=2)
    assert live.engine.to_act() == ["cpu-1"]  # waiting out its pause
    await slow.shutdown()
    assert (await audit(store)).ok  # mid-round: the escrow holds ann's stake
    # after a restart, the computer's bet (from the house) joins it
    again = service(store)
    (loaded,) = await again.load()
    await eventually(
        lambda: "cpu-1" not in loaded.engine.to_act(), what="the computer's bet after a restart"
    )
    bet = [e.event for e in loaded.round_log if e.event.kind is EventKind.BET]
    assert [(e.seat, e.amount) for e in bet] == [(str(ANN), 2), ("cpu-1", 1)]
    report = await audit(store)
    assert report.ok, report.summary()
    assert report.computer_players == 1
    await again.shutdown()


def test_a_computer_plays_the_hints_best_action() -> None:
    from engine.cards import ScriptedChance, full_pack, parse_card
    from engine.pontoon import Action, Table
    from engine.pontoon.hint import hint_for

    top = [parse_card(c) for c in ("9S", "10H", "5C", "8D")]
    rest = [c for c in full_pack(1) if c not in top]
    t = Table(PontoonRules(house_bank=True), ["cpu-1"], {"cpu-1": 100}, pack=top + rest)
    t.apply(Action("cpu-1", ActionKind.DEAL), ScriptedChance([], 0))
    bet = computer_action(t, "cpu-1")
    assert bet == Action("cpu-1", ActionKind.BET, amount=1)
    t.apply(bet, ScriptedChance([], 0))
    assert t.phase is Phase.PLAYING
    best = hint_for(t, "cpu-1").best
    assert computer_action(t, "cpu-1") == Action("cpu-1", best.kind, amount=best.amount)
    assert computer_action(t, "ann") is None


LOCALES = ("en", "de", "fr", "hi", "fa")


def labels(comps: object) -> set[str]:
    """Every button label in a layout's components."""
    if isinstance(comps, list):
        return set().union(*(labels(c) for c in comps)) if comps else set()
    if isinstance(comps, dict):
        own = {comps["label"]} if comps.get("type") == 2 and "label" in comps else set()
        return own | labels(comps.get("components", []))
    return set()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_computer_player_is_shown_as_one_in_every_language(locale: str) -> None:
    from bot.i18n import t
    from engine.cards import RandomChance as Chance
    from engine.pontoon import Action, Table
    from tests.bot.test_pontoon_words import IDS, presenter

    eng = Table(PontoonRules(house_bank=True, max_seats=20))
    chance = Chance(random.Random(2))
    eng.apply(Action(IDS[0], ActionKind.JOIN, amount=100), chance)
    eng.apply(Action("cpu-1", ActionKind.JOIN, amount=100), chance)
    eng.apply(Action("cpu-2", ActionKind.JOIN, amount=100), chance)
    live = OpenPontoonTable("abc123", 1, 2, int(IDS[0]), eng, names={IDS[0]: "ann"})
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    name = p.namer(live, locale)
    shown = [name(s) for s in eng.seats]
    assert shown[1] == t(locale, "pt.computer", n=1) and "🤖" in shown[1]
    assert shown[2] == t(locale, "pt.computer", n=2)
    comps = p.layout(live).to_components()
    text = "\n".join(c.get("content", "") for c in comps[0]["components"])
    assert "cpu-" not in text  # the seat id is never shown
    assert t(locale, "pt.button.computer") in labels(comps)  # the opener's, translated
    eng.apply(Action(IDS[0], ActionKind.DEAL), chance)
    eng.apply(Action(IDS[0], ActionKind.BET, amount=1), chance)
    eng.apply(Action("cpu-1", ActionKind.BET, amount=1), chance)
    comps = p.layout(live).to_components()
    text = "\n".join(c.get("content", "") for c in comps[0]["components"])
    assert "cpu-" not in text
    assert t(locale, "pt.button.computer") not in labels(comps)  # mid-round: not shown


def test_the_ledger_books_a_computers_chips_to_the_house() -> None:
    from bot.storage.accounts import map_engine_account
    from bot.storage.ledger import to_moves
    from engine.records import Transfer

    assert map_engine_account("cpu-2", G, "t1") == house_account(G)
    moves = to_moves(
        [
            Transfer("@house", "cpu-1", 200, "lent"),  # the house to itself: nothing moves
            Transfer("cpu-1", "@escrow", 1, "bet"),
            Transfer("@escrow", "cpu-1", 2, "won"),
        ],
        G,
        "t1",
    )
    assert [(m.src, m.dst, m.amount) for m in moves] == [
        (house_account(G), "escrow:t1", 1),
        ("escrow:t1", house_account(G), 2),
    ]
    with pytest.raises(ValueError):  # any other move to itself is still a bug
        to_moves([Transfer("@house", "@house", 1, "x")], G, "t1")


def test_a_computer_counts_the_cards_of_earlier_rounds_as_a_member_would() -> None:
    from bot.pontoon_hint import hint_inputs
    from engine.cards import ScriptedChance, full_pack, parse_card
    from engine.pontoon import Action, Table

    hand = ("9S", "10H", "7C", "8D")  # the computer gets 9 and 7: 16
    top = [parse_card(c) for c in hand]
    rest = [c for c in full_pack(1) if c not in top]
    t = Table(PontoonRules(house_bank=True), ["cpu-1"], {"cpu-1": 100}, pack=top + rest)
    t.apply(Action("cpu-1", ActionKind.DEAL), ScriptedChance([], 0))
    bet = computer_action(t, "cpu-1")
    assert bet is not None
    t.apply(bet, ScriptedChance([], 0))
    # from a fresh pack 16 sticks; once the earlier rounds showed every other ten-value
    # card, the pack left is small cards and twisting is the better play
    tens = [f"{r}{s}" for r in ("10", "J", "Q", "K") for s in "HDCS" if f"{r}{s}" not in hand]
    fresh = computer_action(t, "cpu-1")
    counted = computer_action(t, "cpu-1", tens)
    assert fresh is not None and fresh.kind is ActionKind.STICK
    asked = hint_inputs(t, "cpu-1", tens, [])
    assert asked is not None
    best = asked.compute().best
    assert counted == Action("cpu-1", best.kind, amount=best.amount)
    assert best.kind is ActionKind.TWIST
