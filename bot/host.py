"""The table host: what every game's service needs around its tables, written once.

No discord imports here. :class:`TableHost` holds the open tables of one game in this
process and gives the game's service (``bot/<game>.py``, named in ``bot.games``):

* the registry: tables by id and by channel, ``get`` / ``in_channel`` with the game's
  "that table is closed" / "no table here" messages, one asyncio.Lock per table;
* the rules between games: one table per channel and chips in play at one table per
  server, through the ``channel_checks`` / ``busy_checks`` the other game registers;
* reload after a restart (this game's open tables, in the guilds this process runs);
* saving a snapshot with its chip moves in one transaction, or rolling the table back;
* closing a table (every chip returned) and shutting the timers down;
* the move itself (:meth:`TableHost.move`): lock, closed and stale checks, the
  engine's ``apply`` (typed against :class:`engine.game.Game`), the table put back on
  any failure, the save with its chip transfers and round results, the timer; it
  returns the committed :class:`Change`;
* the timers: one :class:`Scheduler` task per game sleeps until the next table's
  deadline (a heap; a table with nothing due costs nothing), runs what the game says
  is due as a task of its own, and backs off (one back-off, here) when it fails.

A game's service subclasses ``TableHost[ItsTable]`` and fills in the hooks in the
"what the game tells the host" section below; everything else is the game's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import json
import logging
import random
import secrets
import sys
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Hashable,
    Iterable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.errors import (
    BusyElsewhere,
    NoTableHere,
    ServiceError,
    StaleButton,
    TableExists,
    engine_fault,
)
from bot.i18n import Msg, Raw
from bot.metrics import METRICS
from bot.storage.accounts import is_member_seat, parse_account
from bot.storage.errors import InsufficientChips, MemberOnBreak, StorageError, TableNotEmpty
from bot.storage.privacy import new_token, scrub_snapshot
from engine.cards import Chance, RandomChance
from engine.errors import RuleError
from engine.game import Game
from engine.records import ESCROW, Transfer

log = logging.getLogger(__name__)

TIMER_RETRY_SECONDS = 5.0  # a timer whose action failed tries again after this, doubling
TIMER_MAX_BACKOFF_SECONDS = 600.0  # ... up to this long between two tries
TIMER_POLL_SECONDS = 0.25  # a table due with nothing to do after all looks again after this
# a reloaded table resumes the countdown its message shows only with this much of it left
# (less, and it gets a fresh one: its message is drawn again)
RESUME_MARGIN_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Holdings:
    """What an open table's saved state says it holds, and who owns what there (each
    game reads its own snapshot into this; the audit compares it with the ledger)."""

    escrow: int
    kitty: int
    stakes: dict[str, int]  # seat -> chips of theirs in the escrow now
    chips: dict[str, int]  # seat -> chips the game thinks the member holds, if it keeps any
    exact: bool  # True: escrow only ever pays back to whoever staked
    # members with chips in play there (seated, or with a bet on)
    in_play: frozenset[int] = frozenset()
    # computer players seated there: they play with the house's chips (Pontoon)
    computers: int = 0


class Settles(Protocol):
    """The part of the game interface (``engine.game.Game``) that tells a round's end."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> Mapping[str, int]: ...


def settled_returns(engine: Settles, was_terminal: bool) -> dict[str, int] | None:
    """Each player's net chips when the change just made settled the round or coup (the
    state was in play and is now terminal), for ``round_results``; otherwise None."""
    if was_terminal or not engine.is_terminal():
        return None
    return dict(engine.returns())


class Backoff:
    """Per-table count of timer steps that failed in a row: the next try waits
    ``TIMER_RETRY_SECONDS * 2**failures`` (at most ``TIMER_MAX_BACKOFF_SECONDS``)."""

    def __init__(self) -> None:
        self._failures: dict[str, int] = {}

    def failed(self, table_id: str) -> tuple[int, float]:
        """Record a failure; returns (failures in a row, seconds to wait)."""
        n = self._failures.get(table_id, 0)
        self._failures[table_id] = n + 1
        return n + 1, min(TIMER_RETRY_SECONDS * 2**n, TIMER_MAX_BACKOFF_SECONDS)

    def succeeded(self, table_id: str) -> None:
        self._failures.pop(table_id, None)


class StoreLike(Protocol):
    """The part of bot.storage.Store the table services use."""

    async def ensure_member(
        self, guild_id: int, user_id: int, starting_chips: int | None = None
    ) -> int: ...

    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        state_json: str,
        version: int,
        message_id: int | None,
        transfers: Sequence[Any],
        log: str | None,
        *,
        in_play: Collection[int] | None = None,
        results: Mapping[str, int] | None = None,
    ) -> None: ...

    async def close_table(
        self,
        table_id: str,
        transfers: Sequence[Any] = (),
        log: str | None = "closed",
        *,
        expected_version: int | None = None,
        refund_from_ledger: bool = False,
    ) -> Any: ...

    async def load_open_tables(self) -> Sequence[Any]: ...

    async def break_ends(
        self, guild_id: int, user_id: int, *, now: datetime | None = None
    ) -> datetime | None: ...

    async def set_table_message(self, table_id: str, message_id: int) -> None: ...

    async def plays_again_at(self, guild_id: int, user_id: int, game: str) -> datetime | None: ...


class Snapshotted(Protocol):
    """What saving and closing need of a live table, whatever the game."""

    table_id: str
    guild_id: int
    channel_id: int
    message_id: int | None
    store_version: int

    def snapshot(self) -> str: ...

    def in_play(self) -> set[int]: ...


