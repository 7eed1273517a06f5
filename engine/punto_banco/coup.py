"""One coup exactly as the tableau says (B-VAL-1, B-DEAL-1, B-NAT-1, B-PUNTO-1, B-BANCO-1/2)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import Card, parse_card
from engine.errors import ConfigError
from engine.punto_banco.rules import Tableau


class Side(StrEnum):
    """The three bets (B-BET-1), also used for the two hands and for the coup's result."""

    PUNTO = "punto"
    BANCO = "banco"
    EGALITE = "egalite"  # the tie


def card_point(card: Card) -> int:
    """B-VAL-1: an ace counts 1, a ten or a picture 0, any other card its pips."""
    return 0 if card.value == 10 else card.value


def total(values: Sequence[int]) -> int:
    """B-VAL-1: the last digit of the sum of baccarat values (each 0..9)."""
    return sum(values) % 10


def hand_total(cards: Sequence[Card]) -> int:
    """B-VAL-1: ace 1, ten and pictures 0, others pip; only the last digit counts."""
    return sum(card_point(c) for c in cards) % 10


def is_natural(two_card_total: int) -> bool:
    """B-NAT-1: 8 or 9 with two cards."""
    return two_card_total >= 8


def punto_draws(punto_total: int) -> bool:
    """B-PUNTO-1: Punto draws on 0-5 and stands on 6-7 (naturals are handled before)."""
    return punto_total <= 5


# B-BANCO-2: for each Banco two-card total, the values of Punto's third card on which
# Banco draws. 0-2 always draw, 7 never.
_SEED_DRAWS: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(8)),  # 0-7; stands on 8, 9
    4: frozenset(range(2, 8)),  # 2-7
    5: frozenset(range(4, 8)),  # 4-7
    6: frozenset({6, 7}),
    7: frozenset(),
}
_STANDARD_DRAWS: dict[int, frozenset[int]] = {
    **_SEED_DRAWS,
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
}
TABLEAUX: dict[str, dict[int, frozenset[int]]] = {"seed": _SEED_DRAWS, "standard": _STANDARD_DRAWS}


def banco_draws(banco_total: int, punto_third: int | None, tableau: Tableau = "seed") -> bool:
    """Whether Banco (no natural on either side) takes a third card.

    ``punto_third`` is the baccarat value of Punto's third card, or None when Punto stood.
    B-BANCO-1: Punto stood -> Banco draws on 0-5, stands on 6-7.
    B-BANCO-2: Punto drew -> the tableau (``"seed"`` or ``"standard"``).
    """
    if not 0 <= banco_total <= 7:
        raise ValueError(f"no third-card decision for a Banco total of {banco_total}")
    if punto_third is None:
        return banco_total <= 5
    return punto_third in TABLEAUX[tableau][banco_total]


def winner_of(punto_total: int, banco_total: int) -> Side:
    """B-WIN-1: the side closer to 9 wins; equal totals are an Egalité (B-TIE-1)."""
    if punto_total > banco_total:
        return Side.PUNTO
    if banco_total > punto_total:
        return Side.BANCO
    return Side.EGALITE


@dataclass(frozen=True, slots=True)
class Coup:
    """A finished coup. ``dealt`` lists every card in the order it came out of the shoe,
    with the side that received it (for card-by-card display)."""

    dealt: tuple[tuple[Side, Card], ...]
    punto_total: int
    banco_total: int
    winner: Side
    natural: bool  # B-NAT-1: the coup ended on a natural after two cards each

    @property
    def punto(self) -> tuple[Card, ...]:
        return tuple(c for s, c in self.dealt if s is Side.PUNTO)

    @property
    def banco(self) -> tuple[Card, ...]:
        return tuple(c for s, c in self.dealt if s is Side.BANCO)

    @property
    def punto_third(self) -> Card | None:
        p = self.punto
        return p[2] if len(p) == 3 else None

    @property
    def banco_third(self) -> Card | None:
        b = self.banco
        return b[2] if len(b) == 3 else None

    @property
    def cards_used(self) -> int:
        return len(self.dealt)

    def to_json(self) -> dict[str, Any]:
        return {
            "dealt": [[s.value, c.code] for s, c in self.dealt],
            "punto": [c.code for c in self.punto],
            "banco": [c.code for c in self.banco],
            "punto_total": self.punto_total,
            "banco_total": self.banco_total,
            "winner": self.winner.value,
            "natural": self.natural,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Coup:
        try:
            dealt = tuple((Side(s), parse_card(c)) for s, c in data["dealt"])
            coup = cls(
                dealt=dealt,
                punto_total=int(data["punto_total"]),
                banco_total=int(data["banco_total"]),
                winner=Side(data["winner"]),
                natural=bool(data["natural"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"not a stored coup: {exc}") from exc
        return coup


def play_coup(deal: Callable[[], Card], tableau: Tableau = "seed") -> Coup:
    """Play one coup, taking cards one at a time from ``deal`` (the top of the shoe).

    B-DEAL-1: Punto, Banco, Punto, Banco. B-NAT-1: a natural on either side ends it.
    B-PUNTO-1: Punto draws on 0-5. B-BANCO-1/B-BANCO-2: then Banco acts.
    """
    p1, b1, p2, b2 = deal(), deal(), deal(), deal()
    dealt: list[tuple[Side, Card]] = [
        (Side.PUNTO, p1),
        (Side.BANCO, b1),
        (Side.PUNTO, p2),
        (Side.BANCO, b2),
    ]
    pt = (card_point(p1) + card_point(p2)) % 10
    bt = (card_point(b1) + card_point(b2)) % 10
    if is_natural(pt) or is_natural(bt):
        return Coup(tuple(dealt), pt, bt, winner_of(pt, bt), True)
    punto_third: int | None = None
    if punto_draws(pt):
        p3 = deal()
        dealt.append((Side.PUNTO, p3))
        punto_third = card_point(p3)
        pt = (pt + punto_third) % 10
    if banco_draws(bt, punto_third, tableau):
        b3 = deal()
        dealt.append((Side.BANCO, b3))
        bt = (bt + card_point(b3)) % 10
    return Coup(tuple(dealt), pt, bt, winner_of(pt, bt), False)


def play_cards(cards: Sequence[Card], tableau: Tableau = "seed") -> Coup:
    """Play a coup from a stacked list of cards (top first); extra cards are left unused."""
    it = iter(cards)

    def deal() -> Card:
        try:
            return next(it)
        except StopIteration:
            raise ConfigError("not enough cards for a coup") from None

    return play_coup(deal, tableau)
