"""What the bot stores about a member, and erasing it (/privacy delete, /chips forget).

A member's data: their ``members`` row (first sight, last /daily) and ``member:{g}:{u}``
account in each server, the ledger rows of that account, their language
(``member_languages``), the one-time hints they were shown (``member_hints``), how
each of their settled rounds ended (``round_results``, for /stats), and their seat or
bets in table snapshots (``game_tables.state_json``).

Forgetting a member of a server (refused, nothing changed, while they have chips in
play there):

* their chips go to the server's house account by one recorded ledger transfer
  (reason ``member data erased``), so every balance and the audit still add up;
* their ``round_results`` rows and their ``members`` row are deleted: the account is left with no owner row and a zero
  balance. The ledger is append-only, so its old rows keep the account id; nothing
  links it to the member any more but that number. If they come back they start afresh
  (a new members row and the server's starting chips); /stats shows them only the
  rows after the erasure, /leaderboard leaves the emptied account out.

Forgetting everywhere (/privacy delete) does that in every server and deletes their
language choice and hints too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage.accounts import house_account, member_account
from bot.storage.base import Con, StoreBase, one, rows
from bot.storage.history import FORGET_REASON
from bot.storage.ledger import apply_tx, balance_tx
from bot.storage.models import Move


@dataclass(frozen=True)
class MemberData:
    """What the store holds about one member (counts, for /privacy)."""

    servers: int = 0
    chips: int = 0
    ledger_rows: int = 0
    language: str | None = None
    hints: int = 0


@dataclass(frozen=True)
class ForgetResult:
    """The outcome of a deletion: ``in_play`` (guild id, table id) when refused."""

    in_play: tuple[int, str] | None = None
    servers: int = 0
    chips_to_house: int = 0
    guilds: list[int] = field(default_factory=list)

    @property
    def refused(self) -> bool:
        return self.in_play is not None


def _forget_in_guild_tx(con: Con, guild_id: int, user_id: int, now: str) -> int:
    """Move the member's chips to the house and drop their members row; the chips moved."""
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
    con.execute("DELETE FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    con.execute("DELETE FROM round_results WHERE account = ?", (account,))
    return chips


class PrivacyStore(StoreBase):
    """A member's data: what there is, and erasing it."""

    async def member_data(self, user_id: int) -> MemberData:
        def work(con: Con) -> MemberData:
            members = rows(con, "SELECT account_id FROM members WHERE user_id = ?", (user_id,))
            accounts = [str(r["account_id"]) for r in members]
            chips = sum(balance_tx(con, a) for a in accounts)
            ledger = 0
            for a in accounts:
                row = one(
                    con, "SELECT COUNT(*) AS n FROM transfers WHERE src = ? OR dst = ?", (a, a)
                )
                ledger += 0 if row is None else int(row["n"])
            lang = one(con, "SELECT locale FROM member_languages WHERE user_id = ?", (user_id,))
            hints = one(con, "SELECT COUNT(*) AS n FROM member_hints WHERE user_id = ?", (user_id,))
            return MemberData(
                servers=len(accounts),
                chips=chips,
                ledger_rows=ledger,
                language=None if lang is None else str(lang["locale"]),
                hints=0 if hints is None else int(hints["n"]),
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
                int(r["guild_id"])
                for r in rows(con, f"SELECT guild_id FROM members WHERE {where}", params)
            )
            moved = sum(_forget_in_guild_tx(con, g, user_id, now) for g in guilds)
            if guild_id is None:
                con.execute("DELETE FROM member_languages WHERE user_id = ?", (user_id,))
                con.execute("DELETE FROM member_hints WHERE user_id = ?", (user_id,))
            return ForgetResult(servers=len(guilds), chips_to_house=moved, guilds=guilds)

        return await self._write(work)


__all__ = ["FORGET_REASON", "ForgetResult", "MemberData", "PrivacyStore"]
