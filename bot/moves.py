"""What plays a move: the one transaction every change of a table goes through, and
its publication.

No discord imports here. :class:`MovePlayer` (a base of :class:`bot.host.TableHost`)
plays a move at a table (:meth:`MovePlayer.move`): under the table's lock, refused when
the table closed meanwhile or the button is stale, the engine's ``apply`` (typed against
:class:`engine.game.Game`), the table put back exactly as it was on any failure, then
one transaction with the chip transfers and a settled round's results; it returns the
committed :class:`Change` and publishes it to the game's subscribers (start-up
subscribes the presenter), in a task of its own and in order per table.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from bot.errors import ServiceError, StaleButton, engine_fault
from bot.i18n import Msg
from bot.metrics import METRICS
from bot.scheduler import TableClock
from bot.storage.errors import StorageError
from bot.tables import Snapshotted, StoreLike, T
from engine.cards import Chance
from engine.errors import RuleError
from engine.records import Transfer

log = logging.getLogger(__name__)

# the snapshot last written is kept for this many tables, the most recently saved (a
# table's next move puts it back on a failure instead of encoding the table again)
SAVED_KEPT = 512


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


#: one step of a move: an engine action, or a function of the engine giving the next
#: action (None: skip), for a step that depends on what the steps before it did
Step = Any
#: what :meth:`MovePlayer.move` plays: the steps, or a coroutine function that checks what
#: the game checks under the table's lock (awaiting the ledger if it must) and gives them
Plan = Iterable[Step] | Callable[[Any], Awaitable[Iterable[Step]]]


class Applied:
    """The actions applied so far in one move and what each produced (the game's
    :meth:`MovePlayer.after_apply` may add more, e.g. Pontoon's next round)."""

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


class ChangeKind(enum.Enum):
    """What a published :class:`Change` is."""

    MOVE = "move"  # a move applied to the engine (a click, a command, a timer, a computer)
    OPENED = "opened"  # a new table, stored and registered
    SAVED = "saved"  # the table's bot-side state changed and was saved (no engine move)
    CLOSED = "closed"  # the table closed: ``reason`` says why, ``transfers`` its refunds


@dataclass(frozen=True, slots=True)
class Change(Generic[T]):
    """A committed change of one table, as :meth:`MovePlayer.move` returns it and as the
    host publishes it to the game's subscribers (:meth:`MovePlayer.subscribe`): saved at
    store version ``version`` with its chip ``transfers`` (and each player's net in
    ``results`` when it settled a round); ``state_version`` is the engine's version now
    (what the table's buttons carry); ``table`` is the live table it was made on. Events
    addressed to one member (``event.to``) are theirs alone: :meth:`seen_by` gives what
    a member may see of the change."""

    table: T
    version: int
    state_version: int
    events: tuple[Any, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    results: Mapping[str, int] | None = None
    outcomes: tuple[Any, ...] = ()  # each apply's own outcome, in order
    by_timer: bool = False  # the timer moved for whoever ran out of time
    kind: ChangeKind = ChangeKind.MOVE
    reason: Msg | None = None  # CLOSED: why

    @property
    def table_id(self) -> str:
        return self.table.table_id

    def seen_by(self, seat: str) -> tuple[Any, ...]:
        """The events ``seat`` may see: the public ones and those dealt to them."""
        return tuple(e for e in self.events if getattr(e, "to", None) in (None, seat))

    @classmethod
    def of(cls, live: T, kind: ChangeKind, **fields: Any) -> Change[T]:
        """A change with no engine move (``kind``) of ``live`` as it is now."""
        return cls(live, live.store_version, live.engine.version, kind=kind, **fields)

    @classmethod
    def merged(cls, changes: Sequence[Change[T]]) -> Change[T]:
        """Several moves committed one after another (the timer's, for several seats)
        shown as one (one change: that change itself)."""
        if len(changes) == 1:
            return changes[0]
        last = changes[-1]
        results = [c.results for c in changes if c.results is not None]
        return cls(
            last.table,
            last.version,
            last.state_version,
            tuple(e for c in changes for e in c.events),
            tuple(t for c in changes for t in c.transfers),
            results[-1] if results else None,
            tuple(o for c in changes for o in c.outcomes),
            any(c.by_timer for c in changes),
        )


#: what start-up registers to hear of every committed change of a game's tables
Subscriber = Callable[[Change[Any]], Awaitable[None]]


async def save_snapshot(
    store: StoreLike,
    live: Snapshotted,
    game: str,
    transfers: Sequence[Transfer],
    note: str,
    results: Mapping[str, int] | None = None,
    *,
    in_play_stored: Collection[int] | None = None,
) -> str:
    """Write a live table's snapshot, the chip moves that produced it and a log line in
    one transaction, at the next store version (optimistic concurrency); with
    ``results`` (a round was settled), each player's net from it too; and the members
    with chips in play there, unless they are ``in_play_stored`` (what the store holds
    already). Returns the snapshot written."""
    version = live.store_version + 1
    text = live.snapshot()
    in_play = live.in_play()
    await store.save_table(
        live.table_id,
        live.guild_id,
        live.channel_id,
        game,
        text,
        version,
        live.message_id,
        list(transfers),
        note,
        in_play=None if in_play_stored is not None and in_play == set(in_play_stored) else in_play,
        results=results,
    )
    live.store_version = version
    return text


class MovePlayer(TableClock[T]):
    """Plays every move of one game's tables through one transaction, and publishes
    each committed change."""

    chance: Chance

    def __init__(self, *, run_timers: bool = True) -> None:
        super().__init__(run_timers=run_timers)
        # who hears of every committed change (start-up subscribes the game's presenter)
        self._subscribers: list[Subscriber] = []
        # table id -> the task telling the subscribers of its latest change (in order)
        self._deliveries: dict[str, asyncio.Task[None]] = {}
        # table id -> the snapshot last written, for the tables saved most recently (at
        # most SAVED_KEPT): the next move's copy to put back, so a move encodes the
        # table once (the save), not twice; dropped where a table changes unsaved
        self._saved: dict[str, str] = {}

    # ------------------------------------------------- what the game tells the host
    def after_apply(self, live: T, applied: Applied, *, by_timer: bool) -> None:
        """The game's own bookkeeping once a move's actions are applied and before it is
        saved (in the same transaction): the round's log, a settled coup's results... An
        exception here puts the table back like a failed ``apply``."""

    def action_note(self, action: Any) -> str:
        """How the store's log line names one applied action: its actor (every game's
        actions name theirs ``actor``) and its kind."""
        return f"{action.actor} {action.kind.value}"

    # ------------------------------------------------------------- publishing
    def subscribe(self, subscriber: Subscriber) -> None:
        """From now on ``subscriber`` hears of every committed change of this game's
        tables (start-up subscribes the game's presenter)."""
        self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """``subscriber`` hears of no more changes."""
        self._subscribers.remove(subscriber)

    def publish(self, change: Change[T]) -> None:
        """Tell the subscribers of a committed change, in a task of its own (the caller,
        a member's click among them, never waits for it) and in order per table: a
        table's changes reach each subscriber one after another, as they were made. A
        subscriber's failure is logged, never raised: it never undoes a committed move."""
        if not self._subscribers or self._closing:
            return
        table_id = change.table_id
        before = self._deliveries.get(table_id)
        # a context of its own: no caller's context (a member's click) is kept alive
        self._deliveries[table_id] = asyncio.create_task(
            self._deliver(change, before),
            name=f"{self.timer_name}-change-{table_id}",
            context=contextvars.Context(),
        )

    async def _deliver(self, change: Change[T], before: asyncio.Task[None] | None) -> None:
        try:
            if before is not None and not before.done():
                await asyncio.wait([before])  # (a wait: cancelling this one spares it)
            for subscriber in self._subscribers:
                try:
                    await subscriber(change)
                except Exception:
                    log.exception(
                        "%s table %s: showing a change failed", self.game, change.table_id
                    )
        finally:
            if self._deliveries.get(change.table_id) is asyncio.current_task():
                del self._deliveries[change.table_id]

    async def delivered(self, table_id: str) -> None:
        """Wait until the subscribers have heard of every change of the table so far (a
        game that paces itself on what members are shown, e.g. the next betting window
        after a coup's deal is shown). Cancelled when that showing was cancelled."""
        task = self._deliveries.get(table_id)
        if task is not None and task is not asyncio.current_task():
            await asyncio.wait([task])
            if task.cancelled():  # the process stops while it was being shown: so does this
                raise asyncio.CancelledError()

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
    ) -> Change[T]:
        """Play one move at a table and return it committed: under the table's lock,
        refused when the table closed meanwhile (``closed()``, by default
        :meth:`just_closed`) or, with ``version``, when the engine has moved on since
        (StaleButton); then :meth:`commit` (which publishes it); then the table's timer
        is set anew."""
        live = self.get(table_id)
        async with self.lock(table_id):
            if self.tables.get(table_id) is not live:
                raise (closed or self.just_closed)()
            if version is not None and version != live.engine.version:
                raise StaleButton()
            change = await self.commit(live, plan, note=note, by_timer=by_timer)
        self._arm_timer(live)
        return change

    async def commit(
        self,
        live: T,
        plan: Plan,
        *,
        note: str | Callable[[Sequence[Any]], str] | None = None,
        by_timer: bool = False,
    ) -> Change[T]:
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
        before = self.last_saved(live)  # put back whole (engine and the game's own state)
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
        change = Change(
            live,
            live.store_version,
            live.engine.version,
            tuple(applied.events),
            tuple(applied.transfers),
            results,
            tuple(applied.outcomes),
            by_timer,
        )
        self.publish(change)
        return change

    async def save_meta(self, live: T, change: Callable[[], None], note: str) -> None:
        """Change the table's bot-side state (no engine move) and save it, then publish it
        (:attr:`ChangeKind.SAVED`); if the save fails the change is undone, so memory
        never runs ahead of the database."""
        before = self.last_saved(live)
        change()
        await self._persist(live, [], note, before=before)
        self.publish(Change.of(live, ChangeKind.SAVED))

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
        saved = self._saved
        try:
            # the members the store holds in play here, if the table is registered (its
            # rows were written with its last save): rows that stay as they are are not
            # written again
            stored = (
                self._in_play_at.get(live.table_id, ()) if live.table_id in self.tables else None
            )
            text = await save_snapshot(
                self.store, live, self.game, transfers, note, results, in_play_stored=stored
            )
        except BaseException:
            saved.pop(live.table_id, None)
            if before is not None:
                live.restore(before)
            raise
        finally:
            self._reindex(live)
        saved.pop(live.table_id, None)  # (re-inserted last: the oldest go first)
        saved[live.table_id] = text
        if len(saved) > SAVED_KEPT:
            del saved[next(iter(saved))]
        METRICS.write_seconds.observe(time.perf_counter() - started)

    def last_saved(self, live: T) -> str:
        """The table as it was last saved (what a failed move puts back): the snapshot
        written then, when still kept, else encoded now. Memory never runs ahead of the
        database, so the two are the same; where a table changes without a save (its
        message posted anew), :meth:`changed_unsaved` drops the kept one."""
        text = self._saved.get(live.table_id)
        return live.snapshot() if text is None else text

    def changed_unsaved(self, table_id: str) -> None:
        """The table changed in memory without a save: its next move encodes it anew."""
        self._saved.pop(table_id, None)


__all__ = [
    "Applied",
    "Change",
    "ChangeKind",
    "MovePlayer",
    "Plan",
    "Step",
    "Subscriber",
    "save_snapshot",
    "settled_returns",
]
