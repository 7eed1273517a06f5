"""bot/long_lived.py: what survives a full garbage collection is frozen, so the next full
collection walks only what came since; a thaw now and then lets reference cycles among
frozen objects that became garbage be freed."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.long_lived import BUSY_COLLECTIONS, QUIET_CHECK_SECONDS, QUIET_COLLECTIONS, LongLived


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_survivors_are_frozen_and_a_thaw_frees_the_cycles_they_left() -> None:
    keeper = LongLived(thaw_every=3600.0)
    gc.unfreeze()
    keeper.install()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a reference cycle: only a collection frees it
        gone = weakref.ref(a)
        gc.collect()  # a full collection: its survivors (a and b among them) are frozen
        assert gc.get_freeze_count() > 0
        del a, b  # now garbage, but frozen: a full collection does not walk it
        gc.collect()
        assert gone() is not None
        keeper.thaw_every = 0  # the time has come
        gc.collect()  # ends with a thaw, not a freeze
        assert keeper.thaws == 1 and gc.get_freeze_count() == 0
        keeper.thaw_every = 3600.0
        gc.collect()  # walks everything once: the cycle is freed
        assert gone() is None
        assert gc.get_freeze_count() > 0  # and what survived is frozen again
        # then the C heap's free pages went back to the system (glibc, as here)
        assert keeper.trims == (1 if keeper._trim is not None else 0)
    finally:
        keeper.uninstall()
        gc.unfreeze()
    assert keeper._after_collection not in gc.callbacks


def test_a_young_collection_freezes_nothing() -> None:
    keeper = LongLived()
    gc.unfreeze()
    keeper.install()
    keeper.install()  # once only
    try:
        assert gc.callbacks.count(keeper._after_collection) == 1
        gc.collect(0)
        gc.collect(1)
        assert gc.get_freeze_count() == 0
    finally:
        keeper.uninstall()
        gc.unfreeze()


def test_the_c_heap_is_trimmed_once_the_process_falls_quiet_after_a_busy_spell() -> None:
    """A burst of clicks leaves memory freed but resident; with no traffic no collection
    comes to give it back, so a quiet spell after a busy one does."""
    keeper = LongLived()
    assert not keeper.check_quiet()  # nothing done since: not busy
    for _ in range(BUSY_COLLECTIONS):
        gc.collect(0)
    assert not keeper.check_quiet()  # busy until this look: not quiet yet
    assert keeper.check_quiet()  # quiet since the last look, after the busy spell: trimmed
    assert keeper.trims == (1 if keeper._trim is not None else 0)
    assert not keeper.check_quiet()  # and once only
    for _ in range(BUSY_COLLECTIONS - QUIET_COLLECTIONS - 1):
        gc.collect(0)
    keeper.check_quiet()
    assert not keeper.check_quiet()  # not busy enough since the last trim


async def test_an_installed_keeper_looks_every_few_seconds() -> None:
    keeper = LongLived()
    gc.unfreeze()
    keeper.install()  # with the event loop running: the looks are armed
    try:
        first = keeper._quiet_check
        assert first is not None
        keeper.install()  # once per event loop
        assert keeper._quiet_check is first
        assert first.when() - asyncio.get_running_loop().time() <= QUIET_CHECK_SECONDS
    finally:
        keeper.uninstall()
        gc.unfreeze()
    assert keeper._quiet_check is None
