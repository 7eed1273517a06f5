"""PontoonService with the real engine and a real SQLite store: timers, stale buttons, one
table per channel, the bank sale and auction, closing mid-round. No Discord here."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.audit import audit
from bot.errors import BusyElsewhere, NotSeated, ServiceError, StaleButton, TableExists
from bot.host import Change
from bot.i18n import Msg
from bot.pontoon import OpenPontoonTable, PontoonService, PontoonTimers
from bot.storage import Store
from bot.storage.errors import DatabaseBusy
from bot.storage.migrations import load_migrations
from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, EventKind, Phase
from tests.waiting import eventually

G, CH, CH2 = 1, 10, 11
ANN, BOB, CAT = 100, 200, 300


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


def service(
    store: Store, *, bet: float = 600, turn: float = 600, idle: float = 600, seed: int = 3
) -> PontoonService:
    return PontoonService(
        store, chance=RandomChance(random.Random(seed)), timers=PontoonTimers(bet, turn, idle)
    )


async def seated(
    svc: PontoonService, rules: PontoonRules | None = None, *others: int
) -> OpenPontoonTable:
    live = await svc.open_table(G, CH, ANN, rules or PontoonRules(), opener_name="ann")
    for uid in others or (BOB,):
        await svc.act(live.table_id, uid, ActionKind.JOIN)
    return live


async def ledger_ok(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()


async def test_one_table_per_channel_and_one_table_per_member(store: Store) -> None:
    svc = service(store)
    live = await seated(svc)
    with pytest.raises(TableExists):
        await svc.open_table(G, CH, CAT, PontoonRules())
    with pytest.raises(BusyElsewhere):  # ann already sits at a table of this server
        await svc.open_table(G, CH2, ANN, PontoonRules())
    with pytest.raises(NotSeated):
        await svc.act(live.table_id, CAT, ActionKind.BET, amount=2)
    await svc.shutdown()


async def test_stale_version_changes_nothing(store: Store) -> None:
    svc = service(store)
    live = await seated(svc)
    v = live.engine.version
    await svc.deal(live.table_id, ANN, version=v)
    before = live.engine.to_json()
    with pytest.raises(StaleButton):
        await svc.deal(live.table_id, ANN, version=v)  # a second click on the same Deal
    assert live.engine.to_json() == before
    await svc.shutdown()


async def test_bet_timer_sits_players_out(store: Store) -> None:
    svc = service(store, bet=0.3)
    live = await seated(svc, None, BOB, CAT)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.BETTING
    players = [s for s in live.engine.seats if s != live.engine.banker]
    await svc.act(live.table_id, int(players[0]), ActionKind.BET, amount=2)
    await eventually(
        lambda: live.engine.phase is not Phase.BETTING,
        timeout=10,
        what="live.engine.phase is not Phase.BETTING",
    )
    # the one who did not bet sits the round out; the round goes on for the other
    view = live.engine.public_view()
    sitting = {s.seat for s in view.seats if s.sitting_out}
    assert sitting == {players[1]}
    assert live.engine.phase in (Phase.PLAYING, Phase.BANKER, Phase.WAITING)
    await svc.shutdown()
    await ledger_ok(store)


async def test_turn_timer_plays_a_safe_hand_and_the_banker_stays(store: Store) -> None:
    svc = service(store, turn=0.2)
    live = await seated(svc)
    await svc.deal(live.table_id, ANN)
    player = next(s for s in live.engine.seats if s != live.engine.banker)
    balance = live.engine.balances[player]
    await svc.act(live.table_id, int(player), ActionKind.BET, amount=3)
    await eventually(
        lambda: live.engine.phase is Phase.WAITING,
        timeout=10,
        what="live.engine.phase is Phase.WAITING",
    )
    assert live.engine.phase is Phase.WAITING, live.engine.phase
    # timeouts never buy: the stake stayed 3, so the player won or lost 3 or 6 at most
    assert abs(live.engine.balances[player] - balance) in (3, 6)
    await svc.shutdown()
    await ledger_ok(store)


async def test_bank_sale_moves_chips_and_the_bank(store: Store) -> None:
    svc = service(store)
    live = await seated(svc)
    await svc.deal(live.table_id, ANN)
    banker = int(live.engine.banker or 0)
    buyer = BOB if banker == ANN else ANN
    with pytest.raises(RuleError):  # between hands only
        await svc.offer_bank(live.table_id, banker, buyer, 5)
    await svc.close(
        live.table_id, Msg("reason.ended_by", name="alice")
    )  # mid-round: stakes back, ledger balanced
    await ledger_ok(store)

    live = await seated(svc)
    await svc.deal(live.table_id, ANN)
    # play the round out: the player sticks or twists, the banker stays
    for _ in range(30):
        eng = live.engine
        if eng.phase is Phase.BETTING:
            p = next(s for s in eng.to_act())
            await svc.act(live.table_id, int(p), ActionKind.BET, amount=2)
            continue
        if eng.phase not in (Phase.PLAYING, Phase.BANKER):
            break
        seat = eng.to_act()[0]
        action = eng.timeout_action(seat)
        assert action is not None
        await svc.act(live.table_id, int(seat), action.kind)
    assert live.engine.phase is Phase.WAITING
    banker = int(live.engine.banker or 0)
    buyer = BOB if banker == ANN else ANN
    before = dict(live.engine.balances)
    with pytest.raises(RuleError):
        await svc.offer_bank(live.table_id, buyer, banker, 5)  # only the banker sells
    await svc.offer_bank(live.table_id, banker, buyer, 7)
    with pytest.raises(ServiceError):
        await svc.accept_bank(live.table_id, CAT)  # not the buyer
    await svc.accept_bank(live.table_id, buyer)
    assert live.engine.banker == str(buyer)
    assert live.engine.balances[str(buyer)] == before[str(buyer)] - 7
    assert live.engine.balances[str(banker)] == before[str(banker)] + 7
    await svc.shutdown()
    await ledger_ok(store)


async def test_auction_of_the_bank_with_an_empty_kitty(store: Store) -> None:
    svc = service(store)
    rules = PontoonRules(shoot=True, kitty_min=10, kitty_max=50)
    live = await seated(svc, rules, BOB, CAT)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.KITTY
    banker = int(live.engine.banker or 0)
    bidders = [u for u in (ANN, BOB, CAT) if u != banker]
    with pytest.raises(RuleError):
        await svc.open_auction(live.table_id, bidders[0], 0.3)  # only the banker
    await svc.open_auction(live.table_id, banker, 0.4)
    await svc.bid(live.table_id, bidders[0], 5)
    with pytest.raises(RuleError):
        await svc.bid(live.table_id, bidders[1], 5)  # must beat the highest bid
    with pytest.raises(RuleError):
        await svc.bid(live.table_id, bidders[1], 5000)  # more than they hold
    await svc.bid(live.table_id, bidders[1], 9)
    await eventually(lambda: live.auction is None, timeout=10, what="live.auction is None")
    assert live.engine.banker == str(bidders[1])
    assert live.engine.balances[str(banker)] == 1009
    await svc.shutdown()
    await ledger_ok(store)


async def test_reload_restores_every_table_exactly(store: Store) -> None:
    svc = service(store)
    live = await seated(svc)
    await svc.deal(live.table_id, ANN)
    snap = live.engine.to_json()
    await svc.shutdown()
    again = service(store)
    loaded = await again.load()
    assert [t.table_id for t in loaded] == [live.table_id]
    assert loaded[0].engine.to_json() == snap
    assert loaded[0].names == live.names
    await again.shutdown()


async def test_a_table_timer_overrides_the_bot_setting(store: Store) -> None:
    svc = service(store)  # the bot's timers: 600 s
    live = await svc.open_table(G, CH, ANN, PontoonRules(), turn_seconds=0.2)
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    await eventually(
        lambda: live.engine.phase is Phase.WAITING,
        timeout=10,
        what="live.engine.phase is Phase.WAITING",
    )
    # nobody bet in 0.2 s: the player sat out and the round ended by itself
    assert live.engine.phase is Phase.WAITING
    again = service(store)
    (loaded,) = await again.load()
    assert loaded.turn_seconds == 0.2
    await svc.shutdown()
    await again.shutdown()
    await ledger_ok(store)


async def test_audit_holds_escrow_against_the_table_state(store: Store) -> None:
    svc = service(store)
    live = await seated(svc)
    await svc.deal(live.table_id, ANN)
    player = next(s for s in live.engine.seats if s != live.engine.banker)
    await svc.act(live.table_id, int(player), ActionKind.BET, amount=4)
    await ledger_ok(store)  # escrow 4 in the ledger, 4 in the saved state
    # a snapshot saved without its transfers (a bug the audit must catch)
    live.engine.escrow += 1
    await svc._persist(live, [], "tampered")
    report = await audit(store)
    assert not report.ok
    assert any("escrow" in p and "state says 5" in p for p in report.problems), report.problems
    await svc.shutdown()


async def test_the_rounds_log_and_last_stakes_survive_a_restart(store: Store) -> None:
    """The table message's log of the round (and Same bet's stake) are saved with the
    table in the same transaction, so a restart mid-round loses neither."""
    svc = service(store)
    live = await seated(svc, None, BOB)
    await svc.deal(live.table_id, ANN)
    banker = live.engine.banker
    player = BOB if banker == str(ANN) else ANN
    await svc.act(live.table_id, player, ActionKind.BET, amount=3)
    kinds = [e.event.kind for e in live.round_log]
    assert EventKind.BET in kinds and all(e.event.to is None for e in live.round_log)
    assert live.last_bets == {str(player): 3}
    again = service(store)
    (loaded,) = await again.load()
    assert loaded.round_log == live.round_log
    assert loaded.last_bets == {str(player): 3}
    assert loaded.round_over is False
    await svc.shutdown()
    await again.shutdown()


async def test_a_timer_move_is_logged_as_the_timers(store: Store) -> None:
    svc = service(store, bet=0.2)
    live = await seated(svc, None, BOB)
    await svc.deal(live.table_id, ANN)
    await eventually(
        lambda: live.engine.phase is Phase.WAITING,
        timeout=10,
        what="live.engine.phase is Phase.WAITING",
    )
    assert live.engine.phase is Phase.WAITING  # the player sat out: the round ended
    timed = [e for e in live.round_log if e.by_timer]
    assert timed and not any(
        e.by_timer for e in live.round_log if e.event.kind is EventKind.CUT_CARD
    )
    assert live.round_over
    # the next deal starts a new log
    dealer = live.engine.banker or live.engine.next_banker or str(ANN)
    await svc.deal(live.table_id, int(dealer))
    assert not live.round_over and all(not e.by_timer for e in live.round_log)
    await svc.shutdown()


async def test_a_refused_save_leaves_the_log_as_it_was(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = service(store)
    live = await seated(svc, None, BOB)
    await svc.deal(live.table_id, ANN)
    player = BOB if live.engine.banker == str(ANN) else ANN
    log_before = list(live.round_log)

    async def refuse(*args: object, **kwargs: object) -> None:
        raise DatabaseBusy("busy")

    monkeypatch.setattr(store, "save_table", refuse)
    with pytest.raises(DatabaseBusy):
        await svc.act(live.table_id, player, ActionKind.BET, amount=3)
    assert live.round_log == log_before and live.last_bets == {}
    await svc.shutdown()


async def test_a_failing_presenter_does_not_fail_the_opening(store: Store) -> None:
    """The table is saved with its opener seated before it is shown: a subscriber that
    fails (Discord down, a bug) must not turn that into an error for the member, nor stop
    the next change from reaching the subscribers."""
    heard: list[str] = []

    async def failing(change: Change[OpenPontoonTable]) -> None:
        heard.append(change.table_id)
        raise RuntimeError("discord is down")

    svc = PontoonService(
        store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
    )
    svc.subscribe(failing)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    assert svc.in_channel(CH) is live
    await svc.act(live.table_id, BOB, ActionKind.JOIN)  # and play goes on
    assert str(BOB) in live.engine.seats
    await svc.delivered(live.table_id)
    assert heard == [live.table_id, live.table_id]  # the opening and the join
    await svc.shutdown()


async def test_an_auction_saved_before_the_engine_held_it_goes_on_after_a_restart(
    store: Store,
) -> None:
    """Tables saved by older versions kept the auction's bids in the bot's meta
    ({"seller", "ends_at", "bids"}); the upgrade (migration 011) moves the bids into the
    engine, and the auction goes on after the restart."""
    svc = service(store)
    rules = PontoonRules(shoot=True, kitty_min=10, kitty_max=50)
    live = await seated(svc, rules, BOB, CAT)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.KITTY
    banker = int(live.engine.banker or 0)
    bidder = next(u for u in (ANN, BOB, CAT) if u != banker)
    ends_at = time.time() + 0.3
    live.auction = {"seller": banker, "ends_at": ends_at, "bids": {str(bidder): 7}}
    await svc._persist(live, [], "an auction as the old bot saved it")
    await svc.shutdown()
    (upgrade,) = [m for m in load_migrations() if m.name == "pontoon_old_snapshots"]
    with sqlite3.connect(store.path, isolation_level=None) as con:  # the upgrade, run once
        for statement in upgrade.statements:
            con.execute(statement)
    again = service(store)
    (loaded,) = await again.load()
    assert loaded.engine.auction == {str(bidder): 7}
    assert loaded.auction == {"ends_at": ends_at}
    await eventually(lambda: loaded.auction is None, timeout=10, what="the auction to close")
    assert loaded.engine.banker == str(bidder) and loaded.engine.auction is None
    await again.shutdown()
    await ledger_ok(store)


async def test_join_asks_the_engine_before_the_ledger(store: Store) -> None:
    """A refused Join (already seated, table full) creates no member account."""
    svc = service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(max_seats=2), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    with pytest.raises(RuleError) as full:
        await svc.act(live.table_id, CAT, ActionKind.JOIN)
    assert full.value.key == "engine.table_full_at"
    with pytest.raises(RuleError) as twice:
        await svc.act(live.table_id, BOB, ActionKind.JOIN)
    assert twice.value.key == "engine.already_seated"
    assert await store.member_balance(G, CAT) == 0  # no account, no starting chips
    await svc.shutdown()


async def test_a_save_is_bounded_by_the_seats_not_by_everyone_who_ever_sat(
    store: Store,
) -> None:
    """A table that many members pass through: at each new round the names and last
    stakes of those who left go, so the saved table does not grow with its history (a
    click's save writes the table's snapshot)."""
    from tests.bot.test_attack_concurrency import play_round_out

    svc = service(store)
    # the house banks, so a visitor never holds the bank when leaving
    live = await svc.open_table(G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann")
    sizes = []
    for visitor in range(1000, 1012):
        await svc.act(live.table_id, visitor, ActionKind.JOIN, name=f"visitor {visitor}")
        await play_round_out(svc, live, dealer=ANN)
        assert live.names[str(visitor)] == f"visitor {visitor}"  # named while seated
        await svc.act(live.table_id, visitor, ActionKind.LEAVE)
        sizes.append(len(live.snapshot()))
    # the next round starts: only the seats (and the opener) keep their names
    await svc.act(live.table_id, BOB, ActionKind.JOIN, name="bob")
    await svc.deal(live.table_id, ANN)
    assert set(live.names) == {str(ANN), str(BOB)}
    assert set(live.last_bets) <= {str(ANN), str(BOB)}
    (loaded,) = await service(store).load()
    assert set(loaded.names) == {str(ANN), str(BOB)}
    # one visitor's name at a time: the saves after the 2nd and the 12th visitor differ
    # only by what the round's log and the engine hold, not by eleven more names
    assert sizes[-1] < sizes[1] + 200, sizes
    await svc.shutdown()
    await ledger_ok(store)
