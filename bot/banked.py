"""Tables the house banks, played in betting windows: what their services share.

No discord imports here. A game whose members bet against the house in betting windows
(the window opens, members bet, the bot deals and settles, a new window opens) keeps
its open table as a :class:`BankedTable` and its service is a :class:`BankedHost` (a
:class:`bot.host.TableHost`). Written once here:

* the live table's own state around the engine (where it lives, its message, the
  clock, the empty windows, the last round shown, the members' names), its snapshot
  and how it is put back from one;
* opening a table (the betting window's range, one table per channel, the opener's
  name), reloading one after a restart, marking a round's result as shown, and closing
  a table (every chip returned; the host publishes the close);
* the members' balances after a settled round.

Each game keeps what is its own: its rules and engine, its table's own fields, its
messages, its clock (:meth:`BankedHost.start_clock`) and its refunds.
"""

from __future__ import annotations

import abc
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.host import (
    RESUME_MARGIN_SECONDS,
    StoredTable,
    TableHost,
    TimerJob,
    is_member_seat,
    ledger_refunds,
    new_table_id,
    seat_of,
    where_meta,
)
from bot.i18n import Msg
from bot.storage import Store, member_account
from engine.cards import Chance
from engine.game import Game
from engine.records import Transfer

E = TypeVar("E", bound=Game[Any, Any, Any])


def resumed_clock(stored: StoredTable, now: float | None = None) -> float | None:
    """The moment (epoch seconds) a reloaded table's clock runs out: the countdown its
    message was confirmed to show (:meth:`StoredTable.resumed_deadline`), else the clock
    the stored version set (saved with the move, so a stop in the second before the
    message was confirmed does not move a turn's deadline: play review P2), when at
    least :data:`RESUME_MARGIN_SECONDS` of it are left. None: a fresh window or turn."""
    shown = stored.resumed_deadline(now)
    if shown is not None:
        return shown
    saved = stored.meta.get("closes_at")
    if saved is None:
        return None
    left = float(saved) - (time.time() if now is None else now)
    return float(saved) if left >= RESUME_MARGIN_SECONDS else None


@dataclass
class BankedTable(abc.ABC, Generic[E]):
    """An open table the house banks, as the bot holds it: the engine's state plus where
    it lives and what the bot keeps besides. A game's table adds its own fields (after
    these, or by keyword) and says them in :meth:`own_meta` / :meth:`restore_own`."""

    table_id: str
    guild_id: int
    channel_id: int
    opener_id: int
    engine: E
    betting_seconds: float
    _: KW_ONLY
    message_id: int | None = None
    store_version: int = 0
    deadline: float | None = None  # monotonic time the window or the turn runs out
    closes_at: float | None = None  # the same moment on the wall clock (for <t:..:R>)
    empty_windows: int = 0  # betting windows in a row that passed with no bet at all
    announced: int = 0  # the last round whose result was shown
    names: dict[str, str] = field(default_factory=dict)  # seat -> display name

    def meta(self) -> dict[str, Any]:
        """The bot's side of the snapshot (the engine's JSON is the other)."""
        return {
            **where_meta(self),
            "betting_seconds": self.betting_seconds,
            "empty_windows": self.empty_windows,
            "announced": self.announced,
            "names": self.names,
            # the moment its clock runs out, saved with the move that set it: a restart
            # resumes it even when the bot stopped before its message was confirmed
            "closes_at": self.closes_at,
            **self.own_meta(),
        }

    def own_meta(self) -> dict[str, Any]:
        """The game's own fields in the snapshot's meta."""
        return {}

    def restore_own(self, meta: dict[str, Any]) -> None:
        """Put the game's own fields back from a snapshot's meta."""

    def snapshot(self) -> str:
        return json.dumps({"engine": self.engine.to_json(), "meta": self.meta()})

    def restore(self, snapshot: str) -> None:
        """Put the table back as it was in ``snapshot`` (after a failed write)."""
        data = json.loads(snapshot)
        meta = data["meta"]
        self.engine = type(self.engine).from_json(data["engine"])
        self.empty_windows = int(meta["empty_windows"])
        self.announced = int(meta["announced"])
        self.names = dict(meta["names"])
        self.message_id = meta["message_id"]
        self.restore_own(meta)

    @abc.abstractmethod
    def in_play(self) -> set[int]:
        """Members with chips on the table (the game says who)."""

    def name(self, seat: str) -> str:
        return self.names.get(seat) or f"<@{seat}>"


class WindowTimers(Protocol):
    """What the shared code reads of a game's timers."""

    @property
    def betting_seconds(self) -> float: ...  # the betting window of a new table


B = TypeVar("B", bound=BankedTable[Any])
R = TypeVar("R")
W = TypeVar("W", bound=WindowTimers)


