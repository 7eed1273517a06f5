"""Persistent state of the bot: the chip ledger, members, tables, server settings.

Everything that touches the database is a :class:`Store` method; nothing else in the
project writes SQL. See ``store.py`` for the design notes.
"""

from __future__ import annotations

from bot.storage.accounts import (
    escrow_account,
    house_account,
    kitty_account,
    map_engine_account,
    member_account,
    parse_account,
)
from bot.storage.errors import (
    ChipsInPlayElsewhere,
    DailyNotReady,
    DatabaseBusy,
    DatabaseCorrupt,
    DatabaseFull,
    DatabaseGone,
    DatabaseReadOnly,
    DatabaseRefused,
    InsufficientChips,
    InvalidAmount,
    InvalidSetting,
    SchemaError,
    StaleVersion,
    StorageError,
    StorageUnavailable,
    TableAlreadyOpen,
    TableClosed,
    TableNotEmpty,
    TableNotFound,
)
from bot.storage.models import (
    MAX_GRANT,
    MAX_TRANSFER,
    AccountAudit,
    ActionLogEntry,
    GuildSettings,
    LeaderboardEntry,
    LedgerSnapshot,
    Move,
    ShownMessage,
    TableRecord,
    TransferLike,
    TransferRecord,
)
from bot.storage.store import Store

__all__ = [
    "MAX_GRANT",
    "MAX_TRANSFER",
    "AccountAudit",
    "ActionLogEntry",
    "ChipsInPlayElsewhere",
    "DailyNotReady",
    "DatabaseBusy",
    "DatabaseCorrupt",
    "DatabaseFull",
    "DatabaseGone",
    "DatabaseReadOnly",
    "DatabaseRefused",
    "GuildSettings",
    "InsufficientChips",
    "InvalidAmount",
    "InvalidSetting",
    "LeaderboardEntry",
    "LedgerSnapshot",
    "Move",
    "SchemaError",
    "ShownMessage",
    "StaleVersion",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "TableAlreadyOpen",
    "TableClosed",
    "TableNotEmpty",
    "TableNotFound",
    "TableRecord",
    "TransferLike",
    "TransferRecord",
    "escrow_account",
    "house_account",
    "kitty_account",
    "map_engine_account",
    "member_account",
    "parse_account",
]
