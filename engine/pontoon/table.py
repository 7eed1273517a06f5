"""The Pontoon table: a round state machine that plays shared/rules/pontoon.md.

Pure: no I/O, no global random. Randomness only comes in through the ``Chance`` passed to
``apply``. Every ``apply`` validates first and only then mutates, so an illegal action
raises ``RuleError`` and leaves the table exactly as it was.

Decisions taken where the rules leave room (each also noted where it is coded):

- P-DEAL-4: a banker's pontoon ends the hand at once. With P-VAR-7 (a) or (c) a player
  whose pontoon is stronger than the banker's is paid as a pontoon; equal or weaker
  pontoons pay the banker like every other hand (ties to the banker, P-RANK-6).
- P-VAR-3: a doubled round pays and collects twice the stake for ordinary results; a
  special result (pontoon, five card trick, royal pontoon, banker's pontoon, a banker's
  five card trick) uses its own multiplier of the undoubled stake, but never less than
  the doubled ordinary amount. The house never doubles.
- P-PAY-LIMIT: the banker must hold ``banker_cover_mult`` x every open stake (2, or 3
  with triple pontoons or royal pontoons); a player must hold ``player_loss_mult - 1``
  x their open stakes besides the stakes in escrow (1, or 2 with triple pontoons).
- P-SHOOT-5: a shoot bet on the new hand of a split rides on the SPLIT action's
  ``shoot`` field.
- P-SHOOT-8: in Shoot mode every deal starts in the KITTY phase; the banker adds 0 or
  more (total at most ``kitty_max``), or puts up a new kitty of ``kitty_min`` ..
  ``kitty_max`` when it is empty.
- A stick below the minimum is allowed when the pack has no card left to deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from engine.cards import Card, Chance, Pack, full_pack, parse_card
from engine.errors import ConfigError, RuleError
from engine.pontoon.hands import (
    BUST,
    FIVE,
    PONTOON,
    ROYAL,
    hard_total,
    is_royal,
    pontoon_class,
)
from engine.pontoon.rules import PontoonRules
from engine.pontoon.types import (
    ESCROW,
    HOUSE,
    KITTY,
    Action,
    ActionKind,
    Event,
    EventKind,
    LegalAction,
    Outcome,
    Phase,
    Transfer,
)
from engine.pontoon.views import HandStatus, HandView, SeatView, TableView

_OPEN: Final = HandStatus.OPEN
_STUCK: Final = HandStatus.STUCK
_BUST: Final = HandStatus.BUST
_FIVE: Final = HandStatus.FIVE_CARD_TRICK
_PONT: Final = HandStatus.PONTOON
_21: Final = HandStatus.TWENTY_ONE
_ROYAL: Final = HandStatus.ROYAL

_BIG: Final = 1 << 62

_K = ActionKind
_E = EventKind

# The rule that governs each action kind (used when it is tried in the wrong phase).
# Enum members as module constants: Enum attribute access is slow on the hot path.
_PH_BANKER: Final = Phase.BANKER
_PH_BETTING: Final = Phase.BETTING
_PH_DOUBLING: Final = Phase.DOUBLING
_PH_KITTY: Final = Phase.KITTY
_PH_PLAYING: Final = Phase.PLAYING
_PH_ROUND_OVER: Final = Phase.ROUND_OVER
_PH_SHOOTING: Final = Phase.SHOOTING
_PH_WAITING: Final = Phase.WAITING
_EV_BANKER_CHOSEN: Final = EventKind.BANKER_CHOSEN
_EV_BANKER_DRAW: Final = EventKind.BANKER_DRAW
_EV_BANKER_PONTOON: Final = EventKind.BANKER_PONTOON
_EV_BANKER_REVEAL: Final = EventKind.BANKER_REVEAL
_EV_BANKER_STAYS: Final = EventKind.BANKER_STAYS
_EV_BANK_PASSES: Final = EventKind.BANK_PASSES
_EV_BANK_SOLD: Final = EventKind.BANK_SOLD
_EV_BET: Final = EventKind.BET
_EV_BOUGHT: Final = EventKind.BOUGHT
_EV_BURNED: Final = EventKind.BURNED
_EV_BUST: Final = EventKind.BUST
_EV_CARD_DEALT: Final = EventKind.CARD_DEALT
_EV_CUT_CARD: Final = EventKind.CUT_CARD
_EV_DECLARED: Final = EventKind.DECLARED
_EV_DOUBLED: Final = EventKind.DOUBLED
_EV_FIVE_CARD_TRICK: Final = EventKind.FIVE_CARD_TRICK
_EV_HAND_RESULT: Final = EventKind.HAND_RESULT
_EV_KITTY: Final = EventKind.KITTY
_EV_LEFT: Final = EventKind.LEFT
_EV_ROUND_OVER: Final = EventKind.ROUND_OVER
_EV_SEATED: Final = EventKind.SEATED
_EV_SHOOT: Final = EventKind.SHOOT
_EV_SHUFFLED: Final = EventKind.SHUFFLED
_EV_SPLIT: Final = EventKind.SPLIT
_EV_STUCK: Final = EventKind.STUCK
_EV_TURN: Final = EventKind.TURN
_EV_TWENTY_ONE: Final = EventKind.TWENTY_ONE
_EV_TWISTED: Final = EventKind.TWISTED
_AK_BET: Final = ActionKind.BET
_AK_BURN: Final = ActionKind.BURN
_AK_BUY: Final = ActionKind.BUY
_AK_CUT: Final = ActionKind.CUT
_AK_DEAL: Final = ActionKind.DEAL
_AK_DECLARE: Final = ActionKind.DECLARE
_AK_DOUBLE: Final = ActionKind.DOUBLE
_AK_JOIN: Final = ActionKind.JOIN
_AK_KITTY: Final = ActionKind.KITTY
_AK_LEAVE: Final = ActionKind.LEAVE
_AK_NEXT_ROUND: Final = ActionKind.NEXT_ROUND
_AK_NO_DOUBLE: Final = ActionKind.NO_DOUBLE
_AK_SELL_BANK: Final = ActionKind.SELL_BANK
_AK_SHOOT: Final = ActionKind.SHOOT
_AK_SIT_OUT: Final = ActionKind.SIT_OUT
_AK_SPLIT: Final = ActionKind.SPLIT
_AK_STICK: Final = ActionKind.STICK
_AK_TWIST: Final = ActionKind.TWIST

_TOTAL_STR: Final = tuple(str(n) for n in range(32))  # str(total) for ordinary totals
_SHUFFLED: Final = "shuffled and cut"
_FACE_DOWN: Final = "banker, face down"
_R_BET: Final = "initial bet (P-DEAL-2)"
_R_BUY: Final = "buy (P-BUY-1)"

_KIND_RULE: Final[dict[ActionKind, str]] = {
    _AK_JOIN: "P-TABLE-1",
    _AK_LEAVE: "P-TABLE-1",
    _AK_CUT: "P-BANK-1",
    _AK_DEAL: "P-DEAL-1",
    _AK_KITTY: "P-SHOOT-1",
    _AK_BET: "P-DEAL-2",
    _AK_DOUBLE: "P-VAR-3",
    _AK_NO_DOUBLE: "P-VAR-3",
    _AK_SHOOT: "P-SHOOT-2",
    _AK_DECLARE: "P-TURN-DECLARE",
    _AK_SPLIT: "P-SPLIT-1",
    _AK_BUY: "P-BUY-1",
    _AK_TWIST: "P-TWIST-1",
    _AK_STICK: "P-STICK-1",
    _AK_BURN: "P-VAR-8",
    _AK_SIT_OUT: "P-DEAL-2",
    _AK_SELL_BANK: "P-SELL-1",
    _AK_NEXT_ROUND: "P-NEXT-1",
}


class Hand:
    """One hand on the table (a player's, or the banker's)."""

    __slots__ = (
        "ace",
        "cards",
        "hard",
        "last_buy",
        "orig",
        "shoot",
        "shown",
        "split",
        "stake",
        "status",
        "twisted",
        "up",
    )

    def __init__(self, cards: list[Card], stake: int = 0) -> None:
        self.cards = cards
        self.up: list[bool] = [False] * len(cards)  # face up (public) per card
        self.hard = 0  # total with aces as 1 (kept up to date by add/reset)
        self.ace = False
        for c in cards:
            self.hard += c.value
            if c.value == 1:
                self.ace = True
        self.stake = stake  # initial bet plus buys (P-BUY-1)
        self.orig = stake  # the original stake (P-BUY-2/3, P-SPLIT-1)
        self.last_buy = 0  # amount added by the previous buy, 0 = none yet
        self.twisted = False  # P-TWIST-2
        self.shoot = 0  # shoot bets riding on this hand (P-SHOOT-*)
        self.status = _OPEN
        self.split = False  # part of a split (P-SPLIT-3)
        self.shown = False  # every card public (bust, declared, settled)

    def add(self, card: Card, up: bool) -> None:
        self.cards.append(card)
        self.up.append(up)
        v = card.value
        self.hard += v
        if v == 1:
            self.ace = True

    def reset(self, cards: list[Card], up: bool) -> None:
        self.cards = cards
        self.up = [up] * len(cards)
        self.hard = 0
        self.ace = False
        for c in cards:
            self.hard += c.value
            if c.value == 1:
                self.ace = True

    def best(self) -> int:
        """P-VAL-1: the best total."""
        t = self.hard
        if self.ace and t <= 11:
            return t + 10
        return t

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [c.code for c in self.cards],
            "up": list(self.up),
            "stake": self.stake,
            "orig": self.orig,
            "last_buy": self.last_buy,
            "twisted": self.twisted,
            "shoot": self.shoot,
            "status": self.status.value,
            "split": self.split,
            "shown": self.shown,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Hand:
        h = cls([parse_card(c) for c in d["cards"]], int(d["stake"]))
        h.up = [bool(u) for u in d["up"]]
        if len(h.up) != len(h.cards):
            raise ConfigError("a hand's face-up flags must match its cards")
        h.orig = int(d["orig"])
        h.last_buy = int(d["last_buy"])
        h.twisted = bool(d["twisted"])
        h.shoot = int(d["shoot"])
        h.status = HandStatus(d["status"])
        h.split = bool(d["split"])
        h.shown = bool(d["shown"])
        return h


def _hand1(card: Card) -> Hand:
    """A new one-card hand, face down, no stake (the first card of a deal)."""
    return Hand([card])


# Event and Transfer are tuple records (see types.py): building one is a single
# tuple.__new__ call. The hot paths below build them inline with ``_tn(_EVENT, (...))`` (all
# eight fields in order: kind, seat, hand, cards, amount, total, to, detail); ``_ev`` and
# ``_transfer`` are the same with keyword defaults for the colder paths.
_tn: Final = tuple.__new__
_EVENT: Final = Event  # module constants compile to C statics (mypyc)
_TRANSFER: Final = Transfer


def _ev(
    kind: EventKind,
    seat: str | None = None,
    hand: int | None = None,
    cards: tuple[str, ...] = (),
    amount: int | None = None,
    total: int | None = None,
    to: str | None = None,
    detail: str = "",
) -> Event:
    return _tn(_EVENT, (kind, seat, hand, cards, amount, total, to, detail))


def _transfer(src: str, dst: str, amount: int, reason: str) -> Transfer:
    return _tn(_TRANSFER, (src, dst, amount, reason))


class Table:
    """A Pontoon table. See engine/pontoon/API.md for the contract."""

    # Slots: the table has ~45 attributes, too many for CPython's compact (shared-key)
    # instance dicts, so plain attribute access would take the slower dict-lookup path.
    # ``__dict__`` keeps instances open to extra attributes (tests, wrappers) as before.
    __slots__ = (
        "_L",
        "_M",
        "__dict__",
        "__weakref__",
        "_aces_only",
        "_active",
        "_banker_pontoon",
        "_banker_sees",
        "_bhand",
        "_bmult",
        "_burn",
        "_can_double",
        "_decided",
        "_doubled",
        "_fresh",
        "_hands",
        "_house",
        "_max_bet",
        "_min_bet",
        "_next_banker",
        "_open_stake",
        "_packs",
        "_players",
        "_pmult",
        "_pontoon_seen",
        "_res",
        "_royal",
        "_shoot",
        "_shoot_i",
        "_shoot_out",
        "_stick_min",
        "_strength",
        "_th",
        "_tp",
        "_var5",
        "balances",
        "banker",
        "escrow",
        "house_net",
        "kitty",
        "needs_shuffle",
        "pack",
        "phase",
        "round_no",
        "rules",
        "seats",
        "version",
    )

    def __init__(
        self,
        rules: PontoonRules | None = None,
        seats: Iterable[str] = (),
        balances: dict[str, int] | None = None,
        *,
        banker: str | None = None,
        pack: Iterable[Card] | None = None,
    ) -> None:
        self.rules = rules if rules is not None else PontoonRules()
        self._cache_rules()
        self.seats: list[str] = []
        self.balances: dict[str, int] = {}
        bal = balances or {}
        for s in seats:
            self._check_seat_name(s)
            if s in self.balances:
                raise ConfigError(f"seat {s!r} is listed twice")
            self.seats.append(s)
            chips = int(bal.get(s, 0))
            if chips < 0:
                raise ConfigError("a balance cannot be negative")
            self.balances[s] = chips
        self.banker: str | None = HOUSE if self._house else None
        if banker is not None:
            if self._house:
                raise ConfigError("a house-banked table has the house as banker")
            if banker not in self.balances:
                raise ConfigError(f"banker {banker!r} is not seated")
            self.banker = banker
        self.phase = _PH_WAITING
        self.version = 0
        self.round_no = 0
        self.kitty = 0
        self.escrow = 0
        self.house_net = 0  # chips the house has won (negative: lost)
        if pack is None:
            self.pack = Pack(full_pack(self._packs_wanted()))
            self.needs_shuffle = True
        else:
            self.pack = Pack(pack)
            self.needs_shuffle = False
        self._reset_round()
        self._next_banker: str | None = None
        self._res: list[tuple[Any, ...]] = []  # HAND_RESULT summaries of the round

    # ------------------------------------------------------------------ setup helpers

    def _cache_rules(self) -> None:
        r = self.rules
        self._house = r.house_bank
        self._shoot = r.shoot
        self._min_bet = r.min_bet
        self._max_bet = r.max_bet
        self._stick_min = r.stick_min
        self._strength = r.pontoon_strength
        self._royal = r.royal_pontoon
        self._aces_only = r.split_aces_only
        self._var5 = r.no_buy_five_on_eleven
        self._burn = 0 if r.burn == "off" else int(r.burn)
        self._can_double = r.banker_doubles and not r.house_bank
        self._M = r.banker_cover_mult
        self._L = r.player_loss_mult
        self._pmult = r.player_pontoon_mult
        self._bmult = r.banker_pontoon_mult
        self._packs = r.packs

    def _reset_round(self) -> None:
        self._players: list[str] = []  # dealt in this round, from the banker's left
        self._hands: dict[str, list[Hand]] = {}
        self._decided: dict[str, bool] = {}  # BETTING: True = bet, False = sat out
        self._active: list[str] = []  # players who bet, in order
        self._shoot_i = 0
        self._tp = 0
        self._th = 0
        self._bhand: Hand | None = None
        self._banker_sees = False
        self._doubled = False
        self._open_stake = 0
        self._shoot_out = 0
        self._pontoon_seen = False
        self._banker_pontoon = False
        self._fresh = True  # nothing above changed since this reset (_begin skips one)

    @staticmethod
    def _check_seat_name(seat: str) -> None:
        if not isinstance(seat, str) or not seat or seat.startswith("@"):
            raise ConfigError(f"not a valid seat id: {seat!r}")

    def _packs_wanted(self) -> int:
        if self._packs is not None:
            return self._packs
        return 2 if len(self.seats) >= 8 else 1

    @property
    def turn(self) -> tuple[str, int] | None:
        if self.phase is _PH_PLAYING:
            return (self._active[self._tp], self._th)
        if self.phase is _PH_BANKER and self.banker is not None:
            return (self.banker, 0)
        return None

    @property
    def next_banker(self) -> str | None:
        """Who banks the next deal (P-NEXT-2, P-SELL-1)."""
        if self.phase is _PH_ROUND_OVER and self._next_banker is not None:
            return self._next_banker
        return self.banker

    def to_act(self) -> list[str]:
        ph = self.phase
        if ph is _PH_BETTING:
            return [p for p in self._players if p not in self._decided]
        if ph is _PH_PLAYING:
            return [self._active[self._tp]]
        if ph is _PH_SHOOTING:
            return [self._active[self._shoot_i]]
        if ph in (_PH_BANKER, _PH_DOUBLING, _PH_KITTY) and self.banker is not None:
            return [self.banker]
        return []

    def _players_for_round(self) -> list[str]:
        if self._house:
            return list(self.seats)
        b = self.banker
        if b is None:
            return []
        i = self.seats.index(b)
        return self.seats[i + 1 :] + self.seats[:i]

    def _can_deal(self) -> bool:
        if self.banker is None:
            return False
        return len(self._players_for_round()) >= 1

    def _cur_hand(self) -> Hand:
        return self._hands[self._active[self._tp]][self._th]

    def _pstake(self, seat: str) -> int:
        t = 0
        for h in self._hands.get(seat, ()):
            if h.status is not _BUST:
                t += h.stake
        return t

    def _player_cap(self, seat: str, extra_shoot: int = 0) -> int:
        """The largest new stake ``seat`` can cover (P-PAY-LIMIT)."""
        L = self._L
        return (self.balances[seat] - extra_shoot - self._pstake(seat) * (L - 1)) // L

    def _banker_cap(self) -> int:
        """The largest new stake the banker can cover (P-PAY-LIMIT)."""
        if self._house:
            return _BIG
        assert self.banker is not None
        return self.balances[self.banker] // self._M - self._open_stake

    def _shoot_room(self) -> int:
        return self.kitty - self._shoot_out

    def _shoot_max(self, seat: str, reserve: int) -> int:
        """Largest shoot bet ``seat`` may place now, keeping ``reserve`` chips for a buy."""
        if not self._shoot:
            return 0
        spare = self.balances[seat] - reserve - (self._pstake(seat) + reserve) * (self._L - 1)
        return max(0, min(self._shoot_room(), spare))

    def _score(self, h: Hand, royal: bool) -> int:
        """The ranking score of a hand (engine.pontoon.hands.score), from its running total."""
        t = h.hard
        if h.ace and t <= 11:
            t += 10
        if t > 21:
            return BUST
        n = len(h.cards)
        if t == 21:
            if n == 2:
                p = pontoon_class(h.cards, self._strength)
                if p:
                    return p
            elif n == 3 and royal and is_royal(h.cards):
                return ROYAL
        if n >= 5:
            return FIVE
        return t

    def _hand_pontoon(self, h: Hand) -> bool:
        if len(h.cards) != 2 or not h.ace or h.hard != 11:
            return False
        return pontoon_class(h.cards, self._strength) != 0

    def _buy_range(self, seat: str, h: Hand) -> tuple[int, int, str]:
        """(min, max, rule) of a buy on hand ``h``; max < min when none is possible."""
        lo = h.orig
        if h.last_buy == 0:
            hi, rule = 2 * h.orig, "P-BUY-2"
        else:
            hi, rule = h.last_buy, "P-BUY-3"
        cap = min(self._player_cap(seat), self._banker_cap())
        if cap < hi:
            hi = cap
            rule = "P-PAY-LIMIT"
        return lo, hi, rule

    def legal_actions(self, seat: str) -> list[LegalAction]:
        """Exactly what ``seat`` may do now (amount ranges inclusive)."""
        ph = self.phase
        out: list[LegalAction] = []
        seated = seat in self.balances
        if ph is _PH_WAITING or ph is _PH_ROUND_OVER:
            if not seated:
                out.append(LegalAction(_AK_JOIN, 0, None))
                return out
            if seat != self.banker or len(self.seats) == 1:
                out.append(LegalAction(_AK_LEAVE))
            if ph is _PH_WAITING:
                if self.banker is None and not self._house and len(self.seats) >= 2:
                    out.append(LegalAction(_AK_CUT))
                if self._can_deal() and (self._house or seat == self.banker):
                    out.append(LegalAction(_AK_DEAL))
            else:
                out.append(LegalAction(_AK_NEXT_ROUND))
            if (
                seat == self.banker
                and not self._house
                and len(self.seats) >= 2
                and (ph is _PH_WAITING or self._next_banker is None)
            ):
                out.append(LegalAction(_AK_SELL_BANK, 0, None))
            return out
        if not seated and not (self._house and seat == HOUSE):
            return out
        if ph is _PH_KITTY:
            if seat == self.banker:
                lo, hi = self._kitty_range()
                if hi >= lo:
                    out.append(LegalAction(_AK_KITTY, lo, hi))
                if len(self.seats) >= 2:
                    out.append(LegalAction(_AK_SELL_BANK, 0, None))
            return out
        if ph is _PH_BETTING:
            if seat in self._hands and seat not in self._decided:
                hi = min(self._max_bet, self._player_cap(seat), self._banker_cap())
                if hi >= self._min_bet:
                    out.append(LegalAction(_AK_BET, self._min_bet, hi))
                out.append(LegalAction(_AK_SIT_OUT))
            return out
        if ph is _PH_DOUBLING:
            if seat == self.banker:
                out.append(LegalAction(_AK_DOUBLE))
                out.append(LegalAction(_AK_NO_DOUBLE))
            return out
        if ph is _PH_SHOOTING:
            if seat == self._active[self._shoot_i]:
                out.append(LegalAction(_AK_SHOOT, 0, self._shoot_max(seat, 0)))
            return out
        if ph is _PH_BANKER:
            if seat == self.banker:
                if len(self.pack.stack) > 0:
                    out.append(LegalAction(_AK_TWIST))
                out.append(LegalAction(_AK_STICK))
            return out
        if ph is _PH_PLAYING:
            if seat != self._active[self._tp]:
                return out
            h = self._cur_hand()
            if self._hand_pontoon(h):
                out.append(LegalAction(_AK_DECLARE))
                return out
            n = len(h.cards)
            total = h.best()
            left = len(self.pack.stack)
            if total >= self._stick_min or left == 0:
                out.append(LegalAction(_AK_STICK))
            if left > 0:
                sh = self._shoot_max(seat, 0) if n == 3 and self._shoot else None
                out.append(LegalAction(_AK_TWIST, None, None, sh))
                if self._buy_ok(h) is None:
                    lo, hi, _ = self._buy_range(seat, h)
                    if hi >= lo:
                        sh = self._shoot_max(seat, lo) if n == 3 and self._shoot else None
                        out.append(LegalAction(_AK_BUY, lo, hi, sh))
            if self._split_ok(seat, h) is None:
                sh = self._shoot_max(seat, h.orig) if self._shoot else None
                out.append(LegalAction(_AK_SPLIT, None, None, sh))
            if self._burn_ok(h) is None:
                out.append(LegalAction(_AK_BURN))
            return out
        return out

    def _kitty_range(self) -> tuple[int, int]:
        assert self.banker is not None
        bal = self.balances[self.banker]
        if self.kitty == 0:
            return self.rules.kitty_min, min(self.rules.kitty_max, bal)
        return 0, max(0, min(self.rules.kitty_max - self.kitty, bal))

    def _buy_ok(self, h: Hand) -> tuple[str, str] | None:
        """Why hand ``h`` may not buy (rule, message), or None."""
        if h.twisted:
            return "P-TWIST-2", "after a twist the hand may only twist"
        n = len(h.cards)
        if n >= 5:
            return "P-FIVE-1", "a five card trick takes no more cards"
        if n == 4 and self._var5 and hard_total(h.cards) <= 11:
            return (
                "P-VAR-5",
                "with four cards totalling 11 or less the fifth card may only be twisted",
            )
        return None

    def _split_ok(self, seat: str, h: Hand) -> tuple[str, str] | None:
        if len(h.cards) != 2 or h.last_buy or h.twisted:
            return "P-SPLIT-1", "only a hand of two cards may be split"
        a, b = h.cards
        if a.rank is not b.rank:
            return "P-SPLIT-1", "only two cards of the same rank may be split"
        if self._aces_only and a.value != 1:
            return "P-VAR-1", "only aces may be split at this table"
        if len(self._hands[seat]) >= 4:
            return "P-SPLIT-2", "a player may hold at most four hands"
        if len(self.pack.stack) < 2:
            return "P-SPLIT-1", "the pack has too few cards left"
        if min(self._player_cap(seat), self._banker_cap()) < h.orig:
            return "P-PAY-LIMIT", "the new stake could not be covered"
        return None

    def _burn_ok(self, h: Hand) -> tuple[str, str] | None:
        if not self._burn:
            return "P-VAR-8", "burning is not played at this table"
        if len(h.cards) != 2 or any(c.value == 1 for c in h.cards):
            return "P-VAR-8", "only two cards making a hard total may be burned"
        if hard_total(h.cards) != self._burn:
            return "P-VAR-8", f"only a hard {self._burn} may be burned"
        if len(self.pack.stack) < 2:
            return "P-VAR-8", "the pack has too few cards left"
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action, chance: Chance) -> Outcome:
        """Apply one action. Raises RuleError (state untouched) when it is illegal."""
        fn = _DISPATCH.get(action.kind)
        if fn is None:
            raise RuleError("P-TABLE-1", f"unknown action {action.kind!r}")
        out = Outcome([], [])
        fn(self, action, chance, out)
        self.version += 1
        return out

    # transfers ------------------------------------------------------------------------

    def _move(self, out: Outcome, src: str, dst: str, amount: int, reason: str) -> None:
        if amount <= 0:
            return
        bal = self.balances
        if src == ESCROW:
            self.escrow -= amount
        elif src == KITTY:
            self.kitty -= amount
        elif src == HOUSE:
            self.house_net -= amount
        else:
            bal[src] -= amount
        if dst == ESCROW:
            self.escrow += amount
        elif dst == KITTY:
            self.kitty += amount
        elif dst == HOUSE:
            self.house_net += amount
        else:
            bal[dst] += amount
        out.transfers.append(_transfer(src, dst, amount, reason))

    def _wrong_phase(self, a: Action) -> RuleError:
        return RuleError(
            _KIND_RULE.get(a.kind, "P-TABLE-1"),
            f"{a.kind.value} is not possible now (the table is in the {self.phase.value} phase)",
        )

    @staticmethod
    def _amount(a: Action, rule: str) -> int:
        if a.amount is None or isinstance(a.amount, bool) or not isinstance(a.amount, int):
            raise RuleError(rule, f"{a.kind.value} needs a whole-number amount")
        return a.amount

    def _need_seated(self, a: Action) -> None:
        if a.seat not in self.balances:
            raise RuleError("P-TABLE-1", f"{a.seat} is not seated at this table")

    # WAITING / ROUND_OVER -----------------------------------------------------------

    def _a_join(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase not in (_PH_WAITING, _PH_ROUND_OVER):
            raise self._wrong_phase(a)
        if a.seat in self.balances:
            raise RuleError("P-TABLE-1", f"{a.seat} is already seated")
        try:
            self._check_seat_name(a.seat)
        except ConfigError as exc:
            raise RuleError("P-TABLE-1", str(exc)) from None
        chips = 0 if a.amount is None else self._amount(a, "P-TABLE-1")
        if chips < 0:
            raise RuleError("P-TABLE-1", "a seat cannot bring a negative balance")
        self.seats.append(a.seat)
        self.balances[a.seat] = chips
        out.events.append(_ev(_EV_SEATED, a.seat, amount=chips))

    def _a_leave(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase not in (_PH_WAITING, _PH_ROUND_OVER):
            raise self._wrong_phase(a)
        self._need_seated(a)
        if a.seat == self.banker and len(self.seats) > 1:
            raise RuleError(
                "P-SELL-1", "the banker cannot leave while banking; sell the bank first"
            )
        if self._next_banker == a.seat:
            raise RuleError("P-NEXT-2", "the bank passes to this seat at the next deal")
        self.seats.remove(a.seat)
        del self.balances[a.seat]
        if a.seat == self.banker:
            self.banker = None
        out.events.append(_ev(_EV_LEFT, a.seat))

    def _a_cut(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_WAITING or self.banker is not None or self._house:
            raise RuleError("P-BANK-1", "cutting for the bank happens once, before the first deal")
        self._need_seated(a)
        if len(self.seats) < 2:
            raise RuleError("P-TABLE-1", "two or more people are needed to play")
        cands = list(self.seats)
        avail = self.pack.peek()
        while True:
            best = -1
            top: list[str] = []
            for s in cands:
                if not avail:
                    avail = self.pack.peek()
                card = avail.pop(ch.randbelow(len(avail)))
                out.events.append(_ev(_EV_CUT_CARD, s, cards=(card.code,)))
                r = card.cut_rank
                if r > best:
                    best, top = r, [s]
                elif r == best:
                    top.append(s)
            if len(top) == 1:
                break
            cands = top  # P-BANK-1: ties cut again
        self.banker = top[0]
        out.events.append(_ev(_EV_BANKER_CHOSEN, top[0], detail="highest cut"))

    def _a_sell(self, a: Action, ch: Chance, out: Outcome) -> None:
        ph = self.phase
        if ph not in (_PH_WAITING, _PH_ROUND_OVER, _PH_KITTY) or self._house:
            raise self._wrong_phase(a)
        if a.seat != self.banker:
            raise RuleError("P-SELL-1", "only the banker can sell the bank")
        if ph is _PH_ROUND_OVER and self._next_banker is not None:
            raise RuleError("P-NEXT-2", f"the bank already passes to {self._next_banker}")
        price = self._amount(a, "P-SELL-1")
        buyer = a.target
        if buyer is None or buyer not in self.balances or buyer == a.seat:
            raise RuleError("P-SELL-1", "the bank must be sold to another seated player")
        if price < 0:
            raise RuleError("P-SELL-1", "the price cannot be negative")
        if self.balances[buyer] < price:
            raise RuleError("P-SELL-1", f"{buyer} cannot pay {price}")
        self._move(out, buyer, a.seat, price, "bank sold (P-SELL-1)")
        if self.kitty:  # P-SHOOT-9
            out.events.append(_ev(_EV_KITTY, a.seat, amount=self.kitty, detail="returned"))
            self._move(out, KITTY, a.seat, self.kitty, "kitty returned (P-SHOOT-9)")
        self.banker = buyer
        out.events.append(_ev(_EV_BANK_SOLD, buyer, amount=price, detail=f"from {a.seat}"))

    def _a_deal(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_WAITING:
            raise self._wrong_phase(a)
        if a.seat not in self.balances:
            self._need_seated(a)
        if self.banker is None:
            raise RuleError("P-BANK-1", "cut for the bank first")
        if not self._house and a.seat != self.banker:
            raise RuleError("P-DEAL-1", "the banker deals")
        players = self._players_for_round()  # _can_deal
        if not players:
            raise RuleError("P-TABLE-1", "two or more people are needed to play")
        self._begin(ch, out, players)

    def _a_next(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_ROUND_OVER:
            raise self._wrong_phase(a)
        if a.seat not in self.balances:
            self._need_seated(a)
        nb = self._next_banker
        if nb is not None and nb != self.banker and nb in self.balances:
            old = self.banker
            assert old is not None
            if self.kitty:  # P-SHOOT-9
                out.events.append(_ev(_EV_KITTY, old, amount=self.kitty, detail="returned"))
                self._move(out, KITTY, old, self.kitty, "kitty returned (P-SHOOT-9)")
            self.banker = nb
            out.events.append(_ev(_EV_BANK_PASSES, nb, detail=f"pontoon; from {old}"))
        self._next_banker = None
        self.phase = _PH_WAITING
        self._reset_round()

    def abandon(self) -> list[Transfer]:
        """Close the table mid-anything: every chip in escrow goes back to the seat that
        put it there and the kitty to the banker. The table is left WAITING. Returns the
        refund transfers (already applied to the table's own accounts)."""
        out = Outcome()
        for p, hands in self._hands.items():
            for h in hands:
                if h.status is _BUST or self.phase is _PH_ROUND_OVER:
                    continue
                back = h.stake + h.shoot
                if back and p in self.balances:
                    self._move(out, ESCROW, p, back, "refund: table closed")
                h.stake = h.shoot = 0
        if self.kitty and self.banker is not None:
            dst = self.banker if self.banker in self.balances or self._house else None
            if dst is not None:
                self._move(out, KITTY, dst, self.kitty, "kitty returned: table closed")
        if self.phase is not _PH_ROUND_OVER and self.phase is not _PH_WAITING:
            used: list[Card] = []
            for hands in self._hands.values():
                for h in hands:
                    if h.status is not _BUST:
                        used.extend(h.cards)
            if self._bhand is not None:
                used.extend(self._bhand.cards)
            self.pack.add_to_bottom(used)
            self.needs_shuffle = True
        self._reset_round()
        self._next_banker = None
        self.phase = _PH_WAITING
        self.version += 1
        return out.transfers

    def _begin(self, ch: Chance, out: Outcome, players: list[str] | None = None) -> None:
        """Start a deal: Shoot mode asks for the kitty first (P-SHOOT-1/8)."""
        if not self._fresh:
            self._reset_round()
        self._res = []
        if self._shoot:
            self.phase = _PH_KITTY
            return
        self._deal_first(ch, out, players)

    def _a_kitty(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_KITTY:
            raise self._wrong_phase(a)
        if a.seat != self.banker:
            raise RuleError("P-SHOOT-1", "only the banker puts up the kitty")
        amt = self._amount(a, "P-SHOOT-1")
        lo, hi = self._kitty_range()
        if amt < lo or amt > hi:
            if self.kitty == 0:
                raise RuleError(
                    "P-SHOOT-8" if self.round_no else "P-SHOOT-1",
                    f"the kitty must be between {self.rules.kitty_min} and "
                    f"{self.rules.kitty_max} and within the banker's chips",
                )
            if amt < 0:
                raise RuleError("P-SHOOT-8", "the banker may add to the kitty, never take from it")
            raise RuleError("P-SHOOT-8", f"the banker may add at most {hi} now")
        if amt:
            self._move(out, a.seat, KITTY, amt, "kitty (P-SHOOT-1)")
            out.events.append(_ev(_EV_KITTY, a.seat, amount=amt, total=self.kitty, detail="added"))
        self._deal_first(ch, out)

    def _deal_first(self, ch: Chance, out: Outcome, players: list[str] | None = None) -> None:
        """P-TABLE-1, P-NEXT-1, P-DEAL-1: (shuffle,) one face-down card each. ``players``:
        ``_players_for_round()`` when the caller has it already."""
        pack = self.pack
        want = (self._packs or (2 if len(self.seats) >= 8 else 1)) * 52  # _packs_wanted
        if len(pack) != want:
            pack = self.pack = Pack(full_pack(want // 52))
            self.needs_shuffle = True
        evs = out.events
        if self.needs_shuffle:
            pack.replace(ch.shuffle(pack.peek()))
            self.needs_shuffle = False
            evs.append(_tn(_EVENT, (_EV_SHUFFLED, None, None, (), None, None, None, _SHUFFLED)))
        self.round_no += 1
        self.phase = _PH_BETTING
        if players is None:
            players = self._players_for_round()
        self._fresh = False
        self._players = players
        stack = pack.stack
        if len(stack) <= len(players):
            raise ConfigError("the pack is empty")
        deal = stack.pop
        hands = self._hands
        for p in players:
            c = deal()
            # hands[p] = [_hand1(c)]
            h = Hand([c])
            hands[p] = [h]
            evs.append(_tn(_EVENT, (_EV_CARD_DEALT, p, 0, (c.code,), None, None, p, "")))
        self._bhand = _hand1(deal())
        banker = self.banker
        assert banker is not None
        # P-DEAL-1: the banker may not look at the first card (no cards in the event).
        evs.append(_tn(_EVENT, (_EV_CARD_DEALT, banker, 0, (), None, None, banker, _FACE_DOWN)))

    def _a_bet(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_BETTING:
            raise self._wrong_phase(a)
        seat = a.seat
        hands = self._hands.get(seat)
        if hands is None:
            raise RuleError("P-DEAL-2", f"{seat} is not a player in this deal")
        decided = self._decided
        if seat in decided:
            raise RuleError("P-DEAL-2", f"{seat} has already placed an initial bet")
        amt = a.amount
        if type(amt) is not int:
            amt = self._amount(a, "P-DEAL-2")
        if amt < self._min_bet or amt > self._max_bet:
            raise RuleError(
                "P-TABLE-2", f"the initial bet must be between {self._min_bet} and {self._max_bet}"
            )
        bal = self.balances
        L = self._L
        staked = 0
        for h in hands:
            if h.status is not _BUST:
                staked += h.stake
        if amt > (bal[seat] - staked * (L - 1)) // L:  # _player_cap
            raise RuleError(
                "P-PAY-LIMIT",
                f"{seat} cannot cover a bet of {amt} and a possible {L}x loss",
            )
        if not self._house:
            banker = self.banker
            assert banker is not None
            if amt > bal[banker] // self._M - self._open_stake:  # _banker_cap
                raise RuleError("P-PAY-LIMIT", f"the banker cannot cover another bet of {amt}")
        h = hands[0]
        h.stake = h.orig = amt
        self._open_stake += amt
        decided[seat] = True
        # self._move(out, seat, ESCROW, amt, ...): a seat id never names a special account
        bal[seat] -= amt
        self.escrow += amt
        out.transfers.append(_tn(_TRANSFER, (seat, ESCROW, amt, _R_BET)))
        out.events.append(_tn(_EVENT, (_EV_BET, seat, 0, (), amt, None, None, "")))
        if len(decided) >= len(self._players):
            self._after_bets(ch, out)

    def _a_sit_out(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_BETTING:
            raise self._wrong_phase(a)
        if a.seat not in self._hands or a.seat in self._decided:
            raise RuleError("P-DEAL-2", f"{a.seat} has nothing to sit out")
        self._decided[a.seat] = False
        self._after_bets(ch, out)

    def _after_bets(self, ch: Chance, out: Outcome) -> None:
        decided = self._decided
        players = self._players
        if len(decided) < len(players):
            return
        self._active = list(filter(decided.__getitem__, players))  # those who bet
        if not self._active:
            self._finish_round(out)
            return
        if self._can_double:
            self.phase = _PH_DOUBLING
            self._banker_sees = True
            assert self._bhand is not None and self.banker is not None
            out.events.append(
                _ev(
                    _EV_CARD_DEALT,
                    self.banker,
                    0,
                    (self._bhand.cards[0].code,),
                    to=self.banker,
                    detail="banker looks (P-VAR-3)",
                )
            )
            return
        if self._shoot:  # _after_doubling
            self.phase = _PH_SHOOTING
            self._shoot_i = 0
            return
        self._deal_second(ch, out)

    def _after_doubling(self, ch: Chance, out: Outcome) -> None:
        if self._shoot:
            self.phase = _PH_SHOOTING
            self._shoot_i = 0
            return
        self._deal_second(ch, out)

    def _a_double(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_DOUBLING:
            raise self._wrong_phase(a)
        if a.seat != self.banker:
            raise RuleError("P-VAR-3", "only the banker may double")
        if a.kind is _AK_DOUBLE:
            self._doubled = True
            out.events.append(_ev(_EV_DOUBLED, a.seat, detail="all bets doubled"))
        self._after_doubling(ch, out)

    def _a_shoot(self, a: Action, ch: Chance, out: Outcome) -> None:
        if self.phase is not _PH_SHOOTING:
            raise self._wrong_phase(a)
        seat = a.seat
        if seat != self._active[self._shoot_i]:
            raise RuleError(
                "P-SHOOT-2", f"shoot bets go in seat order; it is {self._active[self._shoot_i]}'s"
            )
        amt = self._amount(a, "P-SHOOT-2")
        self._check_shoot(seat, amt, 0, "P-SHOOT-2")
        if amt:
            self._place_shoot(out, seat, 0, amt)
        self._shoot_i += 1
        if self._shoot_i >= len(self._active):
            self._deal_second(ch, out)

    def _check_shoot(self, seat: str, amt: int, reserve: int, rule: str) -> None:
        if amt < 0:
            raise RuleError(rule, "a shoot bet cannot be negative")
        if amt == 0:
            return
        if not self._shoot:
            raise RuleError("P-SHOOT-1", "shoot bets are only for Shoot Pontoon")
        if amt > self._shoot_room():
            raise RuleError(
                "P-SHOOT-2",
                f"all shoot bets together may not exceed the kitty ({self._shoot_room()} left)",
            )
        if amt > self._shoot_max(seat, reserve):
            raise RuleError("P-PAY-LIMIT", f"{seat} cannot cover a shoot bet of {amt}")

    def _place_shoot(self, out: Outcome, seat: str, hi: int, amt: int) -> None:
        self._hands[seat][hi].shoot += amt
        self._shoot_out += amt
        self._move(out, seat, ESCROW, amt, "shoot bet (P-SHOOT-2)")
        out.events.append(_ev(_EV_SHOOT, seat, hi, amount=amt))

    def _deal_second(self, ch: Chance, out: Outcome) -> None:
        """P-DEAL-3 and the banker's pontoon check P-DEAL-4."""
        stack = self.pack.stack
        active = self._active
        if len(stack) <= len(active):
            raise ConfigError("the pack is empty")
        deal = stack.pop
        evs = out.events
        hands = self._hands
        for p in active:
            h = hands[p][0]
            c = deal()
            # h.add(c, False)
            h.cards.append(c)
            h.up.append(False)
            v = c.value
            h.hard += v
            if v == 1:
                h.ace = True
            evs.append(_tn(_EVENT, (_EV_CARD_DEALT, p, 0, (c.code,), None, None, p, "")))
        bh = self._bhand
        banker = self.banker
        assert bh is not None and banker is not None
        c = deal()
        # bh.add(c, False)
        bh.cards.append(c)
        bh.up.append(False)
        v = c.value
        bh.hard += v
        if v == 1:
            bh.ace = True
        self._banker_sees = True  # P-DEAL-3: everyone looks at their two cards
        codes = tuple([c.code for c in bh.cards])
        evs.append(_tn(_EVENT, (_EV_CARD_DEALT, banker, 0, codes, None, None, banker, "")))
        if bh.hard == 11 and bh.ace and pontoon_class(bh.cards, self._strength):
            self._banker_has_pontoon(out)
            return
        self.phase = _PH_PLAYING
        self._tp = 0
        self._th = 0
        for p in active:
            h = hands[p][0]
            if h.hard == 11 and h.ace:  # two cards: only 21 needs a status (_auto)
                self._auto(h)
                if h.status is _21:
                    evs.append(_tn(_EVENT, (_EV_TWENTY_ONE, p, 0, (), None, None, None, "")))
        self._advance(ch, out, True)

    def _banker_has_pontoon(self, out: Outcome) -> None:
        """P-DEAL-4 / P-SHOOT-3: the banker collects from everyone; the hand ends."""
        bh = self._bhand
        banker = self.banker
        assert bh is not None and banker is not None
        bh.shown = True
        bh.status = _PONT
        self._banker_pontoon = True
        self._pontoon_seen = True
        out.events.append(
            _ev(_EV_BANKER_PONTOON, banker, 0, tuple([c.code for c in bh.cards]), total=21)
        )
        dbl = 2 if self._doubled else 1
        mult = max(self._bmult, dbl)
        bscore = self._score(bh, False)
        for p in self._active:
            for i, h in enumerate(self._hands[p]):
                if self._score(h, False) > bscore:
                    # P-VAR-7 (a)/(c): a stronger pontoon beats the banker's pontoon
                    win = h.stake * max(self._pmult, dbl)
                    self._win(out, p, h, win, "stronger pontoon (P-VAR-7)")
                    sn = 0
                    if h.shoot:
                        self._move(out, ESCROW, p, h.shoot, "shoot bet returned")
                        self._move(out, KITTY, p, h.shoot, "shoot bet won (P-SHOOT-7)")
                        sn = h.shoot
                        self._shoot_out -= h.shoot
                    h.shown = True
                    h.status = _PONT
                    self._result(out, p, i, h, win, sn, "win", "pontoon beats banker's pontoon")
                    continue
                loss = h.stake * mult
                self._lose(out, p, h, loss, "banker's pontoon (P-DEAL-4)")
                if h.shoot:
                    self._move(out, ESCROW, KITTY, h.shoot, "shoot bet to kitty (P-SHOOT-3)")
                    self._shoot_out -= h.shoot
                h.shown = True
                self._result(out, p, i, h, -loss, -h.shoot, "lose", "banker's pontoon")
        self._open_stake = 0
        self._finish_round(out)

    def _lose(self, out: Outcome, seat: str, h: Hand, loss: int, reason: str) -> None:
        banker = self.banker
        assert banker is not None
        self._move(out, ESCROW, banker, h.stake, reason)
        self._move(out, seat, banker, loss - h.stake, reason)

    def _win(self, out: Outcome, seat: str, h: Hand, win: int, reason: str) -> None:
        banker = self.banker
        assert banker is not None
        self._move(out, ESCROW, seat, h.stake, "stake returned")
        self._move(out, banker, seat, win, reason)

    def _result(
        self,
        out: Outcome,
        seat: str,
        i: int,
        h: Hand,
        net: int,
        shoot_net: int,
        outcome: str,
        why: str,
        score: int | None = None,
        codes: tuple[str, ...] | None = None,
    ) -> None:
        """A HAND_RESULT event and its summary. ``score`` / ``codes``: the hand's
        ``_score(h, self._royal)`` and card codes when the caller has them already."""
        if codes is None:
            codes = tuple([c.code for c in h.cards])
        if score is None:
            score = self._score(h, self._royal)
        t = h.hard
        if h.ace and t <= 11:
            t += 10
        out.events.append(
            _tn(
                _EVENT,
                (_EV_HAND_RESULT, seat, i, codes, net + shoot_net, t, None, f"{outcome}: {why}"),
            )
        )
        self._res.append((seat, i, codes, score, h.stake, outcome, net, shoot_net, why))

    @property
    def results(self) -> list[dict[str, Any]]:
        """The settled hands of the current (or last) round, in settlement order."""
        keys = ("seat", "hand", "cards", "score", "stake", "outcome", "net", "shoot_net", "why")
        out = []
        for r in self._res:
            d = dict(zip(keys, r, strict=True))
            d["cards"] = list(r[2])
            out.append(d)
        return out

    # PLAYING ----------------------------------------------------------------------------

    def _auto(self, h: Hand) -> None:
        """Give a hand its status after a card (P-BUST-1, P-FIVE-1, P-STICK-1, P-VAR-6).
        A pontoon stays OPEN: it waits for DECLARE."""
        t = h.best()
        n = len(h.cards)
        if t > 21:
            h.status = _BUST
        elif n >= 5:
            h.status = _FIVE
        elif t == 21:
            s = self._score(h, self._royal)
            if s == ROYAL:
                h.status = _ROYAL
            elif s < PONTOON:
                h.status = _21

    def _check_turn(self, a: Action) -> Hand:
        if self.phase is not _PH_PLAYING:
            raise self._wrong_phase(a)
        cur = self._active[self._tp]
        if a.seat != cur:
            raise RuleError("P-TURN-END", f"it is {cur}'s turn (hand {self._th + 1})")
        return self._hands[cur][self._th]

    def _advance(self, ch: Chance, out: Outcome, first: bool = False) -> None:
        """P-TURN-END: move to the next hand still to play, then to the banker. A TURN
        event goes out when the turn moves (or, with ``first``, for the first turn)."""
        active = self._active
        all_hands = self._hands
        tp = self._tp
        th = self._th
        hands = all_hands[active[tp]]
        if th < len(hands) and hands[th].status is _OPEN:  # the same hand plays on
            if first:
                out.events.append(_tn(_EVENT, (_EV_TURN, active[tp], th, (), None, None, None, "")))
            return
        th += 1
        n = len(active)
        while True:
            while th < len(hands):
                if hands[th].status is _OPEN:
                    self._tp = tp
                    self._th = th
                    out.events.append(
                        _tn(_EVENT, (_EV_TURN, active[tp], th, (), None, None, None, ""))
                    )
                    return
                th += 1
            tp += 1
            if tp >= n:
                break
            hands = all_hands[active[tp]]
            th = 0
        self._tp = n - 1
        self._th = 0
        self._banker_turn(ch, out)

    def _a_declare(self, a: Action, ch: Chance, out: Outcome) -> None:
        h = self._check_turn(a)
        if not self._hand_pontoon(h):
            raise RuleError("P-TURN-DECLARE", "only a pontoon (an ace and a ten-card) is declared")
        h.status = _PONT
        h.shown = True
        self._pontoon_seen = True
        out.events.append(
            _ev(_EV_DECLARED, a.seat, self._th, tuple([c.code for c in h.cards]), total=21)
        )
        self._advance(ch, out)

    def _pontoon_waits(self, h: Hand) -> None:
        if self._hand_pontoon(h):
            raise RuleError(
                "P-TURN-DECLARE", "a pontoon must be declared; nothing else is possible"
            )

    def _a_stick(self, a: Action, ch: Chance, out: Outcome) -> None:
        ph = self.phase
        if ph is not _PH_PLAYING:
            if ph is _PH_BANKER:
                self._banker_stick(a, ch, out)
                return
            raise self._wrong_phase(a)
        seat = a.seat
        cur = self._active[self._tp]
        th = self._th
        if seat != cur:
            raise RuleError("P-TURN-END", f"it is {cur}'s turn (hand {th + 1})")
        h = self._hands[cur][th]
        t = h.hard
        if h.ace and t <= 11:
            if t == 11 and len(h.cards) == 2 and pontoon_class(h.cards, self._strength):
                raise RuleError(
                    "P-TURN-DECLARE", "a pontoon must be declared; nothing else is possible"
                )
            t += 10
        if t < self._stick_min and len(self.pack.stack) > 0:
            rule = "P-VAR-2" if self._stick_min == 16 else "P-STICK-1"
            raise RuleError(rule, f"a hand needs at least {self._stick_min} to stick (it has {t})")
        h.status = _STUCK
        out.events.append(_tn(_EVENT, (_EV_STUCK, seat, th, (), None, None, None, "")))
        self._advance(ch, out)

    def _draw_checks(self, h: Hand, a: Action) -> None:
        cards = h.cards
        n = len(cards)
        t = h.hard
        if h.ace and t <= 11:
            if t == 11 and n == 2 and pontoon_class(cards, self._strength):
                raise RuleError(
                    "P-TURN-DECLARE", "a pontoon must be declared; nothing else is possible"
                )
            t += 10
        if n >= 5:
            raise RuleError("P-FIVE-1", "a five card trick takes no more cards")
        if t >= 21:
            raise RuleError("P-STICK-1", "a hand on 21 stands")
        if len(self.pack.stack) == 0:
            raise RuleError("P-TABLE-1", "the pack has no card left")
        if a.shoot and n != 3:
            raise RuleError(
                "P-SHOOT-4", "a shoot bet goes with the fourth card only, not before or after"
            )

    def _a_twist(self, a: Action, ch: Chance, out: Outcome) -> None:
        ph = self.phase
        if ph is not _PH_PLAYING:
            if ph is _PH_BANKER:
                self._banker_twist(a, ch, out)
                return
            raise self._wrong_phase(a)
        seat = a.seat
        cur = self._active[self._tp]
        th = self._th
        if seat != cur:
            raise RuleError("P-TURN-END", f"it is {cur}'s turn (hand {th + 1})")
        h = self._hands[cur][th]
        self._draw_checks(h, a)
        sh = a.shoot or 0
        if sh:
            self._check_shoot(seat, sh, 0, "P-SHOOT-4")
            self._place_shoot(out, seat, th, sh)
        c = self.pack.stack.pop()  # _draw_checks: the pack is not empty
        # h.add(c, True)
        h.cards.append(c)
        h.up.append(True)
        v = c.value
        h.hard += v
        if v == 1:
            h.ace = True
        h.twisted = True
        out.events.append(_tn(_EVENT, (_EV_TWISTED, seat, th, (c.code,), None, None, None, "")))
        t = h.hard
        if h.ace and t <= 11:
            t += 10
        if t < 21 and len(h.cards) < 5:
            return  # the hand plays on (_after_draw would change nothing)
        self._after_draw(ch, out, seat, h)

    def _a_buy(self, a: Action, ch: Chance, out: Outcome) -> None:
        h = self._check_turn(a)
        self._draw_checks(h, a)
        why = self._buy_ok(h)
        if why is not None:
            raise RuleError(*why)
        amt = a.amount
        if type(amt) is not int:
            amt = self._amount(a, "P-BUY-1")
        seat = a.seat
        lo, hi, rule = self._buy_range(seat, h)
        if amt < lo:
            raise RuleError(
                "P-BUY-3" if h.last_buy else "P-BUY-2",
                f"a buy adds at least the original stake ({lo})",
            )
        if amt > hi:
            if rule == "P-PAY-LIMIT":
                raise RuleError(rule, f"a buy of {amt} could not be covered (at most {hi} now)")
            if rule == "P-BUY-2":
                msg = f"the first buy adds at most twice the original stake ({hi})"
            else:
                msg = f"a later buy adds at most the previous buy ({hi})"
            raise RuleError(rule, msg)
        sh = a.shoot or 0
        if sh:
            self._check_shoot(seat, sh, amt, "P-SHOOT-4")
        th = self._th
        h.stake += amt
        h.last_buy = amt
        self._open_stake += amt
        # self._move(out, seat, ESCROW, amt, ...); amt >= the original stake > 0
        self.balances[seat] -= amt
        self.escrow += amt
        out.transfers.append(_tn(_TRANSFER, (seat, ESCROW, amt, _R_BUY)))
        if sh:
            self._place_shoot(out, seat, th, sh)
        c = self.pack.stack.pop()  # _draw_checks: the pack is not empty
        # h.add(c, False)
        h.cards.append(c)
        h.up.append(False)
        v = c.value
        h.hard += v
        if v == 1:
            h.ace = True
        evs = out.events
        evs.append(_tn(_EVENT, (_EV_BOUGHT, seat, th, (), amt, h.stake, None, "")))
        evs.append(_tn(_EVENT, (_EV_CARD_DEALT, seat, th, (c.code,), None, None, seat, "")))
        self._after_draw(ch, out, seat, h)

    def _after_draw(self, ch: Chance, out: Outcome, seat: str, h: Hand) -> None:
        t = h.hard
        if h.ace and t <= 11:
            t += 10
        if t < 21 and len(h.cards) < 5:
            return  # still open (_auto would leave it so)
        self._auto(h)
        st = h.status
        if st is _OPEN:
            return
        i = self._th
        if st is _BUST:
            self._bust(out, seat, i, h)
        elif st is _FIVE:
            out.events.append(_tn(_EVENT, (_EV_FIVE_CARD_TRICK, seat, i, (), None, None, None, "")))
        elif st is _21 or st is _ROYAL:
            # a royal pontoon stays a plain "21" in public until settlement (P-VAR-6)
            out.events.append(_tn(_EVENT, (_EV_TWENTY_ONE, seat, i, (), None, None, None, "")))
        self._advance(ch, out)

    def _bust(self, out: Outcome, seat: str, i: int, h: Hand) -> None:
        """P-BUST-1 / P-SHOOT-6: shown, stake to the banker, cards to the bottom at once."""
        h.shown = True
        codes = tuple([c.code for c in h.cards])
        out.events.append(_tn(_EVENT, (_EV_BUST, seat, i, codes, None, h.best(), None, "")))
        loss = h.stake * (2 if self._doubled else 1)
        self._lose(out, seat, h, loss, "bust (P-BUST-1)")
        self._open_stake -= h.stake
        if h.shoot:
            self._move(out, ESCROW, KITTY, h.shoot, "shoot bet to kitty (P-SHOOT-6)")
            self._shoot_out -= h.shoot
        self._result(out, seat, i, h, -loss, -h.shoot, "lose", "bust", BUST, codes)
        self.pack.add_to_bottom(h.cards)

    def _a_split(self, a: Action, ch: Chance, out: Outcome) -> None:
        h = self._check_turn(a)
        self._pontoon_waits(h)
        seat = a.seat
        why = self._split_ok(seat, h)
        if why is not None:
            raise RuleError(*why)
        sh = a.shoot or 0
        if sh:
            self._check_shoot(seat, sh, h.orig, "P-SHOOT-5")
        i = self._th
        c1, c2 = h.cards
        stake = h.orig
        nh = Hand([c2], stake)
        nh.up = [True]
        nh.split = True
        h.reset([c1], True)
        h.split = True
        h.stake = stake
        self._hands[seat].insert(i + 1, nh)
        self._open_stake += stake
        self._move(out, seat, ESCROW, stake, "split stake (P-SPLIT-1)")
        out.events.append(_ev(_EV_SPLIT, seat, i, (c1.code, c2.code), amount=stake))
        if sh:
            self._place_shoot(out, seat, i + 1, sh)
        deal = self.pack.deal
        for j, hh in ((i, h), (i + 1, nh)):
            c = deal()
            hh.add(c, False)
            out.events.append(_ev(_EV_CARD_DEALT, seat, j, (c.code,), to=seat))
            self._auto(hh)
            if hh.status is _21:
                out.events.append(_ev(_EV_TWENTY_ONE, seat, j))
        self._advance(ch, out)

    def _a_burn(self, a: Action, ch: Chance, out: Outcome) -> None:
        h = self._check_turn(a)
        why = self._burn_ok(h)
        if why is not None:
            raise RuleError(*why)
        seat = a.seat
        old = h.cards
        out.events.append(_ev(_EV_BURNED, seat, self._th, tuple([c.code for c in old])))
        self.pack.add_to_bottom(old)
        h.reset([self.pack.deal(), self.pack.deal()], False)
        out.events.append(
            _ev(_EV_CARD_DEALT, seat, self._th, tuple([c.code for c in h.cards]), to=seat)
        )
        self._auto(h)
        if h.status is _21:
            out.events.append(_ev(_EV_TWENTY_ONE, seat, self._th))
        self._advance(ch, out)

    # BANKER -----------------------------------------------------------------------------

    def _banker_turn(self, ch: Chance, out: Outcome) -> None:
        bh = self._bhand
        banker = self.banker
        assert bh is not None and banker is not None
        if self._open_stake == 0 and self._shoot_out == 0 and not self._any_open():
            self._settle(out)  # every hand bust: nothing left to play against
            return
        self.phase = _PH_BANKER
        bh.shown = True
        cards = bh.cards
        bh.up = [True] * len(cards)
        t = bh.hard
        if bh.ace and t <= 11:
            t += 10
        codes = tuple([c.code for c in cards])
        out.events.append(_tn(_EVENT, (_EV_BANKER_REVEAL, banker, 0, codes, None, t, None, "")))
        if self._banker_done(out):
            return
        if self._house:
            stand = self.rules.house_stands_on
            while bh.best() < stand and len(self.pack.stack) > 0:
                self._banker_draw(out)
                if self._banker_done(out):
                    return
            out.events.append(_ev(_EV_BANKER_STAYS, banker, 0, total=bh.best()))
            bh.status = _STUCK
            self._settle(out)

    def _any_open(self) -> bool:
        for p in self._active:
            for h in self._hands[p]:
                if h.status is not _BUST:
                    return True
        return False

    def _banker_draw(self, out: Outcome) -> None:
        """The banker takes a card face up (callers check that the pack is not empty)."""
        bh = self._bhand
        assert bh is not None
        c = self.pack.stack.pop()
        # bh.add(c, True)
        bh.cards.append(c)
        bh.up.append(True)
        v = c.value
        bh.hard += v
        if v == 1:
            bh.ace = True
        t = bh.hard
        if bh.ace and t <= 11:
            t += 10
        out.events.append(
            _tn(_EVENT, (_EV_BANKER_DRAW, self.banker, 0, (c.code,), None, t, None, ""))
        )

    def _banker_done(self, out: Outcome) -> bool:
        """P-BANKER-3: bust, five cards or 21 end the banker's turn (and settle)."""
        bh = self._bhand
        assert bh is not None
        t = bh.hard
        if bh.ace and t <= 11:
            t += 10
        if t > 21:
            bh.status = _BUST
            codes = tuple([c.code for c in bh.cards])
            out.events.append(_tn(_EVENT, (_EV_BUST, self.banker, 0, codes, None, t, None, "")))
        elif len(bh.cards) >= 5:
            bh.status = _FIVE
            out.events.append(_ev(_EV_FIVE_CARD_TRICK, self.banker, 0))
        elif t == 21:
            bh.status = _21
            out.events.append(_ev(_EV_TWENTY_ONE, self.banker, 0))
        else:
            return False
        self._settle(out)
        return True

    def _banker_twist(self, a: Action, ch: Chance, out: Outcome) -> None:
        if a.seat != self.banker:
            raise RuleError("P-BANKER-2", "it is the banker's turn")
        if len(self.pack.stack) == 0:
            raise RuleError("P-TABLE-1", "the pack has no card left")
        self._banker_draw(out)
        self._banker_done(out)

    def _banker_stick(self, a: Action, ch: Chance, out: Outcome) -> None:
        if a.seat != self.banker:
            raise RuleError("P-BANKER-2", "it is the banker's turn")
        bh = self._bhand
        assert bh is not None
        bh.status = _STUCK
        t = bh.hard
        if bh.ace and t <= 11:
            t += 10
        out.events.append(_tn(_EVENT, (_EV_BANKER_STAYS, a.seat, 0, (), None, t, None, "")))
        self._settle(out)

    def _settle(self, out: Outcome) -> None:
        """Section 7: the banker against every hand still in play."""
        bh = self._bhand
        banker = self.banker
        assert bh is not None and banker is not None
        bt = bh.hard
        if bh.ace and bt <= 11:
            bt += 10
        b_bust = bt > 21
        b_five = not b_bust and len(bh.cards) >= 5
        bscore = BUST if b_bust else (FIVE if b_five else bt)
        blabel = _label(bscore)
        dbl = 2 if self._doubled else 1
        lmult = 2 if b_five else dbl
        win_tag = "BUST" if b_bust else "STAY" if not b_five else "FIVE"
        lose_reason = f"loses (P-PAY-{'FIVE' if b_five else 'STAY'})"
        royal = self._royal
        house = banker == HOUSE
        bal = self.balances
        trs = out.transfers
        move = self._move
        score = self._score
        evs = out.events
        res = self._res
        for p in self._active:
            for i, h in enumerate(self._hands[p]):
                if h.status is _BUST:
                    continue
                h.shown = True
                t = h.hard
                if h.ace and t <= 11:
                    t += 10
                n = len(h.cards)
                if t == 21 and n <= 3:
                    s = score(h, royal)  # a pontoon or three sevens?
                elif n >= 5:
                    s = FIVE
                else:
                    s = t  # an ordinary total (a bust hand was settled already)
                if s == ROYAL:
                    mult, label = 3, "royal pontoon"
                elif s >= PONTOON:
                    mult, label = self._pmult, "pontoon"
                elif s == FIVE:
                    mult, label = 2, "five card trick"
                else:
                    mult, label = 0, _TOTAL_STR[s]
                stake = h.stake
                if b_bust or s > bscore:
                    win = stake * (max(mult, dbl) if mult else dbl)
                    why = "banker bust" if b_bust else f"{label} beats {blabel}"
                    # self._win(...): the stake back from escrow, the win from the banker
                    if stake > 0:
                        self.escrow -= stake
                        bal[p] += stake
                        trs.append(_tn(_TRANSFER, (ESCROW, p, stake, "stake returned")))
                    if win > 0:
                        if house:
                            self.house_net -= win
                        else:
                            bal[banker] -= win
                        bal[p] += win
                        trs.append(
                            _tn(_TRANSFER, (banker, p, win, f"{label} wins (P-PAY-{win_tag})"))
                        )
                    sn = 0
                    if h.shoot:
                        move(out, ESCROW, p, h.shoot, "shoot bet returned")
                        move(out, KITTY, p, h.shoot, "shoot bet won (P-SHOOT-7)")
                        sn = h.shoot
                    codes = tuple([c.code for c in h.cards])
                    evs.append(
                        _tn(
                            _EVENT, (_EV_HAND_RESULT, p, i, codes, win + sn, t, None, "win: " + why)
                        )
                    )
                    res.append((p, i, codes, s, stake, "win", win, sn, why))  # _result
                else:
                    loss = stake * lmult
                    why = f"{label} loses to {blabel}"
                    # self._lose(...): the stake from escrow, the rest from the seat
                    if stake > 0:
                        self.escrow -= stake
                        if house:
                            self.house_net += stake
                        else:
                            bal[banker] += stake
                        trs.append(_tn(_TRANSFER, (ESCROW, banker, stake, lose_reason)))
                    more = loss - stake
                    if more > 0:
                        bal[p] -= more
                        if house:
                            self.house_net += more
                        else:
                            bal[banker] += more
                        trs.append(_tn(_TRANSFER, (p, banker, more, lose_reason)))
                    if h.shoot:
                        move(out, ESCROW, KITTY, h.shoot, "shoot bet to kitty (P-SHOOT-7)")
                    sn = -h.shoot
                    codes = tuple([c.code for c in h.cards])
                    evs.append(
                        _tn(
                            _EVENT,
                            (_EV_HAND_RESULT, p, i, codes, sn - loss, t, None, "lose: " + why),
                        )
                    )
                    res.append((p, i, codes, s, stake, "lose", -loss, sn, why))  # _result
        self._open_stake = 0
        self._shoot_out = 0
        self._finish_round(out)

    def _finish_round(self, out: Outcome) -> None:
        """P-NEXT-1 / P-NEXT-2: used cards to the bottom, decide the next banker."""
        used: list[Card] = []
        nb: str | None = None
        can_pass = not self._banker_pontoon and not self._house
        hands = self._hands
        for p in self._players:
            for h in hands[p]:
                st = h.status
                if st is not _BUST:
                    used.extend(h.cards)
                if nb is None and st is _PONT and not h.split and can_pass:
                    nb = p  # P-NEXT-2: nearest the banker's left (players are in that order)
        bh = self._bhand
        if bh is not None:
            used.extend(bh.cards)
        self.pack.add_to_bottom(used)
        if self._pontoon_seen:
            self.needs_shuffle = True
        self._next_banker = nb
        evs = out.events
        if nb is not None:
            evs.append(_ev(_EV_BANK_PASSES, nb, detail="pontoon (P-NEXT-2)"))
        self.phase = _PH_ROUND_OVER
        assert self.escrow == 0, "escrow must be empty after a round"
        if self._shoot and self.kitty == 0:
            evs.append(_ev(_EV_KITTY, self.banker, amount=0, detail="empty (P-SHOOT-8)"))
        evs.append(_tn(_EVENT, (_EV_ROUND_OVER, None, None, (), self.round_no, None, None, "")))

    # ------------------------------------------------------------------ misc API

    def timeout_action(self, seat: str) -> Action | None:
        ph = self.phase
        if ph is _PH_BETTING:
            if seat in self._hands and seat not in self._decided:
                return Action(seat, _AK_SIT_OUT)
            return None
        if ph is _PH_PLAYING:
            if seat != self._active[self._tp]:
                return None
            kinds = {la.kind for la in self.legal_actions(seat)}
            for k in (_AK_DECLARE, _AK_STICK, _AK_TWIST):
                if k in kinds:
                    return Action(seat, k)
            return None
        if ph is _PH_BANKER and seat == self.banker:
            return Action(seat, _AK_STICK)
        if ph is _PH_DOUBLING and seat == self.banker:
            return Action(seat, _AK_NO_DOUBLE)
        if ph is _PH_SHOOTING and seat == self._active[self._shoot_i]:
            return Action(seat, _AK_SHOOT, 0)
        return None

    def set_balance(self, seat: str, chips: int) -> None:
        if self.phase not in (_PH_WAITING, _PH_ROUND_OVER):
            raise RuleError("P-PAY-LIMIT", "balances can only be synced between rounds")
        if seat not in self.balances:
            raise RuleError("P-TABLE-1", f"{seat} is not seated")
        if chips < 0:
            raise RuleError("P-PAY-LIMIT", "a balance cannot be negative")
        self.balances[seat] = chips

    # views ------------------------------------------------------------------------------

    def _view(self, seat: str, i: int, h: Hand, all_cards: bool, banker: bool = False) -> HandView:
        if all_cards or h.shown:
            cards = tuple([c.code for c in h.cards])
            hidden = 0
        else:
            cards = tuple(c.code for c, u in zip(h.cards, h.up, strict=True) if u)
            hidden = len(h.cards) - len(cards)
        total = h.best() if hidden == 0 and h.cards else None
        status = h.status
        if status is _ROYAL and hidden:
            status = _21  # three sevens are not shown before settlement (P-VAR-6)
        return HandView(seat, i, cards, hidden, h.stake, h.shoot, status, total)

    def private_view(self, seat: str) -> list[HandView]:
        """The seat's own hands with every card it may see (P-DEAL-1 for the banker)."""
        if seat == self.banker:
            bh = self._bhand
            if bh is None:
                return []
            if self._banker_sees or bh.shown:
                return [self._view(seat, 0, bh, True)]
            return [self._view(seat, 0, bh, False)]
        return [self._view(seat, i, h, True) for i, h in enumerate(self._hands.get(seat, ()))]

    def public_view(self) -> TableView:
        seats = []
        for s in self.seats:
            hands = [self._view(s, i, h, False) for i, h in enumerate(self._hands.get(s, ()))]
            d = self._decided.get(s)
            seats.append(
                SeatView(
                    s,
                    self.balances[s],
                    hands,
                    sitting_out=d is False,
                    bet_placed=d is True,
                )
            )
        bh = self._bhand
        bview = None
        if bh is not None and self.banker is not None:
            bview = self._view(self.banker, 0, bh, False)
        return TableView(
            self.phase,
            self.version,
            self.round_no,
            self.banker,
            seats,
            self.turn,
            self.kitty,
            bview,
            self.needs_shuffle,
        )

    # serialization ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": 1,
            "rules": self.rules.model_dump(),
            "seats": list(self.seats),
            "balances": dict(self.balances),
            "banker": self.banker,
            "phase": self.phase.value,
            "version": self.version,
            "round_no": self.round_no,
            "kitty": self.kitty,
            "escrow": self.escrow,
            "house_net": self.house_net,
            "pack": self.pack.codes(),
            "needs_shuffle": self.needs_shuffle,
            "players": list(self._players),
            "hands": {p: [h.to_json() for h in hs] for p, hs in self._hands.items()},
            "decided": dict(self._decided),
            "active": list(self._active),
            "shoot_i": self._shoot_i,
            "tp": self._tp,
            "th": self._th,
            "bhand": None if self._bhand is None else self._bhand.to_json(),
            "banker_sees": self._banker_sees,
            "doubled": self._doubled,
            "open_stake": self._open_stake,
            "shoot_out": self._shoot_out,
            "pontoon_seen": self._pontoon_seen,
            "banker_pontoon": self._banker_pontoon,
            "next_banker": self._next_banker,
            "results": self.results,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Table:
        if d.get("format") != 1:
            raise ConfigError("unknown table snapshot format")
        t = cls()  # every field the constructor sets is overwritten below
        t.rules = PontoonRules.model_validate(d["rules"])
        t._cache_rules()
        t.seats = [str(s) for s in d["seats"]]
        t.balances = {str(k): int(v) for k, v in d["balances"].items()}
        t.banker = d["banker"]
        t.phase = Phase(d["phase"])
        t.version = int(d["version"])
        t.round_no = int(d["round_no"])
        t.kitty = int(d["kitty"])
        t.escrow = int(d["escrow"])
        t.house_net = int(d["house_net"])
        t.pack = Pack(parse_card(c) for c in d["pack"])
        t.needs_shuffle = bool(d["needs_shuffle"])
        t._reset_round()
        t._players = [str(p) for p in d["players"]]
        t._hands = {str(p): [Hand.from_json(h) for h in hs] for p, hs in d["hands"].items()}
        t._decided = {str(k): bool(v) for k, v in d["decided"].items()}
        t._active = [str(p) for p in d["active"]]
        t._shoot_i = int(d["shoot_i"])
        t._tp = int(d["tp"])
        t._th = int(d["th"])
        t._bhand = None if d["bhand"] is None else Hand.from_json(d["bhand"])
        t._banker_sees = bool(d["banker_sees"])
        t._doubled = bool(d["doubled"])
        t._open_stake = int(d["open_stake"])
        t._shoot_out = int(d["shoot_out"])
        t._pontoon_seen = bool(d["pontoon_seen"])
        t._banker_pontoon = bool(d["banker_pontoon"])
        t._next_banker = d["next_banker"]
        t._fresh = False
        t._res = [
            (
                r["seat"],
                r["hand"],
                tuple(r["cards"]),
                r["score"],
                r["stake"],
                r["outcome"],
                r["net"],
                r["shoot_net"],
                r["why"],
            )
            for r in d["results"]
        ]
        return t


def _label(bscore: int) -> str:
    if bscore == BUST:
        return "banker bust"
    if bscore == FIVE:
        return "banker's five card trick"
    return f"banker's {bscore}"


_Handler = Callable[[Table, Action, Chance, Outcome], None]

_DISPATCH: Final[dict[ActionKind, _Handler]] = {
    _AK_JOIN: Table._a_join,
    _AK_LEAVE: Table._a_leave,
    _AK_CUT: Table._a_cut,
    _AK_DEAL: Table._a_deal,
    _AK_KITTY: Table._a_kitty,
    _AK_BET: Table._a_bet,
    _AK_SIT_OUT: Table._a_sit_out,
    _AK_DOUBLE: Table._a_double,
    _AK_NO_DOUBLE: Table._a_double,
    _AK_SHOOT: Table._a_shoot,
    _AK_DECLARE: Table._a_declare,
    _AK_SPLIT: Table._a_split,
    _AK_BUY: Table._a_buy,
    _AK_TWIST: Table._a_twist,
    _AK_STICK: Table._a_stick,
    _AK_BURN: Table._a_burn,
    _AK_SELL_BANK: Table._a_sell,
    _AK_NEXT_ROUND: Table._a_next,
}
