"""What keeps time: every table's timer of one game in one task, and its back-off.

No discord imports here. One :class:`Scheduler` task per game sleeps until the next
table's due moment (a heap: a table with nothing due costs nothing), and
:class:`TableClock` (a base of :class:`bot.host.TableHost`) runs what the game says is
due (:meth:`TableClock.timer_job`) as a task of its own, under one back-off
(:class:`Backoff`) when it fails: the table's timer lives on, later and later, never in
a tight loop.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ClassVar

from bot.storage.errors import StorageError
from bot.tables import T, TableKeeper

log = logging.getLogger(__name__)

TIMER_RETRY_SECONDS = 5.0  # a timer whose action failed tries again after this, doubling
TIMER_MAX_BACKOFF_SECONDS = 600.0  # ... up to this long between two tries
TIMER_POLL_SECONDS = 0.25  # a table due with nothing to do after all looks again after this


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
    """What a table's timer must do now, as the game says (see :meth:`TableClock.timer_job`)."""

    run: Callable[[], Awaitable[None]]
    failure: str  # how the log line starts if it fails, e.g. "table 1a2b cannot close"


class TableClock(TableKeeper[T]):
    """The timers of one game's tables: the game says when something is next due at a
    table (:meth:`wake_at`) and what to do then (:meth:`timer_job`); this runs it."""

    timer_name: ClassVar[str]  # the timer tasks' names start with this

    def __init__(self, *, run_timers: bool = True) -> None:
        super().__init__()
        self.run_timers = run_timers
        # every table's next due moment, in one task; a table's due job runs as a task
        # of its own (at most one at a time per table)
        self._scheduler = Scheduler(self._due, f"{self.timer_name}-scheduler")
        self._jobs: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        self._backoff = Backoff()
        # table id -> monotonic time a failed timer job may run again (the back-off)
        self._retry_at: dict[str, float] = {}

    # ------------------------------------------------- what the game tells the host
    def set_deadline(self, live: T) -> None:
        """Bring ``live.deadline`` up to date before the timer looks at the table."""

    def wake_at(self, live: T, now: float) -> float | None:
        """The monotonic time something is next due at the table (None: nothing yet)."""
        return live.deadline

    @abc.abstractmethod
    def timer_job(self, live: T, now: float) -> TimerJob | None:
        """What to do now that :meth:`wake_at` has come (None: nothing after all)."""

    def may_cancel_timer(self, live: T) -> bool:
        """Whether closing ``live`` may cancel its timer (else it ends by itself)."""
        return True

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

    def _stop_timer(self, table_id: str) -> asyncio.Task[None] | None:
        """The table closed: nothing more is due there. Returns its job, if one runs."""
        self._retry_at.pop(table_id, None)
        self._backoff.succeeded(table_id)
        self._scheduler.cancel(table_id)
        return self._jobs.get(table_id)

    async def _stop_timers(self) -> list[asyncio.Task[None]]:
        """At shutdown: the scheduler stops; returns the jobs that were running."""
        self._closing = True
        await self._scheduler.stop()
        tasks = list(self._jobs.values())
        self._jobs.clear()
        return tasks


__all__ = [
    "Backoff",
    "Scheduler",
    "TableClock",
    "TimerJob",
    "clock",
    "epoch_of",
    "monotonic_of",
]
