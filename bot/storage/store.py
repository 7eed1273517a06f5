"""The Store: every database read and write the bot makes (SQLite through aiosqlite).

Design notes
------------
* One connection per process, WAL journal, foreign keys on, a busy timeout. Every write
  is one ``BEGIN IMMEDIATE`` transaction taken under an asyncio lock (so coroutines never
  interleave statements on the shared connection); it commits whole or not at all.
* Double-entry ledger: ``transfers`` rows are the truth, ``accounts.balance`` a cache kept
  in step inside the same transaction; ``bot.audit`` checks one against the other.
* The house account of a server (``house:{guild}``) is the casino's float: it starts at
  zero and MAY RUN NEGATIVE (its balance is the house's net result; negative means the
  players are up). Every other account is kept >= 0 by this code and by a CHECK
  constraint. Chips enter only by grants to members, so for each server the sum of all
  balances (house included) equals the sum of its grants.
* Any locked, busy, full, read-only or broken database becomes :class:`StorageUnavailable`
  after the transaction was rolled back: the game and the ledger are left as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import aiosqlite

from bot.storage.accounts import (
    map_engine_account,
    member_account,
    parse_account,
)
from bot.storage.errors import (
    DailyNotReady,
    InsufficientChips,
    InvalidAmount,
    InvalidSetting,
    SchemaError,
    StaleVersion,
    StorageUnavailable,
    TableAlreadyOpen,
    TableClosed,
    TableNotEmpty,
    TableNotFound,
)
from bot.storage.languages import LanguageStore
from bot.storage.migrations import applied_versions, load_migrations, migrate
from bot.storage.models import (
    GAMES,
    GUILD_SETTING_KEYS,
    MAX_GRANT,
    MAX_TRANSFER,
    AccountAudit,
    ActionLogEntry,
    GuildSettings,
    LeaderboardEntry,
    LedgerSnapshot,
    Move,
    TableRecord,
    TransferLike,
    TransferRecord,
)

Clock = Callable[[], datetime]
T = TypeVar("T")

# Primary SQLite result codes that mean "the database cannot take this right now".
_UNAVAILABLE_CODES = {
    3,  # SQLITE_PERM
    5,  # SQLITE_BUSY
    6,  # SQLITE_LOCKED
    7,  # SQLITE_NOMEM
    8,  # SQLITE_READONLY
    10,  # SQLITE_IOERR
    11,  # SQLITE_CORRUPT
    13,  # SQLITE_FULL
    14,  # SQLITE_CANTOPEN
    15,  # SQLITE_PROTOCOL
    26,  # SQLITE_NOTADB
}
_UNAVAILABLE_WORDS = ("locked", "busy", "full", "disk", "readonly", "read-only", "unable to open")
_MAX_REASON = 200
_TABLE_COLUMNS = (
    "id, guild_id, channel_id, game, status, version, state_json, message_id, "
    "created_at, updated_at, closed_at"
)


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def _from_iso(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def translate_error(exc: sqlite3.Error) -> Exception:
    """The domain error for a database failure the member should see as 'try later'."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _UNAVAILABLE_CODES:
        return StorageUnavailable(f"database unavailable: {exc}")
    if isinstance(exc, sqlite3.OperationalError) and any(
        word in str(exc).lower() for word in _UNAVAILABLE_WORDS
    ):
        return StorageUnavailable(f"database unavailable: {exc}")
    return exc


def _check_amount(amount: object, *, low: int, high: int, what: str = "amount") -> int:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(amount, "must be a whole number of chips")
    if amount < low:
        raise InvalidAmount(amount, f"must be at least {low}")
    if amount > high:
        raise InvalidAmount(amount, f"must be at most {high:,}")
    return amount


def _check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError(f"a transfer needs a reason, got {reason!r}")
    return reason.strip()[:_MAX_REASON]


