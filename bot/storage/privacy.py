"""What the bot stores about a member, and erasing it (/privacy delete, /chips forget).

A member's data: their ``members`` row (first sight, last /daily) and ``member:{g}:{u}``
account in each server, the ledger rows of that account, their language
(``member_languages``), the one-time hints they were shown (``member_hints``), how
each of their settled rounds ended (``round_results``, for /stats), and their seat or
bets in table snapshots (``game_tables.state_json``).

Forgetting a member of a server (refused, nothing changed, while they have chips in
play there), in one transaction:

* their chips go to the server's house account by one recorded ledger transfer
  (reason ``member data erased``), so every balance and the audit still add up;
* their ledger rows are anonymised: the ``member:{g}:{u}`` account id in them is
  replaced by ``anon:{token}``, a random token drawn fresh for this erasure and server
  (not derived from the user id), whose accounts row has no user id and no chips
  (migration 009 lets exactly this rewrite through the ledger's append-only guard).
  Other members' rows with them keep every amount, so every balance and the audit still
  add up;
* their ``members`` row and ``member:{g}:{u}`` account are deleted; where they granted
  chips as an admin, the grant's ``by_user_id`` is cleared; where they last changed a
  server setting or language, ``updated_by`` is cleared;
* the server's table snapshots and table logs name them by the same token instead
  (seat ids, names, mentions; a numeric id such as a table's opener becomes 0);
* an ``erasures`` row records that it happened: when, how many accounts and ledger
  rows, how many chips went to the house, and no id;
* how their settled rounds ended (``round_results``, for /stats) is deleted.

A member's own chips outside servers (``member:0:{u}``, :data:`PERSONAL_SCOPE`) are
one more such economy: /privacy delete erases them like a server's (their chips go to
``house:0``); they are counted apart from the servers (``personal_chips``, ``personal``).

If they come back they start afresh (a new members row and the server's starting
chips). Forgetting everywhere (/privacy delete) does that in every server and deletes
their language choice and hints too; so does /chips forget in the last server where
they had an account.

The erasing process then scrubs its own open tables and language cache (cogs/privacy.py).
Other processes on the same database learn of it through :meth:`PrivacyStore.on_erasure`:
on PostgreSQL the erasure's transaction sends a notification (``_signal_erasure_tx``,
delivered by PostgreSQL only if it commits) that every bot process listens for
(bot/storage/pg/listen.py); on SQLite, one process per database, there is nobody else
to tell and both do nothing.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.storage.accounts import PERSONAL_SCOPE, anon_account, house_account, member_account
from bot.storage.base import Con, StoreBase, one, rows
from bot.storage.history import FORGET_REASON
from bot.storage.languages import HintStore
from bot.storage.ledger import apply_tx, balance_tx
from bot.storage.models import Move


@dataclass(frozen=True)
class MemberData:
    """What the store holds about one member (counts, for /privacy)."""

    servers: int = 0  # servers where they have chips (their own chips not counted)
    chips: int = 0  # every chip of theirs, their own chips outside servers included
    ledger_rows: int = 0
    language: str | None = None
    hints: int = 0
    personal_chips: int | None = None  # their own chips outside servers (None: none)


@dataclass(frozen=True)
class ForgetResult:
    """The outcome of a deletion: ``in_play`` (guild id, table id) when refused."""

    in_play: tuple[int, str] | None = None
    servers: int = 0  # servers where their data was erased (their own chips not counted)
    chips_to_house: int = 0
    guilds: list[int] = field(default_factory=list)
    ledger_rows: int = 0  # ledger rows anonymised
    settings_erased: bool = False  # their language choice and hints went too
    personal: bool = False  # their own chips outside servers were erased too

    @property
    def refused(self) -> bool:
        return self.in_play is not None


@dataclass(frozen=True)
class Erasure:
    """One committed erasure, as told to the other bot processes: whose (``user_id``),
    where (``guild_id``, None: everywhere) and whether their language choice went too."""

    user_id: int
    guild_id: int | None = None
    language: bool = True


#: what :meth:`PrivacyStore.on_erasure` calls, on the bot's event loop
ErasureCallback = Callable[[Erasure], Awaitable[None]]


def new_token() -> str:
    """A fresh random token for one erasure in one server (128 bits, hex)."""
    return secrets.token_hex(16)


class _Scrubber:
    """Replaces one member's id in saved JSON and log text by their anonymous token."""

    def __init__(self, user_id: int, token: str) -> None:
        self.user = str(user_id)
        self.user_id = user_id
        self.token = token
        self.pattern = re.compile(rf"(?<!\d){self.user}(?!\d)")

    def text(self, value: str) -> str:
        return self.pattern.sub(self.token, value)

    def value(self, value: Any) -> Any:
        if isinstance(value, dict):
            out: dict[str, Any] = {}
            for key, item in value.items():
                if key == self.user and isinstance(item, str):
                    out[self.token] = self.token  # e.g. their display name by id
                else:
                    out[self.text(str(key))] = self.value(item)
            return out
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value == self.user_id:
            return 0
        if isinstance(value, str):
            return self.text(value)
        return value

    def state(self, state_json: str) -> str:
        try:
            data = json.loads(state_json)
        except json.JSONDecodeError:
            return self.text(state_json)
        return json.dumps(self.value(data), separators=(",", ":"))


