"""Hand values and ranking (P-VAL-*, P-RANK-*, P-VAR-6, P-VAR-7).

A hand's *score* is one int that orders hands as section 2 of the rules does:

- ``BUST`` (-1) for a bust hand (P-VAL-2, P-RANK-5);
- the best total 2..21 for an ordinary hand of fewer than five cards (P-RANK-3/4);
- ``FIVE`` (30) for a five card trick (P-RANK-2);
- ``PONTOON`` (40) for a pontoon, ``STRONG_PONTOON`` (41) for the stronger pontoons of
  P-VAR-7 (a) and (c) (P-RANK-1);
- ``ROYAL`` (50) for three sevens held by a player with P-VAR-6.

A hand beats another when its score is higher; ties go to the banker (P-RANK-6).

``Hand`` is one hand on the table: cards, stake, shoot bets and status.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, Rank
from engine.pontoon.views import HandStatus

BUST: Final = -1
FIVE: Final = 30
PONTOON: Final = 40
STRONG_PONTOON: Final = 41
ROYAL: Final = 50

_PICTURES: Final = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
_NATURAL: Final = frozenset({Rank.QUEEN, Rank.KING})


def hard_total(cards: Sequence[Card]) -> int:
    """Total with every ace counted as 1."""
    t = 0
    for c in cards:
        t += c.value
    return t


def best_total(cards: Sequence[Card]) -> int:
    """P-VAL-1: the best total, an ace counting 11 when that stays at 21 or less."""
    t = 0
    ace = False
    for c in cards:
        v = c.value
        t += v
        if v == 1:
            ace = True
    if ace and t <= 11:
        return t + 10
    return t


def pontoon_class(cards: Sequence[Card], strength: str) -> int:
    """PONTOON / STRONG_PONTOON when the two cards make a pontoon under ``strength``
    (P-RANK-1, P-VAR-7), else 0."""
    if len(cards) != 2:
        return 0
    a, b = cards
    if a.value == 1 and b.value == 10:
        other = b
    elif b.value == 1 and a.value == 10:
        other = a
    else:
        return 0
    if strength == "standard":
        return PONTOON
    r = other.rank
    if strength == "ace_ten_not_pontoon":
        return 0 if r is Rank.TEN else PONTOON
    if strength == "picture_beats_ten":
        return STRONG_PONTOON if r in _PICTURES else PONTOON
    # natural
    return STRONG_PONTOON if r in _NATURAL else PONTOON


def is_royal(cards: Sequence[Card]) -> bool:
    """P-VAR-6: exactly three sevens."""
    return len(cards) == 3 and all(c.rank is Rank.SEVEN for c in cards)


def score(cards: Sequence[Card], strength: str = "standard", royal: bool = False) -> int:
    """The ranking score of a hand (see the module docstring). ``royal`` is True only for
    a player's hand at a table with P-VAR-6."""
    t = best_total(cards)
    if t > 21:
        return BUST
    n = len(cards)
    if n == 2:
        p = pontoon_class(cards, strength)
        if p:
            return p
    elif n == 3 and royal and is_royal(cards):
        return ROYAL
    if n >= 5:
        return FIVE
    return t


def describe(s: int) -> str:
    if s == BUST:
        return "bust"
    if s == ROYAL:
        return "royal pontoon"
    if s >= PONTOON:
        return "pontoon"
    if s == FIVE:
        return "five card trick"
    return str(s)


class Hand:
    """One hand on the table (a player's, or the banker's): its cards and its money.

    ``total`` (the best total, P-VAL-1), ``hard_total`` (aces as 1) and ``has_ace``
    follow every card added."""

    __slots__ = (
        "_codes",
        "cards",
        "face_up",
        "from_split",
        "hard_total",
        "has_ace",
        "last_buy",
        "original_stake",
        "shoot",
        "shown",
        "stake",
        "status",
        "total",
        "twisted",
    )

    def __init__(
        self, cards: Sequence[Card] = (), stake: int = 0, *, face_up: bool = False
    ) -> None:
        self.cards: list[Card] = []
        self._codes: tuple[str, ...] = ()  # the cards' codes, for events and views
        self.face_up: list[bool] = []  # per card: dealt face up (public)
        self.hard_total = 0
        self.has_ace = False
        self.total = 0
        for card in cards:
            self.add(card, face_up)
        self.stake = stake  # initial bet plus buys (P-BUY-1)
        self.original_stake = stake  # P-BUY-2/3, P-SPLIT-1
        self.last_buy = 0  # chips added by the previous buy, 0 = no buy yet (P-BUY-3)
        self.twisted = False  # P-TWIST-2
        self.shoot = 0  # shoot bets riding on this hand (P-SHOOT-*)
        self.status = HandStatus.OPEN
        self.from_split = False  # P-SPLIT-3
        self.shown = False  # every card public (bust, declared, settled)

    def add(self, card: Card, face_up: bool) -> None:
        self.cards.append(card)
        self._codes += (card.code,)
        self.face_up.append(face_up)
        self.hard_total += card.value
        if card.value == 1:
            self.has_ace = True
        # P-VAL-1: an ace counts 11 when that stays at 21 or less
        self.total = (
            self.hard_total + 10 if self.has_ace and self.hard_total <= 11 else self.hard_total
        )

    def replace_cards(self, cards: Sequence[Card], face_up: bool) -> None:
        """New cards for the same stake (a split keeps one card, a burn deals two)."""
        self.cards = []
        self._codes = ()
        self.face_up = []
        self.hard_total = 0
        self.has_ace = False
        self.total = 0
        for card in cards:
            self.add(card, face_up)

    def codes(self) -> tuple[str, ...]:
        return self._codes

    def is_pontoon(self, strength: str) -> bool:
        """An ace and a ten-card as the only two cards, under ``strength`` (P-RANK-1,
        P-VAR-7)."""
        if self.total != 21 or len(self.cards) != 2:
            return False
        return pontoon_class(self.cards, strength) != 0

    def score(self, strength: str, royal: bool) -> int:
        """The ranking score (see the module docstring); ``royal`` only for a player's hand
        at a table with P-VAR-6."""
        total = self.total
        if total > 21:
            return BUST
        n = len(self.cards)
        if total == 21 and n <= 3:
            return score(self.cards, strength, royal)
        if n >= 5:
            return FIVE
        return total
