"""3. The players' turns (section 5): declare, stick, twist, buy, split and burn.

Each action has a ``check_*`` (its refusals, from the one refusal function of each rule
that ``legal_actions`` offers by) and a function that plays it once it is allowed.
"""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import RuleError
from engine.pontoon import banker_turn, settlement
from engine.pontoon.hands import PONTOON, ROYAL, Hand, hard_total
from engine.pontoon.state import Refusal, TableState
from engine.pontoon.types import (
    ESCROW,
    Action,
    ActionKind,
    Event,
    EventKind,
    Outcome,
    Phase,
    record,
)
from engine.pontoon.views import HandStatus

# whose turn ---------------------------------------------------------------------------


def turn_refusal(t: TableState, seat: str) -> Refusal | None:
    current = t.active[t.turn_player]
    if seat != current:
        return RuleError(
            "P-TURN-END",
            f"it is {current}'s turn (hand {t.turn_hand + 1})",
            key="engine.turn_of",
            seat=current,
            hand=t.turn_hand + 1,
        )
    return None


def turn_check(t: TableState, action: Action) -> Refusal | None:
    """Refuses a move out of the players' turns, by anyone but the seat whose turn it is
    (P-TURN-END), or anything but a declaration on a pontoon (P-TURN-DECLARE)."""
    if t.phase is not Phase.PLAYING:
        return t.wrong_phase(action)
    refusal = turn_refusal(t, action.seat)
    if refusal is None and action.kind is not ActionKind.DECLARE:
        return pontoon_refusal(t, t.current_hand())
    return refusal


def advance(t: TableState, out: Outcome, first: bool = False) -> None:
    """P-TURN-END: on to the next hand still to play, then to the banker. A TURN event
    goes out when the turn moves (or, with ``first``, for the first turn)."""
    still_open = HandStatus.OPEN
    player, hand_index = t.turn_player, t.turn_hand
    hands = t.hands[t.active[player]]
    if hand_index < len(hands) and hands[hand_index].status is still_open:
        if first:
            announce_turn(t, out)
        return
    for p in range(player, len(t.active)):
        hands = t.hands[t.active[p]]
        for h in range(hand_index + 1 if p == player else 0, len(hands)):
            if hands[h].status is still_open:
                t.turn_player, t.turn_hand = p, h
                announce_turn(t, out)
                return
    t.turn_player, t.turn_hand = len(t.active) - 1, 0
    banker_turn.banker_turn(t, out)


def announce_turn(t: TableState, out: Outcome) -> None:
    seat = t.active[t.turn_player]
    out.events.append(
        record(Event, (EventKind.TURN, seat, t.turn_hand, (), None, None, None, "", None))
    )


def set_status(t: TableState, hand: Hand) -> None:
    """A hand's status after a card (P-BUST-1, P-FIVE-1, P-STICK-1, P-VAR-6). A
    pontoon stays OPEN: it waits for DECLARE."""
    total = hand.total
    if total > 21:
        hand.status = HandStatus.BUST
    elif len(hand.cards) >= 5:
        hand.status = HandStatus.FIVE_CARD_TRICK
    elif total == 21:
        score = t.score_of(hand, royal=True)
        if score == ROYAL:
            hand.status = HandStatus.ROYAL
        elif score < PONTOON:
            hand.status = HandStatus.TWENTY_ONE


def pontoon_refusal(t: TableState, hand: Hand) -> Refusal | None:
    """P-TURN-DECLARE: a pontoon waits for its declaration."""
    if t.is_pontoon(hand):
        return RuleError(
            "P-TURN-DECLARE",
            "a pontoon must be declared; nothing else is possible",
            key="engine.declare_must",
        )
    return None


def declare_refusal(t: TableState, hand: Hand) -> Refusal | None:
    if not t.is_pontoon(hand):
        return RuleError(
            "P-TURN-DECLARE",
            "only a pontoon (an ace and a ten-card) is declared",
            key="engine.declare_only_pontoon",
        )
    return None


def stick_refusal(t: TableState, hand: Hand) -> Refusal | None:
    """P-STICK-1 / P-VAR-2; a stick below the minimum is allowed on an empty pack."""
    total, least = hand.total, t.rules.stick_min
    if total < least and t.pack.stack:
        rule = "P-VAR-2" if t.rules.stick_on_16 else "P-STICK-1"
        return RuleError(
            rule,
            f"a hand needs at least {least} to stick (it has {total})",
            key="engine.stick_min",
            need=least,
            total=total,
        )
    return None


