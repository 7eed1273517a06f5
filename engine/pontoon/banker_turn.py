"""4. The banker's turn (section 6): the reveal, draws and stays; the house plays by
itself. (STICK and TWIST in the banker's turn are checked and dispatched by ``play``.)"""

from __future__ import annotations

from engine.cards import Chance
from engine.errors import RuleError
from engine.pontoon import settlement
from engine.pontoon.state import Refusal, TableState
from engine.pontoon.types import Action, Event, EventKind, Outcome, Phase
from engine.pontoon.views import HandStatus


def banker_turn(t: TableState, out: Outcome) -> None:
    """P-BANKER-1: every player has played; the banker's cards are turned face up."""
    banker_hand = t.banker_hand
    banker = t.banker
    assert banker_hand is not None and banker is not None
    if t.open_stake == 0 and t.shoot_out == 0 and not any_hand_in_play(t):
        settlement.settle(t, out)  # every hand bust: nothing left to play against
        return
    t.phase = Phase.BANKER
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
    if banker_turn_over(t, out):
        return
    if t.rules.house_bank:
        house_plays(t, out)


def house_plays(t: TableState, out: Outcome) -> None:
    """The house draws while below ``house_stands_on`` and a card is left."""
    banker_hand = t.banker_hand
    assert banker_hand is not None
    while banker_hand.total < t.rules.house_stands_on and len(t.pack) > 0:
        banker_draw(t, out)
        if banker_turn_over(t, out):
            return
    out.events.append(Event(EventKind.BANKER_STAYS, t.banker, 0, total=banker_hand.total))
    banker_hand.status = HandStatus.STUCK
    settlement.settle(t, out)


def any_hand_in_play(t: TableState) -> bool:
    return any(h.status is not HandStatus.BUST for seat in t.active for h in t.hands[seat])


def banker_refusal(t: TableState, seat: str, draws: bool) -> Refusal | None:
    """Why ``seat`` may not twist (``draws``) or stay now in the banker's turn."""
    if seat != t.banker:
        return RuleError("P-BANKER-2", "it is the banker's turn", key="engine.banker_turn")
    if draws and not t.pack.stack:
        return RuleError("P-TABLE-1", "the pack has no card left", key="engine.pack_empty")
    return None


def banker_twist(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    banker_draw(t, out)
    banker_turn_over(t, out)


def banker_stick(t: TableState, action: Action, chance: Chance, out: Outcome) -> None:
    banker_hand = t.banker_hand
    assert banker_hand is not None
    banker_hand.status = HandStatus.STUCK
    out.events.append(Event(EventKind.BANKER_STAYS, action.seat, 0, total=banker_hand.total))
    settlement.settle(t, out)


def banker_draw(t: TableState, out: Outcome) -> None:
    """The banker takes a card face up (callers check that the pack is not empty)."""
    banker_hand = t.banker_hand
    assert banker_hand is not None
    card = t.pack.deal()
    banker_hand.add(card, True)
    out.events.append(
        Event(
            EventKind.BANKER_DRAW,
            t.banker,
            0,
            (card.code,),
            total=banker_hand.total,
        )
    )


def banker_turn_over(t: TableState, out: Outcome) -> bool:
    """P-BANKER-3: a bust, five cards or 21 end the banker's turn and settle."""
    banker_hand = t.banker_hand
    assert banker_hand is not None
    total = banker_hand.total
    if total > 21:
        banker_hand.status = HandStatus.BUST
        out.events.append(Event(EventKind.BUST, t.banker, 0, banker_hand.codes(), total=total))
    elif len(banker_hand.cards) >= 5:
        banker_hand.status = HandStatus.FIVE_CARD_TRICK
        out.events.append(Event(EventKind.FIVE_CARD_TRICK, t.banker, 0))
    elif total == 21:
        banker_hand.status = HandStatus.TWENTY_ONE
        out.events.append(Event(EventKind.TWENTY_ONE, t.banker, 0))
    else:
        return False
    settlement.settle(t, out)
    return True
