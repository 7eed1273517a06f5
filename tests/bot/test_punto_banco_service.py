"""PuntoBancoService with a real Store on tmp_path and seeded shuffles (rules: B-...).

Seeds (1 pack, seed tableau, first coup of a fresh shoe): 0 -> Banco wins, 3 -> Punto
wins, 18 -> Egalité. Each test asserts the winner, so a changed engine fails loudly.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.audit import audit
from bot.errors import BusyElsewhere, ServiceError, TableExists
from bot.host import Change, ChangeKind
from bot.i18n import Msg
from bot.punto_banco import (
    GAME_PUNTO_BANCO,
    OpenPuntoBancoTable,
    Phase,
    PuntoBancoService,
    PuntoBancoTimers,
    WindowClosed,
)
from bot.storage import (
    GuildSettings,
    StorageUnavailable,
    Store,
    escrow_account,
    house_account,
    member_account,
)
from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon.types import Transfer
from engine.punto_banco import CoupResult, PuntoBancoRules, Side
from tests.waiting import eventually

G = 7001
CH, CH2 = 8001, 8002
ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
START = 100

SEED_BANCO, SEED_PUNTO, SEED_TIE = 0, 3, 18


class Recorder:
    """A subscriber that records what the service published, by what it was (as the
    presenter tells them apart); a coup's balances read as the presenter reads them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.dealt = asyncio.Event()
        self.results: list[tuple[CoupResult, dict[str, int]]] = []
        self.service: PuntoBancoService | None = None

    async def on_change(self, change: Change[OpenPuntoBancoTable]) -> None:
        live = change.table
        if change.kind is ChangeKind.OPENED:
            await self.table_opened(live)
        elif change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            await self.table_closed(live, change.reason, change.transfers)
        elif change.kind is ChangeKind.SAVED:
            if live.empty_windows:
                await self.window_extended(live)
            else:
                await self.betting_opened(live)
        else:
            coups = [o.coup for o in change.outcomes if o.coup is not None]
            if coups:
                assert self.service is not None
                bettors = (r.bet.bettor for r in coups[-1].settlement.results)
                balances = await self.service.balances_of(live, bettors)
                await self.coup_dealt(live, coups[-1], balances)
            else:
                await self.bets_changed(live)

    async def table_opened(self, live: OpenPuntoBancoTable) -> None:
        self.calls.append(("opened", live.table_id))

    async def bets_changed(self, live: OpenPuntoBancoTable) -> None:
        self.calls.append(("bets", [b.to_json() for b in live.engine.bets]))

    async def window_extended(self, live: OpenPuntoBancoTable) -> None:
        self.calls.append(("extended", live.empty_windows))

    async def coup_dealt(
        self, live: OpenPuntoBancoTable, result: CoupResult, balances: dict[str, int]
    ) -> None:
        self.calls.append(("dealt", result.coup_no))
        self.results.append((result, balances))
        self.dealt.set()

    async def betting_opened(self, live: OpenPuntoBancoTable) -> None:
        self.calls.append(("betting", live.round))

    async def table_closed(
        self, live: OpenPuntoBancoTable, reason: Msg, refunds: Sequence[Transfer]
    ) -> None:
        self.calls.append(("closed", reason, [(t.dst, t.amount) for t in refunds]))

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3", defaults=GuildSettings(starting_chips=START))
    yield s
    await s.close()


def make_service(
    store: Store, seed: int, presenter: Recorder | None = None, **kw: Any
) -> PuntoBancoService:
    service = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(seed)),
        run_timers=kw.pop("run_timers", False),
        **kw,
    )
    presenter = presenter or Recorder()
    presenter.service = service
    service.subscribe(presenter.on_change)
    return service


async def open_table(
    service: PuntoBancoService, rules: PuntoBancoRules | None = None, channel: int = CH
) -> OpenPuntoBancoTable:
    return await service.open_table(
        G, channel, ALICE, rules or PuntoBancoRules(max_bet=1000), opener_name="alice"
    )