def draw_refusal(t: TableState, hand: Hand, shoot: int) -> Refusal | None:
    """What stops any card (twist or buy), with ``shoot`` chips of shoot bet alongside."""
    n = len(hand.cards)
    if n >= 5:
        return RuleError(
            "P-FIVE-1", "a five card trick takes no more cards", key="engine.five_no_more"
        )
    if hand.total >= 21:
        return RuleError("P-STICK-1", "a hand on 21 stands", key="engine.on_21")
    if not t.pack.stack:
        return RuleError("P-TABLE-1", "the pack has no card left", key="engine.pack_empty")
    if shoot and n != 3:
        return RuleError(
            "P-SHOOT-4",
            "a shoot bet goes with the fourth card only, not before or after",
            key="engine.shoot_fourth",
        )
    return None


def buy_refusal(t: TableState, hand: Hand) -> Refusal | None:
    """The rules of a buy besides those of any card (``_draw_refusal``)."""
    if hand.twisted:
        return RuleError(
            "P-TWIST-2", "after a twist the hand may only twist", key="engine.twist_only"
        )
    if len(hand.cards) == 4 and t.rules.no_buy_five_on_eleven and hand.hard_total <= 11:
        return RuleError(
            "P-VAR-5",
            "with four cards totalling 11 or less the fifth card may only be twisted",
            key="engine.fifth_twist",
        )
    return None


def buy_range(t: TableState, seat: str, hand: Hand) -> tuple[int, int, str]:
    """(least, most, rule that sets the most) of a buy; most < least when none fits."""
    least = hand.original_stake
    if hand.last_buy == 0:
        most, rule = 2 * hand.original_stake, "P-BUY-2"
    else:
        most, rule = hand.last_buy, "P-BUY-3"
    cap = t.stake_cap(seat)
    if cap < most:
        most, rule = cap, "P-PAY-LIMIT"
    return least, most, rule


def buy_amount_refusal(t: TableState, seat: str, hand: Hand, amount: int) -> Refusal | None:
    least, most, rule = buy_range(t, seat, hand)
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


def split_refusal(t: TableState, seat: str, hand: Hand) -> Refusal | None:
    if len(hand.cards) != 2 or hand.last_buy or hand.twisted:
        return RuleError(
            "P-SPLIT-1", "only a hand of two cards may be split", key="engine.split_two"
        )
    first, second = hand.cards
    if first.rank is not second.rank:
        return RuleError(
            "P-SPLIT-1", "only two cards of the same rank may be split", key="engine.split_rank"
        )
    if t.rules.split_aces_only and first.value != 1:
        return RuleError("P-VAR-1", "only aces may be split at this table", key="engine.split_aces")
    if len(t.hands[seat]) >= 4:
        return RuleError(
            "P-SPLIT-2", "a player may hold at most four hands", key="engine.split_four"
        )
    if len(t.pack.stack) < 2:
        return RuleError("P-SPLIT-1", "the pack has too few cards left", key="engine.pack_few")
    if t.stake_cap(seat) < hand.original_stake:
        return RuleError(
            "P-PAY-LIMIT", "the new stake could not be covered", key="engine.stake_cover"
        )
    return None


def burn_refusal(t: TableState, hand: Hand) -> Refusal | None:
    burn = t.rules.burn
    if burn == "off":
        return RuleError("P-VAR-8", "burning is not played at this table", key="engine.burn_off")
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
    if len(t.pack) < 2:
        return RuleError("P-VAR-8", "the pack has too few cards left", key="engine.pack_few")
    return None


def check_declare(t: TableState, action: Action) -> Refusal | None:
    return turn_check(t, action) or declare_refusal(t, t.current_hand())


