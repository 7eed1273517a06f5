"""High Card's rules (the tests' fourth game). Pure: no bot, no Discord.

- HC-JOIN: a member takes a seat (at most :data:`MAX_SEATS`) while no draw is pending.
- HC-BET: a seated member stakes once a round, from the table's minimum to its maximum,
  never more than they hold; the stake goes into the escrow.
- HC-DRAW: a member with a stake calls the draw: each stake gets one card and the house
  one card (ranks only, ace high); a higher card wins even money, a lower one loses the
  stake to the house, the same rank gives the stake back (a push). The round is then
  settled (``is_terminal``) until the next seat or stake starts the next one.
"""

from __future__ import annotations

from engine.errors import ConfigError, RuleError
from tests.fourth_game.engine.highcard.table import (
    MAX_SEATS,
    Action,
    ActionKind,
    Drawn,
    HighCardObservation,
    HighCardRules,
    HighCardTable,
    Offer,
    Outcome,
)

__all__ = [
    "MAX_SEATS",
    "Action",
    "ActionKind",
    "ConfigError",
    "Drawn",
    "HighCardObservation",
    "HighCardRules",
    "HighCardTable",
    "Offer",
    "Outcome",
    "RuleError",
]
