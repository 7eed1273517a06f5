"""The shoe and the table state: bets, coups, reshuffles, JSON persistence.

Pure: the only randomness is the ``Chance`` passed to :meth:`PuntoBancoTable.deal` (or
:meth:`Shoe.prepare`). ``to_json`` / ``from_json`` round-trip exactly, so a table stored
in SQLite continues after a restart with the same shoe order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from engine.cards import Card, Chance, Pack, full_pack, parse_cards
from engine.errors import ConfigError, RuleError
from engine.game import Game, change_by_rules, refusal_by_rules, unknown_action
from engine.punto_banco.actions import (
    CROUPIER,
    Action,
    ActionKind,
    CoupResult,
    Event,
    EventKind,
    LegalAction,
    Outcome,
)
from engine.punto_banco.bets import Bet, amount_refusal, only_chips, settle
from engine.punto_banco.coup import Coup, Side, card_point, play_coup
from engine.punto_banco.observation import PuntoBancoObservation
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

    @property
    def cards_for_next_coup(self) -> int:
        """How many cards the next coup is dealt from: the cards left, or the full shoe
        when it is shuffled first (B-TABLE-2; a new shoe is, before its first coup)."""
        return len(full_pack(self.packs)) if self.needs_shuffle else len(self.pack)

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
            out[card_point(c)] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {"packs": self.packs, "cards": self.pack.codes(), "shuffles": self.shuffles}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shoe:
        try:
            return cls(int(data["packs"]), parse_cards(data["cards"]), int(data["shuffles"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"not a stored shoe: {exc}") from exc


class PuntoBancoTable:
    """A Punto Banco table: the shoe plus the bets on the next coup (B-TABLE-1, B-BET-1).

    It implements :class:`engine.game.Game`: bets, withdrawals, repeats and the deal are
    :class:`Action` records given to :meth:`apply`, which returns an :class:`Outcome`
    (events, the ledger transfers to write in the same transaction as the new state, and
    the coup when one was dealt). A refused action raises ``RuleError`` and changes
    nothing; :meth:`why_not` gives the same refusal without applying anything.
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
        """The bettor's bets on the previous coup (what a REPEAT would place)."""
        return [Bet(b, s, a) for (b, s), a in self._last_bets.items() if b == bettor]

    @property
    def escrow(self) -> int:
        """Chips held in escrow for this table (the sum of the open bets)."""
        return sum(self._bets.values())

    @property
    def needs_shuffle(self) -> bool:
        return self.shoe.needs_shuffle

    def observe(self, viewer: str | None = None) -> PuntoBancoObservation:
        """What ``viewer`` may see now (:class:`engine.game.Game`; None: everyone in the
        channel): the bets (B-BET-1), the last coup's cards, all dealt face up
        (B-DEAL-1), how many cards the next coup is dealt from but never the shoe
        itself (B-TABLE-1, B-TABLE-2); a bettor's also names its own bets."""
        bets = tuple(self.bets)
        last = self.last_coup
        return PuntoBancoObservation(
            viewer=viewer,
            coup_no=self.coup_no,
            bets=bets,
            last_coup=last,
            cards_for_next_coup=self.shoe.cards_for_next_coup,
            needs_shuffle=self.needs_shuffle,
            own_bets=tuple(b for b in bets if b.bettor == viewer),
            own_last_bets=tuple(self.last_bets_of(viewer)) if viewer is not None else (),
        )

    # ----------------------------------------------------------------- the game interface
    def to_act(self) -> list[str]:
        """B-TABLE-1: once a bet is on, the table waits for the croupier to deal. Bettors
        are never waited for (anyone may bet until the deal)."""
        return [CROUPIER] if self._bets else []

    def legal_actions(self, actor: str) -> list[LegalAction]:
        """What ``actor`` may do now: the croupier deals; a bettor bets on any side
        (within the table's limits), takes back a bet or all of them, or repeats the last
        coup's bets. What the bettor can afford is checked by ``why_not`` / ``apply``
        against the action's ``balance``."""
        if actor == CROUPIER:
            return [LegalAction(ActionKind.DEAL)]
        if actor.startswith("@"):
            return []
        rules = self.rules
        out = [LegalAction(ActionKind.BET, side, rules.min_bet, rules.max_bet) for side in Side]
        mine = self.bets_of(actor)
        out += [LegalAction(ActionKind.WITHDRAW, bet.side) for bet in mine]
        if mine:
            out.append(LegalAction(ActionKind.WITHDRAW))
        if self.last_bets_of(actor):
            out.append(LegalAction(ActionKind.REPEAT))
        return out

    def why_not(self, action: Action) -> RuleError | None:
        """The refusal :meth:`apply` would raise for ``action`` now, or None."""
        return refusal_by_rules(_ACTIONS, self, action, _unknown)

    def apply(self, action: Action, chance: Chance | None = None) -> Outcome:
        """Apply one action (``chance`` shuffles the shoe when a DEAL needs it).
        Raises RuleError and changes nothing when it is refused."""
        change = change_by_rules(_ACTIONS, self, action, _unknown)
        out = Outcome()
        change(self, action, chance, out)
        self.version += 1
        return out

    def is_terminal(self) -> bool:
        """A coup was dealt and settled and no bet is on the next one yet."""
        return self.last_coup is not None and not self._bets

    def returns(self) -> dict[str, int]:
        """Each bettor's net chips from the last coup."""
        if self.last_coup is None:
            return {}
        settled = settle(
            [Bet(b, s, a) for (b, s), a in self._last_bets.items()],
            self.last_coup.winner,
            self.rules,
        )
        return settled.net_by_bettor()

    # ----------------------------------------------------------------- the checks (B-BET-1)
    def _bet_refusal(self, action: Action) -> RuleError | None:
        side = _side(action.side)
        if side is None:
            return RuleError("B-BET-1", "Bet on punto, banco or egalite.", key="err.pb.side")
        actor = action.actor
        if not isinstance(actor, str) or not actor or actor[0] == "@":
            return _no_bettor(actor)
        current = self._bets.get((actor, side), 0)
        extra = None if action.balance is None else action.balance + current
        return amount_refusal(action.amount, self.rules, balance=extra)

    def _withdraw_refusal(self, action: Action) -> RuleError | None:
        if action.side is None:
            if not self.bets_of(action.actor):
                return RuleError(
                    "B-BET-1",
                    "you have no bet on this coup to take back",
                    key="engine.pb.no_coup_bet",
                )
            return None
        side = _side(action.side)
        if side is None:
            return RuleError("B-BET-1", "Bet on punto, banco or egalite.", key="err.pb.side")
        if (action.actor, side) not in self._bets:
            return RuleError(
                "B-BET-1",
                f"you have no {side.value} bet to take back",
                key="engine.pb.no_side_bet",
                side=side.value,
            )
        return None

    def _repeat_refusal(self, action: Action) -> RuleError | None:
        last = self.last_bets_of(action.actor)
        if not last:
            return RuleError(
                "B-BET-1",
                "you had no bet on the last coup to leave in place",
                key="engine.pb.no_last",
            )
        # each repeated side is set to its old stake: it costs the difference with what
        # is on that side now (bets on the other sides stay where they are)
        current = {b.side: b.amount for b in self.bets_of(action.actor)}
        needed = sum(b.amount - current.get(b.side, 0) for b in last)
        if action.balance is not None and needed > action.balance:
            return only_chips(action.balance)
        for bet in last:
            refusal = amount_refusal(bet.amount, self.rules)
            if refusal is not None:
                return refusal
        return None

    def _deal_refusal(self, action: Action) -> RuleError | None:
        if action.actor != CROUPIER:
            return RuleError(
                "B-TABLE-1", "only the croupier deals the cards", key="engine.pb.croupier"
            )
        return None

    # ----------------------------------------------------------------- the changes
    def _bet(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        side = action.side
        if type(side) is not Side:  # the check accepted it as a side's name
            side = _side(side)
        assert side is not None and isinstance(action.amount, int)
        self._set_bet(out, action.actor, side, action.amount, _BET)

    def _withdraw(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        side = _side(action.side)
        sides = [b.side for b in self.bets_of(action.actor)] if side is None else [side]
        for each in sides:
            self._take_back(out, action.actor, each)

    def _repeat(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        for bet in self.last_bets_of(action.actor):
            self._set_bet(out, action.actor, bet.side, bet.amount, _REPEATED)

    def _deal_coup(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        if chance is None:
            raise ConfigError("a deal needs a Chance to shuffle the shoe with")
        self._deal(out, chance)

    def _set_bet(self, out: Outcome, bettor: str, side: Side, amount: int, kind: EventKind) -> None:
        """Put ``amount`` on ``side``, or raise/lower the bet on that side to it."""
        current = self._bets.get((bettor, side), 0)
        diff = amount - current
        self._bets[(bettor, side)] = amount
        if current == 0:
            out.transfers.append(Transfer(bettor, ESCROW, amount, f"{side.value} bet"))
        elif diff > 0:
            out.transfers.append(Transfer(bettor, ESCROW, diff, f"{side.value} bet raised"))
        elif diff < 0:
            out.transfers.append(Transfer(ESCROW, bettor, -diff, f"{side.value} bet lowered"))
        out.events.append(Event(kind, bettor, side, amount))

    def _take_back(self, out: Outcome, bettor: str, side: Side) -> None:
        amount = self._bets.pop((bettor, side))
        out.transfers.append(Transfer(ESCROW, bettor, amount, f"{side.value} bet withdrawn"))
        out.events.append(Event(EventKind.WITHDRAWN, bettor, side, amount))

    def _deal(self, out: Outcome, chance: Chance) -> None:
        """Reshuffle if needed (B-TABLE-2), play a coup, settle every bet, clear the bets.
        The settled bets are remembered for REPEAT."""
        shuffled = self.shoe.prepare(chance)
        coup = play_coup(self.shoe.deal, self.rules.tableau)
        settlement = settle(self.bets, coup.winner, self.rules)
        self._last_bets = dict(self._bets)
        self._bets = {}
        self.coup_no += 1
        self.last_coup = coup
        out.coup = CoupResult(self.coup_no, shuffled, coup, settlement)
        out.transfers.extend(settlement.transfers)
        if shuffled:
            out.events.append(Event(_SHUFFLED))
        out.events.append(Event(_COUP, CROUPIER, coup.winner))

    # ----------------------------------------------------------------- the older calls
    # One-line shorthands for ``apply`` kept for callers (and tests) written before the
    # actions: each returns what ``apply`` returned (the transfers, or the coup).
    def place_bet(
        self, bettor: str, side: Side, amount: int, *, balance: int | None = None
    ) -> list[Transfer]:
        """``apply(Action(bettor, BET, side, amount, balance))``'s transfers."""
        return self.apply(Action(bettor, ActionKind.BET, side, amount, balance)).transfers

    def withdraw_bet(self, bettor: str, side: Side) -> list[Transfer]:
        """``apply(Action(bettor, WITHDRAW, side))``'s transfers."""
        return self.apply(Action(bettor, ActionKind.WITHDRAW, side)).transfers

    def withdraw_all(self, bettor: str) -> list[Transfer]:
        """Every bet of ``bettor`` back (nothing, without an error, when there is none)."""
        if not self.bets_of(bettor):
            return []
        return self.apply(Action(bettor, ActionKind.WITHDRAW)).transfers

    def repeat_bets(self, bettor: str, *, balance: int | None = None) -> list[Transfer]:
        """``apply(Action(bettor, REPEAT, balance=balance))``'s transfers."""
        return self.apply(Action(bettor, ActionKind.REPEAT, balance=balance)).transfers

    def deal(self, chance: Chance) -> CoupResult:
        """``apply(Action(CROUPIER, DEAL), chance)``'s coup."""
        coup = self.apply(Action(CROUPIER, ActionKind.DEAL), chance).coup
        assert coup is not None
        return coup

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


def _side(side: object) -> Side | None:
    if isinstance(side, Side):
        return side
    try:
        return Side(str(side))
    except ValueError:
        return None


def _no_bettor(actor: object) -> RuleError:
    return RuleError("B-BET-1", f"{actor!r} cannot bet at this table", key="err.rule.generic")


_unknown = unknown_action("B-BET-1")


_BET: Final = EventKind.BET
_REPEATED: Final = EventKind.REPEATED
_SHUFFLED: Final = EventKind.SHUFFLED
_COUP: Final = EventKind.COUP

Check = Callable[[PuntoBancoTable, Action], RuleError | None]
Change = Callable[[PuntoBancoTable, Action, Chance | None, Outcome], None]

# Each action kind: its one check (``why_not``) and the change ``apply`` makes after it.
_ACTIONS: dict[ActionKind, tuple[Check, Change]] = {
    ActionKind.BET: (PuntoBancoTable._bet_refusal, PuntoBancoTable._bet),
    ActionKind.WITHDRAW: (PuntoBancoTable._withdraw_refusal, PuntoBancoTable._withdraw),
    ActionKind.REPEAT: (PuntoBancoTable._repeat_refusal, PuntoBancoTable._repeat),
    ActionKind.DEAL: (PuntoBancoTable._deal_refusal, PuntoBancoTable._deal_coup),
}


if TYPE_CHECKING:
    # mypy --strict: the table offers every member of the one interface (observe too)
    _IS_A_GAME: type[Game[Action, LegalAction, Event]] = PuntoBancoTable
