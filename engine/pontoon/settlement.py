"""5. Settlement (section 7, P-DEAL-4, P-SHOOT-3/6/7) and the end of a round (P-NEXT-1/2).

What each result pays comes from the payout table (``engine.pontoon.payouts``).
"""

from __future__ import annotations

from engine.errors import Word
from engine.pontoon.hands import BUST, FIVE, Hand
from engine.pontoon.payouts import banker_label, banker_word, result_label, result_word
from engine.pontoon.state import TableState
from engine.pontoon.types import ESCROW, KITTY, Event, EventKind, Outcome, Phase, record
from engine.pontoon.views import HandStatus
from engine.records import is_computer_seat


def settle(t: TableState, out: Outcome) -> None:
    """The banker against every hand still in play (P-PAY-BUST, P-PAY-STAY,
    P-PAY-FIVE); shoot bets even money against the kitty (P-SHOOT-7)."""
    banker_hand = t.banker_hand
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
    blabel = banker_word(banker_score)
    loss = t.payouts.player_loss(banker_score, t.doubled)
    for seat in t.active:
        for i, hand in enumerate(t.hands[seat]):
            if hand.status is HandStatus.BUST:
                continue  # settled when it bust (P-BUST-1)
            hand.shown = True
            score = t.score_of(hand, royal=True)
            label = result_label(score)
            if banker_score == BUST or score > banker_score:
                why = "banker bust" if banker_score == BUST else f"{label} beats {against}"
                says = (
                    Word("engine.why.banker_bust")
                    if banker_score == BUST
                    else Word(
                        "engine.why.beats", (("label", result_word(score)), ("blabel", blabel))
                    )
                )
                win = hand.stake * t.payouts.player_win(score, t.doubled)
                pay_player(t, out, seat, hand, win, f"{label} wins ({rule})")
                shoot_net = shoot_won(t, out, seat, hand)
                result(t, out, seat, i, hand, score, win, shoot_net, "win", why, says)
            else:
                why = f"{label} loses to {against}"
                # the banker's five card trick collects double (P-PAY-FIVE): said so
                says = Word(
                    "engine.why.loses_double_to" if banker_score == FIVE else "engine.why.loses_to",
                    (("label", result_word(score)), ("blabel", blabel)),
                )
                collect(t, out, seat, hand, hand.stake * loss, f"loses ({rule})")
                shoot_net = shoot_lost(t, out, hand, "P-SHOOT-7")
                result(
                    t, out, seat, i, hand, score, -hand.stake * loss, shoot_net, "lose", why, says
                )
    t.open_stake = 0
    t.shoot_out = 0
    finish_round(t, out)


def banker_pontoon_collects(t: TableState, out: Outcome) -> None:
    """P-DEAL-4 / P-SHOOT-3: the banker's pontoon is shown and collects from everyone;
    the hand ends. With P-VAR-7 (a)/(c) a stronger pontoon is paid as a pontoon."""
    banker_hand = t.banker_hand
    assert banker_hand is not None and t.banker is not None
    banker_hand.shown = True
    banker_hand.status = HandStatus.PONTOON
    t.banker_pontoon = True
    t.pontoon_seen = True
    out.events.append(Event(EventKind.BANKER_PONTOON, t.banker, 0, banker_hand.codes(), total=21))
    banker_score = t.score_of(banker_hand, royal=False)
    loss = t.payouts.player_loss(banker_score, t.doubled)
    for seat in t.active:
        for i, hand in enumerate(t.hands[seat]):
            hand.shown = True
            score = t.score_of(hand, royal=False)
            if score > banker_score:
                win = hand.stake * t.payouts.player_win(score, t.doubled)
                pay_player(t, out, seat, hand, win, "stronger pontoon (P-VAR-7)")
                shoot_net = shoot_won(t, out, seat, hand)
                t.shoot_out -= shoot_net
                hand.status = HandStatus.PONTOON
                why = "pontoon beats banker's pontoon"
                says = Word("engine.why.pontoon_beats")
                result(t, out, seat, i, hand, score, win, shoot_net, "win", why, says)
                continue
            collect(t, out, seat, hand, hand.stake * loss, "banker's pontoon (P-DEAL-4)")
            shoot_net = shoot_lost(t, out, hand, "P-SHOOT-3")
            t.shoot_out += shoot_net
            result(
                t,
                out,
                seat,
                i,
                hand,
                score,
                -hand.stake * loss,
                shoot_net,
                "lose",
                "banker's pontoon",
                Word("engine.why.banker_pontoon"),
            )
    t.open_stake = 0
    finish_round(t, out)


