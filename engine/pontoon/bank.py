"""6. Between rounds: the next round and the bank passed (P-NEXT-1/2), sold (P-SELL-1)
or auctioned (P-SHOOT-8); closing a table and syncing its balances. Each action has a
``check_*`` (every refusal, nothing changed) and a function that makes the change."""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import RuleError, Word
from engine.pontoon.seating import BETWEEN_ROUNDS, computer_bank_refusal, return_kitty
from engine.pontoon.state import Refusal, TableState
from engine.pontoon.types import (
    ESCROW,
    KITTY,
    Action,
    ActionKind,
    Event,
    EventKind,
    Outcome,
    Phase,
    Transfer,
)
from engine.pontoon.views import HandStatus
from engine.records import is_computer_seat

SALE_PHASES = (*BETWEEN_ROUNDS, Phase.KITTY)


# selling the bank (P-SELL-1) -----------------------------------------------------------


def sell_refusal(t: TableState, seat: str) -> Refusal | None:
    if seat != t.banker:
        return RuleError(
            "P-SELL-1", "only the banker can sell the bank", key="engine.only_banker_sells"
        )
    if t.phase is Phase.ROUND_OVER and t.bank_passes_to is not None:
        return RuleError(
            "P-NEXT-2",
            f"the bank already passes to {t.bank_passes_to}",
            key="engine.bank_already_passes",
            seat=t.bank_passes_to,
        )
    return None


def check_sell_bank(t: TableState, action: Action) -> Refusal | None:
    """P-SELL-1: the banker sells between hands (or instead of a new kitty, P-SHOOT-8) to
    another seated player who can pay the price."""
    if t.rules.house_bank:
        return t.wrong_phase(action)
    if t.phase not in SALE_PHASES:
        return RuleError(
            "P-SELL-1",
            "the bank can be sold only between rounds",
            key="engine.sell_between_rounds",
        )
    seller, buyer = action.seat, action.target
    refusal = sell_refusal(t, seller) or t.amount_refusal(action, "P-SELL-1")
    if refusal is not None:
        return refusal
    price = action.amount or 0
    if buyer is None or buyer not in t.balances or buyer == seller:
        return RuleError(
            "P-SELL-1",
            "the bank must be sold to another seated player",
            key="engine.sell_to_seated",
        )
    if is_computer_seat(buyer):
        return computer_bank_refusal()
    if price < 0:
        return RuleError("P-SELL-1", "the price cannot be negative", key="engine.price_negative")
    if t.balances[buyer] < price:
        return RuleError(
            "P-SELL-1",
            f"{buyer} cannot pay {price}",
            key="engine.cannot_pay",
            seat=buyer,
            price=price,
        )
    return None


