"""The Pontoon table: a round state machine that plays docs/rules/pontoon.md.

Pure: no I/O, no global random; chance comes in through the ``Chance`` given to ``apply``.
Every action runs all of its checks before it changes anything, so an illegal action
raises ``RuleError`` and leaves the table exactly as it was.

The table is built in layers, one module each (see ``engine/pontoon/state.py``):

- ``state``: the state, chip moves, the cover rule (P-PAY-LIMIT), cards for a deal;
- ``hands`` / ``payouts``: hand values and ranking; what each result pays;
- ``settlement``: section 7 and the end of a round;
- ``banker_turn``: section 6;
- ``play``: the players' turns (section 5);
- ``betting``: the deal, initial bets, the double (P-VAR-3), the kitty and shoot bets;
- ``seating``: joining, leaving, the cut, the bank between rounds;
- ``serialisation``: to and from JSON;
- this module: what a seat may do now (``legal_actions``), ``apply``, and the views.

Decisions taken where the rules leave room (each also noted where it is coded):

- P-DEAL-4: a banker's pontoon ends the hand at once. With P-VAR-7 (a) or (c) a player
  whose pontoon is stronger than the banker's is paid as a pontoon; equal or weaker
  pontoons pay the banker like every other hand (ties to the banker, P-RANK-6).
- P-VAR-3: a doubled round pays and collects twice the stake for ordinary results; a
  special result uses its own multiplier of the undoubled stake, but never less than 2.
  The house never doubles.
- P-PAY-LIMIT: the banker must hold ``Payouts.banker_cover`` x every open stake; a player
  must hold ``Payouts.player_cover - 1`` x their open stakes besides the stakes in escrow.
- P-TABLE-1: a deal gives everyone two cards from the table's pack(s), so a table seats
  at most ``seat_limit`` (26 on one pack); a deal that could not be completed is refused.
- P-SHOOT-5: a shoot bet on the new hand of a split rides on the SPLIT action's ``shoot``.
- P-SHOOT-8: in Shoot mode every deal starts in the KITTY phase.
- A stick below the minimum is allowed when the pack has no card left to deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cards import Chance
from engine.errors import RuleError
from engine.pontoon.hands import Hand
from engine.pontoon.seating import BETWEEN_ROUNDS, Seating
from engine.pontoon.serialisation import load_table_json, results_as_dicts, table_to_json
from engine.pontoon.types import HOUSE, Action, ActionKind, LegalAction, Outcome, Phase
from engine.pontoon.views import HandStatus, HandView, SeatView, TableView


class PlainOffer:
    """Offers without amounts never change: each is built once (and read as a plain class
    attribute, cheaper than an enum member on Python 3.11)."""

    LEAVE = LegalAction(ActionKind.LEAVE)
    CUT = LegalAction(ActionKind.CUT)
    DEAL = LegalAction(ActionKind.DEAL)
    NEXT_ROUND = LegalAction(ActionKind.NEXT_ROUND)
    SIT_OUT = LegalAction(ActionKind.SIT_OUT)
    DOUBLE = LegalAction(ActionKind.DOUBLE)
    NO_DOUBLE = LegalAction(ActionKind.NO_DOUBLE)
    DECLARE = LegalAction(ActionKind.DECLARE)
    STICK = LegalAction(ActionKind.STICK)
    TWIST = LegalAction(ActionKind.TWIST)
    BURN = LegalAction(ActionKind.BURN)


class Table(Seating):
    """A Pontoon table. See engine/pontoon/API.md for the contract."""

    # the public state ---------------------------------------------------------------------

    @property
    def turn(self) -> tuple[str, int] | None:
        """(seat, hand index) whose turn it is; (banker, 0) in the banker's turn."""
        if self.phase is Phase.PLAYING:
            return (self._active[self._turn_player], self._turn_hand)
        if self.phase is Phase.BANKER and self.banker is not None:
            return (self.banker, 0)
        return None

    @property
    def next_banker(self) -> str | None:
        """Who banks the next deal (P-NEXT-2, P-SELL-1)."""
        if self.phase is Phase.ROUND_OVER and self._next_banker is not None:
            return self._next_banker
        return self.banker

    @property
    def results(self) -> list[dict[str, Any]]:
        """The settled hands of the current (or last) round, in settlement order."""
        return results_as_dicts(self)

    def to_act(self) -> list[str]:
        """The seats whose move the table is waiting for."""
        phase = self.phase
        if phase is Phase.BETTING:
            return [p for p in self._players if p not in self._decided]
        if phase is Phase.PLAYING:
            return [self._active[self._turn_player]]
        if phase is Phase.SHOOTING:
            return [self._active[self._shooter]]
        if phase in (Phase.BANKER, Phase.DOUBLING, Phase.KITTY) and self.banker is not None:
            return [self.banker]
        return []

    # what a seat may do ---------------------------------------------------------------------

    def legal_actions(self, seat: str) -> list[LegalAction]:
        """Exactly what ``seat`` may do now (amount ranges inclusive)."""
        phase = self.phase
        if phase in BETWEEN_ROUNDS:
            return self._legal_between_rounds(seat)
        if seat not in self.balances and not (self.rules.house_bank and seat == HOUSE):
            return []
        if phase is Phase.PLAYING:
            return self._legal_in_play(seat)
        out: list[LegalAction] = []
        if phase is Phase.BETTING:
            if self._bet_refusal(seat) is None:
                least, most = self._bet_range(seat)
                if most >= least:
                    out.append(LegalAction(ActionKind.BET, least, most))
                out.append(PlainOffer.SIT_OUT)
        elif phase is Phase.BANKER:
            if self._banker_refusal(seat, draws=True) is None:
                out.append(PlainOffer.TWIST)
            if self._banker_refusal(seat, draws=False) is None:
                out.append(PlainOffer.STICK)
        elif phase is Phase.KITTY:
            if seat == self.banker:
                least, most = self._kitty_range()
                if most >= least and self._deal_refusal() is None:
                    out.append(LegalAction(ActionKind.KITTY, least, most))
                if len(self.seats) >= 2:
                    out.append(LegalAction(ActionKind.SELL_BANK, 0, None))
        elif phase is Phase.DOUBLING:
            if seat == self.banker:
                out.append(PlainOffer.DOUBLE)
                out.append(PlainOffer.NO_DOUBLE)
        elif phase is Phase.SHOOTING and self._shooter_refusal(seat) is None:
            out.append(LegalAction(ActionKind.SHOOT, 0, self._shoot_max(seat, 0)))
        return out

    def _legal_between_rounds(self, seat: str) -> list[LegalAction]:
        if seat not in self.balances:
            if self._join_refusal(seat) is None:
                return [LegalAction(ActionKind.JOIN, 0, None)]
            return []
        out: list[LegalAction] = []
        if self._leave_refusal(seat) is None:
            out.append(PlainOffer.LEAVE)
        if self.phase is Phase.WAITING:
            if self._cut_refusal(seat) is None:
                out.append(PlainOffer.CUT)
            if self._deal_refusals(seat) is None:
                out.append(PlainOffer.DEAL)
        else:
            out.append(PlainOffer.NEXT_ROUND)
        if not self.rules.house_bank and len(self.seats) >= 2 and self._sell_refusal(seat) is None:
            out.append(LegalAction(ActionKind.SELL_BANK, 0, None))
        return out

    def _legal_in_play(self, seat: str) -> list[LegalAction]:
        if self._turn_refusal(seat) is not None:
            return []
        hand = self._current_hand()
        if self._declare_refusal(hand) is None:
            return [PlainOffer.DECLARE]  # the only move (P-TURN-DECLARE)
        out: list[LegalAction] = []
        fourth_card = len(hand.cards) == 3 and self.rules.shoot  # P-SHOOT-4
        if self._stick_refusal(hand) is None:
            out.append(PlainOffer.STICK)
        may_draw = self._draw_refusal(hand, 0) is None
        if may_draw:
            if fourth_card:
                out.append(LegalAction(ActionKind.TWIST, None, None, self._shoot_max(seat, 0)))
            else:
                out.append(PlainOffer.TWIST)
        if may_draw and self._buy_refusal(hand) is None:
            least, most, _ = self._buy_range(seat, hand)
            if most >= least:
                shoot_max = self._shoot_max(seat, least) if fourth_card else None
                out.append(LegalAction(ActionKind.BUY, least, most, shoot_max))
        if self._split_refusal(seat, hand) is None:
            shoot_max = self._shoot_max(seat, hand.original_stake) if self.rules.shoot else None
            out.append(LegalAction(ActionKind.SPLIT, None, None, shoot_max))
        if self._burn_refusal(hand) is None:
            out.append(PlainOffer.BURN)
        return out

    # doing it -----------------------------------------------------------------------------

    def apply(self, action: Action, chance: Chance) -> Outcome:
        """Apply one action. Raises RuleError (state untouched) when it is illegal."""
        handler = ACTION_HANDLERS.get(action.kind)
        if handler is None:
            raise RuleError(
                "P-TABLE-1",
                f"unknown action {action.kind!r}",
                key="engine.unknown_action",
                action=repr(action.kind),
            )
        out = Outcome()
        handler(self, action, chance, out)
        self.version += 1
        return out

    def timeout_action(self, seat: str) -> Action | None:
        """What to do for a seat that ran out of time (see API.md)."""
        phase = self.phase
        if phase is Phase.BETTING:
            if self._bet_refusal(seat) is None:
                return Action(seat, ActionKind.SIT_OUT)
            return None
        if phase is Phase.PLAYING:
            kinds = {la.kind for la in self.legal_actions(seat)}
            for kind in (ActionKind.DECLARE, ActionKind.STICK, ActionKind.TWIST):
                if kind in kinds:
                    return Action(seat, kind)
            return None
        if phase is Phase.BANKER and seat == self.banker:
            return Action(seat, ActionKind.STICK)
        if phase is Phase.DOUBLING and seat == self.banker:
            return Action(seat, ActionKind.NO_DOUBLE)
        if phase is Phase.SHOOTING and self._shooter_refusal(seat) is None:
            return Action(seat, ActionKind.SHOOT, 0)
        return None

    # views ------------------------------------------------------------------------------

    @staticmethod
    def _view(seat: str, i: int, hand: Hand, every_card: bool) -> HandView:
        if every_card or hand.shown:
            cards = hand.codes()
            hidden = 0
        else:
            cards = tuple(c.code for c, up in zip(hand.cards, hand.face_up, strict=True) if up)
            hidden = len(hand.cards) - len(cards)
        total = hand.total if hidden == 0 and hand.cards else None
        status = hand.status
        if hidden and status is HandStatus.ROYAL:
            status = HandStatus.TWENTY_ONE  # three sevens stay secret until settlement (P-VAR-6)
        return HandView(seat, i, cards, hidden, hand.stake, hand.shoot, status, total)

    def private_view(self, seat: str) -> list[HandView]:
        """The seat's own hands with every card it may see (P-DEAL-1 for the banker)."""
        if seat == self.banker:
            banker_hand = self._banker_hand
            if banker_hand is None:
                return []
            return [self._view(seat, 0, banker_hand, self._banker_sees or banker_hand.shown)]
        return [self._view(seat, i, h, True) for i, h in enumerate(self._hands.get(seat, ()))]

    def public_view(self) -> TableView:
        seats = []
        for seat in self.seats:
            hands = [self._view(seat, i, h, False) for i, h in enumerate(self._hands.get(seat, ()))]
            decided = self._decided.get(seat)
            seats.append(
                SeatView(
                    seat,
                    self.balances[seat],
                    hands,
                    sitting_out=decided is False,
                    bet_placed=decided is True,
                )
            )
        banker_view = None
        if self._banker_hand is not None and self.banker is not None:
            banker_view = self._view(self.banker, 0, self._banker_hand, False)
        return TableView(
            self.phase,
            self.version,
            self.round_no,
            self.banker,
            seats,
            self.turn,
            self.kitty,
            banker_view,
            self.needs_shuffle,
        )

    # serialisation ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return table_to_json(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        table = cls()
        load_table_json(table, d)
        return table


# What each action does: its handler checks everything, then changes the table.
ACTION_HANDLERS: dict[ActionKind, Callable[[Table, Action, Chance, Outcome], None]] = {
    ActionKind.JOIN: Table._join,
    ActionKind.LEAVE: Table._leave,
    ActionKind.CUT: Table._cut,
    ActionKind.DEAL: Table._deal,
    ActionKind.KITTY: Table._put_up_kitty,
    ActionKind.BET: Table._bet,
    ActionKind.SIT_OUT: Table._sit_out,
    ActionKind.DOUBLE: Table._double,
    ActionKind.NO_DOUBLE: Table._double,
    ActionKind.SHOOT: Table._shoot,
    ActionKind.DECLARE: Table._declare,
    ActionKind.SPLIT: Table._split,
    ActionKind.BUY: Table._buy,
    ActionKind.TWIST: Table._twist,
    ActionKind.STICK: Table._stick,
    ActionKind.BURN: Table._burn,
    ActionKind.SELL_BANK: Table._sell_bank,
    ActionKind.NEXT_ROUND: Table._next_round,
}
