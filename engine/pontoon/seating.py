"""Between rounds: seats join and leave, the cut for the first bank (P-BANK-1), the deal,
selling (P-SELL-1) and passing (P-NEXT-2) the bank, and closing a table."""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import ConfigError, RuleError
from engine.pontoon.betting import Betting
from engine.pontoon.state import Refusal, check_seat_name
from engine.pontoon.types import (
    ESCROW,
    KITTY,
    Action,
    Event,
    EventKind,
    Outcome,
    Phase,
    Transfer,
)
from engine.pontoon.views import HandStatus

BETWEEN_ROUNDS = (Phase.WAITING, Phase.ROUND_OVER)


class Seating(Betting):
    # joining and leaving --------------------------------------------------------------------

    def _join_refusal(self, seat: str) -> Refusal | None:
        if seat in self.balances:
            return RuleError(
                "P-TABLE-1", f"{seat} is already seated", key="engine.already_seated", seat=seat
            )
        try:
            check_seat_name(seat)
        except ConfigError as exc:
            # a seat id the bot never makes: members get the generic line
            return RuleError("P-TABLE-1", str(exc), key="err.rule.generic")
        if len(self.seats) >= self.seat_limit:
            return RuleError(
                "P-TABLE-1",
                f"the table is full: a deal gives everyone two cards, so at most "
                f"{self.seat_limit} may sit at this table",
                key="engine.table_full",
                limit=self.seat_limit,
            )
        return None

    def _join(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase not in BETWEEN_ROUNDS:
            raise self._wrong_phase(action)
        self._raise(self._join_refusal(action.seat))
        chips = 0 if action.amount is None else self._amount(action, "P-TABLE-1")
        if chips < 0:
            raise RuleError(
                "P-TABLE-1",
                "a seat cannot bring a negative balance",
                key="engine.negative_balance",
            )
        self.seats.append(action.seat)
        self.balances[action.seat] = chips
        out.events.append(Event(EventKind.SEATED, action.seat, amount=chips))

    def _leave_refusal(self, seat: str) -> Refusal | None:
        if seat == self.banker and len(self.seats) > 1:
            return RuleError(
                "P-SELL-1",
                "the banker cannot leave while banking; sell the bank first",
                key="engine.banker_cannot_leave",
            )
        if self._next_banker == seat:
            return RuleError(
                "P-NEXT-2",
                "the bank passes to this seat at the next deal",
                key="engine.bank_passes_here",
            )
        return None

    def _leave(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase not in BETWEEN_ROUNDS:
            raise self._wrong_phase(action)
        self._need_seated(action.seat)
        self._raise(self._leave_refusal(action.seat))
        self.seats.remove(action.seat)
        del self.balances[action.seat]
        if action.seat == self.banker:
            self.banker = None
        out.events.append(Event(EventKind.LEFT, action.seat))

    # the first bank (P-BANK-1) ----------------------------------------------------------

    def _cut_refusal(self, seat: str) -> Refusal | None:
        if self.phase is not Phase.WAITING or self.banker is not None or self.rules.house_bank:
            return RuleError(
                "P-BANK-1",
                "cutting for the bank happens once, before the first deal",
                key="engine.cut_once",
            )
        if seat not in self.balances:
            return RuleError(
                "P-TABLE-1",
                f"{seat} is not seated at this table",
                key="engine.not_seated",
                seat=seat,
            )
        if len(self.seats) < 2:
            return RuleError(
                "P-TABLE-1", "two or more people are needed to play", key="engine.two_needed"
            )
        return None

    def _cut(self, action: Action, chance: Chance, out: Outcome) -> None:
        """Everyone cuts a card; the highest (ace high) takes the bank; ties cut again."""
        self._raise(self._cut_refusal(action.seat))
        cutting = list(self.seats)
        cards = self.pack.peek()
        while True:
            best = -1
            highest: list[str] = []
            for seat in cutting:
                if not cards:
                    cards = self.pack.peek()
                card = cards.pop(chance.randbelow(len(cards)))
                out.events.append(Event(EventKind.CUT_CARD, seat, cards=(card.code,)))
                if card.cut_rank > best:
                    best, highest = card.cut_rank, [seat]
                elif card.cut_rank == best:
                    highest.append(seat)
            if len(highest) == 1:
                break
            cutting = highest
        self.banker = highest[0]
        out.events.append(Event(EventKind.BANKER_CHOSEN, highest[0], detail="highest cut"))

    # dealing --------------------------------------------------------------------------

    def _deal_refusals(self, seat: str) -> Refusal | None:
        """Why ``seat`` may not start a deal now (the phase aside)."""
        if self.banker is None:
            return RuleError("P-BANK-1", "cut for the bank first", key="engine.cut_first")
        if not self.rules.house_bank and seat != self.banker:
            return RuleError("P-DEAL-1", "the banker deals", key="engine.banker_deals")
        if not self._players_for_round():
            return RuleError(
                "P-TABLE-1", "two or more people are needed to play", key="engine.two_needed"
            )
        return self._deal_refusal()

    def _deal(self, action: Action, chance: Chance, out: Outcome) -> None:
        """Start a round: Shoot mode asks for the kitty first (P-SHOOT-1/8)."""
        if self.phase is not Phase.WAITING:
            raise self._wrong_phase(action)
        self._need_seated(action.seat)
        self._raise(self._deal_refusals(action.seat))
        new_order = None if self.rules.shoot else self._new_pack_order(chance)
        self._results = []  # the round state was reset on the way to WAITING
        if self.rules.shoot:
            self.phase = Phase.KITTY
            return
        self._deal_first(out, new_order)

    # the bank ------------------------------------------------------------------------------

    def _sell_refusal(self, seat: str) -> Refusal | None:
        if seat != self.banker:
            return RuleError(
                "P-SELL-1", "only the banker can sell the bank", key="engine.only_banker_sells"
            )
        if self.phase is Phase.ROUND_OVER and self._next_banker is not None:
            return RuleError(
                "P-NEXT-2",
                f"the bank already passes to {self._next_banker}",
                key="engine.bank_already_passes",
                seat=self._next_banker,
            )
        return None

    def _sell_bank(self, action: Action, chance: Chance, out: Outcome) -> None:
        if self.phase not in (*BETWEEN_ROUNDS, Phase.KITTY) or self.rules.house_bank:
            raise self._wrong_phase(action)
        seller, buyer = action.seat, action.target
        self._raise(self._sell_refusal(seller))
        price = self._amount(action, "P-SELL-1")
        if buyer is None or buyer not in self.balances or buyer == seller:
            raise RuleError(
                "P-SELL-1",
                "the bank must be sold to another seated player",
                key="engine.sell_to_seated",
            )
        if price < 0:
            raise RuleError("P-SELL-1", "the price cannot be negative", key="engine.price_negative")
        if self.balances[buyer] < price:
            raise RuleError(
                "P-SELL-1",
                f"{buyer} cannot pay {price}",
                key="engine.cannot_pay",
                seat=buyer,
                price=price,
            )
        self._move(out, buyer, seller, price, "bank sold (P-SELL-1)")
        self._return_kitty(out, seller)
        self.banker = buyer
        out.events.append(Event(EventKind.BANK_SOLD, buyer, amount=price, detail=f"from {seller}"))

    def _return_kitty(self, out: Outcome, old_banker: str) -> None:
        """P-SHOOT-9: the old banker takes back what is left in the kitty."""
        if self.kitty:
            out.events.append(
                Event(EventKind.KITTY, old_banker, amount=self.kitty, detail="returned")
            )
            self._move(out, KITTY, old_banker, self.kitty, "kitty returned (P-SHOOT-9)")

    def _next_round(self, action: Action, chance: Chance, out: Outcome) -> None:
        """From ROUND_OVER to WAITING, passing the bank a pontoon earned (P-NEXT-2)."""
        if self.phase is not Phase.ROUND_OVER:
            raise self._wrong_phase(action)
        self._need_seated(action.seat)
        new_banker = self._next_banker
        if new_banker is not None and new_banker != self.banker and new_banker in self.balances:
            old_banker = self.banker
            assert old_banker is not None
            self._return_kitty(out, old_banker)
            self.banker = new_banker
            out.events.append(
                Event(EventKind.BANK_PASSES, new_banker, detail=f"pontoon; from {old_banker}")
            )
        self._next_banker = None
        self.phase = Phase.WAITING
        self._reset_round()

    # closing and syncing --------------------------------------------------------------------

    def abandon(self) -> list[Transfer]:
        """Close the table mid-anything: every chip in escrow goes back to the seat that
        put it there and the kitty to the banker. The table is left WAITING. Returns the
        refund transfers (already applied to the table's own accounts)."""
        out = Outcome()
        if self.phase is not Phase.ROUND_OVER:
            for seat, hands in self._hands.items():
                for hand in hands:
                    if hand.status is HandStatus.BUST:
                        continue
                    if seat in self.balances:
                        self._move(
                            out, ESCROW, seat, hand.stake + hand.shoot, "refund: table closed"
                        )
                    hand.stake = hand.shoot = 0
        banker = self.banker
        if banker is not None and (banker in self.balances or self.rules.house_bank):
            self._move(out, KITTY, banker, self.kitty, "kitty returned: table closed")
        if self.phase not in BETWEEN_ROUNDS:
            self.pack.add_to_bottom(self._cards_in_play())
            self.needs_shuffle = True
        self._reset_round()
        self._next_banker = None
        self.phase = Phase.WAITING
        self.version += 1
        return out.transfers

    def set_balance(self, seat: str, chips: int) -> None:
        """Sync a seat's chips from the ledger (between rounds only)."""
        if self.phase not in BETWEEN_ROUNDS:
            raise RuleError(
                "P-PAY-LIMIT",
                "balances can only be synced between rounds",
                key="engine.sync_between",
            )
        if seat not in self.balances:
            raise RuleError(
                "P-TABLE-1", f"{seat} is not seated", key="engine.seat_not_seated", seat=seat
            )
        if chips < 0:
            raise RuleError(
                "P-PAY-LIMIT", "a balance cannot be negative", key="engine.balance_negative"
            )
        self.balances[seat] = chips
