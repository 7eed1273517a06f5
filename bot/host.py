"""The table host: what every game's service needs around its tables, written once.

No discord imports here. :class:`TableHost` holds the open tables of one game in this
process and gives the game's service (``bot/<game>.py``, named in ``bot.games``) what
three modules keep, one concern each, and what is left here:

* what keeps tables (:mod:`bot.tables`): the registry, tables by id, channel and
  server, one lock per table, the member index, and the rules between games (one table
  per channel, chips in play at one table per server);
* what keeps time (:mod:`bot.scheduler`): one scheduler task per game, each table's due
  job as a task of its own, one back-off;
* what plays a move (:mod:`bot.moves`): the one transaction (:meth:`TableHost.move`:
  lock, closed and stale checks, the engine's ``apply``, the table put back on any
  failure, the save with its chip transfers and round results, the timer), returning
  the committed :class:`bot.moves.Change` and publishing it to the game's subscribers;
* here: reload after a restart, opening and closing a table (every chip returned),
  erasing a member from the open tables, shutting down; and what the audit and the
  reload read of a stored table (:class:`StoredTable`, :class:`Holdings`).

A game's service subclasses ``TableHost[ItsTable]`` and fills in the hooks marked
abstract (a missing one fails when the service is built, not at a timer) and any of the
others in the "what the game tells the host" sections; everything else is the game's own.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
import logging
import random
import secrets
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.errors import ServiceError
from bot.i18n import Msg
from bot.moves import (
    Applied,
    Change,
    ChangeKind,
    MovePlayer,
    Plan,
    Step,
    Subscriber,
    save_snapshot,
    settled_returns,
)
from bot.scheduler import (
    Backoff,
    Scheduler,
    TimerJob,
    clock,
    epoch_of,
    monotonic_of,
)
from bot.storage.accounts import is_member_seat, parse_account
from bot.storage.errors import InsufficientChips, TableNotEmpty
from bot.storage.privacy import new_token, scrub_snapshot
from bot.tables import (
    HostedTable,
    KeyedLocks,
    Snapshotted,
    StoreLike,
    T,
    TableKeeper,
    seat_of,
    together,
)
from engine.cards import Chance, RandomChance
from engine.records import ESCROW, Transfer

log = logging.getLogger(__name__)

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


def names_kept(names: Mapping[str, str], seats: Iterable[str], opener_id: int) -> dict[str, str]:
    """A table's display names cut down to ``seats`` and the opener: those of members
    no longer at the table go once nothing on it shows them, so what a save writes is
    bounded by the table as it is, not by everyone who ever played there."""
    keep = {*seats, seat_of(opener_id)}
    return {s: n for s, n in names.items() if s in keep}


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


def new_table_id() -> str:
    """A short unique id that fits in a button's custom id."""
    return f"{int(time.time()):x}{secrets.token_hex(3)}"


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


class TableHost(MovePlayer[T]):
    """Every open table of one game in this process, and the timers that drive them."""

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
        self.chance = chance or RandomChance(random.SystemRandom())
        super().__init__(run_timers=run_timers)

    # ------------------------------------------------- what the game tells the host
    def check_may_end(self, live: T, user_id: int, *, is_admin: bool) -> None:
        """/end: only the table's opener or a server manager may close a table."""
        if user_id != live.opener_id and not is_admin:
            raise ServiceError(
                "Only the table's opener or a server manager can end the table.",
                key="err.end_denied",
            )

    @abc.abstractmethod
    def table_from_record(self, stored: StoredTable) -> T:
        """The live table for a stored table of this game (at a reload)."""

    @abc.abstractmethod
    def chips_in_play_of(self, live: T, user_id: int) -> int:
        """The member's chips in play at ``live`` now (what /balance shows; 0 for a member
        seated at a Pontoon table with nothing staked yet)."""

    @abc.abstractmethod
    async def close(self, table_id: str, reason: Msg) -> Any:
        """Close the table, every chip on it back to its owner, and show it closed
        (``reason``: a catalog message, ``reason.*``): /end, an idle table, a reset."""

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

    async def open_new(self, live: T, start: Callable[[T], None]) -> T:
        """Store and register a new table with no move yet (``start`` sets its first
        clock), and publish it (:attr:`ChangeKind.OPENED`)."""
        async with self._opening(live.channel_id):
            start(live)
            await self._persist(live, [], "open")
            self._register(live)
            self._arm_timer(live)
        self.publish(Change.of(live, ChangeKind.OPENED))
        return live

    async def set_message(self, live: T, message_id: int) -> None:
        live.message_id = message_id
        self.changed_unsaved(live.table_id)
        await self.store.set_table_message(live.table_id, message_id)

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
        entries) and close it; stop its timer; publish the close
        (:attr:`ChangeKind.CLOSED`, with the refunds as transfers). Returns the table and
        the moves applied, or None when it closed meanwhile. On failure the table is as
        it was, still open."""
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
            self._unregister(live)
            self.changed_unsaved(table_id)
            task = self._stop_timer(table_id)
        if task is not None and task is not asyncio.current_task() and self.may_cancel_timer(live):
            task.cancel()
        refunds = tuple(ledger_refunds(applied))
        self.publish(Change.of(live, ChangeKind.CLOSED, reason=reason, transfers=refunds))
        return live, applied

    async def shutdown(self) -> None:
        """Stop the timers and the changes being shown (tables stay open in the store and
        are reloaded on start)."""
        tasks = [*await self._stop_timers(), *self._deliveries.values()]
        self._deliveries.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


__all__ = [
    "Applied",
    "Backoff",
    "Change",
    "ChangeKind",
    "Holdings",
    "HostedTable",
    "KeyedLocks",
    "Plan",
    "Scheduler",
    "Snapshotted",
    "Step",
    "StoreLike",
    "StoredTable",
    "Subscriber",
    "TableHost",
    "TableKeeper",
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
    "settled_returns",
    "together",
    "where_meta",
]