def scrub_snapshot(state_json: str, user_id: int, token: str) -> str:
    """A table snapshot with the member's id replaced by ``token`` (a numeric id, such as
    the table's opener, by 0); used on the stored snapshots and on the live tables."""
    return _Scrubber(user_id, token).state(state_json)


def _scrub_tables_tx(con: Con, guild_id: int, user_id: int, token: str) -> None:
    """The server's table snapshots and table logs: the member's id becomes ``token``."""
    scrub = _Scrubber(user_id, token)
    like = f"%{user_id}%"
    for r in rows(
        con,
        "SELECT id, state_json FROM game_tables WHERE guild_id = ? AND state_json LIKE ?",
        (guild_id, like),
    ):
        cleaned = scrub.state(str(r["state_json"]))
        con.execute("UPDATE game_tables SET state_json = ? WHERE id = ?", (cleaned, r["id"]))
    for r in rows(
        con,
        "SELECT a.id, a.description FROM table_actions a JOIN game_tables g "
        "ON g.id = a.table_id WHERE g.guild_id = ? AND a.description LIKE ?",
        (guild_id, like),
    ):
        con.execute(
            "UPDATE table_actions SET description = ? WHERE id = ?",
            (scrub.text(str(r["description"])), r["id"]),
        )


def _forget_in_guild_tx(con: Con, guild_id: int, user_id: int, now: str) -> tuple[int, int]:
    """Move the member's chips to the house, anonymise their ledger rows, drop their
    members row and account, and clear their id from the server's records: (chips
    moved, ledger rows anonymised)."""
    account = member_account(guild_id, user_id)
    chips = balance_tx(con, account)
    if chips > 0:
        apply_tx(
            con,
            [Move(account, house_account(guild_id), chips, FORGET_REASON)],
            table_id=None,
            guild_id=guild_id,
            now=now,
        )
    token = new_token()
    found = one(
        con, "SELECT COUNT(*) AS n FROM transfers WHERE src = ? OR dst = ?", (account, account)
    )
    ledger_rows = 0 if found is None else int(found["n"])
    if ledger_rows:
        anon = anon_account(token)
        con.execute(
            "INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at) "
            "VALUES (?, 'anon', ?, NULL, NULL, 0, ?)",
            (anon, guild_id, now),
        )
        con.execute("UPDATE transfers SET src = ? WHERE src = ?", (anon, account))
        con.execute("UPDATE transfers SET dst = ? WHERE dst = ?", (anon, account))
    con.execute("DELETE FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    con.execute("DELETE FROM round_results WHERE account = ?", (account,))
    # a past season's standings and a break (migration 015): the member's own rows
    con.execute(
        "DELETE FROM season_standings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    con.execute("DELETE FROM member_breaks WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    con.execute("DELETE FROM accounts WHERE id = ?", (account,))
    _clear_admin_marks_tx(con, guild_id, user_id)
    _scrub_tables_tx(con, guild_id, user_id, "anon" + token)
    return chips, ledger_rows


def _known_anywhere_tx(con: Con, user_id: int) -> bool:
    """Does the member still have a members row or an account in any server?"""
    return (
        one(con, "SELECT 1 FROM members WHERE user_id = ?", (user_id,)) is not None
        or one(con, "SELECT 1 FROM accounts WHERE kind = 'member' AND user_id = ?", (user_id,))
        is not None
    )


def _clear_admin_marks_tx(con: Con, guild_id: int | None, user_id: int) -> None:
    """Where the member acted as an admin (grants, settings, the server's language)."""
    where = "" if guild_id is None else " AND guild_id = ?"
    params: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
    con.execute(f"UPDATE transfers SET by_user_id = NULL WHERE by_user_id = ?{where}", params)
    for table in ("guild_settings", "guild_languages", "settings_log"):
        con.execute(f"UPDATE {table} SET updated_by = NULL WHERE updated_by = ?{where}", params)
    con.execute(f"UPDATE seasons SET reset_by = NULL WHERE reset_by = ?{where}", params)


class PrivacyStore(StoreBase):
    """A member's data: what there is, and erasing it."""

    async def on_erasure(self, callback: ErasureCallback) -> None:
        """Have ``callback`` called (on this event loop) after every erasure another bot
        process on the same database commits, and after this process's own (it must
        therefore be harmless to repeat): the process's open tables and language cache
        are scrubbed with it. On SQLite, which one process holds (an OS lock), nothing
        to do: the erasing process scrubs its own. PostgreSQL: bot/storage/pg."""

    def _signal_erasure_tx(self, con: Con, erasure: Erasure) -> None:
        """Inside the erasure's transaction: tell the other processes once it commits
        (nobody to tell on SQLite; PostgreSQL sends a notification)."""

    async def member_data(self, user_id: int) -> MemberData:
        def work(con: Con) -> MemberData:
            members = rows(
                con, "SELECT guild_id, account_id FROM members WHERE user_id = ?", (user_id,)
            )
            accounts = [str(r["account_id"]) for r in members]
            chips = sum(balance_tx(con, a) for a in accounts)
            personal = [r for r in members if int(r["guild_id"]) == PERSONAL_SCOPE]
            ledger = 0
            for a in accounts:
                row = one(
                    con, "SELECT COUNT(*) AS n FROM transfers WHERE src = ? OR dst = ?", (a, a)
                )
                ledger += 0 if row is None else int(row["n"])
            lang = one(con, "SELECT locale FROM member_languages WHERE user_id = ?", (user_id,))
            hints = one(con, "SELECT COUNT(*) AS n FROM member_hints WHERE user_id = ?", (user_id,))
            return MemberData(
                servers=len(accounts) - len(personal),
                chips=chips,
                ledger_rows=ledger,
                language=None if lang is None else str(lang["locale"]),
                hints=0 if hints is None else int(hints["n"]),
                personal_chips=balance_tx(con, str(personal[0]["account_id"]))
                if personal
                else None,
            )

        return await self._read(work)

    async def forget_member(self, user_id: int, guild_id: int | None = None) -> ForgetResult:
        """Erase a member's data: in one server (``guild_id``, an admin's /chips forget)
        or everywhere with their language and hints (None, the member's /privacy
        delete). Refused with nothing changed while they have chips in play."""
        now = self._now()

        def work(con: Con) -> ForgetResult:
            where = "user_id = ?" + ("" if guild_id is None else " AND guild_id = ?")
            params: tuple[int, ...] = (user_id,) if guild_id is None else (user_id, guild_id)
            busy = one(con, f"SELECT guild_id, table_id FROM chips_in_play WHERE {where}", params)
            if busy is not None:
                return ForgetResult(in_play=(int(busy["guild_id"]), str(busy["table_id"])))
            guilds = sorted(
                {
                    int(r["guild_id"])
                    for r in rows(con, f"SELECT guild_id FROM members WHERE {where}", params)
                }
                | {
                    int(r["guild_id"])
                    for r in rows(
                        con,
                        f"SELECT guild_id FROM accounts WHERE kind = 'member' AND {where}",
                        params,
                    )
                }
            )
            moved = anonymised = 0
            for g in guilds:
                chips, ledger_rows = _forget_in_guild_tx(con, g, user_id, now)
                moved += chips
                anonymised += ledger_rows
            erased = bool(guilds)
            # /chips forget of a member's last server: nothing is left that their
            # language choice and hints would serve; they go as with /privacy delete
            last = guild_id is not None and erased and not _known_anywhere_tx(con, user_id)
            if guild_id is None or last:
                for table in ("member_languages", "member_hints"):
                    gone = con.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
                    erased = erased or gone.rowcount > 0
                _clear_admin_marks_tx(con, None, user_id)
                # servers where they had no account but are named at a table
                for r in rows(
                    con,
                    "SELECT DISTINCT guild_id FROM game_tables WHERE state_json LIKE ?",
                    (f"%{user_id}%",),
                ):
                    if int(r["guild_id"]) not in guilds:
                        _scrub_tables_tx(con, int(r["guild_id"]), user_id, "anon" + new_token())
            if guild_id is None or guilds:
                # the other processes scrub their open tables (and language cache) too
                self._signal_erasure_tx(
                    con, Erasure(user_id, guild_id, language=guild_id is None or last)
                )
            if erased:  # a member the store never knew leaves no record either
                con.execute(
                    "INSERT INTO erasures (erased_at, scope, accounts, ledger_rows, chips_to_house) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (
                        now,
                        "everywhere" if guild_id is None else "server",
                        len(guilds),
                        anonymised,
                        moved,
                    ),
                )
            return ForgetResult(
                servers=len([g for g in guilds if g != PERSONAL_SCOPE]),
                chips_to_house=moved,
                guilds=guilds,
                ledger_rows=anonymised,
                settings_erased=guild_id is None or last,
                personal=PERSONAL_SCOPE in guilds,
            )

        result = await self._write(work)
        if result.settings_erased and isinstance(self, HintStore):
            self.hints_forgotten(user_id)  # their hints may be shown again
        return result


__all__ = [
    "FORGET_REASON",
    "Erasure",
    "ErasureCallback",
    "ForgetResult",
    "MemberData",
    "PrivacyStore",
    "new_token",
    "scrub_snapshot",
]
