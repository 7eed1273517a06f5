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
