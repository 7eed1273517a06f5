"""Game tables: snapshots with their chip moves in one transaction, closing, the
"chips in play at one table per server" rows, and the action log."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.storage.accounts import (
    escrow_account,
    house_account,
    is_member_seat,
    kitty_account,
    map_engine_account,
    member_account,
    parse_account,
)
from bot.storage.base import (
    SHOWN_COLUMNS,
    TABLE_COLUMNS,
    Con,
    StoreBase,
    one,
    rows,
    table_record,
    table_tx,
)
from bot.storage.errors import (
    ChipsInPlayElsewhere,
    StaleVersion,
    TableAlreadyOpen,
    TableClosed,
    TableNotEmpty,
    TableNotFound,
)
from bot.storage.ledger import apply_tx, to_moves
from bot.storage.models import (
    GAME_NAME_MAX,
    ActionLogEntry,
    Move,
    ShownMessage,
    TableRecord,
    TableReply,
    TransferLike,
)


def share(total: int, weights: dict[str, int], fallback: str) -> list[tuple[str, int]]:
    """Split ``total`` chips among ``weights`` (positive) exactly: each gets its weight
    when the weights add up to the total, else a proportional share with the odd chips
    to the largest weights first; ``fallback`` gets everything when there are none."""
    if total <= 0:
        return []
    if not weights:
        return [(fallback, total)]
    whole = sum(weights.values())
    if whole == total:
        return sorted(weights.items())
    parts = {a: total * w // whole for a, w in weights.items()}
    left = total - sum(parts.values())
    for a in sorted(weights, key=lambda k: (-weights[k], k))[:left]:
        parts[a] += 1
    return sorted((a, n) for a, n in parts.items() if n > 0)


def window_nets_tx(con: Con, account: str) -> dict[str, int]:
    """Each counterpart's net chips into ``account`` since it last stood at zero."""
    running = 0
    nets: dict[str, int] = {}
    for row in con.execute(
        "SELECT src, dst, amount FROM transfers WHERE src = ? OR dst = ? ORDER BY id",
        (account, account),
    ):
        if row["dst"] == account:
            other, delta = str(row["src"]), int(row["amount"])
        else:
            other, delta = str(row["dst"]), -int(row["amount"])
        running += delta
        nets[other] = nets.get(other, 0) + delta
        if running == 0:
            nets.clear()
    return {a: n for a, n in nets.items() if n}


def ledger_refunds_tx(con: Con, table_id: str) -> list[Move]:
    """Moves that empty the table's escrow and kitty back to their owners.

    Ownership comes from the ledger: for each table account, every counterpart's net
    contribution (chips in minus chips out) since the account last stood at zero. When
    those add up to the balance (bets not yet settled: the usual case) each owner gets
    exactly their net back; when part was already paid out (a bust paid to the banker),
    the balance is shared in proportion to the contributions, the odd chips to the
    largest contributors. Chips nobody can be found for go to the server's house
    account, so nothing is ever lost.
    """
    table = table_tx(con, table_id)
    if table is None:
        raise TableNotFound(table_id)
    moves: list[Move] = []
    for account in (kitty_account(table_id), escrow_account(table_id)):
        row = one(con, "SELECT balance FROM accounts WHERE id = ?", (account,))
        balance = 0 if row is None else int(row["balance"])
        if balance <= 0:
            continue
        owners = {
            a: n
            for a, n in window_nets_tx(con, account).items()
            if n > 0 and a != account and parse_account(a)[0] in ("member", "house")
        }
        for dst, amount in share(balance, owners, house_account(table.guild_id)):
            moves.append(Move(account, dst, amount, "refund: table closed (from the ledger)"))
    return moves


def set_in_play_tx(con: Con, guild_id: int, table_id: str, members: Collection[int]) -> None:
    """The table's chips-in-play rows become ``members``; a member with chips in play at
    another table of the server raises :class:`ChipsInPlayElsewhere`."""
    wanted = sorted({int(u) for u in members})
    marks = ",".join("?" * len(wanted))
    con.execute(
        f"DELETE FROM chips_in_play WHERE table_id = ? AND user_id NOT IN ({marks})",
        (table_id, *wanted),
    )
    if not wanted:
        return
    con.executemany(
        "INSERT OR IGNORE INTO chips_in_play (guild_id, user_id, table_id) VALUES (?, ?, ?)",
        [(guild_id, u, table_id) for u in wanted],
    )
    row = one(
        con,
        f"SELECT user_id, table_id FROM chips_in_play WHERE guild_id = ? "
        f"AND user_id IN ({marks}) AND table_id <> ? LIMIT 1",
        (guild_id, *wanted, table_id),
    )
    if row is not None:
        raise ChipsInPlayElsewhere(guild_id, int(row["user_id"]), str(row["table_id"]))


