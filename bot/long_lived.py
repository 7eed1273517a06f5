"""Full garbage collections that do not grow with the number of open tables.

A process with thousands of open tables holds hundreds of thousands of long-lived
objects (the tables, the servers and members Discord sent, what each table's message
needs). CPython's full collection walks every one of them: at 5,000 open tables one took
126 ms, and every answer in flight waited for it. The bot freezes what it holds once it
is ready (``gc.freeze``); :class:`LongLived` goes on doing so after each full collection,
so the next one walks only what came since. Once a minute it thaws them instead, and
the next full collection walks everything once: reference cycles among frozen objects
that have become garbage are freed then. Those are what was in flight at a full
collection (a click being answered: discord.py's interaction and its response refer to
each other) and parts of a closed table; freezing them for an hour kept megabytes of
answered clicks, a minute keeps little, and one long walk a minute delays few answers.
Objects whose last reference goes are freed at once, frozen or not.

After that walk it also gives the C heap's free pages back to the system (glibc's
``malloc_trim``, where there is one): a start-up that answers thousands of clicks at
once leaves megabytes freed but still counted in the process's resident memory. It does
so too when the process falls quiet after a busy spell (checked every
:data:`QUIET_CHECK_SECONDS`): with no traffic no collection comes, and what a burst of
clicks left freed would stay resident until the next one."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from typing import Any

THAW_EVERY_SECONDS = 60.0
#: how often the process looks whether it fell quiet after a busy spell
QUIET_CHECK_SECONDS = 2.0
#: a busy spell: this many young collections since the C heap was last trimmed (some
#: hundreds of clicks); quiet: fewer than QUIET_COLLECTIONS since the last look
BUSY_COLLECTIONS = 200
QUIET_COLLECTIONS = 2


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


class LongLived:
    """Freeze what survives each full collection; thaw every ``thaw_every`` seconds, and
    after the full collection that follows a thaw, give free C-heap pages back."""

    def __init__(self, thaw_every: float = THAW_EVERY_SECONDS) -> None:
        self.thaw_every = thaw_every
        self.thawed_at = time.monotonic()
        self.thaws = 0
        self.trims = 0
        self._trim_due = False
        self._trim = _malloc_trim()
        self._young_seen = self._young_at_trim = _young_collections()
        self._quiet_check: asyncio.TimerHandle | None = None
        self._quiet_loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> None:
        """Freeze after each full collection; with an event loop running, also look every
        :data:`QUIET_CHECK_SECONDS` whether the process fell quiet (:meth:`check_quiet`),
        on that loop (a bot started again in the same process, on a new loop, moves the
        looks to it)."""
        if self._after_collection not in gc.callbacks:
            gc.callbacks.append(self._after_collection)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: collections only
            return
        if loop is not self._quiet_loop:
            self._stop_looking()
            self._quiet_loop = loop
            self._arm(loop)

    def uninstall(self) -> None:
        if self._after_collection in gc.callbacks:
            gc.callbacks.remove(self._after_collection)
        self._stop_looking()

    def _stop_looking(self) -> None:
        if self._quiet_check is not None:
            self._quiet_check.cancel()
        self._quiet_check = self._quiet_loop = None

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        def look() -> None:
            self.check_quiet()
            self._arm(loop)

        self._quiet_check = loop.call_later(QUIET_CHECK_SECONDS, look)

    def check_quiet(self) -> bool:
        """Give the C heap's free pages back if the process has fallen quiet (fewer than
        :data:`QUIET_COLLECTIONS` young collections since the last look) after a busy
        spell (:data:`BUSY_COLLECTIONS` since the last trim). True when it trimmed."""
        young = _young_collections()
        busy = young - self._young_at_trim >= BUSY_COLLECTIONS
        quiet = young - self._young_seen < QUIET_COLLECTIONS
        self._young_seen = young
        if not (busy and quiet):
            return False
        self._trimmed(young)
        return True

    def _trimmed(self, young: int) -> None:
        self._young_at_trim = young
        if self._trim is not None:
            self._trim(0)
            self.trims += 1

    def _after_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        if self._trim_due:  # this collection walked everything: its garbage is freed
            self._trim_due = False
            self._trimmed(_young_collections())
        now = time.monotonic()
        if now - self.thawed_at >= self.thaw_every:
            gc.unfreeze()  # the next full collection walks everything once
            self.thawed_at = now
            self.thaws += 1
            self._trim_due = True
        else:
            gc.freeze()


def _young_collections() -> int:
    """How many young-generation collections the process has run (a measure of how much
    it allocated: one per some hundreds of new objects)."""
    return int(gc.get_stats()[0]["collections"])


#: the process's one (garbage collection is process-wide)
LONG_LIVED = LongLived()

__all__ = [
    "BUSY_COLLECTIONS",
    "LONG_LIVED",
    "QUIET_CHECK_SECONDS",
    "QUIET_COLLECTIONS",
    "THAW_EVERY_SECONDS",
    "LongLived",
]
