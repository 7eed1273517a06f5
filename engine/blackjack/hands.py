"""Hand values (BJ-VAL-1, BJ-VAL-2) and the dealer's drawing rule (BJ-DEALER-1)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card


def total_of(values: Sequence[int]) -> tuple[int, bool]:
    """(total, soft) of card values (ace 1, tens 10): BJ-VAL-1, an ace counts 11
    unless that takes the hand over 21; a hand whose ace counts 11 is soft."""
    total = sum(values)
    if 1 in values and total + 10 <= 21:
        return total + 10, True
    return total, False


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """(total, soft) of a hand (BJ-VAL-1)."""
    return total_of([c.value for c in cards])


def best_total(cards: Sequence[Card]) -> int:
    return hand_total(cards)[0]


def is_blackjack(cards: Sequence[Card], from_split: bool = False) -> bool:
    """BJ-VAL-2: an ace and a ten-value card as a hand's first two cards, not on a hand
    made by a split."""
    return not from_split and len(cards) == 2 and best_total(cards) == 21


def dealer_hits(total: int, soft: bool, h17: bool) -> bool:
    """BJ-DEALER-1: the dealer draws below 17, and on a soft 17 only under ``h17``."""
    return total < 17 or (h17 and soft and total == 17)


__all__ = ["best_total", "dealer_hits", "hand_total", "is_blackjack", "total_of"]
