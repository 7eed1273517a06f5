"""Hand values and ranking (P-VAL-*, P-RANK-*, P-VAR-6, P-VAR-7).

A hand's *score* is one int that orders hands as section 2 of the rules does:

- ``BUST`` (-1) for a bust hand (P-VAL-2, P-RANK-5);
- the best total 2..21 for an ordinary hand of fewer than five cards (P-RANK-3/4);
- ``FIVE`` (30) for a five card trick (P-RANK-2);
- ``PONTOON`` (40) for a pontoon, ``STRONG_PONTOON`` (41) for the stronger pontoons of
  P-VAR-7 (a) and (c) (P-RANK-1);
- ``ROYAL`` (50) for three sevens held by a player with P-VAR-6.

A hand beats another when its score is higher; ties go to the banker (P-RANK-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import Card, Rank

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