def lose_bust_hand(t: TableState, out: Outcome, seat: str, i: int, hand: Hand) -> None:
    """P-BUST-1 / P-SHOOT-6: shown, stake to the banker, cards to the bottom at once."""
    hand.shown = True
    out.events.append(Event(EventKind.BUST, seat, i, hand.codes(), total=hand.total))
    loss = hand.stake * t.payouts.player_loss(BUST, t.doubled)
    collect(t, out, seat, hand, loss, "bust (P-BUST-1)")
    t.open_stake -= hand.stake
    shoot_net = shoot_lost(t, out, hand, "P-SHOOT-6")
    t.shoot_out += shoot_net
    result(t, out, seat, i, hand, BUST, -loss, shoot_net, "lose", "bust", Word("engine.why.bust"))
    t.pack.add_to_bottom(hand.cards)


def pay_player(t: TableState, out: Outcome, seat: str, hand: Hand, win: int, reason: str) -> None:
    """The stake back from escrow and the win from the banker."""
    assert t.banker is not None
    t.move_chips(out, ESCROW, seat, hand.stake, "stake returned")
    t.move_chips(out, t.banker, seat, win, reason)


def collect(t: TableState, out: Outcome, seat: str, hand: Hand, loss: int, reason: str) -> None:
    """The stake from escrow and the rest of the loss from the seat, to the banker."""
    assert t.banker is not None
    t.move_chips(out, ESCROW, t.banker, hand.stake, reason)
    t.move_chips(out, seat, t.banker, loss - hand.stake, reason)


def shoot_won(t: TableState, out: Outcome, seat: str, hand: Hand) -> int:
    """A winning hand's shoot bets come back with as much again from the kitty."""
    if not hand.shoot:
        return 0
    t.move_chips(out, ESCROW, seat, hand.shoot, "shoot bet returned")
    t.move_chips(out, KITTY, seat, hand.shoot, "shoot bet won (P-SHOOT-7)")
    return hand.shoot


def shoot_lost(t: TableState, out: Outcome, hand: Hand, rule: str) -> int:
    """A losing hand's shoot bets go into the kitty; returns the (negative) net."""
    if not hand.shoot:
        return 0
    t.move_chips(out, ESCROW, KITTY, hand.shoot, f"shoot bet to kitty ({rule})")
    return -hand.shoot


def result(
    t: TableState,
    out: Outcome,
    seat: str,
    i: int,
    hand: Hand,
    score: int,
    net: int,
    shoot_net: int,
    outcome: str,
    why: str,
    says: Word,
) -> None:
    """A HAND_RESULT event and its line in ``results``: ``why`` in English (logs, the
    command line), ``says`` the same as the bot's catalog word."""
    codes = hand.codes()
    says = record(Word, (f"engine.result.{outcome}", (("why", says),)))  # Word.of(..., why=)
    # Event(HAND_RESULT, seat, i, codes, amount=, total=, detail=, says=), built directly
    fields = (EventKind.HAND_RESULT, seat, i, codes, net + shoot_net, hand.total, None)
    out.events.append(record(Event, (*fields, f"{outcome}: {why}", says)))
    t.result_rows.append((seat, i, codes, score, hand.stake, outcome, net, shoot_net, why))


def finish_round(t: TableState, out: Outcome) -> None:
    """P-NEXT-1 / P-NEXT-2: used cards to the bottom, decide the next banker."""
    next_banker: str | None = None
    # Only a declared pontoon passes the bank, and declaring one sets pontoon_seen:
    # most rounds have none, and skip the search.
    if t.pontoon_seen and not t.banker_pontoon and not t.rules.house_bank:
        for seat in t.players:  # in order from the banker's left
            if is_computer_seat(seat):  # computer players never take the bank
                continue
            if any(h.status is HandStatus.PONTOON and not h.from_split for h in t.hands[seat]):
                next_banker = seat
                break
    t.pack.add_to_bottom(t.cards_in_play())
    if t.pontoon_seen:
        t.needs_shuffle = True
    t.bank_passes_to = next_banker
    if next_banker is not None:
        out.events.append(
            Event(
                EventKind.BANK_PASSES,
                next_banker,
                detail="pontoon (P-NEXT-2)",
                says=Word("engine.bank_passes.pontoon"),
            )
        )
    t.phase = Phase.ROUND_OVER
    assert t.escrow == 0, "escrow must be empty after a round"
    if t.rules.shoot and t.kitty == 0:
        out.events.append(
            Event(
                EventKind.KITTY,
                t.banker,
                amount=0,
                detail="empty (P-SHOOT-8)",
                says=Word("engine.kitty.empty"),
            )
        )
    out.events.append(Event(EventKind.ROUND_OVER, amount=t.round_no))
