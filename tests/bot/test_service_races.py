"""Races the fault campaign (scripts/fault_campaign.py) found under load: two members
opening a table in one channel at once (Pontoon, and Punto Banco through the same table
host), and a Deal click waiting while the table closes. Both must end in a polite refusal,
never a storage error."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from bot.audit import audit
from bot.errors import ServiceError, TableExists
from bot.host import together
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService
from bot.storage import Store
from bot.storage.errors import StorageError
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from engine.punto_banco import PuntoBancoRules

G, CH = 1, 10
ANN, BOB = 100, 200


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "races.sqlite3")
    yield s
    await s.close()


def make_service(store: Store) -> PontoonService:
    return PontoonService(
        store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
    )


@pytest.mark.parametrize("game", ["pontoon", "punto banco"])
async def test_two_openings_in_one_channel_at_once(store: Store, game: str) -> None:
    svc: PontoonService | PuntoBancoService
    if game == "pontoon":
        svc = make_service(store)
    else:  # the same table host: the same opening lock per channel
        svc = PuntoBancoService(store, chance=RandomChance(random.Random(1)), run_timers=False)

    def open_as(user_id: int) -> Awaitable[object]:
        if isinstance(svc, PontoonService):
            return svc.open_table(G, CH, user_id, PontoonRules())
        return svc.open_table(G, CH, user_id, PuntoBancoRules())

    results = await asyncio.gather(open_as(ANN), open_as(BOB), return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1, results
    assert isinstance(errors[0], TableExists)
    assert len(svc.tables) == 1
    assert (await audit(store)).ok
    await svc.shutdown()


async def test_a_pontoon_and_a_punto_banco_opening_in_one_channel_at_once(store: Store) -> None:
    """The games share one opening lock per channel (bot.host.together): one table, one
    polite TableExists, never a storage error from the database's one-table index."""
    pontoon = make_service(store)
    bacc = PuntoBancoService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    untie = together(pontoon, bacc)
    results = await asyncio.gather(
        pontoon.open_table(G, CH, ANN, PontoonRules()),
        bacc.open_table(G, CH, BOB, PuntoBancoRules()),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], TableExists), results
    assert len(pontoon.tables) + len(bacc.tables) == 1
    assert (await audit(store)).ok
    untie()
    assert pontoon.channel_checks == [] and bacc.busy_checks == []
    await pontoon.shutdown()
    await bacc.shutdown()


async def test_deal_waiting_while_the_table_closes(store: Store) -> None:
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules())
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    version = live.engine.version
    async with svc.lock(live.table_id):  # both queue behind this, close first
        closing = asyncio.create_task(
            svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
        )
        await asyncio.sleep(0)
        dealing = asyncio.create_task(svc.deal(live.table_id, ANN, version=version))
        await asyncio.sleep(0)
    await closing
    with pytest.raises(ServiceError) as info:
        await dealing
    assert not isinstance(info.value, StorageError)
    assert "closed" in info.value.user_message
    assert (await audit(store)).ok
    await svc.shutdown()


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(("packs", "joins", "limit"), [(1, 30, 10), (2, 60, 20)])
async def test_concurrent_joins_never_seat_beyond_the_limit(
    store: Store, packs: int, joins: int, limit: int
) -> None:
    """The seat limit was checked by the buttons and the command, outside the
    table's lock, against a limit the engine did not know: 30 Joins at once seated 25 at
    a one-pack table for 10, 40 seated 41 at a two-pack table for 20. The engine's rules
    now carry the limit (what a table message shows and the packs deal) and JOIN is
    refused inside the lock."""
    svc = make_service(store)
    live = await svc.open_table(G, CH, ANN, PontoonRules(packs=packs))
    members = [1000 + i for i in range(joins)]

    async def join(user_id: int) -> object:
        return await svc.act(live.table_id, user_id, ActionKind.JOIN)

    results = await asyncio.gather(*(join(m) for m in members), return_exceptions=True)
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(live.engine.seats) == limit
    assert len(refused) == joins - (limit - 1)  # the opener holds one of the seats
    assert all(getattr(r, "key", None) == "engine.table_full_at" for r in refused), refused
    assert (await audit(store)).ok
    await svc.shutdown()
    again = make_service(store)  # and the saved table says the same
    (loaded,) = await again.load()
    assert len(loaded.engine.seats) == limit
    await again.shutdown()
