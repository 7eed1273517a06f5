"""Ledger audit: prove that the chips add up.

Checks, over one consistent snapshot of the database:

* every account's stored balance equals what its ledger rows say
  (grants in + transfers in - transfers out);
* for every server, the sum of all its balances (members, escrows, kitties, house)
  equals the sum of its grants: chips enter only by grants and never leak;
* no account except a house is negative;
* every escrow and kitty account belongs to an existing table of the same server, and
  holds chips only while that table is open;
* every open table's escrow and kitty hold exactly what the table's saved game state says;
* ledger rows are well formed (no cross-server moves, grants only to members, no dangling
  account ids) and SQLite's own integrity and foreign-key checks pass.

``python -m bot audit [--db PATH]`` prints the report and exits 1 on any discrepancy
(2 when the database cannot be read).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage import LedgerSnapshot, StorageError, Store, escrow_account, kitty_account


@dataclass(slots=True)
class GuildTotals:
    guild_id: int
    members: int = 0
    member_chips: int = 0
    escrow: int = 0
    kitty: int = 0
    house: int = 0
    granted: int = 0

    @property
    def total(self) -> int:
        return self.member_chips + self.escrow + self.kitty + self.house


@dataclass(slots=True)
class AuditReport:
    problems: list[str] = field(default_factory=list)
    guilds: dict[int, GuildTotals] = field(default_factory=dict)
    accounts: int = 0
    transfers: int = 0
    open_tables: int = 0
    closed_tables: int = 0
    schema_version: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def total_chips(self) -> int:
        return sum(g.total for g in self.guilds.values())

    @property
    def total_granted(self) -> int:
        return sum(g.granted for g in self.guilds.values())

    def summary(self) -> str:
        """A short human report: verdict, totals per server, then every problem."""
        verdict = "OK" if self.ok else f"{len(self.problems)} PROBLEM(S)"
        lines = [
            f"Ledger audit: {verdict} (schema v{self.schema_version}, {self.accounts} accounts, "
            f"{self.transfers} ledger rows, {self.open_tables} open / "
            f"{self.closed_tables} closed tables)"
        ]
        for g in sorted(self.guilds.values(), key=lambda t: t.guild_id):
            lines.append(
                f"  server {g.guild_id}: {g.members} members hold {g.member_chips:,}; "
                f"escrow {g.escrow:,}; kitty {g.kitty:,}; house {g.house:,}; "
                f"total {g.total:,} vs granted {g.granted:,}"
            )
        lines.append(
            f"  all servers: {self.total_chips:,} chips in accounts, {self.total_granted:,} granted"
        )
        shown = self.problems[:50]
        lines.extend(f"  - {p}" for p in shown)
        if len(self.problems) > len(shown):
            lines.append(f"  ... and {len(self.problems) - len(shown)} more")
        return "\n".join(lines)


def check(snapshot: LedgerSnapshot) -> AuditReport:
    """The audit of one ledger snapshot (pure; see :func:`audit`)."""
    report = AuditReport(
        accounts=len(snapshot.accounts),
        transfers=snapshot.transfer_count,
        open_tables=sum(1 for _, status in snapshot.tables.values() if status == "open"),
        closed_tables=sum(1 for _, status in snapshot.tables.values() if status == "closed"),
        schema_version=snapshot.schema_version,
    )
    problems = report.problems

    def totals(guild_id: int) -> GuildTotals:
        return report.guilds.setdefault(guild_id, GuildTotals(guild_id))

    for a in snapshot.accounts:
        expected = a.grants_in + a.transfers_in - a.transfers_out
        if a.balance != expected:
            problems.append(
                f"{a.account}: stored balance {a.balance:,} but the ledger says {expected:,} "
                f"(off by {a.balance - expected:+,})"
            )
        if a.kind != "house" and a.balance < 0:
            problems.append(f"{a.account}: negative balance {a.balance:,}")
        if a.kind in ("escrow", "kitty"):
            table = snapshot.tables.get(a.table_id or "")
            if table is None:
                if a.balance:
                    problems.append(
                        f"{a.account}: holds {a.balance:,} chips but table {a.table_id} "
                        "does not exist"
                    )
            else:
                table_guild, status = table
                if table_guild != a.guild_id:
                    problems.append(
                        f"{a.account}: in server {a.guild_id} but its table is in server "
                        f"{table_guild}"
                    )
                if status != "open" and a.balance:
                    problems.append(
                        f"{a.account}: holds {a.balance:,} chips but table {a.table_id} is closed"
                    )
        t = totals(a.guild_id)
        if a.kind == "member":
            t.members += 1
            t.member_chips += a.balance
        elif a.kind == "escrow":
            t.escrow += a.balance
        elif a.kind == "kitty":
            t.kitty += a.balance
        elif a.kind == "house":
            t.house += a.balance
        else:
            problems.append(f"{a.account}: unknown account kind {a.kind!r}")

    for guild_id, granted in snapshot.grants_by_guild.items():
        totals(guild_id).granted = granted
    for g in report.guilds.values():
        if g.total != g.granted:
            problems.append(
                f"server {g.guild_id}: accounts hold {g.total:,} chips but {g.granted:,} were "
                f"granted (off by {g.total - g.granted:+,})"
            )
    problems.extend(snapshot.anomalies)
    balances = {a.account: a.balance for a in snapshot.accounts}
    for table_id, (game, state_json) in snapshot.open_states.items():
        try:
            held = table_holdings(game, state_json)
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"table {table_id}: saved state unreadable ({exc})")
            continue
        if held is None:
            continue
        for account, want in (
            (escrow_account(table_id), held[0]),
            (kitty_account(table_id), held[1]),
        ):
            have = balances.get(account, 0)
            if have != want:
                problems.append(
                    f"{account}: holds {have:,} chips but its table's state says {want:,}"
                )
    return report


def table_holdings(game: str, state_json: str) -> tuple[int, int] | None:
    """(escrow, kitty) that an open table's saved state says it holds; None for a state
    that is not a table service's snapshot ({"engine": ..., "meta": ...})."""
    try:
        data = json.loads(state_json)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or "engine" not in data:
        return None
    engine_state = data["engine"]
    if game == "pontoon":
        from engine.pontoon import Table

        table = Table.from_json(engine_state)
        return table.escrow, table.kitty
    if game == "baccarat":
        from engine.punto_banco import PuntoBancoTable

        return PuntoBancoTable.from_json(engine_state).escrow, 0
    raise ValueError(f"unknown game {game!r}")