class HostedTable(Snapshotted, Protocol):
    """A live table the host can hold: played, saved, put back after a failure, timed."""

    deadline: float | None  # monotonic time the current timer runs out (None: none)
    opener_id: int  # who opened it (0 once their data is erased)

    @property
    def engine(self) -> Game[Any, Any, Any]: ...

    def restore(self, snapshot: str) -> None: ...


def names_kept(names: Mapping[str, str], seats: Iterable[str], opener_id: int) -> dict[str, str]:
    """A table's display names cut down to ``seats`` and the opener: those of members
    no longer at the table go once nothing on it shows them, so what a save writes is
    bounded by the table as it is, not by everyone who ever played there."""
    keep = {*seats, seat_of(opener_id)}
    return {s: n for s, n in names.items() if s in keep}


async def save_snapshot(
    store: StoreLike,
    live: Snapshotted,
    game: str,
    transfers: Sequence[Transfer],
    note: str,
    results: Mapping[str, int] | None = None,
) -> None:
    """Write a live table's snapshot, the chip moves that produced it and a log line in
    one transaction, at the next store version (optimistic concurrency); with
    ``results`` (a round was settled), each player's net from it too."""
    version = live.store_version + 1
    await store.save_table(
        live.table_id,
        live.guild_id,
        live.channel_id,
        game,
        live.snapshot(),
        version,
        live.message_id,
        list(transfers),
        note,
        in_play=live.in_play(),
        results=results,
    )
    live.store_version = version


async def close_in_store(
    store: StoreLike,
    live: Snapshotted,
    refunds_of: Callable[[], Sequence[Transfer]],
    reason: Msg,
) -> list[Transfer] | list[Any]:
    """Return every chip on a table and mark it closed, in one transaction, whatever the
    game. The engine's refunds (``refunds_of()``) are used when the ledger agrees with
    them; if the engine fails or its view of the escrow differs from the ledger's, the
    refunds are computed from the ledger's escrow entries instead, so a table can always
    be closed. Returns the moves applied: the engine's Transfers, or the ledger's Moves.
    The close is refused (StaleVersion) when the stored table is not at the version
    this process holds: a stale copy never closes the live table."""
    note = f"closed: {reason.render('en')}"[:200]  # the log's note, in English
    try:
        refunds: list[Transfer] | None = list(refunds_of())
    except Exception:
        log.exception("table %s: the engine could not work out the refunds", live.table_id)
        refunds = None
    if refunds is not None:
        try:
            await store.close_table(
                live.table_id, refunds, note, expected_version=live.store_version
            )
            return refunds
        except (InsufficientChips, TableNotEmpty, ValueError) as exc:
            log.warning(
                "table %s: the game's refunds disagree with the ledger (%s); "
                "refunding from the ledger's escrow entries instead",
                live.table_id,
                exc,
            )
    moves = await store.close_table(
        live.table_id,
        (),
        note,
        expected_version=live.store_version,
        refund_from_ledger=True,
    )
    return list(moves)


def monotonic_of(epoch: float) -> float:
    """The wall-clock moment ``epoch`` (seconds) on the monotonic clock of the timers."""
    return time.monotonic() + (epoch - time.time())


def clock(seconds: float, until: float | None = None) -> tuple[float, float]:
    """A clock that runs out ``seconds`` from now, or at ``until`` (epoch seconds: the
    countdown a reloaded table's message shows), as (monotonic, epoch) moments: the
    timers' deadline and what the table message counts down to."""
    if until is not None:
        return monotonic_of(until), until
    return time.monotonic() + seconds, time.time() + seconds


def epoch_of(monotonic: float) -> float:
    """The monotonic moment of a timer on the wall clock (seconds, as ``<t:...>`` shows)."""
    return time.time() + (monotonic - time.monotonic())


def new_table_id() -> str:
    """A short unique id that fits in a button's custom id."""
    return f"{int(time.time()):x}{secrets.token_hex(3)}"


def seat_of(user_id: int) -> str:
    # one string per member, however many events and dicts of a table name the seat
    return sys.intern(str(user_id))


