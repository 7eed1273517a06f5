"""1. Sitting down: seats join and leave between rounds, and the cut for the first bank
(P-BANK-1). Plain functions over the table's state (``engine.pontoon.state``)."""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import ConfigError, RuleError, Word
from engine.pontoon.state import Refusal, TableState, check_seat_name
from engine.pontoon.types import HOUSE, KITTY, Action, Event, EventKind, Outcome, Phase
from engine.records import is_computer_seat

BETWEEN_ROUNDS = (Phase.WAITING, Phase.ROUND_OVER)


# joining and leaving ------------------------------------------------------------------


def join_refusal(t: TableState, seat: str) -> Refusal | None:
    """Why ``seat`` may not sit down (the phase aside): the seat limit is checked here
    only, under whatever lock the caller holds while it applies the JOIN."""
    if seat in t.balances:
        return RuleError(
            "P-TABLE-1", f"{seat} is already seated", key="engine.already_seated", seat=seat
        )
    try:
        check_seat_name(seat)
    except ConfigError as exc:
        # a seat id the bot never makes: members get the generic line
        return RuleError("P-TABLE-1", str(exc), key="err.rule.generic")
    limit = t.seat_limit
    if len(t.seats) >= limit:
        if limit < t.cards_seat_limit:  # the table's own max_seats
            return RuleError(
                "P-TABLE-1",
                f"the table is full: at most {limit} may sit at this table",
                key="engine.table_full_at",
                limit=limit,
            )
        return RuleError(
            "P-TABLE-1",
            f"the table is full: a deal gives everyone two cards, so at most "
            f"{limit} may sit at this table",
            key="engine.table_full",
            limit=limit,
        )
    return None


def check_join(t: TableState, action: Action) -> Refusal | None:
    if t.phase not in BETWEEN_ROUNDS:
        return t.wrong_phase(action)
    refusal = join_refusal(t, action.seat)
    if refusal is None and action.amount is not None:
        refusal = t.amount_refusal(action, "P-TABLE-1")
        if refusal is None and action.amount < 0:
            refusal = RuleError(
                "P-TABLE-1",
                "a seat cannot bring a negative balance",
                key="engine.negative_balance",
            )
    return refusal


def join(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    chips = action.amount or 0
    t.seats.append(action.seat)
    if is_computer_seat(action.seat):  # a computer player plays with the house's chips
        t.balances[action.seat] = 0
        t.move_chips(out, HOUSE, action.seat, chips, "computer player's chips from the house")
    else:
        t.balances[action.seat] = chips
    out.events.append(Event(EventKind.SEATED, action.seat, amount=chips))


def leave_refusal(t: TableState, seat: str) -> Refusal | None:
    if seat == t.banker and len(t.seats) > 1:
        return RuleError(
            "P-SELL-1",
            "the banker cannot leave while banking; sell the bank first",
            key="engine.banker_cannot_leave",
        )
    if t.bank_passes_to == seat:
        return RuleError(
            "P-NEXT-2",
            "the bank passes to this seat at the next deal",
            key="engine.bank_passes_here",
        )
    return None


def check_leave(t: TableState, action: Action) -> Refusal | None:
    if t.phase not in BETWEEN_ROUNDS:
        return t.wrong_phase(action)
    return t.seated_refusal(action.seat) or leave_refusal(t, action.seat)


def leave(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    if action.seat == t.banker:  # the last seat (P-SELL-1): the kitty goes with them
        return_kitty(t, out, action.seat)
    if is_computer_seat(action.seat):  # the house's chips go back to the house
        t.move_chips(
            out, action.seat, HOUSE, t.balances[action.seat], "computer player's chips to the house"
        )
    t.seats.remove(action.seat)
    del t.balances[action.seat]
    if t.auction is not None:
        t.auction.pop(action.seat, None)
    if action.seat == t.banker:
        t.banker = None
        t.auction = None
    out.events.append(Event(EventKind.LEFT, action.seat))


# the first bank (P-BANK-1) ------------------------------------------------------------


def cut_refusal(t: TableState, seat: str) -> Refusal | None:
    if t.phase is not Phase.WAITING or t.banker is not None or t.rules.house_bank:
        return RuleError(
            "P-BANK-1",
            "cutting for the bank happens once, before the first deal",
            key="engine.cut_once",
        )
    if seat not in t.balances:
        return RuleError(
            "P-TABLE-1",
            f"{seat} is not seated at this table",
            key="engine.not_seated",
            seat=seat,
        )
    if len(t.seats) < 2:
        return RuleError(
            "P-TABLE-1", "two or more people are needed to play", key="engine.two_needed"
        )
    if is_computer_seat(seat):
        return computer_bank_refusal()
    return None


def computer_bank_refusal() -> Refusal:
    """Computer players never take the bank: the cut, a pontoon's passing (P-NEXT-2), a
    sale and an auction pass over them."""
    return RuleError(
        "P-BANK-1", "computer players never take the bank", key="engine.computer_no_bank"
    )


def check_cut(t: TableState, action: Action) -> Refusal | None:
    return cut_refusal(t, action.seat)


def cut(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    """Everyone cuts a card; the highest (ace high) takes the bank; ties cut again.
    Computer players do not cut: they never take the bank."""
    cutting = [s for s in t.seats if not is_computer_seat(s)]
    cards = t.pack.peek()
    while True:
        best = -1
        highest: list[str] = []
        for seat in cutting:
            if not cards:
                cards = t.pack.peek()
            card = cards.pop(chance.randbelow(len(cards)))
            out.events.append(Event(EventKind.CUT_CARD, seat, cards=(card.code,)))
            if card.cut_rank > best:
                best, highest = card.cut_rank, [seat]
            elif card.cut_rank == best:
                highest.append(seat)
        if len(highest) == 1:
            break
        cutting = highest
    t.banker = highest[0]
    out.events.append(Event(EventKind.BANKER_CHOSEN, highest[0], detail="highest cut"))


def return_kitty(t: TableState, out: Outcome, old_banker: str) -> None:
    """P-SHOOT-9: the old banker takes back what is left in the kitty."""
    if t.kitty:
        out.events.append(
            Event(
                EventKind.KITTY,
                old_banker,
                amount=t.kitty,
                detail="returned",
                says=Word("engine.kitty.returned"),
            )
        )
        t.move_chips(out, KITTY, old_banker, t.kitty, "kitty returned (P-SHOOT-9)")
