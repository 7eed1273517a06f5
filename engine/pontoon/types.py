"""Public types of the Pontoon engine: the contract between the engine and the bot.

A UI turns ``Table.legal_actions(seat)`` straight into buttons, sends ``Action`` objects to
``Table.apply``, and gets back ``Event`` objects (who may see each one) and ``Transfer``
objects (chip moves between accounts). Everything here is plain data.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from enum import Enum
from typing import Any, NamedTuple

from engine.errors import Word
from engine.records import ESCROW, HOUSE, KITTY, Transfer, give_dataclass_fields


class Phase(str, Enum):  # noqa: UP042
    """Where a table stands. Never compare with bare strings in UI code."""

    WAITING = "waiting"  # between rounds: seats may join/leave, bank may be sold
    KITTY = "kitty"  # Shoot mode: banker must put up (or add to) the kitty (P-SHOOT-1/8)
    BETTING = "betting"  # first card dealt, initial bets (P-DEAL-2)
    DOUBLING = "doubling"  # P-VAR-3: banker may double all bets
    SHOOTING = "shooting"  # P-SHOOT-2: shoot bets on the first card, in seat order
    PLAYING = "playing"  # players' turns (section 5)
    BANKER = "banker"  # banker's turn (section 6)
    ROUND_OVER = "round_over"  # settled; next_round starts the next deal


class ActionKind(str, Enum):  # noqa: UP042
    JOIN = "join"  # WAITING only; amount = starting chips the seat brings (its balance)
    LEAVE = "leave"  # WAITING only (the banker cannot leave while banking)
    CUT = "cut"  # cut for the first bank (P-BANK-1); any seat, WAITING with no banker
    DEAL = "deal"  # start a round from WAITING (banker, or anyone when house-banked)
    KITTY = "kitty"  # banker puts up / adds to the kitty (amount)
    BET = "bet"  # initial bet (amount)
    DOUBLE = "double"  # P-VAR-3 banker doubles
    NO_DOUBLE = "no_double"  # P-VAR-3 banker declines
    SHOOT = "shoot"  # shoot bet (amount, 0 = pass)
    DECLARE = "declare"
    SPLIT = "split"
    BUY = "buy"  # amount; optional shoot (P-SHOOT-4)
    TWIST = "twist"  # optional shoot (P-SHOOT-4)
    STICK = "stick"
    BURN = "burn"  # P-VAR-8
    SIT_OUT = "sit_out"  # BETTING: this seat skips the round (bet timer ran out)
    SELL_BANK = "sell_bank"  # P-SELL-1: banker sells to `target` for `amount`
    AUCTION = "auction"  # P-SHOOT-8: with an empty kitty the banker auctions the bank
    BID = "bid"  # P-SHOOT-8: a bid (amount) in the running auction
    END_AUCTION = "end_auction"  # P-SHOOT-8: the banker sells to the best bid they can pay
    NEXT_ROUND = "next_round"  # from ROUND_OVER: shuffle if needed, pass the bank, -> WAITING/deal


@dataclass(frozen=True, slots=True)
class Action:
    seat: str
    kind: ActionKind
    amount: int | None = None
    shoot: int | None = None  # shoot bet placed with a fourth-card buy/twist (P-SHOOT-4)
    target: str | None = None  # SELL_BANK: the buyer's seat

    @property
    def actor(self) -> str:
        """Who acts (every game's actions name theirs ``actor``: see engine.game)."""
        return self.seat


class LegalAction(NamedTuple):
    """One thing a seat may do now. Amount ranges are inclusive; None when no amount.
    An immutable record (a tuple underneath, like ``Event``), read by attribute name."""

    kind: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None
    # For BUY/TWIST on the fourth card in Shoot mode: the shoot range allowed alongside.
    shoot_max: int | None = None


class EventKind(str, Enum):  # noqa: UP042
    SEATED = "seated"
    LEFT = "left"
    CUT_CARD = "cut_card"  # public: a seat's cut card
    BANKER_CHOSEN = "banker_chosen"  # public
    SHUFFLED = "shuffled"  # public
    KITTY = "kitty"  # public: kitty put up / added / returned
    CARD_DEALT = "card_dealt"  # PRIVATE to `seat`: a face-down card (banker's first card
    #                            is dealt with no audience until P-VAR-3 / banker's turn)
    BET = "bet"  # public
    DOUBLED = "doubled"  # public
    SHOOT = "shoot"  # public
    BANKER_PONTOON = "banker_pontoon"  # public, with the cards
    DECLARED = "declared"  # public, with the cards
    SPLIT = "split"  # public, the split cards face up
    BOUGHT = "bought"  # public: that a card was bought and for how much (not the card)
    TWISTED = "twisted"  # public, the card face up
    BURNED = "burned"  # public, the burned cards
    STUCK = "stuck"  # public
    BUST = "bust"  # public, all cards of the hand
    FIVE_CARD_TRICK = "five_card_trick"  # public (cards stay hidden until settlement)
    TWENTY_ONE = "twenty_one"  # public: hand reached 21 and stands
    TURN = "turn"  # public: whose turn (seat, hand index)
    BANKER_REVEAL = "banker_reveal"  # public: banker's two cards at the banker's turn
    BANKER_DRAW = "banker_draw"  # public
    BANKER_STAYS = "banker_stays"  # public (total)
    HAND_RESULT = "hand_result"  # public: settlement of one hand (cards, outcome, net)
    BANK_PASSES = "bank_passes"  # public: next banker and why
    BANK_SOLD = "bank_sold"  # public
    AUCTION = "auction"  # public: an auction of the bank opened (P-SHOOT-8)
    BID = "bid"  # public: a bid in the auction (amount)
    AUCTION_OVER = "auction_over"  # public: the auction ended (a BANK_SOLD follows a sale)
    ROUND_OVER = "round_over"  # public


#: ``record(Event, (every field in order))``: one of these tuple records (``Event``,
#: ``Transfer``, ``HandView``) built without its keyword constructor, a Python call that
#: costs about twice the tuple. Only the hottest paths (the deal, a turn, a bet, a chip
#: transfer: a round makes ~35 of them) build records this way; the rest use keywords.
record = tuple.__new__


class Event(NamedTuple):
    """Something that happened. ``to`` is None for a public event, or the one seat that
    may see it. A private event is never public in any other form.

    A frozen record like ``engine.records.Transfer``: a tuple underneath, read by
    attribute name, built by keyword or position, compared and hashed by value;
    assignment raises ``dataclasses.FrozenInstanceError``."""

    kind: EventKind
    seat: str | None = None
    hand: int | None = None
    cards: tuple[str, ...] = ()  # card codes, e.g. ("AS", "10H")
    amount: int | None = None
    total: int | None = None
    to: str | None = None  # None = public; otherwise private to this seat
    detail: str = ""  # free text / outcome label for results (English, for logs)
    # what the detail says as the bot's catalog message (a result, the kitty's change,
    # why the bank passes): what players read, in their language
    says: Word | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def to_json(self) -> dict[str, Any]:
        """The event as JSON (the replay's event log; a saved table's round log)."""
        d: dict[str, Any] = {"kind": self.kind.value}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.hand is not None:
            d["hand"] = self.hand
        if self.cards:
            d["cards"] = list(self.cards)
        if self.amount is not None:
            d["amount"] = self.amount
        if self.total is not None:
            d["total"] = self.total
        if self.to is not None:
            d["to"] = self.to
        if self.detail:
            d["detail"] = self.detail
        if self.says is not None:
            d["says"] = self.says.to_json()
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(
            EventKind(d["kind"]),
            d.get("seat"),
            d.get("hand"),
            tuple(d.get("cards", ())),
            d.get("amount"),
            d.get("total"),
            d.get("to"),
            d.get("detail", ""),
            Word.from_json(d["says"]) if d.get("says") else None,
        )


@dataclass(frozen=True)
class _EventFields:
    kind: EventKind
    seat: str | None = None
    hand: int | None = None
    cards: tuple[str, ...] = ()
    amount: int | None = None
    total: int | None = None
    to: str | None = None
    detail: str = ""
    says: Word | None = None


give_dataclass_fields(Event, _EventFields)


@dataclass(slots=True)
class Outcome:
    """What one apply() produced."""

    events: list[Event] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)


__all__ = [
    "ESCROW",
    "HOUSE",
    "KITTY",
    "Action",
    "ActionKind",
    "Event",
    "EventKind",
    "LegalAction",
    "Outcome",
    "Phase",
    "Transfer",
]
