"""The chip ledger: balances, members, grants, daily chips and chip moves.

Double-entry: ``transfers`` rows are the truth, ``accounts.balance`` a cache kept in step
inside the same transaction (``bot.audit`` checks one against the other). The house
account of a server (``house:{guild}``) is the casino's float: it starts at zero and MAY
RUN NEGATIVE (its balance is the house's net result). Every other account is kept >= 0
by this code and by a CHECK constraint. Chips enter only by grants to members, so for
each server the sum of all balances (house included) equals the sum of its grants.

The ``*_tx`` functions run inside a write transaction on the store's database thread
(aiosqlite's; the PostgreSQL store's own); the :class:`LedgerStore` methods are the
public, async face.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.accounts import map_engine_account, member_account, parse_account
from bot.storage.base import (
    Con,
    StoreBase,
    check_amount,
    check_reason,
    from_iso,
    iso,
    one,
    rows,
    table_tx,
)
from bot.storage.breaks import break_ends_tx, check_no_break_tx
from bot.storage.errors import (
    DailyNotReady,
    DailyOff,
    InsufficientChips,
    NotOldEnough,
    TableClosed,
    TableNotFound,
)
from bot.storage.guild_settings import guild_settings_tx, plays_again_at_tx
from bot.storage.models import (
    MAX_GRANT,
    MAX_TRANSFER,
    GuildSettings,
    LeaderboardEntry,
    Move,
    StakeCheck,
    TransferLike,
    TransferRecord,
)
from engine.records import is_computer_seat


def balance_tx(con: Con, account: str) -> int:
    row = one(con, "SELECT balance FROM accounts WHERE id = ?", (account,))
    return 0 if row is None else int(row["balance"])


#: Discord's epoch (2015-01-01) in milliseconds: an id's top bits count from it
DISCORD_EPOCH_MS = 1_420_070_400_000


def account_created(user_id: int) -> datetime:
    """When a Discord account was made: its id (a snowflake) carries the moment."""
    return datetime.fromtimestamp(((user_id >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def qualifies_at(
    settings: GuildSettings, user_id: int, joined: datetime | None, now: datetime
) -> datetime | None:
    """When the member passes the server's age gates (account age, time in the server),
    or None when they already do. ``joined``: when they joined the server (None: now)."""
    moments = []
    if settings.account_age_days > 0:
        moments.append(account_created(user_id) + timedelta(days=settings.account_age_days))
    if settings.member_age_days > 0:
        moments.append((joined or now) + timedelta(days=settings.member_age_days))
    due = max(moments, default=None)
    return due if due is not None and now < due else None


def _joined(con: Con, guild_id: int, user_id: int, told: datetime | None) -> datetime | None:
    """When the member joined the server: ``told`` (Discord's word, read from
    :attr:`StoreBase.join_dates`, noted by the Discord layer),
    else when the bot first saw them (None: never)."""
    if told is not None:
        return told
    row = one(
        con, "SELECT joined_at FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return None if row is None else from_iso(str(row["joined_at"]))


def known_balance_tx(con: Con, guild_id: int, user_id: int) -> int | None:
    """The member's balance, or None when the member is new or their starting chips are
    held back (:func:`ensure_member_tx` has work to do)."""
    row = one(
        con,
        "SELECT a.balance, m.starting_due FROM members m "
        "JOIN accounts a ON a.id = m.account_id WHERE m.guild_id = ? AND m.user_id = ?",
        (guild_id, user_id),
    )
    return None if row is None or int(row["starting_due"]) else int(row["balance"])


def ensure_member_tx(
    con: Con,
    guild_id: int,
    user_id: int,
    starting_chips: int | None,
    defaults: GuildSettings,
    now: str,
    joined: datetime | None = None,
) -> bool:
    """Inside a write transaction: create the member if new. True when created.

    The starting grant (``starting_chips`` None: the server's setting) is held back while
    the member is younger than the server's age gates (``members.starting_due``), and
    given the first time they are seen old enough."""
    account = member_account(guild_id, user_id)
    found = one(
        con,
        "SELECT starting_due FROM members WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if found is not None:
        if int(found["starting_due"]):
            settings = guild_settings_tx(con, guild_id, defaults)
            since = _joined(con, guild_id, user_id, joined)
            if qualifies_at(settings, user_id, since, from_iso(now)) is None:
                con.execute(
                    "UPDATE members SET starting_due = 0 WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id),
                )
                if settings.starting_chips > 0:
                    grant_tx(
                        con, guild_id, account, settings.starting_chips, "starting chips", None, now
                    )
        return False
    held = False
    if starting_chips is None:
        settings = guild_settings_tx(con, guild_id, defaults)
        starting_chips = settings.starting_chips
        held = qualifies_at(settings, user_id, joined, from_iso(now)) is not None
    con.execute(
        "INSERT OR IGNORE INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
        "VALUES (?, 'member', ?, ?, 0, ?)",
        (account, guild_id, user_id, now),
    )
    con.execute(
        "INSERT INTO members (guild_id, user_id, account_id, joined_at, starting_due) "
        "VALUES (?, ?, ?, ?, ?)",
        (guild_id, user_id, account, now, int(held)),
    )
    if starting_chips > 0 and not held:
        grant_tx(con, guild_id, account, starting_chips, "starting chips", None, now)
    return True


def held_back_until_tx(
    con: Con,
    guild_id: int,
    user_id: int,
    defaults: GuildSettings,
    now: datetime,
    joined: datetime | None = None,
) -> datetime | None:
    """When a member whose starting chips are held back (an age gate) gets them; None
    when nothing is held back."""
    row = one(
        con,
        "SELECT starting_due FROM members WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None or not int(row["starting_due"]):
        return None
    return too_new_until_tx(con, guild_id, user_id, defaults, now, joined)


def too_new_until_tx(
    con: Con,
    guild_id: int,
    user_id: int,
    defaults: GuildSettings,
    now: datetime,
    joined: datetime | None = None,
) -> datetime | None:
    """When the member passes the server's age gates (None: they do at ``now``): their
    account's age, and their time in the server from ``joined`` (Discord's word) or else
    from when the bot first saw them (:func:`_joined`)."""
    settings = guild_settings_tx(con, guild_id, defaults)
    return qualifies_at(settings, user_id, _joined(con, guild_id, user_id, joined), now)


def grant_tx(
    con: Con,
    guild_id: int,
    account: str,
    amount: int,
    reason: str,
    by_user_id: int | None,
    ts: str,
) -> None:
    con.execute(
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason, by_user_id) "
        "VALUES (?, ?, 'grant', NULL, ?, ?, ?, ?)",
        (ts, guild_id, account, amount, reason, by_user_id),
    )
    con.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (amount, account))


def to_moves(
    transfers: Sequence[TransferLike], guild_id: int | None, table_id: str | None
) -> list[Move]:
    """Validated ledger moves; engine account names mapped when a table is given."""
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
            if is_computer_seat(str(t.src)) or is_computer_seat(str(t.dst)):
                continue  # the house lending a computer player its chips: nothing moves
            raise ValueError(f"a transfer from {src} to itself")
        if t.amount == 0 and not isinstance(t.amount, bool):
            continue  # a zero move changes nothing; not worth refusing a game action
        amount = check_amount(t.amount, low=1, high=MAX_TRANSFER)
        moves.append(Move(src, dst, amount, check_reason(t.reason)))
    return moves


def account_tx(con: Con, account: str, now: str) -> tuple[str, int, int]:
    """(kind, guild_id, balance) of an account, created at zero when missing.
    Escrow and kitty accounts must belong to an open table."""
    kind, guild, user, table_id = parse_account(account)
    if kind == "anon":
        raise ValueError(f"{account} is an erased member's anonymous account: no chips move")
    if table_id is not None:
        table = table_tx(con, table_id)
        if table is None:
            raise TableNotFound(table_id)
        if not table.is_open:
            raise TableClosed(table_id)
        guild = table.guild_id
    row = one(con, "SELECT kind, guild_id, balance FROM accounts WHERE id = ?", (account,))
    if row is not None:
        return str(row["kind"]), int(row["guild_id"]), int(row["balance"])
    assert guild is not None
    con.execute(
        "INSERT INTO accounts (id, kind, guild_id, user_id, table_id, balance, created_at) "
        "VALUES (?, ?, ?, ?, ?, 0, ?)",
        (account, kind, guild, user, table_id, now),
    )
    return kind, guild, 0


def apply_tx(
    con: Con,
    transfers: Sequence[TransferLike],
    *,
    table_id: str | None,
    guild_id: int | None,
    now: str,
) -> None:
    """Inside a write transaction: validate, net and record a batch of moves. Every
    account except a house must end >= 0 (:class:`InsufficientChips` otherwise)."""
    moves = to_moves(transfers, guild_id, table_id)
    if not moves:
        return
    info: dict[str, tuple[str, int, int]] = {}  # account -> (kind, guild, balance)
    for account in dict.fromkeys(a for m in moves for a in (m.src, m.dst)):
        info[account] = account_tx(con, account, now)
    deltas: dict[str, int] = dict.fromkeys(info, 0)
    records: list[tuple[Any, ...]] = []
    for m in moves:
        src_guild, dst_guild = info[m.src][1], info[m.dst][1]
        if src_guild != dst_guild or (guild_id is not None and src_guild != guild_id):
            raise ValueError(f"transfer {m.src} -> {m.dst} crosses servers")
        deltas[m.src] -= m.amount
        deltas[m.dst] += m.amount
        records.append((now, src_guild, m.src, m.dst, m.amount, m.reason, table_id))
    for account, delta in deltas.items():
        kind, _, balance = info[account]
        if kind != "house" and balance + delta < 0:
            raise InsufficientChips(account, -delta, balance)
    con.executemany(
        "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason, table_id) "
        "VALUES (?, ?, 'transfer', ?, ?, ?, ?, ?)",
        records,
    )
    con.executemany(
        "UPDATE accounts SET balance = balance + ? WHERE id = ?",
        [(delta, account) for account, delta in deltas.items() if delta],
    )


class LedgerStore(StoreBase):
    """Balances, members, grants and chip moves."""

    async def balance(self, account: str) -> int:
        """The account's chips (0 for an account the ledger has never seen)."""
        parse_account(account)
        return await self._read(lambda con: balance_tx(con, account))

    async def balances(self, accounts: Iterable[str]) -> dict[str, int]:
        """Balances of several accounts in one read (0 for unknown accounts)."""
        wanted = list(dict.fromkeys(accounts))
        for account in wanted:
            parse_account(account)

        def read(con: Con) -> dict[str, int]:
            result = dict.fromkeys(wanted, 0)
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for row in rows(
                    con, f"SELECT id, balance FROM accounts WHERE id IN ({marks})", chunk
                ):
                    result[str(row["id"])] = int(row["balance"])
            return result

        return await self._read(read)

    async def member_balance(self, guild_id: int, user_id: int) -> int:
        return await self.balance(member_account(guild_id, user_id))

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderboardEntry]:
        """The richest members of a server: (user_id, balance), richest first."""
        limit = max(1, min(int(limit), 100))
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT user_id, balance FROM accounts a WHERE guild_id = ? AND kind = 'member' "
                # a forgotten member (/privacy delete): no members row, no chips
                "AND (balance > 0 OR EXISTS (SELECT 1 FROM members m WHERE m.account_id = a.id)) "
                "ORDER BY balance DESC, user_id ASC LIMIT ?",
                (guild_id, limit),
            )
        )
        return [LeaderboardEntry(int(r["user_id"]), int(r["balance"])) for r in found]

    async def history(self, account: str, limit: int = 20) -> list[TransferRecord]:
        """The account's latest ledger rows, newest first."""
        parse_account(account)
        limit = max(1, min(int(limit), 500))
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT id, ts, guild_id, kind, src, dst, amount, reason, table_id, by_user_id "
                "FROM transfers WHERE src = ? OR dst = ? ORDER BY id DESC LIMIT ?",
                (account, account, limit),
            )
        )
        return [
            TransferRecord(
                id=int(r["id"]),
                ts=str(r["ts"]),
                guild_id=int(r["guild_id"]),
                kind="grant" if r["kind"] == "grant" else "transfer",
                src=None if r["src"] is None else str(r["src"]),
                dst=str(r["dst"]),
                amount=int(r["amount"]),
                reason=str(r["reason"]),
                table_id=None if r["table_id"] is None else str(r["table_id"]),
                by_user_id=None if r["by_user_id"] is None else int(r["by_user_id"]),
            )
            for r in found
        ]

    async def ensure_member(
        self, guild_id: int, user_id: int, starting_chips: int | None = None
    ) -> int:
        """The member's balance, creating their account with a starting grant the first
        time the member is seen (``starting_chips`` None: the server's setting; held back
        while the server's age gates say they are too new, see :func:`ensure_member_tx`)."""
        account = member_account(guild_id, user_id)
        if starting_chips is not None:
            check_amount(starting_chips, low=0, high=MAX_GRANT)
        known = await self._read(lambda con: known_balance_tx(con, guild_id, user_id))
        if known is not None:
            return known

        joined = self.join_dates.get(guild_id, user_id)

        def work(con: Con) -> int:
            ensure_member_tx(
                con, guild_id, user_id, starting_chips, self.defaults, self._now(), joined
            )
            return balance_tx(con, account)

        return await self._write(work)

    async def member_balances(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, int]:
        """The balances of these members of the server, read in one call (an account
        made, or held-back starting chips given, by :meth:`ensure_member` where the read
        finds none)."""
        wanted = list(user_ids)

        def read(con: Con) -> dict[int, int | None]:
            return {user_id: known_balance_tx(con, guild_id, user_id) for user_id in wanted}

        known = await self._read(read)
        return {
            user_id: chips if chips is not None else await self.ensure_member(guild_id, user_id)
            for user_id, chips in known.items()
        }

    async def stake_check(
        self, guild_id: int, user_id: int, *, game: str | None = None, balance: bool = False
    ) -> StakeCheck:
        """What a table asks before a member stakes, in one transaction: the break they
        are on, with ``game`` the server's round limit of that game, with ``balance``
        their balance (their account made, or their held-back starting chips given, by
        :meth:`ensure_member` when the read finds none and nothing refuses them)."""
        moment = self._clock()

        def read(con: Con) -> StakeCheck:
            ends = break_ends_tx(con, guild_id, user_id, moment)
            again = (
                None
                if game is None
                else plays_again_at_tx(con, guild_id, user_id, game, self.defaults, moment)
            )
            chips = (
                known_balance_tx(con, guild_id, user_id)
                if balance and ends is None and again is None
                else None
            )
            return StakeCheck(break_ends=ends, plays_again_at=again, balance=chips)

        found = await self._write(read, mode="DEFERRED")
        refused = found.break_ends is not None or found.plays_again_at is not None
        if balance and found.balance is None and not refused:
            found = replace(found, balance=await self.ensure_member(guild_id, user_id))
        return found

    async def too_new_until(
        self,
        guild_id: int,
        user_id: int,
        *,
        joined: datetime | None = None,
        now: datetime | None = None,
    ) -> datetime | None:
        """When the member passes the server's age gates (None: they do now), the same
        gate that holds back their starting chips and their daily: ``joined`` is when
        they joined the server as Discord says (None: what the Discord layer noted in
        :attr:`join_dates`, else when the bot first saw them)."""
        told = joined or self.join_dates.get(guild_id, user_id)
        moment = now or self._clock()
        return await self._read(
            lambda con: too_new_until_tx(con, guild_id, user_id, self.defaults, moment, told)
        )

    async def held_back_until(self, guild_id: int, user_id: int) -> datetime | None:
        """When the member's held-back starting chips come (None: nothing held back)."""
        joined = self.join_dates.get(guild_id, user_id)
        return await self._read(
            lambda con: held_back_until_tx(
                con, guild_id, user_id, self.defaults, self._clock(), joined
            )
        )

    async def grant(
        self, guild_id: int, user_id: int, amount: int, reason: str, by_user_id: int | None
    ) -> int:
        """Give a member chips out of nothing (an admin grant), recorded as a grant.
        Returns the new balance. ``amount`` must be 1..10^9."""
        check_amount(amount, low=1, high=MAX_GRANT)
        reason = check_reason(reason)
        account = member_account(guild_id, user_id)
        joined = self.join_dates.get(guild_id, user_id)

        def work(con: Con) -> int:
            now = self._now()
            ensure_member_tx(con, guild_id, user_id, None, self.defaults, now, joined)
            grant_tx(con, guild_id, account, amount, reason, by_user_id, now)
            return balance_tx(con, account)

        return await self._write(work)

    async def claim_daily(
        self,
        guild_id: int,
        user_id: int,
        amount: int | None = None,
        cooldown: timedelta | None = None,
        now: datetime | None = None,
    ) -> int:
        """Grant the daily chips (``amount`` None: the server's setting) unless claimed
        within ``cooldown`` (None: the server's); raises :class:`DailyNotReady` with the
        next time otherwise, :class:`MemberOnBreak` while the member is on a break
        (/break), :class:`NotOldEnough` while the server's age gates say the member is too
        new, :class:`DailyOff` when the server gives none. Returns the new balance."""
        if cooldown is not None and cooldown < timedelta(0):
            raise ValueError("cooldown must not be negative")
        account = member_account(guild_id, user_id)
        moment = now or self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        joined = self.join_dates.get(guild_id, user_id)

        def work(con: Con) -> int:
            settings = guild_settings_tx(con, guild_id, self.defaults)
            chips = amount
            if chips is None:
                chips = settings.daily_chips
                if chips == 0:
                    raise DailyOff()
            check_amount(chips, low=1, high=MAX_GRANT)
            check_no_break_tx(con, guild_id, user_id, moment)  # /break: no daily
            wait = cooldown
            if wait is None:
                wait = timedelta(minutes=settings.daily_cooldown_minutes)
            ensure_member_tx(con, guild_id, user_id, None, self.defaults, iso(moment), joined)
            since = _joined(con, guild_id, user_id, joined)
            gate = qualifies_at(settings, user_id, since, moment)
            if gate is not None:
                raise NotOldEnough(gate)
            row = one(
                con,
                "SELECT last_daily_at FROM members WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            if row is not None and row["last_daily_at"] is not None:
                next_at = from_iso(str(row["last_daily_at"])) + wait
                if moment < next_at:
                    raise DailyNotReady(next_at)
            grant_tx(con, guild_id, account, chips, "daily", None, iso(moment))
            con.execute(
                "UPDATE members SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
                (iso(moment), guild_id, user_id),
            )
            return balance_tx(con, account)

        return await self._write(work)

    async def apply_transfers(
        self, transfers: Sequence[TransferLike], table_id: str | None = None
    ) -> None:
        """Apply chip moves atomically. Accounts are ledger ids; with ``table_id`` they
        may also be engine names (seat ids, ``@escrow``, ``@kitty``, ``@house``).

        The batch is checked as a whole: every account except a house must end >= 0,
        otherwise :class:`InsufficientChips` is raised and nothing is written.
        """
        batch = list(transfers)

        def work(con: Con) -> None:
            guild_id: int | None = None
            if table_id is not None:
                table = table_tx(con, table_id)
                if table is None:
                    raise TableNotFound(table_id)
                guild_id = table.guild_id
            apply_tx(con, batch, table_id=table_id, guild_id=guild_id, now=self._now())

        await self._write(work)


__all__ = [
    "LedgerStore",
    "account_tx",
    "apply_tx",
    "balance_tx",
    "ensure_member_tx",
    "grant_tx",
    "held_back_until_tx",
    "known_balance_tx",
    "qualifies_at",
    "to_moves",
    "too_new_until_tx",
]
