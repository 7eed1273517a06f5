"""The hint: what each legal action of the hand being played is worth, in chips.

``hint`` is a pure function of what the member has legitimately seen: the rules, the
hand being played (its cards and stake), the cards seen since the last shuffle (their own
cards, every face-up card, cut and burnt cards the table showed) and the actions the
table offers (``Table.legal_actions``). It never reads the pack or anyone's hidden card,
so its figures cannot depend on them (tests/engine/test_pontoon_hint.py reorders and
swaps the unseen cards to check this).

The model (docs/house-edge.md says more):

- The unseen cards are the pack(s) less the seen ones. Every unseen card is equally likely
  to be any card not yet known: the banker's two face-down cards, the member's next
  cards and the banker's draws are drawn without replacement from that pool. Other
  players' hidden cards are unseen cards too; by symmetry drawing round them does not
  change the odds.
- The banker does not hold a pontoon: the players' turns only happen when the banker's
  pontoon was not shown at P-DEAL-4, so the banker's two cards are conditioned on that.
- The banker plays the documented strategy: the house draws while its best total is below
  ``house_stands_on`` (banker_turn.house_plays); a player-banker is assumed to draw below
  17 (``Hint.banker`` says which assumption was used). The banker stops at a bust, five
  cards or 21 (P-BANKER-3).
- Settlement is section 7 through ``Payouts`` (P-PAY-BUST/STAY/FIVE, P-RANK-6 ties to the
  banker, P-VAR-3/4/6/7).
- Stick, twist, buy (the least and the most amount: the value of a buy is the best of
  straight lines in its amount, so an amount in between is never better than both ends)
  and declare (P-TURN-DECLARE) are computed exactly, with the best play afterwards (later
  buys and twists, P-BUY-2/3, P-TWIST-2, P-VAR-5). The chips of a later buy are assumed
  affordable (P-PAY-LIMIT is checked only for the action offered now). Only the hand's
  stake is valued: shoot bets (P-SHOOT-*) ride along and are not counted.
- Split (P-SPLIT-1) and burn (P-VAR-8) are approximated (``ActionValue.exact`` is False):
  each split hand is valued as if it were played alone (the cards the other hand takes
  are not taken out of the pool), and each split hand and the new hand after a burn is
  played against the banker's result from the pool as it stands now (the cards the hand
  goes on to draw are not taken out of the banker's), without a further split or burn
  (P-SPLIT-2, P-VAR-8). docs/house-edge.md gives the size of the error this makes.

Work is memoised over the remaining-pool composition (module-level caches, cleared when
they grow past ``_CACHE_LIMIT`` entries).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.cards import Card, Rank, Suit, full_pack, parse_card
from engine.errors import ConfigError
from engine.pontoon.hands import BUST, FIVE, PONTOON, ROYAL, STRONG_PONTOON, best_total, score
from engine.pontoon.payouts import Payouts
from engine.pontoon.rules import PontoonRules
from engine.pontoon.table import Table
from engine.pontoon.types import ActionKind, LegalAction
from engine.pontoon.views import HandView

PLAYER_BANKER_STANDS_ON = 17  # what a player-banker is assumed to do: draw below 17

_CACHE_LIMIT = 400_000
MIN_POOL = 12  # the hint always leaves at least this many cards unknown (see _known)  # below this many unseen cards the banker is followed card by card
_RANKS: tuple[Rank, ...] = tuple(Rank)
# Banker outcomes are vectors indexed: 0 bust, 1 five card trick, 2 + total (totals 2..21).
_N_OUT = 24
_I_BUST = 0
_I_FIVE = 1

Deck = tuple[int, ...]
Vec = tuple[float, ...]


def _unit(i: int) -> Vec:
    v = [0.0] * _N_OUT
    v[i] = 1.0
    return tuple(v)


_UNITS: tuple[Vec, ...] = tuple(_unit(i) for i in range(_N_OUT))


@dataclass(frozen=True, slots=True)
class _Classes:
    """How cards are grouped: by pontoon value (ten-cards together) unless P-VAR-7 needs
    the rank of a ten-card, then by rank."""

    by_rank: bool
    cards: tuple[Card, ...]  # one representative card per class
    values: tuple[int, ...]

    def index(self, card: Card) -> int:
        if self.by_rank:
            return _RANKS.index(card.rank)
        return card.value - 1


@lru_cache(maxsize=4)
def _classes(by_rank: bool) -> _Classes:
    if by_rank:
        reps = tuple(Card(r, Suit.SPADES) for r in _RANKS)
    else:
        reps = tuple(Card(r, Suit.SPADES) for r in _RANKS[:10])
    return _Classes(by_rank, reps, tuple(c.value for c in reps))


class _Model:
    """The banker's side for one grouping of cards, one strength of pontoon and one
    banker strategy, memoised over pool compositions."""

    def __init__(self, classes: _Classes, strength: str, stands_on: int, five: bool) -> None:
        self.cl = classes
        self.five = five
        self.values = classes.values
        self.stands_on = stands_on
        n = len(classes.values)
        self.pontoon = [
            [score((classes.cards[i], classes.cards[j]), strength) >= PONTOON for j in range(n)]
            for i in range(n)
        ]
        # the most cards of each class two packs hold (the multiset table's bound)
        self.most = [32 if v == 10 and not classes.by_rank else 8 for v in classes.values]
        self.pontoon_pairs = [(i, j) for i in range(n) for j in range(n) if self.pontoon[i][j]]
        self.play_cache: dict[tuple[Deck, int, bool, int], Vec] = {}
        self.start_cache: dict[Deck, npt.NDArray[np.float64]] = {}

    def play(self, deck: Deck, hard: int, ace: bool, n: int) -> Vec:
        """Distribution of the banker's final result from a hand (hard total, ace held,
        card count) drawing from ``deck`` (P-BANKER-2/3 with the assumed strategy)."""
        if hard > 21:
            return _UNITS[_I_BUST]
        if n >= 5 and self.five:
            return _UNITS[_I_FIVE]
        total = hard + 10 if ace and hard <= 11 else hard
        if total >= self.stands_on or total == 21:
            return _UNITS[2 + total]
        key = (deck, hard, ace, n)
        hit = self.play_cache.get(key)
        if hit is not None:
            return hit
        size = sum(deck)
        if size == 0:
            return _UNITS[2 + total]  # nothing left to draw: the banker stays
        acc = [0.0] * _N_OUT
        values = self.values
        for i, c in enumerate(deck):
            if not c:
                continue
            p = c / size
            sub = self.play(
                (*deck[:i], c - 1, *deck[i + 1 :]), hard + values[i], ace or i == 0, n + 1
            )
            for k in range(_N_OUT):
                s = sub[k]
                if s:
                    acc[k] += p * s
        res = tuple(acc)
        self.play_cache[key] = res
        return res

    def pontoon_chance(self, deck: Deck) -> float:
        """The chance that the banker's two cards from ``deck`` make a pontoon."""
        size = sum(deck)
        if size < 2:
            return 0.0
        p = 0.0
        for i, j in self.pontoon_pairs:
            p += deck[i] * (deck[j] - (i == j))
        return p / (size * (size - 1))

    def start(self, deck: Deck) -> npt.NDArray[np.float64]:
        """The banker's two face-down cards from ``deck`` and its play: the chance of
        each final outcome over the starts that are not a pontoon (not normalised)."""
        hit = self.start_cache.get(deck)
        if hit is not None:
            return hit
        size = sum(deck)
        if size < 2:
            raise ConfigError("too few unseen cards for the banker's two cards")
        if size >= self.table[4]:  # the pool cannot run dry under the banker
            res = self._start_by_multisets(deck, size)
        else:
            res = np.asarray(self._start_by_recursion(deck, size), dtype=np.float64)
        self.start_cache[deck] = res
        return res

    def _start_by_recursion(self, deck: Deck, size: int) -> Vec:
        acc = [0.0] * _N_OUT
        values = self.values
        for i, c in enumerate(deck):
            if not c:
                continue
            p1 = c / size
            d1 = (*deck[:i], c - 1, *deck[i + 1 :])
            for j, c2 in enumerate(d1):
                if not c2 or self.pontoon[i][j]:
                    continue
                p = p1 * c2 / (size - 1)
                d2 = (*d1[:j], c2 - 1, *d1[j + 1 :])
                sub = self.play(d2, values[i] + values[j], i == 0 or j == 0, 2)
                for k in range(_N_OUT):
                    s = sub[k]
                    if s:
                        acc[k] += p * s
        return tuple(acc)

    def _start_by_multisets(self, deck: Deck, size: int) -> npt.NDArray[np.float64]:
        """Every way the banker's cards can fall, grouped by the multiset of cards it
        takes: the chance of a multiset depends on the pool only through falling
        factorials, so one pass over the table of multisets gives the distribution.
        Exact when the pool holds at least as many cards as the banker can take."""
        gather, weights, sizes, depth, longest = self.table
        steps = np.arange(max(depth, longest), dtype=np.float64)
        d = np.asarray(deck, dtype=np.float64)
        # ff[c, m] = d_c (d_c - 1) ... (d_c - m + 1), zero once a class runs out
        ff = np.ones((len(deck), depth + 1))
        ff[:, 1:] = np.cumprod(np.clip(d[:, None] - steps[None, :depth], 0.0, None), axis=1)
        flat = np.append(ff.ravel(), 1.0)
        n_ff = np.ones(longest + 1)
        n_ff[1:] = np.cumprod(size - steps[:longest])
        chance = flat[gather].prod(axis=1) / n_ff[sizes]
        out: npt.NDArray[np.float64] = chance @ weights
        return out

    @cached_property
    def table(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64], int, int]:
        """Each multiset of cards the banker can end with (counts per class), how many
        orders of it lead to each outcome, its size, the most of one class and the
        longest multiset."""
        found: dict[tuple[int, ...], list[float]] = {}
        nc = len(self.values)
        values = self.values

        def walk(counts: list[int], hard: int, ace: bool, n: int) -> None:
            total = hard + 10 if ace and hard <= 11 else hard
            if hard > 21:
                out = _I_BUST
            elif n >= 5 and self.five:
                out = _I_FIVE
            elif total >= self.stands_on or total == 21:
                out = 2 + total
            else:
                for i in range(nc):
                    if counts[i] >= self.most[i]:
                        continue
                    counts[i] += 1
                    walk(counts, hard + values[i], ace or i == 0, n + 1)
                    counts[i] -= 1
                return
            key = tuple(counts)
            row = found.get(key)
            if row is None:
                row = found[key] = [0.0] * _N_OUT
            row[out] += 1.0

        counts = [0] * nc
        for i in range(nc):
            for j in range(nc):
                if self.pontoon[i][j] or (i == j and self.most[i] < 2):
                    continue
                counts[i] += 1
                counts[j] += 1
                walk(counts, values[i] + values[j], i == 0 or j == 0, 2)
                counts[i] -= 1
                counts[j] -= 1
        keys = list(found)
        depth = max(max(k) for k in keys)
        pad = nc * (depth + 1)  # the index of a 1.0 after the falling factorials
        width = max(sum(1 for m in k if m) for k in keys)
        rows = []
        for k in keys:
            idx = [c * (depth + 1) + m for c, m in enumerate(k) if m]
            rows.append(idx + [pad] * (width - len(idx)))
        gather = np.array(rows, dtype=np.int64)
        weights = np.array([found[k] for k in keys], dtype=np.float64)
        sizes = np.array([sum(k) for k in keys], dtype=np.int64)
        return gather, weights, sizes, depth, int(sizes.max())

    def clear_if_big(self) -> None:
        if len(self.play_cache) > _CACHE_LIMIT:
            self.play_cache.clear()
        if len(self.start_cache) > _CACHE_LIMIT // 10:
            self.start_cache.clear()


