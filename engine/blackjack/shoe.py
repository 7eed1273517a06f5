"""The shoe (BJ-TABLE-2): ``decks`` packs dealt from the top, a discard tray, the
reshuffle at penetration between rounds and the discards' reshuffle mid-round.

Every card of the shoe is always in exactly one place: the shoe, the discard tray or
the table (the round being played). Used cards reach the tray when a round is settled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine.cards import Card, Chance, Pack, full_pack, parse_cards
from engine.errors import ConfigError


class Shoe:
    """A shoe of ``decks`` packs. ``dealt`` counts the cards dealt since the last full
    shuffle (the cut card is reached at ``cut_after`` of them). A new shoe is empty, and
    so is shuffled before its first round."""

    __slots__ = ("dealt", "decks", "discards", "pack", "shuffles")

    def __init__(
        self,
        decks: int = 6,
        cards: Iterable[Card] = (),
        discards: Iterable[Card] = (),
        dealt: int = 0,
        shuffles: int = 0,
    ) -> None:
        if not 1 <= decks <= 8:
            raise ConfigError("a Blackjack shoe holds 1 to 8 decks")
        self.decks = decks
        self.pack = Pack(cards)
        self.discards: list[Card] = list(discards)
        self.dealt = dealt
        self.shuffles = shuffles
        held = Counter(c.code for c in self.pack.peek()) + Counter(c.code for c in self.discards)
        if held - Counter(c.code for c in full_pack(decks)):
            raise ConfigError(f"the shoe holds cards that a {decks}-deck shoe does not have")

    def __len__(self) -> int:
        return len(self.pack)

    def needs_shuffle(self, cut_after: int) -> bool:
        """BJ-TABLE-2: before a round, a new (empty) shoe or one dealt past the cut."""
        return len(self.pack) == 0 or self.dealt >= cut_after

    def shuffle(self, chance: Chance) -> None:
        """Gather every card (nothing is on the table between rounds) and shuffle."""
        self.pack.replace(chance.shuffle(full_pack(self.decks)))
        self.discards = []
        self.dealt = 0
        self.shuffles += 1

    def draw(self, chance: Chance) -> tuple[Card, bool]:
        """The top card, and True when the shoe ran out and the discards were shuffled
        back into it first (BJ-TABLE-2: a round never runs out of cards)."""
        refilled = False
        if len(self.pack) == 0:
            if not self.discards:
                raise ConfigError("no card left in the shoe or the discards")
            self.pack.replace(chance.shuffle(self.discards))
            self.discards = []
            refilled = True
        self.dealt += 1
        return self.pack.deal(), refilled

    def discard(self, cards: Iterable[Card]) -> None:
        self.discards.extend(cards)

    def to_json(self) -> dict[str, Any]:
        return {
            "decks": self.decks,
            "cards": self.pack.codes(),
            "discards": [c.code for c in self.discards],
            "dealt": self.dealt,
            "shuffles": self.shuffles,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shoe:
        try:
            return cls(
                int(data["decks"]),
                parse_cards(data["cards"]),
                parse_cards(data["discards"]),
                int(data["dealt"]),
                int(data["shuffles"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"not a stored shoe: {exc}") from exc


__all__ = ["Shoe"]
