"""What a game gives the conformance test every game gets (``tests/engine/test_conformance.py``,
in the spirit of open_spiel's ``random_sim_test``): how to set up a table, who may try to
act, how to turn an offer from ``legal_actions`` into an action, which actions to try that
are likely refused, which chips the state holds, and how to check what an observer sees.

Each game's package defines one :class:`RandomPlay` (``engine/<game>/random_play.py``) and
``engine.games`` lists them, so the engine can name its games without the bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any, Protocol, TypeVar

from engine.cards import Card
from engine.records import ESCROW, HOUSE, Transfer

#: a table set up for random play: (the state, the actors that may try to act)
Setup = tuple[Any, Sequence[str]]
A = TypeVar("A")


@dataclass(frozen=True)
class RandomPlay:
    """One game as the conformance test plays it at random (every callable is pure
    apart from the ``random.Random`` it is given)."""

    name: str  # the game's stored name (as in the bot's registry)
    #: a few tables worth playing (one per set of rules), each from a seed
    setups: Sequence[Callable[[random.Random], Setup]]
    #: an action for ``actor`` from one offer of ``legal_actions(actor)``; ``ledger`` is
    #: every account's chips as the transfers so far say (for chips held outside the state)
    sample: Callable[[Any, str, Any, random.Random, Mapping[str, int]], Any]
    #: True when every action sampled from this offer must be accepted (its amounts lie
    #: within a range the offer states exactly); False for offers whose other parts
    #: (a buyer, a price without a maximum) the rules may still refuse
    exact: Callable[[Any], bool]
    #: actions worth trying that the rules will often refuse (wrong actor, phase, amount)
    probes: Callable[[Any, Sequence[str], random.Random, Mapping[str, int]], Sequence[Any]]
    #: the chips each account inside the state holds now (seats, escrow, kitty ...)
    accounts: Callable[[Any], Mapping[str, int]]
    #: chips an account outside the state starts with (an outside wallet), by account
    wallets: Callable[[Sequence[str]], Mapping[str, int]]
    #: the chips ``transfers`` won for the house (lost, when negative) by play:
    #: ``returns()`` of a settled hand sums to minus what the hand's transfers say
    #: (to zero at a table whose bank is a player's and that plays no side pot)
    house_net: Callable[[Sequence[Any]], int]
    #: the rule breaches of ``state.observe(viewer)`` (None: the public, everyone in the
    #: channel): one line per card the rules keep from the viewer that it shows, per card
    #: of the viewer's own that it leaves out, per card it shows that is not on the table
    leaks: Callable[[Any, str | None], list[str]]


class HoldsEscrow(Protocol):
    """A table whose only chips are the stakes it holds (the players' and the house's
    chips are outside it)."""

    @property
    def escrow(self) -> int: ...


def escrow_account(table: HoldsEscrow) -> dict[str, int]:
    """``accounts`` of a table that holds only stakes: the escrow account."""
    return {ESCROW: table.escrow}


def house_takings(transfers: Iterable[Transfer]) -> int:
    """``house_net`` of a house-banked game: what the transfers moved into the house
    account, less what they moved out of it."""
    return sum(t.amount * ((t.dst == HOUSE) - (t.src == HOUSE)) for t in transfers)


def cards_in(observation: object) -> list[Card]:
    """Every card an observation holds anywhere (in records, tuples and mappings), for
    checks that look at all of it rather than at the fields they know."""
    found: list[Card] = []
    stack: list[object] = [observation]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.append(item)
        elif isinstance(item, str | int | float | bool | Enum) or item is None:
            continue
        elif is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in fields(item))
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, tuple | list | frozenset | set):
            stack.extend(item)
    return found


def probes_by(actors: Sequence[str], rng: random.Random, action: Callable[[str], A]) -> list[A]:
    """Two probes, each ``action(actor)`` for an actor drawn from ``actors`` and the house
    (who may never act)."""
    return [action(rng.choice([*actors, HOUSE])) for _ in range(2)]


__all__ = [
    "HoldsEscrow",
    "RandomPlay",
    "Setup",
    "cards_in",
    "escrow_account",
    "house_takings",
    "probes_by",
]
