"""An engine that raises half-way through an action must not leave the
table changed in memory, must not lock chips, and a table that cannot close cleanly must
neither lock chips nor retry silently every few seconds forever.

The engine is made to fail AFTER it mutated its state (monkeypatched apply),
whatever the exception type, and the service must put the table back as it was saved.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.scheduler as scheduler_module
from bot.audit import audit
from bot.errors import EngineFault, ServiceError, friendly
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService, PuntoBancoTimers
from bot.storage import Store, escrow_account, member_account
from bot.storage.errors import StorageUnavailable
from engine.cards import RandomChance
from engine.errors import ConfigError, RuleError
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import ActionKind, Phase
from engine.punto_banco import PuntoBancoRules, PuntoBancoTable, Side
from tests.waiting import eventually

G, CH, CH2 = 1, 10, 11
ANN, BOB, CAT = 100, 200, 300


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "engine-faults.sqlite3")
    yield s
    await s.close()


def make_service(store: Store, *, idle: float = 600) -> PontoonService:
    return PontoonService(
        store, chance=RandomChance(random.Random(7)), timers=PontoonTimers(600, 600, idle)
    )


async def ledger_ok(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()


def failing_after(real: Any, exc: BaseException, *, times: int = 1) -> Any:
    """Wrap an engine method: run the real one (which mutates the state), then raise."""
    left = [times]

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = real(self, *args, **kwargs)
        if left[0] > 0:
            left[0] -= 1
            raise exc
        return result

    return wrapper


@pytest.mark.parametrize(
    "exc",
    [ConfigError("the pack is empty"), RuntimeError("boom"), KeyError("seat"), AssertionError()],
    ids=["config", "runtime", "key", "assert"],
)
async def test_engine_failure_mid_bet_restores_the_table(
    store: Store, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.act(live.table_id, CAT, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.BETTING
    bettor = int(live.engine.to_act()[0])
    await svc.act(live.table_id, bettor, ActionKind.BET, amount=10)  # a stake in escrow
    other = int(live.engine.to_act()[0])
    saved_json = live.engine.to_json()
    saved_version = live.store_version
    balances = await store.balances(
        [member_account(G, u) for u in (ANN, BOB, CAT)] + [escrow_account(live.table_id)]
    )

    monkeypatch.setattr(Table, "apply", failing_after(Table.apply, exc))
    with pytest.raises(ServiceError) as info:
        await svc.act(live.table_id, other, ActionKind.BET, amount=10)
    monkeypatch.undo()
    # the member is told plainly that nothing changed
    assert "nothing was changed" in friendly(info.value)
    # memory, disk and ledger are exactly as before the failed action
    assert live.engine.to_json() == saved_json
    assert live.store_version == saved_version
    rec = await store.get_table(live.table_id)
    assert rec is not None and rec.version == saved_version
    assert await store.balances(list(balances)) == balances
    await ledger_ok(store)
    # and the table plays on: the same bet now goes through, the table ends cleanly
    await svc.act(live.table_id, other, ActionKind.BET, amount=10)
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    await ledger_ok(store)
    for uid in (ANN, BOB, CAT):
        assert await store.member_balance(G, uid) == 1000
    await svc.shutdown()


async def test_engine_failure_in_the_deal_commits_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Deal button runs next-round, cut and deal: a failure in the last step must
    not leave the first steps saved (one transaction for the whole Deal)."""
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    saved_version = live.store_version
    saved = live.engine.to_json()
    real = Table.apply

    def fail_on_deal(self: Table, action: Any, chance: Any) -> Any:
        out = real(self, action, chance)
        if action.kind is ActionKind.DEAL:
            raise ConfigError("the pack is empty")
        return out

    monkeypatch.setattr(Table, "apply", fail_on_deal)
    with pytest.raises(ServiceError):
        await svc.deal(live.table_id, ANN)
    monkeypatch.undo()
    assert live.engine.to_json() == saved
    rec = await store.get_table(live.table_id)
    assert rec is not None and rec.version == saved_version
    assert live.engine.banker is None  # the cut was not kept either
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.BETTING
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    await ledger_ok(store)
    await svc.shutdown()


