"""The payout table: what every result pays, in multiples of the hand's stake.

One table serves settlement (section 7, P-DEAL-4, P-VAR-3/4/6/7) and the cover rule
(P-PAY-LIMIT): the banker must be able to pay the largest player win, and a player the
largest loss, so changing a payout here changes both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine.errors import Word
from engine.pontoon.hands import BUST, FIVE, PONTOON, ROYAL
from engine.pontoon.rules import PontoonRules

_PONTOON_PAYS = {"double": 2, "single": 1, "triple": 3, "players_double_banker_single": 2}
_BANKER_PONTOON_COLLECTS = {
    "double": 2,
    "single": 1,
    "triple": 3,
    "players_double_banker_single": 1,
}


@dataclass(frozen=True)
class Payouts:
    """Multiples of the stake. A doubled round (P-VAR-3) pays and collects 2 for ordinary
    results; special results keep their own multiple but never less than 2."""

    pontoon: int  # a player's pontoon (P-PAY-BUST/STAY, P-VAR-4)
    five_card_trick: int  # a player's five card trick (P-PAY-BUST/STAY)
    royal_pontoon: int  # three sevens (P-VAR-6); 0 when not played
    banker_pontoon: int  # what a banker's pontoon collects (P-DEAL-4, P-VAR-4)
    banker_five_card_trick: int  # what a banker's five card trick collects (P-PAY-FIVE)
    ordinary: int = 1  # any other win or loss

    @classmethod
    def for_rules(cls, rules: PontoonRules) -> Payouts:
        return cls(
            pontoon=_PONTOON_PAYS[rules.pontoon_pays],
            five_card_trick=2,
            royal_pontoon=3 if rules.royal_pontoon else 0,
            banker_pontoon=_BANKER_PONTOON_COLLECTS[rules.pontoon_pays],
            banker_five_card_trick=2,
        )

    # settlement ----------------------------------------------------------------------

    @staticmethod
    def _round(multiple: int, doubled: bool) -> int:
        return max(multiple, 2) if doubled else multiple

    def player_win(self, score: int, doubled: bool) -> int:
        """What a winning hand of ``score`` is paid, times its stake."""
        if score == ROYAL:
            multiple = self.royal_pontoon
        elif score >= PONTOON:
            multiple = self.pontoon
        elif score == FIVE:
            multiple = self.five_card_trick
        else:
            multiple = self.ordinary
        return self._round(multiple, doubled)

    def player_loss(self, banker_score: int, doubled: bool) -> int:
        """What a losing hand pays the banker, times its stake: a bust hand (``BUST``) or
        a hand beaten by the banker's ``banker_score``."""
        if banker_score >= PONTOON:
            return self._round(self.banker_pontoon, doubled)
        if banker_score == FIVE:
            return self._round(self.banker_five_card_trick, doubled)
        return self._round(self.ordinary, doubled)

    # the cover rule (P-PAY-LIMIT) ------------------------------------------------------

    @cached_property
    def banker_cover(self) -> int:
        """The most a banker may pay per chip of open stake."""
        return max(self.pontoon, self.five_card_trick, self.royal_pontoon, self._round(1, True))

    @cached_property
    def player_cover(self) -> int:
        """The most a player may lose per chip of stake."""
        return max(self.banker_pontoon, self.banker_five_card_trick, self._round(1, True))


def result_label(score: int) -> str:
    """How a player's hand is named in results."""
    if score == ROYAL:
        return "royal pontoon"
    if score >= PONTOON:
        return "pontoon"
    if score == FIVE:
        return "five card trick"
    return str(score)


def result_word(score: int) -> Word | int:
    """:func:`result_label` as the bot's catalog word (a plain total stays a number)."""
    if score == ROYAL:
        return Word("engine.label.royal")
    if score >= PONTOON:
        return Word("engine.label.pontoon")
    if score == FIVE:
        return Word("engine.label.five")
    return score


def banker_word(score: int) -> Word:
    """:func:`banker_label` as the bot's catalog word."""
    if score == BUST:
        return Word("engine.why.banker_bust")
    if score == FIVE:
        return Word("engine.label.banker_five")
    return Word("engine.label.banker_total", (("total", score),))


def banker_label(score: int) -> str:
    if score == BUST:
        return "banker bust"
    if score == FIVE:
        return "banker's five card trick"
    return f"banker's {score}"
