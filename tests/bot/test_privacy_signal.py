"""An erasure reaches every bot process on a PostgreSQL database (LISTEN/NOTIFY).

Two "processes" (two PgStores, each with the bot's services and language cache, wired
as at start-up through ``store.on_erasure(bot.erased)``) share one database and hold
open tables of their own (different servers, as shards do). A member who sat at the
other process's table and left is still named there (its names, the round's log);
``/privacy delete`` run through the first process must reach the second within seconds:
its table in memory is scrubbed, its next save writes neither the id nor the display
name back, and its language cache forgets the member's choice. The erasing process gets
its own signal too and is not harmed by scrubbing twice. On SQLite (one process per
database) ``on_erasure`` does nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.app import CardBot, make_bot
from bot.audit import audit
from bot.pontoon import OpenPontoonTable
from bot.settings import Settings
from bot.storage import GuildSettings, Store
from bot.storage.pg import PgStore
from bot.storage.privacy import Erasure
from cogs.pontoon.access import service as pontoon
from cogs.privacy import forget_at_tables
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind

G1, G2 = 7_770_001, 7_770_002
CH1, CH2 = 7_770_011, 7_770_012
ANN = 734_019_276_514_388_021
BOB = 912_558_370_144_602_377
CAT = 648_201_993_507_114_236
DAN = 581_337_902_266_104_719
BOB_NAME = "Bob the Builder"


async def _wait_for(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not check():
        if loop.time() > give_up:
            return False
        await asyncio.sleep(0.02)
    return True


async def _stored_text(url: str) -> str:
    """Every table snapshot and table log line in the database, as text."""
    conn = await asyncpg.connect(url)
    try:
        snapshots = [r[0] for r in await conn.fetch("SELECT state_json FROM game_tables")]
        lines = [r[0] for r in await conn.fetch("SELECT description FROM table_actions")]
        return "\n".join(snapshots + lines)
    finally:
        await conn.close()


class Process:
    """One bot process: its store, its bot (services, language cache), wired to the
    store's erasure signal as ``CardBot.setup_hook`` wires it."""

    def __init__(self, store: PgStore, bot: CardBot) -> None:
        self.store = store
        self.bot = bot

    @classmethod
    async def start(cls, url: str) -> Process:
        store = await PgStore.connect(url, defaults=GuildSettings(1000, 100))
        bot = make_bot(Settings(_env_file=None, database_url=url), store)
        for name, service in bot.games.items():
            service.unsubscribe(bot.presenters[name].on_change)  # no Discord here
        await bot.listen_for_erasures()  # as setup_hook does
        await bot.languages.load()
        return cls(store, bot)

    async def table_with_bob_gone(self, guild: int, channel: int, opener: int) -> OpenPontoonTable:
        """An open table Bob sat at under his display name, and left."""
        svc = pontoon(self.bot)
        live = await svc.open_table(guild, channel, opener, PontoonRules(), opener_name="opener")
        await svc.act(live.table_id, BOB, ActionKind.JOIN, name=BOB_NAME)
        await svc.act(live.table_id, BOB, ActionKind.LEAVE)
        assert str(BOB) in live.snapshot() and BOB_NAME in live.snapshot()
        return live

    async def privacy_delete(self, user_id: int) -> None:
        """What /privacy delete does (cogs/privacy.py): erase, then scrub locally."""
        assert not (await self.store.forget_member(user_id)).refused
        self.bot.languages.forgotten(user_id)
        await forget_at_tables(self.bot, user_id, None)

    async def stop(self) -> None:
        for service in self.bot.games.values():
            await service.shutdown()
        await self.store.close()
        await self.bot.http.close()


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[Process, Process]]:
    a = await Process.start(pg_url)
    b = await Process.start(pg_url)
    try:
        yield a, b
    finally:
        await a.stop()
        await b.stop()


def _clean(text: str) -> bool:
    return str(BOB) not in text and BOB_NAME not in text


async def test_an_erasure_scrubs_the_other_process_open_table(
    two: tuple[Process, Process], pg_url: str
) -> None:
    a, b = two
    mine = await a.table_with_bob_gone(G1, CH1, ANN)
    theirs = await b.table_with_bob_gone(G2, CH2, CAT)
    await a.store.set_member_language(BOB, "de")
    await b.bot.languages.load()
    assert await b.bot.languages.member_choice(BOB) == "de"

    await a.privacy_delete(BOB)

    # the other process's table, in memory, within seconds; and its language cache
    assert await _wait_for(lambda: _clean(theirs.snapshot())), theirs.snapshot()
    assert await _wait_for(lambda: b.bot.languages.member_now(BOB) != "de")
    assert await b.bot.languages.member_choice(BOB) is None  # no re-read (60 s cache)
    assert theirs.opener_id == CAT
    # its next save writes neither the id nor the name back
    await pontoon(b.bot).act(theirs.table_id, DAN, ActionKind.JOIN, name="dan")
    # the erasing process got its own signal too: nothing left to change, no harm
    assert await _wait_for(lambda: a.store.erasures is not None and a.store.erasures.received == 1)
    assert await pontoon(a.bot).forget_member(BOB) == 0
    await pontoon(a.bot).act(mine.table_id, DAN, ActionKind.JOIN, name="dan")
    stored = await _stored_text(pg_url)
    assert _clean(stored), "the erased member is back in a stored table"
    assert str(DAN) in stored and str(CAT) in stored and str(ANN) in stored
    assert _clean(mine.snapshot()) and _clean(theirs.snapshot())
    report = await audit(a.store)
    assert report.ok, report.summary()