def shared_strings(value: Any) -> Any:
    """``value`` (parsed JSON) with its short string values interned, in place: a loaded
    table names each seat, card and kind once instead of once per mention (json.loads
    shares only a dict's keys, and only within one call)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str):
                if len(item) <= 32:
                    value[key] = sys.intern(item)
            elif isinstance(item, dict | list):
                shared_strings(item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, str):
                if len(item) <= 32:
                    value[i] = sys.intern(item)
            elif isinstance(item, dict | list):
                shared_strings(item)
    return value


def ledger_refunds(applied: Iterable[Any]) -> list[Transfer]:
    """The refunds of a closed table as the engines name them (a member's seat id,
    ``@house``): an engine's own transfers as they are, the ledger's escrow entries
    turned back into transfers (for the presenter)."""
    out = []
    for move in applied:
        if isinstance(move, Transfer):
            out.append(move)
            continue
        kind, _, user_id, _ = parse_account(move.dst)
        dst = seat_of(user_id) if kind == "member" and user_id is not None else "@house"
        out.append(Transfer(ESCROW, dst, move.amount, move.reason))
    return out


def where_meta(live: HostedTable) -> dict[str, Any]:
    """Where a live table lives, as its snapshot's meta says it for every game (what
    :meth:`StoredTable.read` reads back): its server, channel, opener and message."""
    return {
        "guild_id": live.guild_id,
        "channel_id": live.channel_id,
        "opener_id": live.opener_id,
        "message_id": live.message_id,
    }


@dataclass(frozen=True)
class StoredTable:
    """An open table as the store gives it back at a reload: where it lives (from its
    snapshot's meta), the store's version and message id, and the snapshot's parts."""

    table_id: str
    guild_id: int
    channel_id: int
    opener_id: int
    message_id: int | None
    version: int
    engine: dict[str, Any]  # the engine's JSON
    meta: dict[str, Any]  # the bot's side: names, timers, what the game keeps besides
    # the moment (epoch seconds) its message counts down to, when that message was
    # confirmed to show the table at this stored version (None: not confirmed, or no
    # countdown shown)
    shown_deadline: float | None = None

    def resumed_deadline(self, now: float | None = None) -> float | None:
        """The countdown a reloaded table resumes: the moment its message counts down to
        (epoch seconds), when that message shows the table at this stored version and
        at least :data:`RESUME_MARGIN_SECONDS` of it are left (``now``: time.time()).
        The game's clock then runs out at that very moment, and the message is right as
        it is. None: the game starts a fresh window or turn (nobody could act while the
        bot was down), as for a table whose message was not confirmed."""
        shown = self.shown_deadline
        if shown is None:
            return None
        left = shown - (time.time() if now is None else now)
        return shown if left >= RESUME_MARGIN_SECONDS else None

    def where(self) -> dict[str, Any]:
        """What every game's live table takes back from its record: where it lives, its
        message and store version, and the members' names."""
        return {
            "table_id": self.table_id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "opener_id": self.opener_id,
            "message_id": self.message_id,
            "store_version": self.version,
            "names": dict(self.meta.get("names") or {}),
        }

    @classmethod
    def read(cls, rec: Any) -> StoredTable:
        data = shared_strings(json.loads(rec.state_json))
        meta = data["meta"]
        shown = getattr(rec, "shows_its_version", False)
        return cls(
            table_id=rec.table_id,
            guild_id=int(meta["guild_id"]),
            channel_id=int(meta["channel_id"]),
            opener_id=int(meta["opener_id"]),
            message_id=rec.message_id or meta.get("message_id"),
            version=int(rec.version),
            engine=data["engine"],
            meta=meta,
            shown_deadline=getattr(rec, "shown_deadline", None) if shown else None,
        )


class KeyedLocks:
    """One lock per key (a table, a channel), kept only while someone holds it or waits
    for it: 5,000 quiet tables keep no lock object. ``async with locks.hold(key)`` is
    first come, first served, as one ``asyncio.Lock`` is."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[Hashable, list[Any]] = {}  # key -> [its lock, holders and waiters]

    def __contains__(self, key: Hashable) -> bool:
        return key in self._held

    @contextlib.asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        entry = self._held.get(key)
        if entry is None:
            entry = self._held[key] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._held[key]


class Scheduler:
    """One task for the due moments of many tables: a heap of (monotonic time, table id),
    sleeping until the first. :meth:`at` sets (or moves, or with None drops) a table's
    next moment; when it comes, ``fire(table_id)`` is called (it must not block: it
    starts whatever is due as a task of its own). A table with nothing due has no entry
    and costs nothing; moving an entry leaves the old one in the heap, skipped when it
    surfaces, and the heap is rebuilt when such entries pile up."""

    def __init__(self, fire: Callable[[str], None], name: str) -> None:
        self._fire = fire
        self._name = name
        self._heap: list[tuple[float, int, str]] = []
        self._when: dict[str, float] = {}  # table id -> its one live entry's time
        self._order = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def at(self, key: str, when: float | None) -> None:
        if when is None:
            self._when.pop(key, None)
            return
        if self._when.get(key) == when:
            return
        self._when[key] = when
        if len(self._heap) > 2 * len(self._when) + 64:  # entries moved since: drop them
            self._heap = [(t, next(self._order), k) for k, t in self._when.items()]
            heapq.heapify(self._heap)
        else:
            heapq.heappush(self._heap, (when, next(self._order), key))
        if self._heap[0][2] == key:
            self._wake.set()  # the first moment is sooner than the task sleeps for
        if self._task is None or self._task.done():
            # a context of its own: no caller's context (a member's click) is kept alive
            self._task = asyncio.create_task(
                self._run(), name=self._name, context=contextvars.Context()
            )

    def cancel(self, key: str) -> None:
        self._when.pop(key, None)

    async def _run(self) -> None:
        when_of = self._when
        while True:
            heap = self._heap  # (rebuilt by at())
            while heap and when_of.get(heap[0][2]) != heap[0][0]:
                heapq.heappop(heap)  # moved or dropped since
            self._wake.clear()
            if not heap:
                await self._wake.wait()
                continue
            when = heap[0][0]
            wait = when - time.monotonic()
            if wait > 0:
                # sleep until then or until at() wakes it (no wait_for: it can swallow a
                # cancel that comes as the event is set)
                alarm = asyncio.get_running_loop().call_later(wait, self._wake.set)
                try:
                    await self._wake.wait()
                finally:
                    alarm.cancel()
                continue
            _, _, key = heapq.heappop(heap)
            del when_of[key]
            try:
                self._fire(key)
            except Exception:
                log.exception("the timer of table %s could not start", key)

    async def stop(self) -> None:
        task, self._task = self._task, None
        self._when.clear()
        self._heap.clear()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


@dataclass(frozen=True)
class TimerJob:
    """What a table's timer must do now, as the game says (see :meth:`TableHost.timer_job`)."""

    run: Callable[[], Awaitable[None]]
    failure: str  # how the log line starts if it fails, e.g. "table 1a2b cannot close"


#: one step of a move: an engine action, or a function of the engine giving the next
#: action (None: skip), for a step that depends on what the steps before it did
Step = Any
#: what :meth:`TableHost.move` plays: the steps, or a coroutine function that checks what
#: the game checks under the table's lock (awaiting the ledger if it must) and gives them
Plan = Iterable[Step] | Callable[[Any], Awaitable[Iterable[Step]]]


class Applied:
    """The actions applied so far in one move and what each produced (the game's
    :meth:`TableHost.after_apply` may add more, e.g. Pontoon's next round)."""

    __slots__ = ("actions", "events", "outcomes", "transfers")

    def __init__(self) -> None:
        self.actions: list[Any] = []
        self.outcomes: list[Any] = []
        self.events: list[Any] = []
        self.transfers: list[Transfer] = []

    def add(self, action: Any, outcome: Any) -> None:
        self.actions.append(action)
        self.outcomes.append(outcome)
        self.events.extend(outcome.events)
        self.transfers.extend(outcome.transfers)


@dataclass(frozen=True, slots=True)
class Change:
    """A committed move, as :meth:`TableHost.move` returns it: saved at store version
    ``version`` with its chip ``transfers`` (and each player's net in ``results`` when it
    settled a round); ``state_version`` is the engine's version now (what the table's
    buttons carry). Events addressed to one member (``event.to``) are theirs alone:
    :meth:`seen_by` gives what a member may see of the change."""

    table_id: str
    version: int
    state_version: int
    events: tuple[Any, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    results: Mapping[str, int] | None = None
    outcomes: tuple[Any, ...] = ()  # each apply's own outcome, in order
    by_timer: bool = False  # the timer moved for whoever ran out of time
    # made on a member's click whose handler answers it with the redrawn table (one
    # UPDATE_MESSAGE): the presenter does not draw the table message itself
    answered: bool = False

    def seen_by(self, seat: str) -> tuple[Any, ...]:
        """The events ``seat`` may see: the public ones and those dealt to them."""
        return tuple(e for e in self.events if getattr(e, "to", None) in (None, seat))

    @classmethod
    def nothing(cls, live: Snapshotted, state_version: int) -> Change:
        """No move was made (e.g. a timer that found nothing left to do)."""
        return cls(live.table_id, live.store_version, state_version)

    @classmethod
    def merged(cls, changes: Sequence[Change]) -> Change:
        """Several moves committed one after another (the timer's, for several seats)
        shown as one."""
        last = changes[-1]
        results = [c.results for c in changes if c.results is not None]
        return cls(
            last.table_id,
            last.version,
            last.state_version,
            tuple(e for c in changes for e in c.events),
            tuple(t for c in changes for t in c.transfers),
            results[-1] if results else None,
            tuple(o for c in changes for o in c.outcomes),
            any(c.by_timer for c in changes),
            any(c.answered for c in changes),
        )


T = TypeVar("T", bound=HostedTable)


class TableHost(Generic[T]):
    """Every open table of one game in this process, and the timers that drive them."""

    game: ClassVar[str]  # the game's name in the store (game_tables.game)
    timer_name: ClassVar[str]  # the timer tasks' names start with this
    # what in_channel() raises for a channel without a table of this game
    no_table_error: ClassVar[type[NoTableHere]]
    # what get() says of a table of this game that has closed: (message id, English)
    closed_message: ClassVar[tuple[str, str]]
    # what a move says when the table closed while it waited for the table's lock
    just_closed_message: ClassVar[tuple[str, str]] = (
        "err.svc.just_closed",
        "That table has just closed.",
    )
    # how /balance words chips in play at a table of this game: the message
    # chips.balance.{self,other}.<this> ("in_play": seated, with a stake)
    balance_words: ClassVar[str] = "in_play"

    def __init__(
        self,
        store: StoreLike,
        *,
        chance: Chance | None = None,
        owns_guild: Callable[[int], bool] | None = None,
        run_timers: bool = True,
    ) -> None:
        self.store = store
        # Sharded bots: only guilds whose shard this process runs (bot.sharding).
        self.owns_guild: Callable[[int], bool] = owns_guild or (lambda _guild_id: True)
        self.chance: Chance = chance or RandomChance(random.SystemRandom())
        self.run_timers = run_timers
        self.tables: dict[str, T] = {}
        self.by_channel: dict[int, str] = {}
        # guild -> its open tables (a member's table is looked for in their server only)
        self.by_guild: dict[int, dict[str, T]] = {}
        # (guild, member) -> the tables where the member has chips in play (in the order
        # they got them), and table id -> its members with chips in play: kept by
        # :meth:`_reindex` wherever a table is registered, saved, scrubbed or closed, so a
        # Join asks one dict instead of walking every table of the server
        # tuples, not sets or dicts: a member is at one table or two, and 5,000 tables
        # of four keep 20,000 of these
        self._member_tables: dict[tuple[int, int], tuple[str, ...]] = {}
        self._in_play_at: dict[str, tuple[int, ...]] = {}
        # The other game registers its checks here: "is this channel taken?" (one table
        # per channel) and "is this member's money in play there?" (chips in play at one
        # table of a server at a time).
        self.channel_checks: list[Callable[[int], bool]] = []
        # other games: where a member's chips are in play in a server (that table's
        # channel id; True: somewhere; None or False: nowhere)
        self.busy_checks: list[Callable[[int, int], int | bool | None]] = []
        self._locks = KeyedLocks()  # table id -> its lock, while held
        # channel -> its opening lock, while held; shared by the games (see together())
        self.opening_locks = KeyedLocks()
        # every table's next due moment, in one task; a table's due job runs as a task
        # of its own (at most one at a time per table)
        self._scheduler = Scheduler(self._due, f"{self.timer_name}-scheduler")
        self._jobs: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        self._backoff = Backoff()
        # table id -> monotonic time a failed timer job may run again (the back-off)
        self._retry_at: dict[str, float] = {}

    # ------------------------------------------------- what the game tells the host
    def check_may_end(self, live: T, user_id: int, *, is_admin: bool) -> None:
        """/end: only the table's opener or a server manager may close a table."""
        if user_id != live.opener_id and not is_admin:
            raise ServiceError(
                "Only the table's opener or a server manager can end the table.",
                key="err.end_denied",
            )

    def no_table(self) -> ServiceError:
        return self.no_table_error()

    def closed_error(self) -> ServiceError:
        key, english = self.closed_message
        return ServiceError(english, key=key)

    def just_closed(self) -> ServiceError:
        key, english = self.just_closed_message
        return ServiceError(english, key=key)

    def after_apply(self, live: T, applied: Applied, *, by_timer: bool) -> None:
        """The game's own bookkeeping once a move's actions are applied and before it is
        saved (in the same transaction): the round's log, a settled coup's results... An
        exception here puts the table back like a failed ``apply``."""

    def action_note(self, action: Any) -> str:
        """How the store's log line names one applied action."""
        return f"{action.seat} {action.kind.value}"

    def table_from_record(self, stored: StoredTable) -> T:
        """The live table for a stored table of this game (at a reload)."""
        raise NotImplementedError

    def has_chips_at(self, live: T, user_id: int) -> bool:
        """Whether the member has chips in play at ``live`` (the same members as
        ``live.in_play()``, asked for one member, quickly)."""
        raise NotImplementedError

    def chips_in_play_of(self, live: T, user_id: int) -> int:
        """The member's chips in play at ``live`` now (what /balance shows; 0 for a member
        seated at a Pontoon table with nothing staked yet)."""
        raise NotImplementedError

    def set_deadline(self, live: T) -> None:
        """Bring ``live.deadline`` up to date before the timer looks at the table."""

    def wake_at(self, live: T, now: float) -> float | None:
        """The monotonic time something is next due at the table (None: nothing yet)."""
        return live.deadline

    def timer_job(self, live: T, now: float) -> TimerJob | None:
        """What to do now that :meth:`wake_at` has come (None: nothing after all)."""
        raise NotImplementedError

    def may_cancel_timer(self, live: T) -> bool:
        """Whether closing ``live`` may cancel its timer (else it ends by itself)."""
        return True

    async def close(self, table_id: str, reason: Msg) -> Any:
        """Close the table, every chip on it back to its owner, and show it closed
        (``reason``: a catalog message, ``reason.*``): /end, an idle table, a reset."""
        raise NotImplementedError

    # ------------------------------------------------------------------- lookup
    def lock(self, table_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """``async with host.lock(table_id)``: the table's moves one at a time."""
        return self._locks.hold(table_id)

    def get(self, table_id: str) -> T:
        live = self.tables.get(table_id)
        if live is None:
            raise self.closed_error()
        return live

    def in_channel(self, channel_id: int | None) -> T:
        """The open table of this game in the channel (None: a DM, which has none)."""
        if channel_id is None:
            raise ServiceError("Use this in a server channel.", key="err.server_only")
        table_id = self.by_channel.get(channel_id)
        if table_id is None:
            raise self.no_table()
        return self.tables[table_id]

    def has_table(self, channel_id: int) -> bool:
        """True when the channel has an open table of this game."""
        return channel_id in self.by_channel

    def table_of_member(self, guild_id: int, user_id: int) -> T | None:
        """The table of the server where the member has chips in play, if any (from the
        index :meth:`_reindex` keeps; the same answer as a walk over the server's tables,
        which :meth:`scan_table_of_member` does)."""
        for table_id in self._member_tables.get((guild_id, user_id), ()):
            live = self.tables.get(table_id)
            if live is not None:
                return live
        return None

    def scan_table_of_member(self, guild_id: int, user_id: int) -> T | None:
        """:meth:`table_of_member` by walking every table of the server (for checks)."""
        for live in self.by_guild.get(guild_id, {}).values():
            if self.has_chips_at(live, user_id):
                return live
        return None

    def _reindex(self, live: T) -> None:
        """Bring the member index up to date for one table: its members with chips in play
        now (none once it is closed). Called after every place a table's seats can change."""
        table_id = live.table_id
        now = live.in_play() if self.tables.get(table_id) is live else set()
        old = set(self._in_play_at.pop(table_id, ()))
        for user_id in old - now:
            key = (live.guild_id, user_id)
            left = tuple(t for t in self._member_tables.get(key, ()) if t != table_id)
            if left:
                self._member_tables[key] = left
            else:
                self._member_tables.pop(key, None)
        for user_id in now - old:
            key = (live.guild_id, user_id)
            self._member_tables[key] = (*self._member_tables.get(key, ()), table_id)
        if now:
            self._in_play_at[table_id] = tuple(now)

    def holds_chips_of(self, guild_id: int, user_id: int) -> bool:
        """True when the member has chips in play at a table of this game there."""
        return self.table_of_member(guild_id, user_id) is not None

    def channel_of_member(self, guild_id: int, user_id: int) -> int | None:
        """The channel of this game's table where the member has chips in play there."""
        live = self.table_of_member(guild_id, user_id)
        return None if live is None else live.channel_id

    def member_busy_elsewhere(self, guild_id: int, user_id: int) -> bool:
        """True when the member has chips in play at a table of another game."""
        return any(bool(check(guild_id, user_id)) for check in self.busy_checks)

    def check_channel_free(self, channel_id: int) -> None:
        """One table per channel, whatever the game."""
        if channel_id in self.by_channel or any(c(channel_id) for c in self.channel_checks):
            raise TableExists()

    def check_member_free(self, guild_id: int, user_id: int, at: T | None = None) -> None:
        """Chips in play at one table per server: refuse a member whose chips are in play
        at another table than ``at``, of this game or another."""
        other = self.table_of_member(guild_id, user_id)
        if other is not None and other is not at:
            raise BusyElsewhere(other.channel_id)
        for check in self.busy_checks:
            found = check(guild_id, user_id)
            if found:  # the other table's channel, named to the member when known
                raise BusyElsewhere(None if isinstance(found, bool) else found)

    async def check_not_on_break(self, guild_id: int, user_id: int) -> None:
        """Refuse (:class:`MemberOnBreak`, with its end) a member on a break they took
        (/break): no new seat and no new stake at any table until it ends. A hand already
        in play may be finished, and a member may always leave."""
        ends = await self.store.break_ends(guild_id, user_id)
        if ends is not None:
            raise MemberOnBreak(ends)

    async def check_may_stake(self, guild_id: int, user_id: int, at: T | None = None) -> None:
        """What every game checks before a member takes a seat or places a bet at ``at``
        (or opens a table seated): their chips in play at no other table of the server
        (:meth:`check_member_free`), and no break running (:meth:`check_not_on_break`)."""
        self.check_member_free(guild_id, user_id, at)
        await self.check_not_on_break(guild_id, user_id)

    # ---------------------------------------------------------------- lifecycle
    async def load(self) -> list[T]:
        """Reload this game's open tables after a (re)start, in the guilds this process
        runs. A record that cannot be read is logged and left as it is."""
        loaded: list[T] = []
        for rec in await self.store.load_open_tables():
            if getattr(rec, "game", self.game) != self.game or rec.table_id in self.tables:
                continue
            if not self.owns_guild(int(rec.guild_id)):
                continue  # another process runs this guild's shard
            try:
                live = self.table_from_record(StoredTable.read(rec))
            except Exception:
                log.exception("could not reload %s table %s", self.game, rec.table_id)
                continue
            self._register(live)
            self._arm_timer(live)
            loaded.append(live)
        return loaded

    @contextlib.asynccontextmanager
    async def _opening(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's opening lock, with the channel checked free again: of two
        members opening a table in one channel at once, one gets it and the other a
        polite TableExists (not a storage error)."""
        async with self.opening_locks.hold(channel_id):
            self.check_channel_free(channel_id)
            yield

    @staticmethod
    def window_in_range(seconds: float, low: float, high: float, key: str) -> float:
        """A betting window's length, refused (with the game's message ``key``) outside
        the game's range ``low`` to ``high`` seconds."""
        if not low <= seconds <= high:
            raise ServiceError(
                f"The betting window must be {low:g} to {high:g} seconds.",
                key=key,
                low=int(low),
                high=int(high),
            )
        return float(seconds)

    async def open_new(
        self,
        live: T,
        start: Callable[[T], None],
        opened: Callable[[T], Awaitable[None]],
        what: str,
    ) -> T:
        """Store and register a new table with no move yet: ``start`` sets its first
        clock, ``opened`` shows it (a presenter failure does not undo the opening)."""
        async with self._opening(live.channel_id):
            start(live)
            await self._persist(live, [], "open")
            self._register(live)
            self._arm_timer(live)
        await self.present(opened(live), what)
        return live

    def _register(self, live: T) -> None:
        self.tables[live.table_id] = live
        self.by_channel[live.channel_id] = live.table_id
        self.by_guild.setdefault(live.guild_id, {})[live.table_id] = live
        self._reindex(live)

    async def set_message(self, live: T, message_id: int) -> None:
        live.message_id = message_id
        await self.store.set_table_message(live.table_id, message_id)

    async def present(self, call: Awaitable[None], what: str) -> None:
        """Run a presenter call; a failure is logged, never raised: presentation must never
        undo a committed move."""
        try:
            await call
        except Exception:
            log.exception("presenting %s failed", what)

    # ------------------------------------------------------------ the round limit
    async def check_round_limit(self, guild_id: int, user_id: int) -> None:
        """The server's limit of rounds per member, game and period (/casino settings),
        asked when a member stakes on a round, never on other clicks: refused, nothing
        changed, with the time they may play again."""
        again = await self.store.plays_again_at(guild_id, user_id, self.game)
        if again is not None:
            raise ServiceError(
                f"Round limit reached; play again at {again.isoformat()}.",
                key="err.round_limit",
                stamp=Raw(str(int(again.timestamp()) + 1)),
            )

    # ------------------------------------------------------------------ moves
    async def move(
        self,
        table_id: str,
        plan: Plan,
        *,
        version: int | None = None,
        closed: Callable[[], ServiceError] | None = None,
        note: str | Callable[[Sequence[Any]], str] | None = None,
        by_timer: bool = False,
        answered: bool = False,
    ) -> Change:
        """Play one move at a table and return it committed: under the table's lock,
        refused when the table closed meanwhile (``closed()``, by default
        :meth:`just_closed`) or, with ``version``, when the engine has moved on since
        (StaleButton); then :meth:`commit`; then the table's timer is set anew.
        ``answered``: the caller answers the member's click with the redrawn table."""
        live = self.get(table_id)
        async with self.lock(table_id):
            if self.tables.get(table_id) is not live:
                raise (closed or self.just_closed)()
            if version is not None and version != live.engine.version:
                raise StaleButton()
            change = await self.commit(live, plan, note=note, by_timer=by_timer, answered=answered)
        self._arm_timer(live)
        return change

    async def commit(
        self,
        live: T,
        plan: Plan,
        *,
        note: str | Callable[[Sequence[Any]], str] | None = None,
        by_timer: bool = False,
        answered: bool = False,
    ) -> Change:
        """Apply a move's steps to the engine in memory, then save the table with the
        chip transfers (and, when the move settled a round, each player's net: see
        :func:`settled_returns`) in ONE transaction. The caller holds the table's lock
        (:meth:`move` does), or the table is not registered yet.

        On ANY failure - a refusal (RuleError, ServiceError) from the plan or the engine,
        an engine that raised part-way through (a bug, an empty shoe), a refused write -
        the table is put back exactly as it was and nothing is written: refusals and
        storage errors propagate as they are, any other exception becomes
        :class:`bot.errors.EngineFault`. ``note`` is the store's log line (by default
        the actions, :meth:`action_note`; a function of the outcomes)."""
        before = live.snapshot()  # put back whole (engine and the game's own state)
        was_terminal = live.engine.is_terminal()
        applied = Applied()
        try:
            steps = await plan(live) if callable(plan) else plan
            for step in steps:
                action = step(live.engine) if callable(step) else step
                if action is not None:
                    applied.add(action, live.engine.apply(action, self.chance))
            results = settled_returns(live.engine, was_terminal)  # before a next round
            self.after_apply(live, applied, by_timer=by_timer)
        except (RuleError, ServiceError, StorageError):
            live.restore(before)
            raise
        except Exception as exc:
            live.restore(before)
            log.exception(
                "%s table %s: the engine failed on %s; the table was restored to its saved state",
                self.game,
                live.table_id,
                "; ".join(self.action_note(a) for a in applied.actions) or "its first step",
            )
            raise engine_fault(exc) from exc
        except BaseException:
            live.restore(before)
            raise
        if callable(note):
            text = note(applied.outcomes)
        else:
            text = note or "; ".join(self.action_note(a) for a in applied.actions) or "no-op"
        await self._persist(live, applied.transfers, text, before=before, results=results)
        return Change(
            live.table_id,
            live.store_version,
            live.engine.version,
            tuple(applied.events),
            tuple(applied.transfers),
            results,
            tuple(applied.outcomes),
            by_timer,
            answered,
        )

    async def save_meta(self, live: T, change: Callable[[], None], note: str) -> None:
        """Change the table's bot-side state (no engine move) and save it; if the save
        fails the change is undone, so memory never runs ahead of the database."""
        before = live.snapshot()
        change()
        await self._persist(live, [], note, before=before)

    async def _persist(
        self,
        live: T,
        transfers: Sequence[Transfer],
        note: str,
        *,
        before: str | None = None,
        results: Mapping[str, int] | None = None,
    ) -> None:
        """Save the table's snapshot with the chip moves that produced it, in one
        transaction (with ``results`` when the change settled a round: see
        :func:`settled_returns`). If the write fails and ``before`` (an earlier
        ``live.snapshot()``) is given, the table is put back to it: memory never runs
        ahead of the database."""
        started = time.perf_counter()
        try:
            await save_snapshot(self.store, live, self.game, transfers, note, results)
        except BaseException:
            if before is not None:
                live.restore(before)
            raise
        finally:
            self._reindex(live)
        METRICS.write_seconds.observe(time.perf_counter() - started)

    async def forget_member(self, user_id: int, guild_id: int | None = None) -> int:
        """After an erasure (/privacy delete; /chips forget in ``guild_id``): the member's
        id leaves this process's open tables too (the names, the round's log, the
        opener), saved at once, so the next save cannot write it back. The member has
        nothing in play (the erasure refuses otherwise). Returns the tables changed.

        Called by the erasing process and, on a signal from the store, by every other
        process on the database (this one again too): a table without the id is left
        alone, so a repeat changes nothing. If the save fails the table stays scrubbed
        in memory (only names and ids changed, no chips) and its next save writes that."""
        changed = 0
        for table_id, live in list(self.tables.items()):
            if guild_id is not None and live.guild_id != guild_id:
                continue
            async with self.lock(table_id):
                if self.tables.get(table_id) is not live:
                    continue
                before = live.snapshot()
                if str(user_id) not in before:
                    continue
                live.restore(scrub_snapshot(before, user_id, "anon" + new_token()))
                self._reindex(live)
                if live.opener_id == user_id:
                    live.opener_id = 0
                changed += 1
                try:
                    await self._persist(live, [], "member data erased")
                except Exception:
                    log.exception(
                        "could not save %s table %s after scrubbing an erased member; "
                        "its next save writes it",
                        self.game,
                        table_id,
                    )
        return changed

    async def _close_table(
        self, table_id: str, reason: Msg, refunds_of: Callable[[T], Sequence[Transfer]]
    ) -> tuple[T, list[Transfer] | list[Any]] | None:
        """Return every chip on the table (``refunds_of(live)``, or the ledger's escrow
        entries) and close it; stop its timer. Returns the table and the moves applied,
        or None when it closed meanwhile. On failure the table is as it was, still open."""
        live = self.get(table_id)
        async with self.lock(table_id):
            if table_id not in self.tables:
                return None
            before = live.snapshot()
            try:
                applied = await close_in_store(self.store, live, lambda: refunds_of(live), reason)
            except BaseException:
                live.restore(before)
                raise
            self.tables.pop(table_id, None)
            self.by_channel.pop(live.channel_id, None)
            self._retry_at.pop(table_id, None)
            self._backoff.succeeded(table_id)
            self._scheduler.cancel(table_id)
            in_guild = self.by_guild.get(live.guild_id, {})
            in_guild.pop(table_id, None)
            if not in_guild:
                self.by_guild.pop(live.guild_id, None)
            self._reindex(live)
            task = self._jobs.get(table_id)
        if task is not None and task is not asyncio.current_task() and self.may_cancel_timer(live):
            task.cancel()
        return live, applied

    async def shutdown(self) -> None:
        """Stop the timers (tables stay open in the store and are reloaded on start)."""
        self._closing = True
        await self._scheduler.stop()
        tasks = list(self._jobs.values())
        self._jobs.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------- timers
    def seconds_left(self, live: T) -> float | None:
        if live.deadline is None:
            return None
        return max(0.0, live.deadline - time.monotonic())

    def _arm_timer(self, live: T) -> None:
        """Bring the table's deadline up to date and put its next due moment in the
        scheduler (a table whose job is running is put there when the job ends)."""
        if self._closing or not self.run_timers:
            return
        self.set_deadline(live)
        if live.table_id not in self._jobs:
            self._scheduler.at(live.table_id, self._next_due(live, time.monotonic()))

    def _next_due(self, live: T, now: float) -> float | None:
        due = self.wake_at(live, now)
        retry_at = self._retry_at.get(live.table_id)
        if due is not None and retry_at is not None:
            due = max(due, retry_at)  # a failed job waits out its back-off
        return due

    def _due(self, table_id: str) -> None:
        """The scheduler says the table's moment has come: start what the game says is
        due as a task of its own (or put the table back for later)."""
        live = self.tables.get(table_id)
        if live is None or self._closing or table_id in self._jobs:
            return
        now = time.monotonic()
        due = self._next_due(live, now)
        if due is None or due > now:
            self._scheduler.at(table_id, due)
            return
        job = self.timer_job(live, now)
        if job is None:
            self._scheduler.at(table_id, now + TIMER_POLL_SECONDS)
            return
        self._jobs[table_id] = asyncio.create_task(
            self._job(live, job), name=f"{self.timer_name}-{table_id}"
        )

    async def _job(self, live: T, job: TimerJob) -> None:
        try:
            await self._run_job(live, job)
        finally:
            if self._jobs.get(live.table_id) is asyncio.current_task():
                del self._jobs[live.table_id]
            if self.tables.get(live.table_id) is live:
                self._arm_timer(live)  # its next moment (a new deadline, a retry)

    async def _run_job(self, live: T, job: TimerJob) -> None:
        """Run a timer job under the one back-off every game's timers share: a job that
        fails (e.g. closing an idle table while the database is locked, a move the store
        refused, or a bug) is logged and tried again later and later, never in a tight
        loop; the table's timer lives on (or it would never time out or close again).
        A table's deadline that has passed moves to the next try."""
        table_id = live.table_id
        try:
            await job.run()
        except Exception as exc:
            failures, delay = self._backoff.failed(table_id)
            log.warning(
                "%s (failure %d in a row: %r); next try in %.1f s",
                job.failure,
                failures,
                exc,
                delay,
                exc_info=not isinstance(exc, StorageError),
            )
            retry_at = time.monotonic() + delay
            self._retry_at[table_id] = retry_at
            if live.deadline is not None:
                live.deadline = max(live.deadline, retry_at)
        else:
            self._backoff.succeeded(table_id)
            self._retry_at.pop(table_id, None)


def together(*hosts: TableHost[Any]) -> Callable[[], None]:
    """Run several games' table hosts as one casino: one table per channel whatever the
    game (one opening lock per channel for all of them, so two members opening a Pontoon
    and a Punto Banco table in one channel at once get one table and one TableExists),
    and a member's chips in play at one table of a server at a time. Returns the undo."""
    shared = KeyedLocks()
    before = [h.opening_locks for h in hosts]
    pairs = [(host, other) for host in hosts for other in hosts if other is not host]
    for host, other in pairs:
        host.opening_locks = shared
        host.channel_checks.append(other.has_table)
        host.busy_checks.append(other.channel_of_member)

    def undo() -> None:
        for host, other in pairs:
            host.channel_checks.remove(other.has_table)
            host.busy_checks.remove(other.channel_of_member)
        for host, locks in zip(hosts, before, strict=True):
            host.opening_locks = locks

    return undo


__all__ = [
    "Applied",
    "Backoff",
    "Change",
    "Holdings",
    "HostedTable",
    "KeyedLocks",
    "Scheduler",
    "Step",
    "StoreLike",
    "StoredTable",
    "TableHost",
    "TimerJob",
    "clock",
    "close_in_store",
    "epoch_of",
    "is_member_seat",
    "monotonic_of",
    "names_kept",
    "new_table_id",
    "save_snapshot",
    "seat_of",
    "together",
    "where_meta",
]
