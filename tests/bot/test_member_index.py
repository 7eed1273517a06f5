"""The host's index of where each member has chips in play (what a Join asks instead of
walking every table of the server) always gives the same table as a full walk, over
random joins, leaves, bets, withdrawals, closes and a restart, across Pontoon, Punto
Banco and Blackjack (one table per server: P-TABLE-1's seat, a Punto Banco bet, a
Blackjack stake count as chips in play)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.blackjack import BlackjackService
from bot.errors import ServiceError
from bot.host import TableHost, together
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService
from bot.storage import GuildSettings, Store
from engine.blackjack import BlackjackRules
from engine.cards import RandomChance
from engine.errors import EngineError
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from engine.punto_banco import PuntoBancoRules

GUILDS = (1, 2)
MEMBERS = tuple(range(100, 108))
CHANNELS = tuple(range(10, 22))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "index.sqlite3", defaults=GuildSettings(starting_chips=500))
    yield s
    await s.close()


def hosts_for(
    store: Store, seed: int
) -> tuple[PontoonService, PuntoBancoService, BlackjackService]:
    chance = RandomChance(random.Random(seed))
    return (
        PontoonService(store, chance=chance, timers=PontoonTimers(600, 600, 600)),
        PuntoBancoService(store, chance=chance, run_timers=False),
        BlackjackService(store, chance=chance, run_timers=False),
    )


def assert_index_agrees(hosts: tuple[TableHost[Any], ...]) -> int:
    """Every host's indexed answer equals the walk, for every member of every server;
    returns how many members had chips in play somewhere (so the test sees it mattered)."""
    found = 0
    for host in hosts:
        # nothing kept for a closed table
        assert set(host._in_play_at) <= set(host.tables), host.game
        for tables in host._member_tables.values():
            assert set(tables) <= set(host.tables), host.game
        for guild in GUILDS:
            for member in MEMBERS:
                walked = host.scan_table_of_member(guild, member)
                assert host.table_of_member(guild, member) is walked, (host.game, guild, member)
                assert host.holds_chips_of(guild, member) is (walked is not None)
                found += walked is not None
    return found


async def random_step(
    rng: random.Random,
    hosts: tuple[PontoonService, PuntoBancoService, BlackjackService],
    where: dict[int, tuple[int, str, str]],
) -> None:
    """One random move; refusals (busy elsewhere, wrong phase...) are part of the mix."""
    pontoon, punto_banco, blackjack = hosts
    member = rng.choice(MEMBERS)
    channel = rng.choice(CHANNELS)
    guild = GUILDS[channel % 2]
    if channel not in where or where[channel][2] not in {
        *pontoon.tables,
        *punto_banco.tables,
        *blackjack.tables,
    }:
        game = rng.choice(("pontoon", "punto_banco", "blackjack"))
        if game == "pontoon":
            live: Any = await pontoon.open_table(guild, channel, member, PontoonRules())
        elif game == "punto_banco":
            live = await punto_banco.open_table(guild, channel, member, PuntoBancoRules())
        else:
            live = await blackjack.open_table(guild, channel, member, BlackjackRules(decks=1))
        where[channel] = (guild, game, live.table_id)
        return
    _, game, table_id = where[channel]
    roll = rng.random()
    if roll < 0.08:
        host: Any = {"pontoon": pontoon, "punto_banco": punto_banco, "blackjack": blackjack}[game]
        await host.close(table_id, Msg("reason.ended_by", name="test"))
        return
    if game == "pontoon":
        if roll < 0.55:
            await pontoon.act(table_id, member, ActionKind.JOIN)
        elif roll < 0.65:
            await pontoon.add_computer(table_id, pontoon.get(table_id).opener_id)
        else:
            await pontoon.act(table_id, member, ActionKind.LEAVE)
    elif game == "punto_banco":
        if roll < 0.6:
            await punto_banco.bet(table_id, member, rng.choice(("punto", "banco", "tie")), 5)
        else:
            await punto_banco.withdraw(table_id, member)
    elif roll < 0.4:
        await blackjack.join(table_id, member)
    elif roll < 0.7:
        await blackjack.bet(table_id, member, 5)
    else:
        await blackjack.leave(table_id, member)


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_the_member_index_agrees_with_a_full_walk(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    hosts = hosts_for(store, seed)
    undo = together(*hosts)
    where: dict[int, tuple[int, str, str]] = {}
    busiest = refused = 0
    try:
        for _ in range(300):
            try:
                await random_step(rng, hosts, where)
            except (ServiceError, EngineError):
                refused += 1
            busiest = max(busiest, assert_index_agrees(hosts))
    finally:
        undo()
        for host in hosts:
            await host.shutdown()
    assert busiest >= 3 and refused > 0  # members really sat, bet and were refused

    # a restart: the tables reloaded from the store are indexed as the walk finds them
    again = hosts_for(store, seed)
    undo = together(*again)
    try:
        for host in again:
            await host.load()
        assert assert_index_agrees(again) == assert_index_agrees(hosts)
    finally:
        undo()
        for host in again:
            await host.shutdown()


async def test_tables_with_the_same_options_share_one_house_edge_computation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Restoring many tables with one rule set starts the edge's computation once (it
    costs about 0.4 s of CPU: once per table at 5,000 tables was half an hour of CPU)."""
    from cogs.pontoon import edge

    calls: list[PontoonRules] = []

    def counted(rules: PontoonRules) -> dict[str, Any]:
        calls.append(rules)
        time.sleep(0.2)  # as if computing: every caller asks before it is known
        return {"house_bank": {"edge": 0.01}, "player_banker": {"edge": 0.02}}

    monkeypatch.setattr(edge, "table_edges", counted)
    rules = PontoonRules(royal_pontoon=True, banker_doubles=True)
    monkeypatch.delitem(edge._EDGES, rules, raising=False)
    figures = await asyncio.gather(*(edge.edge_of(rules) for _ in range(50)))
    assert len(calls) == 1
    assert {f.edge if f else None for f in figures} == {0.02}
    assert not edge._PENDING
