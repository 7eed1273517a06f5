"""The house edge of a table's rules for a basic-strategy player (BJ-EDGE-1).

Method (a combinatorial analysis, no sampling):

* Every deal of the player's first two cards and the dealer's up card is enumerated with
  its exact probability from the full shoe (ranks ace, 2..9, ten-value; the order of the
  deal does not change the probabilities).
* For each deal, those three cards are taken out of the shoe. The dealer's final totals
  (17..21, bust) are computed exactly from that composition, every card the dealer
  draws taken out in turn; when the dealer checks for blackjack (BJ-PEEK-1) they are
  conditioned on the hole card not making one.
* The player's hand is played the best way for its total against those dealer totals
  (stand, hit, double, split, surrender where the rules offer them): the player's own
  draws come from the same composition without further removal. That is basic strategy
  as the published tables compute it (total-dependent, for this shoe), which is why the
  figure is the one they publish: 6 decks S17 DAS no surrender 3:2 peek -> 0.40%
  (0.4026%, as ``python -m engine odds blackjack`` and docs/rules/blackjack.md say).
* Splits: each new hand draws its second card; a pair card again is re-split while the
  seat holds fewer than ``max_hands`` hands (aces only with ``resplit_aces``); split aces
  take one card each; a split hand's 21 is not a blackjack; doubling after a split only
  with ``double_after_split``.
* A dealer blackjack takes the original bet only: with the peek the player never gets to
  add to it, and in the no-hole-card game (BJ-NHC-1) doubles and split bets are returned,
  so both games have the same figure. Surrender needs the peek (BJ-SURR-1). Insurance is
  never taken by basic strategy.

The result is the house's expected gain per unit of the initial bet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.blackjack.rules import BlackjackRules

Counts = tuple[int, ...]  # index 0 unused; 1 = ace, 2..9, 10 = ten-value cards
_DEALER_TOTALS = (17, 18, 19, 20, 21)  # then bust at index 5


@dataclass(frozen=True)
class HouseEdge:
    """The house edge of a rule set (BJ-EDGE-1) and what each rule adds or takes away
    against the same table with the other rule (in fractions of the initial bet)."""

    rules: BlackjackRules
    edge: float  # house's expected gain per unit initial bet

    @property
    def percent(self) -> float:
        """The edge in percent, to two decimals."""
        return round(self.edge * 100, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "house_edge": round(self.edge, 6),
            "house_edge_percent": self.percent,
            "rules": self.rules.model_dump(mode="json", include=set(EDGE_OPTIONS)),
        }


# The options that change the edge (betting limits, the cut and insurance do not: basic
# strategy never insures).
EDGE_OPTIONS = (
    "decks",
    "dealer",
    "blackjack_pays",
    "surrender",
    "double_on",
    "double_after_split",
    "resplit_aces",
    "max_hands",
    "peek",
)


def _edge_rules(rules: BlackjackRules) -> BlackjackRules:
    return BlackjackRules(**{name: getattr(rules, name) for name in EDGE_OPTIONS})


_EDGES: dict[BlackjackRules, HouseEdge] = {}  # computed edges, by the options that count
_EDGES_KEPT = 256


def house_edge(rules: BlackjackRules) -> HouseEdge:
    """BJ-EDGE-1: the table's house edge for a basic-strategy player (remembered per
    rules; a second or so the first time, so the bot asks in a worker thread)."""
    key = _edge_rules(rules)
    found = _EDGES.get(key)
    if found is None:
        found = HouseEdge(key, -_player_ev(key))
        if len(_EDGES) >= _EDGES_KEPT:
            _EDGES.clear()
        _EDGES[key] = found
    return found


def known_house_edge(rules: BlackjackRules) -> HouseEdge | None:
    """The house edge if it was computed already, else None (never computes: for code
    that must not wait, such as drawing a table message)."""
    return _EDGES.get(_edge_rules(rules))


def rule_effects(rules: BlackjackRules) -> dict[str, float]:
    """What each of the table's options adds to the house edge (in fractions of the
    bet) against the same table with the usual default for it: positive costs the
    player. Only options that differ from the default are listed."""
    base = house_edge(rules).edge
    defaults = BlackjackRules()
    out: dict[str, float] = {}
    for name in EDGE_OPTIONS:
        if getattr(rules, name) != getattr(defaults, name):
            other = rules.model_copy(update={name: getattr(defaults, name)})
            out[name] = base - house_edge(other).edge
    return out


#: each option's other choice, for :func:`rule_alternatives`
_OTHER: dict[str, Any] = {
    "dealer": {"s17": "h17", "h17": "s17"},
    "blackjack_pays": {"3:2": "6:5", "6:5": "3:2"},
    "surrender": {"none": "late", "late": "none"},
    "double_on": {"any": "10-11", "9-11": "any", "10-11": "any"},
    "double_after_split": {True: False, False: True},
    "resplit_aces": {True: False, False: True},
}


def rule_alternatives(rules: BlackjackRules) -> list[tuple[str, Any, float]]:
    """What each of the table's rules is worth: for each option, its other choice and
    how much the house edge would change with it (positive: the other choice costs the
    player more). The deck count is set against one deck (or six, for a single deck)."""
    base = house_edge(rules).edge
    out: list[tuple[str, Any, float]] = []
    for name, others in _OTHER.items():
        if name == "surrender" and not rules.peek:
            continue  # no surrender without the peek (BJ-SURR-1)
        other = others[getattr(rules, name)]
        changed = rules.model_copy(update={name: other})
        out.append((name, other, house_edge(changed).edge - base))
    decks = 1 if rules.decks > 1 else 6
    out.append(("decks", decks, house_edge(rules.model_copy(update={"decks": decks})).edge - base))
    return out


# ------------------------------------------------------------------ the computation
def _full_counts(decks: int) -> list[int]:
    return [0] + [4 * decks] * 9 + [16 * decks]


def _player_ev(rules: BlackjackRules) -> float:
    full = _full_counts(rules.decks)
    n = sum(full)
    total_ev = 0.0
    for up in range(1, 11):
        for a in range(1, 11):
            for b in range(a, 11):
                c = list(full)
                # probability of the deal: a and b to the player (either order), up card
                p = c[a] / n
                c[a] -= 1
                p *= c[up] / (n - 1)
                c[up] -= 1
                if c[b] <= 0:
                    continue
                p *= c[b] / (n - 2)
                c[b] -= 1
                if a != b:
                    p *= 2
                total_ev += p * _deal_ev(a, b, up, tuple(c), rules)
    return total_ev


def _deal_ev(a: int, b: int, up: int, shoe: Counts, rules: BlackjackRules) -> float:
    """The player's expected result for one deal, played the best way."""
    left = sum(shoe)
    bj_card = 10 if up == 1 else 1 if up == 10 else 0
    p_bj = shoe[bj_card] / left if bj_card else 0.0
    dealer = _dealer_totals(up, shoe, rules.dealer == "h17", bool(bj_card))
    player_bj = {a, b} == {1, 10}
    if player_bj:
        return (1 - p_bj) * float(rules.blackjack_fraction)  # a dealer blackjack pushes
    play = _Play(shoe, dealer, rules)
    best = play.best_two_cards(a, b)
    return p_bj * -1.0 + (1 - p_bj) * best


