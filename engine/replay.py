"""What the ``replay`` command of every game shares: the shoe a document stacks, and
the chip accounts followed through the transfers a table returns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.cards import Card, full_pack
from engine.errors import ConfigError
from engine.records import ESCROW, HOUSE, Transfer


def stacked_shoe(top: list[Card], packs: int) -> list[Card]:
    """The listed cards on top, then the rest of ``packs`` full packs in new-pack order
    (a card listed more often than the packs hold it is refused)."""
    rest = full_pack(packs)
    for c in top:
        if c not in rest:
            raise ConfigError(f"the shoe holds {c.code} too often")
        rest.remove(c)
    return top + rest


def opening_accounts(balances: Mapping[Any, int]) -> dict[str, int]:
    """The chips each account holds before the first action: the document's
    ``balances``, and empty escrow and house accounts unless it names them."""
    accounts = {str(k): v for k, v in balances.items()}
    accounts.setdefault(ESCROW, 0)
    accounts.setdefault(HOUSE, 0)
    return accounts


def move_chips(accounts: dict[str, int], transfers: Iterable[Transfer]) -> None:
    """Follow ``transfers`` in ``accounts`` (an account not there yet starts at 0)."""
    for t in transfers:
        accounts[t.src] = accounts.get(t.src, 0) - t.amount
        accounts[t.dst] = accounts.get(t.dst, 0) + t.amount


__all__ = ["move_chips", "opening_accounts", "stacked_shoe"]
