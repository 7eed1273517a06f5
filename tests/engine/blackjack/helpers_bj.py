"""Helpers shared by the Blackjack engine tests: stacked shoes, a table with seats
and bets, and a ledger that follows the transfers."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Shoe
from engine.blackjack.actions import Outcome
from engine.cards import Chance, RandomChance, full_pack, parse_card
from engine.records import ESCROW, HOUSE

K = ActionKind


def chance(seed: int = 0) -> RandomChance:
    return RandomChance(random.Random(seed))


def stacked(rules: BlackjackRules, top: Sequence[str]) -> Shoe:
    """A shoe whose top cards are ``top`` (top first), then the rest in new-deck order."""
    cards = [parse_card(c) for c in top]
    rest = full_pack(rules.decks)
    for c in cards:
        rest.remove(c)
    return Shoe(rules.decks, cards + rest)


class Ledger:
    """Members' chips outside the table, the house and escrow, moved by the transfers."""

    def __init__(self, balances: dict[str, int]) -> None:
        self.accounts = dict(balances)
        self.accounts.setdefault(ESCROW, 0)
        self.accounts.setdefault(HOUSE, 0)

    def move(self, out: Outcome) -> Outcome:
        for t in out.transfers:
            assert t.amount > 0, t
            self.accounts[t.src] -= t.amount
            self.accounts[t.dst] = self.accounts.get(t.dst, 0) + t.amount
        return out

    def __getitem__(self, name: str) -> int:
        return self.accounts[name]

    @property
    def total(self) -> int:
        return sum(self.accounts.values())


class Game:
    """A table, its ledger and a chance: ``act`` applies an action with the member's
    balance as the ledger says."""

    def __init__(
        self,
        rules: BlackjackRules | None = None,
        top: Sequence[str] = (),
        seats: Iterable[str] = ("ann",),
        chips: int = 100,
        luck: Chance | None = None,
    ) -> None:
        self.rules = rules if rules is not None else BlackjackRules()
        shoe = stacked(self.rules, top) if top else None
        self.table = BlackjackTable(self.rules, shoe)
        seats = list(seats)
        self.ledger = Ledger({s: chips for s in seats})
        self.luck = luck if luck is not None else chance()
        for s in seats:
            self.table.apply(Action(s, K.JOIN))

    def act(self, seat: str, kind: ActionKind, amount: int | None = None) -> Outcome:
        balance = self.ledger.accounts.get(seat, 0)
        return self.ledger.move(self.table.apply(Action(seat, kind, amount, balance), self.luck))

    def deal(self) -> Outcome:
        return self.ledger.move(self.table.apply(Action(DEALER, K.DEAL), self.luck))

    def timeout(self) -> Outcome:
        return self.ledger.move(self.table.apply(Action(DEALER, K.TIMEOUT), self.luck))

    def round(self, bets: dict[str, int]) -> Outcome:
        for seat, amount in bets.items():
            self.act(seat, K.BET, amount)
        return self.deal()
