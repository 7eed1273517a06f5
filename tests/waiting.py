"""Waiting on a condition instead of sleeping a fixed time (a fixed sleep is
too short on a busy machine and too long on an idle one)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


async def eventually(
    condition: Callable[[], object],
    timeout: float = 10.0,
    interval: float = 0.02,
    what: str = "the condition",
) -> None:
    """Return as soon as ``condition()`` is true; fail the test after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(interval)


def eventually_sync(
    condition: Callable[[], object],
    timeout: float = 10.0,
    interval: float = 0.02,
    what: str = "the condition",
) -> None:
    """:func:`eventually` for code without an event loop."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)
