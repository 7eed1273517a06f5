"""Pontoon's service: where Pontoon's engine, the ledger and the clock meet.

No discord imports here. Every change to a table is a move of the table host
(:meth:`bot.host.TableHost.move`: lock, stale check, ``engine.apply``, the table put
back on any failure, one transaction with the ledger transfers, the timer), which
returns the committed :class:`bot.host.Change` and publishes it to the game's
subscribers (start-up subscribes the presenter: messages, DMs).

The registry, locks, reload, saving, closing and timers are the host's, shared with
Punto Banco; this module is Pontoon's own: its checks, the round's log and sequencing,
the bank sale and auction, and what the timer plays for whoever ran out of time.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from bot.errors import NoTableHere, NotSeated, ServiceError
from bot.host import (
    Applied,
    Change,
    ChangeKind,
    Holdings,
    StoredTable,
    StoreLike,
    TableHost,
    TimerJob,
    is_member_seat,
    monotonic_of,
    names_kept,
    new_table_id,
    seat_of,
    where_meta,
)
from bot.i18n import Msg
from bot.pontoon_hint import SEEN_MAX, compute_hint, hint_inputs, note_seen
from bot.storage.errors import StorageError
from engine.cards import Chance
from engine.errors import ConfigError, RuleError
from engine.pontoon import PontoonRules, Table
from engine.pontoon.hint import Hint, hint_for
from engine.pontoon.types import Action, ActionKind, Event, EventKind, Phase
from engine.records import ESCROW, HOUSE, computer_seat, is_computer_seat

log = logging.getLogger(__name__)

GAME_PONTOON = "pontoon"

#: the most seats one table message shows: its layout is tested to stay within Discord's
#: limits (40 components, 4,000 characters) at this many seats, with every button
SEATS_SHOWN = 20
CARDS_A_SEAT = 5  # room for everyone to reach a five card trick (P-FIVE-1)
MOST_COMPUTERS = 3  # computer players the opener may add to one table
COMPUTER_STAKES = 20  # a computer player brings this many of the table's largest bets
# a member's moves that put chips of theirs newly at stake (a seat, a round's bet, a shoot
# bet, the kitty; buying the bank and bidding for it are checked where they are made):
# refused during a break they took (/break); the moves of a hand already in play (buy,
# twist, stick...) are not
NEW_STAKES = frozenset({ActionKind.JOIN, ActionKind.BET, ActionKind.SHOOT, ActionKind.KITTY})


def computer_chips(rules: PontoonRules) -> int:
    """What a computer player brings to the table, lent by the house (it bets the table
    minimum; the rest covers its buys and splits, P-PAY-LIMIT)."""
    return rules.max_bet * COMPUTER_STAKES


def computers_at(engine: Table) -> list[str]:
    """The computer players' seats at a table, in seat order."""
    return [s for s in engine.seats if is_computer_seat(s)]


def broke_computers(engine: Table) -> list[str]:
    """The computer players who cannot cover the table's smallest bet any more (with the
    loss it may bring, P-PAY-LIMIT): they would only ever sit out."""
    return [s for s in computers_at(engine) if engine.player_cap(s) < engine.rules.min_bet]


def computer_action(
    engine: Table,
    seat: str,
    earlier: list[str] | None = None,
    round_events: Iterable[Event] = (),
) -> Action | None:
    """What computer player ``seat`` does now, from what that seat can see: it bets the
    table minimum (sits out when it cannot cover it), passes on shoot bets, plays the
    hint's best action (engine/pontoon/hint.py) on its hands, and otherwise does what
    the timer would do for it (None: nothing is asked of it). The hint counts what a
    member in its seat would have seen (bot/pontoon_hint.py): ``earlier``, the public
    cards of the earlier rounds since the shuffle, and this round's public ``round_events``
    (None: the cards the table shows now only)."""
    if seat not in engine.to_act():
        return None
    phase = engine.phase
    legal = {la.kind: la for la in engine.legal_actions(seat)}
    if phase is Phase.BETTING:
        bet = legal.get(ActionKind.BET)
        if bet is not None and bet.min_amount is not None:
            return Action(seat, ActionKind.BET, amount=bet.min_amount)
        return engine.timeout_action(seat)
    if phase is Phase.PLAYING and engine.turn is not None and engine.turn[0] == seat:
        try:
            if earlier is None:
                best = hint_for(engine, seat).best
            else:
                asked = hint_inputs(engine, seat, earlier, round_events)
                if asked is None:
                    return engine.timeout_action(seat)
                best = asked.compute().best
        except Exception as exc:  # the timer's play is always there to fall back on
            log.warning("no hint for computer player %s: %r", seat, exc)
            return engine.timeout_action(seat)
        return Action(seat, best.kind, amount=best.amount)
    return engine.timeout_action(seat)


