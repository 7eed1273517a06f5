"""The task that posts table messages survives any exception from a send
or an edit (logged once, retried, drawn later), and shutdown stops the restart re-check
and the writer before the HTTP session closes."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from bot.host import Change
from bot.pontoon import GAME_PONTOON, OpenPontoonTable
from cogs import table_message as writer_module
from cogs.pontoon.presenter import PontoonDiscordPresenter
from engine.cards import RandomChance
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import Action, ActionKind

IDS = [str(10**17 + i) for i in range(4)]


def live_table() -> OpenPontoonTable:
    eng = Table(PontoonRules(min_bet=1, max_bet=10))
    chance = RandomChance(random.Random(5))
    for seat in IDS[:2]:
        eng.apply(Action(seat, ActionKind.JOIN, amount=1000), chance)
    live = OpenPontoonTable("abc123", 1, 2, int(IDS[0]), eng)
    live.names = {s: f"p{i}" for i, s in enumerate(IDS[:2])}
    return live


class FlakyChannel:
    """A channel whose first ``failures`` sends raise what aiohttp raises when the
    connection drops (not a discord.HTTPException)."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent = 0

    async def send(self, **_: Any) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise aiohttp.ServerDisconnectedError("Server disconnected")
        self.sent += 1
        return SimpleNamespace(id=555)


def make_presenter(channel: FlakyChannel) -> tuple[PontoonDiscordPresenter, list[int]]:
    saved: list[int] = []

    async def set_message(live: OpenPontoonTable, message_id: int) -> None:
        live.message_id = message_id
        saved.append(message_id)

    service: Any = SimpleNamespace(seconds_left=lambda live: None, set_message=set_message)
    bot: Any = SimpleNamespace(
        get_guild=lambda gid: None,
        games={GAME_PONTOON: service},
        get_partial_messageable=lambda cid, guild_id=None: channel,
    )
    presenter = PontoonDiscordPresenter(bot, service)  # built with its service (bot.app)
    return presenter, saved


async def test_the_writer_survives_a_network_error_and_posts_later(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(writer_module, "REFRESH_RETRY_SECONDS", 0.01)
    channel = FlakyChannel(failures=3)
    presenter, saved = make_presenter(channel)
    live = live_table()
    caplog.set_level(logging.DEBUG, logger="cogs.table_message")
    presenter.writer.request(live)
    await presenter.writer.flush(live.table_id)  # raised ServerDisconnectedError before
    assert channel.sent == 1 and saved == [555] and live.message_id == 555
    assert not presenter.writer.busy(live.table_id)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]  # logged once
    assert "ServerDisconnectedError" in warnings[0].getMessage()
    assert warnings[0].exc_info is None  # one line, no traceback


async def test_a_writer_that_gives_up_draws_again_at_the_next_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(writer_module, "REFRESH_RETRY_SECONDS", 0.001)
    channel = FlakyChannel(failures=writer_module.REFRESH_RETRIES + 1)
    presenter, saved = make_presenter(channel)
    live = live_table()
    presenter.writer.request(live)
    await presenter.writer.flush(live.table_id)
    assert channel.sent == 0 and not presenter.writer.busy(live.table_id)
    presenter.writer.request(live)  # the next change
    await presenter.writer.flush(live.table_id)
    assert channel.sent == 1 and saved == [555]


async def test_presenter_close_cancels_the_restart_check_and_the_writer() -> None:
    presenter, _ = make_presenter(FlakyChannel(0))
    started = asyncio.Event()
    cancelled: list[str] = []

    async def hang(live: OpenPontoonTable) -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(live.table_id)
            raise

    presenter.redraw_if_stale = hang  # type: ignore[method-assign]
    presenter.check_after_restart([live_table()])
    await asyncio.wait_for(started.wait(), 5)
    await presenter.close()
    assert cancelled == ["abc123"]


async def test_bot_close_stops_the_restart_check_before_the_http_session(
    tmp_path: Path,
) -> None:
    from bot.app import make_bot
    from bot.settings import Settings
    from bot.storage import Store

    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        bot = make_bot(Settings(_env_file=None, database_path=tmp_path / "db.sqlite3"), store)
        order: list[str] = []
        started = asyncio.Event()

        async def hang(live: OpenPontoonTable) -> None:
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                order.append("restart check cancelled")
                raise

        http_close = bot.http.close

        async def close_http() -> None:
            order.append("http closed")
            await http_close()

        presenter = bot.presenters[GAME_PONTOON]
        assert isinstance(presenter, PontoonDiscordPresenter)
        presenter.redraw_if_stale = hang  # type: ignore[method-assign]
        bot.http.close = close_http  # type: ignore[method-assign]
        presenter.check_after_restart([live_table()])
        await asyncio.wait_for(started.wait(), 5)
        await bot.close()
        assert order == ["restart check cancelled", "http closed"]
    finally:
        await store.close()


async def test_punto_banco_refresh_survives_a_network_error(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Punto Banco's table message goes through the same writer: an edit that fails with
    a network error is logged in one line and drawn again."""
    monkeypatch.setattr(writer_module, "REFRESH_RETRY_SECONDS", 0.01)
    from bot.punto_banco import OpenPuntoBancoTable, PuntoBancoTimers
    from cogs.punto_banco.presenter import PuntoBancoPresenter
    from engine.punto_banco import PuntoBancoRules, PuntoBancoTable

    edits: list[str] = []
    failures = [1]

    class Message:
        async def edit(self, **_: Any) -> None:
            if failures[0] > 0:
                failures[0] -= 1
                raise aiohttp.ServerDisconnectedError("Server disconnected")
            edits.append("ok")

    channel = SimpleNamespace(get_partial_message=lambda mid: Message())
    bot: Any = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: channel)
    presenter = PuntoBancoPresenter(bot, SimpleNamespace(timers=PuntoBancoTimers()), card_delay=0)
    live = OpenPuntoBancoTable(
        table_id="abc123",
        guild_id=1,
        channel_id=2,
        opener_id=3,
        engine=PuntoBancoTable(PuntoBancoRules()),
        betting_seconds=20,
        closes_at=1_800_000_000.0,
        message_id=99,
    )
    caplog.set_level(logging.INFO, logger="cogs.table_message")
    await presenter.on_change(Change(live, 1, 0))  # raised ServerDisconnectedError before
    await presenter.messages.flush(live.table_id)
    assert edits == ["ok"]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert "ServerDisconnectedError" in warnings[0].getMessage()