class BankedHost(TableHost[B], Generic[B, R, W]):
    """The service of a game the house banks in betting windows: ``B`` its live table,
    ``R`` its rules, ``W`` its timers."""

    title: ClassVar[str]  # how log lines name the game's tables: "<title> table <id>"
    # a table's betting window: (fewest seconds, most seconds, the message id outside)
    window_range: ClassVar[tuple[float, float, str]]
    # how the log line of a timer that failed goes on after the table's name
    timer_failure: ClassVar[str]
    store: Store

    def __init__(
        self,
        store: Store,
        *,
        chance: Chance | None = None,
        timers: W | None = None,
        run_timers: bool = True,
        owns_guild: Callable[[int], bool] | None = None,
    ) -> None:
        super().__init__(store, chance=chance, owns_guild=owns_guild, run_timers=run_timers)
        self.timers: W = timers or self.default_timers()

    # ------------------------------------------------- what the game tells the host
    @abc.abstractmethod
    def default_timers(self) -> W:
        """The timers of a service built without any."""

    @abc.abstractmethod
    def new_table(self, common: dict[str, Any], rules: R) -> B:
        """A new table: the game's table with ``common`` (where it lives, its betting
        window) and an engine for ``rules``."""

    @abc.abstractmethod
    def reloaded_table(
        self, common: dict[str, Any], engine: dict[str, Any], meta: dict[str, Any]
    ) -> B:
        """A reloaded table: the game's table with ``common`` (where it lives, its
        message, its betting window, its names, its windows and rounds counted), its
        engine from ``engine`` (the engine's JSON) and its own fields from ``meta``."""

    @abc.abstractmethod
    def start_clock(self, live: B, until: float | None = None) -> None:
        """The table's clock from now, or one that runs out at ``until`` (epoch seconds:
        the countdown a reloaded table's message shows)."""

    @abc.abstractmethod
    def last_round(self, live: B) -> int:
        """The number of the last round settled at the table (0: none yet)."""

    @abc.abstractmethod
    def refunds_of(self, live: B) -> list[Transfer]:
        """Every chip still on the table back to its owner (the table closes)."""

    @abc.abstractmethod
    async def time_up(self, table_id: str) -> None:
        """The table's clock ran out (the timer's job: :meth:`timer_job`)."""

    # ----------------------------------------------------------------- shared
    def what(self, live: B) -> str:
        """How log lines name the table."""
        return f"{self.title} table {live.table_id}"

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        opener_id: int,
        rules: R,
        *,
        betting_seconds: float | None = None,
        opener_name: str | None = None,
    ) -> B:
        """Open a table in a channel (one table per channel, whatever the game)."""
        seconds = self.timers.betting_seconds if betting_seconds is None else betting_seconds
        seconds = self.window_in_range(seconds, *self.window_range)
        self.check_channel_free(channel_id)
        common = {
            "table_id": new_table_id(),
            "guild_id": guild_id,
            "channel_id": channel_id,
            "opener_id": opener_id,
            "betting_seconds": seconds,
        }
        live = self.new_table(common, rules)
        if opener_name:
            live.names[seat_of(opener_id)] = opener_name
        return await self.open_new(live, self.start_clock)

    def table_from_record(self, stored: StoredTable) -> B:
        meta = stored.meta
        live = self.reloaded_table(
            {
                **stored.where(),
                "betting_seconds": float(meta["betting_seconds"]),
                "empty_windows": int(meta.get("empty_windows", 0)),
                "announced": int(meta.get("announced", 0)),
            },
            stored.engine,
            meta,
        )
        self.start_clock(live, resumed_clock(stored))
        return live

    async def mark_announced(self, live: B, round_no: int | None = None) -> None:
        """The result of round ``round_no`` (by default the last one settled) was shown:
        saved, so a restart does not show it again."""
        async with self.lock(live.table_id):
            if round_no is None:
                round_no = self.last_round(live)
            if live.table_id not in self.tables or live.announced >= round_no:
                return
            live.announced = round_no
            await self._persist(live, [], "result shown")

    async def balances_of(self, live: B, seats: Iterable[str]) -> dict[str, int]:
        """The chips the members among ``seats`` hold off the table, by seat."""
        accounts = {
            member_account(live.guild_id, int(s)): s
            for s in dict.fromkeys(seats)
            if is_member_seat(s)
        }
        found = await self.store.balances(accounts)
        return {accounts[a]: chips for a, chips in found.items()}

    def timer_job(self, live: B, now: float) -> TimerJob:
        return TimerJob(
            lambda: self.time_up(live.table_id), f"{self.what(live)}: {self.timer_failure}"
        )

    async def close(self, table_id: str, reason: Msg) -> list[Transfer]:
        """Close a table, returning every chip still on it from escrow to its owner.
        ``reason`` is a catalog message (``reason.*``), said in each reader's language
        (the host publishes the close, with these refunds)."""
        closed = await self._close_table(table_id, reason, self.refunds_of)
        if closed is None:
            return []
        live, applied = closed
        live.deadline = live.closes_at = None
        return ledger_refunds(applied)


__all__ = ["BankedHost", "BankedTable", "WindowTimers"]