def seat_limit(rules: PontoonRules) -> int:
    """How many may sit at a table: what one table message can show and what the packs
    can deal (five cards a seat: 10 with one pack, 20 with two; without a pack count, a
    second pack comes in at 8 players). The bot gives it to the engine as the rules'
    ``max_seats``, and the engine alone checks it (P-TABLE-1)."""
    packs = rules.packs or 2
    return min(SEATS_SHOWN, 52 * packs // CARDS_A_SEAT)


def opening_rules(rules: PontoonRules) -> PontoonRules:
    """The rules a new table opens with: the bot's seat limit as ``max_seats`` unless the
    rules set one. (Tables saved before tables had a limit were given it once, by
    migration 011.)"""
    if rules.max_seats is not None:
        return rules
    return rules.model_copy(update={"max_seats": seat_limit(rules)})


class CardDelivery(StrEnum):
    """How a table shows each member their face-down cards (a table option)."""

    DM = "dm"  # a DM each round with the face-down cards; Show my cards as well
    BUTTON = "button"  # no DMs: the members look with Show my cards (and in their forms)


#: events that begin a round: the log of the round before stays until one of them
ROUND_STARTS = frozenset({EventKind.CUT_CARD, EventKind.CARD_DEALT, EventKind.KITTY})
ROUND_LOG_MAX = 200  # a round's public events kept (the table message shows the newest)


class LoggedEvent(NamedTuple):
    """One public event of the current round, kept with the table (so the table
    message's log of the round survives a restart)."""

    event: Event
    banker: str | None  # the banker as it stood after the move that made the event
    by_timer: bool  # the timer moved for a member who ran out of time

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event.to_json(), "banker": self.banker, "timer": self.by_timer}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> LoggedEvent:
        return cls(Event.from_json(d["event"]), d.get("banker"), bool(d.get("timer")))