async def test_one_pack_many_seats_never_locks_chips(store: Store) -> None:
    """The attack: one pack and 26 players. Whatever the engine says about the pack,
    every refusal changes nothing and the table always closes with every chip back."""
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(packs=1))
    players = [1000 + i for i in range(26)]
    for uid in players:
        try:
            await svc.act(live.table_id, uid, ActionKind.JOIN)
        except (ServiceError, RuleError):  # the engine seats at most 26 on one pack
            break
    await svc.deal(live.table_id, ANN)
    for _ in range(200):
        to_act = live.engine.to_act()
        if live.engine.phase is not Phase.BETTING or not to_act:
            break
        before = live.engine.to_json()
        try:
            await svc.act(live.table_id, int(to_act[0]), ActionKind.BET, amount=10)
        except Exception as exc:
            assert live.engine.to_json() == before, exc
            break
    await ledger_ok(store)
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    await ledger_ok(store)
    assert await store.balance(escrow_account(live.table_id)) == 0
    for uid in [ANN, *players]:
        if await store.member_balance(G, uid):
            assert await store.member_balance(G, uid) == 1000
    await svc.shutdown()


async def test_close_refunds_from_the_ledger_when_the_engine_disagrees(store: Store) -> None:
    """If the in-memory table ever disagrees with the ledger's escrow, /pontoon end still
    closes the table and returns every staked chip to whoever staked it."""
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.act(live.table_id, CAT, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    stakes: dict[int, int] = {}
    while live.engine.phase is Phase.BETTING and live.engine.to_act():
        uid = int(live.engine.to_act()[0])
        stakes[uid] = 2 + 3 * len(stakes)
        await svc.act(live.table_id, uid, ActionKind.BET, amount=stakes[uid])
    assert await store.balance(escrow_account(live.table_id)) == sum(stakes.values())
    # the engine's view drifts from the ledger (as after a half-applied action)
    live.engine = Table.from_json({**live.engine.to_json(), "escrow": 999})
    for hands in live.engine.hands.values():
        for h in hands:
            h.stake += 7
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    assert live.table_id not in svc.tables
    await ledger_ok(store)
    for uid in (ANN, BOB, CAT):
        assert await store.member_balance(G, uid) == 1000
    await svc.shutdown()


async def test_failing_idle_close_backs_off_and_logs(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(scheduler_module, "TIMER_RETRY_SECONDS", 0.05)
    svc = make_service(store, idle=0.05)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    attempts: list[float] = []

    async def refuse(*args: Any, **kwargs: Any) -> None:
        attempts.append(asyncio.get_running_loop().time())
        raise StorageUnavailable("injected: database is locked")

    monkeypatch.setattr(store, "close_table", refuse)
    caplog.set_level(logging.WARNING, logger="bot.pontoon")
    started = asyncio.get_running_loop().time()
    await eventually(lambda: len(attempts) >= 4, timeout=30, what="four close attempts")
    # at a fixed 0.05 s four tries take 0.15 s; backing off (0.05, 0.1, 0.2, ...) longer
    assert asyncio.get_running_loop().time() - started >= 0.3, attempts
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert gaps == sorted(gaps) and gaps[-1] > 2 * gaps[0], gaps
    assert any("cannot close" in r.getMessage() for r in caplog.records)
    monkeypatch.undo()
    assert live.table_id in svc.tables
    await svc.shutdown()


async def test_timer_survives_an_unexpected_error(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in one timer step must not kill the table's timer for good."""
    monkeypatch.setattr(scheduler_module, "TIMER_RETRY_SECONDS", 0.05)
    svc = make_service(store, idle=0.1)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    real_close = svc.close
    calls = [0]

    async def flaky_close(table_id: str, reason: Msg) -> None:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("a bug")
        await real_close(table_id, reason)

    monkeypatch.setattr(svc, "close", flaky_close)
    await eventually(
        lambda: live.table_id not in svc.tables, timeout=10, what="live.table_id not in svc.tables"
    )
    assert live.table_id not in svc.tables, "the idle table never closed after one error"
    assert calls[0] >= 2
    await ledger_ok(store)
    await svc.shutdown()


async def test_punto_banco_engine_failure_mid_bet_restores_the_table(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(3)),
        timers=PuntoBancoTimers(betting_seconds=600),
        run_timers=False,
    )
    live = await svc.open_table(G, CH2, ANN, PuntoBancoRules())
    await svc.bet(live.table_id, BOB, Side.PUNTO, 20)
    saved = live.snapshot()
    monkeypatch.setattr(
        PuntoBancoTable,
        "apply",  # a bet is an action: the real apply places it, then the engine fails
        failing_after(PuntoBancoTable.apply, IndexError("shoe")),
    )
    with pytest.raises(ServiceError) as info:
        await svc.bet(live.table_id, CAT, Side.BANCO, 40)
    monkeypatch.undo()
    assert "nothing was changed" in friendly(info.value)
    assert live.snapshot() == saved
    assert await store.member_balance(G, CAT) == 1000
    await ledger_ok(store)
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    await ledger_ok(store)
    assert await store.member_balance(G, BOB) == 1000
    await svc.shutdown()


async def test_punto_banco_bookkeeping_failure_is_an_engine_fault_naming_the_bet(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's log names an applied action by its actor, which every game's actions
    have (Punto Banco's have no ``seat``): a failure after the bet was applied is the
    member's "nothing was changed", logged with the bet, never an AttributeError."""
    svc = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(3)),
        timers=PuntoBancoTimers(betting_seconds=600),
        run_timers=False,
    )
    live = await svc.open_table(G, CH2, ANN, PuntoBancoRules())
    saved = live.snapshot()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("bookkeeping bug")

    monkeypatch.setattr(svc, "after_apply", broken)
    with pytest.raises(EngineFault) as info:
        await svc.bet(live.table_id, CAT, Side.BANCO, 40)
    monkeypatch.undo()
    assert "nothing was changed" in friendly(info.value)
    assert live.snapshot() == saved
    assert await store.member_balance(G, CAT) == 1000
    assert any(f"{CAT} bet" in r.getMessage() for r in caplog.records)
    await ledger_ok(store)
    await svc.shutdown()


async def test_refused_save_of_a_bank_offer_leaves_no_offer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bot-side state (a bank offer) never runs ahead of the database either."""
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    while live.engine.phase is not Phase.WAITING:  # play the round out by the timers' moves
        seat = live.engine.to_act()[0]
        action = live.engine.timeout_action(seat)
        assert action is not None
        await svc.move(live.table_id, [action], by_timer=True)
    banker = int(live.engine.banker or 0)
    buyer = BOB if banker == ANN else ANN
    real_save = store.save_table

    async def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageUnavailable("injected: database is locked")

    monkeypatch.setattr(store, "save_table", refuse)
    with pytest.raises(StorageUnavailable):
        await svc.offer_bank(live.table_id, banker, buyer, 5)
    assert live.sale_offer is None
    monkeypatch.setattr(store, "save_table", real_save)
    await svc.offer_bank(live.table_id, banker, buyer, 5)
    assert live.sale_offer == (banker, buyer, 5)
    await svc.shutdown()


async def test_punto_banco_close_refunds_from_the_ledger_when_the_engine_disagrees(
    store: Store,
) -> None:
    svc = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(3)),
        timers=PuntoBancoTimers(betting_seconds=600),
        run_timers=False,
    )
    live = await svc.open_table(G, CH2, ANN, PuntoBancoRules())
    await svc.bet(live.table_id, BOB, Side.PUNTO, 20)
    await svc.bet(live.table_id, CAT, Side.BANCO, 30)
    await store.ensure_member(G, ANN)
    # memory drifts from the ledger: a bet the ledger never saw
    live.engine.place_bet(str(ANN), Side.PUNTO, 50, balance=1000)
    refunds = await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    assert live.table_id not in svc.tables
    assert sorted((t.dst, t.amount) for t in refunds) == [(str(BOB), 20), (str(CAT), 30)]
    await ledger_ok(store)
    for uid in (ANN, BOB, CAT):
        assert await store.member_balance(G, uid) == 1000
    await svc.shutdown()