async def balance(store: Store, user: int) -> int:
    return await store.member_balance(G, user)


async def escrow(store: Store, live: OpenPuntoBancoTable) -> int:
    return await store.balance(escrow_account(live.table_id))


async def assert_audit_ok(store: Store) -> None:
    report = await audit(store)
    assert report.ok, report.summary()


# ------------------------------------------------------------------------- bets


@pytest.mark.rule("B-BET-1")
async def test_bets_move_to_escrow_with_the_snapshot(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_BANCO, rec)
    live = await open_table(service)
    r1 = await service.bet(live.table_id, ALICE, "banco", 20, name="alice")
    r2 = await service.bet(live.table_id, BOB, Side.PUNTO, 10, round_no=live.round)
    await service.bet(live.table_id, CAROL, "egalite", 5)
    await service.bet(live.table_id, ALICE, "egalite", 1)

    assert r1.balance == START - 20 and [b.amount for b in r1.bets] == [20]
    assert r2.balance == START - 10
    assert await balance(store, ALICE) == START - 21
    assert await balance(store, BOB) == START - 10
    assert await balance(store, CAROL) == START - 5
    assert await escrow(store, live) == 36 == live.engine.escrow

    rec_db = await store.get_table(live.table_id)
    assert rec_db is not None and rec_db.game == GAME_PUNTO_BANCO
    stored = json.loads(rec_db.state_json)
    assert sorted((b["bettor"], b["side"], b["amount"]) for b in stored["engine"]["bets"]) == [
        (str(ALICE), "banco", 20),
        (str(ALICE), "egalite", 1),
        (str(BOB), "punto", 10),
        (str(CAROL), "egalite", 5),
    ]
    assert stored["meta"]["names"][str(ALICE)] == "alice"
    await service.delivered(live.table_id)
    assert rec.names().count("bets") == 4
    assert service.holds_chips_of(G, BOB) and not service.holds_chips_of(G, DAVE)
    assert not service.holds_chips_of(G + 1, BOB)
    await assert_audit_ok(store)


async def test_changing_a_bet_moves_only_the_difference(store: Store) -> None:
    service = make_service(store, SEED_BANCO)
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "punto", 30)
    receipt = await service.bet(live.table_id, BOB, "punto", 12)
    assert [b.amount for b in receipt.bets] == [12]
    assert await balance(store, BOB) == START - 12
    assert await escrow(store, live) == 12
    receipt = await service.withdraw(live.table_id, BOB, "punto")
    assert receipt.bets == [] and receipt.balance == START
    assert await escrow(store, live) == 0
    with pytest.raises(RuleError):
        await service.withdraw(live.table_id, BOB)
    await assert_audit_ok(store)


@pytest.mark.rule("B-BET-1")
async def test_bet_larger_than_the_balance_is_refused_and_changes_nothing(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_BANCO, rec)
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "banco", 40)
    stored_before = await store.get_table(live.table_id)
    engine_before = live.engine.to_json()
    history_before = await store.history(member_account(G, BOB))
    await service.delivered(live.table_id)
    calls_before = list(rec.calls)

    with pytest.raises(RuleError) as err:
        await service.bet(live.table_id, BOB, "punto", START - 40 + 1)
    assert "only 60 chips" in err.value.message
    with pytest.raises(RuleError):  # raising the Banco bet past what Bob holds
        await service.bet(live.table_id, BOB, "banco", START + 1)

    assert live.engine.to_json() == engine_before
    assert await store.get_table(live.table_id) == stored_before
    assert await store.history(member_account(G, BOB)) == history_before
    assert await balance(store, BOB) == START - 40
    assert await escrow(store, live) == 40
    await service.delivered(live.table_id)
    assert rec.calls == calls_before
    await assert_audit_ok(store)


