"""The Store's foundation: one SQLite connection through aiosqlite, transactions, error
translation, and the checks on the database file itself.

Design notes
------------
* One ``aiosqlite`` connection per process (the driver the product names): aiosqlite
  keeps a plain ``sqlite3`` connection on a thread of its own and runs every call
  there. WAL journal, foreign keys on, a busy timeout, rows read by column name
  (``sqlite3.Row``).
* Every read and every write transaction is ONE function run on aiosqlite's thread
  (:meth:`StoreConnection.call`, used by :meth:`StoreBase._write` / :meth:`StoreBase._read`):
  a save costs one thread hop instead of a round trip per statement, and calls never
  interleave on the connection (aiosqlite runs them one after the other, in order).
* Every write is one ``BEGIN IMMEDIATE`` transaction; it commits whole or not at all. A
  transaction that has started always runs to its end (commit or rollback) before the
  connection is used again, even if the calling task is cancelled meanwhile: the
  cancellation is re-raised afterwards (the caller cannot tell whether it committed and
  should reload what it cares about).
* A locked, read-only, full or damaged database becomes :class:`DatabaseBusy`,
  :class:`DatabaseReadOnly`, :class:`DatabaseFull` or :class:`DatabaseCorrupt` (each a
  :class:`StorageUnavailable` with its own message) after the rollback: the game and
  the ledger are left as they were. Every refused write is logged with its cause.
* Before every write the database path is checked to still name the file this store
  opened (:meth:`StoreBase.check_file`): a deleted or replaced database stops all writes
  (:class:`DatabaseGone`) instead of writing into a file nobody will see again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import sqlite3
import stat
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar, cast

import aiosqlite

from bot.i18n import Msg
from bot.storage.errors import (
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseGone,
    DatabaseMadeReadOnly,
    DatabaseReadOnly,
    InvalidAmount,
    SchemaError,
    StorageError,
    StorageUnavailable,
)
from bot.storage.migrations import applied_versions, load_migrations, migrate
from bot.storage.models import GuildSettings, TableRecord

Clock = Callable[[], datetime]
T = TypeVar("T")
Con = sqlite3.Connection
log = logging.getLogger("bot.storage.store")

# Primary SQLite result codes and what they mean for the member and the operator.
_FAULTS: dict[int, type[StorageUnavailable]] = {
    3: DatabaseReadOnly,  # SQLITE_PERM
    5: DatabaseBusy,  # SQLITE_BUSY
    6: DatabaseBusy,  # SQLITE_LOCKED
    8: DatabaseReadOnly,  # SQLITE_READONLY
    11: DatabaseCorrupt,  # SQLITE_CORRUPT
    13: DatabaseFull,  # SQLITE_FULL
    26: DatabaseCorrupt,  # SQLITE_NOTADB
}
_UNAVAILABLE_CODES = {
    7,  # SQLITE_NOMEM
    10,  # SQLITE_IOERR
    14,  # SQLITE_CANTOPEN
    15,  # SQLITE_PROTOCOL
}
_FAULT_WORDS: tuple[tuple[str, type[StorageUnavailable]], ...] = (
    ("readonly", DatabaseReadOnly),
    ("read-only", DatabaseReadOnly),
    ("disk is full", DatabaseFull),
    ("not a database", DatabaseCorrupt),
    ("malformed", DatabaseCorrupt),
    ("locked", DatabaseBusy),
    ("busy", DatabaseBusy),
)
_UNAVAILABLE_WORDS = ("disk", "unable to open", "i/o error")
MAX_REASON = 200
TABLE_COLUMNS = (
    "id, guild_id, channel_id, game, status, version, state_json, message_id, "
    "created_at, updated_at, closed_at"
)
# what a table's message was confirmed to show (migrations 012 and 013), read at a reload
SHOWN_COLUMNS = "shown_version, shown_deadline"


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def from_iso(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def file_size_limit_reached(path: Path | None) -> str | None:
    """When a write failed with an I/O error: is it the process's file size limit
    (``ulimit -f``, EFBIG; SQLite only says SQLITE_IOERR_WRITE)? Then a short
    description of it, else None. Within a megabyte of the limit counts (a write
    failed because it would have crossed it)."""
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY or path is None or str(path) == ":memory:":
        return None
    for suffix in ("", "-wal", "-journal"):
        with contextlib.suppress(OSError):
            size = os.stat(f"{path}{suffix}").st_size
            if size + 2**20 >= limit:
                return (
                    f"the file size limit (ulimit -f, {limit:,} bytes) is reached by "
                    f"{path}{suffix} ({size:,} bytes)"
                )
    return None


_IOERR_WRITE = (778, 1546, 3338)  # SQLITE_IOERR_WRITE, _TRUNCATE, _SHMSIZE


def translate_error(exc: sqlite3.Error, path: Path | None = None) -> Exception:
    """The domain error for a database failure: busy, read-only, full and corrupt
    databases each get their own class (and message); other I/O trouble is
    :class:`StorageUnavailable`. Anything else (a bug) is returned unchanged. With the
    database's ``path``, a write refused by the file size limit is a full disk too."""
    code = getattr(exc, "sqlite_errorcode", None)
    name = getattr(exc, "sqlite_errorname", None) or "?"
    if code in _IOERR_WRITE:
        limit = file_size_limit_reached(path)
        if limit is not None:
            return DatabaseFull(f"database {DatabaseFull.cause} ({name}, {limit}): {exc}")
    if isinstance(code, int):
        fault = _FAULTS.get(code & 0xFF)
        if fault is not None:
            return fault(f"database {fault.cause} ({name}): {exc}")
        if (code & 0xFF) in _UNAVAILABLE_CODES:
            return StorageUnavailable(f"database unavailable ({name}): {exc}")
    if isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError):
        text = str(exc).lower()
        for word, fault in _FAULT_WORDS:
            if word in text:
                return fault(f"database {fault.cause}: {exc}")
        if any(word in text for word in _UNAVAILABLE_WORDS):
            return StorageUnavailable(f"database unavailable: {exc}")
    return exc


