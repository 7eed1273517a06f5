"""The banker's turn (section 6): the reveal, draws and stays; the house plays by itself."""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import RuleError
from engine.pontoon.settlement import Settlement
from engine.pontoon.state import Refusal
from engine.pontoon.types import Action, Event, EventKind, Outcome, Phase
from engine.pontoon.views import HandStatus


class BankerTurn(Settlement):
    def _banker_turn(self, out: Outcome) -> None:
        """P-BANKER-1: every player has played; the banker's cards are turned face up."""
        banker_hand = self._banker_hand
        banker = self.banker
        assert banker_hand is not None and banker is not None
        if self._open_stake == 0 and self._shoot_out == 0 and not self._any_hand_in_play():
            self._settle(out)  # every hand bust: nothing left to play against
            return
        self.phase = Phase.BANKER
        banker_hand.shown = True
        banker_hand.face_up = [True] * len(banker_hand.cards)
        out.events.append(
            Event(
                EventKind.BANKER_REVEAL,
                banker,
                0,
                banker_hand.codes(),
                total=banker_hand.total,
            )
        )
        if self._banker_turn_over(out):
            return
        if self.rules.house_bank:
            self._house_plays(out)

    def _house_plays(self, out: Outcome) -> None:
        """The house draws while below ``house_stands_on`` and a card is left."""
        banker_hand = self._banker_hand
        assert banker_hand is not None
        while banker_hand.total < self.rules.house_stands_on and len(self.pack) > 0:
            self._banker_draw(out)
            if self._banker_turn_over(out):
                return
        out.events.append(Event(EventKind.BANKER_STAYS, self.banker, 0, total=banker_hand.total))
        banker_hand.status = HandStatus.STUCK
        self._settle(out)

    def _any_hand_in_play(self) -> bool:
        return any(
            h.status is not HandStatus.BUST for seat in self._active for h in self._hands[seat]
        )

    # the banker's actions (P-BANKER-2) -------------------------------------------------

    def _banker_refusal(self, seat: str, draws: bool) -> Refusal | None:
        """Why ``seat`` may not twist (``draws``) or stay now in the banker's turn."""
        if seat != self.banker:
            return RuleError("P-BANKER-2", "it is the banker's turn", key="engine.banker_turn")
        if draws and len(self.pack) == 0:
            return RuleError("P-TABLE-1", "the pack has no card left", key="engine.pack_empty")
        return None

    def _banker_twist(self, action: Action, chance: Chance, out: Outcome) -> None:
        self._raise(self._banker_refusal(action.seat, draws=True))
        self._banker_draw(out)
        self._banker_turn_over(out)

    def _banker_stick(self, action: Action, chance: Chance, out: Outcome) -> None:
        self._raise(self._banker_refusal(action.seat, draws=False))
        banker_hand = self._banker_hand
        assert banker_hand is not None
        banker_hand.status = HandStatus.STUCK
        out.events.append(Event(EventKind.BANKER_STAYS, action.seat, 0, total=banker_hand.total))
        self._settle(out)

    def _banker_draw(self, out: Outcome) -> None:
        """The banker takes a card face up (callers check that the pack is not empty)."""
        banker_hand = self._banker_hand
        assert banker_hand is not None
        card = self.pack.deal()
        banker_hand.add(card, True)
        out.events.append(
            Event(
                EventKind.BANKER_DRAW,
                self.banker,
                0,
                (card.code,),
                total=banker_hand.total,
            )
        )

    def _banker_turn_over(self, out: Outcome) -> bool:
        """P-BANKER-3: a bust, five cards or 21 end the banker's turn and settle."""
        banker_hand = self._banker_hand
        assert banker_hand is not None
        total = banker_hand.total
        if total > 21:
            banker_hand.status = HandStatus.BUST
            out.events.append(
                Event(EventKind.BUST, self.banker, 0, banker_hand.codes(), total=total)
            )
        elif len(banker_hand.cards) >= 5:
            banker_hand.status = HandStatus.FIVE_CARD_TRICK
            out.events.append(Event(EventKind.FIVE_CARD_TRICK, self.banker, 0))
        elif total == 21:
            banker_hand.status = HandStatus.TWENTY_ONE
            out.events.append(Event(EventKind.TWENTY_ONE, self.banker, 0))
        else:
            return False
        self._settle(out)
        return True
