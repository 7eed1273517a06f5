"""A restart keeps the countdown each table message shows: a table whose message was
confirmed to show its stored version resumes its clock to the moment that message counts
down to (when at least a second of it is left), and the restart check leaves such a
message alone; one whose countdown ran out while the bot was down gets a fresh window or
turn, and its message is drawn again. The end-to-end side (no read, no edit, the timer
firing at the shown moment) is tests/e2e/test_restart_clock_e2e.py."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.banked import resumed_clock
from bot.blackjack import BlackjackService, BlackjackTimers
from bot.host import RESUME_MARGIN_SECONDS, StoredTable, TableHost, epoch_of, monotonic_of
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService, PuntoBancoTimers
from bot.storage import ShownMessage, Store
from cogs.table_message import Drawing, TableMessages
from engine.blackjack import BlackjackRules
from engine.blackjack import Phase as BlackjackPhase
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from engine.punto_banco import PuntoBancoRules

G, CH = 5, 50
ANN, BOB = 501, 502
FULL = 300.0  # every game's full window or turn in these tests
MESSAGE = 777


def stored(shown_deadline: float | None) -> StoredTable:
    return StoredTable("t", 1, 2, 3, None, 1, {}, {}, shown_deadline=shown_deadline)


def test_a_countdown_is_resumed_only_with_a_second_of_it_left() -> None:
    now = 1_900_000_000.0
    assert stored(now + 30).resumed_deadline(now) == now + 30
    assert stored(now + RESUME_MARGIN_SECONDS).resumed_deadline(now) == now + RESUME_MARGIN_SECONDS
    assert stored(now + 0.5).resumed_deadline(now) is None  # too close: a fresh one
    assert stored(now - 60).resumed_deadline(now) is None  # ran out while the bot was down
    assert stored(None).resumed_deadline(now) is None  # none shown, or not confirmed


# ---------------------------------------------------------------- the games' reload
@dataclass
class Game:
    """How to open one game's table with its clock running, and its full window."""

    make: Callable[[Store], TableHost[Any]]
    start: Callable[[Any], Awaitable[Any]]


async def _pontoon_betting(svc: PontoonService) -> Any:
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    await svc.deal(live.table_id, ANN)
    assert live.engine.phase is Phase.BETTING and live.deadline is not None
    return live


async def _punto_banco_window(svc: PuntoBancoService) -> Any:
    live = await svc.open_table(G, CH, ANN, PuntoBancoRules(max_bet=100))
    await svc.bet(live.table_id, BOB, "banco", 10)
    return live


async def _blackjack_window(svc: BlackjackService) -> Any:
    live = await svc.open_table(G, CH, ANN, BlackjackRules(), betting_seconds=FULL)
    await svc.join(live.table_id, ANN)
    await svc.join(live.table_id, BOB)
    await svc.bet(live.table_id, ANN, 10)  # bob has not bet: the window runs
    return live


GAMES = {
    "pontoon": Game(
        lambda store: PontoonService(
            store,
            chance=RandomChance(random.Random(3)),
            timers=PontoonTimers(FULL, FULL, 3600),
        ),
        _pontoon_betting,
    ),
    "punto_banco": Game(
        lambda store: PuntoBancoService(
            store,
            chance=RandomChance(random.Random(0)),
            timers=PuntoBancoTimers(betting_seconds=FULL),
        ),
        _punto_banco_window,
    ),
    "blackjack": Game(
        lambda store: BlackjackService(
            store,
            chance=RandomChance(random.Random(0)),
            timers=BlackjackTimers(betting_seconds=FULL, turn_seconds=FULL),
        ),
        _blackjack_window,
    ),
}


async def _reloaded(
    tmp_path: Path, game: Game, shown: Callable[[Any], ShownMessage | None]
) -> tuple[Any, Any]:
    """Open a table with its clock running and its message posted, record what that
    message was seen to show (``shown(live)``), stop, and reload it in a new service.
    Returns (the table before, the table reloaded)."""
    path = tmp_path / "clock.sqlite3"
    store = await Store.open(path)
    svc = game.make(store)
    try:
        live = await game.start(svc)
        await svc.set_message(live, MESSAGE)
        seen = shown(live)
        if seen is not None:
            await store.confirm_shown([seen])
    finally:
        await svc.shutdown()
        await store.close()
    store = await Store.open(path)
    again = game.make(store)
    try:
        (back,) = await again.load()
        return live, back
    finally:
        await again.shutdown()
        await store.close()


def _left(live: Any) -> float:
    assert live.deadline is not None
    return float(live.deadline - time.monotonic())


