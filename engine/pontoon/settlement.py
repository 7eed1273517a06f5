"""Settlement (section 7, P-DEAL-4, P-SHOOT-3/6/7) and the end of a round (P-NEXT-1/2).

What each result pays comes from the payout table (``engine.pontoon.payouts``).
"""

from __future__ import annotations

from engine.pontoon.hands import BUST, FIVE, Hand
from engine.pontoon.payouts import banker_label, result_label
from engine.pontoon.state import TableState
from engine.pontoon.types import ESCROW, KITTY, Event, EventKind, Outcome, Phase
from engine.pontoon.views import HandStatus


class Settlement(TableState):
    def _settle(self, out: Outcome) -> None:
        """The banker against every hand still in play (P-PAY-BUST, P-PAY-STAY,
        P-PAY-FIVE); shoot bets even money against the kitty (P-SHOOT-7)."""
        banker_hand = self._banker_hand
        assert banker_hand is not None
        banker_total = banker_hand.total
        if banker_total > 21:
            banker_score = BUST
        elif len(banker_hand.cards) >= 5:
            banker_score = FIVE
        else:
            banker_score = banker_total
        rule = {BUST: "P-PAY-BUST", FIVE: "P-PAY-FIVE"}.get(banker_score, "P-PAY-STAY")
        against = banker_label(banker_score)
        loss = self.payouts.player_loss(banker_score, self._doubled)
        for seat in self._active:
            for i, hand in enumerate(self._hands[seat]):
                if hand.status is HandStatus.BUST:
                    continue  # settled when it bust (P-BUST-1)
                hand.shown = True
                score = self._score(hand, royal=True)
                label = result_label(score)
                if banker_score == BUST or score > banker_score:
                    why = "banker bust" if banker_score == BUST else f"{label} beats {against}"
                    win = hand.stake * self.payouts.player_win(score, self._doubled)
                    self._pay_player(out, seat, hand, win, f"{label} wins ({rule})")
                    shoot_net = self._shoot_won(out, seat, hand)
                    self._result(out, seat, i, hand, score, win, shoot_net, "win", why)
                else:
                    why = f"{label} loses to {against}"
                    self._collect(out, seat, hand, hand.stake * loss, f"loses ({rule})")
                    shoot_net = self._shoot_lost(out, hand, "P-SHOOT-7")
                    self._result(
                        out, seat, i, hand, score, -hand.stake * loss, shoot_net, "lose", why
                    )
        self._open_stake = 0
        self._shoot_out = 0
        self._finish_round(out)

    def _banker_pontoon_collects(self, out: Outcome) -> None:
        """P-DEAL-4 / P-SHOOT-3: the banker's pontoon is shown and collects from everyone;
        the hand ends. With P-VAR-7 (a)/(c) a stronger pontoon is paid as a pontoon."""
        banker_hand = self._banker_hand
        assert banker_hand is not None and self.banker is not None
        banker_hand.shown = True
        banker_hand.status = HandStatus.PONTOON
        self._banker_pontoon = True
        self._pontoon_seen = True
        out.events.append(
            Event(EventKind.BANKER_PONTOON, self.banker, 0, banker_hand.codes(), total=21)
        )
        banker_score = self._score(banker_hand, royal=False)
        loss = self.payouts.player_loss(banker_score, self._doubled)
        for seat in self._active:
            for i, hand in enumerate(self._hands[seat]):
                hand.shown = True
                score = self._score(hand, royal=False)
                if score > banker_score:
                    win = hand.stake * self.payouts.player_win(score, self._doubled)
                    self._pay_player(out, seat, hand, win, "stronger pontoon (P-VAR-7)")
                    shoot_net = self._shoot_won(out, seat, hand)
                    self._shoot_out -= shoot_net
                    hand.status = HandStatus.PONTOON
                    why = "pontoon beats banker's pontoon"
                    self._result(out, seat, i, hand, score, win, shoot_net, "win", why)
                    continue
                self._collect(out, seat, hand, hand.stake * loss, "banker's pontoon (P-DEAL-4)")
                shoot_net = self._shoot_lost(out, hand, "P-SHOOT-3")
                self._shoot_out += shoot_net
                self._result(
                    out,
                    seat,
                    i,
                    hand,
                    score,
                    -hand.stake * loss,
                    shoot_net,
                    "lose",
                    "banker's pontoon",
                )
        self._open_stake = 0
        self._finish_round(out)

    def _lose_bust_hand(self, out: Outcome, seat: str, i: int, hand: Hand) -> None:
        """P-BUST-1 / P-SHOOT-6: shown, stake to the banker, cards to the bottom at once."""
        hand.shown = True
        out.events.append(Event(EventKind.BUST, seat, i, hand.codes(), total=hand.total))
        loss = hand.stake * self.payouts.player_loss(BUST, self._doubled)
        self._collect(out, seat, hand, loss, "bust (P-BUST-1)")
        self._open_stake -= hand.stake
        shoot_net = self._shoot_lost(out, hand, "P-SHOOT-6")
        self._shoot_out += shoot_net
        self._result(out, seat, i, hand, BUST, -loss, shoot_net, "lose", "bust")
        self.pack.add_to_bottom(hand.cards)

    # chip moves of one hand --------------------------------------------------------------

    def _pay_player(self, out: Outcome, seat: str, hand: Hand, win: int, reason: str) -> None:
        """The stake back from escrow and the win from the banker."""
        assert self.banker is not None
        self._move(out, ESCROW, seat, hand.stake, "stake returned")
        self._move(out, self.banker, seat, win, reason)

    def _collect(self, out: Outcome, seat: str, hand: Hand, loss: int, reason: str) -> None:
        """The stake from escrow and the rest of the loss from the seat, to the banker."""
        assert self.banker is not None
        self._move(out, ESCROW, self.banker, hand.stake, reason)
        self._move(out, seat, self.banker, loss - hand.stake, reason)

    def _shoot_won(self, out: Outcome, seat: str, hand: Hand) -> int:
        """A winning hand's shoot bets come back with as much again from the kitty."""
        if not hand.shoot:
            return 0
        self._move(out, ESCROW, seat, hand.shoot, "shoot bet returned")
        self._move(out, KITTY, seat, hand.shoot, "shoot bet won (P-SHOOT-7)")
        return hand.shoot

    def _shoot_lost(self, out: Outcome, hand: Hand, rule: str) -> int:
        """A losing hand's shoot bets go into the kitty; returns the (negative) net."""
        if not hand.shoot:
            return 0
        self._move(out, ESCROW, KITTY, hand.shoot, f"shoot bet to kitty ({rule})")
        return -hand.shoot

    def _result(
        self,
        out: Outcome,
        seat: str,
        i: int,
        hand: Hand,
        score: int,
        net: int,
        shoot_net: int,
        outcome: str,
        why: str,
    ) -> None:
        """A HAND_RESULT event and its line in ``results``."""
        codes = hand.codes()
        out.events.append(
            Event(
                EventKind.HAND_RESULT,
                seat,
                i,
                codes,
                amount=net + shoot_net,
                total=hand.total,
                detail=f"{outcome}: {why}",
            )
        )
        self._results.append((seat, i, codes, score, hand.stake, outcome, net, shoot_net, why))

    # the end of a round ----------------------------------------------------------------

    def _finish_round(self, out: Outcome) -> None:
        """P-NEXT-1 / P-NEXT-2: used cards to the bottom, decide the next banker."""
        next_banker: str | None = None
        # Only a declared pontoon passes the bank, and declaring one sets _pontoon_seen:
        # most rounds have none, and skip the search.
        if self._pontoon_seen and not self._banker_pontoon and not self.rules.house_bank:
            for seat in self._players:  # in order from the banker's left
                if any(
                    h.status is HandStatus.PONTOON and not h.from_split for h in self._hands[seat]
                ):
                    next_banker = seat
                    break
        self.pack.add_to_bottom(self._cards_in_play())
        if self._pontoon_seen:
            self.needs_shuffle = True
        self._next_banker = next_banker
        if next_banker is not None:
            out.events.append(
                Event(EventKind.BANK_PASSES, next_banker, detail="pontoon (P-NEXT-2)")
            )
        self.phase = Phase.ROUND_OVER
        assert self.escrow == 0, "escrow must be empty after a round"
        if self.rules.shoot and self.kitty == 0:
            out.events.append(
                Event(EventKind.KITTY, self.banker, amount=0, detail="empty (P-SHOOT-8)")
            )
        out.events.append(Event(EventKind.ROUND_OVER, amount=self.round_no))
