"""What keeps a game's tables: the registry and the member index.

No discord imports here. :class:`TableKeeper` (the base of :class:`bot.host.TableHost`)
holds the open tables of one game in this process: by id, by channel and by server,
one lock per table while someone holds it, the members with chips in play at each
table (so a Join asks one dict, not every table of the server), and the rules between
games: one table per channel and chips in play at one table per server, through the
``channel_checks`` / ``busy_checks`` the other games register (:func:`together`).
Also here: what the host needs of a live table and of the store (the protocols).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import sys
from collections.abc import (
    AsyncIterator,
    Callable,
    Collection,
    Hashable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.errors import BusyElsewhere, NoTableHere, ServiceError, TableClosed, TableExists
from bot.i18n import Raw
from bot.storage.errors import MemberOnBreak
from bot.storage.models import StakeCheck
from engine.game import Game


class StoreLike(Protocol):
    """The part of bot.storage.Store the table services use."""

    async def ensure_member(
        self, guild_id: int, user_id: int, starting_chips: int | None = None
    ) -> int: ...

    async def member_balances(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, int]: ...

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

    async def stake_check(
        self, guild_id: int, user_id: int, *, game: str | None = None, balance: bool = False
    ) -> StakeCheck: ...

    async def set_table_message(self, table_id: str, message_id: int) -> None: ...

    async def result_shown(self, table_id: str, round_no: int) -> None: ...

    async def results_shown(self) -> dict[str, int]: ...


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


T = TypeVar("T", bound=HostedTable)


def seat_of(user_id: int) -> str:
    # one string per member, however many events and dicts of a table name the seat
    return sys.intern(str(user_id))


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


class TableKeeper(abc.ABC, Generic[T]):
    """Every open table of one game in this process, by id, channel and server, and the
    members with chips in play at each."""

    # what in_channel() raises for a channel without a table of this game
    no_table_error: ClassVar[type[NoTableHere]]
    # what get() says of a table of this game that has closed: (message id, English)
    closed_message: ClassVar[tuple[str, str]]
    # what a move says when the table closed while it waited for the table's lock
    just_closed_message: ClassVar[tuple[str, str]] = (
        "err.svc.just_closed",
        "That table has just closed.",
    )
    store: StoreLike
    game: ClassVar[str]  # the game's name in the store (game_tables.game)

    def __init__(self) -> None:
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
        # The other games register their checks here: "is this channel taken?" (one table
        # per channel) and "is this member's money in play there?" (chips in play at one
        # table of a server at a time).
        self.channel_checks: list[Callable[[int], bool]] = []
        # other games: where a member's chips are in play in a server (that table's
        # channel id; True: somewhere; None or False: nowhere)
        self.busy_checks: list[Callable[[int, int], int | bool | None]] = []
        self._locks = KeyedLocks()  # table id -> its lock, while held
        # channel -> its opening lock, while held; shared by the games (see together())
        self.opening_locks = KeyedLocks()

    # ------------------------------------------------- what the game tells the host
    @abc.abstractmethod
    def has_chips_at(self, live: T, user_id: int) -> bool:
        """Whether the member has chips in play at ``live`` (the same members as
        ``live.in_play()``, asked for one member, quickly)."""

    def no_table(self) -> ServiceError:
        return self.no_table_error()

    def closed_error(self) -> ServiceError:
        key, english = self.closed_message
        return TableClosed(english, key)

    def just_closed(self) -> ServiceError:
        key, english = self.just_closed_message
        return ServiceError(english, key=key)

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
        await self.check_stake(guild_id, user_id)

    async def check_stake(
        self, guild_id: int, user_id: int, *, round_limit: bool = False, balance: bool = False
    ) -> int | None:
        """What the store must say before a member stakes, asked in one call: no break
        running (:meth:`check_not_on_break`); with ``round_limit``, the server's limit of
        rounds per member, game and period (/casino settings), asked when a member stakes
        on a round, never on other clicks; with ``balance``, their balance from the
        ledger, returned (None without it). A refusal changes nothing; the round limit's
        says when they may play again."""
        found = await self.store.stake_check(
            guild_id, user_id, game=self.game if round_limit else None, balance=balance
        )
        if found.break_ends is not None:
            raise MemberOnBreak(found.break_ends)
        again = found.plays_again_at
        if again is not None:
            raise ServiceError(
                f"Round limit reached; play again at {again.isoformat()}.",
                key="err.round_limit",
                stamp=Raw(str(int(again.timestamp()) + 1)),
            )
        return found.balance

    async def check_may_stake(self, guild_id: int, user_id: int, at: T | None = None) -> None:
        """What every game checks before a member takes a seat or places a bet at ``at``
        (or opens a table seated): their chips in play at no other table of the server
        (:meth:`check_member_free`), and no break running (:meth:`check_not_on_break`)."""
        self.check_member_free(guild_id, user_id, at)
        await self.check_not_on_break(guild_id, user_id)

    # ------------------------------------------------------------ in and out
    @contextlib.asynccontextmanager
    async def _opening(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's opening lock, with the channel checked free again: of two
        members opening a table in one channel at once, one gets it and the other a
        polite TableExists (not a storage error)."""
        async with self.opening_locks.hold(channel_id):
            self.check_channel_free(channel_id)
            yield

    def _register(self, live: T) -> None:
        self.tables[live.table_id] = live
        self.by_channel[live.channel_id] = live.table_id
        self.by_guild.setdefault(live.guild_id, {})[live.table_id] = live
        self._reindex(live)

    def _unregister(self, live: T) -> None:
        """The table is closed: out of the registry and the member index."""
        self.tables.pop(live.table_id, None)
        self.by_channel.pop(live.channel_id, None)
        in_guild = self.by_guild.get(live.guild_id, {})
        in_guild.pop(live.table_id, None)
        if not in_guild:
            self.by_guild.pop(live.guild_id, None)
        self._reindex(live)


def together(*hosts: TableKeeper[Any]) -> Callable[[], None]:
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
    "HostedTable",
    "KeyedLocks",
    "Snapshotted",
    "StoreLike",
    "TableKeeper",
    "seat_of",
    "together",
]
