"""A server's economy over time: a fresh season (/casino reset), a member's own break
(/break) and chips given between members (/give). No discord here; the storage does the
chip moves (bot/storage/seasons.py), this module what comes around them.

* **Reset**: every open table of the server, whatever its game, is closed through its
  own service's ``close`` (each stake goes back to its owner, as /end or an idle close
  does), then the store closes the season and moves every balance to the starting
  chips in one transaction, which refuses while a table is open: a table opened in
  between is closed too, and the reset tried again. One reset at a time per server;
  a confirmation names the season it closes, so a second click (or a second owner)
  resets nothing twice. ``Seasons.after_reset`` lets start-up add what else a reset
  writes (the server's settings trail: :func:`trail_fields`).
* **Break**: from :data:`SHORTEST_BREAK` to :data:`LONGEST_BREAK`; the table host
  (``TableHost.check_may_stake``) and the store (daily, gifts) refuse during it.
* **Give**: off by default, per-day cap per giver (the server's settings), never to
  oneself or a bot, never during the giver's break, and only to a member who
  :func:`may_receive_chips`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.errors import ServiceError
from bot.host import KeyedLocks
from bot.i18n import Msg
from bot.storage.errors import TablesStillOpen
from bot.storage.models import MAX_GRANT, SeasonPreview, SeasonReset

log = logging.getLogger(__name__)

SHORTEST_BREAK = timedelta(hours=1)
LONGEST_BREAK = timedelta(days=30)
#: the units /break takes its length in
BREAK_UNITS: Mapping[str, timedelta] = {
    "minutes": timedelta(minutes=1),
    "hours": timedelta(hours=1),
    "days": timedelta(days=1),
}
RESET_TRIES = 3  # tables opened while a reset closes the others: closed on the next try
RESET_REASON = Msg("reason.season_reset")


def break_length(number: int, unit: str) -> timedelta:
    """The length of a break of ``number`` ``unit`` (minutes, hours, days), refused
    outside one hour to thirty days (zero minutes, ten years...)."""
    size = BREAK_UNITS.get(unit)
    if size is None:
        raise ServiceError(f"No unit {unit!r}.", key="err.break.unit")
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise ServiceError("A break lasts a positive time.", key="err.break.range")
    if number > LONGEST_BREAK // size:  # (no timedelta overflow for 10**18 days)
        raise ServiceError("A break lasts one hour to thirty days.", key="err.break.range")
    length = size * number
    if not SHORTEST_BREAK <= length <= LONGEST_BREAK:
        raise ServiceError("A break lasts one hour to thirty days.", key="err.break.range")
    return length


class BreakStore(Protocol):
    async def start_break(
        self, guild_id: int, user_id: int, length: timedelta, *, now: datetime | None = None
    ) -> datetime: ...


async def take_break(
    store: BreakStore, guild_id: int, user_id: int, number: int, unit: str
) -> datetime:
    """Start the member's break of ``number`` ``unit``; returns when it ends. It cannot be
    shortened (a shorter one than the running break is refused)."""
    return await store.start_break(guild_id, user_id, break_length(number, unit))


# ---------------------------------------------------------------------- seasons
class ClosesTables(Protocol):
    """A game's service as a reset uses it: its open tables by server, and its close."""

    @property
    def by_guild(self) -> Mapping[int, Mapping[str, Any]]: ...

    async def close(self, table_id: str, reason: Msg) -> Any: ...


class SeasonStoreLike(Protocol):
    async def season_preview(self, guild_id: int) -> SeasonPreview: ...

    async def reset_season(
        self,
        guild_id: int,
        by_user_id: int | None,
        *,
        season: int | None = None,
        tables_closed: int = 0,
    ) -> SeasonReset: ...


@dataclass(frozen=True, slots=True)
class ResetPlan:
    """What a reset would do now, as its confirmation says it."""

    season: int  # the season it closes (the next one starts)
    members: int  # balances that go back to the starting chips
    starting_chips: int
    tables: int  # open tables it closes, every stake returned


def trail_fields(reset: SeasonReset) -> tuple[int | None, str, str, str, str]:
    """A reset as a line of the server's settings trail: (who, what, old value, new
    value, when), for start-up to write there with :attr:`Seasons.after_reset`."""
    return (
        reset.by_user_id,
        "season",
        str(reset.season),
        f"{reset.season + 1} ({reset.starting_chips} chips each)",
        reset.ended_at,
    )


