"""Cards, ranks, suits and the pack (P-TABLE-1, P-NEXT-1, B-TABLE-2).

The pack deals from the top (index 0) and takes used cards at the bottom. Shuffling
only ever happens through a random source passed in by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Final, Protocol

from engine.errors import ConfigError


class Suit(str, Enum):  # noqa: UP042
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


class Rank(str, Enum):  # noqa: UP042
    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"


_COUNT_VALUE: Final[dict[Rank, int]] = {
    Rank.ACE: 1,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 8,
    Rank.NINE: 9,
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
}
# Cut order for P-BANK-1: ace high, then K, Q, ... 2.
_CUT_ORDER: Final[dict[Rank, int]] = {
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 8,
    Rank.NINE: 9,
    Rank.TEN: 10,
    Rank.JACK: 11,
    Rank.QUEEN: 12,
    Rank.KING: 13,
    Rank.ACE: 14,
}
_SUIT_SYMBOL: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Card:
    """An immutable playing card. ``str(card)`` is the compact code, e.g. ``"10H"``."""

    __slots__ = ("code", "rank", "suit", "value")

    rank: Rank
    suit: Suit
    value: int
    code: str

    def __init__(self, rank: Rank, suit: Suit) -> None:
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "value", _COUNT_VALUE[rank])
        object.__setattr__(self, "code", rank.value + suit.value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def cut_rank(self) -> int:
        """Rank order for cutting for the bank (P-BANK-1): ace high."""
        return _CUT_ORDER[self.rank]

    @property
    def is_ten_card(self) -> bool:
        return self.value == 10

    @property
    def pretty(self) -> str:
        """A human label such as ``10♥``."""
        return self.rank.value + _SUIT_SYMBOL[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __reduce__(self) -> tuple[object, ...]:
        return (parse_card, (self.code,))


_CARDS: Final[dict[str, Card]] = {}
for _s in Suit:
    for _r in Rank:
        _CARDS[_r.value + _s.value] = Card(_r, _s)


def parse_card(text: str) -> Card:
    """Parse ``"AS"``, ``"10H"``, ``"TH"`` (T for ten), case-insensitive."""
    code = text.strip().upper()
    if code.startswith("T"):
        code = "10" + code[1:]
    card = _CARDS.get(code)
    if card is None:
        raise ConfigError(f"not a card: {text!r} (use rank A 2..10 J Q K or T, suit S H D C)")
    return card


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def full_pack(packs: int = 1) -> list[Card]:
    """``packs`` standard 52-card packs in a fixed new-pack order."""
    if packs < 1:
        raise ConfigError("a table needs at least one pack")
    one = [_CARDS[r.value + s.value] for s in Suit for r in Rank]
    return one * packs


class Chance(Protocol):
    """Where randomness comes in. The engine never draws randomness on its own."""

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        """Return the cards in a new, shuffled and cut order (top first)."""
        ...

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (used for cuts)."""
        ...


_BITS: Final = [n.bit_length() for n in range(8 * 52 + 1)]


def _shuffle(x: list[Card], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle(x)`` step for step (the same draws, the same order), without
    its per-card method calls: Fisher-Yates with ``_randbelow_with_getrandbits``."""
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class RandomChance:
    """Chance backed by a ``random.Random`` (seeded in tests, ``SystemRandom`` in production)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        out = list(cards)
        rng = self.rng
        if type(rng) is random.Random and len(out) < len(_BITS):
            _shuffle(out, rng.getrandbits)
        else:
            rng.shuffle(out)
        if len(out) > 1:  # the cut after a shuffle
            k = rng.randrange(len(out))
            out = out[k:] + out[:k]
        return out

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


class ScriptedChance:
    """Chance that replays given pack orders, then falls back to a seeded shuffle."""

    def __init__(self, packs: Sequence[Sequence[Card]], seed: int = 0) -> None:
        self.packs = [list(p) for p in packs]
        self.fallback = RandomChance(random.Random(seed))

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        if self.packs:
            nxt = self.packs.pop(0)
            if sorted(c.code for c in nxt) != sorted(c.code for c in cards):
                raise ConfigError("a scripted reshuffle must hold exactly the cards of the pack")
            return nxt
        return self.fallback.shuffle(cards)

    def randbelow(self, n: int) -> int:
        return self.fallback.randbelow(n)


class Pack:
    """An ordered pack: deal from the top, used cards go to the bottom (P-NEXT-1).

    ``stack`` holds the cards left with the top card LAST, so dealing is ``stack.pop()``
    (hot loops may call that directly after checking that the pack is not empty)."""

    __slots__ = ("stack",)

    def __init__(self, cards: Iterable[Card]) -> None:
        self.stack: list[Card] = list(cards)
        self.stack.reverse()

    def __len__(self) -> int:
        return len(self.stack)

    @property
    def cards(self) -> list[Card]:
        """The remaining cards, top first (a copy); same as ``peek()``."""
        return self.stack[::-1]

    def deal(self) -> Card:
        """Take the top card."""
        stack = self.stack
        if not stack:
            raise ConfigError("the pack is empty")
        return stack.pop()

    def peek(self) -> list[Card]:
        """The remaining cards, top first (a copy)."""
        return self.stack[::-1]

    def add_to_bottom(self, cards: Iterable[Card]) -> None:
        under = list(cards)
        under.reverse()
        self.stack[:0] = under

    def replace(self, cards: Iterable[Card]) -> None:
        """Set a new order (after a shuffle)."""
        stack = list(cards)
        stack.reverse()
        self.stack = stack

    def codes(self) -> list[str]:
        return [c.code for c in reversed(self.stack)]