async def audit(store: Store) -> AuditReport:
    """Audit the store's ledger; ``report.ok`` is True when everything adds up."""
    return check(await store.ledger_snapshot())


async def _run(db: Path | str) -> tuple[int, str]:
    """Audit the SQLite file ``db`` or the PostgreSQL database at URL ``db``: (exit code,
    text)."""
    if isinstance(db, str):
        from bot.storage.pg import PgStore, redact

        where = redact(db)
        opening: Awaitable[Store] = PgStore.connect(db, migrate_schema=False)
    else:
        if not db.is_file():
            return 2, f"No database at {db}."
        where = str(db)
        opening = Store.open(db, migrate_schema=False, busy_timeout_ms=10_000)
    try:
        store = await opening
    except StorageError as exc:
        return 2, f"Cannot open {where}: {exc}"
    try:
        report = await audit(store)
    except StorageError as exc:
        return 2, f"Cannot read {where}: {exc}"
    finally:
        await store.close()
    return (0 if report.ok else 1), f"{where}\n{report.summary()}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot audit [--db PATH]``: print the audit, exit 1 on any discrepancy."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["audit"]:
        args = args[1:]
    parser = argparse.ArgumentParser(
        prog="python -m bot audit",
        description="Check that every chip in the ledger adds up.",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="the SQLite database file, or a postgresql:// URL (default: DATABASE_URL, "
        "else DATABASE_PATH from the settings)",
    )
    ns = parser.parse_args(args)
    db: str | None = ns.db
    if db is None:
        from bot.settings import Settings

        settings = Settings()
        url = settings.postgres_url()
        code, text = asyncio.run(_run(url if url is not None else settings.database_path))
    elif db.startswith(("postgresql:", "postgres:")):
        code, text = asyncio.run(_run(db))
    else:
        code, text = asyncio.run(_run(Path(db)))
    print(text, file=sys.stderr if code == 2 else sys.stdout)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