def sell_bank(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    seller, price = action.seat, action.amount or 0
    buyer = action.target
    assert buyer is not None
    t.move_chips(out, buyer, seller, price, "bank sold (P-SELL-1)")
    return_kitty(t, out, seller)
    t.banker = buyer
    t.auction = None
    out.events.append(Event(EventKind.BANK_SOLD, buyer, amount=price, detail=f"from {seller}"))


# the auction of the bank (P-SHOOT-8) ----------------------------------------------------


def auction_refusal(t: TableState, seat: str) -> Refusal | None:
    """P-SHOOT-8: with an empty kitty, between hands, the banker may offer the bank to the
    highest bidder instead of putting up a new kitty."""
    if not t.rules.shoot:
        return RuleError(
            "P-SHOOT-8",
            "Auctions of the bank belong to Shoot Pontoon.",
            key="engine.svc.auction_shoot",
        )
    if seat != t.banker:
        return RuleError(
            "P-SHOOT-8", "Only the banker can auction the bank.", key="engine.svc.auction_banker"
        )
    if t.phase not in (Phase.WAITING, Phase.KITTY) or t.kitty != 0:
        return RuleError(
            "P-SHOOT-8",
            "The bank goes to auction only when the kitty is empty, between hands.",
            key="engine.svc.auction_when",
        )
    if t.auction is not None:
        return RuleError(
            "P-SHOOT-8",
            "An auction of the bank is already running.",
            key="err.svc.auction_running",
        )
    if len(t.seats) < 2:
        return RuleError("P-SELL-1", "Nobody else is seated to bid.", key="engine.svc.nobody_bids")
    return None


def check_auction(t: TableState, action: Action) -> Refusal | None:
    return auction_refusal(t, action.seat)


def open_auction(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    t.auction = {}
    out.events.append(Event(EventKind.AUCTION, action.seat))


def no_auction(t: TableState) -> Refusal | None:
    if t.auction is None:
        return RuleError(
            "P-SHOOT-8",
            "There is no auction of the bank at this table.",
            key="err.svc.no_auction",
        )
    return None


def best_bid(t: TableState) -> int:
    """The highest bid so far (0 before the first)."""
    return max((t.auction or {}).values(), default=0)


def bid_refusal(t: TableState, seat: str, amount: int) -> Refusal | None:
    """A bid beats the highest so far and is within the bidder's chips (P-SHOOT-8)."""
    if seat == t.banker:
        return RuleError(
            "P-SHOOT-8",
            "The banker cannot bid for their own bank.",
            key="engine.svc.own_bank",
        )
    if is_computer_seat(seat):
        return computer_bank_refusal()
    best = best_bid(t)
    if amount <= best:
        return RuleError(
            "P-SHOOT-8",
            f"A bid must beat the highest bid so far ({best}).",
            key="engine.svc.bid_beat",
            best=best,
        )
    have = t.balances[seat]
    if amount > have:
        return RuleError(
            "P-SELL-1",
            f"You have only {have} chips to bid with.",
            key="engine.svc.bid_chips",
            chips=have,
        )
    return None


def check_bid(t: TableState, action: Action) -> Refusal | None:
    return (
        no_auction(t)
        or t.seated_refusal(action.seat)
        or t.amount_refusal(action, "P-SHOOT-8")
        or bid_refusal(t, action.seat, action.amount or 0)
    )


def bid(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    assert t.auction is not None and action.amount is not None
    t.auction[action.seat] = action.amount
    out.events.append(Event(EventKind.BID, action.seat, amount=action.amount))


def check_end_auction(t: TableState, action: Action) -> Refusal | None:
    if no_auction(t) is not None:
        return no_auction(t)
    if action.seat != t.banker:
        return RuleError(
            "P-SHOOT-8", "Only the banker can auction the bank.", key="engine.svc.auction_banker"
        )
    return None


def end_auction(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    """The auction ends: the bank is sold to the highest bid its bidder can still pay
    (a sale by the rules of P-SELL-1), or stays where it is."""
    assert t.auction is not None
    ranked = sorted(t.auction.items(), key=lambda kv: -kv[1])
    t.auction = None
    out.events.append(Event(EventKind.AUCTION_OVER, action.seat))
    for bidder, amount in ranked:
        sale = Action(action.seat, ActionKind.SELL_BANK, amount, target=bidder)
        if check_sell_bank(t, sale) is None:
            sell_bank(t, sale, chance, out)
            return


# the next round (P-NEXT-1/2) ------------------------------------------------------------


def check_next_round(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.ROUND_OVER:
        return t.wrong_phase(action)
    return t.seated_refusal(action.seat)


def round_follow_up(t: TableState) -> Action | None:
    """P-NEXT-3: once a round is settled the table moves on by itself to wait for the
    next deal, so the bank passes at once (P-NEXT-2) and seats may join, leave or sell the
    bank (P-SELL-1) before anyone deals. The NEXT_ROUND that does it, made in the banker's
    name (the first seat's when the banker has no seat); None when no settled round
    waits."""
    if t.phase is not Phase.ROUND_OVER or not t.seats:
        return None
    return Action(t.banker if t.banker in t.seats else t.seats[0], ActionKind.NEXT_ROUND)


def offer_refusal(t: TableState, seller: str) -> Refusal | None:
    """P-SELL-2: an offer of the bank (P-SELL-1) stands only while its seller still banks;
    once the bank has changed hands (passed by P-NEXT-2, sold, or auctioned by P-SHOOT-8)
    the offer has lapsed."""
    if t.banker != seller:
        return RuleError(
            "P-SELL-2",
            "That offer has lapsed: the bank has changed hands.",
            key="err.svc.offer_lapsed",
        )
    return None


def next_round(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    """From ROUND_OVER to WAITING, passing the bank a pontoon earned (P-NEXT-2)."""
    new_banker = t.bank_passes_to
    if new_banker is not None and new_banker != t.banker and new_banker in t.balances:
        old_banker = t.banker
        assert old_banker is not None
        return_kitty(t, out, old_banker)
        t.banker = new_banker
        t.auction = None
        out.events.append(
            Event(
                EventKind.BANK_PASSES,
                new_banker,
                detail=f"pontoon; from {old_banker}",
                says=Word.of("engine.bank_passes.from", old=old_banker),
            )
        )
    t.bank_passes_to = None
    t.phase = Phase.WAITING
    t.reset_round()


# closing and syncing -------------------------------------------------------------------


def abandon(t: TableState) -> list[Transfer]:
    """Close the table mid-anything: every chip in escrow goes back to the seat that
    put it there and the kitty to the banker. The table is left WAITING. Returns the
    refund transfers (already applied to the table's own accounts)."""
    out = Outcome()
    if t.phase is not Phase.ROUND_OVER:
        for seat, hands in t.hands.items():
            for hand in hands:
                if hand.status is HandStatus.BUST:
                    continue
                if seat in t.balances:
                    t.move_chips(out, ESCROW, seat, hand.stake + hand.shoot, "refund: table closed")
                hand.stake = hand.shoot = 0
    banker = t.banker
    if banker is not None and (banker in t.balances or t.rules.house_bank):
        t.move_chips(out, KITTY, banker, t.kitty, "kitty returned: table closed")
    if t.phase not in BETWEEN_ROUNDS:
        t.pack.add_to_bottom(t.cards_in_play())
        t.needs_shuffle = True
    t.reset_round()
    t.bank_passes_to = None
    t.auction = None
    t.phase = Phase.WAITING
    t.version += 1
    return out.transfers


def set_balance(t: TableState, seat: str, chips: int) -> None:
    """Sync a seat's chips from the ledger (between rounds only)."""
    if t.phase not in BETWEEN_ROUNDS:
        raise RuleError(
            "P-PAY-LIMIT",
            "balances can only be synced between rounds",
            key="engine.sync_between",
        )
    if seat not in t.balances:
        raise RuleError(
            "P-TABLE-1", f"{seat} is not seated", key="engine.seat_not_seated", seat=seat
        )
    if chips < 0:
        raise RuleError(
            "P-PAY-LIMIT", "a balance cannot be negative", key="engine.balance_negative"
        )
    t.balances[seat] = chips