async def test_table_limits_and_bad_sides_are_refused(store: Store) -> None:
    service = make_service(store, SEED_BANCO)
    live = await open_table(service, PuntoBancoRules(min_bet=5, max_bet=50))
    for amount in (0, 4, 51, -3):
        with pytest.raises(RuleError):
            await service.bet(live.table_id, BOB, "punto", amount)
    with pytest.raises(ServiceError):
        await service.bet(live.table_id, BOB, "dragon", 10)
    assert await balance(store, BOB) == START and live.engine.bets == []


async def test_a_storage_failure_puts_the_table_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = make_service(store, SEED_BANCO)
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "punto", 10)
    before = live.engine.to_json()

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise StorageUnavailable("disk on fire")

    monkeypatch.setattr(store, "save_table", broken)
    with pytest.raises(StorageUnavailable):
        await service.bet(live.table_id, CAROL, "banco", 10)
    with pytest.raises(StorageUnavailable):
        await service.close_window(live.table_id)
    assert live.engine.to_json() == before
    assert live.phase is Phase.BETTING and live.deadline is not None
    monkeypatch.undo()
    assert await balance(store, BOB) == START - 10
    # the next write still lines up with the stored version
    await service.bet(live.table_id, CAROL, "banco", 10)
    assert await escrow(store, live) == 20
    await assert_audit_ok(store)


# ------------------------------------------------------------------------ coups


@pytest.mark.rule("B-WIN-1")
async def test_banco_win_pays_less_commission_rounded_down(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_BANCO, rec)
    live = await open_table(service)
    await service.bet(live.table_id, ALICE, "banco", 10)  # 9.5 -> 9
    await service.bet(live.table_id, BOB, "banco", 20)  # 19 exactly
    await service.bet(live.table_id, CAROL, "punto", 15)
    await service.bet(live.table_id, DAVE, "egalite", 5)

    result = await service.close_window(live.table_id)
    assert result is not None and result.coup.winner is Side.BANCO
    assert result.coup.banco_total > result.coup.punto_total
    net = result.settlement.net_by_bettor()
    assert net == {str(ALICE): 9, str(BOB): 19, str(CAROL): -15, str(DAVE): -5}
    assert await balance(store, ALICE) == START + 9
    assert await balance(store, BOB) == START + 19
    assert await balance(store, CAROL) == START - 15
    assert await balance(store, DAVE) == START - 5
    assert await store.balance(house_account(G)) == 15 + 5 - 9 - 19
    assert await escrow(store, live) == 0
    # the presenter got the coup and the new balances, then a new window opened
    await service.delivered(live.table_id)
    assert rec.results[0][1] == {
        str(ALICE): START + 9,
        str(BOB): START + 19,
        str(CAROL): START - 15,
        str(DAVE): START - 5,
    }
    assert rec.names()[-2:] == ["dealt", "betting"]
    assert live.phase is Phase.BETTING and live.round == 2 and live.announced == 1
    assert service.missed_result(live) is None
    await assert_audit_ok(store)


@pytest.mark.rule("B-WIN-1")
async def test_punto_win_with_several_bettors(store: Store) -> None:
    service = make_service(store, SEED_PUNTO)
    live = await open_table(service)
    await service.bet(live.table_id, ALICE, "punto", 25)
    await service.bet(live.table_id, BOB, "banco", 40)
    await service.bet(live.table_id, CAROL, "egalite", 3)
    await service.bet(live.table_id, CAROL, "punto", 7)
    result = await service.close_window(live.table_id)
    assert result is not None and result.coup.winner is Side.PUNTO
    assert await balance(store, ALICE) == START + 25
    assert await balance(store, BOB) == START - 40
    assert await balance(store, CAROL) == START - 3 + 7
    assert await store.balance(house_account(G)) == 40 + 3 - 25 - 7
    await assert_audit_ok(store)


