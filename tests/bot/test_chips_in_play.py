"""The rule "chips in play at one table per server" holds under concurrency.

Simultaneous joins at two Pontoon tables, a join and a Punto Banco bet, and bets at two
Punto Banco tables, fired with asyncio.gather: exactly one wins, the others are refused
with a clear message and their tables and the ledger do not change. The rule is enforced
by the database inside the write transaction (a ``chips_in_play`` row per member with a
UNIQUE (guild, member) key), so it holds even for two services that share no memory.
"""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.audit import audit
from bot.errors import friendly
from bot.host import together
from bot.i18n import Msg
from bot.pontoon import GAME_PONTOON, OpenPontoonTable, PontoonService, PontoonTimers
from bot.punto_banco import (
    GAME_PUNTO_BANCO,
    OpenPuntoBancoTable,
    PuntoBancoService,
    PuntoBancoTimers,
)
from bot.storage import Store
from cogs.chips import table_of_member
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from engine.punto_banco import PuntoBancoRules, Side
from tests.storage_backends import raw_sql

G = 1
ANN, BOB, CAT, DAN = 100, 200, 300, 400


def services(store: Store, *, wired: bool = True) -> tuple[PontoonService, PuntoBancoService]:
    """Both games' services; ``wired`` registers the in-memory cross-game checks the
    cogs register (without it only the database stands between the games)."""
    pontoon = PontoonService(
        store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
    )
    bacc = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(2)),
        timers=PuntoBancoTimers(betting_seconds=600),
        run_timers=False,
    )
    if wired:
        together(pontoon, bacc)
    return pontoon, bacc


async def in_play_rows(store: Store) -> list[tuple[int, int, str]]:
    return [
        (int(r[0]), int(r[1]), str(r[2]))
        for r in await raw_sql(
            store, "SELECT guild_id, user_id, table_id FROM chips_in_play ORDER BY user_id"
        )
    ]


async def state_of(store: Store, live: OpenPontoonTable | OpenPuntoBancoTable) -> tuple[Any, ...]:
    rec = await store.get_table(live.table_id)
    assert rec is not None
    return (rec.version, rec.state_json, live.snapshot())


def one_winner(results: list[Any]) -> tuple[int, BaseException]:
    errors = [r for r in results if isinstance(r, BaseException)]
    winners = [i for i, r in enumerate(results) if not isinstance(r, BaseException)]
    assert len(winners) == 1 and len(errors) == len(results) - 1, results
    for e in errors:
        assert "another table" in friendly(e), e
    return winners[0], errors[0]


@pytest.mark.parametrize("wired", [True, False], ids=["wired", "db-only"])
async def test_simultaneous_joins_at_two_pontoon_tables(store: Store, wired: bool) -> None:
    pontoon, _ = services(store, wired=wired)
    t1 = await pontoon.open_table(G, 10, ANN, PontoonRules())
    t2 = await pontoon.open_table(G, 11, BOB, PontoonRules())
    for member in (CAT, DAN):
        before = [await state_of(store, t) for t in (t1, t2)]
        results = await asyncio.gather(
            pontoon.act(t1.table_id, member, ActionKind.JOIN),
            pontoon.act(t2.table_id, member, ActionKind.JOIN),
            return_exceptions=True,
        )
        won, _ = one_winner(results)
        loser = (t1, t2)[1 - won]
        assert str(member) not in loser.engine.seats
        assert await state_of(store, loser) == before[1 - won]
    rows = await in_play_rows(store)
    assert {(u, t) for _, u, t in rows} == {
        (ANN, t1.table_id),
        (BOB, t2.table_id),
        *((u, t.table_id) for t in (t1, t2) for u in (CAT, DAN) if str(u) in t.engine.seats),
    }
    assert (await audit(store)).ok
    await pontoon.shutdown()


@pytest.mark.parametrize("wired", [True, False], ids=["wired", "db-only"])
async def test_join_and_punto_banco_bet_at_once(store: Store, wired: bool) -> None:
    pontoon, bacc = services(store, wired=wired)
    t1 = await pontoon.open_table(G, 10, ANN, PontoonRules())
    b1 = await bacc.open_table(G, 20, BOB, PuntoBancoRules())
    before = (await state_of(store, t1), await state_of(store, b1))
    results = await asyncio.gather(
        pontoon.act(t1.table_id, CAT, ActionKind.JOIN),
        bacc.bet(b1.table_id, CAT, Side.PUNTO, 50),
        return_exceptions=True,
    )
    won, _ = one_winner(results)
    if won == 0:
        assert await state_of(store, b1) == before[1]
        assert not b1.engine.bets_of(str(CAT))
        assert await store.member_balance(G, CAT) == 1000
    else:
        assert await state_of(store, t1) == before[0]
        assert str(CAT) not in t1.engine.seats
        assert await store.member_balance(G, CAT) == 950
    assert (await audit(store)).ok
    await pontoon.shutdown()
    await bacc.shutdown()


