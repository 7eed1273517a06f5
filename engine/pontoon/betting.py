"""2. The deal and the bets before play (section 4, P-VAR-3, P-SHOOT-1/2/8): who deals,
the kitty, the first card, initial bets, the banker's double, shoot bets and the second
card. Each action has a ``check_*`` (every refusal, nothing changed) and a function that
makes the change; ``Table.apply`` runs the one, then the other."""

from __future__ import annotations

from engine.cards import Card, Chance, Pack, full_pack
from engine.errors import RuleError, Word
from engine.pontoon import play, seating, settlement
from engine.pontoon.hands import Hand
from engine.pontoon.state import CARDS_IN_A_PACK, Refusal, TableState
from engine.pontoon.types import (
    ESCROW,
    KITTY,
    Action,
    ActionKind,
    Event,
    EventKind,
    Outcome,
    Phase,
    record,
)
from engine.pontoon.views import HandStatus

# the deal (P-DEAL-1) -------------------------------------------------------------------


def dealer_refusal(t: TableState, seat: str) -> Refusal | None:
    """Who may start a deal (the phase aside): the banker; anyone seated at a house bank;
    before the first bank, the first seat (the table's opener), whose deal begins with
    the cut for the bank (P-BANK-1). And the pack(s) must hold two cards a hand."""
    if t.banker is None:
        if not t.seats or seat != t.seats[0]:
            return RuleError(
                "P-DEAL-1",
                "Only the banker deals (the table's opener deals first).",
                key="engine.svc.who_deals",
            )
        return seating.cut_refusal(t, seat) or t.deal_refusal()
    if not t.rules.house_bank and seat != t.banker:
        return RuleError("P-DEAL-1", "the banker deals", key="engine.banker_deals")
    if not t.players_for_round():
        return RuleError(
            "P-TABLE-1", "two or more people are needed to play", key="engine.two_needed"
        )
    return t.deal_refusal()


