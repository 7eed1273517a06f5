"""The shoe and the table state: bets, coups, reshuffles, JSON persistence.

Pure: the only randomness is the ``Chance`` passed to :meth:`PuntoBancoTable.deal` (or
:meth:`Shoe.prepare`). ``to_json`` / ``from_json`` round-trip exactly, so a table stored
in SQLite continues after a restart with the same shoe order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, Chance, Pack, full_pack, parse_cards
from engine.errors import ConfigError, RuleError
from engine.punto_banco.bets import (
    Bet,
    Settlement,
    only_chips,
    place_transfers,
    settle,
    validate_amount,
)
from engine.punto_banco.coup import Coup, Side, play_coup
from engine.punto_banco.rules import RESHUFFLE_BELOW, PuntoBancoRules
from engine.records import ESCROW, Transfer

STATE_FORMAT = 1


class Shoe:
    """``packs`` 52-card packs (B-TABLE-2). Deals from the top; used cards go to the discard
    tray (they come back only with the next shuffle of the full shoe). A new shoe is empty
    and so is shuffled before its first coup."""

    __slots__ = ("pack", "packs", "shuffles")

    def __init__(self, packs: int = 1, cards: Iterable[Card] = (), shuffles: int = 0) -> None:
        if not 1 <= packs <= 8:
            raise ConfigError("a Punto Banco shoe holds 1 to 8 packs")
        self.packs = packs
        self.pack = Pack(cards)
        self.shuffles = shuffles
        left = Counter(c.code for c in self.pack.peek())
        full = Counter(c.code for c in full_pack(packs))
        if left - full:
            raise ConfigError(f"the shoe holds cards that a {packs}-pack shoe does not have")

    def __len__(self) -> int:
        return len(self.pack)

    @property
    def needs_shuffle(self) -> bool:
        """B-TABLE-2: fewer than 6 cards left before a coup."""
        return len(self.pack) < RESHUFFLE_BELOW

    def shuffle(self, chance: Chance) -> None:
        """Gather every card and shuffle the full shoe."""
        self.pack.replace(chance.shuffle(full_pack(self.packs)))
        self.shuffles += 1

    def prepare(self, chance: Chance) -> bool:
        """Shuffle if the rules call for it before a coup; True when it did."""
        if self.needs_shuffle:
            self.shuffle(chance)
            return True
        return False

    def deal(self) -> Card:
        return self.pack.deal()

    def value_counts(self) -> list[int]:
        """Cards left per baccarat value 0..9 (for ``exact_odds_for_counts``)."""
        out = [0] * 10
        for c in self.pack.peek():
            out[c.baccarat_value] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {"packs": self.packs, "cards": self.pack.codes(), "shuffles": self.shuffles}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shoe:
        try:
            return cls(int(data["packs"]), parse_cards(data["cards"]), int(data["shuffles"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"not a stored shoe: {exc}") from exc


@dataclass(frozen=True, slots=True)
class CoupResult:
    """What :meth:`PuntoBancoTable.deal` produced."""

    coup_no: int
    shuffled: bool  # the shoe was reshuffled before this coup (B-TABLE-2)
    coup: Coup
    settlement: Settlement

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return self.settlement.transfers


class PuntoBancoTable:
    """A Punto Banco table: the shoe plus the bets on the next coup (B-TABLE-1, B-BET-1).

    Every method that moves chips returns the ledger transfers to write in the same
    transaction as the new state. A refused action raises ``RuleError`` and changes nothing.
    """

    def __init__(self, rules: PuntoBancoRules | None = None, shoe: Shoe | None = None) -> None:
        self.rules = rules if rules is not None else PuntoBancoRules()
        self.shoe = shoe if shoe is not None else Shoe(self.rules.packs)
        if self.shoe.packs != self.rules.packs:
            raise ConfigError("the shoe does not have the table's number of packs")
        self._bets: dict[tuple[str, Side], int] = {}
        self._last_bets: dict[tuple[str, Side], int] = {}
        self.version = 0
        self.coup_no = 0
        self.last_coup: Coup | None = None

    # ----------------------------------------------------------------- views
    @property
    def bets(self) -> list[Bet]:
        """The bets on the next coup, in the order they were first placed."""
        return [Bet(b, s, a) for (b, s), a in self._bets.items()]

    def bets_of(self, bettor: str) -> list[Bet]:
        return [bet for bet in self.bets if bet.bettor == bettor]

    def last_bets_of(self, bettor: str) -> list[Bet]:
        """The bettor's bets on the previous coup (what :meth:`repeat_bets` would place)."""
        return [Bet(b, s, a) for (b, s), a in self._last_bets.items() if b == bettor]

    @property
    def escrow(self) -> int:
        """Chips held in escrow for this table (the sum of the open bets)."""
        return sum(self._bets.values())

    @property
    def needs_shuffle(self) -> bool:
        return self.shoe.needs_shuffle

    # ----------------------------------------------------------------- betting
    def place_bet(
        self, bettor: str, side: Side, amount: int, *, balance: int | None = None
    ) -> list[Transfer]:
        """Put ``amount`` on ``side`` for the next coup, or raise/lower an existing bet on
        that side to ``amount`` (B-BET-1). ``balance``: the chips the bettor still has
        outside this table (optional check)."""
        current = self._bets.get((bettor, side), 0)
        extra = None if balance is None else balance + current
        validate_amount(amount, self.rules, balance=extra)
        side = Side(side)
        diff = amount - current
        self._bets[(bettor, side)] = amount
        self.version += 1
        if current == 0:
            return place_transfers(Bet(bettor, side, amount))
        if diff > 0:
            return [Transfer(bettor, ESCROW, diff, f"{side.value} bet raised")]
        if diff < 0:
            return [Transfer(ESCROW, bettor, -diff, f"{side.value} bet lowered")]
        return []

    def withdraw_bet(self, bettor: str, side: Side) -> list[Transfer]:
        """Take a bet back before the coup is dealt."""
        amount = self._bets.pop((bettor, side), 0)
        if amount == 0:
            raise RuleError(
                "B-BET-1",
                f"you have no {Side(side).value} bet to take back",
                key="engine.pb.no_side_bet",
                side=Side(side).value,
            )
        self.version += 1
        return [Transfer(ESCROW, bettor, amount, f"{Side(side).value} bet withdrawn")]

    def withdraw_all(self, bettor: str) -> list[Transfer]:
        """Take back all of a bettor's bets (e.g. when they leave the table)."""
        out: list[Transfer] = []
        for bet in self.bets_of(bettor):
            out.extend(self.withdraw_bet(bettor, bet.side))
        return out

    def repeat_bets(self, bettor: str, *, balance: int | None = None) -> list[Transfer]:
        """B-BET-1: leave the previous coup's bets in place for the next coup.

        Places (or resets to) the bettor's bets of the previous coup. All-or-nothing: if one
        is refused nothing changes."""
        last = self.last_bets_of(bettor)
        if not last:
            raise RuleError(
                "B-BET-1",
                "you had no bet on the last coup to leave in place",
                key="engine.pb.no_last",
            )
        # each repeated side is set to its old stake: it costs the difference with what
        # is on that side now (bets on the other sides stay where they are)
        current = {b.side: b.amount for b in self.bets_of(bettor)}
        needed = sum(b.amount - current.get(b.side, 0) for b in last)
        if balance is not None and needed > balance:
            raise only_chips(balance)
        for bet in last:
            validate_amount(bet.amount, self.rules)
        out: list[Transfer] = []
        for bet in last:
            out.extend(self.place_bet(bettor, bet.side, bet.amount))
        return out

    # ----------------------------------------------------------------- the coup
    def deal(self, chance: Chance) -> CoupResult:
        """Reshuffle if needed (B-TABLE-2), play a coup, settle every bet, clear the bets.

        The settled bets are remembered for :meth:`repeat_bets`."""
        shuffled = self.shoe.prepare(chance)
        coup = play_coup(self.shoe.deal, self.rules.tableau)
        bets = self.bets
        settlement = settle(bets, coup.winner, self.rules)
        self._last_bets = dict(self._bets)
        self._bets = {}
        self.coup_no += 1
        self.version += 1
        self.last_coup = coup
        return CoupResult(self.coup_no, shuffled, coup, settlement)

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        """A JSON-safe snapshot; ``from_json`` restores it exactly."""
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.model_dump(mode="json"),
            "shoe": self.shoe.to_json(),
            "bets": [b.to_json() for b in self.bets],
            "last_bets": [Bet(b, s, a).to_json() for (b, s), a in self._last_bets.items()],
            "version": self.version,
            "coup_no": self.coup_no,
            "last_coup": None if self.last_coup is None else self.last_coup.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PuntoBancoTable:
        try:
            if data.get("format") != STATE_FORMAT:
                raise ConfigError(f"unknown table state format {data.get('format')!r}")
            rules = PuntoBancoRules.model_validate(data["rules"])
            table = cls(rules, Shoe.from_json(data["shoe"]))
            for raw in data["bets"]:
                bet = Bet.from_json(raw)
                table._bets[(bet.bettor, bet.side)] = bet.amount
            for raw in data["last_bets"]:
                bet = Bet.from_json(raw)
                table._last_bets[(bet.bettor, bet.side)] = bet.amount
            table.version = int(data["version"])
            table.coup_no = int(data["coup_no"])
            last = data["last_coup"]
            table.last_coup = None if last is None else Coup.from_json(last)
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"not a stored Punto Banco table: {exc}") from exc
        return table
