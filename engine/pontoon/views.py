"""Read-only views of a Pontoon table for UIs (what a viewer may see)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from engine.pontoon.types import Phase


class HandStatus(str, Enum):  # noqa: UP042
    OPEN = "open"  # still being played (or waiting for its turn)
    STUCK = "stuck"  # P-STICK-1 (also the banker's "stay")
    BUST = "bust"  # P-BUST-1
    FIVE_CARD_TRICK = "five_card_trick"  # P-FIVE-1
    PONTOON = "pontoon"  # declared pontoon (P-TURN-DECLARE)
    TWENTY_ONE = "twenty_one"  # reached 21 and stands (P-STICK-1)
    ROYAL = "royal"  # three sevens (P-VAR-6)


class HandView(NamedTuple):
    """One hand as a viewer may see it. An immutable record (a tuple underneath, like
    ``Event``), read by attribute name."""

    seat: str
    index: int  # type: ignore[assignment]  # (the field replaces tuple.index)
    cards: tuple[str, ...]  # the cards visible to the viewer
    hidden: int  # face-down cards the viewer may not see
    stake: int
    shoot: int
    status: HandStatus
    total: int | None  # best total, None when not every card is visible


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: str
    balance: int
    hands: list[HandView] = field(default_factory=list)
    sitting_out: bool = False
    bet_placed: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    phase: Phase
    version: int
    round_no: int
    banker: str | None
    seats: list[SeatView]
    turn: tuple[str, int] | None
    kitty: int
    banker_hand: HandView | None
    needs_shuffle: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """What one member (or an onlooker, ``viewer`` None) may know of the table now beyond
    what everyone sees (``Table.public_view``), in the spirit of open_spiel's Observer:
    the engine decides it, the bot only draws it. Cheap: nothing of the table is copied
    but the viewer's own hands."""

    viewer: str | None
    #: the viewer's own hands with every card they may look at now: a player sees their
    #: own cards (P-DEAL-1); the banker sees the banker's cards only once allowed to look
    #: (the first card under P-VAR-3, all of them in the banker's turn, P-BANKER-1)
    hands: list[HandView]
    #: face-down cards dealt to the viewer now are to be handed to them now: a player's
    #: first card waits for the second (P-DEAL-1, P-DEAL-3); the banker is handed only the
    #: first card, to decide whether to double (P-VAR-3), and otherwise sees the cards when
    #: they are turned up (P-BANKER-1)
    cards_due: bool
    #: P-PAY-LIMIT: the most new stake the banker can still cover while bets and buys are
    #: open (None when none are); a house bank covers everything (a very large number)
    cover_room: int | None
    #: who banks the next deal (P-NEXT-2, P-SELL-1)
    next_banker: str | None
    #: each seat's net chips from the last settled round (``Table.returns()``)
    returns: dict[str, int]

    @property
    def net(self) -> int | None:
        """The viewer's net chips from the last settled round (None: no part in it)."""
        return None if self.viewer is None else self.returns.get(self.viewer)