def log_tx(con: Con, table_id: str, version: int, text: str, now: str) -> None:
    con.execute(
        "INSERT INTO table_actions (table_id, version, ts, description) VALUES (?, ?, ?, ?)",
        (table_id, version, now, str(text)[:500]),
    )


def results_tx(
    con: Con, guild_id: int, table_id: str, results: Mapping[str, int], now: str
) -> None:
    """One ``round_results`` row per member of a settled round (migration 010)."""
    for seat, net in results.items():
        if not is_member_seat(seat):
            continue  # the house, a kitty...: not a member's round
        if isinstance(net, bool) or not isinstance(net, int):
            raise ValueError(f"bad round result {net!r} for {seat!r}")
        con.execute(
            "INSERT INTO round_results (ts, guild_id, table_id, account, net) "
            "VALUES (?, ?, ?, ?, ?)",
            (now, guild_id, table_id, member_account(guild_id, int(seat)), net),
        )


class TableStore(StoreBase):
    """Open, save, close and read game tables."""

    async def save_table(
        self,
        table_id: str,
        guild_id: int,
        channel_id: int,
        game: str,
        state_json: str,
        version: int,
        message_id: int | None,
        transfers: Sequence[TransferLike] = (),
        log: str | None = None,
        *,
        in_play: Collection[int] | None = None,
        results: Mapping[str, int] | None = None,
    ) -> None:
        """Write a table's new state, the chip moves that produced it and an action-log
        row in ONE transaction.

        Optimistic concurrency: a new table is stored at ``version``; an existing one only
        when its stored version is ``version - 1`` (``UPDATE ... WHERE version = ...``,
        else :class:`StaleVersion`). Transfers may name engine accounts (seat ids,
        ``@escrow``...), mapped with :func:`map_engine_account`; zero amounts are
        skipped. ``message_id`` is stored as given (None clears it).

        ``in_play``: the members (user ids) who have chips in play at this table after
        this write (seated, or with bets on the coup), written in the same transaction; a
        member with chips in play at another open table of the server makes the whole
        write fail with :class:`ChipsInPlayElsewhere` (one table at a time, enforced by
        the database's UNIQUE key whatever any process holds in memory). None leaves the
        table's rows as they are.

        Raises TableClosed, TableAlreadyOpen, InsufficientChips, StorageUnavailable...
        with nothing written.
        """
        # which games exist is the registry's business (bot/games.py), not storage's
        if not isinstance(game, str) or not 1 <= len(game) <= GAME_NAME_MAX:
            raise ValueError(f"bad game name {game!r}")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise ValueError(f"bad version {version!r}")
        map_engine_account("@escrow", guild_id, table_id)  # validates the ids
        batch = list(transfers)
        members = None if in_play is None else list(in_play)

        def work(con: Con) -> None:
            now = self._now()
            # what the checks need of the stored table (not its snapshot: it is replaced)
            current = one(
                con,
                "SELECT guild_id, channel_id, game, status, version FROM game_tables WHERE id = ?",
                (table_id,),
            )
            if current is None:
                other = one(
                    con,
                    "SELECT id FROM game_tables WHERE channel_id = ? AND status = 'open'",
                    (channel_id,),
                )
                if other is not None:
                    raise TableAlreadyOpen(channel_id, str(other["id"]))
                con.execute(
                    f"INSERT INTO game_tables ({TABLE_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, NULL)",
                    (
                        table_id,
                        guild_id,
                        channel_id,
                        game,
                        version,
                        state_json,
                        message_id,
                        now,
                        now,
                    ),
                )
            else:
                stored = int(current["version"])
                if current["status"] != "open":
                    raise TableClosed(table_id)
                if int(current["guild_id"]) != guild_id or current["game"] != game:
                    raise ValueError(f"table {table_id!r} belongs to another server or game")
                if stored != version - 1:
                    raise StaleVersion(table_id, version - 1, stored)
                if int(current["channel_id"]) != channel_id:
                    raise ValueError(f"table {table_id!r} lives in another channel")
                cur = con.execute(
                    "UPDATE game_tables SET version = ?, state_json = ?, "
                    "message_id = ?, updated_at = ? "
                    "WHERE id = ? AND version = ? AND status = 'open'",
                    (version, state_json, message_id, now, table_id, version - 1),
                )
                if cur.rowcount != 1:  # a stale writer: never overwrite a newer state
                    raise StaleVersion(table_id, version - 1, stored)
            if members is not None:
                set_in_play_tx(con, guild_id, table_id, members)
            apply_tx(con, batch, table_id=table_id, guild_id=guild_id, now=now)
            if log is not None:
                log_tx(con, table_id, version, log, now)
            if results:
                results_tx(con, guild_id, table_id, results, now)

        await self._write(work)

    async def close_table(
        self,
        table_id: str,
        transfers: Sequence[TransferLike] = (),
        log: str | None = "closed",
        *,
        expected_version: int | None = None,
        refund_from_ledger: bool = False,
    ) -> list[Move]:
        """Apply the refund/settlement moves and mark the table closed, in one
        transaction. Refuses (:class:`TableNotEmpty`) if chips would stay in its escrow
        or kitty; :class:`TableClosed` if it is already closed; :class:`StaleVersion`
        when ``expected_version`` is given and the stored table is at another version
        (a stale copy of the table must never close the live one).

        ``refund_from_ledger=True`` ignores ``transfers`` and returns whatever the
        table's escrow and kitty hold to the accounts that put it there, as the ledger
        records them (see :func:`ledger_refunds_tx`): the way to close a table whose
        game state disagrees with the ledger. Returns the moves applied."""
        batch = list(transfers)

        def work(con: Con) -> list[Move]:
            table = table_tx(con, table_id)
            if table is None:
                raise TableNotFound(table_id)
            if not table.is_open:
                raise TableClosed(table_id)
            if expected_version is not None and table.version != expected_version:
                raise StaleVersion(table_id, expected_version, table.version)
            moves = (
                ledger_refunds_tx(con, table_id)
                if refund_from_ledger
                else to_moves(batch, table.guild_id, table_id)
            )
            now = self._now()
            apply_tx(con, moves, table_id=table_id, guild_id=table.guild_id, now=now)
            for row in rows(
                con,
                "SELECT id, balance FROM accounts WHERE table_id = ? AND balance <> 0 ORDER BY id",
                (table_id,),
            ):
                raise TableNotEmpty(table_id, str(row["id"]), int(row["balance"]))
            con.execute("DELETE FROM chips_in_play WHERE table_id = ?", (table_id,))
            con.execute(
                "UPDATE game_tables SET status = 'closed', closed_at = ?, updated_at = ?, "
                "reply_token = NULL, reply_expires = NULL, reply_locale = NULL WHERE id = ?",
                (now, now, table_id),
            )
            if log is not None:
                log_tx(con, table_id, table.version, log, now)
            return moves

        return await self._write(work)

    async def set_table_message(self, table_id: str, message_id: int | None) -> None:
        """Remember the id of the table's public message (no version change)."""

        def work(con: Con) -> None:
            # a new message has not been confirmed to show anything yet
            cur = con.execute(
                "UPDATE game_tables SET message_id = ?, shown_version = NULL, "
                "shown_deadline = NULL WHERE id = ?",
                (message_id, table_id),
            )
            if cur.rowcount == 0:
                raise TableNotFound(table_id)

        await self._write(work)

    async def confirm_shown(self, shown: Sequence[ShownMessage]) -> None:
        """Remember that each message (table id, message id, version, deadline) was seen
        to show its table at that version, counting down to ``deadline`` (epoch seconds;
        None: no countdown), in one transaction; a table whose message has changed
        since, or that closed, is left alone. A (table id, message id, version) triple
        is a message with no countdown."""
        batch = [ShownMessage(*item) for item in shown]

        def work(con: Con) -> None:
            for table_id, message_id, version, deadline in batch:
                con.execute(
                    "UPDATE game_tables SET shown_version = ?, shown_deadline = ? "
                    "WHERE id = ? AND message_id = ? AND status = 'open'",
                    (
                        version,
                        None if deadline is None else float(deadline),
                        table_id,
                        message_id,
                    ),
                )

        if batch:
            await self._write(work)

    async def confirmed_shown(self) -> dict[str, float | None]:
        """The open tables whose message was confirmed to show their stored version, each
        with the moment that message counts down to (epoch seconds; None: none)."""
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT id, shown_deadline FROM game_tables WHERE status = 'open' "
                "AND message_id IS NOT NULL AND shown_version = version",
            )
        )
        return {
            str(r["id"]): None if r["shown_deadline"] is None else float(r["shown_deadline"])
            for r in found
        }

    async def keep_replies(self, replies: Sequence[TableReply]) -> None:
        """Keep each open table's freshest interaction token (migration 017), in one
        transaction; a token that expires before the one kept is not written."""
        batch = [TableReply(*item) for item in replies]

        def work(con: Con) -> None:
            for table_id, token, expires, locale in batch:
                con.execute(
                    "UPDATE game_tables SET reply_token = ?, reply_expires = ?, "
                    "reply_locale = ? WHERE id = ? AND status = 'open' "
                    "AND (reply_expires IS NULL OR reply_expires <= ?)",
                    (token, float(expires), locale, table_id, float(expires)),
                )

        if batch:
            await self._write(work)

    async def table_replies(self) -> dict[str, TableReply]:
        """The open tables' freshest interaction tokens (tables outside servers only)."""
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT id, reply_token, reply_expires, reply_locale FROM game_tables "
                "WHERE status = 'open' AND reply_token IS NOT NULL",
            )
        )
        return {
            str(r["id"]): TableReply(
                str(r["id"]),
                str(r["reply_token"]),
                float(r["reply_expires"] or 0.0),
                str(r["reply_locale"] or ""),
            )
            for r in found
        }

    async def forget_shown(self) -> None:
        """No open table's message is known to show it any more (the sandbox starts with an
        empty channel history): the next start reads back or draws every table message,
        so one that is gone is posted again."""

        def work(con: Con) -> None:
            con.execute(
                "UPDATE game_tables SET shown_version = NULL, shown_deadline = NULL "
                "WHERE status = 'open'"
            )

        await self._write(work)

    async def result_shown(self, table_id: str, round_no: int) -> None:
        """The result post of the table's round ``round_no`` went out (the table's
        version is not touched: its message shows it as it was)."""

        def work(con: Con) -> None:
            con.execute(
                "UPDATE game_tables SET result_shown = ? WHERE id = ? AND status = 'open'",
                (round_no, table_id),
            )

        await self._write(work)

    async def results_shown(self) -> dict[str, int]:
        """The open tables whose result post of a round went out: that round, by table."""
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT id, result_shown FROM game_tables "
                "WHERE status = 'open' AND result_shown IS NOT NULL",
            )
        )
        return {str(r["id"]): int(r["result_shown"]) for r in found}

    async def get_table(self, table_id: str) -> TableRecord | None:
        """The table, open or closed; None if it never existed."""
        return await self._read(lambda con: table_tx(con, table_id))

    async def table_for_channel(self, channel_id: int) -> TableRecord | None:
        """The open table of a channel, if any."""
        row = await self._read(
            lambda con: one(
                con,
                f"SELECT {TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? AND status = 'open'",
                (channel_id,),
            )
        )
        return None if row is None else table_record(row)

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table, oldest first (for reloading after a restart), with what its
        message was confirmed to show."""
        found = await self._read(
            lambda con: rows(
                con,
                f"SELECT {TABLE_COLUMNS}, {SHOWN_COLUMNS} FROM game_tables "
                "WHERE status = 'open' ORDER BY created_at, id",
            )
        )
        return [table_record(r, shown=True) for r in found]

    async def table_log(self, table_id: str, limit: int = 50) -> list[ActionLogEntry]:
        """The table's latest action-log rows, oldest first."""
        limit = max(1, min(int(limit), 1000))
        found = await self._read(
            lambda con: rows(
                con,
                "SELECT table_id, version, ts, description FROM table_actions "
                "WHERE table_id = ? ORDER BY id DESC LIMIT ?",
                (table_id, limit),
            )
        )
        return [
            ActionLogEntry(
                str(r["table_id"]), int(r["version"]), str(r["ts"]), str(r["description"])
            )
            for r in reversed(found)
        ]


__all__ = [
    "TableStore",
    "ledger_refunds_tx",
    "log_tx",
    "set_in_play_tx",
    "share",
    "window_nets_tx",
]
