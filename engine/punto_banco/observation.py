"""What a viewer may see of a Punto Banco table (``PuntoBancoTable.observe``): one
immutable record, the engine's answer to who sees what (docs/rules/punto-banco.md).

- B-DEAL-1: every card of a coup is dealt face up, Punto's and Banco's alike, so once
  dealt the coup is everyone's to see; nobody holds a card of their own.
- B-TABLE-1: the croupier (the bot) alone touches the cards: no viewer is shown the
  shoe, its order or the cards still in it, only how many the next coup is dealt from.
- B-BET-1: the bets lie on the table: everyone sees every bet on the next coup.

So every viewer's observation is the public one; a bettor's also names that bettor's
own bets (and last coup's, which a repeat would place again).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.punto_banco.bets import Bet
from engine.punto_banco.coup import Coup


@dataclass(frozen=True, slots=True)
class PuntoBancoObservation:
    """What ``viewer`` may see of the table now (``PUBLIC`` None: everyone)."""

    viewer: str | None
    #: coups dealt so far at this table
    coup_no: int
    #: the bets on the next coup, in the order they were first placed (B-BET-1)
    bets: tuple[Bet, ...]
    #: the last coup dealt, every card face up (B-DEAL-1); None before the first
    last_coup: Coup | None
    #: how many cards the next coup is dealt from (B-TABLE-2), never which
    cards_for_next_coup: int
    #: the shoe is shuffled before the next coup (B-TABLE-2)
    needs_shuffle: bool
    #: the viewer's own bets on the next coup, and on the last one (empty for the public)
    own_bets: tuple[Bet, ...]
    own_last_bets: tuple[Bet, ...]

    def cards(self) -> tuple[Card, ...]:
        """Every card this observation shows: the last coup's, in the order dealt."""
        return () if self.last_coup is None else tuple(c for _, c in self.last_coup.dealt)


__all__ = ["PuntoBancoObservation"]
