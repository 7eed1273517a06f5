"""The Blackjack table: seats, bets, the round (deal, insurance, peek, the players'
hands, the dealer) and settlement, as an :class:`engine.game.Game`.

Pure: the only randomness is the ``Chance`` given to :meth:`BlackjackTable.apply`.
``to_json`` / ``from_json`` round-trip exactly (shoe order included), so a table stored
in a database continues after a restart mid-round.

Chips (BJ-CHIPS-1): every bet, double, split and insurance moves member -> ``ESCROW``
when it is placed. Settlement moves a stake back ``ESCROW`` -> member (a win or a push)
with the winnings ``HOUSE`` -> member, or ``ESCROW`` -> ``HOUSE`` (a loss). A bust is
lost at once (BJ-HIT-1), a player blackjack paid at once (BJ-NAT-1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from engine.blackjack.actions import (
    DEALER,
    Action,
    ActionKind,
    Event,
    EventKind,
    HandOutcome,
    HandResult,
    LegalAction,
    Outcome,
    Phase,
    RoundResult,
)
from engine.blackjack.hands import dealer_hits, hand_total, is_blackjack
from engine.blackjack.observation import BlackjackObservation, BoxSeen, HandSeen
from engine.blackjack.rules import MAX_SEATS, BlackjackRules
from engine.blackjack.shoe import Shoe
from engine.cards import Card, Chance, parse_cards
from engine.errors import ConfigError, RuleError
from engine.game import Game, change_by_rules, refusal_by_rules, unknown_action
from engine.records import ESCROW, HOUSE, Transfer

STATE_FORMAT: Final = 1
K = ActionKind
E = EventKind


@dataclass
class Hand:
    """One hand of a seat: its cards, its bet and what is added to it by a double."""

    cards: list[Card]
    bet: int
    doubled: int = 0
    from_split: bool = False
    split_aces: bool = False
    done: bool = False
    outcome: HandOutcome | None = None  # set once the hand is settled
    net: int = 0

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return hand_total(self.cards)[1]

    @property
    def staked(self) -> int:
        return self.bet + self.doubled

    @property
    def blackjack(self) -> bool:
        return is_blackjack(self.cards, self.from_split)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [c.code for c in self.cards],
            "bet": self.bet,
            "doubled": self.doubled,
            "from_split": self.from_split,
            "split_aces": self.split_aces,
            "done": self.done,
            "outcome": None if self.outcome is None else self.outcome.value,
            "net": self.net,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Hand:
        return cls(
            parse_cards(d["cards"]),
            int(d["bet"]),
            int(d["doubled"]),
            bool(d["from_split"]),
            bool(d["split_aces"]),
            bool(d["done"]),
            None if d["outcome"] is None else HandOutcome(d["outcome"]),
            int(d["net"]),
        )


@dataclass
class Box:
    """A seat's part of the round being played: its hands and its insurance
    (None: not answered yet; 0: declined or not offered)."""

    hands: list[Hand] = field(default_factory=list)
    insurance: int | None = 0
    insurance_net: int | None = None  # set once the insurance is settled

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [h.to_json() for h in self.hands],
            "insurance": self.insurance,
            "insurance_net": self.insurance_net,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Box:
        ins = d["insurance"]
        net = d["insurance_net"]
        return cls(
            [Hand.from_json(h) for h in d["hands"]],
            None if ins is None else int(ins),
            None if net is None else int(net),
        )


def _whole(amount: object) -> bool:
    return isinstance(amount, int) and not isinstance(amount, bool)


class BlackjackTable:
    """A Blackjack table (rules in ``docs/rules/blackjack.md``, ids ``BJ-...``).

    Moves are :class:`Action` records given to :meth:`apply`, which returns an
    :class:`Outcome` (events, the ledger transfers to write in the same transaction as
    the new state, and the round's result when the action settled it). A refused action
    raises ``RuleError`` and changes nothing; :meth:`why_not` gives the same refusal.
    """

    def __init__(self, rules: BlackjackRules | None = None, shoe: Shoe | None = None) -> None:
        self.rules = rules if rules is not None else BlackjackRules()
        self.shoe = shoe if shoe is not None else Shoe(self.rules.decks)
        if self.shoe.decks != self.rules.decks:
            raise ConfigError("the shoe does not have the table's number of decks")
        self.seats: list[str] = []
        self.bets: dict[str, int] = {}
        self.last_bets: dict[str, int] = {}
        self.phase = Phase.BETTING
        self.dealer: list[Card] = []
        self.boxes: dict[str, Box] = {}  # the round's seats with a bet, in seat order
        self.turn: tuple[str, int] | None = None  # (seat, hand index) to play
        self.round_no = 0
        self.version = 0
        self.last_result: RoundResult | None = None

    # ----------------------------------------------------------------- views
    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    @property
    def hole_card_hidden(self) -> bool:
        """True while the dealer's second card is face down (BJ-DEAL-1): from the deal
        until the dealer's turn, or until a peek finds a blackjack."""
        return self.phase in (Phase.INSURANCE, Phase.PLAYING) and len(self.dealer) == 2

    def visible_dealer(self) -> list[Card]:
        """The dealer's cards anyone may see now (the hole card hidden while it is)."""
        return self.dealer[:1] if self.hole_card_hidden else list(self.dealer)

    def _seat_order(self, item: tuple[str, Box]) -> tuple[int, str]:
        """Seat order (a box of a seat that has left since: after them, by name)."""
        seat = item[0]
        seats = self.seats
        return (seats.index(seat), "") if seat in seats else (len(seats), seat)

    def observe(self, viewer: str | None = None) -> BlackjackObservation:
        """What ``viewer`` may see now (:class:`engine.game.Game`; None: everyone in the
        channel): every seat's hands, face up (BJ-DEAL-1), and the dealer's cards without
        the hole card while it is face down (BJ-DEAL-1, BJ-PEEK-1, BJ-DEALER-1), for
        every viewer alike; a seat's observation also names its own hands."""
        boxes = tuple(
            BoxSeen(
                seat,
                tuple(
                    HandSeen(seat, i, tuple(h.cards), h.staked, h.doubled, h.done, h.outcome)
                    for i, h in enumerate(box.hands)
                ),
                box.insurance,
            )
            for seat, box in sorted(self.boxes.items(), key=self._seat_order)
        )
        own = next((b.hands for b in boxes if b.seat == viewer), ())
        return BlackjackObservation(
            viewer=viewer,
            phase=self.phase,
            round_no=self.round_no,
            seats=tuple(self.seats),
            bets=MappingProxyType(dict(self.bets)),
            dealer=tuple(self.visible_dealer()),
            dealer_hidden=1 if self.hole_card_hidden else 0,
            boxes=boxes,
            turn=self.turn,
            last_result=self.last_result,
            hands=own,
        )

    @property
    def escrow(self) -> int:
        """Chips held for this table: the bets on the next round and everything staked
        on the round being played that is not settled yet."""
        held = sum(self.bets.values())
        for box in self.boxes.values():
            if box.insurance and box.insurance_net is None:
                held += box.insurance
            held += sum(h.staked for h in box.hands if h.outcome is None)
        return held

    def stake_of(self, seat: str) -> int:
        """Chips ``seat`` has on the table now (its part of :attr:`escrow`)."""
        held = self.bets.get(seat, 0)
        box = self.boxes.get(seat)
        if box is not None:
            if box.insurance and box.insurance_net is None:
                held += box.insurance
            held += sum(h.staked for h in box.hands if h.outcome is None)
        return held

    def in_round(self, seat: str) -> bool:
        """``seat`` has hands in the round being played."""
        return self.phase in (Phase.INSURANCE, Phase.PLAYING) and seat in self.boxes

    def current_hand(self) -> Hand | None:
        if self.turn is None:
            return None
        seat, index = self.turn
        return self.boxes[seat].hands[index]

    # ----------------------------------------------------------------- the game interface
    def to_act(self) -> list[str]:
        if self.phase is Phase.BETTING:
            return [DEALER] if self.bets else []
        if self.phase is Phase.INSURANCE:
            return [s for s, b in self.boxes.items() if b.insurance is None]
        if self.phase is Phase.PLAYING and self.turn is not None:
            return [self.turn[0]]
        return []

    def legal_actions(self, actor: str) -> list[LegalAction]:
        """What ``actor`` may do now (what the member can afford is checked by
        ``why_not`` / ``apply`` against the action's ``balance``)."""
        out: list[LegalAction] = []
        if actor == DEALER:
            for kind in (K.DEAL, K.TIMEOUT, K.NEXT_ROUND):
                if _ACTIONS[kind][0](self, Action(DEALER, kind)) is None:
                    out.append(LegalAction(kind))
            return out
        if not actor or actor.startswith("@"):
            return []
        rules = self.rules
        for kind in (K.JOIN, K.LEAVE, K.HIT, K.STAND, K.SPLIT, K.SURRENDER):
            if _ACTIONS[kind][0](self, Action(actor, kind)) is None:
                out.append(LegalAction(kind))
        if self._bet_refusal(Action(actor, K.BET, rules.min_bet)) is None:
            out.append(LegalAction(K.BET, rules.min_bet, rules.max_bet))
        if self._insurance_refusal(Action(actor, K.INSURANCE, 0)) is None:
            out.append(LegalAction(K.INSURANCE, 0, self.boxes[actor].hands[0].bet // 2))
        if self._double_refusal(Action(actor, K.DOUBLE, 1)) is None:
            hand = self.current_hand()
            assert hand is not None
            out.append(LegalAction(K.DOUBLE, 1, hand.bet))
        return out

    def why_not(self, action: Action) -> RuleError | None:
        return refusal_by_rules(_ACTIONS, self, action, _unknown)

    def apply(self, action: Action, chance: Chance | None = None) -> Outcome:
        """Apply one action (``chance`` shuffles and deals when the action draws cards).
        Raises RuleError and changes nothing when it is refused."""
        change = change_by_rules(_ACTIONS, self, action, _unknown)
        out = Outcome()
        change(self, action, _NO_CHANCE if chance is None else chance, out)
        self.version += 1
        return out

    def is_terminal(self) -> bool:
        """The last round is settled and no new one is being played."""
        return self.phase is Phase.ROUND_OVER

    def returns(self) -> dict[str, int]:
        """Each seat's net chips from the last settled round."""
        return {} if self.last_result is None else self.last_result.net_by_seat()

    # ----------------------------------------------------------------- checks
    def _seated(self, actor: str) -> RuleError | None:
        if actor not in self.seats:
            return RuleError(
                "BJ-TABLE-1", "you are not seated at this table", key="engine.bj.not_seated"
            )
        return None

    def _join_refusal(self, action: Action) -> RuleError | None:
        actor = action.actor
        if not isinstance(actor, str) or not actor or actor.startswith("@"):
            return RuleError(
                "BJ-TABLE-1", f"{actor!r} cannot sit at this table", key="engine.bj.no_member"
            )
        if actor in self.seats:
            return RuleError("BJ-TABLE-1", "you are already seated", key="engine.bj.already_seated")
        if len(self.seats) >= MAX_SEATS:
            return RuleError(
                "BJ-TABLE-1",
                f"all {MAX_SEATS} seats are taken",
                key="engine.bj.full",
                seats=MAX_SEATS,
            )
        return None

    def _leave_refusal(self, action: Action) -> RuleError | None:
        refusal = self._seated(action.actor)
        if refusal is not None:
            return refusal
        if self.in_round(action.actor):
            return RuleError(
                "BJ-TABLE-1", "finish your hand before you leave", key="engine.bj.in_hand"
            )
        return None

    def _bet_refusal(self, action: Action) -> RuleError | None:
        refusal = self._seated(action.actor)
        if refusal is not None:
            return refusal
        if self.phase not in (Phase.BETTING, Phase.ROUND_OVER):
            return RuleError(
                "BJ-BET-1", "bets are closed until this round is over", key="engine.bj.bets_closed"
            )
        amount, rules = action.amount, self.rules
        if not _whole(amount):
            return RuleError(
                "BJ-BET-1",
                f"a bet is a whole number of chips, not {amount!r}",
                key="engine.bj.whole",
            )
        assert isinstance(amount, int)
        if amount < rules.min_bet:
            return RuleError(
                "BJ-BET-1",
                f"the smallest bet at this table is {rules.min_bet} chips",
                key="engine.bj.min",
                amount=rules.min_bet,
            )
        if amount > rules.max_bet:
            return RuleError(
                "BJ-BET-1",
                f"the largest bet at this table is {rules.max_bet} chips",
                key="engine.bj.max",
                amount=rules.max_bet,
            )
        current = self.bets.get(action.actor, 0)
        if action.balance is not None and amount - current > action.balance:
            return _only_chips(action.balance + current)
        return None

    def _deal_refusal(self, action: Action) -> RuleError | None:
        if action.actor != DEALER:
            return RuleError("BJ-DEAL-1", "only the dealer deals", key="engine.bj.dealer_only")
        if self.phase is not Phase.BETTING or not self.bets:
            return RuleError("BJ-BET-1", "there is no bet to deal for", key="engine.bj.no_bets")
        return None

    def _next_round_refusal(self, action: Action) -> RuleError | None:
        if action.actor != DEALER:
            return RuleError("BJ-DEAL-1", "only the dealer deals", key="engine.bj.dealer_only")
        if self.phase is not Phase.ROUND_OVER:
            return RuleError("BJ-BET-1", "the round is not over", key="engine.bj.not_over")
        return None

    def _timeout_refusal(self, action: Action) -> RuleError | None:
        if action.actor != DEALER:
            return RuleError(
                "BJ-TIMER-1", "only the dealer calls time", key="engine.bj.dealer_only"
            )
        if self.phase not in (Phase.INSURANCE, Phase.PLAYING):
            return RuleError("BJ-TIMER-1", "nobody is being waited for", key="engine.bj.no_wait")
        return None

    def _insurance_refusal(self, action: Action) -> RuleError | None:
        refusal = self._seated(action.actor)
        if refusal is not None:
            return refusal
        box = self.boxes.get(action.actor)
        if self.phase is not Phase.INSURANCE or box is None or box.insurance is not None:
            return RuleError(
                "BJ-INS-1", "insurance is not offered to you now", key="engine.bj.no_insurance"
            )
        amount, most = action.amount, box.hands[0].bet // 2
        if not _whole(amount):
            return RuleError(
                "BJ-INS-1",
                f"insurance is a whole number of chips, not {amount!r}",
                key="engine.bj.whole",
            )
        assert isinstance(amount, int)
        if not 0 <= amount <= most:
            return RuleError(
                "BJ-INS-1",
                f"insurance is 0 to {most} chips (half your bet)",
                key="engine.bj.insurance_range",
                amount=most,
            )
        if action.balance is not None and amount > action.balance:
            return _only_chips(action.balance)
        return None

    def _turn_refusal(self, action: Action, rule: str) -> RuleError | None:
        refusal = self._seated(action.actor)
        if refusal is not None:
            return refusal
        if self.phase is not Phase.PLAYING or self.turn is None:
            return RuleError(rule, "no hand is being played now", key="engine.bj.no_turn")
        if self.turn[0] != action.actor:
            if self.in_round(action.actor) and all(h.done for h in self.boxes[action.actor].hands):
                return RuleError(rule, "your hands are finished", key="engine.bj.hands_done")
            return RuleError(rule, "it is not your turn", key="engine.bj.not_your_turn")
        return None

    def _hit_refusal(self, action: Action) -> RuleError | None:
        refusal = self._turn_refusal(action, "BJ-HIT-1")
        if refusal is not None:
            return refusal
        hand = self.current_hand()
        assert hand is not None
        if hand.split_aces:
            return RuleError(
                "BJ-SPLIT-1", "split aces take one card each", key="engine.bj.split_aces"
            )
        return None

    def _stand_refusal(self, action: Action) -> RuleError | None:
        return self._turn_refusal(action, "BJ-STAND-1")

    def _double_refusal(self, action: Action) -> RuleError | None:
        refusal = self._turn_refusal(action, "BJ-DOUBLE-1")
        if refusal is not None:
            return refusal
        hand = self.current_hand()
        assert hand is not None
        rules = self.rules
        if len(hand.cards) != 2:
            return RuleError(
                "BJ-DOUBLE-1",
                "you can double only on your first two cards",
                key="engine.bj.double_two",
            )
        if hand.split_aces:
            return RuleError(
                "BJ-SPLIT-1", "split aces take one card each", key="engine.bj.split_aces"
            )
        if hand.from_split and not rules.double_after_split:
            return RuleError(
                "BJ-SPLIT-1", "this table does not double after a split", key="engine.bj.no_das"
            )
        total, soft = hand_total(hand.cards)
        if rules.double_on != "any":
            low = 9 if rules.double_on == "9-11" else 10
            if soft or not low <= total <= 11:
                return RuleError(
                    "BJ-DOUBLE-1",
                    f"this table doubles only on hard {rules.double_on}",
                    key="engine.bj.double_on",
                    totals=rules.double_on,
                )
        amount = hand.bet if action.amount is None else action.amount
        if not _whole(amount):
            return RuleError(
                "BJ-DOUBLE-1",
                f"a double is a whole number of chips, not {amount!r}",
                key="engine.bj.whole",
            )
        assert isinstance(amount, int)
        if not 1 <= amount <= hand.bet:
            return RuleError(
                "BJ-DOUBLE-1",
                f"a double is 1 to {hand.bet} chips (up to your bet)",
                key="engine.bj.double_range",
                amount=hand.bet,
            )
        if action.balance is not None and amount > action.balance:
            return RuleError(
                "BJ-CHIPS-1",
                f"you need {amount} chips to double and have {max(action.balance, 0)}",
                key="engine.bj.chips_double",
                amount=amount,
                balance=max(action.balance, 0),
            )
        return None

    def _split_refusal(self, action: Action) -> RuleError | None:
        refusal = self._turn_refusal(action, "BJ-SPLIT-1")
        if refusal is not None:
            return refusal
        hand = self.current_hand()
        assert hand is not None and self.turn is not None
        cards = hand.cards
        if len(cards) != 2 or cards[0].rank is not cards[1].rank:
            return RuleError(
                "BJ-SPLIT-1", "only two cards of the same rank split", key="engine.bj.split_pair"
            )
        if len(self.boxes[self.turn[0]].hands) >= self.rules.max_hands:
            return RuleError(
                "BJ-SPLIT-1",
                f"a seat plays at most {self.rules.max_hands} hands",
                key="engine.bj.max_hands",
                hands=self.rules.max_hands,
            )
        if hand.split_aces and not self.rules.resplit_aces:
            return RuleError(
                "BJ-SPLIT-1", "split aces are not split again", key="engine.bj.resplit_aces"
            )
        if action.balance is not None and hand.bet > action.balance:
            return RuleError(
                "BJ-CHIPS-1",
                f"you need {hand.bet} chips to split and have {max(action.balance, 0)}",
                key="engine.bj.chips_split",
                amount=hand.bet,
                balance=max(action.balance, 0),
            )
        return None

    def _surrender_refusal(self, action: Action) -> RuleError | None:
        refusal = self._turn_refusal(action, "BJ-SURR-1")
        if refusal is not None:
            return refusal
        if self.rules.surrender != "late" or not self.rules.peek:
            return RuleError(
                "BJ-SURR-1", "this table does not offer surrender", key="engine.bj.no_surrender"
            )
        assert self.turn is not None
        box = self.boxes[self.turn[0]]
        if len(box.hands) != 1 or len(box.hands[0].cards) != 2:
            return RuleError(
                "BJ-SURR-1",
                "you can surrender only your first two cards",
                key="engine.bj.surrender_two",
            )
        return None

    # ----------------------------------------------------------------- changes
    def _join(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        self.seats.append(action.actor)
        out.events.append(Event(E.JOINED, action.actor))

    def _leave(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        seat = action.actor
        bet = self.bets.pop(seat, 0)
        if bet:
            out.transfers.append(Transfer(ESCROW, seat, bet, "blackjack bet returned"))
        self.seats.remove(seat)
        self.last_bets.pop(seat, None)
        out.events.append(Event(E.LEFT, seat, amount=bet))

    def _bet(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        seat, amount = action.actor, action.amount
        assert isinstance(amount, int)
        if self.phase is Phase.ROUND_OVER:
            self._open_betting()
        current = self.bets.get(seat, 0)
        if amount > current:
            out.transfers.append(Transfer(seat, ESCROW, amount - current, "blackjack bet"))
        elif amount < current:
            out.transfers.append(Transfer(ESCROW, seat, current - amount, "blackjack bet lowered"))
        self.bets[seat] = amount
        out.events.append(Event(E.BET, seat, amount=amount))

    def _next_round(self, action: Action, chance: Chance | None, out: Outcome) -> None:
        self._open_betting()

    def _open_betting(self) -> None:
        self.phase = Phase.BETTING
        self.dealer = []
        self.boxes = {}
        self.turn = None

    def _draw(self, chance: Chance, out: Outcome) -> Card:
        card, refilled = self.shoe.draw(chance)
        if refilled:
            out.events.append(Event(E.RESHUFFLED_DISCARDS))
        return card

    def _deal(self, action: Action, chance: Chance, out: Outcome) -> None:
        """BJ-TABLE-2 (reshuffle at the cut), BJ-DEAL-1, then insurance or the peek."""
        rules = self.rules
        if self.shoe.needs_shuffle(rules.cut_after):
            self.shoe.shuffle(chance)
            out.events.append(Event(E.SHUFFLED))
        self.round_no += 1
        order = [s for s in self.seats if s in self.bets]
        self.boxes = {s: Box([Hand([], self.bets[s])]) for s in order}
        self.last_bets = dict(self.bets)
        self.bets = {}
        self.dealer = []
        self.last_result = None
        for s in order:
            self.boxes[s].hands[0].cards.append(self._draw(chance, out))
        self.dealer.append(self._draw(chance, out))
        for s in order:
            self.boxes[s].hands[0].cards.append(self._draw(chance, out))
        if rules.peek:
            self.dealer.append(self._draw(chance, out))
        out.events.append(Event(E.DEALT, DEALER, card=self.dealer[0].code))
        for box in self.boxes.values():
            if box.hands[0].blackjack:
                box.hands[0].done = True
        asked = False
        if rules.insurance and self.dealer[0].value == 1:
            for box in self.boxes.values():
                if box.hands[0].bet // 2 >= 1:
                    box.insurance = None
                    asked = True
        if asked:
            self.phase = Phase.INSURANCE
            return
        self._after_insurance(chance, out)

    def _insurance(self, action: Action, chance: Chance, out: Outcome) -> None:
        seat, amount = action.actor, action.amount
        assert isinstance(amount, int)
        self._insure(seat, amount, out)
        if all(b.insurance is not None for b in self.boxes.values()):
            self._after_insurance(chance, out)

    def _insure(self, seat: str, amount: int, out: Outcome) -> None:
        self.boxes[seat].insurance = amount
        if amount:
            out.transfers.append(Transfer(seat, ESCROW, amount, "insurance"))
        out.events.append(Event(E.INSURANCE, seat, amount=amount))

    def _after_insurance(self, chance: Chance, out: Outcome) -> None:
        """BJ-PEEK-1 then BJ-NAT-1, then the first hand to play."""
        self.phase = Phase.PLAYING
        up = self.dealer[0]
        if self.rules.peek and up.value in (1, 10):
            if is_blackjack(self.dealer):
                self._dealer_blackjack(out)
                return
            out.events.append(Event(E.PEEKED, DEALER))
            self._settle_insurance(False, out)
        if self.rules.peek or up.value not in (1, 10):
            for seat, box in self.boxes.items():
                hand = box.hands[0]
                if hand.blackjack:
                    self._pay_blackjack(seat, 0, hand, out)
        self.turn = None
        self._advance(chance, out)

    def _pay_blackjack(self, seat: str, index: int, hand: Hand, out: Outcome) -> None:
        win = self.rules.blackjack_winnings(hand.bet)
        out.transfers.append(Transfer(ESCROW, seat, hand.bet, "blackjack stake back"))
        if win:
            out.transfers.append(Transfer(HOUSE, seat, win, "blackjack paid"))
        hand.outcome, hand.net, hand.done = HandOutcome.BLACKJACK, win, True
        out.events.append(Event(E.BLACKJACK, seat, index, win))

    def _settle_insurance(self, dealer_blackjack: bool, out: Outcome) -> None:
        for seat, box in self.boxes.items():
            amount = box.insurance or 0
            if not amount or box.insurance_net is not None:
                continue
            if dealer_blackjack:
                out.transfers.append(Transfer(ESCROW, seat, amount, "insurance stake back"))
                out.transfers.append(Transfer(HOUSE, seat, 2 * amount, "insurance paid"))
                box.insurance_net = 2 * amount
            else:
                out.transfers.append(Transfer(ESCROW, HOUSE, amount, "insurance lost"))
                box.insurance_net = -amount

    def _dealer_blackjack(self, out: Outcome) -> None:
        """BJ-PEEK-1: every bet loses except a player blackjack, which pushes."""
        out.events.append(Event(E.DEALER_BLACKJACK, DEALER, card=self.dealer[1].code))
        self._settle_insurance(True, out)
        for seat, box in self.boxes.items():
            for hand in box.hands:
                if hand.blackjack:
                    self._settle(seat, hand, HandOutcome.PUSH, out)
                else:
                    self._settle(seat, hand, HandOutcome.LOSE, out)
        self._finish(out)

    def _settle(self, seat: str, hand: Hand, outcome: HandOutcome, out: Outcome) -> None:
        staked = hand.staked
        if outcome is HandOutcome.WIN:
            out.transfers.append(Transfer(ESCROW, seat, staked, "blackjack stake back"))
            out.transfers.append(Transfer(HOUSE, seat, staked, "blackjack hand won"))
            hand.net = staked
        elif outcome is HandOutcome.PUSH:
            out.transfers.append(Transfer(ESCROW, seat, staked, "blackjack push"))
            hand.net = 0
        else:  # LOSE, BUST
            out.transfers.append(Transfer(ESCROW, HOUSE, staked, f"blackjack hand {outcome.value}"))
            hand.net = -staked
        hand.outcome, hand.done = outcome, True

    def _advance(self, chance: Chance, out: Outcome) -> None:
        """Move the turn to the next hand to play (seat order, each hand to its end),
        giving a split hand its second card when its turn comes; the dealer plays once
        every hand is done."""
        for seat, box in self.boxes.items():
            for index, hand in enumerate(box.hands):
                if hand.done:
                    continue
                if len(hand.cards) == 1:  # a hand made by a split: its second card
                    hand.cards.append(self._draw(chance, out))
                    out.events.append(Event(E.HIT, seat, index, card=hand.cards[-1].code))
                    if hand.split_aces and not self._may_resplit(box, hand):
                        hand.done = True
                        continue
                if hand.total >= 21:
                    hand.done = True  # BJ-STAND-1: 21 stands by itself
                    continue
                self.turn = (seat, index)
                return
        self.turn = None
        self._dealer_turn(chance, out)

    def _may_resplit(self, box: Box, hand: Hand) -> bool:
        return (
            self.rules.resplit_aces
            and hand.cards[0].rank is hand.cards[1].rank
            and len(box.hands) < self.rules.max_hands
        )

    def _end_hand(self, chance: Chance, out: Outcome) -> None:
        hand = self.current_hand()
        assert hand is not None and self.turn is not None
        hand.done = True
        self._advance(chance, out)

    def _hit(self, action: Action, chance: Chance, out: Outcome) -> None:
        assert self.turn is not None
        seat, index = self.turn
        hand = self.boxes[seat].hands[index]
        self._hit_hand(seat, index, hand, chance, out)
        if hand.done:
            self._advance(chance, out)

    def _hit_hand(self, seat: str, index: int, hand: Hand, chance: Chance, out: Outcome) -> None:
        """BJ-HIT-1: one card; a bust is lost at once; 21 stands (BJ-STAND-1)."""
        hand.cards.append(self._draw(chance, out))
        out.events.append(Event(E.HIT, seat, index, card=hand.cards[-1].code))
        if hand.total > 21:
            out.events.append(Event(E.BUST, seat, index, hand.staked))
            self._settle(seat, hand, HandOutcome.BUST, out)
        elif hand.total == 21:
            hand.done = True

    def _stand(self, action: Action, chance: Chance, out: Outcome) -> None:
        assert self.turn is not None
        out.events.append(Event(E.STAND, *self.turn))
        self._end_hand(chance, out)

    def _double(self, action: Action, chance: Chance, out: Outcome) -> None:
        assert self.turn is not None
        seat, index = self.turn
        hand = self.boxes[seat].hands[index]
        amount = hand.bet if action.amount is None else action.amount
        hand.doubled = amount
        out.transfers.append(Transfer(seat, ESCROW, amount, "blackjack double"))
        hand.cards.append(self._draw(chance, out))
        out.events.append(Event(E.DOUBLE, seat, index, amount, hand.cards[-1].code))
        if hand.total > 21:
            out.events.append(Event(E.BUST, seat, index, hand.staked))
            self._settle(seat, hand, HandOutcome.BUST, out)
        hand.done = True
        self._advance(chance, out)

    def _split(self, action: Action, chance: Chance, out: Outcome) -> None:
        assert self.turn is not None
        seat, index = self.turn
        box = self.boxes[seat]
        hand = box.hands[index]
        aces = hand.cards[0].value == 1
        second = hand.cards.pop()
        new = Hand([second], hand.bet, from_split=True, split_aces=aces)
        hand.from_split, hand.split_aces = True, aces
        box.hands.insert(index + 1, new)
        out.transfers.append(Transfer(seat, ESCROW, hand.bet, "blackjack split"))
        out.events.append(Event(E.SPLIT, seat, index, hand.bet))
        hand.cards.append(self._draw(chance, out))
        out.events.append(Event(E.HIT, seat, index, card=hand.cards[-1].code))
        if (aces and not self._may_resplit(box, hand)) or hand.total == 21:
            hand.done = True
            self._advance(chance, out)

    def _surrender(self, action: Action, chance: Chance, out: Outcome) -> None:
        """BJ-SURR-1: half the bet back, rounded down."""
        assert self.turn is not None
        seat, index = self.turn
        hand = self.boxes[seat].hands[index]
        back = hand.bet // 2
        if back:
            out.transfers.append(Transfer(ESCROW, seat, back, "blackjack surrender"))
        if hand.bet - back:
            out.transfers.append(Transfer(ESCROW, HOUSE, hand.bet - back, "blackjack surrender"))
        hand.outcome, hand.net, hand.done = HandOutcome.SURRENDER, back - hand.bet, True
        out.events.append(Event(E.SURRENDER, seat, index, back))
        self._advance(chance, out)

    def _timeout(self, action: Action, chance: Chance, out: Outcome) -> None:
        """BJ-TIMER-1: unanswered insurance is declined; the hand being played hits
        while under 12, then stands."""
        if self.phase is Phase.INSURANCE:
            for seat, box in self.boxes.items():
                if box.insurance is None:
                    self._insure(seat, 0, out)
            self._after_insurance(chance, out)
            return
        assert self.turn is not None
        seat, index = self.turn
        hand = self.boxes[seat].hands[index]
        hits = 0
        while not hand.done and hand.total < 12 and not hand.split_aces:
            self._hit_hand(seat, index, hand, chance, out)
            hits += 1
        out.events.append(Event(E.TIMED_OUT, seat, index, hits))
        hand.done = True
        self._advance(chance, out)

    def _dealer_turn(self, chance: Chance, out: Outcome) -> None:
        """BJ-DEALER-1 (and BJ-NHC-1 without a hole card), then BJ-SETTLE-1."""
        rules = self.rules
        live = [(s, h) for s, b in self.boxes.items() for h in b.hands if h.outcome is None]
        insured = any(b.insurance and b.insurance_net is None for b in self.boxes.values())
        if not rules.peek and (live or insured):
            self.dealer.append(self._draw(chance, out))
            if is_blackjack(self.dealer):
                self._no_hole_card_blackjack(out)
                return
            self._settle_insurance(False, out)
        for seat, hand in live:
            if hand.blackjack:  # waited for the dealer's second card (no-hole-card game)
                self._pay_blackjack(seat, 0, hand, out)
        live = [(s, h) for s, h in live if h.outcome is None]
        if live:
            h17 = rules.dealer == "h17"
            while True:
                total, soft = hand_total(self.dealer)
                if not dealer_hits(total, soft, h17):
                    break
                self.dealer.append(self._draw(chance, out))
        total = hand_total(self.dealer)[0]
        out.events.append(Event(E.DEALER_PLAYED, DEALER, amount=total))
        for seat, hand in live:
            if total > 21 or hand.total > total:
                self._settle(seat, hand, HandOutcome.WIN, out)
            elif hand.total == total:
                self._settle(seat, hand, HandOutcome.PUSH, out)
            else:
                self._settle(seat, hand, HandOutcome.LOSE, out)
        self._finish(out)

    def _no_hole_card_blackjack(self, out: Outcome) -> None:
        """BJ-NHC-1: only each seat's original bet is taken (its first hand's bet);
        doubles and split bets are returned; a player blackjack pushes."""
        out.events.append(Event(E.DEALER_BLACKJACK, DEALER, card=self.dealer[1].code))
        self._settle_insurance(True, out)
        for seat, box in self.boxes.items():
            for index, hand in enumerate(box.hands):
                if hand.outcome is not None:
                    continue
                if hand.blackjack:
                    self._settle(seat, hand, HandOutcome.PUSH, out)
                elif index == 0:
                    out.transfers.append(Transfer(ESCROW, HOUSE, hand.bet, "blackjack hand lose"))
                    if hand.doubled:
                        out.transfers.append(
                            Transfer(ESCROW, seat, hand.doubled, "blackjack double returned")
                        )
                    hand.outcome, hand.net, hand.done = HandOutcome.LOSE, -hand.bet, True
                else:
                    self._settle(seat, hand, HandOutcome.PUSH, out)
        self._finish(out)

    def _finish(self, out: Outcome) -> None:
        hands: list[HandResult] = []
        for seat, box in self.boxes.items():
            for index, hand in enumerate(box.hands):
                assert hand.outcome is not None
                hands.append(
                    HandResult(
                        seat,
                        index,
                        tuple(c.code for c in hand.cards),
                        hand.total,
                        hand.staked,
                        hand.outcome,
                        hand.net,
                    )
                )
        insurance = tuple(
            (s, b.insurance_net) for s, b in self.boxes.items() if b.insurance_net is not None
        )
        result = RoundResult(
            self.round_no,
            tuple(c.code for c in self.dealer),
            hand_total(self.dealer)[0],
            is_blackjack(self.dealer),
            tuple(hands),
            insurance,
        )
        self.shoe.discard(self.dealer)
        for box in self.boxes.values():
            for hand in box.hands:
                self.shoe.discard(hand.cards)
        self.last_result = result
        self.phase = Phase.ROUND_OVER
        self.turn = None
        out.result = result
        out.events.append(Event(E.SETTLED, DEALER, amount=self.round_no))

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.model_dump(mode="json"),
            "shoe": self.shoe.to_json(),
            "seats": list(self.seats),
            "bets": dict(self.bets),
            "last_bets": dict(self.last_bets),
            "phase": self.phase.value,
            "dealer": [c.code for c in self.dealer],
            "boxes": {s: b.to_json() for s, b in self.boxes.items()},
            "turn": None if self.turn is None else list(self.turn),
            "round_no": self.round_no,
            "version": self.version,
            "last_result": None if self.last_result is None else self.last_result.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlackjackTable:
        try:
            if data.get("format") != STATE_FORMAT:
                raise ConfigError(f"unknown table state format {data.get('format')!r}")
            table = cls(BlackjackRules.model_validate(data["rules"]), Shoe.from_json(data["shoe"]))
            table.seats = [str(s) for s in data["seats"]]
            table.bets = {str(s): int(a) for s, a in data["bets"].items()}
            table.last_bets = {str(s): int(a) for s, a in data["last_bets"].items()}
            table.phase = Phase(data["phase"])
            table.dealer = parse_cards(data["dealer"])
            table.boxes = {str(s): Box.from_json(b) for s, b in data["boxes"].items()}
            turn = data["turn"]
            table.turn = None if turn is None else (str(turn[0]), int(turn[1]))
            table.round_no = int(data["round_no"])
            table.version = int(data["version"])
            last = data["last_result"]
            table.last_result = None if last is None else RoundResult.from_json(last)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"not a stored Blackjack table: {exc}") from exc
        return table


def _only_chips(balance: int) -> RuleError:
    chips = max(balance, 0)
    return RuleError(
        "BJ-CHIPS-1",
        f"you have only {chips} chips to bet with",
        key="engine.bj.only_chips",
        amount=chips,
    )


_unknown = unknown_action("BJ-BET-1")

Check = Callable[[BlackjackTable, Action], RuleError | None]
Change = Callable[[BlackjackTable, Action, Chance, Outcome], None]


class _NoChance:
    """The chance of an ``apply`` given none: an action that deals cards needs one."""

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        raise ConfigError("this action deals cards and needs a Chance")

    def randbelow(self, n: int) -> int:
        raise ConfigError("this action deals cards and needs a Chance")


_NO_CHANCE: Final = _NoChance()

# Each action kind: its one check (``why_not``, ``legal_actions``) and the change
# ``apply`` makes after it.
_ACTIONS: dict[ActionKind, tuple[Check, Change]] = {
    K.JOIN: (BlackjackTable._join_refusal, BlackjackTable._join),
    K.LEAVE: (BlackjackTable._leave_refusal, BlackjackTable._leave),
    K.BET: (BlackjackTable._bet_refusal, BlackjackTable._bet),
    K.DEAL: (BlackjackTable._deal_refusal, BlackjackTable._deal),
    K.INSURANCE: (BlackjackTable._insurance_refusal, BlackjackTable._insurance),
    K.HIT: (BlackjackTable._hit_refusal, BlackjackTable._hit),
    K.STAND: (BlackjackTable._stand_refusal, BlackjackTable._stand),
    K.DOUBLE: (BlackjackTable._double_refusal, BlackjackTable._double),
    K.SPLIT: (BlackjackTable._split_refusal, BlackjackTable._split),
    K.SURRENDER: (BlackjackTable._surrender_refusal, BlackjackTable._surrender),
    K.TIMEOUT: (BlackjackTable._timeout_refusal, BlackjackTable._timeout),
    K.NEXT_ROUND: (BlackjackTable._next_round_refusal, BlackjackTable._next_round),
}


if TYPE_CHECKING:
    # mypy --strict: the table offers every member of the one interface (observe too)
    _IS_A_GAME: type[Game[Action, LegalAction, Event]] = BlackjackTable


__all__ = ["STATE_FORMAT", "BlackjackTable", "Box", "Hand"]
