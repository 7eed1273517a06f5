"""Punto Banco tables: the service where the engine, the ledger and the clock meet.

No discord imports here (the Discord side is the package ``cogs/punto_banco/``). Like
Pontoon's service it is a :class:`bot.host.TableHost` (the registry, locks, reload,
saving, closing and timers are written once there):

* one asyncio.Lock per table; every change is a move of the host
  (:meth:`bot.host.TableHost.move`): ``engine call -> store.save_table(snapshot, ledger
  transfers)`` in ONE transaction, and on any failure the in-memory table is put back
  exactly as it was (a refused bet changes nothing, in memory or on disk);
* every committed change is published by the host to the game's subscribers (the
  presenter, subscribed by start-up); a presentation failure never undoes a move.

A table lives in a channel and cycles through betting windows:

    BETTING (timer: betting_seconds)  --bets?--> DEALING: engine.deal, settlement
       ^                                          transfers + snapshot in one
       |                                          transaction, published: the presenter
       +------------------------------------------ shows the coup card by card and
                                                   the payouts; then a new window opens
    a window with no bets at all: the same window reopens; after ``idle_windows`` empty
    windows in a row the table closes (its escrow is empty then).

Chips: a bet moves member -> ``escrow:{table}`` when placed; settlement moves escrow ->
member (stake back), ``house:{guild}`` -> member (winnings) or escrow -> house (a lost
stake). ``/baccarat end`` and closing return open bets from escrow.

Restart: the snapshot (engine JSON with the bets and the shoe order, plus meta) is
reloaded by :meth:`PuntoBancoService.load`; bets of an open window are kept and the window
closes when the table message's countdown says (when that message was confirmed to show
the table as stored, with at least a second left), else it reopens for a full
``betting_seconds``. A coup that was dealt and settled but whose result was not shown
before the restart is reported by :meth:`missed_result`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.banked import BankedHost, BankedTable
from bot.errors import NoTableHere, ServiceError
from bot.host import (
    Applied,
    Change,
    ChangeKind,
    Holdings,
    clock,
    is_member_seat,
    names_kept,
    seat_of,
)
from bot.i18n import Msg
from bot.storage import Store
from engine.cards import Chance
from engine.punto_banco import (
    CROUPIER,
    Action,
    ActionKind,
    Bet,
    BetOutcome,
    BetResult,
    CoupResult,
    PuntoBancoRules,
    PuntoBancoTable,
    Settlement,
    Side,
)
from engine.records import Transfer

log = logging.getLogger(__name__)

DEAL = Action(CROUPIER, ActionKind.DEAL)  # B-TABLE-1: the bot deals the coup

GAME_PUNTO_BANCO = "punto_banco"
MIN_BETTING_SECONDS = 1.0
MAX_BETTING_SECONDS = 3600.0


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"


class NoPuntoBancoTable(NoTableHere):
    key_of = "err.pb.no_table"
    english = "There is no Punto Banco table in this channel. Open one with `/baccarat start`."


class WindowClosed(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "Betting for that coup has closed; nothing was placed. "
            "Bet on the current coup with the buttons on the newest table message.",
            key="err.pb.window_closed",
        )


@dataclass
class OpenPuntoBancoTable(BankedTable[PuntoBancoTable]):
    """An open Punto Banco table as the bot holds it (engine state plus where it lives;
    ``deadline``: when the betting window closes; ``announced``: the last coup number
    whose result was shown)."""

    phase: Phase = Phase.BETTING
    last_results: list[dict[str, Any]] = field(default_factory=list)

    @property
    def round(self) -> int:
        """The number of the coup being bet on (carried by button custom ids)."""
        return self.engine.coup_no + 1

    def own_meta(self) -> dict[str, Any]:
        return {"phase": self.phase.value, "last_results": self.last_results}

    def restore_own(self, meta: dict[str, Any]) -> None:
        self.phase = Phase(meta["phase"])
        self.last_results = list(meta["last_results"])

    def in_play(self) -> set[int]:
        """Members with chips in play here: everyone with a bet on the coup."""
        return {int(b) for b in self.bettors() if is_member_seat(b)}

    def bettors(self) -> list[str]:
        return list(dict.fromkeys(b.bettor for b in self.engine.bets))


@dataclass(frozen=True)
class BetReceipt:
    """What a member has on the coup after a bet, the chips they hold off the table, and
    the committed change."""

    bets: list[Bet]
    balance: int
    change: Change[OpenPuntoBancoTable]


@dataclass(frozen=True)
class PuntoBancoTimers:
    betting_seconds: float = 20.0  # default betting window of a new table
    idle_windows: int = 2  # empty windows in a row after which a table closes


def results_to_json(settlement: Settlement) -> list[dict[str, Any]]:
    return [
        {"bet": r.bet.to_json(), "outcome": r.outcome.value, "net": r.net}
        for r in settlement.results
    ]


def results_from_json(data: Sequence[dict[str, Any]]) -> tuple[BetResult, ...]:
    return tuple(
        BetResult(Bet.from_json(d["bet"]), BetOutcome(d["outcome"]), int(d["net"])) for d in data
    )


def holdings(engine_state: Any) -> Holdings:
    """What a saved Punto Banco table holds (for the audit): every open bet is its
    bettor's, in the escrow, until the coup settles it."""
    coup = PuntoBancoTable.from_json(engine_state)
    stakes: dict[str, int] = {}
    for bet in coup.bets:
        stakes[bet.bettor] = stakes.get(bet.bettor, 0) + int(bet.amount)
    bettors = frozenset(int(s) for s in stakes if is_member_seat(s))
    return Holdings(coup.escrow, 0, stakes, {}, exact=True, in_play=bettors)


