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

# A computer player's seat id: ``cpu-1``, ``cpu-2``... A computer player plays with the
# house's chips: what it brings to the table comes from HOUSE and goes back to HOUSE when
# it leaves, so the bot books every chip it stakes or wins to the house account.
COMPUTER_PREFIX: Final = "cpu-"


def computer_seat(n: int) -> str:
    """The seat id of computer player number ``n`` (1, 2, ...)."""
    return f"{COMPUTER_PREFIX}{n}"


def is_computer_seat(seat: str | None) -> bool:
    """A seat played by the bot itself (see ``computer_seat``)."""
    return seat is not None and seat.startswith(COMPUTER_PREFIX)


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
    "COMPUTER_PREFIX",
    "ESCROW",
    "HOUSE",
    "KITTY",
    "ConfigError",
    "EngineError",
    "RuleError",
    "Transfer",
    "computer_seat",
    "give_dataclass_fields",
    "is_computer_seat",
]
