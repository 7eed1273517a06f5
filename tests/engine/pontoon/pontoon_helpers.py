"""Helpers for the Pontoon engine tests: stacked packs and short action calls."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card, ScriptedChance, full_pack, parse_card
from engine.pontoon import Action, ActionKind, Outcome, PontoonRules, Table
from engine.pontoon.types import ESCROW, HOUSE, KITTY, EventKind

K = ActionKind
E = EventKind
CH = ScriptedChance([], 0)


def complete(top: Iterable[str], packs: int = 1) -> list[Card]:
    given = [parse_card(c) for c in top]
    rest = full_pack(packs)
    for c in given:
        rest.remove(c)
    return given + rest


def stack(
    players: Sequence[tuple[str, str]], banker: tuple[str, str], draws: Sequence[str] = ()
) -> list[str]:
    """Pack top for a deal: first cards in play order then the banker's, the same for the
    second cards, then the cards drawn in play."""
    return (
        [p[0] for p in players] + [banker[0]] + [p[1] for p in players] + [banker[1]] + list(draws)
    )


def table(
    top: Sequence[str] = (),
    seats: Sequence[str] = ("ann", "bob", "cat"),
    banker: str | None = "cat",
    balance: int = 100,
    balances: dict[str, int] | None = None,
    deal: bool = True,
    **rules: object,
) -> Table:
    r = PontoonRules(**rules)  # type: ignore[arg-type]
    packs = r.packs or (2 if len(seats) >= 8 else 1)
    bal = balances if balances is not None else {s: balance for s in seats}
    t = Table(
        r, list(seats), bal, banker=None if r.house_bank else banker, pack=complete(top, packs)
    )
    if deal:
        dealer = seats[0] if r.house_bank else banker
        assert dealer is not None
        t.apply(Action(dealer, K.DEAL), CH)
    return t


def act(
    t: Table,
    seat: str,
    kind: ActionKind,
    amount: int | None = None,
    shoot: int | None = None,
    target: str | None = None,
) -> Outcome:
    return t.apply(Action(seat, kind, amount, shoot, target), CH)


def total_chips(t: Table) -> int:
    return sum(t.balances.values()) + t.escrow + t.kitty + t.house_net


def kinds(out: Outcome) -> list[EventKind]:
    return [e.kind for e in out.events]


def check_transfers_balance(out: Outcome) -> None:
    """Every transfer moves a positive amount between two different accounts."""
    for tr in out.transfers:
        assert tr.amount > 0
        assert tr.src != tr.dst


__all__ = [
    "CH",
    "ESCROW",
    "HOUSE",
    "KITTY",
    "E",
    "K",
    "act",
    "check_transfers_balance",
    "complete",
    "kinds",
    "stack",
    "table",
    "total_chips",
]
