"""The reads behind ``bot.audit``: everything it checks, in one consistent snapshot."""

from __future__ import annotations

import functools
import sqlite3

from bot.storage.accounts import escrow_account
from bot.storage.base import Con, StoreBase, one, rows
from bot.storage.errors import DatabaseCorrupt
from bot.storage.migrations import applied_versions, load_migrations, migrate
from bot.storage.models import AccountAudit, LedgerSnapshot, TableStatus
from bot.storage.tables import window_nets_tx

# Ledger rows that break an invariant the schema cannot express.
_ANOMALY_CHECKS = (
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
        # an erased member's grants are kept under their anonymous account
        "WHERE t.kind = 'grant' AND d.kind NOT IN ('member', 'anon') LIMIT 20",
        "grant #{} goes to an account that is not a member's",
    ),
    (
        "SELECT t.id FROM transfers t WHERE (t.kind = 'grant') <> (t.src IS NULL) "
        "OR t.amount <= 0 OR typeof(t.amount) <> 'integer' LIMIT 20",
        "transfer #{} is malformed (grant without source, or amount not positive)",
    ),
    # Who owns a member account: exactly the member its members row names (a tampered
    # row handing one member's account to another). An account without a members row is
    # legitimate: chips may reach a member before the bot first sees them.
    (
        "SELECT a.id FROM accounts a JOIN members m ON m.account_id = a.id "
        "WHERE a.kind = 'member' AND (m.guild_id <> a.guild_id OR m.user_id <> a.user_id) "
        "LIMIT 20",
        "account {} belongs to another member than its members row names",
    ),
    (
        "SELECT m.account_id FROM members m LEFT JOIN accounts a ON a.id = m.account_id "
        "WHERE a.id IS NULL OR a.kind <> 'member' LIMIT 20",
        "members row of account {} names no member account",
    ),
)


_SCHEMA_OBJECTS = (
    "SELECT type, name FROM sqlite_master "
    "WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'index', 'trigger', 'view')"
)


@functools.cache
def expected_schema() -> frozenset[tuple[str, str]]:
    """Every table, index and trigger the migrations create (on a scratch database)."""
    scratch = sqlite3.connect(":memory:")
    try:
        migrate(scratch, load_migrations())
        return frozenset((str(t), str(n)) for t, n in scratch.execute(_SCHEMA_OBJECTS))
    finally:
        scratch.close()


def check_schema_tx(con: Con) -> None:
    """Raise :class:`DatabaseCorrupt` naming what is missing when a SQLite database lacks
    a table, index or trigger its schema version promises (a tampered backup: a dropped
    append-only trigger lets the ledger be rewritten; a dropped table breaks every
    read). PostgreSQL's schema is checked by its own migrations."""
    if not isinstance(con, sqlite3.Connection):
        return
    have = {(str(t), str(n)) for t, n in con.execute(_SCHEMA_OBJECTS)}
    missing = sorted(expected_schema() - have)
    if missing:
        raise DatabaseCorrupt(
            "database corrupt (schema damaged): missing "
            + ", ".join(f"{kind} {name}" for kind, name in missing)
        )


def snapshot_tx(con: Con) -> LedgerSnapshot:
    check_schema_tx(con)
    accounts = [
        AccountAudit(
            account=str(r["id"]),
            kind=str(r["kind"]),
            guild_id=int(r["guild_id"]),
            user_id=None if r["user_id"] is None else int(r["user_id"]),
            table_id=None if r["table_id"] is None else str(r["table_id"]),
            balance=int(r["balance"]),
            transfers_in=int(r["transfers_in"]),
            transfers_out=int(r["transfers_out"]),
            grants_in=int(r["grants_in"]),
        )
        for r in rows(
            con,
            "SELECT a.id, a.kind, a.guild_id, a.user_id, a.table_id, a.balance, "
            " COALESCE((SELECT SUM(t.amount) FROM transfers t "
            "           WHERE t.dst = a.id AND t.kind = 'transfer'), 0) AS transfers_in, "
            " COALESCE((SELECT SUM(t.amount) FROM transfers t WHERE t.src = a.id), 0) "
            "   AS transfers_out, "
            " COALESCE((SELECT SUM(t.amount) FROM transfers t "
            "           WHERE t.dst = a.id AND t.kind = 'grant'), 0) AS grants_in "
            "FROM accounts a ORDER BY a.id",
        )
    ]
    tables: dict[str, tuple[int, TableStatus]] = {
        str(r["id"]): (int(r["guild_id"]), "open" if r["status"] == "open" else "closed")
        for r in rows(con, "SELECT id, guild_id, status FROM game_tables")
    }
    open_states = {
        str(r["id"]): (str(r["game"]), str(r["state_json"]))
        for r in rows(con, "SELECT id, game, state_json FROM game_tables WHERE status = 'open'")
    }
    escrow_nets = {
        table_id: window_nets_tx(con, escrow_account(table_id)) for table_id in open_states
    }
    in_play: dict[str, set[int]] = {}
    for r in rows(con, "SELECT table_id, user_id FROM chips_in_play"):
        in_play.setdefault(str(r["table_id"]), set()).add(int(r["user_id"]))
    grants = {
        int(r["guild_id"]): int(r["granted"])
        for r in rows(
            con,
            "SELECT guild_id, SUM(amount) AS granted FROM transfers WHERE kind = 'grant' "
            "GROUP BY guild_id",
        )
    }
    count = one(con, "SELECT COUNT(*) AS n FROM transfers")
    anomalies: list[str] = []
    for sql, message in _ANOMALY_CHECKS:
        anomalies.extend(message.format(r[0]) for r in rows(con, sql))
    for r in rows(con, "PRAGMA foreign_key_check"):
        anomalies.append(f"foreign key broken: {r[0]} row {r[1]} -> {r[2]}")
    quick = rows(con, "PRAGMA quick_check")
    if [str(r[0]) for r in quick] != ["ok"]:
        anomalies.extend(f"integrity: {r[0]}" for r in quick[:20])
    return LedgerSnapshot(
        accounts=accounts,
        tables=tables,
        grants_by_guild=grants,
        transfer_count=0 if count is None else int(count["n"]),
        anomalies=anomalies,
        schema_version=max(applied_versions(con), default=0),
        open_states=open_states,
        escrow_nets=escrow_nets,
        in_play=in_play,
    )


class AuditQueries(StoreBase):
    async def ledger_snapshot(self) -> LedgerSnapshot:
        """Everything ``bot.audit`` checks, read in one consistent read transaction."""
        return await self._write(snapshot_tx, mode="DEFERRED")


__all__ = ["AuditQueries", "snapshot_tx"]
