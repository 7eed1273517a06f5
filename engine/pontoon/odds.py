"""What a Pontoon table costs: exact expected results per unit stake, fresh pack each round.

- ``heads_up``: the twist-only punter of ``simulate pontoon`` (twists while below
  ``punter_stick``, never buys) against a banker drawing below ``banker_stick``, computed
  by enumerating every way a fresh pack can fall (engine-cli.md ``odds pontoon``).
- ``table_edge``: a player who follows the hint (engine/pontoon/hint.py: the best of
  stick, twist, buy, burn, declare and split at every point) against the house bank and
  against a player-banker drawing below 17, with a stake of 1 and a fresh pack each round.
  The house edge is minus the player's expected result per unit of initial stake. It is
  exact except for the split, which the hint approximates (its docstring says how).

Every deal starts with the player's two cards and the banker's two from a full pack; a
banker's pontoon collects at once (P-DEAL-4, P-VAR-7); otherwise the hint's figures
(conditioned on no banker pontoon) apply. docs/house-edge.md gives the numbers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.cards import full_pack
from engine.pontoon import hint as H
from engine.pontoon.hands import BUST, FIVE, PONTOON, score
from engine.pontoon.payouts import Payouts
from engine.pontoon.rules import PontoonRules
from engine.pontoon.types import ActionKind

#: what the hint-following figures enumerate and what they estimate
SPLIT_ESTIMATED = (
    "every fresh-pack deal enumerated; a split's value is the hint's estimate "
    "(engine/pontoon/hint.py), so a figure with splits in it is not exact"
)


def _starts(classes: H._Classes, packs: int) -> tuple[H.Deck, list[tuple[tuple[int, int], float]]]:
    """The full pool and every unordered two-card start with its chance."""
    counts = [0] * len(classes.values)
    for c in full_pack(packs):
        counts[classes.index(c)] += 1
    deck = tuple(counts)
    size = sum(deck)
    out: list[tuple[tuple[int, int], float]] = []
    for i in range(len(deck)):
        for j in range(i, len(deck)):
            if i == j:
                p = deck[i] * (deck[i] - 1) / (size * (size - 1))
            else:
                p = 2 * deck[i] * deck[j] / (size * (size - 1))
            if p > 0:
                out.append(((i, j), p))
    return deck, out


def _take(deck: H.Deck, *idx: int) -> H.Deck:
    d = list(deck)
    for i in idx:
        d[i] -= 1
    return tuple(d)


def _banker_pontoon_result(
    model: H._Model, settle: H.Settle, deck: H.Deck, player: tuple[int, ...], strength: str
) -> float:
    """Expected chips per unit stake from the banker's pontoon starts (P-DEAL-4): a
    stronger player's pontoon is paid (P-VAR-7), every other hand pays the banker."""
    cards = model.cl.cards
    s = score([cards[i] for i in player], strength)
    size = sum(deck)
    ev = 0.0
    for i in range(len(deck)):
        for j in range(len(deck)):
            if not model.pontoon[i][j]:
                continue
            p = deck[i] * (deck[j] - (i == j)) / (size * (size - 1))
            if p == 0:
                continue
            b = score((cards[i], cards[j]), strength)
            if s > b:
                ev += p * settle.payouts.player_win(s, settle.doubled)
            else:
                ev -= p * settle.payouts.player_loss(b, settle.doubled)
    return ev


