"""Ledger audit: prove that the chips add up.

Checks, over one consistent snapshot of the database:

* every account's stored balance equals what its ledger rows say
  (grants in + transfers in - transfers out);
* for every server, the sum of all its balances (members, escrows, kitties, house)
  equals the sum of its grants: chips enter only by grants and never leak;
* no account except a house is negative; an erased member's anonymous account holds
  nothing (its rows still count in every other account's balance);
* every escrow and kitty account belongs to an existing table of the same server, and
  holds chips only while that table is open;
* every open table's escrow and kitty hold exactly what the table's saved game state says;
* the "chips in play at one table per server" rows match the saved tables (every seated
  member or bettor has one, no row points at a closed table or a member not there);
* who owns what: each seat's stake in the saved game is held against that member's own
  escrow entries in the ledger (since the escrow last stood empty), and each seat's chips
  in the saved game against the member's ledger balance (a payout sent to the wrong
  member, or a stake booked to someone else, fails even when every total adds up);
* ledger rows are well formed (no cross-server moves, grants only to members, no dangling
  account ids) and SQLite's own integrity and foreign-key checks pass.

``python -m bot audit [--db PATH]`` prints the report and exits 1 on any discrepancy
(2 when the database cannot be read).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.games import by_name
from bot.host import Holdings
from bot.storage import (
    PERSONAL_SCOPE,
    LedgerSnapshot,
    StorageError,
    Store,
    escrow_account,
    kitty_account,
    member_account,
    parse_account,
)
from bot.storage.backup import backup_database


def economy_name(guild_id: int) -> str:
    """An economy as the report names it: a server by its id, or the members' own chips
    outside servers (``PERSONAL_SCOPE``), which add up on their own like a server's."""
    if guild_id == PERSONAL_SCOPE:
        return "personal chips (outside servers)"
    return f"server {guild_id}"


