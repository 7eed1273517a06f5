"""A Pontoon round's result post survives a restart: the results are made from the
round's log saved with the table, and the round whose post is due is saved with the
round's end, so a bot stopped between the round's end and the post posts it at its
next start, once (P-PAY-1: every hand is settled and said)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from bot.pontoon import CardDelivery, OpenPontoonTable, PontoonService, PontoonTimers
from bot.storage import Store
from cogs.pontoon.presenter import PontoonDiscordPresenter
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from tests.waiting import eventually

G, CH = 1, 10
ANN, BOB, CAT = 100, 200, 300


class Channel:
    """The table's channel as the presenter uses it: table messages posted and edited,
    and the posts it makes, which may be held (``hold``) as a slow Discord would."""

    def __init__(self) -> None:
        self.payouts: list[discord.Embed] = []
        self.hold: asyncio.Event | None = None
        self.held = 0
        self.next_id = 1000

    async def send(self, content: Any = None, *, embed: Any = None, **_: Any) -> Any:
        if embed is not None:
            if self.hold is not None:
                self.held += 1
                await self.hold.wait()
            self.payouts.append(embed)
        self.next_id += 1
        return SimpleNamespace(id=self.next_id)

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**_: Any) -> None:
            return None

        return SimpleNamespace(id=message_id, edit=edit)


def presenter_for(service: PontoonService, channel: Channel) -> PontoonDiscordPresenter:
    client: Any = SimpleNamespace(
        get_guild=lambda gid: None,
        get_partial_messageable=lambda channel_id, guild_id=None: channel,
        store=None,
    )
    presenter = PontoonDiscordPresenter(client, service)
    service.subscribe(presenter.on_change)
    return presenter


def service_for(store: Store) -> PontoonService:
    return PontoonService(
        store,
        chance=RandomChance(random.Random(11)),
        timers=PontoonTimers(600, 600, 600),
    )


async def play_a_round(service: PontoonService) -> OpenPontoonTable:
    """ann opens, bob and cat join, the round is dealt, bet and played to its end: each
    stakes 5, declares a pontoon, sticks when allowed, else twists (the banker too)."""
    live = await service.open_table(
        G, CH, ANN, PontoonRules(), opener_name="ann", cards=CardDelivery.BUTTON
    )
    for uid, name in ((BOB, "bob"), (CAT, "cat")):
        await service.act(live.table_id, uid, ActionKind.JOIN, name=name)
    await service.deal(live.table_id, ANN)  # the cut for the bank (P-BANK-1), or the deal
    for _ in range(40):
        eng = live.engine
        if live.round_over:
            return live
        if eng.phase is Phase.WAITING and eng.banker is not None:  # the bank was cut for
            await service.deal(live.table_id, int(eng.banker))
            continue
        seat = eng.to_act()[0]
        offered = {la.kind for la in eng.legal_actions(seat)}
        if ActionKind.BET in offered:
            await service.act(live.table_id, int(seat), ActionKind.BET, amount=5)
            continue
        moves = (ActionKind.NO_DOUBLE, ActionKind.DECLARE, ActionKind.STICK, ActionKind.TWIST)
        move = next(k for k in moves if k in offered)
        await service.act(live.table_id, int(seat), move)
    raise AssertionError(f"the round did not end: {live.engine.phase}")


def said(embed: discord.Embed) -> str:
    return "\n".join([embed.description or "", *(f.value or "" for f in embed.fields)])


async def test_a_restart_between_the_rounds_end_and_its_post_loses_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "results.sqlite3"
    # the same round played through to its post, as the reference
    store = await Store.open(tmp_path / "reference.sqlite3")
    service = service_for(store)
    channel = Channel()
    presenter = presenter_for(service, channel)
    try:
        await play_a_round(service)
        await eventually(lambda: len(channel.payouts) == 1)
        reference = said(channel.payouts[0])
    finally:
        await presenter.close()
        await service.shutdown()
        await store.close()
    assert "ann" in reference and "bob" in reference and "cat" in reference, reference

    # the round ends; its post is on its way when the bot stops
    store = await Store.open(path)
    service = service_for(store)
    channel = Channel()
    channel.hold = asyncio.Event()
    presenter = presenter_for(service, channel)
    try:
        live = await play_a_round(service)
        await eventually(lambda: channel.held == 1)
        assert channel.payouts == []
        assert live.result_due == live.engine.round_no
    finally:
        await presenter.close(grace=0)  # the post never got out
        await service.shutdown()
        await store.close()
    assert channel.payouts == []

    # the next start posts it, as it would have been
    store = await Store.open(path)
    service = service_for(store)
    channel = Channel()
    presenter = presenter_for(service, channel)
    try:
        tables = await service.load()
        presenter.check_after_restart(tables)
        await eventually(lambda: len(channel.payouts) == 1)
        assert said(channel.payouts[0]) == reference
        await eventually(lambda: presenter._background == set())
    finally:
        await presenter.close()
        await service.shutdown()
        await store.close()

    # and a start after that one does not post it again
    store = await Store.open(path)
    service = service_for(store)
    channel = Channel()
    presenter = presenter_for(service, channel)
    try:
        tables = await service.load()
        presenter.check_after_restart(tables)
        await asyncio.sleep(0.2)
        assert channel.payouts == []
    finally:
        await presenter.close()
        await service.shutdown()
        await store.close()


async def test_a_posted_result_and_a_new_round_leave_nothing_to_post_at_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "results.sqlite3"
    store = await Store.open(path)
    service = service_for(store)
    channel = Channel()
    presenter = presenter_for(service, channel)
    try:
        live = await play_a_round(service)
        await eventually(lambda: len(channel.payouts) == 1)
        await eventually(lambda: presenter._background == set())
        assert await store.results_shown() == {live.table_id: live.engine.round_no}
        banker = live.engine.next_banker or live.engine.banker
        assert banker is not None
        await service.deal(live.table_id, int(banker))  # the next round: its log is new
        assert live.result_due is None and not live.round_over
    finally:
        await presenter.close()
        await service.shutdown()
        await store.close()
    store = await Store.open(path)
    service = service_for(store)
    channel = Channel()
    presenter = presenter_for(service, channel)
    try:
        tables = await service.load()
        assert [t.result_due for t in tables] == [None]
        presenter.check_after_restart(tables)
        await asyncio.sleep(0.2)
        assert channel.payouts == []
    finally:
        await presenter.close()
        await service.shutdown()
        await store.close()