def heads_up(
    punter_stick: int = 15,
    banker_stick: int = 17,
    rules: PontoonRules | None = None,
) -> dict[str, Any]:
    """Exact expected result of the twist-only punter (engine-cli.md), fresh pack."""
    rules = rules or PontoonRules(house_bank=True, house_stands_on=banker_stick)
    strength = rules.pontoon_strength
    by_rank = strength != "standard"
    classes = H._classes(by_rank)
    model = H._model(by_rank, strength, banker_stick)
    settle = H.Settle(Payouts.for_rules(rules), royal=rules.royal_pontoon)
    least = max(punter_stick, rules.stick_min)
    deck, starts = _starts(classes, rules.packs or 1)
    outcomes: dict[int, float] = {}
    extra = {"punter_bust": 0.0, "punter_five_card_trick": 0.0, "punter_pontoon": 0.0}
    values = classes.values

    def add(k: int, p: float) -> None:
        outcomes[k] = outcomes.get(k, 0.0) + p

    def play(d: H.Deck, hand: tuple[int, ...], p: float) -> None:
        """The punter twists while below ``least``; ``p`` the chance of getting here."""
        cards = [classes.cards[i] for i in hand]
        hard = sum(values[i] for i in hand)
        total = hard + 10 if 0 in hand and hard <= 11 else hard
        n = len(hand)
        if total < 21 and n < 5 and total < least and sum(d) > 0:
            size = sum(d)
            for i, c in enumerate(d):
                if c:
                    play(_take(d, i), (*hand, i), p * c / size)
            return
        s = score(cards, strength, rules.royal_pontoon)
        no_pontoon = 1.0 - model.pontoon_chance(d)
        if s == BUST:
            extra["punter_bust"] += p * no_pontoon
            add(-settle.payouts.player_loss(BUST, False), p * no_pontoon)
            return
        bank = model.start(d)
        if s >= PONTOON:
            extra["punter_pontoon"] += p * no_pontoon
        elif s == FIVE:
            extra["punter_five_card_trick"] += p * no_pontoon
        for k, q in settle.outcomes(s, bank).items():
            add(k, p * q)

    for (i, j), p in starts:
        d = _take(deck, i, j)
        # the banker's pontoon (P-DEAL-4), then everything else
        cards = model.cl.cards
        s = score([cards[i], cards[j]], strength)
        size = sum(d)
        for a in range(len(d)):
            for b in range(len(d)):
                if model.pontoon[a][b]:
                    q = d[a] * (d[b] - (a == b)) / (size * (size - 1))
                    if q:
                        if s >= PONTOON:
                            extra["punter_pontoon"] += p * q
                        bs = score((cards[a], cards[b]), strength)
                        if s > bs:
                            add(settle.payouts.player_win(s, False), p * q)
                        else:
                            add(-settle.payouts.player_loss(bs, False), p * q)
        play(d, (i, j), p)
    ev = sum(k * q for k, q in outcomes.items())
    return {
        "punter_stick": punter_stick,
        "banker_stick": banker_stick,
        "fresh_pack": True,
        "exact": True,
        "ev": ev,
        "outcomes": {str(k): outcomes.get(k, 0.0) for k in sorted(set(outcomes) | {-2, -1, 1, 2})},
        **extra,
    }


def hint_player_ev(
    rules: PontoonRules,
    stands_on: int,
    settle: H.Settle | None = None,
) -> float:
    """Exact expected chips per unit initial stake of a player following the hint
    (split approximated as the hint does), fresh pack each round."""
    strength = rules.pontoon_strength
    by_rank = strength != "standard"
    classes = H._classes(by_rank)
    settle = settle or H.Settle(Payouts.for_rules(rules), royal=rules.royal_pontoon)
    model = H._model(by_rank, strength, stands_on, settle.five_card_trick)
    deck, starts = _starts(classes, rules.packs or 1)
    search = H._Search(rules, model, settle)
    ev = 0.0
    for (i, j), p in starts:
        d = _take(deck, i, j)
        hand = (i, j)
        ev += p * _banker_pontoon_result(model, settle, d, hand, strength)
        best = max(v for _, _, v in search.choices(d, hand, 1, 1, 0, True))
        pair = i == j and (classes.by_rank or classes.values[i] != 10)
        if pair and (not rules.split_aces_only or i == 0):
            best = max(best, 2 * H._split_hand(search, d, i, 1, 1))
        ev += p * best
    return ev


def table_edges(rules: PontoonRules) -> dict[str, Any]:
    """The house edge (per unit initial stake, minus the player's expected result) of a
    player following the hint, against the house and against a player-banker. Every
    deal is enumerated, but a split's value is the hint's estimate, so the figures are
    not called exact (``"exact": false``; ``"method"`` says which part is estimated)."""
    out: dict[str, Any] = {
        "exact": False,
        "fresh_pack": True,
        "split": "approximated",
        "method": SPLIT_ESTIMATED,
    }
    house = hint_player_ev(rules, rules.house_stands_on)
    out["house_bank"] = {"stands_on": rules.house_stands_on, "player_ev": house, "edge": -house}
    player = hint_player_ev(rules, H.PLAYER_BANKER_STANDS_ON)
    out["player_banker"] = {
        "stands_on": H.PLAYER_BANKER_STANDS_ON,
        "player_ev": player,
        "edge": -player,
    }
    return out


