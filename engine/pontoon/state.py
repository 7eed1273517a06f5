"""What every part of a Pontoon table shares: its state, chip moves and the common checks.

The round itself is plain functions over this state, one module per stage of play (see
``engine/pontoon/table.py``). A *refusal* returns the ``RuleError`` that an action would
meet, or None when the action is allowed; ``legal_actions`` offers what has no refusal,
``why_not`` returns it and ``apply`` raises it, so each rule is checked in one place.
Every action runs all of its checks before it changes anything.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from engine.cards import Card, Pack, full_pack
from engine.errors import ConfigError, RuleError, Word
from engine.pontoon.hands import Hand
from engine.pontoon.payouts import Payouts
from engine.pontoon.rules import PontoonRules
from engine.pontoon.types import (
    ESCROW,
    HOUSE,
    KITTY,
    Action,
    ActionKind,
    Event,
    EventKind,
    Outcome,
    Phase,
    Transfer,
    record,
)
from engine.pontoon.views import HandStatus

NO_LIMIT = 1 << 62  # what a house bank can cover
CARDS_IN_A_PACK = 52


def packs_used(packs: int | None, n_seats: int) -> int:
    """P-TABLE-1: the packs a deal at ``n_seats`` seats uses: the table's option
    (``packs``), else one pack, two when 8 or more sit."""
    if packs is not None:
        return packs
    return 2 if n_seats >= 8 else 1


def _seats_fit(packs: int | None, house_bank: bool, n_seats: int) -> bool:
    """Two cards for every hand of a deal (every seat, and the house's hand at a house
    bank) fit in the pack(s) the table uses (P-TABLE-1)."""
    hands = n_seats + 1 if house_bank else n_seats
    return 2 * hands <= CARDS_IN_A_PACK * packs_used(packs, n_seats)


@functools.lru_cache(maxsize=64)
def _cards_seat_limit(packs: int | None, house_bank: bool) -> int:
    """The most seats the pack(s) can deal (worked out once per pair of options: every
    redraw of a table asks for it)."""
    n = 2
    while _seats_fit(packs, house_bank, n + 1):
        n += 1
    return n


# The rule that governs each action kind (cited when it is tried in the wrong phase).
RULE_OF_ACTION: dict[ActionKind, str] = {
    ActionKind.JOIN: "P-TABLE-1",
    ActionKind.LEAVE: "P-TABLE-1",
    ActionKind.CUT: "P-BANK-1",
    ActionKind.DEAL: "P-DEAL-1",
    ActionKind.KITTY: "P-SHOOT-1",
    ActionKind.BET: "P-DEAL-2",
    ActionKind.DOUBLE: "P-VAR-3",
    ActionKind.NO_DOUBLE: "P-VAR-3",
    ActionKind.SHOOT: "P-SHOOT-2",
    ActionKind.DECLARE: "P-TURN-DECLARE",
    ActionKind.SPLIT: "P-SPLIT-1",
    ActionKind.BUY: "P-BUY-1",
    ActionKind.TWIST: "P-TWIST-1",
    ActionKind.STICK: "P-STICK-1",
    ActionKind.BURN: "P-VAR-8",
    ActionKind.SIT_OUT: "P-DEAL-2",
    ActionKind.SELL_BANK: "P-SELL-1",
    ActionKind.NEXT_ROUND: "P-NEXT-1",
    ActionKind.AUCTION: "P-SHOOT-8",
    ActionKind.BID: "P-SHOOT-8",
    ActionKind.END_AUCTION: "P-SHOOT-8",
}

# One settled hand: seat, hand index, card codes, score, stake, outcome, net, shoot net, why.
Result = tuple[str, int, tuple[str, ...], int, int, str, int, int, str]
RESULT_KEYS = ("seat", "hand", "cards", "score", "stake", "outcome", "net", "shoot_net", "why")


# Why an action is refused: the ``RuleError`` (rule id, plain words, message id). The
# refusal methods return one, or None when the action is allowed; ``apply`` raises it.
Refusal = RuleError


def check_seat_name(seat: object) -> None:
    if not isinstance(seat, str) or not seat or seat.startswith("@"):
        raise ConfigError(f"not a valid seat id: {seat!r}")


class TableState:
    """The table's state and the helpers every layer uses."""

    def __init__(
        self,
        rules: PontoonRules | None = None,
        seats: Iterable[str] = (),
        balances: dict[str, int] | None = None,
        *,
        banker: str | None = None,
        pack: Iterable[Card] | None = None,
    ) -> None:
        self.rules = rules if rules is not None else PontoonRules()
        self.payouts = Payouts.for_rules(self.rules)
        self.seats: list[str] = []  # clockwise
        self.balances: dict[str, int] = {}  # chips each seat holds outside escrow and kitty
        given = balances or {}
        for seat in seats:
            check_seat_name(seat)
            if seat in self.balances:
                raise ConfigError(f"seat {seat!r} is listed twice")
            chips = int(given.get(seat, 0))
            if chips < 0:
                raise ConfigError("a balance cannot be negative")
            self.seats.append(seat)
            self.balances[seat] = chips
        self.banker: str | None = HOUSE if self.rules.house_bank else None
        if banker is not None:
            if self.rules.house_bank:
                raise ConfigError("a house-banked table has the house as banker")
            if banker not in self.balances:
                raise ConfigError(f"banker {banker!r} is not seated")
            self.banker = banker
        self.phase = Phase.WAITING
        self.version = 0  # +1 on every successful apply
        self.round_no = 0
        self.kitty = 0
        self.escrow = 0
        self.house_net = 0  # chips the house has won (negative: lost)
        if pack is None:
            self.pack = Pack(full_pack(self.packs_for(len(self.seats))))
            self.needs_shuffle = True
        else:
            self.pack = Pack(pack)
            self.needs_shuffle = False
        self.bank_passes_to: str | None = None  # a pontoon passes the bank (P-NEXT-2)
        # P-SHOOT-8: a running auction of the bank, bids by seat (None: no auction)
        self.auction: dict[str, int] | None = None
        self.result_rows: list[Result] = []  # the settled hands of the round
        self.reset_round()

    def reset_round(self) -> None:
        self.players: list[str] = []  # dealt in this round, from the banker's left
        self.hands: dict[str, list[Hand]] = {}
        self.decided: dict[str, bool] = {}  # BETTING: True = bet, False = sat out
        self.active: list[str] = []  # players who bet, in order
        self.shooter = 0  # SHOOTING: index in active of who places a shoot bet
        self.turn_player = 0  # PLAYING: index in active of whose turn it is
        self.turn_hand = 0  # PLAYING: which of that player's hands
        self.banker_hand: Hand | None = None
        self.banker_sees = False  # the banker may look at the banker's cards
        self.doubled = False  # P-VAR-3
        self.open_stake = 0  # stakes the banker covers (P-PAY-LIMIT)
        self.shoot_out = 0  # shoot bets outstanding against the kitty (P-SHOOT-2)
        self.pontoon_seen = False  # P-NEXT-1: shuffle before the next deal
        self.banker_pontoon = False

    # who is where ---------------------------------------------------------------------

    def packs_for(self, n_seats: int) -> int:
        """P-TABLE-1: the table's option, else one pack, two when 8 or more sit."""
        return packs_used(self.rules.packs, n_seats)

    def players_for_round(self) -> list[str]:
        """Who is dealt in: from the banker's left, clockwise (every seat at a house bank)."""
        if self.rules.house_bank:
            return list(self.seats)
        if self.banker is None:
            return []
        i = self.seats.index(self.banker)
        return self.seats[i + 1 :] + self.seats[:i]

    def current_hand(self) -> Hand:
        return self.hands[self.active[self.turn_player]][self.turn_hand]

    def cards_in_play(self) -> list[Card]:
        """Every card dealt this round and not yet back in the pack (bust hands went back)."""
        cards: list[Card] = []
        bust = HandStatus.BUST
        for hands in self.hands.values():
            for hand in hands:
                if hand.status is not bust:
                    cards.extend(hand.cards)
        if self.banker_hand is not None:
            cards.extend(self.banker_hand.cards)
        return cards

    # cards for a deal (P-TABLE-1) -----------------------------------------------------

    def hands_dealt(self, n_seats: int) -> int:
        """Hands in a deal at ``n_seats`` seats: every seat, plus the house's hand."""
        return n_seats + 1 if self.rules.house_bank else n_seats

    @property
    def cards_seat_limit(self) -> int:
        """The most seats the pack(s) can deal: a deal gives everyone two cards (P-TABLE-1)."""
        return _cards_seat_limit(self.rules.packs, self.rules.house_bank)

    @property
    def seat_limit(self) -> int:
        """The most seats this table takes: what the pack(s) can deal (P-TABLE-1), and
        at most the rules' ``max_seats`` when it is set."""
        limit = self.cards_seat_limit
        most = self.rules.max_seats
        return limit if most is None or most >= limit else most

    def deal_refusal(self) -> Refusal | None:
        """A deal needs two cards for every hand from a full pack (P-TABLE-1)."""
        n = len(self.seats)
        packs = self.packs_for(n)
        need = 2 * self.hands_dealt(n)
        have = CARDS_IN_A_PACK * packs
        if need > have:
            message = (
                f"not enough cards left for another deal: {n} seats need {need} cards and "
                f"{packs} pack{'s' if packs > 1 else ''} hold{'' if packs > 1 else 's'} {have}; "
                f"at most {self.seat_limit} may sit at this table"
            )
            if packs > 1:
                return RuleError(
                    "P-TABLE-1",
                    message,
                    key="engine.no_cards.other",
                    n=n,
                    need=need,
                    packs=packs,
                    have=have,
                    limit=self.seat_limit,
                )
            return RuleError(
                "P-TABLE-1",
                message,
                key="engine.no_cards.one",
                n=n,
                need=need,
                packs=packs,
                have=have,
                limit=self.seat_limit,
            )
        return None

    # chips ----------------------------------------------------------------------------

    def move_chips(self, out: Outcome, src: str, dst: str, amount: int, reason: str) -> None:
        """Move chips between two accounts and record the transfer (nothing for 0)."""
        if amount <= 0:
            return
        balances = self.balances  # (the two add_chips calls, written out: a hot path)
        if src in balances:
            balances[src] -= amount
        else:
            self.add_chips(src, -amount)
        if dst in balances:
            balances[dst] += amount
        else:
            self.add_chips(dst, amount)
        out.transfers.append(record(Transfer, (src, dst, amount, reason)))

    def add_chips(self, account: str, amount: int) -> None:
        if account in self.balances:
            self.balances[account] += amount
        elif account == ESCROW:
            self.escrow += amount
        elif account == KITTY:
            self.kitty += amount
        else:
            assert account == HOUSE, account
            self.house_net += amount

    # P-PAY-LIMIT: what stakes a player and the banker can cover -----------------------

    def staked(self, seat: str) -> int:
        """The seat's stakes still at risk (bust hands have paid already)."""
        bust = HandStatus.BUST
        staked = 0
        for hand in self.hands.get(seat, ()):
            if hand.status is not bust:
                staked += hand.stake
        return staked

    def player_cap(self, seat: str) -> int:
        """The largest new stake ``seat`` can cover: a player must be able to pay
        ``player_cover`` x every open stake (P-PAY-LIMIT)."""
        cover = self.payouts.player_cover
        return (self.balances[seat] - self.staked(seat) * (cover - 1)) // cover

    def banker_cover_room(self) -> int:
        """The largest new stake the banker can cover: ``banker_cover`` x every open stake
        (P-PAY-LIMIT). A house bank has no limit."""
        if self.rules.house_bank or self.banker is None:
            return NO_LIMIT
        return self.balances[self.banker] // self.payouts.banker_cover - self.open_stake

    def stake_cap(self, seat: str) -> int:
        return min(self.player_cap(seat), self.banker_cover_room())

    # shoot bets (P-SHOOT-*) ------------------------------------------------------------

    def shoot_max(self, seat: str, reserve: int) -> int:
        """The largest shoot bet ``seat`` may place now, keeping ``reserve`` chips for a
        buy or split stake placed with it: within the kitty's room (P-SHOOT-2) and what
        the player can spare besides covering the stakes (P-PAY-LIMIT)."""
        if not self.rules.shoot:
            return 0
        cover = self.payouts.player_cover
        spare = self.balances[seat] - reserve - (self.staked(seat) + reserve) * (cover - 1)
        return max(0, min(self.kitty - self.shoot_out, spare))

    def shoot_refusal(self, seat: str, amount: int, reserve: int, rule: str) -> Refusal | None:
        if amount < 0:
            return RuleError(rule, "a shoot bet cannot be negative", key="engine.shoot_negative")
        if amount == 0:
            return None
        if not self.rules.shoot:
            return RuleError(
                "P-SHOOT-1", "shoot bets are only for Shoot Pontoon", key="engine.shoot_only"
            )
        room = self.kitty - self.shoot_out
        if amount > room:
            return RuleError(
                "P-SHOOT-2",
                f"all shoot bets together may not exceed the kitty ({room} left)",
                key="engine.shoot_kitty",
                left=room,
            )
        if amount > self.shoot_max(seat, reserve):
            return RuleError(
                "P-PAY-LIMIT",
                f"{seat} cannot cover a shoot bet of {amount}",
                key="engine.shoot_cover",
                seat=seat,
                amount=amount,
            )
        return None

    def place_shoot(self, out: Outcome, seat: str, hand_index: int, amount: int) -> None:
        if amount <= 0:
            return
        self.hands[seat][hand_index].shoot += amount
        self.shoot_out += amount
        self.move_chips(out, seat, ESCROW, amount, "shoot bet (P-SHOOT-2)")
        out.events.append(Event(EventKind.SHOOT, seat, hand_index, amount=amount))

    # action checks shared by every layer -----------------------------------------------

    def wrong_phase(self, action: Action) -> RuleError:
        return RuleError(
            RULE_OF_ACTION.get(action.kind, "P-TABLE-1"),
            f"{action.kind.value} is not possible now "
            f"(the table is in the {self.phase.value} phase)",
            key="engine.not_now",
            kind=Word(f"engine.word.{action.kind.value}"),
            phase=Word(f"engine.word.{self.phase.value}"),
        )

    @staticmethod
    def amount_refusal(action: Action, rule: str) -> Refusal | None:
        """Refuses an action whose amount is not a whole number."""
        amount: Any = action.amount
        if isinstance(amount, bool) or not isinstance(amount, int):
            return RuleError(
                rule,
                f"{action.kind.value} needs a whole-number amount",
                key="engine.needs_amount",
                kind=Word(f"engine.word.{action.kind.value}"),
            )
        return None

    def seated_refusal(self, seat: str) -> Refusal | None:
        if seat not in self.balances:
            return RuleError(
                "P-TABLE-1",
                f"{seat} is not seated at this table",
                key="engine.not_seated",
                seat=seat,
            )
        return None

    def score_of(self, hand: Hand, royal: bool) -> int:
        return hand.score(self.rules.pontoon_strength, royal and self.rules.royal_pontoon)

    def is_pontoon(self, hand: Hand) -> bool:
        return hand.is_pontoon(self.rules.pontoon_strength)