@lru_cache(maxsize=8192)  # the same for every rule but the decks and the dealer's
def _dealer_totals(up: int, shoe: Counts, h17: bool, no_blackjack: bool) -> tuple[float, ...]:
    """Probabilities of the dealer's final 17, 18, 19, 20, 21 and bust from ``shoe``
    (cards drawn without replacement), given the up card and, when ``no_blackjack``, that
    the hole card does not make a blackjack (BJ-PEEK-1)."""
    counts = list(shoe)
    memo: dict[tuple[int, bool, Counts], list[float]] = {}

    def final(hard: int, ace: bool) -> int:
        """The index of the dealer's final total (0..4 for 17..21, 5 bust), or -1 when
        the dealer draws on."""
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        if total > 21:
            return 5
        if total >= 17 and not (h17 and total == 17 and total != hard):
            return total - 17
        return -1

    def draw(hard: int, ace: bool, left: int) -> list[float]:
        """The final totals' probabilities of a dealer hand that draws on."""
        key = (hard, ace, tuple(counts))
        got = memo.get(key)
        if got is not None:
            return got
        acc = [0.0] * 6
        for r in range(1, 11):
            k = counts[r]
            if not k:
                continue
            p = k / left
            nhard, nace = hard + r, ace or r == 1
            end = final(nhard, nace)
            if end >= 0:
                acc[end] += p
                continue
            counts[r] = k - 1
            sub = draw(nhard, nace, left - 1)
            counts[r] = k
            acc = [a + p * b for a, b in zip(acc, sub, strict=True)]
        memo[key] = acc
        return acc

    def start(hard: int, ace: bool, left: int) -> list[float]:
        end = final(hard, ace)
        if end >= 0:
            out = [0.0] * 6
            out[end] = 1.0
            return out
        return draw(hard, ace, left)

    left = sum(counts)
    acc = [0.0] * 6
    weight = 0.0
    for hole in range(1, 11):
        k = counts[hole]
        if not k:
            continue
        if no_blackjack and {up, hole} == {1, 10}:
            continue
        p = k / left
        weight += p
        counts[hole] = k - 1
        sub = start(up + hole, up == 1 or hole == 1, left - 1)
        counts[hole] = k
        for i in range(6):
            acc[i] += p * sub[i]
    return tuple(x / weight for x in acc)