class Seasons:
    """Resets of a server's season, over every game's service (``games()``)."""

    def __init__(self, store: SeasonStoreLike, games: Callable[[], Iterable[ClosesTables]]) -> None:
        self.store = store
        self.games = games
        self._locks = KeyedLocks()  # one reset at a time per server
        #: called after every reset with what it did (e.g. to write the settings trail);
        #: a failure there is logged and does not undo the reset
        self.after_reset: list[Callable[[SeasonReset], Awaitable[None]]] = []

    def open_tables(self, guild_id: int) -> list[tuple[ClosesTables, str]]:
        return [
            (game, table_id)
            for game in self.games()
            for table_id in list(game.by_guild.get(guild_id, {}))
        ]

    async def plan(self, guild_id: int) -> ResetPlan:
        preview = await self.store.season_preview(guild_id)
        return ResetPlan(
            preview.season,
            preview.members,
            preview.starting_chips,
            len(self.open_tables(guild_id)),
        )

    async def reset(self, guild_id: int, by_user_id: int | None, season: int) -> SeasonReset:
        """Close the server's open tables (every stake returned) and its season
        ``season`` (the one the owner confirmed), every balance back to the starting
        chips through the ledger. :class:`bot.storage.SeasonAlreadyReset` when that
        season was closed meanwhile (nothing happens twice)."""
        async with self._locks.hold(guild_id):
            closed = 0
            for attempt in range(1, RESET_TRIES + 1):
                for game, table_id in self.open_tables(guild_id):
                    await game.close(table_id, RESET_REASON)
                    closed += 1
                try:
                    done = await self.store.reset_season(
                        guild_id, by_user_id, season=season, tables_closed=closed
                    )
                except TablesStillOpen:
                    if attempt == RESET_TRIES:
                        raise
                    continue
                break
        for hook in self.after_reset:
            try:
                await hook(done)
            except Exception:
                log.exception("after the reset of server %s: a hook failed", guild_id)
        return done


# ------------------------------------------------------------------------ gifts
class AgeGate(Protocol):
    async def too_new_until(
        self,
        guild_id: int,
        user_id: int,
        *,
        joined: datetime | None = None,
        now: datetime | None = None,
    ) -> datetime | None: ...


class GiftStore(AgeGate, Protocol):
    async def give(
        self,
        guild_id: int,
        giver_id: int,
        receiver_id: int,
        amount: int,
        *,
        now: datetime | None = None,
    ) -> tuple[int, int]: ...


async def may_receive_chips(
    store: AgeGate,
    guild_id: int,
    user_id: int,
    joined_at: datetime | None,
    now: datetime | None = None,
) -> bool:
    """Whether the member may be given chips in the server: not while the server's age
    gates (a new account, a new member of the server: /casino settings) say they are
    too new, as they get no starting chips and no daily then (the store's one gate,
    ``Store.too_new_until``). ``joined_at``: when they joined the server, as Discord
    says (None: as the store knows it)."""
    return await store.too_new_until(guild_id, user_id, joined=joined_at, now=now) is None


async def give_chips(
    store: GiftStore,
    guild_id: int,
    giver_id: int,
    receiver_id: int,
    amount: int,
    *,
    receiver_is_bot: bool,
    joined_at: datetime | None = None,
) -> tuple[int, int]:
    """One member gives another chips (see the module); returns (the giver's balance,
    what they may still give today). Refusals change nothing."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_GRANT:
        raise ServiceError(
            "Give a whole number of chips, at least 1.", key="err.give.amount", high=MAX_GRANT
        )
    if receiver_is_bot:
        raise ServiceError("Bots do not hold chips.", key="chips.bots")
    if giver_id == receiver_id:
        raise ServiceError("You cannot give chips to yourself.", key="err.give.self")
    if not await may_receive_chips(store, guild_id, receiver_id, joined_at):
        raise ServiceError("That member cannot be given chips yet.", key="err.give.not_yet")
    return await store.give(guild_id, giver_id, receiver_id, amount)


__all__ = [
    "BREAK_UNITS",
    "LONGEST_BREAK",
    "SHORTEST_BREAK",
    "ResetPlan",
    "Seasons",
    "break_length",
    "give_chips",
    "may_receive_chips",
    "take_break",
    "trail_fields",
]