_MODELS: dict[tuple[bool, str, int, bool], _Model] = {}


def _model(by_rank: bool, strength: str, stands_on: int, five: bool = True) -> _Model:
    key = (by_rank, strength, stands_on, five)
    m = _MODELS.get(key)
    if m is None:
        m = _MODELS[key] = _Model(_classes(by_rank), strength, stands_on, five)
    m.clear_if_big()
    return m


# Rows of a Settle's pay matrix: a player's score (hands.score) -> row.
_ROW_BUST = 0  # rows 2..21 are the totals
_ROW_FIVE = 22
_ROW_PONTOON = 23
_ROW_STRONG = 24
_ROW_ROYAL = 25
_N_ROWS = 26


def _row(s: int) -> int:
    if s == BUST:
        return _ROW_BUST
    if s == FIVE:
        return _ROW_FIVE
    if s == ROYAL:
        return _ROW_ROYAL
    if s == STRONG_PONTOON:
        return _ROW_STRONG
    if s == PONTOON:
        return _ROW_PONTOON
    return s


_ROW_SCORE = {_ROW_BUST: BUST, _ROW_FIVE: FIVE, _ROW_PONTOON: PONTOON}
_ROW_SCORE.update({_ROW_STRONG: STRONG_PONTOON, _ROW_ROYAL: ROYAL})