class _Play:
    """The player's best play of a hand against fixed dealer totals, drawing from a
    fixed composition."""

    def __init__(self, shoe: Counts, dealer: tuple[float, ...], rules: BlackjackRules) -> None:
        left = sum(shoe)
        self.p = [k / left for k in shoe]
        self.dealer = dealer
        self.rules = rules
        self._stand: dict[int, float] = {}
        self._best: dict[tuple[int, bool], float] = {}

    def stand(self, total: int) -> float:
        if total > 21:
            return -1.0
        got = self._stand.get(total)
        if got is None:
            d = self.dealer
            bust = d[5]
            win = bust + sum(d[i] for i in range(5) if _DEALER_TOTALS[i] < total)
            lose = sum(d[i] for i in range(5) if _DEALER_TOTALS[i] > total)
            got = self._stand[total] = win - lose
        return got

    @staticmethod
    def value(hard: int, ace: bool) -> int:
        return hard + 10 if ace and hard + 10 <= 21 else hard

    def best(self, hard: int, ace: bool) -> float:
        """Stand or hit, the better (a hand past two cards)."""
        total = self.value(hard, ace)
        if total > 21:
            return -1.0
        key = (hard, ace)
        got = self._best.get(key)
        if got is None:
            got = self.stand(total)
            if total < 21:
                got = max(got, self.hit(hard, ace))
            self._best[key] = got
        return got

    def hit(self, hard: int, ace: bool) -> float:
        return sum(self.p[r] * self.best(hard + r, ace or r == 1) for r in range(1, 11))

    def double(self, hard: int, ace: bool) -> float:
        return 2 * sum(
            self.p[r] * self.stand(self.value(hard + r, ace or r == 1)) for r in range(1, 11)
        )

    def may_double(self, hard: int, ace: bool) -> bool:
        rule = self.rules.double_on
        if rule == "any":
            return True
        total = self.value(hard, ace)
        low = 9 if rule == "9-11" else 10
        return total == hard and low <= total <= 11

    def two_cards(self, a: int, b: int, after_split: bool) -> float:
        """Stand, hit or (where allowed) double on two cards; no split."""
        hard, ace = a + b, a == 1 or b == 1
        best = self.best(hard, ace)
        if (not after_split or self.rules.double_after_split) and self.may_double(hard, ace):
            best = max(best, self.double(hard, ace))
        return best

    def best_two_cards(self, a: int, b: int) -> float:
        best = self.two_cards(a, b, after_split=False)
        if a == b:
            best = max(best, self.split(a))
        if self.rules.surrender == "late" and self.rules.peek:
            best = max(best, -0.5)
        return best

    def split(self, card: int, held: int = 2) -> float:
        """BJ-SPLIT-1: the expected result of splitting a pair of ``card`` (both hands,
        re-splits included); ``held``: the seat's hands once this split is made."""
        rules = self.rules
        q = self.p[card]
        if card == 1:  # split aces: one card each, 21 is not a blackjack
            others = sum(self.p[r] * self.stand(self.value(1 + r, True)) for r in range(2, 11))
            again_stand = self.stand(12)  # a second ace: 12 if not re-split
        else:
            others = sum(
                self.p[r] * self.two_cards(card, r, after_split=True)
                for r in range(1, 11)
                if r != card
            )
            again_stand = self.two_cards(card, card, after_split=True)
        x = others / (1 - q) if q < 1 else 0.0  # EV of a hand whose second card is no pair
        resplit = rules.resplit_aces if card == 1 else True
        memo: dict[tuple[int, int], float] = {}

        def hands(held: int, pending: int) -> float:
            if pending == 0:
                return 0.0
            key = (held, pending)
            if key in memo:
                return memo[key]
            value = (1 - q) * (x + hands(held, pending - 1))
            no_split = again_stand + hands(held, pending - 1)
            if resplit and held < rules.max_hands:
                value += q * max(no_split, hands(held + 1, pending + 1))
            else:
                value += q * no_split
            memo[key] = value
            return value

        return hands(held, 2)


