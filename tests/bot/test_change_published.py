"""A committed change is published: a click is answered from the change its handler got
(one UPDATE_MESSAGE), the published change does not draw the table again, and what
follows the change (a round's result post) goes out after the click is answered."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.blackjack import BlackjackService, OpenBlackjackTable
from bot.host import Change, ChangeKind
from bot.i18n import Msg
from bot.storage import GuildSettings, Store
from cogs.table_message import Click, Drawing, TableMessages, answered_in_time, clicks_answered
from engine.blackjack import BlackjackRules
from engine.cards import RandomChance

G, CH, ANN, BOB = 7101, 8101, 201, 202


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3", defaults=GuildSettings(starting_chips=1000))
    yield s
    await s.close()


class Log:
    """What reached "Discord", in order."""

    def __init__(self) -> None:
        self.said: list[str] = []


class FakeResponse:
    def __init__(self, log: Log) -> None:
        self.log = log
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **kwargs: Any) -> None:
        await asyncio.sleep(0.05)  # the answer takes a moment to reach Discord
        self.done = True
        self.log.said.append("answer")


def fake_click(log: Log, live: OpenBlackjackTable) -> Click:
    interaction: Any = SimpleNamespace(
        response=FakeResponse(log), message=SimpleNamespace(id=live.message_id), id=1
    )
    return Click(interaction, live.table_id)


def fake_client(log: Log) -> Any:
    class Message:
        async def edit(self, **kwargs: Any) -> None:
            log.said.append("edit")

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    return SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)


def draw(live: OpenBlackjackTable, closed: Msg | None) -> Drawing:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(f"version {live.engine.version}"))
    return Drawing(view)


async def posted(live: OpenBlackjackTable, message_id: int) -> None:
    live.message_id = message_id


class Presenter:
    """Subscribes as a game's presenter does: the table message brought up to date, and a
    post after every move (as a settled round's result), once the click is answered."""

    def __init__(self, log: Log, messages: TableMessages[OpenBlackjackTable]) -> None:
        self.log = log
        self.messages = messages
        self.heard: list[Change[OpenBlackjackTable]] = []

    async def on_change(self, change: Change[OpenBlackjackTable]) -> None:
        self.heard.append(change)
        if change.kind is not ChangeKind.MOVE:
            return
        await self.messages.show(change.table, change.version)
        await clicks_answered(change.table_id)
        self.log.said.append("post")


async def an_open_table(store: Store, log: Log) -> tuple[BlackjackService, Presenter, Any]:
    service = BlackjackService(store, chance=RandomChance(random.Random(0)), run_timers=False)
    messages: TableMessages[OpenBlackjackTable] = TableMessages(fake_client(log), draw, posted)
    presenter = Presenter(log, messages)
    service.subscribe(presenter.on_change)
    live = await service.open_table(G, CH, ANN, BlackjackRules(), opener_name="ann")
    live.message_id = 555
    await service.delivered(live.table_id)
    return service, presenter, live


async def test_a_click_is_answered_from_its_change_and_not_drawn_again(store: Store) -> None:
    log = Log()
    service, presenter, live = await an_open_table(store, log)
    click = fake_click(log, live)
    with answered_in_time(click):
        change = await service.join(live.table_id, ANN, name="ann")
        await presenter.messages.respond(click, change.table)
    await service.delivered(live.table_id)
    await presenter.messages.flush(live.table_id)
    assert presenter.heard[-1] is change  # the very change the handler answered from
    # one request for the click (its answer); the published change drew nothing more,
    # and the post went out after the answer
    assert log.said == ["answer", "post"]


async def test_a_change_without_a_click_is_drawn_by_the_writer(store: Store) -> None:
    log = Log()
    service, presenter, live = await an_open_table(store, log)
    await service.join(live.table_id, ANN, name="ann")  # a slash command: no click
    await service.delivered(live.table_id)
    await presenter.messages.flush(live.table_id)
    assert sorted(log.said) == ["edit", "post"]  # the writer drew it: one edit


async def test_a_refused_move_publishes_nothing(store: Store) -> None:
    log = Log()
    service, presenter, live = await an_open_table(store, log)
    heard = len(presenter.heard)
    with pytest.raises(Exception, match="seat"):
        await service.leave(live.table_id, BOB)
    await service.delivered(live.table_id)
    assert len(presenter.heard) == heard and log.said == []


async def test_a_move_encodes_the_table_once_and_a_failed_one_puts_it_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy a failed move puts back is the snapshot written by the save before it (the
    table is encoded once per move, by its save), and it is the table as saved."""
    log = Log()
    service, _, live = await an_open_table(store, log)
    await service.join(live.table_id, ANN, name="ann")
    saved = live.snapshot()
    encoded: list[str] = []
    real = OpenBlackjackTable.snapshot

    def counting(table: OpenBlackjackTable) -> str:
        encoded.append(table.table_id)
        return real(table)

    monkeypatch.setattr(OpenBlackjackTable, "snapshot", counting)
    await service.join(live.table_id, BOB, name="bob")
    assert encoded == [live.table_id]  # the save's, not a second copy before the move
    after_bob = real(live)

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(store, "save_table", refused)
    with pytest.raises(RuntimeError, match="disk full"):
        await service.leave(live.table_id, BOB)
    assert real(live) == after_bob != saved  # put back as last saved