@dataclass(frozen=True, slots=True)
class Settle:
    """What a hand's result pays per chip of its stake (section 7), with the knobs
    docs/house-edge.md turns: ``ties_to_banker`` (P-RANK-6; False: the banker pays ties),
    ``five_card_trick`` special (P-RANK-2, P-PAY-*; False: five cards are an ordinary
    hand and the banker draws on), ``doubled`` (P-VAR-3)."""

    payouts: Payouts
    doubled: bool = False
    ties_to_banker: bool = True
    five_card_trick: bool = True
    royal: bool = False

    def bust_loss(self) -> float:
        return -float(self.payouts.player_loss(BUST, self.doubled))

    def pays(self, s: int, out: int) -> int:
        """Chips per chip of stake a hand of score ``s`` gets against banker outcome
        ``out`` (an index of the banker's outcome vectors)."""
        pay = self.payouts
        d = self.doubled
        if s == BUST:
            return -pay.player_loss(BUST, d)
        win = pay.player_win(s, d)
        if s >= PONTOON or out == _I_BUST:  # P-PAY-BUST; a pontoon beats every banker left
            return win
        if out == _I_FIVE:  # P-PAY-FIVE
            return -pay.player_loss(FIVE, d)
        t = out - 2
        if s > t or (s == t and not self.ties_to_banker):
            return win
        return -pay.player_loss(t, d)

    def matrix(self) -> npt.NDArray[np.float64]:
        """Rows: the player's score rows; columns: the banker's outcomes."""
        m = np.zeros((_N_ROWS, _N_OUT))
        for r in range(_N_ROWS):
            if r == 1:
                continue
            s = _ROW_SCORE.get(r, r)
            for o in range(_N_OUT):
                m[r, o] = self.pays(s, o)
        return m

    def outcomes(self, s: int, bank: npt.NDArray[np.float64]) -> dict[int, float]:
        """Chance of each result (chips per chip of stake) for score ``s``."""
        out: dict[int, float] = {}
        for o in range(_N_OUT):
            p = float(bank[o])
            if p:
                k = self.pays(s, o)
                out[k] = out.get(k, 0.0) + p
        return out

    def player_score(self, cards: Sequence[Card], strength: str) -> int:
        s = score(cards, strength, self.royal)
        if s == FIVE and not self.five_card_trick:
            return best_total(cards)  # five cards are an ordinary hand
        return s


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action and what it is expected to bring: ``chips`` is the hand's
    expected net result in chips (negative: expected loss), ``per_chip`` the same per
    chip of the stake the hand has now. ``exact`` is False for an approximation (split)."""

    kind: ActionKind
    amount: int | None
    chips: float
    per_chip: float
    exact: bool = True


BankerAssumption = Literal["house", "player_banker_draws_below_17"]


@dataclass(frozen=True, slots=True)
class Hint:
    """The actions ranked, best first, and the assumptions behind the figures."""

    actions: tuple[ActionValue, ...]
    banker: BankerAssumption  # which banker strategy the figures assume
    banker_stands_on: int  # the banker draws while below this
    unseen: int  # how many cards the figures draw from
    stake: int = 1  # the hand's stake now (``per_chip`` is ``chips`` / ``stake``)

    @property
    def best(self) -> ActionValue:
        return self.actions[0]

    @property
    def margin(self) -> float:
        """How many chips more per chip staked the best action is expected to win than
        the next best (0 when only one action is offered): the beginner's sentence
        "Twist: you win 0.12 chips more per chip staked than sticking"."""
        if len(self.actions) < 2:
            return 0.0
        return (self.actions[0].chips - self.actions[1].chips) / self.stake


@dataclass(frozen=True, slots=True)
class HandSeen:
    """The hand being played, as its holder knows it."""

    cards: tuple[Card, ...]
    stake: int
    doubled: bool = False  # P-VAR-3: the banker doubled this round (announced at the table)


# ---------------------------------------------------------------------------- the search


class _Search:
    """Best play of one hand from a pool, values not normalised by the banker's
    no-pontoon chance (the factor is common to every choice at a node)."""

    def __init__(
        self,
        rules: PontoonRules,
        model: _Model,
        settle: Settle,
        fixed_bank: list[float] | None = None,
    ) -> None:
        """``fixed_bank``: per score row, the value of standing against one banker
        distribution for every pool (the split's approximation); None: exact."""
        self.rules = rules
        self.fixed_bank = fixed_bank
        self.put_back = False  # draw as if each card were put back (faster, approximate)
        self.bust = settle.bust_loss()
        self.m = model
        self.cl = model.cl
        self.settle = settle
        self.strength = rules.pontoon_strength
        self.stick_min = rules.stick_min
        self.burn = 0 if rules.burn == "off" else int(rules.burn)
        self.no_buy_fifth = rules.no_buy_five_on_eleven
        self.memo: dict[tuple[Deck, tuple[int, ...], tuple[int, int, int, bool]], float] = {}
        self.by_deck: dict[Deck, list[float]] = {}
        self.info: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.grown: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self.fifth: dict[tuple[Deck, tuple[int, ...]], float] = {}
        self.pay = settle.matrix()

    def hand_info(self, hand: tuple[int, ...]) -> tuple[int, int, int]:
        """(best total, hard total, score row of the pay matrix) of a hand."""
        hit = self.info.get(hand)
        if hit is None:
            values = self.cl.values
            hard = sum(values[i] for i in hand)
            total = hard + 10 if 0 in hand and hard <= 11 else hard
            cards = [self.cl.cards[i] for i in hand]
            s = self.settle.player_score(cards, self.strength)
            hit = self.info[hand] = (total, hard, _row(s))
        return hit

    def final(self, deck: Deck, row: int) -> float:
        """Per chip of stake: a hand of score row ``row`` stands and the banker plays."""
        if self.fixed_bank is not None:
            return self.fixed_bank[row]
        evs = self.by_deck.get(deck)
        if evs is None:
            bank = self.m.start(deck)
            evs = self.by_deck[deck] = (self.pay @ bank).tolist()
        return evs[row]

    def value(
        self, deck: Deck, hand: tuple[int, ...], stake: int, orig: int, cap: int, can_buy: bool
    ) -> float:
        """Expected chips with the best play from here (``cap``: most the next buy may
        add; ``can_buy`` False after a twist, P-TWIST-2)."""
        if not can_buy and (stake != 1 or orig or cap):
            # without buys the stake never changes: one chip's value, scaled
            return stake * self.value(deck, hand, 1, 0, 0, False)
        key = (deck, hand, (stake, orig, cap, can_buy))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        best = max(v for _, _, v in self.choices(deck, hand, stake, orig, cap, can_buy))
        self.memo[key] = best
        return best

    def choices(
        self, deck: Deck, hand: tuple[int, ...], stake: int, orig: int, cap: int, can_buy: bool
    ) -> list[tuple[ActionKind, int | None, float]]:
        """Every choice the rules allow at this point with its expected chips."""
        total, hard, row = self.hand_info(hand)
        n = len(hand)
        if row == _ROW_BUST:  # P-BUST-1: the stake is lost whatever the banker holds
            if self.fixed_bank is not None:
                return [(ActionKind.STICK, None, stake * self.fixed_bank[_ROW_BUST])]
            lost = self.bust * (1.0 - self.m.pontoon_chance(deck))
            return [(ActionKind.STICK, None, stake * lost)]
        if row >= _ROW_PONTOON and n == 2:
            return [(ActionKind.DECLARE, None, stake * self.final(deck, row))]
        if (n >= 5 and self.settle.five_card_trick) or total == 21 or row == _ROW_ROYAL:
            # P-FIVE-1, P-STICK-1: the hand stands at once
            return [(ActionKind.STICK, None, stake * self.final(deck, row))]
        out: list[tuple[ActionKind, int | None, float]] = []
        size = sum(deck)
        if total >= self.stick_min or size == 0:
            out.append((ActionKind.STICK, None, stake * self.final(deck, row)))
        if size == 0:
            return out
        out.append((ActionKind.TWIST, None, self.draw(deck, hand, stake, orig, cap, False)))
        if can_buy and not (n == 4 and self.no_buy_fifth and hard <= 11):
            lo, hi = orig, (2 * orig if cap == 0 else cap)
            for amount in sorted({lo, hi}):
                v = self.draw(deck, hand, stake + amount, orig, amount, True)
                out.append((ActionKind.BUY, amount, v))
        if self.burn and n == 2 and 0 not in hand and hard == self.burn and size >= 2:
            burnt = _approx(self, deck).redeal(deck, (), 2, stake, orig, can_buy)
            out.append((ActionKind.BURN, None, burnt))
        return out

    def draw(
        self, deck: Deck, hand: tuple[int, ...], stake: int, orig: int, cap: int, can_buy: bool
    ) -> float:
        if len(hand) == 4 and self.settle.five_card_trick:
            # P-FIVE-1: the fifth card ends the hand, so the draw is worth the same per chip
            # whatever the stake and the buys left
            return stake * self.last_card(deck, hand)
        size = sum(deck)
        ev = 0.0
        value = self.value
        grow = self.grow
        memo = self.memo
        info = self.hand_info
        if can_buy:
            tail, scale = (stake, orig, cap, True), 1
        else:  # without buys the stake never changes: one chip's value, scaled
            tail, scale = (1, 0, 0, False), stake
        bust = self.bust if self.fixed_bank is None else self.fixed_bank[_ROW_BUST]
        fixed = self.put_back
        for i, c in enumerate(deck):
            if c:
                nd = deck if fixed else (*deck[:i], c - 1, *deck[i + 1 :])
                nh = grow(hand, i)
                if info(nh)[2] == _ROW_BUST:  # P-BUST-1
                    if self.fixed_bank is None:
                        v = bust * (1.0 - self.m.pontoon_chance(nd))
                    else:
                        v = bust
                    ev += c * v * (stake if can_buy else 1)
                    continue
                hit = memo.get((nd, nh, tail))
                if hit is None:
                    hit = value(nd, nh, *tail)
                ev += c * hit
        return ev * scale / size

    def last_card(self, deck: Deck, hand: tuple[int, ...]) -> float:
        """Per chip: a fifth card to a four-card hand, which then stands (P-FIVE-1)."""
        key = (deck, hand)
        hit = self.fifth.get(key)
        if hit is not None:
            return hit
        size = sum(deck)
        ev = 0.0
        for i, c in enumerate(deck):
            if c:
                nd = deck if self.put_back else (*deck[:i], c - 1, *deck[i + 1 :])
                row = self.hand_info(self.grow(hand, i))[2]
                if row == _ROW_BUST:
                    if self.fixed_bank is not None:
                        ev += c * self.fixed_bank[_ROW_BUST]
                    else:
                        ev += c * self.bust * (1.0 - self.m.pontoon_chance(nd))
                else:
                    ev += c * self.final(nd, row)
        res = ev / size
        self.fifth[key] = res
        return res

    def grow(self, hand: tuple[int, ...], i: int) -> tuple[int, ...]:
        """The hand with one more card of class ``i`` (hands are sorted tuples)."""
        key = (hand, i)
        hit = self.grown.get(key)
        if hit is None:
            hit = self.grown[key] = tuple(sorted((*hand, i)))
        return hit

    def redeal(
        self, deck: Deck, hand: tuple[int, ...], k: int, stake: int, orig: int, can_buy: bool
    ) -> float:
        """``k`` face-down cards to ``hand`` (a burn or a split), then the best play."""
        if k == 0:
            return self.value(deck, hand, stake, orig, 0, can_buy)
        size = sum(deck)
        ev = 0.0
        for i, c in enumerate(deck):
            if c:
                nd = deck if self.put_back else (*deck[:i], c - 1, *deck[i + 1 :])
                ev += c * self.redeal(nd, self.grow(hand, i), k - 1, stake, orig, can_buy)
        return ev / size


def _split_hand(search: _Search, pool: Deck, card: int, stake: int, orig: int) -> float:
    """One hand of a split (P-SPLIT-1): ``card`` and one more, then the best play, the
    banker's result taken from the pool as it stands now (see the module docstring)."""
    return _approx(search, pool).redeal(pool, (card,), 1, stake, orig, True)


def _approx(search: _Search, pool: Deck) -> _Search:
    """The search that values a split hand or the new cards of a burn: the banker's
    result taken from ``pool`` for every later pool, and no further burn or split."""
    bank = search.m.start(pool)
    fixed = (search.pay @ bank).tolist()
    approx = _Search(search.rules, search.m, search.settle, fixed_bank=fixed)
    approx.burn = 0
    return approx


def _known(own: Sequence[Card], seen: list[Card], packs: int) -> list[Card]:
    """The cards taken out of the pool: the hand's own, then the seen ones newest first
    (``seen`` is oldest first), each card at most ``packs`` times (a card seen again has
    come round again, P-NEXT-1), stopping while ``MIN_POOL`` cards are still unknown:
    the cards seen longest ago are forgotten first, as they are the first to come round
    again from the bottom of the pack."""
    count: dict[Card, int] = {}
    out: list[Card] = []
    room = 52 * packs - MIN_POOL
    for c in [*own, *reversed(seen)]:
        n = count.get(c, 0)
        if n >= packs:
            continue
        if c in own and n < own.count(c):
            pass  # the hand's own cards always leave the pool
        elif len(out) >= room:
            break
        count[c] = n + 1
        out.append(c)
    return out


def _pool(classes: _Classes, seen: Iterable[Card], packs: int) -> Deck:
    counts = [0] * len(classes.values)
    for c in full_pack(packs):
        counts[classes.index(c)] += 1
    for c in seen:
        i = classes.index(c)
        if counts[i] == 0:
            raise ConfigError(f"{c.code} is seen more often than {packs} pack(s) hold")
        counts[i] -= 1
    return tuple(counts)


def banker_strategy(rules: PontoonRules) -> tuple[BankerAssumption, int]:
    if rules.house_bank:
        return "house", rules.house_stands_on
    return "player_banker_draws_below_17", PLAYER_BANKER_STANDS_ON


def hint(
    rules: PontoonRules,
    hand: HandSeen,
    seen: Iterable[Card],
    legal: Sequence[LegalAction],
    packs: int = 1,
    *,
    settle: Settle | None = None,
) -> Hint:
    """The expected chips of each legal action of ``hand``, best first.

    ``seen``: every card the member has seen since the last shuffle, the hand's own cards
    included (a card missing from it only makes the pool larger). ``legal``: what the
    table offers the member now (``Table.legal_actions``); only those actions are valued.
    ``packs``: how many packs the table plays with (P-TABLE-1)."""
    assumption, stands_on = banker_strategy(rules)
    by_rank = rules.pontoon_strength != "standard"
    classes = _classes(by_rank)
    pool = _pool(classes, _known(hand.cards, list(seen), packs), packs)
    settle = settle or Settle(
        Payouts.for_rules(rules), doubled=hand.doubled, royal=rules.royal_pontoon
    )
    model = _model(by_rank, rules.pontoon_strength, stands_on, settle.five_card_trick)
    search = _Search(rules, model, settle)
    hidx = tuple(sorted(classes.index(c) for c in hand.cards))
    norm = 1.0 - model.pontoon_chance(pool)
    if norm <= 0:
        raise ConfigError("the unseen cards can only make the banker a pontoon")
    offered = {la.kind: la for la in legal}
    buy = offered.get(ActionKind.BUY)
    orig = buy.min_amount if buy is not None and buy.min_amount is not None else hand.stake
    cap = buy.max_amount if buy is not None and buy.max_amount is not None else 0
    values: list[ActionValue] = []
    stake = hand.stake
    choices = search.choices(pool, hidx, stake, orig, cap, buy is not None)
    by_kind: dict[tuple[ActionKind, int | None], float] = {(k, a): v for k, a, v in choices}
    for kind, la in offered.items():
        if kind is ActionKind.BUY:
            assert la.min_amount is not None and la.max_amount is not None
            for amount in sorted({la.min_amount, la.max_amount}):
                v = search.draw(pool, hidx, stake + amount, orig, amount, True)
                values.append(ActionValue(kind, amount, v / norm, v / norm / stake))
        elif kind is ActionKind.SPLIT:
            v = 2 * _split_hand(search, pool, hidx[0], stake, orig)
            values.append(ActionValue(kind, None, v / norm, v / norm / stake, exact=False))
        elif (kind, None) in by_kind:
            v = by_kind[(kind, None)]
            exact = kind is not ActionKind.BURN
            values.append(ActionValue(kind, None, v / norm, v / norm / stake, exact))
        elif kind is ActionKind.STICK:  # offered with an empty pool or below the minimum
            v = stake * search.final(pool, search.hand_info(hidx)[2])
            values.append(ActionValue(kind, None, v / norm, v / norm / stake))
    values.sort(key=lambda a: -a.chips)
    return Hint(tuple(values), assumption, stands_on, sum(pool), stake)


# ------------------------------------------------------------------ from a table's views


def cards_in_view(table: Table, seat: str) -> list[Card]:
    """Every card ``seat`` can see on the table now, from its observation
    (``table.observe(seat)``): its own hands and every face-up card of the others and of
    the banker. With two packs a card seen twice (two copies) is listed twice."""
    seen = table.observe(seat)
    out = [parse_card(c) for hv in seen.hands for c in hv.cards]
    public = seen.table
    others: list[HandView] = [hv for sv in public.seats if sv.seat != seat for hv in sv.hands]
    if public.banker_hand is not None and public.banker != seat:
        others.append(public.banker_hand)
    for hv in others:
        out.extend(parse_card(c) for c in hv.cards)
    return out


def hint_for(table: Table, seat: str, also_seen: Iterable[Card] = ()) -> Hint:
    """The hint for ``seat``'s hand being played, from what the table shows ``seat``
    (``private_view``, ``public_view``, ``legal_actions``) and ``also_seen``: the cards
    ``seat`` saw since the last shuffle that the table no longer shows (earlier rounds'
    cards, burnt cards, the cut). Raises ConfigError when it is not ``seat``'s turn."""
    turn = table.turn
    if turn is None or turn[0] != seat or seat == table.banker:
        raise ConfigError(f"it is not {seat}'s turn to play a hand")
    view = table.private_view(seat)[turn[1]]
    cards = tuple(parse_card(c) for c in view.cards)
    rules = table.rules
    packs = rules.packs or (2 if len(table.seats) >= 8 else 1)
    doubled = bool(table.to_json().get("doubled", False)) if rules.banker_doubles else False
    seen = list(also_seen) + cards_in_view(table, seat)
    hand = HandSeen(cards, view.stake, doubled)
    return hint(rules, hand, seen, table.legal_actions(seat), packs)


def clear_caches() -> None:
    """Forget every memoised pool (the benchmark measures hints from a cold start)."""
    for m in _MODELS.values():
        m.play_cache.clear()
        m.start_cache.clear()