# ------------------------------------------------------------------ the chart
HARD_ROWS = tuple(range(5, 18))  # hard 5..17 (18 and more always stand)
SOFT_ROWS = tuple(range(13, 21))  # A,2 .. A,9
PAIR_ROWS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # 2,2 .. 10,10 then A,A
UP_CARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def _two_cards(kind: str, value: int) -> tuple[int, int]:
    if kind == "pair":
        return value, value
    if kind == "soft":
        return 1, value - 11
    for low in range(2, 11):  # a hard total from two different cards, none an ace
        high = value - low
        if low < high <= 10:
            return low, high
    return 2, value - 2  # hard 4 is only 2,2


@lru_cache(maxsize=16)
def basic_strategy(rules: BlackjackRules) -> dict[tuple[str, int, int], str]:
    """The basic-strategy chart of a table's rules (BJ-EDGE-1's player), from the same
    computation as the edge: for (kind "hard"/"soft"/"pair", total or pair card, dealer
    up card) the best first move: "S" stand, "H" hit, "D" double (else hit), "Ds"
    double (else stand), "P" split, "R" surrender (else hit)."""
    rules = _edge_rules(rules)
    full = _full_counts(rules.decks)
    rows = [("hard", v) for v in HARD_ROWS]
    rows += [("soft", v) for v in SOFT_ROWS] + [("pair", v) for v in PAIR_ROWS]
    chart: dict[tuple[str, int, int], str] = {}
    for kind, value in rows:
        a, b = _two_cards(kind, value)
        for up in UP_CARDS:
            c = list(full)
            for card in (a, b, up):
                c[card] -= 1
            shoe = tuple(c)
            bj_card = 10 if up == 1 else 1 if up == 10 else 0
            dealer = _dealer_totals(up, shoe, rules.dealer == "h17", bool(bj_card) and rules.peek)
            play = _Play(shoe, dealer, rules)
            hard, ace = a + b, a == 1 or b == 1
            stand = play.stand(play.value(hard, ace))
            hit = play.hit(hard, ace)
            moves = {"S": stand, "H": hit}
            if play.may_double(hard, ace):
                moves["D"] = play.double(hard, ace)
            if a == b:
                moves["P"] = play.split(a)
            if rules.surrender == "late" and rules.peek:
                moves["R"] = -0.5
            best = max(moves, key=lambda m: moves[m])
            if best == "D" and stand > hit:
                best = "Ds"
            chart[(kind, value, up)] = best
    return chart


__all__ = [
    "EDGE_OPTIONS",
    "PAIR_ROWS",
    "SOFT_ROWS",
    "UP_CARDS",
    "HouseEdge",
    "basic_strategy",
    "house_edge",
    "known_house_edge",
    "rule_alternatives",
    "rule_effects",
]
