"""Domain errors of the storage layer.

Every error carries a message id (``key``) and its placeholder values (``params``):
what the member reads, in their language (``bot.errors.friendly``). ``user_message`` is
the same sentence in English, for logs and the command line. When one of these is raised,
nothing was written: the transaction that would have made the change was rolled back, so
the ledger and the tables are as they were.
"""

from __future__ import annotations

from datetime import datetime

from bot.i18n import Msg, Raw


class StorageError(Exception):
    """Base class of every error the storage raises on purpose."""

    #: the catalog message a member reads (a class's own, or given to the constructor)
    key: str = "err.storage.refused"
    params: dict[str, object]
    # What kind of refusal this is, for the log ("busy", "disk full", a rule...).
    cause: str = "refused"
    # True when the process must stop writing for good (the file vanished...).
    fatal: bool = False

    def __init__(
        self,
        message: str | None = None,
        *,
        key: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        if key is not None:
            self.key = key
        self.params = dict(params or {})
        super().__init__(message or self.user_message)

    @property
    def msg(self) -> Msg:
        """What the member reads, not yet in a language."""
        return Msg(self.key, **self.params)

    @property
    def user_message(self) -> str:
        """The member's sentence in English (logs, the command line)."""
        return self.msg.render("en")


class StorageUnavailable(StorageError):
    """The database is locked by someone else for too long, full, read-only or broken
    (the subclasses say which).

    The action was refused and nothing changed; trying again later may work.
    """

    cause = "unavailable"

    key = "err.storage.unavailable"


class DatabaseBusy(StorageUnavailable):
    """Another connection held the database's write lock for longer than the busy timeout."""

    cause = "busy"
    key = "err.storage.busy"


class DatabaseReadOnly(StorageUnavailable):
    """The database file (or its directory) cannot be written."""

    cause = "read-only"
    key = "err.storage.read_only"


class DatabaseFull(StorageUnavailable):
    """The disk (or the database's size limit) is full."""

    cause = "disk full"
    key = "err.storage.full"


class DatabaseCorrupt(StorageUnavailable):
    """The database file is damaged or is not an SQLite database."""

    cause = "corrupt"
    key = "err.storage.corrupt"


class DatabaseGone(StorageUnavailable):
    """The database file was deleted or replaced while the bot was running: every write
    from now on would go to a file nobody will see again, so the bot stops writing."""

    cause = "file vanished or replaced"
    fatal = True
    key = "err.storage.gone"


class DatabaseMadeReadOnly(DatabaseReadOnly):
    """The database file or its folder was made read-only while the bot was running:
    the bot writes nothing more (root could still write it) and stops."""

    fatal = True


class DatabaseRefused(StorageError):
    """At start: a database file the bot will not use as it is (missing or empty where
    the bot has run before, read-only...). The message says what to do."""

    cause = "refused at start"


class SchemaError(StorageError):
    """The database's schema is not one this code can use (e.g. written by a newer bot)."""

    key = "err.storage.schema"


class InsufficientChips(StorageError):
    """An account (not the house) would go below zero."""

    def __init__(self, account: str, needed: int, has: int) -> None:
        self.account = account
        self.needed = needed
        self.has = has
        super().__init__(
            f"{account} needs {needed} chips but has {has}",
            key="err.storage.insufficient",
            params={"who": _describe(account), "needed": needed, "has": has},
        )

    @property
    def user_id(self) -> int | None:
        """The Discord user id when the short account is a member's, else None."""
        parts = self.account.split(":")
        if len(parts) == 3 and parts[0] == "member" and parts[2].isdigit():
            return int(parts[2])
        return None


class InvalidAmount(StorageError):
    """A chip amount out of range (zero, negative, not an integer, absurdly large).
    ``why`` says which, as a catalog message (``err.storage.amount.*``)."""

    def __init__(self, amount: object, why: Msg) -> None:
        self.amount = amount
        super().__init__(
            f"invalid amount {amount!r}: {why}", key="err.storage.amount", params={"why": why}
        )


class InvalidSetting(StorageError):
    """A server setting that does not exist or a value out of range. ``why`` says which,
    as a catalog message (``err.storage.setting.*``)."""

    def __init__(self, key: str, why: Msg) -> None:
        self.setting = key
        super().__init__(
            f"invalid setting {key}: {why}",
            key="err.storage.setting",
            params={"key": Raw(key), "why": why},
        )


class SettingChangedMeanwhile(StorageError):
    """Compare-and-set: the setting is no longer at the value the owner saw (another
    owner changed it meanwhile). ``current`` is its value now; nothing was changed."""

    def __init__(self, key: str, current: int) -> None:
        self.setting = key
        self.current = current
        super().__init__(
            f"setting {key} changed meanwhile; it is now {current}",
            key="err.storage.setting.meanwhile",
        )


class NotOldEnough(StorageError):
    """A server's age gate: the member's account or membership is younger than the
    server asks for starting chips or /daily. ``qualifies_at``: when it no longer is."""

    def __init__(self, qualifies_at: datetime) -> None:
        self.qualifies_at = qualifies_at
        super().__init__(
            f"too new for chips here until {qualifies_at.isoformat()}",
            key="err.storage.too_new",
            params={"stamp": Raw(str(int(qualifies_at.timestamp())))},
        )


class DailyOff(StorageError):
    """The server gives no daily chips (its daily amount is 0)."""

    def __init__(self, detail: str = "this server gives no daily chips") -> None:
        super().__init__(detail, key="err.storage.daily_off")


class DailyNotReady(StorageError):
    """The daily chips were already claimed within the cooldown."""

    def __init__(self, next_at: datetime) -> None:
        self.next_at = next_at
        # Discord renders <t:...:R> as a relative time in the reader's locale.
        super().__init__(
            f"daily chips available again at {next_at.isoformat()}",
            key="err.storage.daily",
            params={"stamp": Raw(str(int(next_at.timestamp())))},
        )


class TableNotFound(StorageError):
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(f"no table {table_id!r}", key="err.storage.table_gone")


class TableClosed(StorageError):
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(f"table {table_id!r} is closed", key="err.storage.table_closed")


class TableAlreadyOpen(StorageError):
    """Another table is already open in this channel (one open table per channel)."""

    def __init__(self, channel_id: int, table_id: str) -> None:
        self.channel_id = channel_id
        self.table_id = table_id
        super().__init__(
            f"channel {channel_id} already has open table {table_id!r}", key="err.table_exists"
        )


class StaleVersion(StorageError):
    """Optimistic concurrency: the stored table is not at the version the write expected."""

    def __init__(self, table_id: str, expected: int, found: int) -> None:
        self.table_id = table_id
        self.expected = expected
        self.found = found
        super().__init__(
            f"table {table_id!r}: expected stored version {expected}, found {found}",
            key="err.storage.stale",
        )


class ChipsInPlayElsewhere(StorageError):
    """The member already has chips in play at another open table of the server (seated
    at a Pontoon table, or bets on a Punto Banco coup): one table at a time."""

    def __init__(self, guild_id: int, user_id: int, table_id: str) -> None:
        self.guild_id = guild_id
        self.user_id = user_id
        self.table_id = table_id
        super().__init__(
            f"member {user_id} of server {guild_id} has chips in play at table {table_id!r}",
            key="err.storage.busy_elsewhere",
        )


class TableNotEmpty(StorageError):
    """Closing would leave chips in the table's escrow or kitty."""

    def __init__(self, table_id: str, account: str, balance: int) -> None:
        self.table_id = table_id
        self.account = account
        self.balance = balance
        super().__init__(
            f"table {table_id!r}: {account} still holds {balance} chips",
            key="err.storage.not_empty",
        )


def stamp(moment: datetime) -> Raw:
    """A moment as Discord's timestamp markup takes it (``<t:{stamp}:F>``): epoch seconds,
    shown in the reader's own language and time zone."""
    return Raw(str(int(moment.timestamp())))


class MemberOnBreak(StorageError):
    """The member is on a break they took (/break) until ``ends_at``: no bets, no new
    seats, no daily chips, no gifts until then."""

    def __init__(self, ends_at: datetime) -> None:
        self.ends_at = ends_at
        super().__init__(
            f"on a break until {ends_at.isoformat()}",
            key="err.break.on",
            params={"stamp": stamp(ends_at)},
        )


class BreakAlreadyLonger(StorageError):
    """A break asked for ends before the one already running (which cannot be shortened)."""

    def __init__(self, ends_at: datetime) -> None:
        self.ends_at = ends_at
        super().__init__(
            f"already on a break until {ends_at.isoformat()}",
            key="err.break.already",
            params={"stamp": stamp(ends_at)},
        )


class TablesStillOpen(StorageError):
    """A season cannot be reset while the server has open tables (their stakes must be
    returned first); ``tables``: how many are open."""

    def __init__(self, tables: int) -> None:
        self.tables = tables
        super().__init__(f"{tables} tables still open", key="err.season.tables_open")


class UnknownSeason(StorageError):
    """A past season that the server never had (``current``: the season running now)."""

    def __init__(self, season: int, current: int) -> None:
        self.season = season
        self.current = current
        super().__init__(
            f"no season {season} (the current one is {current})",
            key="err.season.unknown",
            params={"season": season, "current": current},
        )


class SeasonAlreadyReset(StorageError):
    """A reset confirmed for a season that has already been closed (two owners, or a
    second click): nothing is reset twice; ``current``: the season running now."""

    def __init__(self, current: int) -> None:
        self.current = current
        super().__init__(
            f"the season was already reset (season {current} is running)",
            key="err.season.already_reset",
            params={"current": current},
        )


class GiftsOff(StorageError):
    """/give is switched off in this server (the default)."""

    def __init__(self) -> None:
        super().__init__("giving chips is off in this server", key="err.give.off")


class GiftCapReached(StorageError):
    """A gift over the server's per-day cap for one giver; ``left``: what they may still
    give today; ``next_at``: when the day turns (UTC midnight)."""

    def __init__(self, cap: int, left: int, next_at: datetime) -> None:
        self.cap = cap
        self.left = left
        self.next_at = next_at
        super().__init__(
            f"over the daily gift cap {cap} ({left} left)",
            key="err.give.cap",
            params={"amount": cap, "left": left, "stamp": stamp(next_at)},
        )


def _describe(account: str) -> object:
    """An account as a member reads it: a member's mention, the escrow, the kitty or the
    house (never the internal account id)."""
    parts = account.split(":")
    if parts[0] == "member" and len(parts) == 3:
        return Raw(f"<@{parts[2]}>")
    if parts[0] == "escrow":
        return Msg("err.storage.escrow")
    if parts[0] == "kitty":
        return Msg("err.storage.kitty")
    return Msg("err.storage.house")