@pytest.mark.parametrize("name", GAMES)
async def test_a_confirmed_countdown_with_time_left_is_resumed_to_the_moment_shown(
    tmp_path: Path, name: str
) -> None:
    shown_at = float(int(time.time()) + 40)  # a countdown shows whole seconds
    _, back = await _reloaded(
        tmp_path,
        GAMES[name],
        lambda live: ShownMessage(live.table_id, MESSAGE, live.store_version, shown_at),
    )
    assert abs(epoch_of(back.deadline) - shown_at) < 0.05
    assert 35 < _left(back) < 41  # not a fresh full window (300 s)
    if hasattr(back, "closes_at"):  # what the game draws its countdown from
        assert back.closes_at == shown_at


@pytest.mark.parametrize("name", GAMES)
async def test_a_countdown_that_ran_out_or_is_about_to_gives_a_fresh_full_one(
    tmp_path: Path, name: str
) -> None:
    for shown_at in (time.time() - 120, time.time() + RESUME_MARGIN_SECONDS / 2):
        _, back = await _reloaded(
            tmp_path,
            GAMES[name],
            lambda live, at=shown_at: ShownMessage(live.table_id, MESSAGE, live.store_version, at),
        )
        assert FULL - 5 < _left(back) <= FULL
        (tmp_path / "clock.sqlite3").unlink()


@pytest.mark.parametrize("name", GAMES)
async def test_a_countdown_is_not_resumed_for_a_message_not_confirmed_at_the_stored_version(
    tmp_path: Path, name: str
) -> None:
    shown_at = time.time() + 40
    for shown in (
        lambda live: None,  # never confirmed (the bot was killed)
        lambda live: ShownMessage(live.table_id, MESSAGE, live.store_version - 1, shown_at),
    ):
        _, back = await _reloaded(tmp_path, GAMES[name], shown)
        assert FULL - 5 < _left(back) <= FULL
        (tmp_path / "clock.sqlite3").unlink()


async def test_pontoon_keeps_the_resumed_deadline_only_while_someone_must_act(
    tmp_path: Path,
) -> None:
    """The resumed deadline is the clock of the stored engine version: the timer plays
    at that moment for whoever has not bet (and a move gives the next actors their own)."""
    shown_at = float(int(time.time()) + 40)
    live, back = await _reloaded(
        tmp_path,
        GAMES["pontoon"],
        lambda live: ShownMessage(live.table_id, MESSAGE, live.store_version, shown_at),
    )
    assert back.deadline_version == back.engine.version == live.engine.version
    assert back.engine.to_act()  # the bets it waits for
    assert abs(epoch_of(back.deadline) - shown_at) < 0.05


# ------------------------------------------------------------ the shared restart check
@dataclass
class Live:
    table_id: str
    message_id: int | None = MESSAGE
    deadline: float | None = None
    store_version: int = 4
    guild_id: int = 1
    channel_id: int = 2


class ShownStore:
    def __init__(self, shown: dict[str, float | None]) -> None:
        self.shown = shown
        self.confirmed: list[ShownMessage] = []

    async def confirm_shown(self, shown: list[ShownMessage]) -> None:
        self.confirmed.extend(shown)

    async def confirmed_shown(self) -> dict[str, float | None]:
        return dict(self.shown)


def writer(
    store: ShownStore | None, draw: Callable[[Live, Any], Drawing] | None = None
) -> TableMessages[Live]:
    async def posted(live: Live, message_id: int) -> None:
        live.message_id = message_id

    def nothing(live: Live, closed: Any) -> Drawing:
        return Drawing(discord.ui.LayoutView(timeout=None))

    client: Any = SimpleNamespace(store=store)
    return TableMessages(client, draw or nothing, posted)


