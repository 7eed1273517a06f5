"""A locked or failing database refuses the action with a message and leaves the game and
the ledger as they were: PontoonService with the real engine and a real SQLite Store, while
another connection holds the write lock or save_table fails. And a storage failure never
stops a table's timer (a table must not hang because the disk was busy for a moment)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import bot.scheduler as scheduler_module
from bot.audit import audit
from bot.errors import friendly
from bot.i18n import Msg
from bot.pontoon import OpenPontoonTable, PontoonService, PontoonTimers
from bot.storage import Store
from bot.storage.errors import StorageUnavailable
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from tests.waiting import eventually

G, CH = 1, 10
ANN, BOB, CAT = 100, 200, 300


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "faults.sqlite3", busy_timeout_ms=50)
    yield s
    await s.close()


class FlakyStore:
    """A real Store whose table saves fail (disk full) while ``fail_when(note)`` says so."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.fail_when: Callable[[str | None], bool] | None = None
        self.failures = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_table(self, *args: Any, **kwargs: Any) -> None:
        note = kwargs.get("log", args[8] if len(args) > 8 else None)
        if self.fail_when is not None and self.fail_when(note):
            self.failures += 1
            raise StorageUnavailable("injected: database or disk is full")
        await self.inner.save_table(*args, **kwargs)


def make_service(store: Any, *, bet: float = 600, turn: float = 600) -> PontoonService:
    return PontoonService(
        store, chance=RandomChance(random.Random(5)), timers=PontoonTimers(bet, turn, 600)
    )


@contextlib.contextmanager
def write_locked(path: Path) -> Iterator[None]:
    """Another process's connection holds the database's write lock."""
    con = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        con.execute("BEGIN IMMEDIATE")
        yield
    finally:
        con.execute("ROLLBACK")
        con.close()


def db_state(path: Path) -> tuple[list[Any], int, list[Any]]:
    """Every balance, the number of ledger rows and every table row, read from outside."""
    con = sqlite3.connect(path, timeout=5)
    try:
        balances = con.execute("SELECT id, balance FROM accounts ORDER BY id").fetchall()
        rows = int(con.execute("SELECT COUNT(*) FROM transfers").fetchone()[0])
        tables = con.execute(
            "SELECT id, version, status, state_json FROM game_tables ORDER BY id"
        ).fetchall()
    finally:
        con.close()
    return balances, rows, tables


async def dealt(svc: PontoonService) -> OpenPontoonTable:
    """ann opens, bob joins, the bank is cut and the first card dealt: bets are open."""
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.BETTING
    return live


def player_of(live: OpenPontoonTable) -> int:
    return int(next(s for s in live.engine.seats if s != live.engine.banker))


def banker_of(live: OpenPontoonTable) -> int:
    return int(live.engine.banker or 0)


async def play_one_step(svc: PontoonService, live: OpenPontoonTable) -> None:
    """Whoever must act does the simplest legal thing (bet 2, declare, stick, twist)."""
    eng = live.engine
    seat = eng.to_act()[0]
    kinds = {la.kind: la for la in eng.legal_actions(seat)}
    for kind in (
        ActionKind.BET,
        ActionKind.NO_DOUBLE,
        ActionKind.DECLARE,
        ActionKind.STICK,
        ActionKind.TWIST,
    ):
        if kind in kinds:
            amount = kinds[kind].min_amount if kind is ActionKind.BET else None
            await svc.act(live.table_id, int(seat), kind, amount=amount)
            return
    raise AssertionError(f"nothing simple to do for {seat}: {list(kinds)}")


# ------------------------------------------------------------------ refused, nothing changed

ACTIONS = ["bet", "deal", "play", "join", "leave", "close"]


async def _prepare(svc: PontoonService, what: str) -> OpenPontoonTable:
    live = await dealt(svc)
    if what in ("play",):
        await svc.act(live.table_id, player_of(live), ActionKind.BET, amount=2)
        assert live.engine.phase in (Phase.PLAYING, Phase.BANKER)
    if what in ("deal", "join", "leave"):
        while live.engine.phase is not Phase.WAITING:
            await play_one_step(svc, live)
    return live