@pytest.mark.rule("B-TIE-1")
async def test_egalite_returns_punto_and_banco_bets(store: Store) -> None:
    service = make_service(store, SEED_TIE)
    live = await open_table(service)
    await service.bet(live.table_id, ALICE, "punto", 30)
    await service.bet(live.table_id, BOB, "banco", 20)
    await service.bet(live.table_id, CAROL, "egalite", 10)
    result = await service.close_window(live.table_id)
    assert result is not None and result.coup.winner is Side.EGALITE
    assert result.coup.punto_total == result.coup.banco_total
    assert await balance(store, ALICE) == START
    assert await balance(store, BOB) == START
    assert await balance(store, CAROL) == START + 80  # 8:1, stake back
    assert await store.balance(house_account(G)) == -80
    assert {r.outcome.value for r in result.settlement.results if r.bet.side != "egalite"} == {
        "push"
    }
    await assert_audit_ok(store)


@pytest.mark.rule("B-BET-1")
async def test_repeat_bet_places_last_coups_bets_again(store: Store) -> None:
    service = make_service(store, SEED_PUNTO)
    live = await open_table(service)
    with pytest.raises(RuleError):
        await service.repeat(live.table_id, ALICE)
    await service.bet(live.table_id, ALICE, "punto", 10)
    await service.bet(live.table_id, ALICE, "egalite", 2)
    await service.close_window(live.table_id)
    after_coup = await balance(store, ALICE)
    receipt = await service.repeat(live.table_id, ALICE, round_no=2)
    assert sorted((b.side.value, b.amount) for b in receipt.bets) == [
        ("egalite", 2),
        ("punto", 10),
    ]
    assert receipt.balance == after_coup - 12
    assert await escrow(store, live) == 12
    await assert_audit_ok(store)


async def test_a_button_from_an_earlier_window_is_refused(store: Store) -> None:
    service = make_service(store, SEED_PUNTO)
    live = await open_table(service)
    await service.bet(live.table_id, ALICE, "punto", 10, round_no=1)
    await service.close_window(live.table_id)
    with pytest.raises(WindowClosed):
        await service.bet(live.table_id, BOB, "punto", 10, round_no=1)
    with pytest.raises(WindowClosed):
        await service.repeat(live.table_id, ALICE, round_no=1)
    assert live.engine.bets == [] and await store.ensure_member(G, BOB) == START


async def test_empty_windows_close_the_table(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_BANCO, rec, timers=PuntoBancoTimers(idle_windows=2))
    live = await open_table(service)
    assert await service.close_window(live.table_id) is None
    assert live.table_id in service.tables and live.empty_windows == 1
    await service.delivered(live.table_id)
    assert rec.names()[-1] == "extended"
    assert await service.close_window(live.table_id) is None
    assert live.table_id not in service.tables and not service.has_table(CH)
    await service.delivered(live.table_id)
    assert rec.calls[-1][0] == "closed" and rec.calls[-1][2] == []
    stored = await store.get_table(live.table_id)
    assert stored is not None and stored.status == "closed"
    with pytest.raises(ServiceError):
        await service.bet(live.table_id, BOB, "punto", 5)
    await assert_audit_ok(store)


async def test_a_bet_resets_the_idle_count(store: Store) -> None:
    service = make_service(store, SEED_PUNTO, timers=PuntoBancoTimers(idle_windows=2))
    live = await open_table(service)
    await service.close_window(live.table_id)
    await service.bet(live.table_id, BOB, "punto", 5)
    await service.close_window(live.table_id)
    assert live.empty_windows == 0
    await service.close_window(live.table_id)
    assert live.table_id in service.tables


async def test_end_refunds_open_bets(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_BANCO, rec)
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "punto", 30)
    await service.bet(live.table_id, CAROL, "banco", 20)
    await service.bet(live.table_id, CAROL, "egalite", 5)
    refunds = await service.close(live.table_id, Msg("reason.ended_by", name="alice"))
    assert sorted((t.src, t.dst, t.amount) for t in refunds) == [
        ("@escrow", str(BOB), 30),
        ("@escrow", str(CAROL), 5),
        ("@escrow", str(CAROL), 20),
    ]
    assert await balance(store, BOB) == START and await balance(store, CAROL) == START
    assert await escrow(store, live) == 0
    assert await store.balance(house_account(G)) == 0
    await service.delivered(live.table_id)
    assert rec.calls[-1][:2] == ("closed", Msg("reason.ended_by", name="alice"))
    assert (await store.get_table(live.table_id)).status == "closed"  # type: ignore[union-attr]
    await assert_audit_ok(store)


