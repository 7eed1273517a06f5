"""The players' turns (section 5): declare, stick, twist, buy, split and burn.

Each action has one refusal method, used by ``legal_actions`` and by the action itself.
"""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import RuleError
from engine.pontoon.banker_turn import BankerTurn
from engine.pontoon.hands import PONTOON, ROYAL, Hand, hard_total
from engine.pontoon.state import Refusal
from engine.pontoon.types import ESCROW, Action, ActionKind, Event, EventKind, Outcome, Phase
from engine.pontoon.views import HandStatus


class Play(BankerTurn):
    # whose turn ---------------------------------------------------------------------------

    def _turn_refusal(self, seat: str) -> Refusal | None:
        current = self._active[self._turn_player]
        if seat != current:
            return RuleError(
                "P-TURN-END",
                f"it is {current}'s turn (hand {self._turn_hand + 1})",
                key="engine.turn_of",
                seat=current,
                hand=self._turn_hand + 1,
            )
        return None

    def _hand_to_play(self, action: Action) -> Hand:
        """The hand whose turn it is, refusing anyone else (P-TURN-END) and anything but
        a declaration on a pontoon (P-TURN-DECLARE)."""
        if self.phase is not Phase.PLAYING:
            raise self._wrong_phase(action)
        self._raise(self._turn_refusal(action.seat))
        hand = self._current_hand()
        if action.kind is not ActionKind.DECLARE:
            self._raise(self._pontoon_refusal(hand))
        return hand

    def _advance(self, out: Outcome, first: bool = False) -> None:
        """P-TURN-END: on to the next hand still to play, then to the banker. A TURN event
        goes out when the turn moves (or, with ``first``, for the first turn)."""
        still_open = HandStatus.OPEN
        player, hand_index = self._turn_player, self._turn_hand
        hands = self._hands[self._active[player]]
        if hand_index < len(hands) and hands[hand_index].status is still_open:
            if first:
                self._announce_turn(out)
            return
        for p in range(player, len(self._active)):
            hands = self._hands[self._active[p]]
            for h in range(hand_index + 1 if p == player else 0, len(hands)):
                if hands[h].status is still_open:
                    self._turn_player, self._turn_hand = p, h
                    self._announce_turn(out)
                    return
        self._turn_player, self._turn_hand = len(self._active) - 1, 0
        self._banker_turn(out)

    def _announce_turn(self, out: Outcome) -> None:
        seat = self._active[self._turn_player]
        out.events.append(Event(EventKind.TURN, seat, self._turn_hand))

    def _set_status(self, hand: Hand) -> None:
        """A hand's status after a card (P-BUST-1, P-FIVE-1, P-STICK-1, P-VAR-6). A
        pontoon stays OPEN: it waits for DECLARE."""
        total = hand.total
        if total > 21:
            hand.status = HandStatus.BUST
        elif len(hand.cards) >= 5:
            hand.status = HandStatus.FIVE_CARD_TRICK
        elif total == 21:
            score = self._score(hand, royal=True)
            if score == ROYAL:
                hand.status = HandStatus.ROYAL
            elif score < PONTOON:
                hand.status = HandStatus.TWENTY_ONE

    # refusals -----------------------------------------------------------------------------

    def _pontoon_refusal(self, hand: Hand) -> Refusal | None:
        """P-TURN-DECLARE: a pontoon waits for its declaration."""
        if self._is_pontoon(hand):
            return RuleError(
                "P-TURN-DECLARE",
                "a pontoon must be declared; nothing else is possible",
                key="engine.declare_must",
            )
        return None

    def _declare_refusal(self, hand: Hand) -> Refusal | None:
        if not self._is_pontoon(hand):
            return RuleError(
                "P-TURN-DECLARE",
                "only a pontoon (an ace and a ten-card) is declared",
                key="engine.declare_only_pontoon",
            )
        return None

    def _stick_refusal(self, hand: Hand) -> Refusal | None:
        """P-STICK-1 / P-VAR-2; a stick below the minimum is allowed on an empty pack."""
        total, least = hand.total, self.rules.stick_min
        if total < least and len(self.pack) > 0:
            rule = "P-VAR-2" if self.rules.stick_on_16 else "P-STICK-1"
            return RuleError(
                rule,
                f"a hand needs at least {least} to stick (it has {total})",
                key="engine.stick_min",
                need=least,
                total=total,
            )
        return None

    def _draw_refusal(self, hand: Hand, shoot: int) -> Refusal | None:
        """What stops any card (twist or buy), with ``shoot`` chips of shoot bet alongside."""
        n = len(hand.cards)
        if n >= 5:
            return RuleError(
                "P-FIVE-1", "a five card trick takes no more cards", key="engine.five_no_more"
            )
        if hand.total >= 21:
            return RuleError("P-STICK-1", "a hand on 21 stands", key="engine.on_21")
        if len(self.pack) == 0:
            return RuleError("P-TABLE-1", "the pack has no card left", key="engine.pack_empty")
        if shoot and n != 3:
            return RuleError(
                "P-SHOOT-4",
                "a shoot bet goes with the fourth card only, not before or after",
                key="engine.shoot_fourth",
            )
        return None

    def _buy_refusal(self, hand: Hand) -> Refusal | None:
        """The rules of a buy besides those of any card (``_draw_refusal``)."""
        if hand.twisted:
            return RuleError(
                "P-TWIST-2", "after a twist the hand may only twist", key="engine.twist_only"
            )
        if len(hand.cards) == 4 and self.rules.no_buy_five_on_eleven and hand.hard_total <= 11:
            return RuleError(
                "P-VAR-5",
                "with four cards totalling 11 or less the fifth card may only be twisted",
                key="engine.fifth_twist",
            )
        return None

    def _buy_range(self, seat: str, hand: Hand) -> tuple[int, int, str]:
        """(least, most, rule that sets the most) of a buy; most < least when none fits."""
        least = hand.original_stake
        if hand.last_buy == 0:
            most, rule = 2 * hand.original_stake, "P-BUY-2"
        else:
            most, rule = hand.last_buy, "P-BUY-3"
        cap = self._stake_cap(seat)
        if cap < most:
            most, rule = cap, "P-PAY-LIMIT"
        return least, most, rule

    def _buy_amount_refusal(self, seat: str, hand: Hand, amount: int) -> Refusal | None:
        least, most, rule = self._buy_range(seat, hand)
        if amount < least:
            return RuleError(
                "P-BUY-3" if hand.last_buy else "P-BUY-2",
                f"a buy adds at least the original stake ({least})",
                key="engine.buy_min",
                low=least,
            )
        if amount > most:
            if rule == "P-PAY-LIMIT":
                return RuleError(
                    rule,
                    f"a buy of {amount} could not be covered (at most {most} now)",
                    key="engine.buy_cover",
                    amount=amount,
                    high=most,
                )
            if rule == "P-BUY-2":
                return RuleError(
                    rule,
                    f"the first buy adds at most twice the original stake ({most})",
                    key="engine.buy_first_max",
                    high=most,
                )
            return RuleError(
                rule,
                f"a later buy adds at most the previous buy ({most})",
                key="engine.buy_later_max",
                high=most,
            )
        return None

    def _split_refusal(self, seat: str, hand: Hand) -> Refusal | None:
        if len(hand.cards) != 2 or hand.last_buy or hand.twisted:
            return RuleError(
                "P-SPLIT-1", "only a hand of two cards may be split", key="engine.split_two"
            )
        first, second = hand.cards
        if first.rank is not second.rank:
            return RuleError(
                "P-SPLIT-1", "only two cards of the same rank may be split", key="engine.split_rank"
            )
        if self.rules.split_aces_only and first.value != 1:
            return RuleError(
                "P-VAR-1", "only aces may be split at this table", key="engine.split_aces"
            )
        if len(self._hands[seat]) >= 4:
            return RuleError(
                "P-SPLIT-2", "a player may hold at most four hands", key="engine.split_four"
            )
        if len(self.pack) < 2:
            return RuleError("P-SPLIT-1", "the pack has too few cards left", key="engine.pack_few")
        if self._stake_cap(seat) < hand.original_stake:
            return RuleError(
                "P-PAY-LIMIT", "the new stake could not be covered", key="engine.stake_cover"
            )
        return None

    def _burn_refusal(self, hand: Hand) -> Refusal | None:
        burn = self.rules.burn
        if burn == "off":
            return RuleError(
                "P-VAR-8", "burning is not played at this table", key="engine.burn_off"
            )
        if len(hand.cards) != 2 or hand.has_ace:
            return RuleError(
                "P-VAR-8",
                "only two cards making a hard total may be burned",
                key="engine.burn_hard",
            )
        if hard_total(hand.cards) != int(burn):
            return RuleError(
                "P-VAR-8",
                f"only a hard {burn} may be burned",
                key="engine.burn_total",
                total=int(burn),
            )
        if len(self.pack) < 2:
            return RuleError("P-VAR-8", "the pack has too few cards left", key="engine.pack_few")
        return None

    # the actions ------------------------------------------------------------------------

    def _declare(self, action: Action, chance: Chance, out: Outcome) -> None:
        hand = self._hand_to_play(action)
        self._raise(self._declare_refusal(hand))
        hand.status = HandStatus.PONTOON
        hand.shown = True
        self._pontoon_seen = True
        out.events.append(
            Event(EventKind.DECLARED, action.seat, self._turn_hand, hand.codes(), total=21)
        )
        self._advance(out)

    def _stick(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is Phase.BANKER:
            self._banker_stick(action, chance, out)
            return
        hand = self._hand_to_play(action)
        self._raise(self._stick_refusal(hand))
        hand.status = HandStatus.STUCK
        out.events.append(Event(EventKind.STUCK, action.seat, self._turn_hand))
        self._advance(out)

    def _twist(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase is Phase.BANKER:
            self._banker_twist(action, chance, out)
            return
        hand = self._hand_to_play(action)
        seat, shoot = action.seat, action.shoot or 0
        self._raise(self._draw_refusal(hand, shoot))
        self._raise(self._shoot_refusal(seat, shoot, 0, "P-SHOOT-4"))
        self._place_shoot(out, seat, self._turn_hand, shoot)
        card = self.pack.deal()
        hand.add(card, True)  # P-TWIST-1: face up
        hand.twisted = True
        out.events.append(Event(EventKind.TWISTED, seat, self._turn_hand, (card.code,)))
        self._after_card(out, seat, hand)

    def _buy(self, action: Action, chance: Chance, out: Outcome) -> None:
        hand = self._hand_to_play(action)
        seat, shoot = action.seat, action.shoot or 0
        self._raise(self._draw_refusal(hand, shoot))
        self._raise(self._buy_refusal(hand))
        amount = self._amount(action, "P-BUY-1")
        self._raise(self._buy_amount_refusal(seat, hand, amount))
        self._raise(self._shoot_refusal(seat, shoot, amount, "P-SHOOT-4"))
        hand.stake += amount
        hand.last_buy = amount
        self._open_stake += amount
        self._move(out, seat, ESCROW, amount, "buy (P-BUY-1)")
        self._place_shoot(out, seat, self._turn_hand, shoot)
        card = self.pack.deal()
        hand.add(card, False)  # P-BUY-1: face down
        out.events.append(
            Event(EventKind.BOUGHT, seat, self._turn_hand, amount=amount, total=hand.stake)
        )
        out.events.append(Event(EventKind.CARD_DEALT, seat, self._turn_hand, (card.code,), to=seat))
        self._after_card(out, seat, hand)

    def _after_card(self, out: Outcome, seat: str, hand: Hand) -> None:
        """A hand that busts, makes five cards or reaches 21 ends its turn (P-TURN-END)."""
        self._set_status(hand)
        i = self._turn_hand
        if hand.status is HandStatus.OPEN:
            return
        if hand.status is HandStatus.BUST:
            self._lose_bust_hand(out, seat, i, hand)
        elif hand.status is HandStatus.FIVE_CARD_TRICK:
            out.events.append(Event(EventKind.FIVE_CARD_TRICK, seat, i))
        else:  # 21, or three sevens: a plain "21" in public until settlement (P-VAR-6)
            out.events.append(Event(EventKind.TWENTY_ONE, seat, i))
        self._advance(out)

    def _split(self, action: Action, chance: Chance, out: Outcome) -> None:
        hand = self._hand_to_play(action)
        seat, shoot = action.seat, action.shoot or 0
        self._raise(self._split_refusal(seat, hand))
        self._raise(self._shoot_refusal(seat, shoot, hand.original_stake, "P-SHOOT-5"))
        i = self._turn_hand
        first, second = hand.cards
        stake = hand.original_stake
        new_hand = Hand([second], stake, face_up=True)
        new_hand.from_split = True
        hand.replace_cards([first], True)
        hand.from_split = True
        hand.stake = stake
        self._hands[seat].insert(i + 1, new_hand)
        self._open_stake += stake
        self._move(out, seat, ESCROW, stake, "split stake (P-SPLIT-1)")
        out.events.append(Event(EventKind.SPLIT, seat, i, (first.code, second.code), amount=stake))
        self._place_shoot(out, seat, i + 1, shoot)  # P-SHOOT-5
        for j, each in ((i, hand), (i + 1, new_hand)):
            self._deal_face_down(out, seat, j, each, 1)
        self._advance(out)

    def _burn(self, action: Action, chance: Chance, out: Outcome) -> None:
        hand = self._hand_to_play(action)
        self._raise(self._burn_refusal(hand))
        seat, i = action.seat, self._turn_hand
        out.events.append(Event(EventKind.BURNED, seat, i, hand.codes()))
        self.pack.add_to_bottom(hand.cards)
        hand.replace_cards([], False)
        self._deal_face_down(out, seat, i, hand, 2)
        self._advance(out)

    def _deal_face_down(self, out: Outcome, seat: str, i: int, hand: Hand, n: int) -> None:
        """``n`` face-down cards to a hand after a split or burn; 21 stands at once."""
        cards = [self.pack.deal() for _ in range(n)]
        for card in cards:
            hand.add(card, False)
        out.events.append(
            Event(EventKind.CARD_DEALT, seat, i, tuple([c.code for c in cards]), to=seat)
        )
        self._set_status(hand)
        if hand.status is HandStatus.TWENTY_ONE:
            out.events.append(Event(EventKind.TWENTY_ONE, seat, i))