@dataclass
class OpenPontoonTable:
    """An open Pontoon table as the bot holds it (engine state plus where it lives)."""

    table_id: str
    guild_id: int
    channel_id: int
    opener_id: int
    engine: Table
    message_id: int | None = None
    store_version: int = 0
    deadline: float | None = None  # monotonic time the current actors must act by
    deadline_version: int = -1  # engine version the deadline was set for
    last_activity: float = field(default_factory=time.monotonic)
    sale_offer: tuple[int, int, int] | None = None  # (seller, buyer, price) awaiting accept
    names: dict[str, str] = field(default_factory=dict)  # seat -> display name
    # when the running auction of the bank ends: {"ends_at": epoch seconds} (the auction
    # itself, bids included, is the engine's: P-SHOOT-8)
    auction: dict[str, Any] | None = None
    turn_seconds: float | None = None  # this table's turn/bet timer (None: the bot's setting)
    cards: CardDelivery = CardDelivery.DM
    # the round's public events (its log) and each seat's last stake (Same bet)
    round_log: list[LoggedEvent] = field(default_factory=list)
    round_over: bool = False
    # the round (its number) whose result post has not gone out yet: saved with the
    # round's end and cleared once the post is out, so a restart in between posts it
    # from the round's log (None: nothing to post)
    result_due: int | None = None
    last_bets: dict[str, int] = field(default_factory=dict)
    # when the computer player whose move the table waits for moves (monotonic; set from
    # the engine's state, so after a restart its pending move comes round again)
    computer_due: float | None = None
    computer_version: int = -1  # engine version computer_due was set for
    # the public cards of the earlier rounds since the last shuffle, oldest first (what
    # the hint may count, bot/pontoon_hint.py): emptied at a shuffle, bounded
    seen_cards: list[str] = field(default_factory=list)
    # each logged event's JSON text, written once (a save costs the same at move 10 and
    # at move 1,000): id -> (the event, its JSON)
    _log_json: dict[int, tuple[LoggedEvent, str]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def meta(self) -> dict[str, Any]:
        return self._meta_but_log() | {"round_log": [e.to_json() for e in self.round_log]}

    def _meta_but_log(self) -> dict[str, Any]:
        return {
            **where_meta(self),
            "sale_offer": list(self.sale_offer) if self.sale_offer else None,
            "names": self.names,
            "auction": self.auction,
            "turn_seconds": self.turn_seconds,
            "cards": self.cards.value,
            "round_over": self.round_over,
            "result_due": self.result_due,
            "last_bets": self.last_bets,
            "seen_cards": self.seen_cards,
        }

    def snapshot(self) -> str:
        """``{"engine": ..., "meta": ...}`` as saved, the round's log last in meta with
        each of its events encoded once and kept: a save costs the same at move 10 and at
        move 1,000."""
        text = json.dumps({"engine": self.engine.to_json(), "meta": self._meta_but_log()})
        # text ends with "}}": the meta object, then the whole
        return text[:-2] + ', "round_log": [' + ", ".join(self._logged_json()) + "]}}"

    def _logged_json(self) -> list[str]:
        cache = self._log_json
        if len(cache) > 2 * ROUND_LOG_MAX:  # events of rounds gone
            cache.clear()
        out = []
        for logged in self.round_log:
            held = cache.get(id(logged))
            if held is None or held[0] is not logged:
                held = (logged, json.dumps(logged.to_json()))
                cache[id(logged)] = held
            out.append(held[1])
        return out

    def restore(self, snapshot: str) -> None:
        """Put the table back as it was in ``snapshot`` (after a failed write): the
        engine, the names, the bank offer, the auction and the round's log. Where the
        table lives, its message and its options (timer, cards) are left as they are."""
        data = json.loads(snapshot)
        meta = data["meta"]
        self.engine = Table.from_json(data["engine"])
        self.names = dict(meta["names"])
        offer = meta["sale_offer"]
        self.sale_offer = (int(offer[0]), int(offer[1]), int(offer[2])) if offer else None
        self.auction = meta["auction"]
        self.restore_log(meta)

    def restore_log(self, meta: dict[str, Any]) -> None:
        self.round_log = [LoggedEvent.from_json(e) for e in meta.get("round_log") or ()]
        self.round_over = bool(meta.get("round_over"))
        due = meta.get("result_due")
        self.result_due = None if due is None else int(due)
        self.last_bets = {str(k): int(v) for k, v in (meta.get("last_bets") or {}).items()}
        self.seen_cards = [str(c) for c in meta.get("seen_cards") or ()][-SEEN_MAX:]

    def note(self, events: Sequence[Event], *, by_timer: bool = False) -> None:
        """Keep a change's public events in the round's log (a new round clears the
        log of the one before) and each seat's last stake."""
        if self.round_over and any(ev.kind in ROUND_STARTS for ev in events):
            # the round before goes, with its log: a result not posted by now never is
            self.round_log, self.round_over, self.result_due = [], False, None
            self._forget_the_gone()
        banker = self.engine.banker
        for ev in events:
            if ev.to is not None:
                continue
            if ev.kind is EventKind.BET and ev.seat is not None and ev.amount:
                self.last_bets[ev.seat] = ev.amount
            if ev.kind is EventKind.ROUND_OVER:
                self.round_over = True
                self.result_due = self.engine.round_no
            self.round_log.append(LoggedEvent(ev, banker, by_timer))
        del self.round_log[:-ROUND_LOG_MAX]
        note_seen(self.seen_cards, events, (e.event for e in self.round_log))

    def _forget_the_gone(self) -> None:
        """At a new round: the names and last stakes of members no longer at the table
        go (nothing shows them once the round before's log is cleared), so what a save
        writes is bounded by the seats, not by everyone who ever sat here."""
        self.names = names_kept(self.names, self.engine.seats, self.opener_id)
        self.last_bets = {s: b for s, b in self.last_bets.items() if s in self.engine.seats}

    def in_play(self) -> set[int]:
        """Members with chips in play here: everyone seated (one table per server)."""
        return {int(s) for s in self.engine.seats if is_member_seat(s)}

    def computer_to_move(self) -> str | None:
        """The computer player the table waits for, if any (the first of them)."""
        eng = self.engine
        if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
            return None
        for seat in eng.to_act():
            if is_computer_seat(seat):
                return seat
        return None


class NoPontoonTable(NoTableHere):
    key_of = "err.no_table"
    english = "There is no open table in this channel. Start one with `/pontoon start`."


@dataclass(frozen=True)
class PontoonTimers:
    bet_seconds: float = 60.0
    turn_seconds: float = 60.0
    idle_seconds: float = 900.0
    # a computer player's pause before each move: a random time in this range (seconds)
    computer_pause: tuple[float, float] = (1.0, 2.0)


def holdings(engine_state: Any) -> Holdings:
    """What a saved Pontoon table holds (for the audit). Stakes are what closing the
    table now would hand back from escrow to each seat: the engine's own refunds,
    computed on a copy of the saved state."""
    table = Table.from_json(engine_state)
    escrow, kitty = table.escrow, table.kitty
    chips = {s: int(n) for s, n in table.balances.items() if is_member_seat(s)}
    seated = frozenset(int(s) for s in table.seats if is_member_seat(s))
    computers = len(computers_at(table))
    stakes: dict[str, int] = {}
    for t in table.abandon():  # changes the table: read everything else first
        if t.src == ESCROW and is_member_seat(t.dst):
            stakes[t.dst] = stakes.get(t.dst, 0) + int(t.amount)
    return Holdings(escrow, kitty, stakes, chips, exact=False, in_play=seated, computers=computers)


class PontoonService(TableHost[OpenPontoonTable]):
    """Owns every open Pontoon table of the process (the registry, locks, saving and
    timers are the host's; the game's moves, the bank sale and auction are here)."""

    game = GAME_PONTOON
    timer_name = "timer"
    no_table_error = NoPontoonTable
    closed_message = (
        "err.svc.closed",
        "That table is closed. Start a new one with `/pontoon start`.",
    )

    def __init__(
        self,
        store: StoreLike,
        *,
        chance: Chance | None = None,
        timers: PontoonTimers | None = None,
        owns_guild: Callable[[int], bool] | None = None,
    ) -> None:
        super().__init__(store, chance=chance, owns_guild=owns_guild)
        self.timers = timers or PontoonTimers()

    def has_chips_at(self, live: OpenPontoonTable, user_id: int) -> bool:
        return seat_of(user_id) in live.engine.seats

    def chips_in_play_of(self, live: OpenPontoonTable, user_id: int) -> int:
        """The stake and shoot of the member's hands (the banker's hand holds none)."""
        return sum(h.stake + h.shoot for h in live.engine.private_view(seat_of(user_id)))

    # ------------------------------------------------------------- lifecycle
    def table_from_record(self, stored: StoredTable) -> OpenPontoonTable:
        meta = stored.meta
        offer = meta.get("sale_offer")
        engine = Table.from_json(stored.engine)
        auction = meta.get("auction")
        live = OpenPontoonTable(
            **stored.where(),
            engine=engine,
            sale_offer=tuple(offer) if offer else None,
            auction=None if auction is None else {"ends_at": float(auction["ends_at"])},
            turn_seconds=meta.get("turn_seconds"),
            cards=CardDelivery(meta.get("cards", CardDelivery.DM)),
        )
        live.restore_log(meta)
        resumed = stored.resumed_deadline()
        if resumed is not None:
            # the countdown its message shows: set_deadline keeps it for this version
            # (while someone must act); otherwise the current actors get a fresh timer
            live.deadline, live.deadline_version = monotonic_of(resumed), engine.version
        return live

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        opener_id: int,
        rules: PontoonRules,
        opener_name: str | None = None,
        turn_seconds: float | None = None,
        cards: CardDelivery = CardDelivery.DM,
        computers: int = 0,
    ) -> OpenPontoonTable:
        """Open a table with its opener seated and ``computers`` computer players (at
        most :data:`MOST_COMPUTERS`; the engine checks the seat limit)."""
        if not 0 <= computers <= MOST_COMPUTERS:
            raise ServiceError(
                f"A table takes at most {MOST_COMPUTERS} computer players.",
                key="err.pt.computers_most",
                most=MOST_COMPUTERS,
            )
        self.check_channel_free(channel_id)
        await self.check_may_stake(guild_id, opener_id)
        live = OpenPontoonTable(
            table_id=new_table_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            opener_id=opener_id,
            engine=Table(opening_rules(rules)),
            turn_seconds=turn_seconds,
            cards=cards,
        )
        if opener_name:
            live.names[seat_of(opener_id)] = opener_name
        async with self._opening(channel_id):
            chips = await self.store.ensure_member(guild_id, opener_id)
            # the table is stored with its opener seated, in one transaction
            joins = [Action(seat_of(opener_id), ActionKind.JOIN, amount=chips)]
            lent = computer_chips(live.engine.rules)
            joins += [
                Action(computer_seat(n), ActionKind.JOIN, amount=lent)
                for n in range(1, computers + 1)
            ]
            await self.commit(live, joins)  # (published: the presenter posts the table)
            self._register(live)
        self._arm_timer(live)
        return live

    # ------------------------------------------------------------------- acts
    async def act(
        self,
        table_id: str,
        user_id: int,
        kind: ActionKind,
        *,
        amount: int | None = None,
        shoot: int | None = None,
        target: int | None = None,
        version: int | None = None,
        name: str | None = None,
    ) -> Change[OpenPontoonTable]:
        """Apply one member's action and return it committed. Raises ServiceError /
        RuleError with nothing changed (the host publishes it)."""
        seat = seat_of(user_id)

        async def plan(live: OpenPontoonTable) -> list[Action]:
            join_amount = amount
            if kind is ActionKind.JOIN:
                self.check_member_free(live.guild_id, user_id, live)
                # the engine decides (seat limit included) before the ledger is touched;
                # apply checks again under this same lock, so nothing slips in between
                refusal = live.engine.why_not(Action(seat, ActionKind.JOIN))
                if refusal is not None:
                    raise refusal
                # no break running, and the member's chips: one store call
                join_amount = await self.check_stake(live.guild_id, user_id, balance=True)
                if name:
                    live.names[seat] = name  # put back with the table if the move fails
            elif seat not in live.engine.seats:
                raise NotSeated()
            elif kind in NEW_STAKES and amount:
                # a new stake: no break running and, for a bet, the round limit (one call)
                await self.check_stake(live.guild_id, user_id, round_limit=kind is ActionKind.BET)
            elif kind is ActionKind.LEAVE and not any(
                is_member_seat(s) and s != seat for s in live.engine.seats
            ):
                # the last member leaves: the computer players leave first, with them
                leaving = [Action(c, ActionKind.LEAVE) for c in computers_at(live.engine)]
                return [*leaving, Action(seat, ActionKind.LEAVE)]
            return [
                Action(
                    seat,
                    kind,
                    amount=join_amount,
                    shoot=shoot,
                    target=seat_of(target) if target is not None else None,
                )
            ]

        return await self.move(table_id, plan, version=version)

    async def add_computer(
        self,
        table_id: str,
        user_id: int,
        *,
        version: int | None = None,
    ) -> Change[OpenPontoonTable]:
        """The opener adds a computer player before a round: it sits with chips the house
        lends it. Once the opener has left the table, any member seated there may. Refused
        (nothing changed) for anyone else, mid-round, beyond :data:`MOST_COMPUTERS` or
        beyond the table's seat limit (the engine's)."""

        async def plan(live: OpenPontoonTable) -> list[Action]:
            eng = live.engine
            if user_id != live.opener_id:
                if seat_of(live.opener_id) in eng.seats:
                    raise ServiceError(
                        "Only the member who opened the table can add computer players.",
                        key="err.pt.computers_opener",
                    )
                if seat_of(user_id) not in eng.seats:
                    raise ServiceError(
                        "Only a player seated at this table can add computer players.",
                        key="err.pt.computers_seated",
                    )
            if eng.phase not in (Phase.WAITING, Phase.ROUND_OVER):
                raise ServiceError(
                    "Computer players can only be added between rounds.",
                    key="err.pt.computers_between",
                )
            taken = computers_at(eng)
            if len(taken) >= MOST_COMPUTERS:
                raise ServiceError(
                    f"A table takes at most {MOST_COMPUTERS} computer players.",
                    key="err.pt.computers_most",
                    most=MOST_COMPUTERS,
                )
            seat = next(
                computer_seat(n)
                for n in range(1, MOST_COMPUTERS + 1)
                if computer_seat(n) not in taken
            )
            join = Action(seat, ActionKind.JOIN, amount=computer_chips(eng.rules))
            refusal = eng.why_not(join)  # the seat limit (P-TABLE-1)
            if refusal is not None:
                raise refusal
            return [join]

        return await self.move(table_id, plan, version=version)

    async def deal(
        self,
        table_id: str,
        user_id: int,
        version: int | None = None,
    ) -> Change[OpenPontoonTable]:
        """Deal the next round: cut for the bank first if nobody banks yet (P-BANK-1)."""
        seat = seat_of(user_id)

        async def plan(live: OpenPontoonTable) -> list[Action]:
            eng = live.engine
            if seat not in eng.seats:
                raise NotSeated()
            # who deals is the engine's (P-DEAL-1; the first seat's deal cuts for the
            # first bank, P-BANK-1); asked before the balances are synced
            deal = Action(seat, ActionKind.DEAL)
            if eng.phase is not Phase.ROUND_OVER:
                refusal = eng.why_not(deal)
                if refusal is not None:
                    raise refusal
            await self._sync_balances(live)
            # a computer player that can no longer cover the smallest bet leaves, its seat
            # free for a member (or a new computer, lent new chips); then the next round
            # and the deal (with its cut), all saved in ONE transaction
            broke = [Action(c, ActionKind.LEAVE) for c in broke_computers(live.engine)]
            if live.engine.phase is Phase.ROUND_OVER:
                return [*broke, Action(seat, ActionKind.NEXT_ROUND), deal]
            return [*broke, deal]

        return await self.move(table_id, plan, version=version)

    async def hint(self, table_id: str, user_id: int) -> tuple[Hint, tuple[str, ...]]:
        """The hint for the member's hand being played (engine/pontoon/hint.py), from the
        cards they have seen since the last shuffle only, and that hand's cards. Changes
        nothing. Refused (ServiceError) when the member is not seated here or it is not
        their hand's turn (another's turn, the banker's, no round going)."""
        live = self.get(table_id)
        seat = seat_of(user_id)
        if seat not in live.engine.seats:
            raise NotSeated()
        asked = hint_inputs(live.engine, seat, live.seen_cards, [e.event for e in live.round_log])
        if asked is None:
            raise ServiceError(
                "A hint is for the hand you are playing, when it is your turn.",
                key="err.pt.hint_not_your_turn",
            )
        try:
            found, seconds = await compute_hint(asked)
        except ConfigError as exc:  # the unknown cards cannot be dealt as the model needs
            log.warning("table %s: no hint for %s: %s", table_id, seat, exc)
            raise ServiceError(
                "No hint can be worked out for this hand now.", key="err.pt.hint_unavailable"
            ) from exc
        log.info("table %s: hint in %.1f ms", table_id, seconds * 1000)
        return found, tuple(c.code for c in asked.hand.cards)

    async def _sync_balances(self, live: OpenPontoonTable) -> None:
        """Between rounds, bring each seat's chips in line with the ledger (grants, daily)."""
        eng = live.engine
        if eng.phase not in (Phase.WAITING, Phase.ROUND_OVER):
            return
        members = [int(seat) for seat in eng.seats if seat != HOUSE and seat.isdigit()]
        for user_id, chips in (await self.store.member_balances(live.guild_id, members)).items():
            seat = seat_of(user_id)
            if chips != eng.balances.get(seat):
                eng.set_balance(seat, chips)

    async def result_shown(self, live: OpenPontoonTable, round_no: int) -> None:
        """The result post of round ``round_no`` went out: noted in the store (the
        table's version untouched: its message is not drawn again), so a restart does
        not post it again."""
        await self.store.result_shown(live.table_id, round_no)

    async def results_due(self, tables: Sequence[OpenPontoonTable]) -> list[OpenPontoonTable]:
        """Of these reloaded tables, those whose round ended without its result post going
        out (the bot stopped in between)."""
        due = [live for live in tables if live.result_due is not None]
        if not due:
            return []
        shown = await self.store.results_shown()
        return [live for live in due if shown.get(live.table_id) != live.result_due]

    def after_apply(self, live: OpenPontoonTable, applied: Applied, *, by_timer: bool) -> None:
        """Pontoon's own part of a move: a settled round moves on by itself (the engine's
        follow-up, P-NEXT-3: the bank passes, P-NEXT-2; people may join, leave or sell the
        bank, P-SELL-1, before the next Deal), and the move's public events join the
        round's log."""
        eng = live.engine
        follow_up = eng.round_follow_up()
        if follow_up is not None and applied.actions:
            settled = eng.to_json()
            try:
                applied.add(follow_up, eng.apply(follow_up, self.chance))
            except Exception as exc:  # the settled round stands; the next Deal moves on
                log.warning("table %s stays in ROUND_OVER: %r", live.table_id, exc)
                live.engine = Table.from_json(settled)
        live.note(applied.events, by_timer=by_timer)
        live.last_activity = time.monotonic()

    # --------------------------------------------------------------- the bank
    async def offer_bank(self, table_id: str, seller_id: int, buyer_id: int, price: int) -> None:
        """Offer the bank to ``buyer_id`` for ``price`` (P-SELL-1): the engine says whether
        that sale may happen now; the offer waits for the buyer's Accept."""
        live = self.get(table_id)
        async with self.lock(table_id):
            sale = Action(
                seat_of(seller_id), ActionKind.SELL_BANK, amount=price, target=seat_of(buyer_id)
            )
            refusal = live.engine.why_not(sale)
            if refusal is not None:
                raise refusal
            await self.save_meta(
                live,
                lambda: setattr(live, "sale_offer", (seller_id, buyer_id, price)),
                f"bank offered to {buyer_id} for {price}",
            )

    async def accept_bank(self, table_id: str, buyer_id: int) -> Change[OpenPontoonTable]:
        live = self.get(table_id)
        async with self.lock(table_id):
            offer = live.sale_offer
            if offer is None or offer[1] != buyer_id:
                raise ServiceError(
                    "There is no offer of the bank to you at this table.", key="err.svc.no_offer"
                )
            seller_id, _, price = offer
            lapsed = live.engine.offer_refusal(seat_of(seller_id))
            if lapsed is not None:
                live.sale_offer = None  # said as the bot's own answer, as before
                self.changed_unsaved(table_id)
                raise ServiceError(lapsed.message, key=str(lapsed.key))
            await self.check_not_on_break(live.guild_id, buyer_id)  # buying: a new stake
            await self._sync_balances(live)
            sale = Action(
                seat_of(seller_id), ActionKind.SELL_BANK, amount=price, target=seat_of(buyer_id)
            )
            change = await self.commit(live, [sale])
            try:
                await self.save_meta(
                    live, lambda: setattr(live, "sale_offer", None), "bank sale done"
                )
            except StorageError as exc:  # the sale itself is saved; the offer is spent
                live.sale_offer = None
                self.changed_unsaved(table_id)
                log.warning("table %s: clearing the spent bank offer not saved: %s", table_id, exc)
        self._arm_timer(live)
        return change

    async def open_auction(self, table_id: str, seller_id: int, seconds: float) -> float:
        """P-SHOOT-8: with an empty kitty the banker may offer the bank to the highest
        bidder instead of putting up a new kitty (the engine's AUCTION). The bot keeps
        only the closing time (epoch seconds), which it returns."""
        ends_at = time.time() + seconds

        async def plan(live: OpenPontoonTable) -> list[Action]:
            live.auction = {"ends_at": ends_at}  # saved with it, put back on a refusal
            return [Action(seat_of(seller_id), ActionKind.AUCTION)]

        await self.move(table_id, plan)
        return ends_at

    async def bid(self, table_id: str, user_id: int, amount: int) -> int:
        """A bid in the running auction (the engine's BID); returns it."""

        async def plan(live: OpenPontoonTable) -> list[Action]:
            await self.check_not_on_break(live.guild_id, user_id)  # a bid: a new stake
            return [Action(seat_of(user_id), ActionKind.BID, amount=amount)]

        await self.move(table_id, plan)
        return amount

    async def _finish_auction(self, live: OpenPontoonTable) -> None:
        """The auction's time is up: the engine sells the bank to the best bid its bidder
        can still pay (END_AUCTION), or the bank stays."""
        async with self.lock(live.table_id):
            auc = live.auction
            if auc is None or time.time() < float(auc["ends_at"]):
                return
            banker = live.engine.banker
            if live.engine.auction is None or banker is None:  # the bank changed hands
                await self.save_meta(live, lambda: setattr(live, "auction", None), "auction over")
            else:

                def ended(eng: Table) -> Action:
                    live.auction = None
                    return Action(banker, ActionKind.END_AUCTION)

                await self.commit(live, [ended])
        self._arm_timer(live)

    def auction_seconds_left(self, live: OpenPontoonTable) -> float | None:
        if live.auction is None:
            return None
        return max(0.0, float(live.auction["ends_at"]) - time.time())

    # ------------------------------------------------------------------ close
    async def close(self, table_id: str, reason: Msg) -> None:
        """Close a table, returning every chip in escrow and the kitty to its owner.
        ``reason`` is a catalog message (``reason.*``), said in each reader's language
        (the host publishes the close)."""
        await self._close_table(table_id, reason, lambda live: live.engine.abandon())

    # ------------------------------------------------------------------ timers
    def set_deadline(self, live: OpenPontoonTable) -> None:
        """While someone must act (a bet, a hand, the banker's turn), they have until the
        table's timer (or the bot's bet/turn timer) runs out; set once per engine version."""
        eng = live.engine
        now = time.monotonic()
        if eng.to_act() and eng.phase not in (Phase.WAITING, Phase.KITTY, Phase.ROUND_OVER):
            if live.deadline_version != eng.version:
                seconds = live.turn_seconds or (
                    self.timers.bet_seconds
                    if eng.phase in (Phase.BETTING, Phase.SHOOTING)
                    else self.timers.turn_seconds
                )
                live.deadline = now + seconds
                live.deadline_version = eng.version
        else:
            live.deadline = None
            live.deadline_version = eng.version
        if live.computer_to_move() is None:
            live.computer_due, live.computer_version = None, eng.version
        elif live.computer_version != eng.version or live.computer_due is None:
            low, high = self.timers.computer_pause
            live.computer_due = now + random.uniform(low, high)
            live.computer_version = eng.version

    def wake_at(self, live: OpenPontoonTable, now: float) -> float | None:
        """The first of: the deadline to act, the end of an auction, the table going idle."""
        idle_at = live.last_activity + self.timers.idle_seconds
        wake = min(idle_at, live.deadline) if live.deadline is not None else idle_at
        if live.computer_due is not None:
            wake = min(wake, live.computer_due)
        auction_left = self.auction_seconds_left(live)
        return wake if auction_left is None else min(wake, now + auction_left)

    def timer_job(self, live: OpenPontoonTable, now: float) -> TimerJob | None:
        table_id = live.table_id
        auction_left = self.auction_seconds_left(live)
        if auction_left is not None and auction_left <= 0:
            return TimerJob(
                lambda: self._finish_auction(live),
                f"table {table_id} cannot act for the timed-out seat",
            )
        if live.computer_due is not None and live.computer_due <= now:
            return TimerJob(
                lambda: self._computer_moves(live),
                f"table {table_id}: a computer player cannot move",
            )
        if live.deadline is not None and live.deadline <= now:
            return TimerJob(
                lambda: self._on_deadline(live),
                f"table {table_id} cannot act for the timed-out seat",
            )
        if live.last_activity + self.timers.idle_seconds <= now:
            return TimerJob(
                lambda: self.close(table_id, Msg("reason.idle")), f"table {table_id} cannot close"
            )
        return None

    async def _computer_moves(self, live: OpenPontoonTable) -> None:
        """The computer player the table waits for makes its move, through the host's
        one move path (:meth:`move`, refused as stale if someone moved first). The next
        computer's pause starts from the new state (:meth:`set_deadline`)."""
        eng = live.engine
        seat = live.computer_to_move()
        if seat is None or live.computer_version != eng.version:
            live.computer_due = None
            return
        action = computer_action(eng, seat, live.seen_cards, [e.event for e in live.round_log])
        if action is None:
            live.computer_due = None
            return
        try:
            await self.move(live.table_id, [action], version=eng.version)
        except (RuleError, ServiceError) as exc:
            # nothing changed; the timer's deadline still plays for it
            log.warning("computer player's move %s refused: %s", action, exc)
            live.computer_due = None

    async def _on_deadline(self, live: OpenPontoonTable) -> None:
        """Play for whoever ran out of time: bets sit out, a hand sticks if it may or
        twists until it may (never buying), a banker stays (the engine's timeout_action).
        Each action is a move of its own (:meth:`move`, refused as stale once a member
        moved first); a move the store refused is tried again under the host's back-off."""
        eng = live.engine
        if live.deadline is None or live.deadline_version != eng.version:
            return
        timed_out = set(eng.to_act())
        turn = eng.turn
        changes: list[Change[OpenPontoonTable]] = []
        failed: StorageError | None = None
        for _ in range(4 * max(1, len(timed_out)) + 8):
            eng = live.engine
            pending = [s for s in eng.to_act() if s in timed_out]
            if not pending or eng.turn != turn:
                break
            action = eng.timeout_action(pending[0])
            if action is None:
                break
            try:
                changes.append(
                    await self.move(live.table_id, [action], version=eng.version, by_timer=True)
                )
            except (RuleError, ServiceError) as exc:
                log.warning("timeout action %s refused: %s", action, exc)
                break
            except StorageError as exc:  # not saved (nothing changed): try again later
                failed = exc
                break
        if failed is not None:
            # still due, at this version: the host's back-off says when to try again
            live.deadline = time.monotonic()
            live.deadline_version = live.engine.version
        else:
            live.deadline = None
            live.deadline_version = -1 if changes else live.engine.version
        self._arm_timer(live)
        if not changes and self.tables.get(live.table_id) is live:
            # no move, but the clock the table shows stopped: drawn again
            self.publish(Change.of(live, ChangeKind.SAVED))
        if failed is not None:
            raise failed


def member_of_seat(seat: str | None) -> int | None:
    if seat is None or not seat.isdigit():
        return None
    return int(seat)


def build_service(
    store: StoreLike,
    timers: PontoonTimers,
    *,
    chance: Chance | None,
    owns_guild: Callable[[int], bool],
) -> PontoonService:
    """Pontoon's service with its timers from Pontoon's settings (start-up calls this
    through the game registry, :mod:`bot.games`)."""
    return PontoonService(
        store,
        timers=timers,
        chance=chance,
        owns_guild=owns_guild,
    )


__all__ = [
    "GAME_PONTOON",
    "MOST_COMPUTERS",
    "NoPontoonTable",
    "OpenPontoonTable",
    "PontoonService",
    "PontoonTimers",
    "build_service",
    "computer_action",
    "computer_chips",
    "computers_at",
    "holdings",
    "member_of_seat",
    "seat_of",
]