async def _do(svc: PontoonService, live: OpenPontoonTable, what: str) -> None:
    tid = live.table_id
    if what == "bet":
        await svc.act(tid, player_of(live), ActionKind.BET, amount=3)
    elif what == "deal":
        await svc.deal(tid, banker_of(live))
    elif what == "play":
        await play_one_step(svc, live)
    elif what == "join":
        await svc.act(tid, CAT, ActionKind.JOIN)  # a new member: even the account is refused
    elif what == "leave":
        await svc.act(tid, player_of(live), ActionKind.LEAVE)
    elif what == "close":
        await svc.close(tid, Msg("reason.ended_by", name="alice"))


@pytest.mark.parametrize("what", ACTIONS)
async def test_locked_database_refuses_and_changes_nothing(store: Store, what: str) -> None:
    svc = make_service(store)
    live = await _prepare(svc, what)
    engine_before = live.engine.to_json()
    version_before = live.store_version
    db_before = db_state(store.path)
    with write_locked(store.path):
        with pytest.raises(StorageUnavailable) as info:
            await _do(svc, live, what)
        assert "nothing was changed" in friendly(info.value)
        assert live.engine.to_json() == engine_before  # the game, exactly as it was
        assert live.store_version == version_before
        assert db_state(store.path) == db_before  # the ledger and the stored table too
    assert live.table_id in svc.tables
    # once the lock is gone the very same action goes through, and everything adds up
    await _do(svc, live, what)
    assert live.engine.to_json() != engine_before or what == "close"
    report = await audit(store)
    assert report.ok, report.summary()
    await svc.shutdown()


async def test_failed_save_restores_the_engine_exactly(store: Store) -> None:
    flaky = FlakyStore(store)
    svc = make_service(flaky)
    live = await dealt(svc)
    before = live.engine.to_json()
    db_before = db_state(store.path)
    flaky.fail_when = lambda note: True
    for amount in (2, 10):
        with pytest.raises(StorageUnavailable):
            await svc.act(live.table_id, player_of(live), ActionKind.BET, amount=amount)
        assert live.engine.to_json() == before
    assert flaky.failures == 2
    assert db_state(store.path) == db_before
    flaky.fail_when = None
    await svc.act(live.table_id, player_of(live), ActionKind.BET, amount=2)
    assert (await audit(store)).ok
    await svc.shutdown()


async def test_settling_step_and_next_round_are_one_transaction(
    store: Store,
) -> None:
    """The settling action and the automatic move to the next round are saved in ONE
    transaction: if that write fails, the settling action is refused as a whole (the
    table and the ledger as they were), and trying again settles the round."""
    flaky = FlakyStore(store)
    svc = make_service(flaky)
    live = await dealt(svc)
    flaky.fail_when = lambda note: bool(note) and str(note).endswith("next_round")
    refused = None
    for _ in range(40):
        if live.engine.phase in (Phase.ROUND_OVER, Phase.WAITING):
            break
        before = (live.engine.to_json(), db_state(store.path))
        try:
            await play_one_step(svc, live)
        except StorageUnavailable:
            refused = before
            break
    assert flaky.failures == 1 and refused is not None
    assert (live.engine.to_json(), db_state(store.path)) == refused
    report = await audit(store)
    assert report.ok, report.summary()
    flaky.fail_when = None
    await play_one_step(svc, live)
    assert live.engine.phase is Phase.WAITING
    stored = db_state(store.path)[2][0]
    assert stored[1] == live.store_version
    await svc.deal(live.table_id, int(live.engine.banker or banker_of(live)))
    assert live.engine.phase is Phase.BETTING
    await svc.shutdown()


async def test_bet_timer_fires_after_the_database_was_locked(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline passes while another connection holds the write lock: the timeout
    action is refused, but the timer tries again instead of dying with the table stuck."""
    monkeypatch.setattr(scheduler_module, "TIMER_RETRY_SECONDS", 0.2)
    svc = make_service(store, bet=0.3)
    live = await dealt(svc)
    with write_locked(store.path):
        await asyncio.sleep(0.8)  # the bet deadline passes meanwhile
        assert live.engine.phase is Phase.BETTING
    await eventually(
        lambda: live.engine.phase is not Phase.BETTING,
        timeout=10,
        what="live.engine.phase is not Phase.BETTING",
    )
    assert live.engine.phase is not Phase.BETTING  # the player who did not bet sat out
    assert (await audit(store)).ok
    await svc.shutdown()
