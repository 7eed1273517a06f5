"""The Store: every database read and write the bot makes, in one class whose parts live
by concern:

=============================  ====================================================
``bot/storage/base.py``        the aiosqlite connection, transactions,
                               error translation, the checks on the database file
``bot/storage/ledger.py``      balances, members, grants, daily chips, chip moves
``bot/storage/tables.py``      table snapshots, closing, chips in play, action log
``bot/storage/guild_settings.py``  per-server settings
``bot/storage/audit_queries.py``   the consistent snapshot ``bot.audit`` checks
``bot/storage/languages.py``   member and server languages (/language)
``bot/storage/history.py``     a member's chips over time (/stats)
``bot/storage/privacy.py``     what is stored about a member, erasing it (/privacy)
``bot/storage/seasons.py``     seasons (/casino reset), breaks (/break), gifts (/give)
=============================  ====================================================

Create with ``await Store.open(path)``. Another backend (e.g. PostgreSQL) implements the
same public methods.
"""

from __future__ import annotations

from bot.storage.audit_queries import AuditQueries
from bot.storage.base import file_identity, refuse_read_only, translate_error
from bot.storage.guild_settings import GuildSettingsStore
from bot.storage.history import HistoryQueries
from bot.storage.languages import HintStore, LanguageStore
from bot.storage.ledger import LedgerStore
from bot.storage.privacy import PrivacyStore
from bot.storage.seasons import SeasonStore
from bot.storage.tables import TableStore, share


class Store(
    LedgerStore,
    TableStore,
    GuildSettingsStore,
    AuditQueries,
    LanguageStore,
    HintStore,
    HistoryQueries,
    PrivacyStore,
    SeasonStore,
):
    """All persistent state of the bot. Create with ``await Store.open(path)``."""


__all__ = ["Store", "file_identity", "refuse_read_only", "share", "translate_error"]
