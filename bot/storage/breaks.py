"""Members' own breaks from play (/break): one row per member and server with its end,
read inside the transactions it must hold back (a daily, a gift) and by the table host
before a seat or a bet (bot/storage/seasons.py starts them)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.base import Con, one
from bot.storage.errors import MemberOnBreak


def moment_text(moment: datetime) -> str:
    """A moment as the break rows store it: UTC, to the second, so that text order is
    time order in SQL on both databases."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def break_ends_tx(con: Con, guild_id: int, user_id: int, moment: datetime) -> datetime | None:
    """The end of the member's break running at ``moment``, or None."""
    row = one(
        con,
        "SELECT ends_at FROM member_breaks WHERE guild_id = ? AND user_id = ? AND ends_at > ?",
        (guild_id, user_id, moment_text(moment)),
    )
    return None if row is None else datetime.fromisoformat(str(row["ends_at"]))


def check_no_break_tx(con: Con, guild_id: int, user_id: int, moment: datetime) -> None:
    """Refuse (:class:`MemberOnBreak`) a member whose break runs at ``moment``."""
    ends = break_ends_tx(con, guild_id, user_id, moment)
    if ends is not None:
        raise MemberOnBreak(ends)


__all__ = ["break_ends_tx", "check_no_break_tx", "moment_text"]