class PuntoBancoService(BankedHost[OpenPuntoBancoTable, PuntoBancoRules, PuntoBancoTimers]):
    """Owns every open Punto Banco table of the process (the registry, locks, saving and
    timers are the host's; opening, reloading and closing a table are shared with the
    other house-banked game, :class:`bot.banked.BankedHost`; bets, coups and betting
    windows are here)."""

    game = GAME_PUNTO_BANCO
    timer_name = "punto_banco"
    title = "Punto Banco"
    timer_failure = "closing the betting window failed"
    window_range = (MIN_BETTING_SECONDS, MAX_BETTING_SECONDS, "err.pb.window_range")
    balance_words = "betting"  # a bettor has a bet on the coup, not a seat
    no_table_error = NoPuntoBancoTable
    closed_message = (
        "err.pb.closed",
        "That Punto Banco table is closed. Open a new one with `/baccarat start`.",
    )
    just_closed_message = ("err.pb.just_closed", "That table has just closed; nothing was placed.")

    def default_timers(self) -> PuntoBancoTimers:
        return PuntoBancoTimers()

    def has_chips_at(self, live: OpenPuntoBancoTable, user_id: int) -> bool:
        return bool(live.engine.bets_of(seat_of(user_id)))

    def chips_in_play_of(self, live: OpenPuntoBancoTable, user_id: int) -> int:
        """The member's open bets on the next coup, every side together."""
        return sum(bet.amount for bet in live.engine.bets_of(seat_of(user_id)))

    # --------------------------------------------------------------- lifecycle
    def new_table(self, common: dict[str, Any], rules: PuntoBancoRules) -> OpenPuntoBancoTable:
        return OpenPuntoBancoTable(**common, engine=PuntoBancoTable(rules))

    def reloaded_table(
        self, common: dict[str, Any], engine: dict[str, Any], meta: dict[str, Any]
    ) -> OpenPuntoBancoTable:
        """A reloaded table: bets of the open window are kept; the window closes when its
        message's countdown says (:meth:`StoredTable.resumed_deadline`), or reopens for a
        full betting period (:meth:`start_clock`)."""
        return OpenPuntoBancoTable(
            **common,
            engine=PuntoBancoTable.from_json(engine),
            last_results=list(meta.get("last_results") or []),
        )

    def missed_result(self, live: OpenPuntoBancoTable) -> CoupResult | None:
        """A coup that was settled but not shown (the bot stopped while dealing)."""
        coup = live.engine.last_coup
        if coup is None or live.announced >= live.engine.coup_no:
            return None
        results = results_from_json(live.last_results)
        return CoupResult(live.engine.coup_no, False, coup, Settlement(results, ()))

    def last_round(self, live: OpenPuntoBancoTable) -> int:
        return live.engine.coup_no

    def start_clock(self, live: OpenPuntoBancoTable, until: float | None = None) -> None:
        """A betting window: a full one from now, or one that closes at ``until`` (epoch
        seconds: the countdown a reloaded table's message shows)."""
        live.phase = Phase.BETTING
        live.deadline, live.closes_at = clock(live.betting_seconds, until)

    # -------------------------------------------------------------------- bets
    def _check_can_bet(self, live: OpenPuntoBancoTable, user_id: int, round_no: int | None) -> None:
        """The coup's window is open and the member's chips are in play at no other table
        (their break and the round limit are asked with their balance, in one call)."""
        if round_no is not None and round_no != live.round:
            raise WindowClosed()
        if live.phase is not Phase.BETTING:
            raise ServiceError(
                "The cards are being dealt; bets for the next coup open in a moment.",
                key="err.pb.dealing",
            )
        self.check_member_free(live.guild_id, user_id, live)

    async def bet(
        self,
        table_id: str,
        user_id: int,
        side: Side | str,
        amount: int,
        *,
        round_no: int | None = None,
        name: str | None = None,
    ) -> BetReceipt:
        """Place a bet on ``side``, or change the member's bet on that side to ``amount``
        (B-BET-1). The stake moves member -> escrow in the same transaction as the
        table snapshot. A bet the member cannot cover is refused and changes nothing."""
        try:
            chosen = Side(side)
        except ValueError:
            raise ServiceError("Bet on punto, banco or egalite.", key="err.pb.side") from None
        seat = seat_of(user_id)
        return await self._stake(
            table_id,
            user_id,
            lambda balance: Action(seat, ActionKind.BET, chosen, amount, balance),
            f"{seat} bets {amount} on {chosen.value}",
            round_no=round_no,
            name=name,
        )

    async def repeat(
        self,
        table_id: str,
        user_id: int,
        *,
        round_no: int | None = None,
        name: str | None = None,
    ) -> BetReceipt:
        """B-BET-1: place the member's bets of the previous coup again (all or nothing)."""
        seat = seat_of(user_id)
        return await self._stake(
            table_id,
            user_id,
            lambda balance: Action(seat, ActionKind.REPEAT, balance=balance),
            f"{seat} repeats last bets",
            round_no=round_no,
            name=name,
        )

    async def _stake(
        self,
        table_id: str,
        user_id: int,
        action: Callable[[int], Action],
        note: str,
        *,
        round_no: int | None,
        name: str | None,
    ) -> BetReceipt:
        """A bet or a repeat: a move with the member's balance from the ledger
        (``action`` builds the engine action from it), then the receipt."""
        seat = seat_of(user_id)

        async def plan(live: OpenPuntoBancoTable) -> list[Action]:
            self._check_can_bet(live, user_id, round_no)
            balance = await self.check_stake(live.guild_id, user_id, round_limit=True, balance=True)
            assert balance is not None  # asked for
            if name:
                live.names[seat] = name[:64]  # put back with the table if the bet fails
            return [action(balance)]

        change = await self.move(table_id, plan, note=note)
        return await self._receipt(change, user_id)

    async def withdraw(
        self,
        table_id: str,
        user_id: int,
        side: Side | str | None = None,
        *,
        round_no: int | None = None,
    ) -> BetReceipt:
        """Take back one bet (or all of the member's bets) before the coup is dealt."""
        seat = seat_of(user_id)
        chosen = None if side is None else Side(side)

        async def plan(live: OpenPuntoBancoTable) -> list[Action]:
            if round_no is not None and round_no != live.round:
                raise WindowClosed()
            if live.phase is not Phase.BETTING:
                raise ServiceError(
                    "The cards are being dealt; bets can no longer be taken back.",
                    key="err.pb.no_withdraw",
                )
            # one side, or every bet of the member (side None); the engine refuses
            # taking back what is not there
            return [Action(seat, ActionKind.WITHDRAW, chosen)]

        change = await self.move(
            table_id,
            plan,
            closed=lambda: ServiceError(
                "That table has just closed; its bets were returned.",
                key="err.pb.closed_returned",
            ),
            note=f"{seat} withdraws {chosen or 'all'}",
        )
        return await self._receipt(change, user_id)

    async def _receipt(self, change: Change[OpenPuntoBancoTable], user_id: int) -> BetReceipt:
        """After a committed bet: what the member has on the coup and holds off the
        table, with the change."""
        live = change.table
        bets = live.engine.bets_of(seat_of(user_id))
        balance = await self.store.member_balance(live.guild_id, user_id)
        return BetReceipt(bets, balance, change)

    def after_apply(self, live: OpenPuntoBancoTable, applied: Applied, *, by_timer: bool) -> None:
        """A dealt coup: the table shows it (DEALING) and keeps its results; the coup's
        post names its bettors, so nothing names the ones before."""
        for outcome in applied.outcomes:
            result: CoupResult | None = outcome.coup
            if result is None:
                continue
            live.phase = Phase.DEALING
            live.empty_windows = 0
            live.last_results = results_to_json(result.settlement)
            live.names = names_kept(
                live.names, (r.bet.bettor for r in result.settlement.results), live.opener_id
            )

    # -------------------------------------------------------------------- coups
    async def close_window(self, table_id: str) -> CoupResult | None:
        """End the betting window now: deal and settle the coup if anyone bet, otherwise
        reopen the window (or close the table after ``idle_windows`` empty windows).
        Returns the coup, or None when nothing was dealt. The timer calls this."""
        live = self.get(table_id)
        result: CoupResult | None = None
        close_reason: Msg | None = None
        async with self.lock(table_id):
            if table_id not in self.tables or live.phase is not Phase.BETTING:
                return None
            if not live.engine.bets:
                live.empty_windows += 1
                if live.empty_windows >= self.timers.idle_windows:
                    close_reason = Msg("reason.pb_idle", windows=live.empty_windows)
                else:
                    try:
                        await self._persist(live, [], "empty window", before=live.snapshot())
                    finally:
                        self.start_clock(live)
                    self.publish(Change.of(live, ChangeKind.SAVED))
            else:
                try:
                    change = await self.commit(
                        live, [DEAL], note=lambda outcomes: _coup_note(outcomes[0].coup)
                    )
                except BaseException:
                    self.start_clock(live)  # try again after another window
                    raise
                result = change.outcomes[0].coup
                assert result is not None
                live.deadline = live.closes_at = None
        if close_reason is not None:
            try:
                await self.close(table_id, close_reason)
            except BaseException:
                self.start_clock(live)  # betting stays open until the next try
                raise
            return None
        if result is None:
            return None
        await self.delivered(table_id)  # the coup is shown before the next window opens
        await self._next_window(live)
        return result

    async def _next_window(self, live: OpenPuntoBancoTable) -> None:
        async with self.lock(live.table_id):
            if live.table_id not in self.tables:
                return
            live.announced = live.engine.coup_no
            live.message_id = None  # each window gets a fresh message at the bottom
            self.start_clock(live)
            try:
                await self._persist(live, [], "betting open")
            except Exception:  # the state in memory is right; the next write catches up
                log.exception("saving the new window of %s failed", live.table_id)
            self.publish(Change.of(live, ChangeKind.SAVED))  # a new message, at the bottom

    # ------------------------------------------------------------------- close
    def refunds_of(self, live: OpenPuntoBancoTable) -> list[Transfer]:
        """Every open bet (:meth:`close` returns them from escrow to their owners)."""
        return [
            t
            for b in live.bettors()
            for t in live.engine.apply(Action(b, ActionKind.WITHDRAW)).transfers
        ]

    # ------------------------------------------------------------------ timers
    def may_cancel_timer(self, live: OpenPuntoBancoTable) -> bool:
        """The timer stops by itself once the table is gone; it is cancelled only while
        it waits, never in the middle of showing a coup that is already settled."""
        return live.phase is Phase.BETTING

    async def time_up(self, table_id: str) -> None:
        """The betting window is over: deal, or reopen it. A failure reopens the window
        (betting stays open until the next try: at least a full window, or the host's
        back-off when that is longer)."""
        await self.close_window(table_id)


def _coup_note(result: CoupResult) -> str:
    coup = result.coup
    cards = " ".join(f"{s.value[0].upper()}:{c.code}" for s, c in coup.dealt)
    return (
        f"coup {result.coup_no}: {cards} -> punto {coup.punto_total} banco {coup.banco_total}, "
        f"{coup.winner.value}"
    )


def build_service(
    store: Store,
    timers: PuntoBancoTimers,
    *,
    chance: Chance | None,
    owns_guild: Callable[[int], bool],
) -> PuntoBancoService:
    """Punto Banco's service with its betting window from Punto Banco's settings
    (start-up calls this through the game registry, :mod:`bot.games`)."""
    return PuntoBancoService(store, timers=timers, chance=chance, owns_guild=owns_guild)


__all__ = [
    "GAME_PUNTO_BANCO",
    "BetReceipt",
    "NoPuntoBancoTable",
    "OpenPuntoBancoTable",
    "Phase",
    "PuntoBancoService",
    "PuntoBancoTimers",
    "WindowClosed",
    "build_service",
    "holdings",
]
