"""What a viewer may see of a Blackjack table (``BlackjackTable.observe``): immutable
records, the engine's answer to who sees what (docs/rules/blackjack.md).

- BJ-DEAL-1: every player's card is dealt face up, so every seat's hands are public;
  the dealer's second card (the hole card) is face down.
- BJ-PEEK-1: with an ace or a ten-value card up the dealer looks at the hole card, and
  turns it up only when it makes a blackjack (the round ends there).
- BJ-DEALER-1: after the players the hole card is turned up for everyone.
- BJ-NHC-1: without a peek the dealer's second card is dealt after the players, face up.

Nobody, the dealer's own view included, is shown the hole card before then: the dealer
is the bot and decides nothing a view could inform (BJ-DEALER-1), so every viewer's
observation is the public one, and a seat's also names that seat's own hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.blackjack.actions import HandOutcome, Phase, RoundResult
from engine.cards import Card


@dataclass(frozen=True, slots=True)
class HandSeen:
    """One hand of a seat as everyone sees it (its cards are face up, BJ-DEAL-1)."""

    seat: str
    index: int
    cards: tuple[Card, ...]
    staked: int  # its bet and what a double added
    doubled: int
    done: bool
    outcome: HandOutcome | None  # set once the hand is settled


@dataclass(frozen=True, slots=True)
class BoxSeen:
    """A seat's part of the round: its hands and its insurance (None: not answered)."""

    seat: str
    hands: tuple[HandSeen, ...]
    insurance: int | None


@dataclass(frozen=True, slots=True)
class BlackjackObservation:
    """What ``viewer`` may see of the table now (``PUBLIC`` None: everyone)."""

    viewer: str | None
    phase: Phase
    round_no: int
    seats: tuple[str, ...]
    #: each seat's bet on the next round (BJ-BET-1)
    bets: Mapping[str, int]
    #: the dealer's cards anyone may see: without the hole card while it is face down
    #: (BJ-DEAL-1, BJ-PEEK-1, BJ-DEALER-1)
    dealer: tuple[Card, ...]
    #: the dealer's face-down cards (1 while the hole card is down, else 0)
    dealer_hidden: int
    #: the seats with hands in the round (the last round's once it is over), seat order
    boxes: tuple[BoxSeen, ...]
    #: (seat, hand index) whose hand is played now
    turn: tuple[str, int] | None
    #: the last settled round (every card in it is face up by then)
    last_result: RoundResult | None
    #: the viewer's own hands in the round (empty for the public and the dealer)
    hands: tuple[HandSeen, ...]

    def box(self, seat: str) -> BoxSeen | None:
        """``seat``'s part of the round, or None."""
        return next((b for b in self.boxes if b.seat == seat), None)


__all__ = ["BlackjackObservation", "BoxSeen", "HandSeen"]
