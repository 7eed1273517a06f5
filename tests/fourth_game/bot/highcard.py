"""High Card's service (the tests' fourth game): a table the house banks
(:class:`bot.banked.BankedHost`), where members join, stake and call the draw with the
table message's buttons. Its clock only closes a table nobody stakes at: after
``idle_windows`` windows of ``betting_seconds`` without a stake it closes (any stake
in escrow goes back)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.banked import BankedHost, BankedTable
from bot.errors import NoTableHere
from bot.host import Applied, Change, Holdings, clock, is_member_seat, seat_of
from bot.i18n import Msg
from bot.storage import Store
from engine.cards import Chance
from engine.records import ESCROW, Transfer
from tests.fourth_game.engine.highcard import (
    Action,
    ActionKind,
    HighCardRules,
    HighCardTable,
)

GAME_HIGHCARD = "highcard"


class NoHighCardTable(NoTableHere):
    key_of = "err.hc.no_table"
    english = "There is no High Card table in this channel. Open one with `/highcard start`."


@dataclass
class OpenHighCardTable(BankedTable[HighCardTable]):
    """An open High Card table as the bot holds it."""

    @property
    def round(self) -> int:
        return self.engine.round_no + 1

    def in_play(self) -> set[int]:
        return {int(s) for s, stake in self.engine.seats.items() if stake and is_member_seat(s)}


@dataclass(frozen=True)
class HighCardTimers:
    betting_seconds: float = 60.0  # how long a table waits for a stake
    idle_windows: int = 2  # windows without a stake after which it closes


def holdings(engine_state: Any) -> Holdings:
    """What a saved High Card table holds (for the audit): each stake is its member's."""
    table = HighCardTable.from_json(engine_state)
    stakes = {s: n for s, n in table.seats.items() if n}
    in_play = frozenset(int(s) for s in stakes if is_member_seat(s))
    return Holdings(table.escrow, 0, stakes, {}, exact=True, in_play=in_play)


class HighCardService(BankedHost[OpenHighCardTable, HighCardRules, HighCardTimers]):
    game = GAME_HIGHCARD
    timer_name = "highcard"
    title = "High Card"
    timer_failure = "closing the idle table failed"
    window_range = (5.0, 3600.0, "err.hc.window_range")
    no_table_error = NoHighCardTable
    closed_message = ("err.hc.closed", "That High Card table is closed.")

    def default_timers(self) -> HighCardTimers:
        return HighCardTimers()

    def has_chips_at(self, live: OpenHighCardTable, user_id: int) -> bool:
        return bool(live.engine.stake_of(seat_of(user_id)))

    def chips_in_play_of(self, live: OpenHighCardTable, user_id: int) -> int:
        return live.engine.stake_of(seat_of(user_id))

    def new_table(self, common: dict[str, Any], rules: HighCardRules) -> OpenHighCardTable:
        return OpenHighCardTable(**common, engine=HighCardTable(rules))

    def reloaded_table(
        self, common: dict[str, Any], engine: dict[str, Any], meta: dict[str, Any]
    ) -> OpenHighCardTable:
        return OpenHighCardTable(**common, engine=HighCardTable.from_json(engine))

    def start_clock(self, live: OpenHighCardTable, until: float | None = None) -> None:
        live.deadline, live.closes_at = clock(live.betting_seconds, until)

    def last_round(self, live: OpenHighCardTable) -> int:
        return live.engine.round_no

    def refunds_of(self, live: OpenHighCardTable) -> list[Transfer]:
        return [
            Transfer(ESCROW, seat, stake, "table closed")
            for seat, stake in live.engine.seats.items()
            if stake
        ]

    def after_apply(self, live: OpenHighCardTable, applied: Applied, *, by_timer: bool) -> None:
        """Any move keeps the table open for another window."""
        live.empty_windows = 0
        if any(a.kind is ActionKind.DRAW for a in applied.actions):
            live.announced = live.engine.round_no
        self.start_clock(live)

    async def time_up(self, table_id: str) -> None:
        """A window went by: a table without a move for ``idle_windows`` windows closes
        (any stake back to its member); otherwise it waits another window."""
        live = self.get(table_id)
        if live.empty_windows + 1 >= self.timers.idle_windows:
            await self.close(table_id, Msg("reason.hc_idle"))
            return
        async with self.lock(table_id):
            if table_id not in self.tables:
                return
            live.empty_windows += 1
            self.start_clock(live)
            await self._persist(live, [], "window without a move")

    # ----------------------------------------------------------------- moves
    async def play(
        self,
        table_id: str,
        user_id: int,
        kind: ActionKind,
        *,
        amount: int | None = None,
        version: int | None = None,
        name: str | None = None,
    ) -> Change[OpenHighCardTable]:
        """A member's Join, Bet or Draw (the engine says whether it is allowed now; a
        refusal changes nothing). A stake is checked against the chips they hold."""
        seat = seat_of(user_id)

        async def plan(live: OpenHighCardTable) -> list[Action]:
            balance = None
            if kind is not ActionKind.DRAW:
                if kind is ActionKind.BET:
                    await self.check_may_stake(live.guild_id, user_id, at=live)
                balance = await self.store.ensure_member(live.guild_id, user_id)
            if name:
                live.names[seat] = name[:64]
            return [Action(seat, kind, amount, balance)]

        return await self.move(table_id, plan, version=version, note=f"{seat} {kind.value}")


def build_service(
    store: Store,
    timers: HighCardTimers,
    *,
    chance: Chance | None,
    owns_guild: Callable[[int], bool],
) -> HighCardService:
    return HighCardService(store, timers=timers, chance=chance, owns_guild=owns_guild)


__all__ = [
    "GAME_HIGHCARD",
    "HighCardService",
    "HighCardTimers",
    "NoHighCardTable",
    "OpenHighCardTable",
    "build_service",
    "holdings",
]
