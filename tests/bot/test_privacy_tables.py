"""An erased member's id leaves the open tables the erasing process holds (their display
name, the round's log, the opener), in memory and in the store, and the table carries
on: its next save does not write the id back and a reload reads it."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.audit import audit
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService
from bot.storage import StorageUnavailable, Store
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from engine.punto_banco import PuntoBancoRules, Side

G, CH = 5_550_001, 5_550_010
ANN = 734_019_276_514_388_021
BOB = 912_558_370_144_602_377
CAT = 648_201_993_507_114_236


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


def pontoon(store: Store) -> PontoonService:
    return PontoonService(
        store, chance=RandomChance(random.Random(3)), timers=PontoonTimers(600, 600, 600)
    )


async def test_a_pontoon_table_forgets_a_member_who_left(store: Store) -> None:
    svc = pontoon(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN, name="Bob the Builder")
    await svc.act(live.table_id, BOB, ActionKind.LEAVE)
    assert str(BOB) in live.snapshot()

    assert not (await store.forget_member(BOB)).refused
    assert await svc.forget_member(BOB) == 1
    assert await svc.forget_member(BOB) == 0  # nothing left to change

    for text in (live.snapshot(), (await store.get_table(live.table_id)).state_json):  # type: ignore[union-attr]
        assert str(BOB) not in text and "Bob the Builder" not in text
    await svc.act(live.table_id, CAT, ActionKind.JOIN, name="cat")
    stored = await store.get_table(live.table_id)
    assert stored is not None and str(BOB) not in stored.state_json
    assert str(CAT) in stored.state_json
    await svc.shutdown()
    again = pontoon(store)
    [reloaded] = await again.load()
    assert reloaded.opener_id == ANN and str(BOB) not in reloaded.snapshot()
    await again.shutdown()
    report = await audit(store)
    assert report.ok, report.summary()


async def test_a_punto_banco_table_forgets_its_opener(store: Store) -> None:
    svc = PuntoBancoService(store, chance=RandomChance(random.Random(0)), run_timers=False)
    live = await svc.open_table(G, CH, ANN, PuntoBancoRules(max_bet=1000), opener_name="ann")
    await store.ensure_member(G, ANN)
    assert not (await store.forget_member(ANN, G)).refused
    assert await svc.forget_member(ANN, G) == 1
    assert live.opener_id == 0 and str(ANN) not in live.snapshot()
    # the table carries on for everyone else
    await svc.bet(live.table_id, BOB, Side.PUNTO, 10, name="bob")
    stored = await store.get_table(live.table_id)
    assert stored is not None and str(ANN) not in stored.state_json
    assert await store.member_balance(G, BOB) == 990
    await svc.shutdown()
    report = await audit(store)
    assert report.ok, report.summary()


async def test_tables_of_another_server_are_left_alone(store: Store) -> None:
    svc = pontoon(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN, name="bob")
    await svc.act(live.table_id, BOB, ActionKind.LEAVE)
    assert await svc.forget_member(BOB, G + 1) == 0
    assert str(BOB) in live.snapshot()
    await svc.shutdown()


async def test_a_failed_save_leaves_the_table_scrubbed_for_its_next_save(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scrub is saved at once; if that save fails the table stays scrubbed in memory
    (only names and ids changed, no chips), so its next save cannot write the id back."""
    svc = pontoon(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN, name="Bob the Builder")
    await svc.act(live.table_id, BOB, ActionKind.LEAVE)
    assert not (await store.forget_member(BOB)).refused
    version = live.store_version
    real_save = store.save_table

    async def fail_once(*args: object, **kwargs: object) -> None:
        monkeypatch.setattr(store, "save_table", real_save)
        raise StorageUnavailable("database unavailable: test")

    monkeypatch.setattr(store, "save_table", fail_once)
    assert await svc.forget_member(BOB) == 1
    assert live.store_version == version  # nothing was saved
    assert str(BOB) not in live.snapshot() and "Bob the Builder" not in live.snapshot()
    await svc.act(live.table_id, CAT, ActionKind.JOIN, name="cat")
    stored = await store.get_table(live.table_id)
    assert stored is not None and str(CAT) in stored.state_json
    assert str(BOB) not in stored.state_json and "Bob the Builder" not in stored.state_json
    await svc.shutdown()
    report = await audit(store)
    assert report.ok, report.summary()
