"""Punto Banco (mini baccarat): tableau, coup, bets and settlement, exact odds.

Pure: no discord, no asyncio, no I/O, no global random. Rules: docs/rules/punto-banco.md.

    from engine.punto_banco import CROUPIER, Action, ActionKind, PuntoBancoTable, Side
    table = PuntoBancoTable(PuntoBancoRules(packs=1, tableau="seed"))  # an engine.game.Game
    out = table.apply(Action("ann", ActionKind.BET, Side.BANCO, 20))   # ann -> @escrow
    out = table.apply(Action(CROUPIER, ActionKind.DEAL), chance)       # out.coup: CoupResult
    out.coup.coup.dealt, out.coup.coup.winner, out.transfers
    table.observe()                              # the bets and the last coup, never the shoe
    state = table.to_json(); PuntoBancoTable.from_json(state)
    exact_odds(8, "standard").edges(rules)
"""

from engine.punto_banco.actions import (
    CROUPIER,
    Action,
    ActionKind,
    CoupResult,
    Event,
    EventKind,
    LegalAction,
    Outcome,
)
from engine.punto_banco.bets import (
    Bet,
    BetOutcome,
    BetResult,
    Settlement,
    amount_refusal,
    payout,
    place_transfers,
    settle,
    validate_amount,
)
from engine.punto_banco.coup import (
    Coup,
    Side,
    banco_draws,
    hand_total,
    play_cards,
    play_coup,
    punto_draws,
    winner_of,
)
from engine.punto_banco.observation import PuntoBancoObservation
from engine.punto_banco.odds import ExactOdds, exact_odds, exact_odds_for_counts, odds_for
from engine.punto_banco.rules import RESHUFFLE_BELOW, PuntoBancoRules, Tableau
from engine.punto_banco.simulate import SimulationResult, simulate
from engine.punto_banco.table import PuntoBancoTable, Shoe
from engine.records import ESCROW, HOUSE, Transfer

__all__ = [
    "CROUPIER",
    "ESCROW",
    "HOUSE",
    "RESHUFFLE_BELOW",
    "Action",
    "ActionKind",
    "Bet",
    "BetOutcome",
    "BetResult",
    "Coup",
    "CoupResult",
    "Event",
    "EventKind",
    "ExactOdds",
    "LegalAction",
    "Outcome",
    "PuntoBancoObservation",
    "PuntoBancoRules",
    "PuntoBancoTable",
    "Settlement",
    "Shoe",
    "Side",
    "SimulationResult",
    "Tableau",
    "Transfer",
    "amount_refusal",
    "banco_draws",
    "exact_odds",
    "exact_odds_for_counts",
    "hand_total",
    "odds_for",
    "payout",
    "place_transfers",
    "play_cards",
    "play_coup",
    "punto_draws",
    "settle",
    "simulate",
    "validate_amount",
    "winner_of",
]