def file_identity(path: Path) -> tuple[int, int, int] | None:
    """(device, inode, size) of the file at ``path``; None when there is none."""
    if str(path) == ":memory:":
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_size


Stamp = tuple[int, int, int]  # (inode change time ns, modification time ns, size)


def file_stamp(path: Path) -> Stamp | None:
    """When the file at ``path`` last changed (inode change time and modification time,
    ns) and its size; None when there is none."""
    if str(path) == ":memory:":
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ctime_ns, st.st_mtime_ns, st.st_size


# SQLite's files beside the database, which a running bot must keep: its write-ahead
# log holds every commit not yet copied into the database file, and its shared-memory
# index is how processes agree on that log. Deleting either while the bot runs leaves
# the bot writing into a log nobody else can see.
SIDE_FILES = {"-wal": "write-ahead log", "-shm": "shared-memory index"}


def side_identity(path: Path | str, suffix: str) -> tuple[int, int] | None:
    try:
        st = os.stat(f"{path}{suffix}")
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def read_only_reason(path: Path, st: os.stat_result | None = None) -> str | None:
    """Why the bot could not (or must not) write the database at ``path``: the file or
    its folder without write permission - by mode bits too, which root would otherwise
    ignore. None when it is writable (or missing). ``st``: the file's stat, if at hand."""
    if st is None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
    if st is not None and (not st.st_mode & 0o222 or not os.access(path, os.W_OK)):
        return f"the database file {path} is read-only (mode {stat.filemode(st.st_mode)})"
    folder = path.parent
    try:
        folder_mode = os.stat(folder).st_mode
    except FileNotFoundError:
        return None
    if not folder_mode & 0o222 or not os.access(folder, os.W_OK | os.X_OK):
        return f"the database's folder {folder} is read-only (mode {stat.filemode(folder_mode)})"
    return None


def refuse_read_only(path: Path) -> None:
    """At open: refuse (:class:`DatabaseReadOnly`) a database the bot could not write -
    a file without write permission (even for root, who would otherwise ignore it) or a
    directory where SQLite cannot create its journal."""
    why = read_only_reason(path)
    if why is not None:
        raise DatabaseReadOnly(
            f"{why}; make it writable for the bot's user (SQLite also writes its journal "
            "files in that folder), or restore a writable copy"
        )


