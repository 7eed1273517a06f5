"""Blackjack: seats, bets, the round and settlement, and the house edge of a table's
rules for a basic-strategy player.

Pure: no discord, no asyncio, no I/O, no global random. Rules:
``docs/rules/blackjack.md`` (ids ``BJ-...``); API: ``engine/blackjack/API.md``.

    from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable
    table = BlackjackTable(BlackjackRules(decks=6))          # an engine.game.Game
    table.apply(Action("ann", ActionKind.JOIN))
    table.apply(Action("ann", ActionKind.BET, 10, balance=100))  # ann -> @escrow
    out = table.apply(Action(DEALER, ActionKind.DEAL), chance)
    table.to_act(); table.legal_actions("ann"); table.observe()  # no hole card (BJ-DEAL-1)
    house_edge(rules).edge                                   # BJ-EDGE-1
"""

from engine.blackjack.actions import (
    DEALER,
    Action,
    ActionKind,
    Event,
    EventKind,
    HandOutcome,
    HandResult,
    LegalAction,
    Outcome,
    Phase,
    RoundResult,
)
from engine.blackjack.hands import best_total, dealer_hits, hand_total, is_blackjack
from engine.blackjack.observation import BlackjackObservation, BoxSeen, HandSeen
from engine.blackjack.odds import HouseEdge, house_edge
from engine.blackjack.rules import MAX_SEATS, BlackjackRules
from engine.blackjack.shoe import Shoe
from engine.blackjack.table import BlackjackTable, Box, Hand
from engine.records import ESCROW, HOUSE, Transfer

__all__ = [
    "DEALER",
    "ESCROW",
    "HOUSE",
    "MAX_SEATS",
    "Action",
    "ActionKind",
    "BlackjackObservation",
    "BlackjackRules",
    "BlackjackTable",
    "Box",
    "BoxSeen",
    "Event",
    "EventKind",
    "Hand",
    "HandOutcome",
    "HandResult",
    "HandSeen",
    "HouseEdge",
    "LegalAction",
    "Outcome",
    "Phase",
    "RoundResult",
    "Shoe",
    "Transfer",
    "best_total",
    "dealer_hits",
    "hand_total",
    "house_edge",
    "is_blackjack",
]