async def test_the_restart_check_leaves_alone_only_the_messages_that_show_their_clock() -> None:
    soon = float(int(time.time()) + 30)
    past = float(int(time.time()) - 30)
    tables = {
        # confirmed, and the clock was resumed to the moment its message shows
        "kept": Live("kept", deadline=monotonic_of(soon)),
        # confirmed, no countdown shown and none running
        "quiet": Live("quiet"),
        # confirmed, but its countdown ran out while the bot was down: a fresh one runs
        "ran_out": Live("ran_out", deadline=time.monotonic() + FULL),
        # confirmed with no countdown, but a clock runs now
        "new_clock": Live("new_clock", deadline=time.monotonic() + FULL),
        # not confirmed, with a clock (started at this restart: no message shows it)
        "unknown_clock": Live("unknown_clock", deadline=time.monotonic() + FULL),
        # not confirmed, no clock: the game can tell from the message itself
        "unknown": Live("unknown"),
        # the game posted a result it missed, and the table anew
        "missed": Live("missed", deadline=time.monotonic() + FULL),
    }
    store = ShownStore(
        {"kept": soon, "quiet": None, "ran_out": past, "new_clock": None, "missed": None}
    )
    w = writer(store)
    drawn: list[str] = []
    read: list[str] = []
    w.request = lambda live, closed_reason=None: drawn.append(live.table_id)  # type: ignore[method-assign]

    async def missed(live: Live) -> bool:
        return live.table_id == "missed"

    async def read_back(live: Live) -> None:
        read.append(live.table_id)

    await w.check_restored(list(tables.values()), missed=missed, read_back=read_back)
    assert drawn == ["ran_out", "new_clock", "unknown_clock"]
    assert read == ["unknown"]
    # a game that cannot read its message back draws every table that may be stale
    drawn.clear()
    await w.check_restored(list(tables.values()))
    assert drawn == ["ran_out", "new_clock", "unknown_clock", "unknown", "missed"]
    # a store that cannot say: every table may be stale
    blind = writer(None)
    drawn.clear()
    blind.request = lambda live, closed_reason=None: drawn.append(live.table_id)  # type: ignore[method-assign]
    await blind.check_restored([tables["kept"], tables["quiet"]], read_back=read_back)
    assert drawn == ["kept"]  # a clock runs: drawn, not read
    assert read == ["unknown", "quiet"]
    await w.close()
    await blind.close()


async def test_the_writer_records_the_countdown_its_drawing_showed() -> None:
    shown_at = 1_900_000_042.0
    store = ShownStore({})
    edits: list[int] = []

    class Message:
        def __init__(self, mid: int) -> None:
            self.mid = mid

        async def edit(self, **_: Any) -> None:
            edits.append(self.mid)

    channel = SimpleNamespace(get_partial_message=Message)
    client: Any = SimpleNamespace(
        store=store, get_partial_messageable=lambda cid, guild_id=None: channel
    )

    def draw(live: Live, closed: Any) -> Drawing:
        return Drawing(discord.ui.LayoutView(timeout=None), deadline=shown_at)

    async def posted(live: Live, message_id: int) -> None:
        live.message_id = message_id

    w: TableMessages[Live] = TableMessages(client, draw, posted)
    live = Live("t1", deadline=monotonic_of(shown_at + 0.7))  # the drawing says the second
    assert await w.draw(live, None)
    await w.close()  # a clean stop writes what was confirmed
    assert edits == [MESSAGE]
    assert store.confirmed == [ShownMessage("t1", MESSAGE, 4, shown_at)]


async def test_the_countdown_drawn_by_each_game_is_the_one_its_message_says() -> None:
    """What each game's drawing records is the ``<t:...>`` its message shows."""
    from bot.blackjack import OpenBlackjackTable
    from bot.punto_banco import OpenPuntoBancoTable
    from cogs.blackjack.presenter import BlackjackPresenter
    from cogs.punto_banco.presenter import PuntoBancoPresenter
    from engine.blackjack import BlackjackTable
    from engine.punto_banco import PuntoBancoTable

    def text_of(drawing: Drawing) -> str:
        return str(drawing.view.to_components())  # type: ignore[no-untyped-call]

    at = 1_900_000_000.0
    bot: Any = SimpleNamespace(
        settings=SimpleNamespace(section=lambda cls: SimpleNamespace(betting_seconds=20))
    )
    pb = PuntoBancoPresenter(bot, SimpleNamespace(timers=PuntoBancoTimers()), card_delay=0)
    table = OpenPuntoBancoTable(
        "ab1", 1, 2, 3, PuntoBancoTable(PuntoBancoRules()), 20.0, closes_at=at + 0.9
    )
    drawing = pb._draw(table, None)
    assert drawing.deadline == at and f"<t:{int(at)}:R>" in text_of(drawing)
    bj = BlackjackPresenter(bot, SimpleNamespace())
    bj_table = OpenBlackjackTable(
        "ab2", 1, 2, 3, BlackjackTable(BlackjackRules()), 30.0, 45.0, closes_at=at + 0.9
    )
    drawing = bj._draw(bj_table, None)
    assert drawing.deadline == at and f"<t:{int(at)}:R>" in text_of(drawing)
    await asyncio.sleep(0)
    await bj.close()
    # Pontoon: the deadline of the current actors, to the nearest second
    from bot.pontoon import OpenPontoonTable
    from cogs.pontoon.presenter import PontoonDiscordPresenter
    from engine.pontoon import Table

    service: Any = SimpleNamespace(seconds_left=lambda live: 42.0)
    pt = PontoonDiscordPresenter(SimpleNamespace(get_guild=lambda gid: None), service)  # type: ignore[arg-type]
    before = time.time()
    drawing = pt._render(OpenPontoonTable("ab3", 1, 2, 3, Table(PontoonRules())), None)
    assert drawing.deadline is not None
    assert round(before + 42) <= drawing.deadline <= round(time.time() + 42)
    assert f"<t:{drawing.deadline}:R>" in text_of(drawing)
    service.seconds_left = lambda live: None  # no clock: no countdown
    assert (
        pt._render(OpenPontoonTable("ab4", 1, 2, 3, Table(PontoonRules())), None).deadline is None
    )
    await pt.close()


