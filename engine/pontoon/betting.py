"""The deal and the bets before play (section 4, P-VAR-3, P-SHOOT-1/2/8): the kitty, the
first card, initial bets, the banker's double, shoot bets and the second card."""

from __future__ import annotations

from engine.cards import Card, Chance, Pack, full_pack
from engine.errors import RuleError
from engine.pontoon.hands import Hand
from engine.pontoon.play import Play
from engine.pontoon.state import CARDS_IN_A_PACK, Refusal
from engine.pontoon.types import ESCROW, KITTY, Action, ActionKind, Event, EventKind, Outcome, Phase
from engine.pontoon.views import HandStatus


class Betting(Play):
    # the deal -----------------------------------------------------------------------------

    def _new_pack_order(self, chance: Chance) -> list[Card] | None:
        """The pack order for the next deal when it must be shuffled (P-NEXT-1), else None;
        a table whose number of packs changed takes new packs (P-TABLE-1). Changes
        nothing, so a deal can ask for it before it changes the table."""
        packs = self._packs_for(len(self.seats))
        if len(self.pack) != CARDS_IN_A_PACK * packs:
            return chance.shuffle(full_pack(packs))
        if self.needs_shuffle:
            return chance.shuffle(self.pack.peek())
        return None

    def _deal_first(self, out: Outcome, new_order: list[Card] | None) -> None:
        """P-DEAL-1: (shuffle,) one face-down card each, ending with the banker, who may
        not look at it. The caller checked ``_deal_refusal``."""
        if new_order is not None:
            self.pack = Pack(new_order)
            self.needs_shuffle = False
            out.events.append(Event(EventKind.SHUFFLED, detail="shuffled and cut"))
        self.round_no += 1
        self.phase = Phase.BETTING
        self._players = self._players_for_round()
        dealt = EventKind.CARD_DEALT
        for seat in self._players:
            card = self.pack.deal()
            self._hands[seat] = [Hand([card])]
            out.events.append(Event(dealt, seat, 0, (card.code,), to=seat))
        self._banker_hand = Hand([self.pack.deal()])
        banker = self.banker
        assert banker is not None
        out.events.append(
            Event(EventKind.CARD_DEALT, banker, 0, to=banker, detail="banker, face down")
        )

    # the kitty (Shoot Pontoon) ------------------------------------------------------------

    def _kitty_range(self) -> tuple[int, int]:
        """P-SHOOT-1: a new kitty of kitty_min..kitty_max; P-SHOOT-8: add 0 or more, the
        total at most kitty_max; always within the banker's chips."""
        assert self.banker is not None
        chips = self.balances[self.banker]
        if self.kitty == 0:
            return self.rules.kitty_min, min(self.rules.kitty_max, chips)
        return 0, max(0, min(self.rules.kitty_max - self.kitty, chips))

    def _kitty_refusal(self, amount: int) -> Refusal | None:
        """Why the banker may not put ``amount`` into the kitty and deal."""
        least, most = self._kitty_range()
        if least <= amount <= most:
            return self._deal_refusal()
        if self.kitty == 0:
            return RuleError(
                "P-SHOOT-8" if self.round_no else "P-SHOOT-1",
                f"the kitty must be between {self.rules.kitty_min} and "
                f"{self.rules.kitty_max} and within the banker's chips",
                key="engine.kitty_range",
                low=self.rules.kitty_min,
                high=self.rules.kitty_max,
            )
        if amount < 0:
            return RuleError(
                "P-SHOOT-8",
                "the banker may add to the kitty, never take from it",
                key="engine.kitty_no_take",
            )
        return RuleError(
            "P-SHOOT-8",
            f"the banker may add at most {most} now",
            key="engine.kitty_add_max",
            high=most,
        )

    def _put_up_kitty(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is not Phase.KITTY:
            raise self._wrong_phase(action)
        if action.seat != self.banker:
            raise RuleError(
                "P-SHOOT-1", "only the banker puts up the kitty", key="engine.kitty_banker"
            )
        amount = self._amount(action, "P-SHOOT-1")
        self._raise(self._kitty_refusal(amount))
        new_order = self._new_pack_order(chance)
        if amount:
            self._move(out, action.seat, KITTY, amount, "kitty (P-SHOOT-1)")
            out.events.append(
                Event(EventKind.KITTY, action.seat, amount=amount, total=self.kitty, detail="added")
            )
        self._deal_first(out, new_order)

    # initial bets (P-DEAL-2) --------------------------------------------------------------

    def _bet_refusal(self, seat: str) -> Refusal | None:
        """Why ``seat`` may neither bet nor sit out now."""
        if seat not in self._hands:
            return RuleError(
                "P-DEAL-2",
                f"{seat} is not a player in this deal",
                key="engine.not_player",
                seat=seat,
            )
        if seat in self._decided:
            return RuleError(
                "P-DEAL-2",
                f"{seat} has already placed an initial bet",
                key="engine.already_bet",
                seat=seat,
            )
        return None

    def _bet_range(self, seat: str) -> tuple[int, int]:
        """The table's limits (P-TABLE-2) within what both sides can cover (P-PAY-LIMIT)."""
        return self.rules.min_bet, min(self.rules.max_bet, self._stake_cap(seat))

    def _bet_amount_refusal(self, seat: str, amount: int) -> Refusal | None:
        rules = self.rules
        if amount < rules.min_bet or amount > rules.max_bet:
            return RuleError(
                "P-TABLE-2",
                f"the initial bet must be between {rules.min_bet} and {rules.max_bet}",
                key="engine.bet_range",
                low=rules.min_bet,
                high=rules.max_bet,
            )
        if amount > self._player_cap(seat):
            return RuleError(
                "P-PAY-LIMIT",
                f"{seat} cannot cover a bet of {amount} and a possible "
                f"{self.payouts.player_cover}x loss",
                key="engine.cannot_cover_bet",
                seat=seat,
                amount=amount,
                times=self.payouts.player_cover,
            )
        if amount > self._banker_cap():
            return RuleError(
                "P-PAY-LIMIT",
                f"the banker cannot cover another bet of {amount}",
                key="engine.banker_cannot_cover",
                amount=amount,
            )
        return None

    def _bet(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is not Phase.BETTING:
            raise self._wrong_phase(action)
        seat = action.seat
        self._raise(self._bet_refusal(seat))
        amount = self._amount(action, "P-DEAL-2")
        self._raise(self._bet_amount_refusal(seat, amount))
        hand = self._hands[seat][0]
        hand.stake = hand.original_stake = amount
        self._open_stake += amount
        self._decided[seat] = True
        self._move(out, seat, ESCROW, amount, "initial bet (P-DEAL-2)")
        out.events.append(Event(EventKind.BET, seat, 0, amount=amount))
        self._after_bets(out)

    def _sit_out(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is not Phase.BETTING:
            raise self._wrong_phase(action)
        if self._bet_refusal(action.seat) is not None:
            raise RuleError(
                "P-DEAL-2",
                f"{action.seat} has nothing to sit out",
                key="engine.nothing_to_sit_out",
                seat=action.seat,
            )
        self._decided[action.seat] = False
        self._after_bets(out)

    def _after_bets(self, out: Outcome) -> None:
        if len(self._decided) < len(self._players):
            return
        self._active = [seat for seat in self._players if self._decided[seat]]
        if not self._active:
            self._finish_round(out)  # everyone sat out
            return
        if self.rules.banker_doubles and not self.rules.house_bank:
            self.phase = Phase.DOUBLING  # P-VAR-3: the banker looks at the first card
            self._banker_sees = True
            banker_hand, banker = self._banker_hand, self.banker
            assert banker_hand is not None and banker is not None
            out.events.append(
                Event(
                    EventKind.CARD_DEALT,
                    banker,
                    0,
                    banker_hand.codes(),
                    to=banker,
                    detail="banker looks (P-VAR-3)",
                )
            )
            return
        self._after_doubling(out)

    # the banker's double (P-VAR-3) and shoot bets (P-SHOOT-2) -----------------------------

    def _double(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is not Phase.DOUBLING:
            raise self._wrong_phase(action)
        if action.seat != self.banker:
            raise RuleError(
                "P-VAR-3", "only the banker may double", key="engine.only_banker_doubles"
            )
        if action.kind is ActionKind.DOUBLE:
            self._doubled = True
            out.events.append(Event(EventKind.DOUBLED, action.seat, detail="all bets doubled"))
        self._after_doubling(out)

    def _after_doubling(self, out: Outcome) -> None:
        if self.rules.shoot:
            self.phase = Phase.SHOOTING
            self._shooter = 0
            return
        self._deal_second(out)

    def _shooter_refusal(self, seat: str) -> Refusal | None:
        shooter = self._active[self._shooter]
        if seat != shooter:
            return RuleError(
                "P-SHOOT-2",
                f"shoot bets go in seat order; it is {shooter}'s",
                key="engine.shoot_order",
                seat=shooter,
            )
        return None

    def _shoot(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is not Phase.SHOOTING:
            raise self._wrong_phase(action)
        seat = action.seat
        self._raise(self._shooter_refusal(seat))
        amount = self._amount(action, "P-SHOOT-2")
        self._raise(self._shoot_refusal(seat, amount, 0, "P-SHOOT-2"))
        self._place_shoot(out, seat, 0, amount)
        self._shooter += 1
        if self._shooter >= len(self._active):
            self._deal_second(out)

    # the second card (P-DEAL-3, P-DEAL-4) ------------------------------------------------

    def _deal_second(self, out: Outcome) -> None:
        """P-DEAL-3: a second face-down card each; the banker looks at both. A banker's
        pontoon ends the hand (P-DEAL-4). The deal checked that the pack holds enough."""
        dealt = EventKind.CARD_DEALT
        for seat in self._active:
            card = self.pack.deal()
            self._hands[seat][0].add(card, False)
            out.events.append(Event(dealt, seat, 0, (card.code,), to=seat))
        banker_hand, banker = self._banker_hand, self.banker
        assert banker_hand is not None and banker is not None
        banker_hand.add(self.pack.deal(), False)
        self._banker_sees = True
        out.events.append(Event(dealt, banker, 0, banker_hand.codes(), to=banker))
        if self._is_pontoon(banker_hand):
            self._banker_pontoon_collects(out)
            return
        self.phase = Phase.PLAYING
        self._turn_player = self._turn_hand = 0
        for seat in self._active:
            hand = self._hands[seat][0]
            self._set_status(hand)
            if hand.status is HandStatus.TWENTY_ONE:
                out.events.append(Event(EventKind.TWENTY_ONE, seat, 0))
        self._advance(out, first=True)
