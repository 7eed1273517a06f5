"""What a viewer may see of a Pontoon table (``Table.observe``): immutable records.

Who sees what (docs/rules/pontoon.md): a player's face-down cards only their holder
(P-DEAL-1, P-DEAL-3: players look at their own cards); twisted cards are dealt face up
(P-TWIST-1), split hands are turned face up (P-SPLIT-1), a declared pontoon is shown
(P-TURN-DECLARE), a bust hand is shown at once (P-BUST-1), the banker's pontoon at the
deal is shown (P-DEAL-4) and the banker's two cards are turned up in the banker's turn
(P-BANKER-1); the banker looks at the banker's own first card only to decide whether to
double (P-VAR-3); settlement shows every hand still in play (section 7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
    hands: tuple[HandView, ...] = ()
    sitting_out: bool = False
    bet_placed: bool = False


@dataclass(frozen=True, slots=True)
class TableView:
    phase: Phase
    version: int
    round_no: int
    banker: str | None
    seats: tuple[SeatView, ...]
    turn: tuple[str, int] | None
    kitty: int
    banker_hand: HandView | None
    needs_shuffle: bool


@dataclass(frozen=True, slots=True)
class Observation:
    """What one viewer may see of the table now (``Table.observe``), in the spirit of
    open_spiel's Observer: the engine decides it, the bot only draws it. ``viewer`` None
    is the public, everyone in the channel; a seat (the banker's too, or ``HOUSE`` at a
    house bank) sees the public table and, beside it, its own hands. Built from the
    table in one go and never changed after: an observation kept is the table as it was.
    """

    viewer: str | None
    #: what everyone sees: every hand with only its face-up cards, unless the rules have
    #: shown it whole (see the module docstring)
    table: TableView
    #: the viewer's own hands with every card they may look at now: a player sees their
    #: own cards (P-DEAL-1, P-DEAL-3); the banker sees the banker's cards only once allowed
    #: to look (the first card under P-VAR-3, all of them in the banker's turn,
    #: P-BANKER-1). Empty for the public.
    hands: tuple[HandView, ...]
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
    #: the seats whose move the table waits for
    waiting_on: tuple[str, ...]
    #: each seat's net chips from the last settled round (``Table.returns()``)
    returns: Mapping[str, int]

    @property
    def net(self) -> int | None:
        """The viewer's net chips from the last settled round (None: no part in it)."""
        return None if self.viewer is None else self.returns.get(self.viewer)