def check_deal(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.WAITING:
        return t.wrong_phase(action)
    return t.seated_refusal(action.seat) or dealer_refusal(t, action.seat)


def deal(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    """Start a round (after the cut for the first bank): Shoot mode asks for the kitty
    first (P-SHOOT-1/8)."""
    if t.banker is None:
        seating.cut(t, action, chance, out)
    new_order = None if t.rules.shoot else new_pack_order(t, chance)
    t.result_rows = []  # the round state was reset on the way to WAITING
    if t.rules.shoot:
        t.phase = Phase.KITTY
        return
    deal_first(t, out, new_order)


def new_pack_order(t: TableState, chance: Chance) -> list[Card] | None:
    """The pack order for the next deal when it must be shuffled (P-NEXT-1), else None;
    a table whose number of packs changed takes new packs (P-TABLE-1). Changes
    nothing, so a deal can ask for it before it changes the table."""
    packs = t.packs_for(len(t.seats))
    if len(t.pack) != CARDS_IN_A_PACK * packs:
        return chance.shuffle(full_pack(packs))
    if t.needs_shuffle:
        return chance.shuffle(t.pack.peek())
    return None


def deal_first(t: TableState, out: Outcome, new_order: list[Card] | None) -> None:
    """P-DEAL-1: (shuffle,) one face-down card each, ending with the banker, who may
    not look at it. The caller checked ``TableState.deal_refusal``."""
    if new_order is not None:
        t.pack = Pack(new_order)
        t.needs_shuffle = False
        out.events.append(Event(EventKind.SHUFFLED, detail="shuffled and cut"))
    t.round_no += 1
    t.phase = Phase.BETTING
    t.players = t.players_for_round()
    dealt = EventKind.CARD_DEALT
    for seat in t.players:
        card = t.pack.deal()
        t.hands[seat] = [Hand([card])]
        out.events.append(record(Event, (dealt, seat, 0, (card.code,), None, None, seat, "", None)))
    t.banker_hand = Hand([t.pack.deal()])
    banker = t.banker
    assert banker is not None
    out.events.append(Event(EventKind.CARD_DEALT, banker, 0, to=banker, detail="banker, face down"))


def kitty_range(t: TableState) -> tuple[int, int]:
    """P-SHOOT-1: a new kitty of kitty_min..kitty_max; P-SHOOT-8: add 0 or more, the
    total at most kitty_max; always within the banker's chips."""
    assert t.banker is not None
    chips = t.balances[t.banker]
    if t.kitty == 0:
        return t.rules.kitty_min, min(t.rules.kitty_max, chips)
    return 0, max(0, min(t.rules.kitty_max - t.kitty, chips))


def kitty_refusal(t: TableState, amount: int) -> Refusal | None:
    """Why the banker may not put ``amount`` into the kitty and deal."""
    least, most = kitty_range(t)
    if least <= amount <= most:
        return t.deal_refusal()
    if t.kitty == 0:
        return RuleError(
            "P-SHOOT-8" if t.round_no else "P-SHOOT-1",
            f"the kitty must be between {t.rules.kitty_min} and "
            f"{t.rules.kitty_max} and within the banker's chips",
            key="engine.kitty_range",
            low=t.rules.kitty_min,
            high=t.rules.kitty_max,
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


def check_kitty(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.KITTY:
        return t.wrong_phase(action)
    if action.seat != t.banker:
        return RuleError(
            "P-SHOOT-1", "only the banker puts up the kitty", key="engine.kitty_banker"
        )
    return t.amount_refusal(action, "P-SHOOT-1") or kitty_refusal(t, action.amount or 0)


def put_up_kitty(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    amount = action.amount or 0
    new_order = new_pack_order(t, chance)
    if amount:
        t.move_chips(out, action.seat, KITTY, amount, "kitty (P-SHOOT-1)")
        out.events.append(
            Event(
                EventKind.KITTY,
                action.seat,
                amount=amount,
                total=t.kitty,
                detail="added",
                says=Word("engine.kitty.added"),
            )
        )
    deal_first(t, out, new_order)


def bet_refusal(t: TableState, seat: str) -> Refusal | None:
    """Why ``seat`` may neither bet nor sit out now."""
    if seat not in t.hands:
        return RuleError(
            "P-DEAL-2",
            f"{seat} is not a player in this deal",
            key="engine.not_player",
            seat=seat,
        )
    if seat in t.decided:
        return RuleError(
            "P-DEAL-2",
            f"{seat} has already placed an initial bet",
            key="engine.already_bet",
            seat=seat,
        )
    return None


def bet_range(t: TableState, seat: str) -> tuple[int, int]:
    """The table's limits (P-TABLE-2) within what both sides can cover (P-PAY-LIMIT)."""
    return t.rules.min_bet, min(t.rules.max_bet, t.stake_cap(seat))


def bet_amount_refusal(t: TableState, seat: str, amount: int) -> Refusal | None:
    rules = t.rules
    if amount < rules.min_bet or amount > rules.max_bet:
        return RuleError(
            "P-TABLE-2",
            f"the initial bet must be between {rules.min_bet} and {rules.max_bet}",
            key="engine.bet_range",
            low=rules.min_bet,
            high=rules.max_bet,
        )
    if amount > t.player_cap(seat):
        return RuleError(
            "P-PAY-LIMIT",
            f"{seat} cannot cover a bet of {amount} and a possible {t.payouts.player_cover}x loss",
            key="engine.cannot_cover_bet",
            seat=seat,
            amount=amount,
            times=t.payouts.player_cover,
        )
    if amount > t.banker_cover_room():
        return RuleError(
            "P-PAY-LIMIT",
            f"the banker cannot cover another bet of {amount}",
            key="engine.banker_cannot_cover",
            amount=amount,
        )
    return None


def check_bet(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.BETTING:
        return t.wrong_phase(action)
    seat = action.seat
    return (
        bet_refusal(t, seat)
        or t.amount_refusal(action, "P-DEAL-2")
        or bet_amount_refusal(t, seat, action.amount or 0)
    )


def bet(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    seat, amount = action.seat, action.amount or 0
    hand = t.hands[seat][0]
    hand.stake = hand.original_stake = amount
    t.open_stake += amount
    t.decided[seat] = True
    t.move_chips(out, seat, ESCROW, amount, "initial bet (P-DEAL-2)")
    out.events.append(record(Event, (EventKind.BET, seat, 0, (), amount, None, None, "", None)))
    after_bets(t, out)


def check_sit_out(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.BETTING:
        return t.wrong_phase(action)
    if bet_refusal(t, action.seat) is not None:
        return RuleError(
            "P-DEAL-2",
            f"{action.seat} has nothing to sit out",
            key="engine.nothing_to_sit_out",
            seat=action.seat,
        )
    return None


def sit_out(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    t.decided[action.seat] = False
    after_bets(t, out)


def after_bets(t: TableState, out: Outcome) -> None:
    if len(t.decided) < len(t.players):
        return
    t.active = [seat for seat in t.players if t.decided[seat]]
    if not t.active:
        settlement.finish_round(t, out)  # everyone sat out
        return
    if t.rules.banker_doubles and not t.rules.house_bank:
        t.phase = Phase.DOUBLING  # P-VAR-3: the banker looks at the first card
        t.banker_sees = True
        banker_hand, banker = t.banker_hand, t.banker
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
    after_doubling(t, out)


def check_double(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.DOUBLING:
        return t.wrong_phase(action)
    if action.seat != t.banker:
        return RuleError("P-VAR-3", "only the banker may double", key="engine.only_banker_doubles")
    return None


def double(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    if action.kind is ActionKind.DOUBLE:
        t.doubled = True
        out.events.append(Event(EventKind.DOUBLED, action.seat, detail="all bets doubled"))
    after_doubling(t, out)


def after_doubling(t: TableState, out: Outcome) -> None:
    if t.rules.shoot:
        t.phase = Phase.SHOOTING
        t.shooter = 0
        return
    deal_second(t, out)


def shooter_refusal(t: TableState, seat: str) -> Refusal | None:
    shooter = t.active[t.shooter]
    if seat != shooter:
        return RuleError(
            "P-SHOOT-2",
            f"shoot bets go in seat order; it is {shooter}'s",
            key="engine.shoot_order",
            seat=shooter,
        )
    return None


def check_shoot(t: TableState, action: Action) -> Refusal | None:
    if t.phase is not Phase.SHOOTING:
        return t.wrong_phase(action)
    seat = action.seat
    return (
        shooter_refusal(t, seat)
        or t.amount_refusal(action, "P-SHOOT-2")
        or t.shoot_refusal(seat, action.amount or 0, 0, "P-SHOOT-2")
    )


def shoot(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    seat, amount = action.seat, action.amount or 0
    t.place_shoot(out, seat, 0, amount)
    t.shooter += 1
    if t.shooter >= len(t.active):
        deal_second(t, out)


def deal_second(t: TableState, out: Outcome) -> None:
    """P-DEAL-3: a second face-down card each; the banker looks at both. A banker's
    pontoon ends the hand (P-DEAL-4). The deal checked that the pack holds enough."""
    dealt = EventKind.CARD_DEALT
    for seat in t.active:
        card = t.pack.deal()
        t.hands[seat][0].add(card, False)
        out.events.append(record(Event, (dealt, seat, 0, (card.code,), None, None, seat, "", None)))
    banker_hand, banker = t.banker_hand, t.banker
    assert banker_hand is not None and banker is not None
    banker_hand.add(t.pack.deal(), False)
    t.banker_sees = True
    out.events.append(Event(dealt, banker, 0, banker_hand.codes(), to=banker))
    if t.is_pontoon(banker_hand):
        settlement.banker_pontoon_collects(t, out)
        return
    t.phase = Phase.PLAYING
    t.turn_player = t.turn_hand = 0
    for seat in t.active:
        hand = t.hands[seat][0]
        play.set_status(t, hand)
        if hand.status is HandStatus.TWENTY_ONE:
            out.events.append(Event(EventKind.TWENTY_ONE, seat, 0))
    play.advance(t, out, first=True)
