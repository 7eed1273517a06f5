"""Ledger account ids and the mapping from the engines' account names.

Account ids are short strings:

=====================  ===================================================
``member:{g}:{u}``     a member's chips in guild ``g`` (``u`` = Discord user id)
``escrow:{table}``     stakes on a table, held until settlement
``kitty:{table}``      a table's kitty (a pot the game keeps between rounds)
``house:{g}``          the server's house (banker of house-banked tables)
``anon:{token}``       an erased member's old ledger rows (/privacy delete,
                       /chips forget): a random token, never any chips
=====================  ===================================================

``g`` is :data:`PERSONAL_SCOPE` (0) for a member's own chips outside servers (DMs, group
DMs, a server where only the member installed the app): ``member:0:{u}`` is one balance
per person, and ``house:0`` the house of the tables played with those chips; the ledger
and the audit treat scope 0 as one more economy, apart from every server's.

The engines name accounts by seat id (a Discord user id as a string) or by the special
names ``@escrow``, ``@kitty`` and ``@house``; :func:`map_engine_account` turns those into
ledger ids.
"""

from __future__ import annotations

from typing import Literal

from engine.records import is_computer_seat

AccountKind = Literal["member", "escrow", "kitty", "house", "anon"]
ACCOUNT_KINDS: tuple[AccountKind, ...] = ("member", "escrow", "kitty", "house", "anon")
ANON_PREFIX = "anon:"

#: the economy of a member's own chips outside servers (cogs.common.economy_scope): no
#: Discord id is 0, so it never names a real server; its settings are the machine's
PERSONAL_SCOPE = 0

ENGINE_ESCROW = "@escrow"
ENGINE_KITTY = "@kitty"
ENGINE_HOUSE = "@house"


def _check_id(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a non-negative int, got {value!r}")
    return value


def _check_table(table_id: str) -> str:
    if not isinstance(table_id, str) or not table_id or ":" in table_id or len(table_id) > 64:
        raise ValueError(f"bad table id {table_id!r}")
    return table_id


def member_account(guild_id: int, user_id: int) -> str:
    return f"member:{_check_id(guild_id, 'guild_id')}:{_check_id(user_id, 'user_id')}"


def escrow_account(table_id: str) -> str:
    return f"escrow:{_check_table(table_id)}"


def kitty_account(table_id: str) -> str:
    return f"kitty:{_check_table(table_id)}"


def house_account(guild_id: int) -> str:
    return f"house:{_check_id(guild_id, 'guild_id')}"


def map_engine_account(name: str, guild_id: int, table_id: str) -> str:
    """The ledger account for an engine's account name at one table.

    ``"@escrow"`` -> ``escrow:{table_id}``, ``"@kitty"`` -> ``kitty:{table_id}``,
    ``"@house"`` and a computer player's seat (``cpu-1``...) -> ``house:{guild_id}``, a seat id (a Discord user id, digits) ->
    ``member:{guild_id}:{seat}``. A name that already is a ledger id passes through
    unchanged. Anything else raises ValueError.
    """
    if name == ENGINE_ESCROW:
        return escrow_account(table_id)
    if name == ENGINE_KITTY:
        return kitty_account(table_id)
    if name == ENGINE_HOUSE or is_computer_seat(name):
        # a computer player plays with the house's chips: its stakes and wins are the house's
        return house_account(guild_id)
    if is_member_seat(name):
        return member_account(guild_id, int(name))
    parse_account(name)  # raises ValueError unless a well-formed ledger id
    return name


def parse_account(account: str) -> tuple[AccountKind, int | None, int | None, str | None]:
    """Split a ledger id into (kind, guild_id, user_id, table_id); ValueError if malformed.

    guild_id is None for escrow/kitty ids (their guild is the table's) and for anonymous
    ids (their guild is in their accounts row).
    """
    parts = account.split(":") if isinstance(account, str) else []
    kind = parts[0] if parts else ""
    if kind == "member" and len(parts) == 3 and all(is_member_seat(p) for p in parts[1:]):
        return "member", int(parts[1]), int(parts[2]), None
    if kind == "house" and len(parts) == 2 and is_member_seat(parts[1]):
        return "house", int(parts[1]), None, None
    if kind in ("escrow", "kitty") and len(parts) == 2 and parts[1] and len(parts[1]) <= 64:
        return ("escrow" if kind == "escrow" else "kitty"), None, None, parts[1]
    if kind == "anon" and len(parts) == 2 and parts[1].isascii() and parts[1].isalnum():
        return "anon", None, None, None
    raise ValueError(f"not a ledger account id: {account!r}")


def anon_account(token: str) -> str:
    """An erased member's anonymous account id (``token``: random, fresh per erasure)."""
    if not token or not token.isascii() or not token.isalnum() or len(token) > 64:
        raise ValueError(f"bad anonymous token {token!r}")
    return ANON_PREFIX + token


def is_member_seat(name: str) -> bool:
    """An engine account name that is a member's seat: their Discord user id, digits
    (not the house, the escrow, the kitty or a test's name)."""
    return name.isascii() and name.isdigit()
