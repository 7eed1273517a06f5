"""High Card's state: a :class:`engine.game.Game` (rules HC-JOIN, HC-BET, HC-DRAW in the
package's docstring), its rules checked in one table of (check, change) per action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Self

from engine.cards import Card, Chance, full_pack, parse_card
from engine.errors import ConfigError, RuleError
from engine.game import Game, Rules, change_by_rules, refusal_by_rules, unknown_action
from engine.records import ESCROW, HOUSE, Transfer

MAX_SEATS = 5
PACK = tuple(full_pack())  # every draw is from a full pack (an endless shoe)


class ActionKind(StrEnum):
    JOIN = "join"
    BET = "bet"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Action:
    actor: str
    kind: ActionKind
    amount: int | None = None  # BET: the stake
    balance: int | None = None  # BET: the chips the member holds off the table


@dataclass(frozen=True, slots=True)
class Offer:
    """What an actor may do now (a stake's range inclusive)."""

    kind: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None


@dataclass(frozen=True, slots=True)
class Drawn:
    """One card of a draw: a bettor's (``seat``) or the house's (``seat`` is HOUSE), and
    what the bettor won (``net``: +stake, -stake or 0 for a push)."""

    seat: str
    card: str
    stake: int = 0
    net: int = 0
    to: None = None  # every card is dealt face up


@dataclass(frozen=True, slots=True)
class Outcome:
    events: tuple[Drawn, ...] = ()
    transfers: tuple[Transfer, ...] = ()


@dataclass(frozen=True, slots=True)
class HighCardObservation:
    """What a viewer may see (``HighCardTable.observe``): everything, every card being
    drawn face up (HC-DRAW) and every stake lying on the table (HC-BET); a member's own
    observation also names its own stake."""

    viewer: str | None
    round_no: int
    stakes: tuple[tuple[str, int], ...]  # (seat, its stake this round), in seat order
    last: tuple[Drawn, ...]  # the last draw's cards, the house's first
    own_stake: int  # the viewer's stake (0: none, or the public)


@dataclass(frozen=True)
class HighCardRules:
    min_bet: int = 1
    max_bet: int = 100

    def __post_init__(self) -> None:
        if not 1 <= self.min_bet <= self.max_bet:
            raise ConfigError(
                f"bets must be 1 <= min_bet <= max_bet, got {self.min_bet}..{self.max_bet}",
                key="err.min_max",
            )


def rank_of(card: Card) -> int:
    """A card's rank for the draw: two low, ace high (suits do not count)."""
    return card.cut_rank


@dataclass
class HighCardTable:
    rules: HighCardRules = field(default_factory=HighCardRules)
    seats: dict[str, int] = field(default_factory=dict)  # seat -> its stake this round
    round_no: int = 0  # rounds drawn so far
    version: int = 0
    settled: bool = False  # the last action was a draw (the round is over)
    last: tuple[Drawn, ...] = ()  # the last draw's cards, the house's first

    # ------------------------------------------------------------ the Game interface
    @property
    def escrow(self) -> int:
        return sum(self.seats.values())

    def to_act(self) -> list[str]:
        return list(self.seats)

    def legal_actions(self, actor: str) -> Sequence[Offer]:
        offers = []
        for kind in ActionKind:
            probe = Action(actor, kind, self.rules.min_bet, None)
            if self.why_not(probe) is None:
                if kind is ActionKind.BET:
                    offers.append(Offer(kind, self.rules.min_bet, self.rules.max_bet))
                else:
                    offers.append(Offer(kind))
        return offers

    def why_not(self, action: Action) -> RuleError | None:
        return refusal_by_rules(_RULES, self, action, _unknown)

    def apply(self, action: Action, chance: Chance) -> Outcome:
        change = change_by_rules(_RULES, self, action, _unknown)
        if self.settled:  # a new round begins with its first seat or stake
            self.settled = False
        outcome = change(self, action, chance)
        self.version += 1
        return outcome

    def is_terminal(self) -> bool:
        return self.settled

    def returns(self) -> Mapping[str, int]:
        return {d.seat: d.net for d in self.last if d.seat != HOUSE}

    def observe(self, viewer: str | None = None) -> HighCardObservation:
        """What ``viewer`` may see now (None: everyone in the channel): every stake and
        the last draw's cards, all face up (HC-BET, HC-DRAW)."""
        return HighCardObservation(
            viewer,
            self.round_no,
            tuple(self.seats.items()),
            self.last,
            self.seats.get(viewer, 0) if viewer is not None else 0,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": {"min_bet": self.rules.min_bet, "max_bet": self.rules.max_bet},
            "seats": dict(self.seats),
            "round_no": self.round_no,
            "version": self.version,
            "settled": self.settled,
            "last": [[d.seat, d.card, d.stake, d.net] for d in self.last],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return cls(
            HighCardRules(**data["rules"]),
            {str(s): int(n) for s, n in data["seats"].items()},
            int(data["round_no"]),
            int(data["version"]),
            bool(data["settled"]),
            tuple(Drawn(str(s), str(c), int(k), int(n)) for s, c, k, n in data["last"]),
        )

    # ------------------------------------------------------------------ queries
    def stake_of(self, seat: str) -> int:
        return self.seats.get(seat, 0)


# ------------------------------------------------------------------ the rules
def _join_refusal(table: HighCardTable, action: Action) -> RuleError | None:
    if action.actor == HOUSE or action.actor.startswith("@"):
        return RuleError("HC-JOIN", "the house does not take a seat", key="engine.hc.not_seated")
    if action.actor in table.seats:
        return RuleError("HC-JOIN", "already seated", key="engine.hc.seated")
    if len(table.seats) >= MAX_SEATS:
        return RuleError("HC-JOIN", "the table is full", key="engine.hc.full", seats=MAX_SEATS)
    return None


def _bet_refusal(table: HighCardTable, action: Action) -> RuleError | None:
    if action.actor not in table.seats:
        return RuleError("HC-BET", "take a seat first", key="engine.hc.not_seated")
    if table.seats[action.actor] and not table.settled:
        return RuleError("HC-BET", "one stake a round", key="engine.hc.staked")
    rules, amount = table.rules, action.amount
    if amount is None or not rules.min_bet <= amount <= rules.max_bet:
        return RuleError(
            "HC-BET",
            f"a stake is {rules.min_bet} to {rules.max_bet} chips",
            key="engine.hc.stake_range",
            low=rules.min_bet,
            high=rules.max_bet,
        )
    if action.balance is not None and amount > action.balance:
        return RuleError(
            "HC-BET", "not enough chips", key="engine.hc.short", balance=action.balance
        )
    return None


def _draw_refusal(table: HighCardTable, action: Action) -> RuleError | None:
    if table.settled or not table.seats.get(action.actor):
        return RuleError(
            "HC-DRAW", "only a member with a stake calls the draw", key="engine.hc.no_stake"
        )
    return None


def _join(table: HighCardTable, action: Action, chance: Chance) -> Outcome:
    table.seats[action.actor] = 0
    return Outcome()


def _bet(table: HighCardTable, action: Action, chance: Chance) -> Outcome:
    assert action.amount is not None
    table.seats[action.actor] = action.amount
    return Outcome(transfers=(Transfer(action.actor, ESCROW, action.amount, "stake"),))


def _card(chance: Chance) -> Card:
    return PACK[chance.randbelow(len(PACK))]


def _draw(table: HighCardTable, action: Action, chance: Chance) -> Outcome:
    house = _card(chance)
    drawn = [Drawn(HOUSE, house.code)]
    transfers: list[Transfer] = []
    for seat, stake in table.seats.items():
        if not stake:
            continue
        card = _card(chance)
        if rank_of(card) > rank_of(house):
            net = stake
            transfers += [
                Transfer(ESCROW, seat, stake, "stake back"),
                Transfer(HOUSE, seat, stake, "won"),
            ]
        elif rank_of(card) < rank_of(house):
            net = -stake
            transfers.append(Transfer(ESCROW, HOUSE, stake, "lost"))
        else:
            net = 0
            transfers.append(Transfer(ESCROW, seat, stake, "push"))
        drawn.append(Drawn(seat, card.code, stake, net))
    table.seats = dict.fromkeys(table.seats, 0)
    table.round_no += 1
    table.settled = True
    table.last = tuple(drawn)
    return Outcome(tuple(drawn), tuple(transfers))


Change = Callable[[HighCardTable, Action, Chance], Outcome]
_RULES: Rules[HighCardTable, Action, Change] = {
    ActionKind.JOIN: (_join_refusal, _join),
    ActionKind.BET: (_bet_refusal, _bet),
    ActionKind.DRAW: (_draw_refusal, _draw),
}
_unknown = unknown_action("HC-JOIN")


def card_of(code: str) -> Card:
    return parse_card(code)


if TYPE_CHECKING:
    # mypy --strict: the table offers every member of the one interface (observe too)
    _IS_A_GAME: type[Game[Action, Offer, Drawn]] = HighCardTable


__all__ = [
    "MAX_SEATS",
    "Action",
    "ActionKind",
    "Drawn",
    "HighCardObservation",
    "HighCardRules",
    "HighCardTable",
    "Offer",
    "Outcome",
    "card_of",
    "rank_of",
]
