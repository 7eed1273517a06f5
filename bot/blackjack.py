"""Blackjack tables: the service where the engine, the ledger and the clock meet.

No discord imports here (the Discord side is the package ``cogs/blackjack/``). Like the
other games' services it is a :class:`bot.host.TableHost` (the registry, locks, reload,
saving, closing and timers are written once there):

* every change is a move of the host (:meth:`bot.host.TableHost.move`): under the table's
  lock, ``engine.apply -> store.save_table(snapshot, ledger transfers)`` in ONE
  transaction, and on any failure the in-memory table is put back exactly as it was (a
  refused move changes nothing, in memory or on disk); the game keeps only its own
  checks (the plan it passes) and bookkeeping (:meth:`BlackjackService.after_apply`);
  the timers move through the same path, under the host's one back-off;
* every committed change is published by the host to the game's subscribers (the
  presenter, subscribed by start-up): the service returns the change and knows nothing
  of how it is shown; a member's click is answered by its handler from that change.

A table cycles through rounds:

    BETTING (timer: betting_seconds) --bets, or every seat has bet--> DEAL
       ^                                                               |
       |     insurance / the players' hands (timer: turn_seconds each: |
       |     BJ-TIMER-1 stands for a player who does not act)          v
       +---- the round's result is posted, a new betting window <-- settled

A window that closes with no bet at all opens again; after ``idle_windows`` empty
windows in a row the table closes (nothing is in escrow then but bets that were taken
back). Closing at any moment returns every chip still on the table to its owner.

Chips: bets, doubles, splits and insurance move member -> ``escrow:{table}`` when placed
(BJ-CHIPS-1); settlement moves escrow -> member (a stake back), ``house:{guild}`` ->
member (winnings) or escrow -> house (a loss).

Restart: the snapshot (engine JSON with the shoe order, plus meta) is reloaded by
:meth:`BlackjackService.load`; a round in play resumes where it was and a betting window
reopens, each with the time the table message's countdown shows (when that message was
confirmed to show the table as stored, with at least a second left), else with a full
turn or a full ``betting_seconds``; a round that was settled but not shown is posted
late (:meth:`missed_result`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.banked import BankedHost, BankedTable
from bot.errors import NoTableHere, NotSeated, ServiceError, StaleButton
from bot.host import Applied, Change, Holdings, clock, is_member_seat, names_kept, seat_of
from bot.i18n import Msg
from bot.storage import Store
from engine.blackjack import (
    DEALER,
    Action,
    ActionKind,
    BlackjackRules,
    BlackjackTable,
    EventKind,
    Outcome,
    Phase,
    RoundResult,
)
from engine.blackjack.hint import BlackjackHint
from engine.blackjack.hint import hint as blackjack_hint
from engine.cards import Chance
from engine.errors import RuleError
from engine.records import ESCROW, Transfer

#: the refusal to a member not seated here: it names Blackjack's own Join button
NOT_SEATED = "engine.bj.not_seated"

log = logging.getLogger(__name__)

GAME_BLACKJACK = "blackjack"
MIN_BETTING_SECONDS = 5.0
MAX_BETTING_SECONDS = 3600.0
DEAL = Action(DEALER, ActionKind.DEAL)
TIMEOUT = Action(DEALER, ActionKind.TIMEOUT)
# the moves of a hand: their buttons carry the table's version, so a second click on
# the same state (a double click, an old message) is refused as stale
PLAY_KINDS = frozenset(
    {ActionKind.HIT, ActionKind.STAND, ActionKind.DOUBLE, ActionKind.SPLIT, ActionKind.SURRENDER}
)
# the moves that stake chips from the member's balance: only these read it from the
# ledger (a Hit or a Stand moves none of the member's chips)
STAKE_KINDS = frozenset(
    {ActionKind.JOIN, ActionKind.BET, ActionKind.INSURANCE, ActionKind.DOUBLE, ActionKind.SPLIT}
)
# the moves after which the next player's turn gets a full clock
TURN_KINDS = PLAY_KINDS | {ActionKind.DEAL, ActionKind.INSURANCE, ActionKind.TIMEOUT}


class NoBlackjackTable(NoTableHere):
    key_of = "err.bj.no_table"
    english = "There is no Blackjack table in this channel. Open one with `/blackjack start`."


@dataclass
class OpenBlackjackTable(BankedTable[BlackjackTable]):
    """An open Blackjack table as the bot holds it (engine state plus where it lives;
    ``announced``: the last round whose result was posted)."""

    turn_seconds: float
    # what the table says publicly about the round being played (BJ-TIMER-1, BJ-TABLE-2)
    notes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def round(self) -> int:
        """The round being bet on or played (carried by the betting buttons)."""
        e = self.engine
        return e.round_no if e.phase in (Phase.INSURANCE, Phase.PLAYING) else e.round_no + 1

    @property
    def betting(self) -> bool:
        return self.engine.phase in (Phase.BETTING, Phase.ROUND_OVER)

    def own_meta(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "notes": self.notes}

    def restore_own(self, meta: dict[str, Any]) -> None:
        self.notes = list(meta.get("notes") or [])

    def in_play(self) -> set[int]:
        """Members playing here: everyone seated, with a bet or not yet (one seat per
        server, whatever the game: a seat here blocks a seat or a bet elsewhere, as a
        Pontoon seat does)."""
        return {int(s) for s in self.engine.seats if is_member_seat(s)}


@dataclass(frozen=True)
class BlackjackTimers:
    betting_seconds: float = 30.0  # BJ-BET-1: the betting window of a new table
    turn_seconds: float = 45.0  # BJ-TIMER-1: how long a player has to act
    idle_windows: int = 3  # empty windows in a row after which a table closes


def refunds(engine: BlackjackTable) -> list[Transfer]:
    """Every chip still on the table back to its owner (a table closed mid-round)."""
    out = []
    for seat in engine.seats:
        stake = engine.stake_of(seat)
        if stake:
            out.append(Transfer(ESCROW, seat, stake, "blackjack table closed"))
    return out


def holdings(engine_state: Any) -> Holdings:
    """What a saved Blackjack table holds (for the audit): every chip in escrow belongs
    to the seat that staked it until the round settles it. Every seated member is in
    play there (a seat counts, with or without a bet)."""
    table = BlackjackTable.from_json(engine_state)
    stakes = {s: table.stake_of(s) for s in table.seats if table.stake_of(s)}
    members = frozenset(int(s) for s in table.seats if is_member_seat(s))
    return Holdings(table.escrow, 0, stakes, {}, exact=True, in_play=members)


class BlackjackService(BankedHost[OpenBlackjackTable, BlackjackRules, BlackjackTimers]):
    """Owns every open Blackjack table of the process (the registry, locks, saving and
    timers are the host's; opening, reloading and closing a table are shared with the
    other house-banked game, :class:`bot.banked.BankedHost`; seats, bets, hands and the
    betting windows are here)."""

    game = GAME_BLACKJACK
    timer_name = "blackjack"
    title = "Blackjack"
    timer_failure = "its timer failed"
    window_range = (MIN_BETTING_SECONDS, MAX_BETTING_SECONDS, "err.bj.window_range")
    no_table_error = NoBlackjackTable
    closed_message = (
        "err.bj.closed",
        "That Blackjack table is closed. Open a new one with `/blackjack start`.",
    )

    def default_timers(self) -> BlackjackTimers:
        return BlackjackTimers()

    def has_chips_at(self, live: OpenBlackjackTable, user_id: int) -> bool:
        return seat_of(user_id) in live.engine.seats

    def chips_in_play_of(self, live: OpenBlackjackTable, user_id: int) -> int:
        """The member's chips on the table: the bet, or every stake of the round."""
        return live.engine.stake_of(seat_of(user_id))

    # --------------------------------------------------------------- lifecycle
    def new_table(self, common: dict[str, Any], rules: BlackjackRules) -> OpenBlackjackTable:
        return OpenBlackjackTable(
            **common, engine=BlackjackTable(rules), turn_seconds=self.timers.turn_seconds
        )

    def reloaded_table(
        self, common: dict[str, Any], engine: dict[str, Any], meta: dict[str, Any]
    ) -> OpenBlackjackTable:
        return OpenBlackjackTable(
            **common,
            engine=BlackjackTable.from_json(engine),
            turn_seconds=float(meta.get("turn_seconds", self.timers.turn_seconds)),
            notes=list(meta.get("notes") or []),
        )

    def missed_result(self, live: OpenBlackjackTable) -> RoundResult | None:
        """A round that was settled but whose result was not posted (a restart)."""
        if live.announced >= self.last_round(live):
            return None
        return live.engine.last_result

    def last_round(self, live: OpenBlackjackTable) -> int:
        result = live.engine.last_result
        return 0 if result is None else result.round_no

    def start_clock(self, live: OpenBlackjackTable, until: float | None = None) -> None:
        """A full betting window, or a full turn, from now; or one that runs out at
        ``until`` (epoch seconds: the countdown a reloaded table's message shows)."""
        seconds = live.betting_seconds if live.betting else live.turn_seconds
        live.deadline, live.closes_at = clock(seconds, until)

    # ------------------------------------------------------------- members' moves
    async def join(
        self, table_id: str, user_id: int, *, name: str | None = None
    ) -> Change[OpenBlackjackTable]:
        """BJ-TABLE-1: take a seat (seven at most)."""

        def check(live: OpenBlackjackTable) -> None:
            self.check_member_free(live.guild_id, user_id, at=live)

        return await self._member_move(
            table_id,
            user_id,
            ActionKind.JOIN,
            name=name,
            check=check,
        )

    async def leave(self, table_id: str, user_id: int) -> Change[OpenBlackjackTable]:
        """Leave the seat (a bet for the next round comes back; not mid-hand). When every
        member still seated has bet, the round is dealt at once (BJ-BET-1)."""
        return await self._member_move(table_id, user_id, ActionKind.LEAVE, deal_when_all_bet=True)

    async def bet(
        self,
        table_id: str,
        user_id: int,
        amount: int,
        *,
        round_no: int | None = None,
        name: str | None = None,
    ) -> Change[OpenBlackjackTable]:
        """BJ-BET-1: set the member's bet for the next round (the stake moves to escrow in
        the same transaction). When every seated member has bet, the round is dealt at
        once (a move of its own: if the deal fails, the bet stands and the window's timer
        deals); the change returned is then the bet and the deal."""

        def check(live: OpenBlackjackTable) -> None:
            if round_no is not None and round_no != live.round:
                raise StaleButton()
            self.check_member_free(live.guild_id, user_id, at=live)

        return await self._member_move(
            table_id,
            user_id,
            ActionKind.BET,
            amount,
            name=name,
            check=check,
            deal_when_all_bet=True,
        )

    def same_bet_amount(self, live: OpenBlackjackTable, user_id: int) -> int:
        """The member's bet of the last round (what **Same bet** places)."""
        amount = live.engine.last_bets.get(seat_of(user_id))
        if not amount:
            raise ServiceError(
                "You had no bet on the last round to place again.", key="err.bj.no_last_bet"
            )
        return amount

    async def insure(
        self,
        table_id: str,
        user_id: int,
        amount: int,
        *,
        round_no: int | None = None,
    ) -> Change[OpenBlackjackTable]:
        """BJ-INS-1: insurance (0 declines) when the dealer shows an ace."""

        def check(live: OpenBlackjackTable) -> None:
            if round_no is not None and round_no != live.round:
                raise StaleButton()

        return await self._member_move(table_id, user_id, ActionKind.INSURANCE, amount, check=check)

    async def play(
        self,
        table_id: str,
        user_id: int,
        kind: ActionKind,
        *,
        version: int | None = None,
        amount: int | None = None,
    ) -> Change[OpenBlackjackTable]:
        """A move of the hand being played: hit, stand, double, split, surrender.
        ``version``: the table state the button was drawn for (stale: refused)."""
        if kind not in PLAY_KINDS:
            raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
        return await self._member_move(table_id, user_id, kind, amount, version=version)

    def hint(self, table_id: str, user_id: int) -> BlackjackHint:
        """The hint for the member's hand being played, or their insurance question
        (engine/blackjack/hint.py): from the cards the table has shown since the last
        shuffle, never the face-down card. Changes nothing; refused (ServiceError) when
        the member is not seated here or has nothing to decide now."""
        live = self.get(table_id)
        seat = seat_of(user_id)
        if seat not in live.engine.seats:
            raise NotSeated(NOT_SEATED)
        start = time.perf_counter()
        try:
            found = blackjack_hint(live.engine, seat)
        except RuleError as exc:
            raise ServiceError(
                "A hint is for the hand you are playing, when it is your turn.",
                key="err.bj.hint_not_your_turn",
            ) from exc
        log.info("table %s: hint in %.1f ms", table_id, (time.perf_counter() - start) * 1000)
        return found

    async def _member_move(
        self,
        table_id: str,
        user_id: int,
        kind: ActionKind,
        amount: int | None = None,
        *,
        name: str | None = None,
        check: Callable[[OpenBlackjackTable], None] | None = None,
        version: int | None = None,
        deal_when_all_bet: bool = False,
    ) -> Change[OpenBlackjackTable]:
        """One member's move through the host's :meth:`move`: the game's own checks and,
        for a move that stakes chips, the member's balance from the ledger (under the
        table's lock), the action; then the deal if every seated member has bet. Returns
        the change (both moves, when the deal followed)."""
        seat = seat_of(user_id)

        async def plan(live: OpenBlackjackTable) -> list[Action]:
            if check is not None:
                check(live)
            if kind is not ActionKind.JOIN and seat not in live.engine.seats:
                raise NotSeated(NOT_SEATED)
            balance: int | None = None
            if kind in (ActionKind.JOIN, ActionKind.BET):  # a new seat, a new stake
                balance = await self.check_stake(
                    live.guild_id, user_id, round_limit=kind is ActionKind.BET, balance=True
                )
            elif kind in STAKE_KINDS:  # more chips on a hand in play: a break lets it finish
                balance = await self.store.ensure_member(live.guild_id, user_id)
            if name:
                live.names[seat] = name[:64]  # put back with the table if the move fails
            return [Action(seat, kind, amount, balance)]

        change = await self.move(table_id, plan, version=version)
        changes = [change]
        live = self.tables.get(table_id)
        if deal_when_all_bet and live is not None and _all_have_bet(live.engine):
            try:
                dealt = await self._deal(live)
            except Exception:  # the bet stands; the window's timer deals instead
                log.warning("table %s: dealing at once failed", table_id, exc_info=True)
            else:
                if dealt is not None:
                    changes.append(dealt)
        return Change.merged(changes)

    async def _deal(self, live: OpenBlackjackTable) -> Change[OpenBlackjackTable] | None:
        """BJ-DEAL-1: deal the round, a move of its own, unless the table moved on
        meanwhile (then nothing: None)."""
        try:
            return await self.move(
                live.table_id,
                [DEAL],
                version=live.engine.version,
                note=f"round {live.engine.round_no + 1} dealt",
            )
        except StaleButton:
            return None

    def after_apply(self, live: OpenBlackjackTable, applied: Applied, *, by_timer: bool) -> None:
        """The table's own bookkeeping, saved with the move: what it says publicly about
        the round (BJ-TIMER-1, BJ-TABLE-2), the clock (a new turn after a deal or a
        player's move, a new betting window after a settled round), the names kept."""
        for action, out in zip(applied.actions, applied.outcomes, strict=True):
            _take_notes(live, action, out)
            if action.kind is ActionKind.DEAL:
                live.empty_windows = 0
            if out.result is not None:
                live.empty_windows = 0
                live.names = names_kept(live.names, live.engine.seats, live.opener_id)
                self.start_clock(live)  # the next betting window
            elif action.kind in TURN_KINDS:
                self.start_clock(live)  # the next player's turn

    # ------------------------------------------------------------------- timers
    async def time_up(self, table_id: str) -> None:
        """The window or the turn ran out: deal (or count an empty window), or stand
        for the player who did not act (BJ-TIMER-1). Each is a move of the host's,
        refused as stale (and so skipped) when a member moved first; a failure is
        retried under the host's one back-off."""
        live = self.tables.get(table_id)
        if live is None:
            return
        if live.deadline is not None and live.deadline > time.monotonic():
            return  # a move restarted the clock meanwhile
        if live.betting and not (live.engine.phase is Phase.BETTING and live.engine.bets):
            await self._empty_window(live)
            return
        action = DEAL if live.betting else TIMEOUT
        with contextlib.suppress(StaleButton):  # a member moved first: the clock runs on
            await self.move(
                table_id,
                [action],
                version=live.engine.version,
                note="round dealt" if live.betting else "turn timed out",
                by_timer=True,
            )

    async def _empty_window(self, live: OpenBlackjackTable) -> None:
        """A betting window closed with no bet: it opens again, or after
        ``idle_windows`` of them in a row the table closes."""
        close_reason: Msg | None = None
        async with self.lock(live.table_id):
            if self.tables.get(live.table_id) is not live or not live.betting:
                return
            if live.empty_windows + 1 >= self.timers.idle_windows:
                close_reason = Msg("reason.bj_idle", windows=live.empty_windows + 1)
            else:

                def counted() -> None:
                    live.empty_windows += 1
                    self.start_clock(live)

                await self.save_meta(live, counted, "empty window")
        if close_reason is not None:
            await self.close(live.table_id, close_reason)

    # ------------------------------------------------------------------- close
    def refunds_of(self, live: OpenBlackjackTable) -> list[Transfer]:
        """Bets, and every stake of a round in play (:meth:`close` returns them)."""
        return refunds(live.engine)