def opening_error(path: Path, exc: sqlite3.Error) -> Exception:
    """The error for a database that cannot be opened, naming the file and the fault."""
    error = translate_error(exc, path)
    if isinstance(error, StorageError):
        error.args = (f"cannot open {path}: {error.cause}: {exc}",)
    return error


def log_refusal(exc: StorageError) -> None:
    """Every refused write goes to the log with its cause: faults of the database as
    warnings (the operator must look), the game's refusals (not enough chips, a stale
    table...) at INFO."""
    if isinstance(exc, StorageUnavailable):
        log.warning("write refused (%s): %s", exc.cause, exc)
    else:
        log.info("write refused (%s): %s", type(exc).__name__, exc)


def check_amount(amount: object, *, low: int, high: int) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(amount, Msg("err.storage.amount.whole"))
    if amount < low:
        raise InvalidAmount(amount, Msg("err.storage.amount.min", low=low))
    if amount > high:
        raise InvalidAmount(amount, Msg("err.storage.amount.max", high=high))
    return amount


def check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError(f"a transfer needs a reason, got {reason!r}")
    return reason.strip()[:MAX_REASON]


def one(con: Con, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = con.execute(sql, params).fetchone()
    return row


def rows(con: Con, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
    return list(con.execute(sql, params).fetchall())


def table_record(row: sqlite3.Row, *, shown: bool = False) -> TableRecord:
    """The table of a row of ``TABLE_COLUMNS`` (``shown``: followed by ``SHOWN_COLUMNS``)."""
    return TableRecord(
        table_id=str(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        game=str(row["game"]),
        status="open" if row["status"] == "open" else "closed",
        version=int(row["version"]),
        state_json=str(row["state_json"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        created_at=str(row["created_at"]),
        updated_at=str(row["updated_at"]),
        closed_at=None if row["closed_at"] is None else str(row["closed_at"]),
        shown_version=(
            None if not shown or row["shown_version"] is None else int(row["shown_version"])
        ),
        shown_deadline=(
            None if not shown or row["shown_deadline"] is None else float(row["shown_deadline"])
        ),
    )


def table_tx(con: Con, table_id: str) -> TableRecord | None:
    row = one(con, f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,))
    return None if row is None else table_record(row)


def require_current_schema(done: dict[int, str], needed: int) -> None:
    """Refuse (SchemaError) a database not migrated to this code's ``needed`` version."""
    if max(done, default=0) != needed:
        raise SchemaError(
            f"database schema version {max(done, default=0)}, this code needs "
            f"{needed}: start the bot once to migrate it"
        )


def _connect(
    path: Path, busy_timeout_ms: int, synchronous: str, migrate_schema: bool
) -> sqlite3.Connection:
    """Open and prepare the connection (run by aiosqlite on its thread)."""
    con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        con.row_factory = sqlite3.Row
        con.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("PRAGMA journal_mode = WAL").fetchone()
        con.execute(f"PRAGMA synchronous = {synchronous}")
        migrations = load_migrations()
        if migrate_schema:
            migrate(con, migrations)
        else:
            require_current_schema(applied_versions(con), len(migrations))
    except BaseException:
        con.close()
        raise
    return con


class StoreConnection(aiosqlite.Connection):
    """aiosqlite's connection with what the store needs beyond its statement API, in
    one place (it uses aiosqlite's queue, thread and connection attributes, hence the
    pinned aiosqlite version in pyproject.toml):

    * :meth:`call`: run ``fn(sqlite3 connection)`` as ONE job on aiosqlite's thread - a
      whole transaction in one hop, in order with every other call;
    * :meth:`detach`: stop aiosqlite's thread WITHOUT closing the SQLite connection
      (closing would checkpoint its write-ahead log into a file another program wrote);
    * :meth:`stopped`: wait for the thread to end after a failed open.
    """

    def __init__(self, connector: Callable[[], Con], iter_chunk_size: int) -> None:
        super().__init__(connector, iter_chunk_size)
        # A store left unclosed (a failed start, a test that failed) must not keep the
        # process from exiting; what was committed is in the write-ahead log either way.
        self._thread.daemon = True

    async def call(self, fn: Callable[[Con], T]) -> T:
        # aiosqlite runs fn on its thread; _execute is untyped there
        return cast(T, await self._execute(fn, self._conn))  # type: ignore[no-untyped-call]

    def detach(self) -> Con:
        raw, self._connection = self._conn, None
        self.stop()  # finds no connection to close: only the thread ends
        return raw

    async def stopped(self) -> None:
        """Wait until aiosqlite's thread has ended (after a failed open, where aiosqlite
        stops it without waiting: the loop must outlive the thread's last answer)."""
        await asyncio.to_thread(self._thread.join, 10)


async def open_connection(
    path: Path, busy_timeout_ms: int, synchronous: str, migrate_schema: bool
) -> StoreConnection:
    """Start aiosqlite's thread and open the prepared connection on it."""
    connection = StoreConnection(
        partial(_connect, path, busy_timeout_ms, synchronous, migrate_schema),
        iter_chunk_size=64,
    )
    try:
        await connection  # starts the thread and runs _connect there
    except BaseException:
        await connection.stopped()
        raise
    return connection


async def run_to_end(future: asyncio.Future[T]) -> T:
    """Await ``future`` (a call on the database's thread). If the awaiting task is
    cancelled meanwhile, the call still runs to its end before the cancellation is
    re-raised: the connection is never left inside a half-done transaction."""
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(future)
            break
        except asyncio.CancelledError:
            if not future.done():
                cancelled = True
                continue
            raise
    if cancelled:
        raise asyncio.CancelledError()
    return result


class JoinDates:
    """When members joined their servers, as Discord sends it with each interaction in
    a server (``member.joined_at``); the Discord layer notes it before the store is
    asked to grant chips, and a server's join-age gate reads it. The newest ``size``
    members are kept: a member not kept (or never noted) falls back to when the bot
    first saw them, which is never earlier than their join."""

    def __init__(self, size: int = 20_000) -> None:
        self._size = size
        self._when: OrderedDict[tuple[int, int], datetime] = OrderedDict()

    def note(self, guild_id: int, user_id: int, when: datetime | None) -> None:
        if when is None:
            return
        key = (guild_id, user_id)
        self._when[key] = when
        self._when.move_to_end(key)
        if len(self._when) > self._size:
            self._when.popitem(last=False)

    def get(self, guild_id: int, user_id: int) -> datetime | None:
        return self._when.get((guild_id, user_id))


class StoreBase:
    """Connection, transactions and file checks of a :class:`Store`."""

    def __init__(
        self,
        connection: StoreConnection | None,
        path: Path,
        *,
        defaults: GuildSettings,
        clock: Clock,
    ) -> None:
        # aiosqlite's connection: every call runs on its thread, one after the other
        # (None for the PostgreSQL store, which runs its own; see bot/storage/pg)
        self._connection = connection
        self.path = path
        self.defaults = defaults
        self._clock = clock
        self._closed = False
        # when members joined their servers, as Discord said with their latest
        # interaction (the Discord layer notes it): a server's join-age gate reads it
        self.join_dates = JoinDates()
        # The database file this connection opened (device, inode, size), its folder,
        # and SQLite's files beside it: before every write the paths are checked to
        # still name those files (see check_file).
        self._path_str = str(path)
        self._file_id = file_identity(path)
        self._folder_id = None if self._file_id is None else file_identity(path.parent)
        self._side_ids = {suffix: side_identity(path, suffix) for suffix in SIDE_FILES}
        # Only a store that writes watches for a database made read-only (the audit may
        # read one); set by open().
        self.watch_writable = False
        # When the file's inode last changed, its modification time and size, as this
        # store left them: read and recorded on the driver's thread around every write
        # transaction, so a change between two of this store's writes is another
        # program writing the file in place (``cp backup.sqlite3 pontoon.sqlite3``
        # while the bot runs). The kernel sets ctime on every write and nobody can set
        # it back; a change of ctime alone (chmod, chown, a new hard link) is not a write.
        self._stamp = file_stamp(path)
        self._overwritten = False
        # This store's connection is left unclosed at close (see close())
        self._abandon = False
        # SQLite's side files were taken away: what this connection's log holds is
        # written into the database file (once) before it stops
        self._rescue = False
        self._fatal: StorageUnavailable | None = None
        # Called once when the database can no longer be written safely (its file
        # vanished, was replaced or made read-only...: the process should stop); the
        # bot's runner sets it.
        self.on_fatal: Callable[[StorageUnavailable], None] | None = None

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        defaults: GuildSettings | None = None,
        busy_timeout_ms: int = 5000,
        migrate_schema: bool = True,
        clock: Clock | None = None,
        synchronous: Literal["OFF", "NORMAL", "FULL", "EXTRA"] = "FULL",
    ) -> Self:
        """Open (creating if needed) the database at ``path`` and bring its schema up to
        date. ``defaults`` are the per-server settings of a server that set none.

        ``busy_timeout_ms``: how long a write waits for another connection's lock before
        it is refused with :class:`DatabaseBusy`. ``synchronous``: SQLite's fsync
        policy; FULL (default) makes every committed chip move survive a power cut,
        NORMAL is faster and still atomic (a power cut may lose the last commits, never
        half of one). ``migrate_schema=False`` opens without migrating and refuses an
        out-of-date schema (used by the audit, which never writes; it may open a
        read-only database, which a writer refuses with :class:`DatabaseReadOnly`).
        """
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
            if migrate_schema:
                refuse_read_only(path)
        try:
            connection = await open_connection(path, busy_timeout_ms, synchronous, migrate_schema)
        except sqlite3.Error as exc:
            raise opening_error(path, exc) from exc
        store = cls(
            connection,
            path,
            defaults=defaults or GuildSettings(),
            clock=clock or utcnow,
        )
        store.watch_writable = migrate_schema
        return store

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._overwritten:
            # Closing would checkpoint this connection's write-ahead log into the file
            # another program wrote in place, mixing two databases' pages. Leave the
            # connection unclosed (the process is stopping) and the file exactly as the
            # other program wrote it. Its write-ahead log and index are moved aside
            # too, or the next opener would replay them over the new file.
            _ABANDONED.append(self.connection.detach())
            moved = True
            for suffix in SIDE_FILES:
                journal = Path(f"{self.path}{suffix}")
                try:
                    journal.rename(f"{journal}.overwritten")
                except FileNotFoundError:
                    pass
                except OSError as exc:  # a read-only folder: the next start is refused
                    moved = False
                    log.critical("cannot move %s aside: %s", journal, exc)
            log.critical(
                "the database file %s was overwritten in place; this process's "
                "write-ahead log is left unapplied%s so the file stays as written",
                self.path,
                f" (moved to {self.path}-wal.overwritten)" if moved else "",
            )
        elif self._abandon:
            # Made read-only: nothing more is written, not even the checkpoint a close
            # makes; the committed log stays beside the file for the next start.
            _ABANDONED.append(self.connection.detach())
            log.critical(
                "the database %s was made read-only; the bot wrote nothing more (its "
                "write-ahead log, every chip move committed, is replayed at the next start)",
                self.path,
            )
        else:
            await self.rescue_log()
            await self.connection.close()

    async def rescue_log(self) -> None:
        """When SQLite's side files were taken away: copy this connection's write-ahead
        log (every commit not yet in the database file, readable only through this
        connection now) into the database file, once, so that it survives the stop."""
        if not self._rescue:
            return
        self._rescue = False

        def checkpoint(con: Con) -> tuple[int, int, int]:
            busy, frames, copied = con.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            return int(busy), int(frames), int(copied)

        try:
            busy, frames, copied = await self._call(checkpoint)
        except sqlite3.Error as exc:
            log.critical("could not copy the write-ahead log into %s: %s", self.path, exc)
            return
        log.critical(
            "copied this process's write-ahead log into the database file %s "
            "(%d of %d pages%s) so that no committed chip move is lost",
            self.path,
            copied,
            frames,
            ", the checkpoint was blocked by another connection" if busy else "",
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._read(lambda con: max(applied_versions(con), default=0))

    @property
    def connection(self) -> StoreConnection:
        """The aiosqlite connection (SQLite stores only)."""
        if self._connection is None:
            raise TypeError(f"{type(self).__name__} has no SQLite connection")
        return self._connection

    # ------------------------------------------------------------ the file itself
    def check_file(self) -> None:
        """Raise a fatal error (and tell ``on_fatal`` once) when the database can no
        longer be written safely: :class:`DatabaseGone` when the path no longer names
        the file this store opened (deleted, replaced by another file, truncated to
        nothing, its folder renamed) or SQLite's write-ahead log or shared-memory index
        beside it was deleted or replaced; :class:`DatabaseMadeReadOnly` when the file
        or its folder was made read-only. Every write checks this first; the bot also
        calls it periodically so an idle bot notices too."""
        if self._fatal is not None:
            raise self._fatal
        if self._file_id is None:
            return
        try:
            st: os.stat_result | None = os.stat(self._path_str)
        except FileNotFoundError:
            st = None
        fatal = self._gone(st) or self._made_read_only(st)
        if fatal is None:
            return
        self._fatal = fatal
        log.critical("%s", fatal)
        if self.on_fatal is not None:
            self.on_fatal(fatal)
        raise fatal

    def _gone(self, st: os.stat_result | None) -> DatabaseGone | None:
        assert self._file_id is not None
        what = f"the database file {self.path}"
        now = None if st is None else (st.st_dev, st.st_ino, st.st_size)
        if now is None:
            folder = file_identity(self.path.parent)
            if self._folder_id is not None and (
                folder is None or folder[:2] != self._folder_id[:2]
            ):
                what = f"the database's folder {self.path.parent}"
                why = "was renamed or deleted"
                self._rescue = True  # the files moved with it; the log is still readable
            else:
                why = "was deleted"
        elif now[:2] != self._file_id[:2]:
            why = "was replaced by another file"
        elif now[2] == 0 and self._file_id[2] > 0:
            why = "was emptied (0 bytes)"
        elif self._overwritten:
            why = "was overwritten in place by another program"
        else:
            lost = self._side_file_lost()
            if lost is None:
                return None
            what, why = "", lost
            self._rescue = True
        return DatabaseGone(
            f"{what}{' ' if what else ''}{why} while the bot was running; "
            "no more writes (they would be lost)"
        )

    def _side_file_lost(self) -> str | None:
        """What happened to SQLite's files beside the database, if anything did."""
        for suffix, name in SIDE_FILES.items():
            side = self._path_str + suffix
            seen = self._side_ids[suffix]
            now = side_identity(self._path_str, suffix)
            if seen is None:
                self._side_ids[suffix] = now  # not there at open: created by SQLite since
            elif now is None:
                return f"the database's {name} {side} was deleted"
            elif now != seen:
                return f"the database's {name} {side} was replaced by another file"
        journal = self._path_str + "-journal"
        if os.path.lexists(journal):
            return (
                f"a rollback journal {journal} appeared beside the database (another "
                "program is writing it outside WAL mode)"
            )
        return None

    def _made_read_only(self, st: os.stat_result | None) -> DatabaseMadeReadOnly | None:
        if not self.watch_writable:
            return None
        why = read_only_reason(self.path, st)
        if why is None:
            return None
        self._abandon = True
        return DatabaseMadeReadOnly(
            f"{why}: it was made read-only while the bot was running; no more writes"
        )

    async def backup(self, dest: str | Path) -> Path:
        """Write a consistent copy of the database to ``dest`` (a file, or a folder for a
        timestamped file) with SQLite's online backup API, through a separate read
        connection (writes go on meanwhile). The copy is written next to ``dest`` and
        renamed into place, so a backup file is never half-written."""
        self.check_file()
        from bot.storage.backup import backup_database

        return await asyncio.to_thread(backup_database, self.path, Path(dest))

    # ---------------------------------------------------------------- transactions
    async def _call(self, fn: Callable[[Con], T]) -> T:
        """Run ``fn(connection)`` as one job on aiosqlite's thread. If the caller is
        cancelled meanwhile, the call still runs to its end before the cancellation is
        re-raised (the connection is never left inside a half-done transaction)."""
        return await run_to_end(asyncio.ensure_future(self.connection.call(fn)))

    async def _read(self, fn: Callable[[Con], T]) -> T:
        """A read (no transaction: each statement sees a consistent state)."""

        def run(con: Con) -> T:
            try:
                return fn(con)
            except sqlite3.Error as exc:
                raise translate_error(exc, self.path) from exc

        return await self._call(run)

    async def _write(self, fn: Callable[[Con], T], *, mode: str = "IMMEDIATE") -> T:
        """Run ``fn`` in one transaction on the driver's thread: COMMIT on success,
        ROLLBACK on any error (translated and logged). ``mode="DEFERRED"``: a consistent
        multi-statement read."""
        if mode != "DEFERRED":
            try:
                self.check_file()
            except StorageUnavailable as exc:
                log.error("write refused (%s): %s", exc.cause, exc)
                await self.rescue_log()
                raise

        writes = mode != "DEFERRED"

        def run(con: Con) -> T:
            if writes and self._written_elsewhere():
                raise _Overwritten()
            try:
                con.execute(f"BEGIN {mode}")
            except sqlite3.Error as exc:
                raise translate_error(exc, self.path) from exc
            try:
                result = fn(con)
                con.execute("COMMIT")
            except BaseException as exc:
                if con.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        con.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise translate_error(exc, self.path) from exc
                raise
            finally:
                if writes:  # a commit may have checkpointed into the file
                    self._stamp = file_stamp(self.path)
            return result

        try:
            return await self._call(run)
        except _Overwritten:
            self._overwritten = True
            try:
                self.check_file()
            except StorageUnavailable as exc:
                log.error("write refused (%s): %s", exc.cause, exc)
                raise
            raise AssertionError("unreachable") from None
        except StorageError as exc:
            if writes:
                log_refusal(exc)
            raise

    def _written_elsewhere(self) -> bool:
        """On the driver's thread, before a write: did another program write the file
        since this store's last write? (See ``_stamp``.) A change of the inode alone
        (chmod, chown, a hard link: the same modification time and size) is not a
        write; it is taken as the new stamp, and check_file judges the permissions."""
        if self._stamp is None:
            self._stamp = file_stamp(self.path)
            return False
        now = file_stamp(self.path)
        if now is None or now[0] == self._stamp[0]:
            return False
        if now[1:] == self._stamp[1:]:
            self._stamp = now
            return False
        return True

    async def check_written_elsewhere(self) -> None:
        """For the periodic watch: raise a fatal error (see check_file) if the database
        can no longer be written safely, or if another program wrote the file in place
        (checked on the driver's thread, between writes)."""
        if self._file_id is None:
            return
        try:
            self.check_file()
            if await self._call(lambda con: self._written_elsewhere()):
                self._overwritten = True
            self.check_file()
        except StorageUnavailable:
            await self.rescue_log()
            raise

    def _now(self) -> str:
        return iso(self._clock())


class _Overwritten(Exception):
    """Raised on the driver's thread: the file was written by another program."""


# Connections of stores whose file was overwritten in place: kept so they are never
# closed (closing checkpoints into the file); the process is about to exit, without
# running finalizers (see abandoned_connections and bot.__main__).
_ABANDONED: list[Any] = []


def abandoned_connections() -> bool:
    """True when a store left a connection unclosed on purpose: the process must end
    with ``os._exit`` so that no finalizer closes (and checkpoints) it."""
    return bool(_ABANDONED)


__all__ = [
    "SHOWN_COLUMNS",
    "TABLE_COLUMNS",
    "Con",
    "StoreBase",
    "abandoned_connections",
    "check_amount",
    "check_reason",
    "file_identity",
    "from_iso",
    "iso",
    "one",
    "rows",
    "table_record",
    "table_tx",
    "translate_error",
]