async def test_an_erasure_while_the_tables_are_reloaded_is_applied_after(pg_url: str) -> None:
    """A restarting process reads the open tables, the erasure commits and is signalled
    before those tables are in memory: it is applied again once they are."""
    a = await Process.start(pg_url)
    b = await Process.start(pg_url)  # restarting: listening, its tables not read yet
    try:
        table = await a.table_with_bob_gone(G1, CH1, ANN)
        # a's tables are b's from now on (as a shard's, handed over): a holds none
        await pontoon(a.bot).shutdown()
        pontoon(a.bot).tables.clear()
        pontoon(a.bot).by_channel.clear()
        store = b.store
        read = store.load_open_tables

        async def erased_while_reading() -> list[Any]:
            records = await read()  # Bob is in the snapshot read (by the first game)
            if not any(str(BOB) in r.state_json for r in records):
                return records
            await a.store.forget_member(BOB)
            assert b.store.erasures is not None
            listener = b.store.erasures
            assert await _wait_for(lambda: listener.received == 1)
            await asyncio.sleep(0.05)  # the signal's own scrub: no table in memory yet
            return records

        store.load_open_tables = erased_while_reading  # type: ignore[method-assign]
        await b.bot.reload_tables()
        assert b.store.erasures is not None and b.store.erasures.received == 1
        live = pontoon(b.bot).tables[table.table_id]
        assert _clean(live.snapshot())
        await pontoon(b.bot).act(table.table_id, DAN, ActionKind.JOIN, name="dan")
        assert _clean(await _stored_text(pg_url))
        # and later erasures are not kept for a reload any more
        assert b.bot._erased_while_loading is None
    finally:
        await a.stop()
        await b.stop()


async def test_chips_forget_reaches_only_that_server(
    two: tuple[Process, Process], pg_url: str
) -> None:
    """/chips forget in one server scrubs that server's table in the other process and
    leaves a table of another server (and the member's language) alone."""
    a, b = two
    in_g2 = await b.table_with_bob_gone(G2, CH2, CAT)
    in_g1 = await b.table_with_bob_gone(G1, CH1, ANN)
    await a.store.set_member_language(BOB, "fr")
    await a.store.ensure_member(G1, BOB)
    await b.bot.languages.load()
    saved = in_g2.store_version
    result = await a.store.forget_member(BOB, G2)
    assert result.servers == 1 and not result.settings_erased
    assert await _wait_for(lambda: _clean(in_g2.snapshot()))
    assert await _wait_for(lambda: in_g2.store_version == saved + 1)  # the scrub saved
    assert await _wait_for(lambda: b.store.erasures is not None and b.store.erasures.received == 1)
    await asyncio.sleep(0.1)  # the scrub task of that one signal has run
    assert str(BOB) in in_g1.snapshot()
    assert b.bot.languages.member_now(BOB) == "fr"


async def test_a_refused_erasure_tells_nobody(two: tuple[Process, Process]) -> None:
    a, b = two
    received: list[Erasure] = []

    async def spy(erasure: Erasure) -> None:
        received.append(erasure)

    await b.store.on_erasure(spy)
    live = await pontoon(b.bot).open_table(G2, CH2, CAT, PontoonRules(), opener_name="cat")
    await pontoon(b.bot).act(live.table_id, BOB, ActionKind.JOIN, name=BOB_NAME)
    assert (await a.store.forget_member(BOB)).refused  # chips in play
    await a.store.forget_member(DAN)  # a signal after it: the refused one came before
    assert await _wait_for(lambda: len(received) == 1)
    assert received == [Erasure(DAN, None, True)]
    assert str(BOB) in live.snapshot()


async def _terminate_listeners(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND query LIKE 'LISTEN%'"
            )
        )
    finally:
        await conn.close()


async def test_the_listener_comes_back_after_its_connection_is_killed(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = await PgStore.connect(pg_url, defaults=GuildSettings(1000, 100))
    other = await PgStore.connect(pg_url, defaults=GuildSettings(1000, 100))
    got: list[Erasure] = []

    async def note(erasure: Erasure) -> None:
        got.append(erasure)

    try:
        await store.on_erasure(note)
        listener = store.erasures
        assert listener is not None and listener.listening
        assert await _terminate_listeners(pg_url) >= 1
        assert await _wait_for(lambda: not listener.listening)
        assert await _wait_for(lambda: listener.listening, 10)
        await other.ensure_member(G1, BOB)
        await other.forget_member(BOB)
        assert await _wait_for(lambda: got == [Erasure(BOB, None, True)])
        assert "erasure listener reconnected" in caplog.text  # the gap is logged
    finally:
        await store.close()
        await other.close()
    assert store.erasures is not None and not store.erasures.listening


def test_a_malformed_or_foreign_notification_is_ignored() -> None:
    from bot.storage.pg.listen import parse

    assert parse('{"user_id": 5, "guild_id": null, "language": true, "schema": "s"}', "s") == (
        Erasure(5, None, True)
    )
    assert parse('{"user_id": 5, "guild_id": 7, "language": false, "schema": "s"}', "s") == (
        Erasure(5, 7, False)
    )
    assert parse('{"user_id": 5, "schema": "other"}', "s") is None
    for bad in ("nope", "[]", '{"schema": "s"}', '{"user_id": "5", "schema": "s"}'):
        assert parse(bad, "s") is None


async def test_sqlite_has_nobody_to_tell(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.sqlite3")
    called: list[Erasure] = []

    async def note(erasure: Erasure) -> None:
        called.append(erasure)

    try:
        await asyncio.wait_for(store.on_erasure(note), 1)
        await store.ensure_member(G1, BOB)
        assert not (await store.forget_member(BOB)).refused
        await asyncio.sleep(0.1)
        assert called == []
    finally:
        await store.close()
