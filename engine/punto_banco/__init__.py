"""Punto Banco (mini baccarat): tableau, coup, bets and settlement, exact odds.

Pure: no discord, no asyncio, no I/O, no global random. Rules: docs/rules/punto-banco.md.

    from engine.punto_banco import PuntoBancoRules, PuntoBancoTable, Side
    table = PuntoBancoTable(PuntoBancoRules(packs=1, tableau="seed"))
    transfers = table.place_bet("ann", Side.BANCO, 20)     # ann -> @escrow
    result = table.deal(chance)                            # CoupResult
    result.coup.dealt, result.coup.winner, result.transfers
    state = table.to_json(); PuntoBancoTable.from_json(state)
    exact_odds(8, "standard").edges(rules)
"""

from engine.punto_banco.bets import (
    Bet,
    BetOutcome,
    BetResult,
    Settlement,
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
from engine.punto_banco.odds import ExactOdds, exact_odds, exact_odds_for_counts, odds_for
from engine.punto_banco.rules import RESHUFFLE_BELOW, PuntoBancoRules, Tableau
from engine.punto_banco.simulate import SimulationResult, simulate
from engine.punto_banco.table import CoupResult, PuntoBancoTable, Shoe
from engine.records import ESCROW, HOUSE, Transfer

__all__ = [
    "ESCROW",
    "HOUSE",
    "RESHUFFLE_BELOW",
    "Bet",
    "BetOutcome",
    "BetResult",
    "Coup",
    "CoupResult",
    "ExactOdds",
    "PuntoBancoRules",
    "PuntoBancoTable",
    "Settlement",
    "Shoe",
    "Side",
    "SimulationResult",
    "Tableau",
    "Transfer",
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
