"""Bets and their settlement as ledger transfers (B-BET-1, B-WIN-1, B-TIE-1).

Escrow model (shared with the Pontoon engine): placing a bet moves the stake
bettor -> ``ESCROW``. Settlement moves it back ``ESCROW`` -> bettor (win or push) plus the
winnings ``HOUSE`` -> bettor, or ``ESCROW`` -> ``HOUSE`` on a loss. Every transfer has a
positive amount; after settlement nothing of the settled bets stays in escrow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.errors import RuleError
from engine.punto_banco.coup import Side
from engine.punto_banco.rules import PuntoBancoRules
from engine.records import ESCROW, HOUSE, Transfer

__all__ = [
    "ESCROW",
    "HOUSE",
    "Bet",
    "BetOutcome",
    "BetResult",
    "Settlement",
    "Transfer",
    "amount_refusal",
    "only_chips",
    "payout",
    "place_transfers",
    "settle",
    "validate_amount",
]


@dataclass(frozen=True, slots=True)
class Bet:
    """One bettor's stake on one side (B-BET-1). A bettor may hold bets on several sides."""

    bettor: str
    side: Side
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"bettor": self.bettor, "side": self.side.value, "amount": self.amount}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bet:
        return cls(str(data["bettor"]), Side(data["side"]), int(data["amount"]))


class BetOutcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"  # B-TIE-1: Punto and Banco bets are returned on an Egalité


@dataclass(frozen=True, slots=True)
class BetResult:
    """How one bet came out. ``net`` is the bettor's gain (winnings, 0, or -stake)."""

    bet: Bet
    outcome: BetOutcome
    net: int


@dataclass(frozen=True, slots=True)
class Settlement:
    results: tuple[BetResult, ...]
    transfers: tuple[Transfer, ...]

    def net_by_bettor(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            out[r.bet.bettor] = out.get(r.bet.bettor, 0) + r.net
        return out

    @property
    def house_net(self) -> int:
        return -sum(r.net for r in self.results)


def validate_amount(amount: object, rules: PuntoBancoRules, *, balance: int | None = None) -> int:
    """Check a stake against the table limits (B-BET-1); return it or raise RuleError.

    ``balance`` (optional) is what the bettor can still put on the table; a stake above it
    is refused too.
    """
    refusal = amount_refusal(amount, rules, balance=balance)
    if refusal is not None:
        raise refusal
    assert isinstance(amount, int)
    return amount


def amount_refusal(
    amount: object, rules: PuntoBancoRules, *, balance: int | None = None
) -> RuleError | None:
    """Why a stake of ``amount`` is refused (B-BET-1), or None: the one check of a stake."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return RuleError(
            "B-BET-1",
            f"a bet must be a whole number of chips, not {amount!r}",
            key="engine.pb.whole",
            amount=repr(amount),
        )
    if amount == 0:
        return RuleError(
            "B-BET-1", "a bet of 0 chips is not a bet; withdraw it instead", key="engine.pb.zero"
        )
    if amount < 0:
        return RuleError("B-BET-1", "a bet cannot be negative", key="engine.pb.negative")
    if amount < rules.min_bet:
        return RuleError(
            "B-BET-1",
            f"the smallest bet at this table is {rules.min_bet} chips",
            key="engine.pb.min",
            amount=rules.min_bet,
        )
    if amount > rules.max_bet:
        return RuleError(
            "B-BET-1",
            f"the largest bet at this table is {rules.max_bet} chips",
            key="engine.pb.max",
            amount=rules.max_bet,
        )
    if balance is not None and amount > balance:
        return only_chips(balance)
    return None


def only_chips(balance: int) -> RuleError:
    """The refusal of a bet larger than the bettor's ``balance`` (B-BET-1)."""
    chips = max(balance, 0)
    return RuleError(
        "B-BET-1", f"you have only {chips} chips to bet with", key="engine.pb.only", amount=chips
    )


def place_transfers(bet: Bet) -> list[Transfer]:
    """The escrow transfer for a newly placed bet: bettor -> ESCROW."""
    return [Transfer(bet.bettor, ESCROW, bet.amount, f"{bet.side.value} bet")]


def payout(bet: Bet, winner: Side, rules: PuntoBancoRules) -> tuple[BetOutcome, int]:
    """(outcome, bettor's net gain) of one bet when ``winner`` won the coup.

    B-WIN-1: Punto pays 1:1; Banco pays 1:1 less the commission, rounded DOWN to chips.
    B-TIE-1: Egalité pays ``tie_pays``:1 with the stake returned; on an Egalité, Punto and
    Banco bets are returned.
    """
    if winner is Side.EGALITE:
        if bet.side is Side.EGALITE:
            return BetOutcome.WIN, bet.amount * rules.tie_pays
        return BetOutcome.PUSH, 0
    if bet.side is not winner:
        return BetOutcome.LOSE, -bet.amount
    if bet.side is Side.BANCO:
        return BetOutcome.WIN, rules.banco_winnings(bet.amount)
    return BetOutcome.WIN, bet.amount


def settle(bets: Iterable[Bet], winner: Side, rules: PuntoBancoRules) -> Settlement:
    """Settle every bet (each already in ESCROW) against the coup's ``winner``."""
    results: list[BetResult] = []
    transfers: list[Transfer] = []
    for bet in bets:
        outcome, net = payout(bet, winner, rules)
        results.append(BetResult(bet, outcome, net))
        transfers.extend(_settle_transfers(bet, outcome, net))
    return Settlement(tuple(results), tuple(transfers))


def _settle_transfers(bet: Bet, outcome: BetOutcome, net: int) -> Sequence[Transfer]:
    side = bet.side.value
    if outcome is BetOutcome.LOSE:
        return [Transfer(ESCROW, HOUSE, bet.amount, f"{side} bet lost")]
    if outcome is BetOutcome.PUSH:
        return [Transfer(ESCROW, bet.bettor, bet.amount, f"{side} bet returned on egalite")]
    out = [Transfer(ESCROW, bet.bettor, bet.amount, f"{side} stake back")]
    if net > 0:  # a Banco win on a tiny stake can round down to nothing
        out.append(Transfer(HOUSE, bet.bettor, net, f"{side} bet won"))
    return out
