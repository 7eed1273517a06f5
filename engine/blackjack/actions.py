"""Blackjack's moves, events and round results as records (the
:class:`engine.game.Game` interface).

A member's JOIN / LEAVE (a seat, BJ-TABLE-1), BET (BJ-BET-1), INSURANCE (amount, 0
declines, BJ-INS-1), HIT, STAND, DOUBLE (optional amount), SPLIT, SURRENDER; the
dealer's DEAL (BJ-DEAL-1), TIMEOUT (BJ-TIMER-1: the player whose turn it is stands,
hitting below 12 first; in the insurance phase every unanswered seat declines) and
NEXT_ROUND. ``balance`` is what the member holds outside the table, as the ledger says
now: the engine refuses a stake the member could not cover with it (None: not checked).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, NamedTuple

from engine.records import Transfer

DEALER: Final = "@dealer"  # BJ-TABLE-1: the house deals (the bot)


class ActionKind(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    BET = "bet"
    DEAL = "deal"
    INSURANCE = "insurance"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    TIMEOUT = "timeout"
    NEXT_ROUND = "next_round"


@dataclass(frozen=True, slots=True)
class Action:
    actor: str  # a member's seat id, or DEALER for DEAL / TIMEOUT / NEXT_ROUND
    kind: ActionKind
    amount: int | None = None  # BET, INSURANCE, DOUBLE (None: equal to the bet)
    balance: int | None = None  # the member's chips outside the table


class LegalAction(NamedTuple):
    """One thing an actor may do now; amount ranges inclusive (None: no amount)."""

    kind: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None


class Phase(StrEnum):
    BETTING = "betting"  # bets for the next round (BJ-BET-1)
    INSURANCE = "insurance"  # the up card is an ace: insurance asked (BJ-INS-1)
    PLAYING = "playing"  # players' hands in seat order
    ROUND_OVER = "round_over"  # settled; bets for the next round open it again


class EventKind(StrEnum):
    JOINED = "joined"
    LEFT = "left"
    BET = "bet"  # amount: the bet now
    SHUFFLED = "shuffled"  # the shoe was reshuffled before the round (BJ-TABLE-2)
    RESHUFFLED_DISCARDS = "reshuffled_discards"  # mid-round: the discards went back in
    DEALT = "dealt"  # the round's first cards
    INSURANCE = "insurance"  # amount taken (0: declined)
    PEEKED = "peeked"  # the dealer looked: no blackjack
    DEALER_BLACKJACK = "dealer_blackjack"
    BLACKJACK = "blackjack"  # a player blackjack paid (amount: the winnings)
    HIT = "hit"  # card
    STAND = "stand"
    DOUBLE = "double"  # amount added, card
    SPLIT = "split"  # hand: the hand split
    SURRENDER = "surrender"  # amount returned
    BUST = "bust"  # amount lost
    TIMED_OUT = "timed_out"  # BJ-TIMER-1: cards hit for the player (may be none)
    DEALER_PLAYED = "dealer_played"  # the dealer's cards and total
    SETTLED = "settled"  # the round is over


class Event(NamedTuple):
    """Something that happened at the table (every Blackjack event is public: cards
    are dealt face up, and the hole card appears only in events once it is turned)."""

    kind: EventKind
    actor: str | None = None
    hand: int | None = None
    amount: int | None = None
    card: str | None = None


class HandOutcome(StrEnum):
    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    SURRENDER = "surrender"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How one hand came out; ``net`` is the member's gain on it (doubles included)."""

    seat: str
    hand: int
    cards: tuple[str, ...]
    total: int
    bet: int  # everything staked on the hand (double included)
    outcome: HandOutcome
    net: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": self.hand,
            "cards": list(self.cards),
            "total": self.total,
            "bet": self.bet,
            "outcome": self.outcome.value,
            "net": self.net,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandResult:
        return cls(
            str(d["seat"]),
            int(d["hand"]),
            tuple(str(c) for c in d["cards"]),
            int(d["total"]),
            int(d["bet"]),
            HandOutcome(d["outcome"]),
            int(d["net"]),
        )


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A settled round: the dealer's cards, every hand, insurance nets per seat."""

    round_no: int
    dealer: tuple[str, ...]
    dealer_total: int
    dealer_blackjack: bool
    hands: tuple[HandResult, ...]
    insurance: tuple[tuple[str, int], ...]  # (seat, net) for each seat that insured

    def net_by_seat(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hands:
            out[h.seat] = out.get(h.seat, 0) + h.net
        for seat, net in self.insurance:
            out[seat] = out.get(seat, 0) + net
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "dealer": list(self.dealer),
            "dealer_total": self.dealer_total,
            "dealer_blackjack": self.dealer_blackjack,
            "hands": [h.to_json() for h in self.hands],
            "insurance": [[s, n] for s, n in self.insurance],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RoundResult:
        return cls(
            int(d["round"]),
            tuple(str(c) for c in d["dealer"]),
            int(d["dealer_total"]),
            bool(d["dealer_blackjack"]),
            tuple(HandResult.from_json(h) for h in d["hands"]),
            tuple((str(s), int(n)) for s, n in d["insurance"]),
        )


class Outcome:
    """What one ``apply`` produced; ``result`` is set when the action settled a round."""

    __slots__ = ("events", "result", "transfers")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.transfers: list[Transfer] = []
        self.result: RoundResult | None = None

    def __repr__(self) -> str:
        return f"Outcome(events={self.events!r}, transfers={self.transfers!r})"


__all__ = [
    "DEALER",
    "Action",
    "ActionKind",
    "Event",
    "EventKind",
    "HandOutcome",
    "HandResult",
    "LegalAction",
    "Outcome",
    "Phase",
    "RoundResult",
]
