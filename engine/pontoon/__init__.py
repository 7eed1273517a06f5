"""Pontoon: rules options, hand values and ranking, the round state machine, settlement.

Pure package: no discord, no asyncio, no I/O, no global random.
"""

from engine.pontoon.rules import PontoonRules
from engine.pontoon.table import Table
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
from engine.pontoon.views import HandStatus, HandView, Observation, SeatView, TableView

__all__ = [
    "ESCROW",
    "HOUSE",
    "KITTY",
    "Action",
    "ActionKind",
    "Event",
    "EventKind",
    "HandStatus",
    "HandView",
    "LegalAction",
    "Observation",
    "Outcome",
    "Phase",
    "PontoonRules",
    "SeatView",
    "Table",
    "TableView",
    "Transfer",
]