def option_effects(rules: PontoonRules) -> dict[str, Any]:
    """How each option moves the edge (docs/house-edge.md), against a banker drawing
    below 17: the table as given, then one change at a time. The shoot bet's figure is
    exact (a shoot bet has no split); the others hold the split estimate."""
    stands = H.PLAYER_BANKER_STANDS_ON
    payouts = Payouts.for_rules(rules)
    base = H.Settle(payouts, royal=rules.royal_pontoon)
    figures = {
        "as_given": base,
        "no_five_card_trick": replace(base, five_card_trick=False),
        "banker_pays_ties": replace(base, ties_to_banker=False),
        "doubled_round": replace(base, doubled=True),
    }
    out: dict[str, Any] = {}
    for name, settle in figures.items():
        out[name] = {"edge": -hint_player_ev(rules, stands, settle)}
    for name in figures:
        out[name]["exact"] = False
    out["shoot_bet"] = {"edge": -shoot_bet_ev(rules, stands), "exact": True}
    return out


class _Follow:
    """A second bet riding on a hand played by the hint's best choices (the main
    search), valued with its own payouts: the shoot bet of P-SHOOT-7 (even money)."""

    def __init__(self, main: H._Search, settle: H.Settle) -> None:
        self.main = main
        self.side = H._Search(main.rules, main.m, settle)
        self.memo: dict[tuple[Any, ...], float] = {}

    def value(
        self, deck: H.Deck, hand: tuple[int, ...], stake: int, orig: int, cap: int, can_buy: bool
    ) -> float:
        key = (deck, hand, stake, orig, cap, can_buy)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        choices = self.main.choices(deck, hand, stake, orig, cap, can_buy)
        kind, amount, _ = max(choices, key=lambda c: c[2])
        if kind in (ActionKind.STICK, ActionKind.DECLARE):  # the hand stands (or bust)
            v = self.side.final(deck, self.side.hand_info(hand)[2])
        elif kind is ActionKind.BURN:
            v = self._deal(deck, (), 2, stake, orig, can_buy)
        else:
            buying = kind is ActionKind.BUY
            assert not buying or amount is not None
            new_stake = stake + amount if buying and amount is not None else stake
            new_cap = amount if buying and amount is not None else cap
            v = self._deal_one(deck, hand, new_stake, orig, new_cap, buying)
        self.memo[key] = v
        return v

    def _deal_one(
        self, deck: H.Deck, hand: tuple[int, ...], stake: int, orig: int, cap: int, can_buy: bool
    ) -> float:
        size = sum(deck)
        ev = 0.0
        for i, c in enumerate(deck):
            if c:
                ev += c * self.value(
                    _take(deck, i), self.main.grow(hand, i), stake, orig, cap, can_buy
                )
        return ev / size

    def _deal(
        self, deck: H.Deck, hand: tuple[int, ...], k: int, stake: int, orig: int, can_buy: bool
    ) -> float:
        if k == 0:
            return self.value(deck, hand, stake, orig, 0, can_buy)
        size = sum(deck)
        ev = 0.0
        for i, c in enumerate(deck):
            if c:
                ev += c * self._deal(
                    _take(deck, i), self.main.grow(hand, i), k - 1, stake, orig, can_buy
                )
        return ev / size


def shoot_bet_ev(rules: PontoonRules, stands_on: int = H.PLAYER_BANKER_STANDS_ON) -> float:
    """Expected result per chip of a shoot bet placed on the first card (P-SHOOT-2),
    paid even money from the kitty (P-SHOOT-7) by a hand the hint plays for its stake
    (fresh pack, no split). A banker's pontoon takes it (P-SHOOT-3) unless a stronger
    pontoon beats it (P-VAR-7)."""
    base = rules.model_copy(update={"shoot": False})
    strength = base.pontoon_strength
    by_rank = strength != "standard"
    classes = H._classes(by_rank)
    settle = H.Settle(Payouts.for_rules(base), royal=base.royal_pontoon)
    even = H.Settle(Payouts(1, 1, 1 if base.royal_pontoon else 0, 1, 1), royal=base.royal_pontoon)
    model = H._model(by_rank, strength, stands_on)
    deck, starts = _starts(classes, base.packs or 1)
    follow = _Follow(H._Search(base, model, settle), even)
    ev = 0.0
    for (i, j), p in starts:
        d = _take(deck, i, j)
        ev += p * _banker_pontoon_result(model, even, d, (i, j), strength)
        ev += p * follow.value(d, (i, j), 1, 1, 0, True)
    return ev
