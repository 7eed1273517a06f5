"""Plain data the Store returns (never database rows)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, NamedTuple, Protocol

GAME_NAME_MAX = 32  # a game's stored name: 1 to 32 characters (the CHECK of migration 004)
TableStatus = Literal["open", "closed"]

# Bounds on chip amounts: one grant, one setting value, one transfer.
MAX_GRANT = 10**9
MAX_TRANSFER = 10**12

# the reasons of ledger rows others read back: a gift between members (/give, shown in
# /stats and counted against the giver's daily cap), a season's reset (/casino reset)
GIFT_REASON = "gift"
RESET_REASON = "season reset"


class TransferLike(Protocol):
    """Anything with the four fields of a chip move, e.g. ``engine.pontoon.types.Transfer``."""

    @property
    def src(self) -> str: ...

    @property
    def dst(self) -> str: ...

    @property
    def amount(self) -> int: ...

    @property
    def reason(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Move:
    """A chip move between ledger accounts (the Store's own TransferLike)."""

    src: str
    dst: str
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    guild_id: int
    channel_id: int
    game: str
    status: TableStatus
    version: int
    state_json: str
    message_id: int | None
    created_at: str
    updated_at: str
    closed_at: str | None
    # what its message was confirmed to show (migrations 012 and 013; read at a reload):
    # the table's version, and the moment (epoch seconds) it counts down to, if any
    shown_version: int | None = None
    shown_deadline: float | None = None

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    @property
    def shows_its_version(self) -> bool:
        """Its message was confirmed to show the table at its stored version."""
        return self.message_id is not None and self.shown_version == self.version


class ShownMessage(NamedTuple):
    """A table message seen to show its table at ``version`` (what
    ``Store.confirm_shown`` writes): ``deadline`` is the moment (epoch seconds) it counts
    down to, None when it shows no countdown."""

    table_id: str
    message_id: int
    version: int
    deadline: float | None = None


class TableReply(NamedTuple):
    """How the bot reaches a table it may only answer interactions at (outside the
    servers that installed it): the freshest interaction token its members gave, the
    moment it expires (epoch seconds) and the language its messages are written in."""

    table_id: str
    token: str
    expires: float
    locale: str


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server settings; a server that never set one gets the process default.

    The fields are the server's economy (``GUILD_SETTING_KEYS``); ``tables`` holds each
    game's table limits under ``<game>.<name>`` keys (what /casino settings writes; a
    missing key means the game's own default, which the game's code knows)."""

    starting_chips: int = 1000
    daily_chips: int = 100  # 0: no /daily in this server
    daily_cooldown_minutes: int = 1200
    round_limit: int = 0  # rounds per member, game and period; 0: no limit
    round_period_minutes: int = 1440
    account_age_days: int = 0  # 0: no gate on the account's age
    member_age_days: int = 0  # 0: no gate on the time since joining the server
    # /give: off (0) until an owner switches it on (1); the most chips one member may
    # give in one UTC day
    give_enabled: int = 0
    give_daily_cap: int = 1000
    tables: Mapping[str, int] = field(default_factory=dict)

    def value(self, key: str, default: int = 0) -> int:
        """The value in effect of any setting: an economy field by its name, a game's
        ``<game>.<name>`` key (``default`` when the server set none)."""
        if key in GUILD_SETTING_KEYS:
            return int(getattr(self, key))
        return self.tables.get(key, default)


#: the economy's settings (GuildSettings' fields, stored under these keys)
GUILD_SETTING_KEYS: tuple[str, ...] = (
    "starting_chips",
    "daily_chips",
    "daily_cooldown_minutes",
    "round_limit",
    "round_period_minutes",
    "account_age_days",
    "member_age_days",
    "give_enabled",
    "give_daily_cap",
)
#: settings that are a switch: 0 (off) or 1 (on)
GUILD_SWITCH_KEYS: frozenset[str] = frozenset({"give_enabled"})


@dataclass(frozen=True, slots=True)
class SettingChange:
    """One line of a server's settings trail (/casino log): who changed which setting
    from what to what, and when (``by_user_id`` None: erased, or the bot itself)."""

    id: int
    guild_id: int
    key: str
    old_value: int
    new_value: int
    ts: str
    by_user_id: int | None


@dataclass(frozen=True, slots=True)
class StakeCheck:
    """What the store says before a member stakes at a table, read in one transaction
    (``Store.stake_check``): ``break_ends`` the end of the break they are on (None: not
    on one), ``plays_again_at`` when the server's round limit lets them play the game
    again (None: they may now, or it was not asked), ``balance`` their chips (None: not
    asked, or a refusal above came first)."""

    break_ends: datetime | None
    plays_again_at: datetime | None
    balance: int | None


@dataclass(frozen=True, slots=True)
class SeasonReset:
    """A season closed by ``/casino reset``: the server's season ``season`` ended at
    ``ended_at`` (ISO), reset by ``by_user_id``; ``members`` balances went back to
    ``starting_chips`` through the ledger; ``moved_in``/``moved_out``: the chips the
    house paid to members below the starting amount and took from those above it."""

    guild_id: int
    season: int
    ended_at: str
    by_user_id: int | None
    starting_chips: int
    members: int
    tables_closed: int
    moved_in: int
    moved_out: int


@dataclass(frozen=True, slots=True)
class SeasonPreview:
    """What a reset would do now (its confirmation names it)."""

    season: int  # the season it closes
    members: int  # members whose balances go back to the starting chips
    starting_chips: int


class LeaderboardEntry(NamedTuple):
    user_id: int
    balance: int


@dataclass(frozen=True, slots=True)
class TransferRecord:
    id: int
    ts: str
    guild_id: int
    kind: Literal["transfer", "grant"]
    src: str | None
    dst: str
    amount: int
    reason: str
    table_id: str | None
    by_user_id: int | None


@dataclass(frozen=True, slots=True)
class ActionLogEntry:
    table_id: str
    version: int
    ts: str
    description: str


@dataclass(frozen=True, slots=True)
class AccountAudit:
    """One account with its cached balance and what the ledger says about it."""

    account: str
    kind: str
    guild_id: int
    user_id: int | None
    table_id: str | None
    balance: int
    transfers_in: int  # sum of kind='transfer' rows into the account
    transfers_out: int  # sum of kind='transfer' rows out of the account
    grants_in: int  # sum of kind='grant' rows into the account


@dataclass(frozen=True, slots=True)
class LedgerSnapshot:
    """Everything the audit needs, read in one consistent read transaction."""

    accounts: list[AccountAudit]
    tables: dict[str, tuple[int, TableStatus]]  # table id -> (guild id, status)
    grants_by_guild: dict[int, int]
    transfer_count: int
    # Ledger rows that break an invariant the schema cannot express: descriptions.
    anomalies: list[str] = field(default_factory=list)
    schema_version: int = 0
    # Open tables' saved states: table id -> (game, state_json), read in the same
    # transaction, so the audit can hold each escrow and kitty against its table.
    open_states: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Open tables' escrow entries: table id -> {counterpart account: its net chips into
    # the table's escrow since the escrow last stood at zero}, so the audit can hold
    # each seat's stake against the member's own escrow entries.
    escrow_nets: dict[str, dict[str, int]] = field(default_factory=dict)
    # chips_in_play rows: table id -> the members with chips in play there.
    in_play: dict[str, set[int]] = field(default_factory=dict)