@pytest.mark.parametrize("wired", [True, False], ids=["wired", "db-only"])
async def test_bets_at_two_punto_banco_tables_at_once(store: Store, wired: bool) -> None:
    _, bacc = services(store, wired=wired)
    b1 = await bacc.open_table(G, 20, ANN, PuntoBancoRules())
    b2 = await bacc.open_table(G, 21, BOB, PuntoBancoRules())
    results = await asyncio.gather(
        bacc.bet(b1.table_id, CAT, Side.PUNTO, 50),
        bacc.bet(b2.table_id, CAT, Side.BANCO, 70),
        return_exceptions=True,
    )
    won, _ = one_winner(results)
    assert await store.member_balance(G, CAT) == 1000 - (50, 70)[won]
    assert not (b1, b2)[1 - won].engine.bets_of(str(CAT))
    # withdrawing the bet frees the member for the other table
    await bacc.withdraw((b1, b2)[won].table_id, CAT)
    assert await in_play_rows(store) == []
    await bacc.bet((b1, b2)[1 - won].table_id, CAT, Side.PUNTO, 10)
    assert (await audit(store)).ok
    await bacc.shutdown()


async def test_two_openings_by_one_member_at_once(store: Store) -> None:
    pontoon, _ = services(store)
    results = await asyncio.gather(
        pontoon.open_table(G, 10, ANN, PontoonRules()),
        pontoon.open_table(G, 11, ANN, PontoonRules()),
        return_exceptions=True,
    )
    one_winner(results)
    assert len(pontoon.tables) == 1
    assert len(await store.load_open_tables()) == 1
    await pontoon.shutdown()


async def test_leaving_and_closing_free_the_member(store: Store) -> None:
    pontoon, bacc = services(store, wired=False)
    t1 = await pontoon.open_table(G, 10, ANN, PontoonRules())
    await pontoon.act(t1.table_id, CAT, ActionKind.JOIN)
    b1 = await bacc.open_table(G, 20, BOB, PuntoBancoRules())
    with pytest.raises(Exception) as info:
        await bacc.bet(b1.table_id, CAT, Side.PUNTO, 50)
    assert "another table" in friendly(info.value)
    await pontoon.act(t1.table_id, CAT, ActionKind.LEAVE)
    await bacc.bet(b1.table_id, CAT, Side.PUNTO, 50)
    await bacc.close(b1.table_id, Msg("reason.ended_by", name="alice"))
    await pontoon.close(t1.table_id, Msg("reason.ended_by", name="alice"))
    assert await in_play_rows(store) == []
    assert (await audit(store)).ok
    await pontoon.shutdown()
    await bacc.shutdown()


async def test_balance_finds_the_members_chips_in_play_whatever_the_game(store: Store) -> None:
    """/balance asks every game for the member's table in the server (cogs.chips): a
    Punto Banco bettor's open bets are shown like a Pontoon player's stake."""
    pontoon, bacc = services(store)
    bot: Any = SimpleNamespace(games={GAME_PONTOON: pontoon, GAME_PUNTO_BANCO: bacc})
    t1 = await pontoon.open_table(G, 10, ANN, PontoonRules())
    await pontoon.act(t1.table_id, CAT, ActionKind.JOIN)
    b1 = await bacc.open_table(G, 20, DAN, PuntoBancoRules())
    assert table_of_member(bot, G, BOB) is None  # nothing anywhere
    await bacc.bet(b1.table_id, BOB, Side.PUNTO, 30)
    await bacc.bet(b1.table_id, BOB, Side.BANCO, 20)
    assert table_of_member(bot, G, BOB) == (20, 50, "betting")  # chips.balance.*.betting
    assert bacc.chips_in_play_of(b1, BOB) == 50
    assert table_of_member(bot, G, CAT) == (10, 0, "in_play")  # seated, nothing staked yet
    assert pontoon.chips_in_play_of(t1, CAT) == 0
    assert table_of_member(bot, G, DAN) is None  # opened the betting table, no bet
    assert table_of_member(bot, G + 1, BOB) is None  # another server
    await bacc.withdraw(b1.table_id, BOB)
    assert table_of_member(bot, G, BOB) is None
    await pontoon.shutdown()
    await bacc.shutdown()
