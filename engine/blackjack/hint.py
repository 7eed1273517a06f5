"""The Blackjack hint: what each legal action of the hand being played is worth, in
chips, over the cards the member has seen since the last shuffle.

``hint`` is a pure function of what a seat at the table may see: the rules, the hand
being played, every face-up card of the round (all players' cards and the dealer's up
card; never the hole card while it is face down) and the cards of the earlier rounds
since the shuffle (``seen``; by default the discard tray, every card of which the table
showed when its round was settled). It never reads the shoe's order or the hole card,
so its figures cannot depend on them (tests/engine/test_blackjack_hint.py reorders the
shoe and swaps the hole card to check this).

The model is the house-edge computation's (engine/blackjack/odds.py, BJ-EDGE-1):

* the unseen cards are the shoe's full composition less every seen card; the hole
  card and the shoe are drawn from them;
* the dealer's final totals are exact for that composition (BJ-DEALER-1); once the
  dealer has peeked (BJ-PEEK-1) they are conditioned on the hole card not making a
  blackjack, and in the no-hole-card game (BJ-NHC-1) a dealer blackjack takes the
  hand's bet whatever the player does (it is weighted in with its probability);
* the member's own later cards come from the same composition without further
  removal, played the best way (stand or hit; double and split only as first moves),
  as the published basic-strategy tables compute them;
* insurance (BJ-INS-1) pays 2 to 1 when the hole card is a ten-value card: its value
  per chip insured is ``3 p - 1`` with ``p`` the unseen ten-value cards' share.

Figures are per chip of the hand's bet (``per_chip``) and in chips for the bet the hand
has (``chips``); surrender is valued at what the table pays back (half the bet, rounded
down); a double is valued at the full bet (its value is a straight line in
the amount, so the full double or none is the best amount).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.blackjack.actions import Action, ActionKind, Phase
from engine.blackjack.odds import _dealer_totals, _edge_rules, _full_counts, _Play
from engine.blackjack.table import BlackjackTable
from engine.cards import Card
from engine.errors import RuleError

K = ActionKind


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action: ``chips`` its expected net result in chips, ``per_chip`` the
    same per chip of the hand's bet (of the insurance, for INSURANCE). ``amount`` is
    the chips the action adds (a double, a split, insurance), None for none."""

    kind: ActionKind
    amount: int | None
    chips: float
    per_chip: float


@dataclass(frozen=True, slots=True)
class BlackjackHint:
    """The actions ranked, best first, and what the figures were drawn from."""

    actions: tuple[ActionValue, ...]
    cards: tuple[str, ...]  # the hand's cards (or the first hand's, for insurance)
    up_card: str
    unseen: int  # how many cards the figures draw from
    stake: int  # the hand's bet (``per_chip`` is ``chips`` / ``stake``)

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    @property
    def margin(self) -> float:
        """How many chips more per chip staked the best action is expected to win than
        the next best (0 when only one action is offered)."""
        if len(self.actions) < 2:
            return 0.0
        return self.actions[0].per_chip - self.actions[1].per_chip


def _no_hint() -> RuleError:
    return RuleError("BJ-EDGE-1", "you have no hand to play now", key="engine.bj.no_hint")


def seen_cards(table: BlackjackTable) -> list[Card]:
    """Every card the table shows now: each hand of the round and the dealer's visible
    cards (the hole card only once it is turned)."""
    out: list[Card] = list(table.visible_dealer())
    for box in table.boxes.values():
        for hand in box.hands:
            out.extend(hand.cards)
    return out


def _unseen(table: BlackjackTable, earlier: Sequence[Card]) -> tuple[int, ...]:
    counts = _full_counts(table.rules.decks)
    for card in [*earlier, *seen_cards(table)]:
        if counts[card.value] > 0:
            counts[card.value] -= 1
    return tuple(counts)


def hint(table: BlackjackTable, seat: str, seen: Sequence[Card] | None = None) -> BlackjackHint:
    """The hint for ``seat``'s hand being played (or its insurance question). ``seen``:
    the cards of earlier rounds since the shuffle that ``seat`` saw (None: the table's
    discard tray). Raises RuleError when ``seat`` has nothing to decide now."""
    if seat not in table.seats or seat not in table.boxes or not table.dealer:
        raise _no_hint()
    earlier = list(table.shoe.discards) if seen is None else list(seen)
    counts = _unseen(table, earlier)
    left = sum(counts)
    up = table.dealer[0]
    box = table.boxes[seat]
    if table.phase is Phase.INSURANCE and box.insurance is None:
        most = box.hands[0].bet // 2
        p_ten = counts[10] / left if left else 0.0
        ins = 3 * p_ten - 1
        acts: list[ActionValue] = [
            ActionValue(K.INSURANCE, most, most * ins, ins),
            ActionValue(K.INSURANCE, 0, 0.0, 0.0),
        ]
        acts.sort(key=lambda a: -a.per_chip)
        cards = tuple(c.code for c in box.hands[0].cards)
        return BlackjackHint(tuple(acts), cards, up.code, left, most)
    if table.phase is not Phase.PLAYING or table.turn is None or table.turn[0] != seat:
        raise _no_hint()
    if table.why_not(Action(seat, K.STAND)) is not None:
        raise _no_hint()
    rules = _edge_rules(table.rules)
    hand = table.current_hand()
    assert hand is not None
    legal = {la.kind for la in table.legal_actions(seat)}
    bj_card = 10 if up.value == 1 else 1 if up.value == 10 else 0
    # the hole card is drawn from ``counts``; after the peek it is no blackjack
    dealer = _dealer_totals(up.value, counts, rules.dealer == "h17", bool(bj_card))
    p_bj = 0.0
    if not rules.peek and bj_card and left:
        p_bj = counts[bj_card] / left  # BJ-NHC-1: the dealer's blackjack takes the bet
    play = _Play(counts, dealer, rules)
    values = [c.value for c in hand.cards]
    hard, ace = sum(values), 1 in values
    per: dict[ActionKind, float] = {K.STAND: play.stand(play.value(hard, ace))}
    if K.HIT in legal:
        per[K.HIT] = play.hit(hard, ace)
    if K.DOUBLE in legal:
        per[K.DOUBLE] = play.double(hard, ace)
    if K.SPLIT in legal:
        per[K.SPLIT] = play.split(values[0], len(box.hands) + 1)
    if K.SURRENDER in legal:
        # BJ-SURR-1: the table hands back half the bet rounded down, so an odd bet
        # loses more than half (a bet of 1 gets nothing back)
        per[K.SURRENDER] = (hand.bet // 2 - hand.bet) / hand.bet
    amounts = {K.DOUBLE: hand.bet, K.SPLIT: hand.bet}
    acts = []
    for kind, value in per.items():
        if kind is not K.SURRENDER:
            value = p_bj * -1.0 + (1 - p_bj) * value
        acts.append(ActionValue(kind, amounts.get(kind), value * hand.bet, value))
    acts.sort(key=lambda a: -a.per_chip)
    return BlackjackHint(tuple(acts), tuple(c.code for c in hand.cards), up.code, left, hand.bet)


def unseen_composition(table: BlackjackTable, seen: Sequence[Card] | None = None) -> Counter[int]:
    """The unseen cards by value (1 ace .. 10 ten-value) the hint draws from."""
    earlier = list(table.shoe.discards) if seen is None else list(seen)
    return Counter({v: n for v, n in enumerate(_unseen(table, earlier)) if v and n})


__all__ = ["ActionValue", "BlackjackHint", "hint", "seen_cards", "unseen_composition"]
