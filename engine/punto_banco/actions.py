"""Punto Banco's moves as records (the :class:`engine.game.Game` interface).

A bettor's BET (a side and an amount: a new bet, or the bet on that side raised or
lowered to it), WITHDRAW (one side, or every bet when ``side`` is None) and REPEAT (the
last coup's bets again, B-BET-1); the croupier's DEAL (B-TABLE-1: the bot alone touches
the cards). ``balance`` is what the bettor holds outside the table, as the ledger says
now: the engine refuses a bet the bettor could not cover with it (None: not checked).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from engine.punto_banco.bets import Settlement
from engine.punto_banco.coup import Coup, Side
from engine.records import Transfer

CROUPIER: Final = "@croupier"  # B-TABLE-1: who deals (the bot)


class ActionKind(StrEnum):
    BET = "bet"
    WITHDRAW = "withdraw"
    REPEAT = "repeat"
    DEAL = "deal"


@dataclass(frozen=True, slots=True)
class Action:
    actor: str  # a bettor, or CROUPIER for DEAL
    kind: ActionKind
    side: Side | None = None  # BET, WITHDRAW (None: every bet of the actor)
    amount: int | None = None  # BET: the stake on ``side`` after the action
    balance: int | None = None  # BET/REPEAT: the bettor's chips outside the table


class LegalAction(NamedTuple):
    """One thing an actor may do now; amount ranges inclusive (None: no amount). An
    immutable record (a tuple underneath), read by attribute name."""

    kind: ActionKind
    side: Side | None = None
    min_amount: int | None = None
    max_amount: int | None = None


class EventKind(StrEnum):
    BET = "bet"  # a bet placed or changed: amount = the stake on the side now
    REPEATED = "repeated"  # a bet of the last coup placed again
    WITHDRAWN = "withdrawn"  # amount = what came back
    SHUFFLED = "shuffled"  # the shoe was reshuffled before the coup (B-TABLE-2)
    COUP = "coup"  # a coup was dealt and settled; side = the winner


class Event(NamedTuple):
    """Something that happened at the table (every Punto Banco event is public). An
    immutable record (a tuple underneath: cheap to build), read by attribute name."""

    kind: EventKind
    actor: str | None = None
    side: Side | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class CoupResult:
    """A coup dealt and settled."""

    coup_no: int
    shuffled: bool  # the shoe was reshuffled before this coup (B-TABLE-2)
    coup: Coup
    settlement: Settlement

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.settlement.transfers


class Outcome:
    """What one ``apply`` produced; ``coup`` is set by a DEAL."""

    __slots__ = ("coup", "events", "transfers")

    def __init__(
        self,
        events: list[Event] | None = None,
        transfers: list[Transfer] | None = None,
        coup: CoupResult | None = None,
    ) -> None:
        self.events: list[Event] = [] if events is None else events
        self.transfers: list[Transfer] = [] if transfers is None else transfers
        self.coup = coup

    def __repr__(self) -> str:
        return f"Outcome(events={self.events!r}, transfers={self.transfers!r}, coup={self.coup!r})"


__all__ = [
    "CROUPIER",
    "Action",
    "ActionKind",
    "CoupResult",
    "Event",
    "EventKind",
    "LegalAction",
    "Outcome",
]
