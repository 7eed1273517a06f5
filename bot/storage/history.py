"""A member's chips over time, read from the ledger (``/stats``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.storage.accounts import parse_account
from bot.storage.base import Con, StoreBase, rows
from bot.storage.models import GIFT_REASON


@dataclass(frozen=True, slots=True)
class BalancePoint:
    """The account's balance just after the ledger rows of one moment."""

    ts: datetime
    balance: int


@dataclass(frozen=True, slots=True)
class GameNet:
    """Chips a member's account gained from (positive) or lost to (negative) one game's
    tables, and at how many tables."""

    game: str
    net: int
    tables: int


@dataclass(frozen=True, slots=True)
class GameRounds:
    """How a member's settled rounds (coups) of one game ended: chips up, down or even."""

    game: str
    won: int
    lost: int
    pushed: int


@dataclass(frozen=True, slots=True)
class ChipHistory:
    points: list[BalancePoint]
    games: list[GameNet]
    rounds: list[GameRounds] = field(default_factory=list)
    # chips given to other members (/give) and received from them
    gifts_out: int = 0
    gifts_in: int = 0


_HISTORY_SQL = (
    "SELECT t.ts AS ts, CASE WHEN t.dst = ? THEN t.amount ELSE -t.amount END AS delta, "
    "t.table_id AS table_id, t.reason AS reason, g.game AS game "
    "FROM transfers t LEFT JOIN game_tables g ON g.id = t.table_id "
    "WHERE (t.dst = ? OR t.src = ?) AND t.id > ? ORDER BY t.id"
)
# The account's last "member data erased" row: a member erased before migration 009 who
# came back kept their account id, and starts afresh, their history too. (Since 009 an
# erasure moves the rows to an anonymous account and drops the member's: bot/storage/
# privacy.py.)
_FORGOTTEN_SQL = "SELECT MAX(id) AS id FROM transfers WHERE src = ? AND reason = ?"
FORGET_REASON = "member data erased"
# round_results (migration 010): one row per member and settled round; an erasure
# (bot/storage/privacy.py) deletes the member's rows, so all there are count
_ROUNDS_SQL = (
    "SELECT g.game AS game, "
    "SUM(CASE WHEN r.net > 0 THEN 1 ELSE 0 END) AS won, "
    "SUM(CASE WHEN r.net < 0 THEN 1 ELSE 0 END) AS lost, "
    "SUM(CASE WHEN r.net = 0 THEN 1 ELSE 0 END) AS pushed "
    "FROM round_results r JOIN game_tables g ON g.id = r.table_id "
    "WHERE r.account = ? GROUP BY g.game ORDER BY g.game"
)


def _parse_ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def history_tx(con: Con, account: str) -> ChipHistory:
    points: list[BalancePoint] = []
    balance = 0
    nets: dict[str, int] = {}
    tables: dict[str, set[str]] = {}
    last_ts: str | None = None
    gifts = {True: 0, False: 0}  # into the account, out of it
    found = rows(con, _FORGOTTEN_SQL, (account, FORGET_REASON))
    after = int(found[0]["id"]) if found and found[0]["id"] is not None else 0
    for r in rows(con, _HISTORY_SQL, (account, account, account, after)):
        ts = str(r["ts"])
        balance += int(r["delta"])
        if r["reason"] == GIFT_REASON and r["table_id"] is None:
            gifts[int(r["delta"]) > 0] += abs(int(r["delta"]))
        if r["game"] is not None:
            game = str(r["game"])
            nets[game] = nets.get(game, 0) + int(r["delta"])
            tables.setdefault(game, set()).add(str(r["table_id"]))
        if ts == last_ts:  # rows of one transaction: one point
            points[-1] = BalancePoint(points[-1].ts, balance)
        else:
            points.append(BalancePoint(_parse_ts(ts), balance))
            last_ts = ts
    games = [GameNet(g, nets[g], len(tables[g])) for g in sorted(nets)]
    return ChipHistory(
        points, games, rounds_tx(con, account), gifts_out=gifts[False], gifts_in=gifts[True]
    )


def rounds_tx(con: Con, account: str) -> list[GameRounds]:
    """The account's settled rounds per game."""
    return [
        GameRounds(str(r["game"]), int(r["won"]), int(r["lost"]), int(r["pushed"]))
        for r in rows(con, _ROUNDS_SQL, (account,))
    ]


class HistoryQueries(StoreBase):
    async def chip_history(self, account: str) -> ChipHistory:
        """The account's balance after each ledger change, oldest first (rebuilt from 0 by
        adding every row in and subtracting every row out), and its net result per game
        (chips back from a game's tables minus chips put in; a round still open counts
        its stake as out)."""
        parse_account(account)
        return await self._read(lambda con: history_tx(con, account))