def _table_record(row: Sequence[Any]) -> TableRecord:
    return TableRecord(
        table_id=str(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        game=str(row[3]),
        status="open" if row[4] == "open" else "closed",
        version=int(row[5]),
        state_json=str(row[6]),
        message_id=None if row[7] is None else int(row[7]),
        created_at=str(row[8]),
        updated_at=str(row[9]),
        closed_at=None if row[10] is None else str(row[10]),
    )


class Store(LanguageStore):
    """All persistent state of the bot. Create with ``await Store.open(path)``."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: Path,
        *,
        defaults: GuildSettings,
        clock: Clock,
    ) -> None:
        self._db = db
        self.path = path
        self.defaults = defaults
        self._clock = clock
        self._lock = asyncio.Lock()
        self._closed = False

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
    ) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to
        date. ``defaults`` are the per-server settings of a server that set none.

        ``busy_timeout_ms``: how long a write waits for another connection's lock before
        it is refused with :class:`StorageUnavailable`. ``synchronous``: SQLite's fsync
        policy; FULL (default) makes every committed chip move survive a power cut, NORMAL
        is faster and still atomic (a power cut may lose the last commits, never half of
        one). ``migrate_schema=False`` opens without migrating and refuses an out-of-date
        schema (used by the audit, which never writes).
        """
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous mode {synchronous!r}")
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise translate_error(exc) from exc
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            async with db.execute("PRAGMA journal_mode = WAL") as cur:
                await cur.fetchone()
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            migrations = load_migrations()
            if migrate_schema:
                await migrate(db, migrations)
            else:
                done = await applied_versions(db)
                if max(done, default=0) != len(migrations):
                    raise SchemaError(
                        f"database schema version {max(done, default=0)}, this code needs "
                        f"{len(migrations)}: start the bot once to migrate it"
                    )
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise translate_error(exc) from exc
            raise
        return cls(db, path, defaults=defaults or GuildSettings(), clock=clock or _utcnow)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            async with self._lock:
                await self._db.close()

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
        async with self._read() as db:
            return max(await applied_versions(db), default=0)

    # ---------------------------------------------------------------- transactions
    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise translate_error(exc) from exc

    async def _transact(
        self, work: Callable[[aiosqlite.Connection], Awaitable[T]], *, mode: str = "IMMEDIATE"
    ) -> T:
        """Run ``work`` in one transaction: COMMIT on success, ROLLBACK on any error.

        A transaction that has started always runs to its end (commit or rollback) before
        the connection is handed on, even if the calling task is cancelled meanwhile: the
        cancellation is re-raised afterwards. So the shared connection is never left
        inside a half-done transaction. (A cancelled caller cannot tell whether the write
        committed; it should reload the state it cares about.)
        """
        async with self._lock:
            task = asyncio.ensure_future(self._run_transaction(work, mode))
            cancelled = False
            while True:
                try:
                    result = await asyncio.shield(task)
                    break
                except asyncio.CancelledError:
                    if not task.done():
                        cancelled = True
                        continue
                    raise
            if cancelled:
                raise asyncio.CancelledError()
            return result

    async def _run_transaction(
        self, work: Callable[[aiosqlite.Connection], Awaitable[T]], mode: str
    ) -> T:
        db = self._db
        try:
            await db.execute(f"BEGIN {mode}")
        except sqlite3.Error as exc:
            raise translate_error(exc) from exc
        try:
            result = await work(db)
            await db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                await db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise translate_error(exc) from exc
            raise
        return result

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
        async with db.execute(sql, params) as cur:
            return await cur.fetchone()

    @staticmethod
    async def _all(db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    def _now(self) -> str:
        return _iso(self._clock())

    # -------------------------------------------------------------------- balances
    async def balance(self, account: str) -> int:
        """The account's chips (0 for an account the ledger has never seen)."""
        parse_account(account)
        async with self._read() as db:
            row = await self._one(db, "SELECT balance FROM accounts WHERE id = ?", (account,))
        return 0 if row is None else int(row[0])

    async def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """Balances of several accounts in one read (0 for unknown accounts)."""
        wanted = list(dict.fromkeys(accounts))
        for account in wanted:
            parse_account(account)
        result = dict.fromkeys(wanted, 0)
        async with self._read() as db:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for row in await self._all(
                    db, f"SELECT id, balance FROM accounts WHERE id IN ({marks})", chunk
                ):
                    result[str(row[0])] = int(row[1])
        return result

    async def member_balance(self, guild_id: int, user_id: int) -> int:
        return await self.balance(member_account(guild_id, user_id))

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderboardEntry]:
        """The richest members of a server: (user_id, balance), richest first."""
        limit = max(1, min(int(limit), 100))
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT user_id, balance FROM accounts WHERE guild_id = ? AND kind = 'member' "
                "ORDER BY balance DESC, user_id ASC LIMIT ?",
                (guild_id, limit),
            )
        return [LeaderboardEntry(int(r[0]), int(r[1])) for r in rows]

    async def history(self, account: str, limit: int = 20) -> list[TransferRecord]:
        """The account's latest ledger rows, newest first."""
        parse_account(account)
        limit = max(1, min(int(limit), 500))
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT id, ts, guild_id, kind, src, dst, amount, reason, table_id, by_user_id "
                "FROM transfers WHERE src = ? OR dst = ? ORDER BY id DESC LIMIT ?",
                (account, account, limit),
            )
        return [
            TransferRecord(
                id=int(r[0]),
                ts=str(r[1]),
                guild_id=int(r[2]),
                kind="grant" if r[3] == "grant" else "transfer",
                src=None if r[4] is None else str(r[4]),
                dst=str(r[5]),
                amount=int(r[6]),
                reason=str(r[7]),
                table_id=None if r[8] is None else str(r[8]),
                by_user_id=None if r[9] is None else int(r[9]),
            )
            for r in rows
        ]

    # --------------------------------------------------------------------- members
    async def ensure_member(
        self, guild_id: int, user_id: int, starting_chips: int | None = None
    ) -> int:
        """The member's balance, creating their account with a starting grant the first
        time the member is seen (``starting_chips`` None: the server's setting)."""
        account = member_account(guild_id, user_id)
        if starting_chips is not None:
            _check_amount(starting_chips, low=0, high=MAX_GRANT, what="starting chips")
        async with self._read() as db:
            row = await self._one(
                db,
                "SELECT a.balance FROM members m JOIN accounts a ON a.id = m.account_id "
                "WHERE m.guild_id = ? AND m.user_id = ?",
                (guild_id, user_id),
            )
        if row is not None:
            return int(row[0])

        async def work(db: aiosqlite.Connection) -> int:
            await self._ensure_member_tx(db, guild_id, user_id, starting_chips)
            return await self._balance_tx(db, account)

        return await self._transact(work)

    async def grant(
        self, guild_id: int, user_id: int, amount: int, reason: str, by_user_id: int | None
    ) -> int:
        """Give a member chips out of nothing (an admin grant), recorded as a grant.
        Returns the new balance. ``amount`` must be 1..10^9."""
        _check_amount(amount, low=1, high=MAX_GRANT)
        reason = _check_reason(reason)
        account = member_account(guild_id, user_id)

        async def work(db: aiosqlite.Connection) -> int:
            await self._ensure_member_tx(db, guild_id, user_id, None)
            await self._grant_tx(db, guild_id, account, amount, reason, by_user_id)
            return await self._balance_tx(db, account)

        return await self._transact(work)

    async def claim_daily(
        self,
        guild_id: int,
        user_id: int,
        amount: int | None = None,
        cooldown: timedelta = timedelta(hours=20),
        now: datetime | None = None,
    ) -> int:
        """Grant the daily chips (``amount`` None: the server's setting) unless claimed
        within ``cooldown``; raises :class:`DailyNotReady` with the next time otherwise.
        Returns the new balance."""
        if cooldown < timedelta(0):
            raise ValueError("cooldown must not be negative")
        account = member_account(guild_id, user_id)
        moment = now or self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)

        async def work(db: aiosqlite.Connection) -> int:
            chips = amount
            if chips is None:
                chips = (await self._guild_settings_tx(db, guild_id)).daily_chips
            _check_amount(chips, low=1, high=MAX_GRANT)
            await self._ensure_member_tx(db, guild_id, user_id, None)
            row = await self._one(
                db,
                "SELECT last_daily_at FROM members WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            if row is not None and row[0] is not None:
                next_at = _from_iso(str(row[0])) + cooldown
                if moment < next_at:
                    raise DailyNotReady(next_at)
            await self._grant_tx(db, guild_id, account, chips, "daily", None, ts=_iso(moment))
            await db.execute(
                "UPDATE members SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (_iso(moment), guild_id, user_id),
            )
            return await self._balance_tx(db, account)

        return await self._transact(work)

    async def _ensure_member_tx(
        self, db: aiosqlite.Connection, guild_id: int, user_id: int, starting_chips: int | None
    ) -> bool:
        """Inside a write transaction: create the member if new. True when created."""
        account = member_account(guild_id, user_id)
        row = await self._one(
            db, "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if row is not None:
            return False
        if starting_chips is None:
            starting_chips = (await self._guild_settings_tx(db, guild_id)).starting_chips
        now = self._now()
        await db.execute(
            "INSERT OR IGNORE INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
            "VALUES (?, 'member', ?, ?, 0, ?)",
            (account, guild_id, user_id, now),
        )
        await db.execute(
            "INSERT INTO members (guild_id, user_id, account_id, joined_at) VALUES (?, ?, ?, ?)",
            (guild_id, user_id, account, now),
        )
        if starting_chips > 0:
            await self._grant_tx(db, guild_id, account, starting_chips, "starting chips", None)
        return True

    async def _grant_tx(
        self,
        db: aiosqlite.Connection,
        guild_id: int,
        account: str,
        amount: int,
        reason: str,
        by_user_id: int | None,
        *,
        ts: str | None = None,
    ) -> None:
        await db.execute(
            "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason, by_user_id) "
            "VALUES (?, ?, 'grant', NULL, ?, ?, ?, ?)",
            (ts or self._now(), guild_id, account, amount, reason, by_user_id),
        )
        await db.execute(
            "UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, account)
        )

    async def _balance_tx(self, db: aiosqlite.Connection, account: str) -> int:
        row = await self._one(db, "SELECT balance FROM accounts WHERE id = ?", (account,))
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------------- transfers
    async def apply_transfers(
        self, transfers: Sequence[TransferLike], table_id: str | None = None
    ) -> None:
        """Apply chip moves atomically. Accounts are ledger ids; with ``table_id`` they
        may also be engine names (seat ids, ``@escrow``, ``@kitty``, ``@house``).

        The batch is checked as a whole: every account except a house must end >= 0,
        otherwise :class:`InsufficientChips` is raised and nothing is written.
        """

        async def work(db: aiosqlite.Connection) -> None:
            guild_id: int | None = None
            if table_id is not None:
                table = await self._table_tx(db, table_id)
                if table is None:
                    raise TableNotFound(table_id)
                guild_id = table.guild_id
            await self._apply_tx(db, transfers, table_id=table_id, guild_id=guild_id)

        await self._transact(work)

    def _to_moves(
        self, transfers: Sequence[TransferLike], guild_id: int | None, table_id: str | None
    ) -> list[Move]:
        moves: list[Move] = []
        for t in transfers:
            src, dst = str(t.src), str(t.dst)
            if guild_id is not None and table_id is not None:
                src = map_engine_account(src, guild_id, table_id)
                dst = map_engine_account(dst, guild_id, table_id)
            else:
                parse_account(src)
                parse_account(dst)
            if src == dst:
                raise ValueError(f"a transfer from {src} to itself")
            if t.amount == 0 and not isinstance(t.amount, bool):
                continue  # a zero move changes nothing; not worth refusing a game action
            amount = _check_amount(t.amount, low=1, high=MAX_TRANSFER)
            moves.append(Move(src, dst, amount, _check_reason(t.reason)))
        return moves

    async def _apply_tx(
        self,
        db: aiosqlite.Connection,
        transfers: Sequence[TransferLike],
        *,
        table_id: str | None,
        guild_id: int | None,
    ) -> None:
        """Inside a write transaction: validate, net and record a batch of moves."""
        moves = self._to_moves(transfers, guild_id, table_id)
        if not moves:
            return
        now = self._now()
        # Resolve every account (creating it at zero if new) with its guild and balance.
        info: dict[str, tuple[str, int, int]] = {}  # account -> (kind, guild, balance)
        for account in dict.fromkeys(a for m in moves for a in (m.src, m.dst)):
            info[account] = await self._account_tx(db, account, now)
        deltas: dict[str, int] = dict.fromkeys(info, 0)
        rows: list[tuple[Any, ...]] = []
        for m in moves:
            src_guild, dst_guild = info[m.src][1], info[m.dst][1]
            if src_guild != dst_guild or (guild_id is not None and src_guild != guild_id):
                raise ValueError(f"transfer {m.src} -> {m.dst} crosses servers")
            deltas[m.src] -= m.amount
            deltas[m.dst] += m.amount
            rows.append((now, src_guild, m.src, m.dst, m.amount, m.reason, table_id))
        for account, delta in deltas.items():
            kind, _, balance = info[account]
            if kind != "house" and balance + delta < 0:
                raise InsufficientChips(account, -delta, balance)
        await db.executemany(
            "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason, table_id) "
            "VALUES (?, ?, 'transfer', ?, ?, ?, ?, ?)",
            rows,
        )
        await db.executemany(
            "UPDATE accounts SET balance = balance + ? WHERE id = ?",
            [(delta, account) for account, delta in deltas.items() if delta],
        )

    async def _account_tx(
        self, db: aiosqlite.Connection, account: str, now: str
    ) -> tuple[str, int, int]:
        """(kind, guild_id, balance) of an account, created at zero when missing.
        Escrow and kitty accounts must belong to an open table."""
        kind, guild, user, table_id = parse_account(account)
        if table_id is not None:
            table = await self._table_tx(db, table_id)
            if table is None:
                raise TableNotFound(table_id)
            if not table.is_open:
                raise TableClosed(table_id)
            guild = table.guild_id
        row = await self._one(
            db, "SELECT kind, guild_id, balance FROM accounts WHERE id = ?", (account,)
        )
        if row is not None:
            return str(row[0]), int(row[1]), int(row[2])
        assert guild is not None
        await db.execute(
            "INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at) "
            "VALUES (?, ?, ?, ?, ?, 0, ?)",
            (account, kind, guild, user, table_id, now),
        )
        return kind, guild, 0

    # ---------------------------------------------------------------------- tables
    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        state_json: str,
        version: int,
        message_id: int | None,
        transfers: Sequence[TransferLike] = (),
        log: str | None = None,
    ) -> None:
        """Write a table's new state, the chip moves that produced it and an action-log
        row in ONE transaction.

        Optimistic concurrency: a new table is stored at ``version``; an existing one only
        when its stored version is ``version - 1`` (else :class:`StaleVersion`). Transfers
        may name engine accounts (seat ids, ``@escrow``...), mapped with
        :func:`map_engine_account`; zero amounts are skipped. ``message_id`` is stored as
        given (None clears it). Raises
        TableClosed, TableAlreadyOpen, InsufficientChips, StorageUnavailable with nothing
        written.
        """
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise ValueError(f"bad version {version!r}")
        map_engine_account("@escrow", guild_id, table_id)  # validates the ids

        async def work(db: aiosqlite.Connection) -> None:
            now = self._now()
            current = await self._table_tx(db, table_id)
            if current is None:
                other = await self._one(
                    db,
                    "SELECT id FROM game_tables WHERE channel_id = ? AND status = 'open'",
                    (channel_id,),
                )
                if other is not None:
                    raise TableAlreadyOpen(channel_id, str(other[0]))
                await db.execute(
                    f"INSERT INTO game_tables ({_TABLE_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, NULL)",
                    (
                        table_id,
                        guild_id,
                        channel_id,
                        game,
                        version,
                        state_json,
                        message_id,
                        now,
                        now,
                    ),
                )
            else:
                if not current.is_open:
                    raise TableClosed(table_id)
                if current.guild_id != guild_id or current.game != game:
                    raise ValueError(f"table {table_id!r} belongs to another server or game")
                if current.version != version - 1:
                    raise StaleVersion(table_id, version - 1, current.version)
                if current.channel_id != channel_id:
                    raise ValueError(f"table {table_id!r} lives in another channel")
                await db.execute(
                    "UPDATE game_tables SET version = ?, state_json = ?, "
                    "message_id = ?, updated_at = ? WHERE id = ?",
                    (version, state_json, message_id, now, table_id),
                )
            await self._apply_tx(db, transfers, table_id=table_id, guild_id=guild_id)
            if log is not None:
                await self._log_tx(db, table_id, version, log, now)

        await self._transact(work)

    async def close_table(
        self, table_id: str, transfers: Sequence[TransferLike] = (), log: str | None = "closed"
    ) -> None:
        """Apply the refund/settlement moves and mark the table closed, in one
        transaction. Refuses (:class:`TableNotEmpty`) if chips would stay in its escrow
        or kitty; :class:`TableClosed` if it is already closed."""

        async def work(db: aiosqlite.Connection) -> None:
            table = await self._table_tx(db, table_id)
            if table is None:
                raise TableNotFound(table_id)
            if not table.is_open:
                raise TableClosed(table_id)
            await self._apply_tx(db, transfers, table_id=table_id, guild_id=table.guild_id)
            for row in await self._all(
                db,
                "SELECT id, balance FROM accounts WHERE table_id = ? AND balance <> 0 ORDER BY id",
                (table_id,),
            ):
                raise TableNotEmpty(table_id, str(row[0]), int(row[1]))
            now = self._now()
            await db.execute(
                "UPDATE game_tables SET status = 'closed', closed_at = ?, updated_at = ? "
                "WHERE id = ?",
                (now, now, table_id),
            )
            if log is not None:
                await self._log_tx(db, table_id, table.version, log, now)

        await self._transact(work)

    async def set_table_message(self, table_id: str, message_id: int | None) -> None:
        """Remember the id of the table's public message (no version change)."""

        async def work(db: aiosqlite.Connection) -> None:
            cur = await db.execute(
                "UPDATE game_tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )
            if cur.rowcount == 0:
                raise TableNotFound(table_id)

        await self._transact(work)

    async def get_table(self, table_id: str) -> TableRecord | None:
        """The table, open or closed; None if it never existed."""
        async with self._read() as db:
            return await self._table_tx(db, table_id)

    async def table_for_channel(self, channel_id: int) -> TableRecord | None:
        """The open table of a channel, if any."""
        async with self._read() as db:
            row = await self._one(
                db,
                f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? AND status = 'open'",
                (channel_id,),
            )
        return None if row is None else _table_record(row)

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table, oldest first (for reloading after a restart)."""
        async with self._read() as db:
            rows = await self._all(
                db,
                f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE status = 'open' "
                "ORDER BY created_at, id",
            )
        return [_table_record(r) for r in rows]

    async def table_log(self, table_id: str, limit: int = 50) -> list[ActionLogEntry]:
        """The table's latest action-log rows, oldest first."""
        limit = max(1, min(int(limit), 1000))
        async with self._read() as db:
            rows = await self._all(
                db,
                "SELECT table_id, version, ts, description FROM table_actions "
                "WHERE table_id = ? ORDER BY id DESC LIMIT ?",
                (table_id, limit),
            )
        return [ActionLogEntry(str(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in reversed(rows)]

    async def _table_tx(self, db: aiosqlite.Connection, table_id: str) -> TableRecord | None:
        row = await self._one(
            db, f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,)
        )
        return None if row is None else _table_record(row)

    async def _log_tx(
        self, db: aiosqlite.Connection, table_id: str, version: int, text: str, now: str
    ) -> None:
        await db.execute(
            "INSERT INTO table_actions (table_id, version, ts, description) VALUES (?, ?, ?, ?)",
            (table_id, version, now, str(text)[:500]),
        )

    # -------------------------------------------------------------- guild settings
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, defaults filled in from ``Store.defaults``."""
        async with self._read() as db:
            return await self._guild_settings_tx(db, guild_id)

    async def set_guild_setting(
        self, guild_id: int, key: str, value: int, by_user_id: int | None = None
    ) -> GuildSettings:
        """Change one server setting (``starting_chips`` or ``daily_chips``, 0..10^9).
        Returns the server's settings after the change."""
        if key not in GUILD_SETTING_KEYS:
            raise InvalidSetting(
                key, f"unknown setting; choose one of {', '.join(GUILD_SETTING_KEYS)}"
            )
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GRANT:
            raise InvalidSetting(key, f"must be a whole number from 0 to {MAX_GRANT:,}")

        async def work(db: aiosqlite.Connection) -> GuildSettings:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at, "
                "updated_by = excluded.updated_by",
                (guild_id, key, value, self._now(), by_user_id),
            )
            return await self._guild_settings_tx(db, guild_id)

        return await self._transact(work)

    async def _guild_settings_tx(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        values = {
            str(r[0]): int(r[1])
            for r in await self._all(
                db, "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        }
        return GuildSettings(
            starting_chips=values.get("starting_chips", self.defaults.starting_chips),
            daily_chips=values.get("daily_chips", self.defaults.daily_chips),
        )

    # ----------------------------------------------------------------------- audit
    async def ledger_snapshot(self) -> LedgerSnapshot:
        """Everything ``bot.audit`` checks, read in one consistent read transaction."""
        return await self._transact(self._snapshot_tx, mode="DEFERRED")

    async def _snapshot_tx(self, db: aiosqlite.Connection) -> LedgerSnapshot:
        accounts = [
            AccountAudit(
                account=str(r[0]),
                kind=str(r[1]),
                guild_id=int(r[2]),
                user_id=None if r[3] is None else int(r[3]),
                table_id=None if r[4] is None else str(r[4]),
                balance=int(r[5]),
                transfers_in=int(r[6]),
                transfers_out=int(r[7]),
                grants_in=int(r[8]),
            )
            for r in await self._all(
                db,
                "SELECT a.id, a.kind, a.guild_id, a.user_id, a.table_id, a.balance, "
                " COALESCE((SELECT SUM(t.amount) FROM transfers t "
                "           WHERE t.dst = a.id AND t.kind = 'transfer'), 0), "
                " COALESCE((SELECT SUM(t.amount) FROM transfers t WHERE t.src = a.id), 0), "
                " COALESCE((SELECT SUM(t.amount) FROM transfers t "
                "           WHERE t.dst = a.id AND t.kind = 'grant'), 0) "
                "FROM accounts a ORDER BY a.id",
            )
        ]
        tables: dict[str, tuple[int, Any]] = {
            str(r[0]): (int(r[1]), "open" if r[2] == "open" else "closed")
            for r in await self._all(db, "SELECT id, guild_id, status FROM game_tables")
        }
        open_states = {
            str(r[0]): (str(r[1]), str(r[2]))
            for r in await self._all(
                db, "SELECT id, game, state_json FROM game_tables WHERE status = 'open'"
            )
        }
        grants = {
            int(r[0]): int(r[1])
            for r in await self._all(
                db,
                "SELECT guild_id, SUM(amount) FROM transfers WHERE kind = 'grant' "
                "GROUP BY guild_id",
            )
        }
        count_row = await self._one(db, "SELECT COUNT(*) FROM transfers")
        anomalies: list[str] = []
        checks = (
            (
                "SELECT t.id FROM transfers t LEFT JOIN accounts d ON d.id = t.dst "
                "LEFT JOIN accounts s ON s.id = t.src "
                "WHERE d.id IS NULL OR (t.src IS NOT NULL AND s.id IS NULL) LIMIT 20",
                "transfer #{} names an account that does not exist",
            ),
            (
                "SELECT t.id FROM transfers t JOIN accounts d ON d.id = t.dst "
                "LEFT JOIN accounts s ON s.id = t.src "
                "WHERE d.guild_id <> t.guild_id OR (s.id IS NOT NULL AND s.guild_id <> t.guild_id) "
                "LIMIT 20",
                "transfer #{} moves chips between servers",
            ),
            (
                "SELECT t.id FROM transfers t JOIN accounts d ON d.id = t.dst "
                "WHERE t.kind = 'grant' AND d.kind <> 'member' LIMIT 20",
                "grant #{} goes to an account that is not a member's",
            ),
            (
                "SELECT t.id FROM transfers t WHERE (t.kind = 'grant') <> (t.src IS NULL) "
                "OR t.amount <= 0 OR typeof(t.amount) <> 'integer' LIMIT 20",
                "transfer #{} is malformed (grant without source, or amount not positive)",
            ),
        )
        for sql, message in checks:
            anomalies.extend(message.format(r[0]) for r in await self._all(db, sql))
        for r in await self._all(db, "PRAGMA foreign_key_check"):
            anomalies.append(f"foreign key broken: {r[0]} row {r[1]} -> {r[2]}")
        quick = await self._all(db, "PRAGMA quick_check")
        if [str(r[0]) for r in quick] != ["ok"]:
            anomalies.extend(f"integrity: {r[0]}" for r in quick[:20])
        return LedgerSnapshot(
            accounts=accounts,
            tables=tables,
            grants_by_guild=grants,
            transfer_count=int(count_row[0]),
            anomalies=anomalies,
            schema_version=max(await applied_versions(db), default=0),
            open_states=open_states,
        )


__all__ = ["Store", "translate_error"]
