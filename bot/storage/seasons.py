"""A server's seasons (/casino reset and the past standings of /leaderboard season:),
members' own breaks (/break) and gifts between members (/give).

A reset is ONE write transaction: refused while the server has an open table (the
service closes them first, each through its game's own close, which returns every
stake), it records the closing season and every member's chips at its end, then moves
each balance to the starting chips by ledger transfers to or from the house. No ledger
row is changed or deleted, and no chip is created: the sum of the server's balances
still equals the sum of its grants, so the audit passes before and after. A bet, a
grant, a daily or a round committed at the same moment is either before the reset (and
the reset moves its result) or after it: the database runs the two one after the other
(SQLite's write lock; PostgreSQL's SERIALIZABLE transactions, retried).

A break is a row per member and server with its end; it is checked inside the same
transaction as a daily and a gift, and by the table host before a seat or a bet.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.storage.accounts import house_account, member_account
from bot.storage.base import Con, StoreBase, check_amount, iso, one, rows
from bot.storage.breaks import break_ends_tx, check_no_break_tx, moment_text
from bot.storage.errors import (
    BreakAlreadyLonger,
    GiftCapReached,
    GiftsOff,
    SeasonAlreadyReset,
    TablesStillOpen,
    UnknownSeason,
)
from bot.storage.guild_settings import guild_settings_tx
from bot.storage.ledger import apply_tx, balance_tx, ensure_member_tx
from bot.storage.models import (
    GIFT_REASON,
    MAX_GRANT,
    RESET_REASON,
    LeaderboardEntry,
    Move,
    SeasonPreview,
    SeasonReset,
)


def current_season_tx(con: Con, guild_id: int) -> int:
    """The season running in the server: 1 until its first reset."""
    row = one(con, "SELECT MAX(season) AS s FROM seasons WHERE guild_id = ?", (guild_id,))
    return 1 if row is None or row["s"] is None else int(row["s"]) + 1


def _members_tx(con: Con, guild_id: int) -> list[tuple[int, str, int, bool]]:
    """(user id, account, balance, starting chips still held back by an age gate) of
    every member of the server."""
    return [
        (int(r["user_id"]), str(r["id"]), int(r["balance"]), bool(r["starting_due"]))
        for r in rows(
            con,
            "SELECT m.user_id AS user_id, a.id AS id, a.balance AS balance, "
            "m.starting_due AS starting_due FROM members m "
            "JOIN accounts a ON a.id = m.account_id WHERE m.guild_id = ? ORDER BY m.user_id",
            (guild_id,),
        )
    ]


def reset_season_tx(
    con: Con,
    guild_id: int,
    by_user_id: int | None,
    tables_closed: int,
    now: str,
    starting: int,
    season: int | None = None,
) -> SeasonReset:
    """Inside a write transaction: close the server's current season (see the module);
    with ``season``, only if that is still the current one (:class:`SeasonAlreadyReset`
    otherwise: a confirmation is for one season, never two resets)."""
    current = current_season_tx(con, guild_id)
    if season is not None and season != current:
        raise SeasonAlreadyReset(current)
    found = one(
        con,
        "SELECT COUNT(*) AS n FROM game_tables WHERE guild_id = ? AND status = 'open'",
        (guild_id,),
    )
    open_tables = 0 if found is None else int(found["n"])
    if open_tables:
        raise TablesStillOpen(open_tables)
    season = current
    members = _members_tx(con, guild_id)
    con.execute(
        "INSERT INTO seasons (guild_id, season, ended_at, reset_by, starting_chips, members, "
        "tables_closed) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, season, now, by_user_id, starting, len(members), tables_closed),
    )
    con.executemany(
        "INSERT INTO season_standings (guild_id, season, user_id, balance) VALUES (?, ?, ?, ?)",
        [(guild_id, season, user_id, balance) for user_id, _, balance, _ in members],
    )
    house = house_account(guild_id)
    moves: list[Move] = []
    moved_in = moved_out = 0
    for _, account, balance, held_back in members:
        # a member too new for starting chips (an age gate) goes back to none: they get
        # the starting chips once, when they qualify (bot/storage/ledger.py)
        target = 0 if held_back else starting
        if balance < target:
            moves.append(Move(house, account, target - balance, RESET_REASON))
            moved_in += target - balance
        elif balance > target:
            moves.append(Move(account, house, balance - target, RESET_REASON))
            moved_out += balance - target
    apply_tx(con, moves, table_id=None, guild_id=guild_id, now=now)
    return SeasonReset(
        guild_id=guild_id,
        season=season,
        ended_at=now,
        by_user_id=by_user_id,
        starting_chips=starting,
        members=len(members),
        tables_closed=tables_closed,
        moved_in=moved_in,
        moved_out=moved_out,
    )


def day_start(moment: datetime) -> datetime:
    """Midnight UTC of ``moment``'s day: a giver's daily cap counts from there."""
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


class SeasonStore(StoreBase):
    """Seasons and their standings, breaks, gifts."""

    def _moment(self, now: datetime | None) -> datetime:
        moment = now or self._clock()
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

    # ------------------------------------------------------------------ seasons
    async def current_season(self, guild_id: int) -> int:
        return await self._read(lambda con: current_season_tx(con, guild_id))

    async def season_preview(self, guild_id: int) -> SeasonPreview:
        """What a reset would do now: the season it closes, the members it moves."""

        def read(con: Con) -> SeasonPreview:
            found = one(con, "SELECT COUNT(*) AS n FROM members WHERE guild_id = ?", (guild_id,))
            return SeasonPreview(
                season=current_season_tx(con, guild_id),
                members=0 if found is None else int(found["n"]),
                starting_chips=guild_settings_tx(con, guild_id, self.defaults).starting_chips,
            )

        return await self._write(read, mode="DEFERRED")

    async def reset_season(
        self,
        guild_id: int,
        by_user_id: int | None,
        *,
        season: int | None = None,
        tables_closed: int = 0,
    ) -> SeasonReset:
        """Close the server's current season (with ``season``: only if it is that one)
        and move every member's balance to the starting chips through the ledger, in one
        transaction; refused (:class:`TablesStillOpen`) while the server has an open
        table, (:class:`SeasonAlreadyReset`) when ``season`` has already been closed."""

        def work(con: Con) -> SeasonReset:
            starting = guild_settings_tx(con, guild_id, self.defaults).starting_chips
            return reset_season_tx(
                con, guild_id, by_user_id, tables_closed, self._now(), starting, season
            )

        return await self._write(work)

    async def season_standings(
        self, guild_id: int, season: int, limit: int = 10
    ) -> list[LeaderboardEntry]:
        """A closed season's final standings, richest first; :class:`UnknownSeason` for a
        season the server has not closed (the current one is :meth:`leaderboard`)."""
        limit = max(1, min(int(limit), 100))

        def read(con: Con) -> list[LeaderboardEntry]:
            known = one(
                con,
                "SELECT 1 FROM seasons WHERE guild_id = ? AND season = ?",
                (guild_id, season),
            )
            if known is None:
                raise UnknownSeason(season, current_season_tx(con, guild_id))
            return [
                LeaderboardEntry(int(r["user_id"]), int(r["balance"]))
                for r in rows(
                    con,
                    "SELECT user_id, balance FROM season_standings WHERE guild_id = ? "
                    "AND season = ? ORDER BY balance DESC, user_id ASC LIMIT ?",
                    (guild_id, season, limit),
                )
            ]

        return await self._write(read, mode="DEFERRED")

    # ------------------------------------------------------------------- breaks
    async def start_break(
        self, guild_id: int, user_id: int, length: timedelta, *, now: datetime | None = None
    ) -> datetime:
        """Start (or lengthen) the member's break: it ends ``length`` from now. A break
        cannot be shortened or lifted: one that would end before the running one is
        refused (:class:`BreakAlreadyLonger`). Returns when it ends."""
        if length <= timedelta(0):
            raise ValueError("a break lasts a positive time")
        moment = self._moment(now)
        ends = datetime.fromisoformat(moment_text(moment + length))

        def work(con: Con) -> datetime:
            # a member row, so that erasing the member (/privacy) finds the break too
            ensure_member_tx(con, guild_id, user_id, None, self.defaults, iso(moment))
            running = break_ends_tx(con, guild_id, user_id, moment)
            if running is not None and running >= ends:
                raise BreakAlreadyLonger(running)
            con.execute(
                "INSERT INTO member_breaks (guild_id, user_id, started_at, ends_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
                "started_at = excluded.started_at, ends_at = excluded.ends_at",
                (guild_id, user_id, moment_text(moment), moment_text(ends)),
            )
            return ends

        return await self._write(work)

    async def members_on_break(self, guild_id: int, *, now: datetime | None = None) -> int:
        """How many members of the server are on a break now (never who)."""
        moment = moment_text(self._moment(now))

        def read(con: Con) -> int:
            found = one(
                con,
                "SELECT COUNT(*) AS n FROM member_breaks WHERE guild_id = ? AND ends_at > ?",
                (guild_id, moment),
            )
            return 0 if found is None else int(found["n"])

        return await self._read(read)

    # -------------------------------------------------------------------- gifts
    async def give(
        self,
        guild_id: int,
        giver_id: int,
        receiver_id: int,
        amount: int,
        *,
        now: datetime | None = None,
    ) -> tuple[int, int]:
        """Move ``amount`` chips from one member to another by one ledger transfer, if
        the server has /give on, the giver is not on a break and stays within the
        server's per-day cap (counted from midnight UTC). Returns (the giver's balance,
        what they may still give today)."""
        check_amount(amount, low=1, high=MAX_GRANT)
        if giver_id == receiver_id:
            raise ValueError("a gift to oneself")
        moment = self._moment(now)
        start = day_start(moment)
        giver = member_account(guild_id, giver_id)
        receiver = member_account(guild_id, receiver_id)

        def work(con: Con) -> tuple[int, int]:
            settings = guild_settings_tx(con, guild_id, self.defaults)
            if not settings.give_enabled:
                raise GiftsOff()
            check_no_break_tx(con, guild_id, giver_id, moment)
            now_text = iso(moment)
            ensure_member_tx(con, guild_id, giver_id, None, self.defaults, now_text)
            ensure_member_tx(con, guild_id, receiver_id, None, self.defaults, now_text)
            found = one(
                con,
                "SELECT COALESCE(SUM(amount), 0) AS n FROM transfers "
                "WHERE src = ? AND ts >= ? AND reason = ?",
                (giver, iso(start), GIFT_REASON),
            )
            given = 0 if found is None else int(found["n"])
            cap = settings.give_daily_cap
            if given + amount > cap:
                raise GiftCapReached(cap, max(0, cap - given), start + timedelta(days=1))
            apply_tx(
                con,
                [Move(giver, receiver, amount, GIFT_REASON)],
                table_id=None,
                guild_id=guild_id,
                now=now_text,
            )
            return balance_tx(con, giver), cap - given - amount

        return await self._write(work)


__all__ = [
    "SeasonStore",
    "current_season_tx",
    "day_start",
    "reset_season_tx",
]