_NOTED = {
    EventKind.SHUFFLED: "shuffled",
    EventKind.RESHUFFLED_DISCARDS: "reshuffled_discards",
    EventKind.TIMED_OUT: "timed_out",
}


def _take_notes(live: OpenBlackjackTable, action: Action, out: Outcome) -> None:
    """Keep what the table says publicly about the round: a reshuffle (BJ-TABLE-2), a
    player whose time ran out and the cards drawn for them (BJ-TIMER-1)."""
    if action.kind is ActionKind.DEAL:
        live.notes = []
    if action.kind is ActionKind.TIMEOUT and any(e.kind is EventKind.INSURANCE for e in out.events):
        live.notes.append({"kind": "insurance_declined"})
    for event in out.events:
        kind = _NOTED.get(event.kind)
        if kind == "timed_out":
            live.notes.append({"kind": kind, "seat": event.actor, "hits": event.amount or 0})
        elif kind is not None:
            live.notes.append({"kind": kind})


def _all_have_bet(engine: BlackjackTable) -> bool:
    """Every seated member has bet on the next round: it is dealt at once."""
    return (
        engine.phase is Phase.BETTING
        and bool(engine.seats)
        and all(s in engine.bets for s in engine.seats)
    )


def build_service(
    store: Store,
    timers: BlackjackTimers,
    *,
    chance: Chance | None,
    owns_guild: Callable[[int], bool],
) -> BlackjackService:
    """Blackjack's service with its timers from Blackjack's settings (start-up calls this
    through the game registry, :mod:`bot.games`); ``/blackjack start`` may set a table's
    own betting window."""
    return BlackjackService(store, timers=timers, chance=chance, owns_guild=owns_guild)


__all__ = [
    "GAME_BLACKJACK",
    "PLAY_KINDS",
    "BlackjackService",
    "BlackjackTimers",
    "NoBlackjackTable",
    "OpenBlackjackTable",
    "build_service",
    "holdings",
    "refunds",
]