async def _blackjack_turn(svc: BlackjackService) -> Any:
    live = await svc.open_table(G, CH, ANN, BlackjackRules(), betting_seconds=FULL)
    await svc.join(live.table_id, ANN)
    await svc.bet(live.table_id, ANN, 10)  # every seat has bet: dealt at once
    assert live.engine.phase is BlackjackPhase.PLAYING and live.deadline is not None
    return live


async def test_a_blackjack_turn_resumes_to_the_moment_its_message_shows(tmp_path: Path) -> None:
    """Play review P2: a restart in a member's turn keeps the turn's deadline (as Pontoon
    does and the README promises), not a fresh one from the restart."""
    shown_at = float(int(time.time()) + 40)
    game = Game(GAMES["blackjack"].make, _blackjack_turn)
    _, back = await _reloaded(
        tmp_path,
        game,
        lambda live: ShownMessage(live.table_id, MESSAGE, live.store_version, shown_at),
    )
    assert back.engine.phase is BlackjackPhase.PLAYING
    assert abs(epoch_of(back.deadline) - shown_at) < 0.05
    assert back.closes_at == shown_at


@pytest.mark.parametrize("name", ["blackjack", "punto_banco"])
async def test_a_stop_before_the_message_was_confirmed_keeps_the_saved_clock(
    tmp_path: Path, name: str
) -> None:
    """Play review P2: the bot killed in the second between a move and the confirmation of
    the message that shows it: the house-banked games resume the clock saved with the
    move, not a fresh full one that starts at the restart."""
    start = _blackjack_turn if name == "blackjack" else GAMES[name].start

    async def later(svc: Any) -> Any:
        live = await start(svc)
        await asyncio.sleep(1.5)  # the restart comes 1.5 s into the turn or window
        return live

    live, back = await _reloaded(tmp_path, Game(GAMES[name].make, later), lambda live: None)
    assert abs(epoch_of(back.deadline) - live.closes_at) < 0.05
    assert back.closes_at == live.closes_at
    assert _left(back) < FULL - 1  # not a fresh full clock from the restart


def test_the_saved_clock_is_resumed_only_with_a_second_of_it_left() -> None:
    now = 1_000_000.0

    def saved(closes_at: float | None, shown: float | None = None) -> StoredTable:
        meta = {"closes_at": closes_at}
        return StoredTable("t", 1, 2, 3, None, 1, {}, meta, shown_deadline=shown)

    assert resumed_clock(saved(now + 30), now) == now + 30
    assert resumed_clock(saved(now + 30, shown=now + 29), now) == now + 29  # the message's
    assert resumed_clock(saved(now + 0.5), now) is None  # too close: a fresh one
    assert resumed_clock(saved(now - 60), now) is None  # ran out while the bot was down
    assert resumed_clock(saved(None), now) is None  # no clock saved (an older table)


async def test_the_sandbox_forgets_which_messages_showed_their_tables(tmp_path: Path) -> None:
    """Newcomer review N-11: the sandbox's local Discord starts with no channel history, so
    at its start no table counts as shown by its message: the restart check reads each
    back (gone) and posts the table again, for a Pontoon table with no clock too."""
    from bot.__main__ import forget_shown_messages

    path = tmp_path / "sandbox.sqlite3"
    store = await Store.open(path)
    svc = GAMES["pontoon"].make(store)
    try:
        live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
        await svc.set_message(live, MESSAGE)
        await store.confirm_shown([ShownMessage(live.table_id, MESSAGE, live.store_version, None)])
        assert live.table_id in await store.confirmed_shown()
    finally:
        await svc.shutdown()
        await store.close()
    await forget_shown_messages(path)
    store = await Store.open(path)
    try:
        assert await store.confirmed_shown() == {}
        assert [t.table_id for t in await store.load_open_tables()] == [live.table_id]
    finally:
        await store.close()
