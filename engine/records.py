"""Records shared by every game engine: account names, chip transfers and the errors.

A game's ``apply`` returns ``Transfer`` records (chip moves between accounts) that the bot
writes to its ledger. Accounts are seat ids or one of the special names below.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from typing import Final, NamedTuple

from engine.errors import ConfigError, EngineError, RuleError

# Special account names used in transfers besides seat ids.
ESCROW: Final = "@escrow"  # stakes placed on the table (held until settlement)
KITTY: Final = "@kitty"  # Shoot Pontoon kitty (P-SHOOT-1)
HOUSE: Final = "@house"  # the house as banker (house-banked table); unlimited cover


class Transfer(NamedTuple):
    """A chip move between accounts (seat ids or ESCROW/KITTY/HOUSE). amount > 0.

    A frozen record (a tuple underneath: cheap to build); read by attribute name.
    Assignment raises ``dataclasses.FrozenInstanceError``; ``dataclasses.fields`` and
    ``asdict`` work on it."""

    src: str
    dst: str
    amount: int
    reason: str

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


def give_dataclass_fields(record: type, spec: type) -> None:
    """Give the tuple record ``record`` the dataclass field metadata of ``spec`` (the same
    fields), so ``dataclasses.fields`` / ``asdict`` / ``is_dataclass`` work on it."""
    for name in ("__dataclass_fields__", "__dataclass_params__"):
        setattr(record, name, vars(spec)[name])


@dataclass(frozen=True)
class _TransferFields:
    src: str
    dst: str
    amount: int
    reason: str


give_dataclass_fields(Transfer, _TransferFields)

__all__ = [
    "ESCROW",
    "HOUSE",
    "KITTY",
    "ConfigError",
    "EngineError",
    "RuleError",
    "Transfer",
    "give_dataclass_fields",
]
