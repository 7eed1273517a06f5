"""Domain errors of the storage layer.

Every error carries a ``user_message``: a sentence fit to show the member (ephemerally)
as it is. When one of these is raised, nothing was written: the transaction that would
have made the change was rolled back, so the ledger and the tables are as they were.
"""

from __future__ import annotations

from datetime import datetime


class StorageError(Exception):
    """Base class of every error the storage raises on purpose."""

    user_message: str = "The chip bank refused that; nothing was changed."
    # What kind of refusal this is, for the log ("busy", "disk full", a rule...).
    cause: str = "refused"
    # True when the process must stop writing for good (the file vanished...).
    fatal: bool = False

    def __init__(self, message: str | None = None, *, user_message: str | None = None) -> None:
        if user_message is not None:
            self.user_message = user_message
        super().__init__(message or self.user_message)


class StorageUnavailable(StorageError):
    """The database is locked by someone else for too long, full, read-only or broken
    (the subclasses say which).

    The action was refused and nothing changed; trying again later may work.
    """

    cause = "unavailable"

    user_message = (
        "The chip bank is busy or unavailable right now, so nothing was changed. "
        "Please try again in a moment."
    )


class DatabaseBusy(StorageUnavailable):
    """Another connection held the database's write lock for longer than the busy timeout."""

    cause = "busy"
    user_message = (
        "The chip bank is busy right now, so nothing was changed. Please try again in a moment."
    )


class DatabaseReadOnly(StorageUnavailable):
    """The database file (or its directory) cannot be written."""

    cause = "read-only"
    user_message = (
        "The chip bank cannot save anything: its database is read-only (a problem on the "
        "bot's server, not yours). Nothing was changed; the bot's operator has been told."
    )


class DatabaseFull(StorageUnavailable):
    """The disk (or the database's size limit) is full."""

    cause = "disk full"
    user_message = (
        "The chip bank cannot save anything: the bot's disk is full. Nothing was changed; "
        "the bot's operator has been told."
    )


class DatabaseCorrupt(StorageUnavailable):
    """The database file is damaged or is not an SQLite database."""

    cause = "corrupt"
    user_message = (
        "The chip bank's database is damaged, so nothing was changed. The bot's operator "
        "has been told (restore it from a backup with `python -m bot restore FILE`)."
    )


class DatabaseGone(StorageUnavailable):
    """The database file was deleted or replaced while the bot was running: every write
    from now on would go to a file nobody will see again, so the bot stops writing."""

    cause = "file vanished or replaced"
    fatal = True
    user_message = (
        "The chip bank's database file disappeared, so nothing was changed and the bot is "
        "stopping. The bot's operator has been told."
    )


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

    user_message = "The chip bank's database is not in a state this bot can use."


class InsufficientChips(StorageError):
    """An account (not the house) would go below zero."""

    def __init__(self, account: str, needed: int, has: int) -> None:
        self.account = account
        self.needed = needed
        self.has = has
        who = _describe(account)
        super().__init__(
            f"{account} needs {needed} chips but has {has}",
            user_message=f"Not enough chips: {who} needs {needed} but has only {has}. "
            "Nothing was changed.",
        )

    @property
    def user_id(self) -> int | None:
        """The Discord user id when the short account is a member's, else None."""
        parts = self.account.split(":")
        if len(parts) == 3 and parts[0] == "member" and parts[2].isdigit():
            return int(parts[2])
        return None


class InvalidAmount(StorageError):
    """A chip amount out of range (zero, negative, not an integer, absurdly large)."""

    def __init__(self, amount: object, why: str) -> None:
        self.amount = amount
        super().__init__(f"invalid amount {amount!r}: {why}", user_message=f"That amount {why}.")


class InvalidSetting(StorageError):
    """A server setting that does not exist or a value out of range."""

    def __init__(self, key: str, why: str) -> None:
        self.key = key
        super().__init__(f"invalid setting {key}: {why}", user_message=f"`{key}`: {why}.")


class DailyNotReady(StorageError):
    """The daily chips were already claimed within the cooldown."""

    def __init__(self, next_at: datetime) -> None:
        self.next_at = next_at
        stamp = int(next_at.timestamp())
        super().__init__(
            f"daily chips available again at {next_at.isoformat()}",
            # Discord renders <t:...:R> as a relative time in the reader's locale.
            user_message=f"You have already claimed your daily chips. Come back <t:{stamp}:R>.",
        )


class TableNotFound(StorageError):
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(
            f"no table {table_id!r}", user_message="That table does not exist any more."
        )


class TableClosed(StorageError):
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        super().__init__(f"table {table_id!r} is closed", user_message="That table is closed.")


class TableAlreadyOpen(StorageError):
    """Another table is already open in this channel (one open table per channel)."""

    def __init__(self, channel_id: int, table_id: str) -> None:
        self.channel_id = channel_id
        self.table_id = table_id
        super().__init__(
            f"channel {channel_id} already has open table {table_id!r}",
            user_message="This channel already has an open table: one table per channel.",
        )


class StaleVersion(StorageError):
    """Optimistic concurrency: the stored table is not at the version the write expected."""

    def __init__(self, table_id: str, expected: int, found: int) -> None:
        self.table_id = table_id
        self.expected = expected
        self.found = found
        super().__init__(
            f"table {table_id!r}: expected stored version {expected}, found {found}",
            user_message="The table changed while you were acting; nothing was changed. "
            "Please look at the table again and retry.",
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
            user_message="You already have chips in play at another table in this server; "
            "finish or leave that table first. Nothing was changed.",
        )


class TableNotEmpty(StorageError):
    """Closing would leave chips in the table's escrow or kitty."""

    def __init__(self, table_id: str, account: str, balance: int) -> None:
        self.table_id = table_id
        self.account = account
        self.balance = balance
        super().__init__(
            f"table {table_id!r}: {account} still holds {balance} chips",
            user_message="The table cannot close while chips are still on it; nothing was changed.",
        )


def _describe(account: str) -> str:
    parts = account.split(":")
    if parts[0] == "member" and len(parts) == 3:
        return f"<@{parts[2]}>"
    if parts[0] == "escrow":
        return "the table's escrow"
    if parts[0] == "kitty":
        return "the kitty"
    if parts[0] == "house":
        return "the house"
    return account