def declare(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    hand = t.current_hand()
    hand.status = HandStatus.PONTOON
    hand.shown = True
    t.pontoon_seen = True
    out.events.append(Event(EventKind.DECLARED, action.seat, t.turn_hand, hand.codes(), total=21))
    advance(t, out)


def check_stick(t: TableState, action: Action) -> Refusal | None:
    if t.phase is Phase.BANKER:
        return banker_turn.banker_refusal(t, action.seat, draws=False)
    return turn_check(t, action) or stick_refusal(t, t.current_hand())


def stick(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    if t.phase is Phase.BANKER:
        banker_turn.banker_stick(t, action, chance, out)
        return
    hand = t.current_hand()
    hand.status = HandStatus.STUCK
    out.events.append(
        record(Event, (EventKind.STUCK, action.seat, t.turn_hand, (), None, None, None, "", None))
    )
    advance(t, out)


def check_twist(t: TableState, action: Action) -> Refusal | None:
    if t.phase is Phase.BANKER:
        return banker_turn.banker_refusal(t, action.seat, draws=True)
    refusal = turn_check(t, action)
    if refusal is not None:
        return refusal
    seat, shoot = action.seat, action.shoot or 0
    return draw_refusal(t, t.current_hand(), shoot) or t.shoot_refusal(seat, shoot, 0, "P-SHOOT-4")


def twist(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    if t.phase is Phase.BANKER:
        banker_turn.banker_twist(t, action, chance, out)
        return
    hand = t.current_hand()
    seat, shoot = action.seat, action.shoot or 0
    t.place_shoot(out, seat, t.turn_hand, shoot)
    card = t.pack.deal()
    hand.add(card, True)  # P-TWIST-1: face up
    hand.twisted = True
    twisted = (EventKind.TWISTED, seat, t.turn_hand, (card.code,), None, None, None, "", None)
    out.events.append(record(Event, twisted))
    after_card(t, out, seat, hand)


def check_buy(t: TableState, action: Action) -> Refusal | None:
    refusal = turn_check(t, action)
    if refusal is not None:
        return refusal
    hand = t.current_hand()
    seat, shoot = action.seat, action.shoot or 0
    return (
        draw_refusal(t, hand, shoot)
        or buy_refusal(t, hand)
        or t.amount_refusal(action, "P-BUY-1")
        or buy_amount_refusal(t, seat, hand, action.amount or 0)
        or t.shoot_refusal(seat, shoot, action.amount or 0, "P-SHOOT-4")
    )


def buy(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    hand = t.current_hand()
    seat, shoot, amount = action.seat, action.shoot or 0, action.amount or 0
    hand.stake += amount
    hand.last_buy = amount
    t.open_stake += amount
    t.move_chips(out, seat, ESCROW, amount, "buy (P-BUY-1)")
    t.place_shoot(out, seat, t.turn_hand, shoot)
    card = t.pack.deal()
    hand.add(card, False)  # P-BUY-1: face down
    out.events.append(Event(EventKind.BOUGHT, seat, t.turn_hand, amount=amount, total=hand.stake))
    out.events.append(Event(EventKind.CARD_DEALT, seat, t.turn_hand, (card.code,), to=seat))
    after_card(t, out, seat, hand)


def after_card(t: TableState, out: Outcome, seat: str, hand: Hand) -> None:
    """A hand that busts, makes five cards or reaches 21 ends its turn (P-TURN-END)."""
    set_status(t, hand)
    i = t.turn_hand
    if hand.status is HandStatus.OPEN:
        return
    if hand.status is HandStatus.BUST:
        settlement.lose_bust_hand(t, out, seat, i, hand)
    elif hand.status is HandStatus.FIVE_CARD_TRICK:
        out.events.append(Event(EventKind.FIVE_CARD_TRICK, seat, i))
    else:  # 21, or three sevens: a plain "21" in public until settlement (P-VAR-6)
        out.events.append(Event(EventKind.TWENTY_ONE, seat, i))
    advance(t, out)


def check_split(t: TableState, action: Action) -> Refusal | None:
    refusal = turn_check(t, action)
    if refusal is not None:
        return refusal
    hand = t.current_hand()
    seat, shoot = action.seat, action.shoot or 0
    return split_refusal(t, seat, hand) or t.shoot_refusal(
        seat, shoot, hand.original_stake, "P-SHOOT-5"
    )


def split(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    hand = t.current_hand()
    seat, shoot = action.seat, action.shoot or 0
    i = t.turn_hand
    first, second = hand.cards
    stake = hand.original_stake
    new_hand = Hand([second], stake, face_up=True)
    new_hand.from_split = True
    hand.replace_cards([first], True)
    hand.from_split = True
    hand.stake = stake
    t.hands[seat].insert(i + 1, new_hand)
    t.open_stake += stake
    t.move_chips(out, seat, ESCROW, stake, "split stake (P-SPLIT-1)")
    out.events.append(Event(EventKind.SPLIT, seat, i, (first.code, second.code), amount=stake))
    t.place_shoot(out, seat, i + 1, shoot)  # P-SHOOT-5
    for j, each in ((i, hand), (i + 1, new_hand)):
        deal_face_down(t, out, seat, j, each, 1)
    advance(t, out)


def check_burn(t: TableState, action: Action) -> Refusal | None:
    return turn_check(t, action) or burn_refusal(t, t.current_hand())


def burn(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    hand = t.current_hand()
    seat, i = action.seat, t.turn_hand
    out.events.append(Event(EventKind.BURNED, seat, i, hand.codes()))
    t.pack.add_to_bottom(hand.cards)
    hand.replace_cards([], False)
    deal_face_down(t, out, seat, i, hand, 2)
    advance(t, out)


def deal_face_down(t: TableState, out: Outcome, seat: str, i: int, hand: Hand, n: int) -> None:
    """``n`` face-down cards to a hand after a split or burn; 21 stands at once."""
    cards = [t.pack.deal() for _ in range(n)]
    for card in cards:
        hand.add(card, False)
    out.events.append(Event(EventKind.CARD_DEALT, seat, i, tuple([c.code for c in cards]), to=seat))
    set_status(t, hand)
    if hand.status is HandStatus.TWENTY_ONE:
        out.events.append(Event(EventKind.TWENTY_ONE, seat, i))
