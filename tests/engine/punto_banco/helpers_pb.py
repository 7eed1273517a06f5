"""Helpers shared by the Punto Banco tests: cards of a given baccarat value."""

from __future__ import annotations

from engine.cards import Card, parse_card

_RANK = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def card(value: int, suit: str = "S") -> Card:
    """A card of baccarat value ``value`` (0 gives a king)."""
    return parse_card(_RANK[value] + suit)


def two_cards(total: int) -> tuple[Card, Card]:
    """Two cards totalling ``total`` (a picture and the value card)."""
    return card(0, "H"), card(total, "D")


def stack(punto: int, banco: int, *rest: int) -> list[Card]:
    """A stacked shoe: Punto's and Banco's two-card totals in deal order P, B, P, B, then
    the values of the following cards."""
    p1, p2 = two_cards(punto)
    b1, b2 = two_cards(banco)
    return [p1, b1, p2, b2, *(card(v, "C") for v in rest)]
