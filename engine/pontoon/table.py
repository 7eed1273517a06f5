"""The Pontoon table: a round state machine that plays docs/rules/pontoon.md.

Pure: no I/O, no global random; chance comes in through the ``Chance`` given to ``apply``.
``Table`` is the game's state (``engine.pontoon.state``) and the :class:`engine.game.Game`
interface over it; the round is plain functions over that state, one module per stage,
read in the order of play:

1. ``seating``: joining and leaving, the cut for the first bank (P-BANK-1);
2. ``betting``: who deals, the kitty, the first card, initial bets, the banker's double
   (P-VAR-3), shoot bets and the second card (section 4, P-SHOOT-1/2);
3. ``play``: the players' turns (section 5);
4. ``banker_turn``: the banker's turn (section 6);
5. ``settlement``: section 7 and the end of a round (P-NEXT-1/2);
6. ``bank``: between rounds: the next round, the bank sold (P-SELL-1) or auctioned
   (P-SHOOT-8), closing a table.

Beside them: ``hands`` and ``payouts`` (values, ranking, what each result pays),
``serialisation`` (to and from JSON) and this module (``legal_actions``, ``why_not``,
``apply``, the views). Each action kind has one ``check_*`` function (every refusal, from
the one refusal function of each rule) and one function that makes the change:
``why_not`` runs the check, ``apply`` runs the check and then the change, and
``legal_actions`` offers what the same refusal functions allow. So an illegal action
raises ``RuleError`` and leaves the table exactly as it was.

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
  at most ``seat_limit`` (26 on one pack, fewer when the rules' ``max_seats`` says so); a
  deal that could not be completed is refused.
- P-BANK-1: before the first bank, the first seat (the table's opener) deals, and that
  deal begins with the cut.
- P-SHOOT-5: a shoot bet on the new hand of a split rides on the SPLIT action's ``shoot``.
- P-SHOOT-8: in Shoot mode every deal starts in the KITTY phase; with an empty kitty the
  banker may auction the bank (AUCTION, BID, END_AUCTION) instead of a new kitty.
- A stick below the minimum is allowed when the pack has no card left to deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.cards import Chance
from engine.errors import RuleError
from engine.game import Game, refusal_by_rules, unknown_action
from engine.pontoon import bank, banker_turn, betting, play, seating
from engine.pontoon.hands import Hand
from engine.pontoon.seating import BETWEEN_ROUNDS
from engine.pontoon.serialisation import load_table_json, results_as_dicts, table_to_json
from engine.pontoon.state import Refusal, TableState
from engine.pontoon.types import (
    HOUSE,
    Action,
    ActionKind,
    Event,
    LegalAction,
    Outcome,
    Phase,
    Transfer,
    record,
)
from engine.pontoon.views import HandStatus, HandView, Observation, SeatView, TableView

#: phases in which the cards dealt are players' first cards (P-DEAL-1, P-DEAL-3)
FIRST_CARD_PHASES = frozenset({Phase.KITTY, Phase.BETTING, Phase.DOUBLING, Phase.SHOOTING})
#: phases in which new stakes are placed (bets, buys): the banker's cover counts
STAKING_PHASES = frozenset({Phase.BETTING, Phase.PLAYING})


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
    AUCTION = LegalAction(ActionKind.AUCTION)
    END_AUCTION = LegalAction(ActionKind.END_AUCTION)


Check = Callable[[TableState, Action], Refusal | None]
Change = Callable[[TableState, Action, Chance, Outcome], None]

# Each action kind: its one check, and the change it makes once the check passed.
ACTIONS: dict[ActionKind, tuple[Check, Change]] = {
    ActionKind.JOIN: (seating.check_join, seating.join),
    ActionKind.LEAVE: (seating.check_leave, seating.leave),
    ActionKind.CUT: (seating.check_cut, seating.cut),
    ActionKind.DEAL: (betting.check_deal, betting.deal),
    ActionKind.KITTY: (betting.check_kitty, betting.put_up_kitty),
    ActionKind.BET: (betting.check_bet, betting.bet),
    ActionKind.SIT_OUT: (betting.check_sit_out, betting.sit_out),
    ActionKind.DOUBLE: (betting.check_double, betting.double),
    ActionKind.NO_DOUBLE: (betting.check_double, betting.double),
    ActionKind.SHOOT: (betting.check_shoot, betting.shoot),
    ActionKind.DECLARE: (play.check_declare, play.declare),
    ActionKind.SPLIT: (play.check_split, play.split),
    ActionKind.BUY: (play.check_buy, play.buy),
    ActionKind.TWIST: (play.check_twist, play.twist),
    ActionKind.STICK: (play.check_stick, play.stick),
    ActionKind.BURN: (play.check_burn, play.burn),
    ActionKind.SELL_BANK: (bank.check_sell_bank, bank.sell_bank),
    ActionKind.AUCTION: (bank.check_auction, bank.open_auction),
    ActionKind.BID: (bank.check_bid, bank.bid),
    ActionKind.END_AUCTION: (bank.check_end_auction, bank.end_auction),
    ActionKind.NEXT_ROUND: (bank.check_next_round, bank.next_round),
}


_unknown = unknown_action("P-TABLE-1")


class Table(TableState):
    """A Pontoon table (an :class:`engine.game.Game`). See engine/pontoon/API.md."""

    # the public state ---------------------------------------------------------------------

    @property
    def turn(self) -> tuple[str, int] | None:
        """(seat, hand index) whose turn it is; (banker, 0) in the banker's turn."""
        if self.phase is Phase.PLAYING:
            return (self.active[self.turn_player], self.turn_hand)
        if self.phase is Phase.BANKER and self.banker is not None:
            return (self.banker, 0)
        return None

    @property
    def next_banker(self) -> str | None:
        """Who banks the next deal (P-NEXT-2, P-SELL-1)."""
        if self.phase is Phase.ROUND_OVER and self.bank_passes_to is not None:
            return self.bank_passes_to
        return self.banker

    @property
    def results(self) -> list[dict[str, Any]]:
        """The settled hands of the current (or last) round, in settlement order."""
        return results_as_dicts(self)

    @property
    def best_bid(self) -> int:
        """The highest bid in the running auction of the bank (0: none yet)."""
        return bank.best_bid(self)

    def to_act(self) -> list[str]:
        """The seats whose move the table is waiting for."""
        phase = self.phase
        if phase is Phase.BETTING:
            return [p for p in self.players if p not in self.decided]
        if phase is Phase.PLAYING:
            return [self.active[self.turn_player]]
        if phase is Phase.SHOOTING:
            return [self.active[self.shooter]]
        if phase in (Phase.BANKER, Phase.DOUBLING, Phase.KITTY) and self.banker is not None:
            return [self.banker]
        return []

    def is_terminal(self) -> bool:
        """No round is in play: the last one is settled (or none was dealt yet)."""
        return self.phase in BETWEEN_ROUNDS

    def returns(self) -> dict[str, int]:
        """Each seat's net chips from the last settled round (shoot bets included); the
        banker's is what the players' hands lost, less what they won."""
        out: dict[str, int] = {}
        for seat, _hand, _cards, _score, _stake, _outcome, net, shoot_net, _why in self.result_rows:
            out[seat] = out.get(seat, 0) + net + shoot_net
        if self.result_rows and self.banker is not None:
            banker_net = -sum(net for *_, net, _shoot, _why in self.result_rows)
            out[self.banker] = out.get(self.banker, 0) + banker_net
        return out

    # what a seat may do ---------------------------------------------------------------------

    def legal_actions(self, seat: str) -> list[LegalAction]:
        """Exactly what ``seat`` may do now (amount ranges inclusive)."""
        if self.phase is Phase.PLAYING and not self.rules.shoot:
            return self._legal_in_play(seat)  # the most asked: straight to it
        out = self._legal_in_phase(seat)
        if self.rules.shoot:
            self._legal_auction(seat, out)
        return out

    def _legal_in_phase(self, seat: str) -> list[LegalAction]:
        phase = self.phase
        if phase in BETWEEN_ROUNDS:
            return self._legal_between_rounds(seat)
        if seat not in self.balances and not (self.rules.house_bank and seat == HOUSE):
            return []
        if phase is Phase.PLAYING:
            return self._legal_in_play(seat)
        out: list[LegalAction] = []
        if phase is Phase.BETTING:
            if betting.bet_refusal(self, seat) is None:
                least, most = betting.bet_range(self, seat)
                if most >= least:
                    out.append(LegalAction(ActionKind.BET, least, most))
                out.append(PlainOffer.SIT_OUT)
        elif phase is Phase.BANKER:
            if banker_turn.banker_refusal(self, seat, draws=True) is None:
                out.append(PlainOffer.TWIST)
            if banker_turn.banker_refusal(self, seat, draws=False) is None:
                out.append(PlainOffer.STICK)
        elif phase is Phase.KITTY:
            if seat == self.banker:
                least, most = betting.kitty_range(self)
                if most >= least and self.deal_refusal() is None:
                    out.append(LegalAction(ActionKind.KITTY, least, most))
                if len(self.seats) >= 2:
                    out.append(LegalAction(ActionKind.SELL_BANK, 0, None))
        elif phase is Phase.DOUBLING:
            if seat == self.banker:
                out.append(PlainOffer.DOUBLE)
                out.append(PlainOffer.NO_DOUBLE)
        elif phase is Phase.SHOOTING and betting.shooter_refusal(self, seat) is None:
            out.append(LegalAction(ActionKind.SHOOT, 0, self.shoot_max(seat, 0)))
        return out

    def _legal_between_rounds(self, seat: str) -> list[LegalAction]:
        if seat not in self.balances:
            if seating.join_refusal(self, seat) is None:
                return [LegalAction(ActionKind.JOIN, 0, None)]
            return []
        out: list[LegalAction] = []
        if seating.leave_refusal(self, seat) is None:
            out.append(PlainOffer.LEAVE)
        if self.phase is Phase.WAITING:
            if seating.cut_refusal(self, seat) is None:
                out.append(PlainOffer.CUT)
            if betting.dealer_refusal(self, seat) is None:
                out.append(PlainOffer.DEAL)
        else:
            out.append(PlainOffer.NEXT_ROUND)
        if (
            not self.rules.house_bank
            and len(self.seats) >= 2
            and bank.sell_refusal(self, seat) is None
        ):
            out.append(LegalAction(ActionKind.SELL_BANK, 0, None))
        return out

    def _legal_auction(self, seat: str, out: list[LegalAction]) -> None:
        """P-SHOOT-8: open an auction of the bank, bid in it, end it."""
        if self.auction is None:
            if bank.auction_refusal(self, seat) is None:
                out.append(PlainOffer.AUCTION)
        elif seat == self.banker:
            out.append(PlainOffer.END_AUCTION)
        elif seat in self.balances:
            least = bank.best_bid(self) + 1
            if bank.bid_refusal(self, seat, least) is None:
                out.append(LegalAction(ActionKind.BID, least, self.balances[seat]))

    def _legal_in_play(self, seat: str) -> list[LegalAction]:
        if play.turn_refusal(self, seat) is not None:
            return []
        hand = self.current_hand()
        # Each ``x_refusal`` below is the rule; a ``two_cards and`` in front only skips
        # asking (and building a refusal nobody reads) when the rule cannot allow it: a
        # pontoon, a split and a burn are all hands of two cards.
        two_cards = len(hand.cards) == 2
        if two_cards and play.declare_refusal(self, hand) is None:
            return [PlainOffer.DECLARE]  # the only move (P-TURN-DECLARE)
        out: list[LegalAction] = []
        fourth_card = len(hand.cards) == 3 and self.rules.shoot  # P-SHOOT-4
        if play.stick_refusal(self, hand) is None:
            out.append(PlainOffer.STICK)
        may_draw = play.draw_refusal(self, hand, 0) is None
        if may_draw:
            if fourth_card:
                out.append(LegalAction(ActionKind.TWIST, None, None, self.shoot_max(seat, 0)))
            else:
                out.append(PlainOffer.TWIST)
        if may_draw and play.buy_refusal(self, hand) is None:
            least, most, _ = play.buy_range(self, seat, hand)
            if most >= least:
                shoot_max = self.shoot_max(seat, least) if fourth_card else None
                out.append(LegalAction(ActionKind.BUY, least, most, shoot_max))
        if two_cards and play.split_refusal(self, seat, hand) is None:
            shoot_max = self.shoot_max(seat, hand.original_stake) if self.rules.shoot else None
            out.append(LegalAction(ActionKind.SPLIT, None, None, shoot_max))
        if two_cards and play.burn_refusal(self, hand) is None:
            out.append(PlainOffer.BURN)
        return out

    # doing it -----------------------------------------------------------------------------

    def why_not(self, action: Action) -> RuleError | None:
        """The refusal ``apply(action)`` would raise now, or None. Changes nothing."""
        return refusal_by_rules(ACTIONS, self, action, _unknown)

    def apply(self, action: Action, chance: Chance) -> Outcome:
        """Apply one action. Raises RuleError (state untouched) when it is illegal."""
        # change_by_rules(ACTIONS, self, action, _unknown), written out: the hottest call
        found = ACTIONS.get(action.kind)
        if found is None:
            raise _unknown(action)
        check, change = found
        refusal = check(self, action)
        if refusal is not None:
            raise refusal
        out = Outcome()
        change(self, action, chance, out)
        self.version += 1
        return out

    def timeout_action(self, seat: str) -> Action | None:
        """What to do for a seat that ran out of time (see API.md)."""
        phase = self.phase
        if phase is Phase.BETTING:
            if betting.bet_refusal(self, seat) is None:
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
        if phase is Phase.SHOOTING and betting.shooter_refusal(self, seat) is None:
            return Action(seat, ActionKind.SHOOT, 0)
        return None

    # between rounds, outside the actions --------------------------------------------------

    def round_follow_up(self) -> Action | None:
        """P-NEXT-3: the NEXT_ROUND a settled round moves on with by itself (None when no
        settled round waits). See :func:`engine.pontoon.bank.round_follow_up`."""
        return bank.round_follow_up(self)

    def offer_refusal(self, seller: str) -> RuleError | None:
        """P-SELL-2: the refusal of accepting ``seller``'s earlier offer of the bank once
        the bank has changed hands (None while the offer stands)."""
        return bank.offer_refusal(self, seller)

    def abandon(self) -> list[Transfer]:
        """Close the table mid-anything: every chip in escrow goes back to the seat that
        put it there and the kitty to the banker. The table is left WAITING. Returns the
        refund transfers (already applied to the table's own accounts)."""
        return bank.abandon(self)

    def set_balance(self, seat: str, chips: int) -> None:
        """Sync a seat's chips from the ledger (between rounds only)."""
        bank.set_balance(self, seat, chips)

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
        return record(HandView, (seat, i, cards, hidden, hand.stake, hand.shoot, status, total))

    def private_view(self, seat: str) -> list[HandView]:
        """The seat's own hands with every card it may see: a player's own cards
        (P-DEAL-1, P-DEAL-3); the banker's only once the banker may look (P-DEAL-1,
        P-VAR-3, P-BANKER-1) or they are shown."""
        if seat == self.banker:
            banker_hand = self.banker_hand
            if banker_hand is None:
                return []
            return [self._view(seat, 0, banker_hand, self.banker_sees or banker_hand.shown)]
        return [self._view(seat, i, h, True) for i, h in enumerate(self.hands.get(seat, ()))]

    def public_view(self) -> TableView:
        """What everyone in the channel may see (the public part of every observation):
        each hand's face-up cards, and every card of a hand the rules have shown."""
        seats = []
        for seat in self.seats:
            hands = tuple(
                self._view(seat, i, h, False) for i, h in enumerate(self.hands.get(seat, ()))
            )
            decided = self.decided.get(seat)
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
        if self.banker_hand is not None and self.banker is not None:
            banker_view = self._view(self.banker, 0, self.banker_hand, False)
        return TableView(
            self.phase,
            self.version,
            self.round_no,
            self.banker,
            tuple(seats),
            self.turn,
            self.kitty,
            banker_view,
            self.needs_shuffle,
        )

    def cards_due(self, seat: str) -> bool:
        """Whether face-down cards dealt to ``seat`` now are to be handed to it now: a
        player's first card waits for the second (P-DEAL-1, P-DEAL-3); the banker looks
        only at the first card under P-VAR-3 (to decide whether to double) and otherwise
        sees the cards when they are turned up in the banker's turn (P-BANKER-1)."""
        if seat == self.banker:
            return self.phase is Phase.DOUBLING
        return self.phase not in FIRST_CARD_PHASES

    def cover_room(self) -> int | None:
        """P-PAY-LIMIT: the most new stake the banker can still cover while bets and buys
        are open (None when they are not)."""
        if self.phase not in STAKING_PHASES:
            return None
        return self.banker_cover_room()

    def observe(self, viewer: str | None = None) -> Observation:
        """What ``viewer`` may see of the table now (:class:`engine.game.Game`): None is
        the public (everyone in the channel); a seat, the banker's included, sees the
        public table and its own hands as far as the rules let it look (see
        ``engine.pontoon.views``). The public table is most of the cost (about 25 µs at
        ten seats in play): for several viewers of one change, :meth:`observations`."""
        return self.observations((viewer,))[viewer]

    def observations(self, viewers: Iterable[str | None]) -> dict[str | None, Observation]:
        """``observe(viewer)`` for each of ``viewers``, the public table built once."""
        public = self.public_view()
        cover_room = self.cover_room()
        next_banker = self.next_banker
        waiting_on = tuple(self.to_act())
        returns = MappingProxyType(self.returns())
        return {
            viewer: Observation(
                viewer=viewer,
                table=public,
                hands=tuple(self.private_view(viewer)) if viewer is not None else (),
                cards_due=self.cards_due(viewer) if viewer is not None else False,
                cover_room=cover_room,
                next_banker=next_banker,
                waiting_on=waiting_on,
                returns=returns,
            )
            for viewer in viewers
        }

    # serialisation ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return table_to_json(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        table = cls()
        load_table_json(table, d)
        return table


if TYPE_CHECKING:
    # mypy --strict: the table offers every member of the one interface (observe too)
    _IS_A_GAME: type[Game[Action, LegalAction, Event]] = Table