@dataclass(slots=True)
class GuildTotals:
    guild_id: int
    members: int = 0
    member_chips: int = 0
    escrow: int = 0
    kitty: int = 0
    house: int = 0
    granted: int = 0
    anonymised: int = 0  # erased members' anonymous accounts (they hold no chips)

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
    # computer players seated at open tables (Pontoon): they play with the house's chips
    computer_players: int = 0

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
                f"  {economy_name(g.guild_id)}: {g.members} member{'' if g.members == 1 else 's'} "
                f"hold{'s' if g.members == 1 else ''} {g.member_chips:,}; "
                f"escrow {g.escrow:,}; kitty {g.kitty:,}; house {g.house:,}; "
                f"total {g.total:,} vs granted {g.granted:,}"
            )
        lines.append(
            f"  all servers: {self.total_chips:,} chips in accounts, {self.total_granted:,} granted"
        )
        if self.computer_players:
            lines.append(
                f"  {self.computer_players} computer player(s) seated: they play with the "
                "house's chips (their stakes come from the house account and their winnings "
                "go back to it, never to or from a member)"
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
        elif a.kind == "anon":
            t.anonymised += 1
            if a.balance:
                problems.append(
                    f"{a.account}: an erased member's anonymous account holds {a.balance:,} chips"
                )
        else:
            problems.append(f"{a.account}: unknown account kind {a.kind!r}")

    for guild_id, granted in snapshot.grants_by_guild.items():
        totals(guild_id).granted = granted
    for g in report.guilds.values():
        if g.total != g.granted:
            problems.append(
                f"{economy_name(g.guild_id)}: accounts hold {g.total:,} chips but {g.granted:,} were "
                f"granted (off by {g.total - g.granted:+,})"
            )
    problems.extend(snapshot.anomalies)
    balances = {a.account: a.balance for a in snapshot.accounts}
    guild_of = {table_id: guild for table_id, (guild, _) in snapshot.tables.items()}
    for table_id, (game, state_json) in snapshot.open_states.items():
        try:
            saved = saved_table(game, state_json)
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(f"table {table_id}: saved state unreadable ({exc})")
            continue
        if saved is None:
            continue
        report.computer_players += saved.computers
        problems.extend(
            ownership_problems(
                table_id,
                guild_of.get(table_id, 0),
                saved,
                snapshot.escrow_nets.get(table_id, {}),
                balances,
            )
        )
        present = set(saved.in_play)
        recorded = snapshot.in_play.get(table_id, set())
        for user in sorted(present - recorded):
            problems.append(
                f"table {table_id}: member {user} has chips in play there but no "
                "chips_in_play row (the one-table rule cannot hold for them)"
            )
        for user in sorted(recorded - present):
            problems.append(
                f"table {table_id}: a chips_in_play row for member {user}, who has "
                "nothing in play there"
            )
        for account, want in (
            (escrow_account(table_id), saved.escrow),
            (kitty_account(table_id), saved.kitty),
        ):
            have = balances.get(account, 0)
            if have != want:
                problems.append(
                    f"{account}: holds {have:,} chips but its table's state says {want:,}"
                )
    for table_id in sorted(set(snapshot.in_play) - set(snapshot.open_states)):
        problems.append(
            f"chips_in_play rows for table {table_id}, which is not open: "
            f"members {sorted(snapshot.in_play[table_id])} are locked out of other tables"
        )
    return report


def saved_table(game: str, state_json: str) -> Holdings | None:
    """Read a saved table; None for a state that is not a table service's snapshot
    ({"engine": ..., "meta": ...}). The game's registry entry reads its engine state
    (:mod:`bot.games`); an unknown game is a ValueError."""
    entry = by_name(game)
    try:
        data = json.loads(state_json)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or "engine" not in data:
        return None
    return entry.holdings(data["engine"])


def ownership_problems(
    table_id: str,
    guild_id: int,
    owners: Holdings,
    escrow_nets: dict[str, int],
    balances: dict[str, int],
) -> list[str]:
    """Each seat's stake against the member's escrow entries, each seat's chips against
    the member's balance. ``escrow_nets``: account -> net chips into the table's escrow
    since it last stood at zero."""
    found: list[str] = []
    escrow = escrow_account(table_id)
    members = {s: member_account(guild_id, int(s)) for s in {*owners.stakes, *owners.chips}}
    for seat, stake in sorted(owners.stakes.items()):
        paid_in = escrow_nets.get(members[seat], 0)
        # A seat's chips may have left the escrow for another member (a bust paid to a
        # player banker), so its entries may exceed its stake; never the other way
        # round. An ``exact`` game's escrow pays back only to whoever staked: equal.
        if paid_in < stake or (owners.exact and paid_in != stake):
            found.append(
                f"table {table_id}: seat {seat} has {stake:,} chips staked in the saved "
                f"game but the ledger's {escrow} entries from {members[seat]} come to "
                f"{paid_in:,}"
            )
    if owners.exact:
        for account, paid_in in sorted(escrow_nets.items()):
            kind, _, user, _ = parse_account(account)
            if kind == "member" and paid_in > 0 and str(user) not in owners.stakes:
                found.append(
                    f"table {table_id}: the ledger's {escrow} holds {paid_in:,} chips from "
                    f"{account}, who has no stake at the table"
                )
    for seat, chips in sorted(owners.chips.items()):
        have = balances.get(members[seat], 0)
        if chips > have:
            found.append(
                f"table {table_id}: seat {seat} has {chips:,} chips in the saved game but "
                f"the ledger gives {members[seat]} only {have:,}"
            )
    return found


async def audit(store: Store) -> AuditReport:
    """Audit the store's ledger; ``report.ok`` is True when everything adds up."""
    return check(await store.ledger_snapshot())


async def audit_backup(backup: Path) -> tuple[bool, str]:
    """Audit a backup file without touching it: on a scratch copy brought up to the
    current schema. Returns (ok, the audit's report)."""
    if not backup.is_file() or backup.stat().st_size == 0:
        return False, f"{backup} is missing or empty"
    with tempfile.TemporaryDirectory(prefix="pontoon-restore-") as scratch:
        copy = Path(scratch) / "audit.sqlite3"
        try:
            backup_database(backup, copy)
            store = await Store.open(copy)
        except (StorageError, sqlite3.Error) as exc:
            return False, f"{backup} cannot be opened as a bot database: {exc}"
        try:
            report = await audit(store)
        except StorageError as exc:
            return False, f"{backup} cannot be read as a bot database: {exc}"
        finally:
            await store.close()
        return report.ok, report.summary()


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
        from bot.settings import load_settings

        settings = load_settings()
        if isinstance(settings, str):
            print(f"error: {settings}", file=sys.stderr)
            return 2
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