# --------------------------------------------------------------------- restarts


async def test_restart_while_betting_keeps_the_bets(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    service = make_service(store, SEED_BANCO)
    live = await open_table(service, PuntoBancoRules(packs=2, tableau="standard", max_bet=500))
    await service.bet(live.table_id, ALICE, "banco", 20, name="alice")
    await service.bet(live.table_id, BOB, "punto", 10, name="bob")
    await service.set_message(live, 555)
    await service.shutdown()
    await store.close()

    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    try:
        rec = Recorder()
        service = make_service(store, SEED_BANCO, rec)
        loaded = await service.load()
        assert [t.table_id for t in loaded] == [live.table_id]
        back = service.in_channel(CH)
        assert back.engine.rules == PuntoBancoRules(packs=2, tableau="standard", max_bet=500)
        assert sorted((b.bettor, b.side.value, b.amount) for b in back.engine.bets) == [
            (str(ALICE), "banco", 20),
            (str(BOB), "punto", 10),
        ]
        assert back.message_id == 555 and back.names[str(BOB)] == "bob"
        assert back.phase is Phase.BETTING and service.seconds_left(back) is not None
        assert service.missed_result(back) is None
        assert service.holds_chips_of(G, ALICE)
        assert await store.balance(escrow_account(live.table_id)) == 30
        # the window goes on: more bets, then the coup settles everything
        await service.bet(back.table_id, CAROL, "egalite", 5)
        result = await service.close_window(back.table_id)
        assert result is not None
        assert await store.balance(escrow_account(live.table_id)) == 0
        total = sum(
            [await balance(store, u) for u in (ALICE, BOB, CAROL)]
            + [await store.balance(house_account(G))]
        )
        assert total == 3 * START
        await assert_audit_ok(store)
    finally:
        await service.shutdown()
        await store.close()


async def test_restart_after_a_coup_reports_the_result_not_yet_shown(tmp_path: Path) -> None:
    path = tmp_path / "dealt.sqlite3"
    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))

    class Crash(Recorder):
        async def coup_dealt(
            self, live: OpenPuntoBancoTable, result: CoupResult, balances: dict[str, int]
        ) -> None:
            raise asyncio.CancelledError  # the process stops while the cards are shown

    service = make_service(store, SEED_BANCO, Crash())
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "banco", 20)
    with pytest.raises(asyncio.CancelledError):
        await service.close_window(live.table_id)
    await store.close()

    store = await Store.open(path, defaults=GuildSettings(starting_chips=START))
    try:
        service = make_service(store, SEED_BANCO)
        (back,) = await service.load()
        missed = service.missed_result(back)
        assert missed is not None and missed.coup.winner is Side.BANCO
        assert [(r.bet.bettor, r.net) for r in missed.settlement.results] == [(str(BOB), 19)]
        assert back.phase is Phase.BETTING and back.round == 2
        assert await balance(store, BOB) == START + 19
        await service.mark_announced(back)
        assert service.missed_result(back) is None
        (again,) = await make_service(store, SEED_BANCO).load()
        assert again.announced == 1
        await assert_audit_ok(store)
    finally:
        await store.close()


# ------------------------------------------------------------ timers and games


async def test_the_timer_deals_when_the_window_closes(store: Store) -> None:
    rec = Recorder()
    service = make_service(store, SEED_PUNTO, rec, run_timers=True)
    try:
        live = await service.open_table(G, CH, ALICE, PuntoBancoRules(), betting_seconds=1)
        await service.bet(live.table_id, BOB, "punto", 10)
        await asyncio.wait_for(rec.dealt.wait(), 5)
        await eventually(
            lambda: "betting" in rec.names(), timeout=10, what="'betting' in rec.names()"
        )
        assert rec.names()[-2:] == ["dealt", "betting"]
        assert await balance(store, BOB) == START + 10
        assert live.round == 2 and live.engine.bets == []
    finally:
        await service.shutdown()


async def test_one_table_per_channel_and_chips_in_one_game(store: Store) -> None:
    service = make_service(store, SEED_PUNTO)
    pontoon_channels = {CH2}
    seated_at_pontoon = {BOB}
    service.channel_checks.append(lambda ch: ch in pontoon_channels)
    service.busy_checks.append(lambda g, u: u in seated_at_pontoon)

    with pytest.raises(TableExists):
        await open_table(service, channel=CH2)
    live = await open_table(service)
    assert service.has_table(CH)
    with pytest.raises(TableExists):
        await open_table(service)
    with pytest.raises(BusyElsewhere):
        await service.bet(live.table_id, BOB, "punto", 10)
    assert await store.ensure_member(G, BOB) == START and live.engine.bets == []

    # a member with bets at one Punto Banco table cannot bet at another of the server
    pontoon_channels.clear()
    other = await open_table(service, channel=CH2)
    await service.bet(live.table_id, CAROL, "punto", 10)
    with pytest.raises(BusyElsewhere):
        await service.bet(other.table_id, CAROL, "banco", 10)
    await service.bet(other.table_id, DAVE, "banco", 10)
    await assert_audit_ok(store)


async def test_betting_window_bounds(store: Store) -> None:
    service = make_service(store, SEED_PUNTO)
    for seconds in (0, 0.5, 10_000):
        with pytest.raises(ServiceError):
            await service.open_table(G, CH, ALICE, PuntoBancoRules(), betting_seconds=seconds)
    assert service.tables == {}


async def test_while_the_cards_are_shown_bets_wait_and_end_still_works(store: Store) -> None:
    release = asyncio.Event()

    class Slow(Recorder):
        async def coup_dealt(
            self, live: OpenPuntoBancoTable, result: CoupResult, balances: dict[str, int]
        ) -> None:
            await super().coup_dealt(live, result, balances)
            await release.wait()

    rec = Slow()
    service = make_service(store, SEED_PUNTO, rec)
    live = await open_table(service)
    await service.bet(live.table_id, BOB, "punto", 10)
    dealing = asyncio.create_task(service.close_window(live.table_id))
    await asyncio.wait_for(rec.dealt.wait(), 5)
    assert live.phase is Phase.DEALING
    with pytest.raises(ServiceError, match="being dealt"):
        await service.bet(live.table_id, CAROL, "punto", 10)
    with pytest.raises(ServiceError, match="being dealt"):
        await service.withdraw(live.table_id, BOB)
    assert await service.close_window(live.table_id) is None  # no second deal
    assert (
        await service.close(live.table_id, Msg("reason.ended_by", name="alice")) == []
    )  # coup already settled
    release.set()
    result = await dealing
    assert result is not None and result.coup.winner is Side.PUNTO
    assert "betting" not in rec.names()  # no new window on a closed table
    assert await balance(store, BOB) == START + 10
    assert await store.ensure_member(G, CAROL) == START
    await assert_audit_ok(store)


async def test_names_are_kept_only_for_the_last_coups_bettors(store: Store) -> None:
    """A table many members bet at: each coup's post names its bettors; after it the
    names of members who bet before go, so a save does not grow with the table's history."""
    service = make_service(store, SEED_BANCO)
    live = await open_table(service)
    for visitor in range(900, 910):
        await service.bet(live.table_id, visitor, "banco", 1, name=f"visitor {visitor}")
        await service.bet(live.table_id, BOB, "punto", 1, name="bob")
        assert live.names[str(visitor)] == f"visitor {visitor}"
        await service.close_window(live.table_id)
        assert set(live.names) == {str(ALICE), str(BOB), str(visitor)}
    rec = await store.get_table(live.table_id)
    assert rec is not None
    assert set(json.loads(rec.state_json)["meta"]["names"]) == {str(ALICE), str(BOB), "909"}
    await assert_audit_ok(store)
