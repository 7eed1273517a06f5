"""What a server's owners may set (/casino settings), declared once, and how a new table
and a round obey it. No discord here: the panel (cogs/casino/) draws these declarations,
the games' start commands ask :func:`table_start`, the services ask the round limit.

* The **economy** is :data:`ECONOMY`: one :class:`Setting` per key of
  ``GuildSettings`` (``bot/storage/models.py``). A new economy setting is one field
  there and one entry here: the panel, its form, the checks and the trail follow.
* Each **game's table limits** are :func:`table_settings` of its name and its
  :class:`TableOption` list (the choices of its start command an owner may restrict,
  declared in the game's package as ``OWNER_OPTIONS``), stored under ``<game>.<name>``;
  and of its :class:`NumberOption` list (the numbers of its start command: decks, a
  timer), each bounded by a smallest and a largest value (``<game>.least.<name>``,
  ``<game>.most.<name>``) within the command's own range.

Every value is an int (the store's ``guild_settings`` holds ints): chips, minutes,
days, a count, a role id (0: everyone), the choices a member may pick (a bit per
choice) or the default choice (its place in the list).

A start outside the limits is refused, naming the limit (never opened at the cap): the
one rule for every game, said in README "For server owners".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.errors import ServiceError
from bot.i18n import Msg, Raw
from bot.storage.models import MAX_GRANT, GuildSettings

#: what a setting's number is: an amount of chips, minutes, days, tables or rounds; a
#: switch (0 off, 1 on: changed with an on/off menu); a role id; the choices members may
#: pick of a game's start option (a bit each) or its default (a place in its list)
Kind = Literal[
    "chips",
    "minutes",
    "days",
    "count",
    "rounds",
    "switch",
    "role",
    "choices",
    "choice",
    "number",
    "seconds",
]

#: the largest bet a table may take (the start commands' own bound)
MOST_BET = 1_000_000
#: the most open tables of one game an owner may allow in a server
MOST_TABLES = 1000
#: a day, a month: the longest cooldown and period, in minutes
MONTH_MINUTES = 30 * 24 * 60
#: ten years: the longest age gate, in days
MOST_AGE_DAYS = 3650


@dataclass(frozen=True)
class Setting:
    """One setting an owner may change: its stored key, what its number is (``kind``),
    the bounds a new value must keep, and the message id of its name. ``off``: the value
    that turns it off, which the form takes as an empty field (a limit of rounds is off,
    never 0)."""

    key: str
    kind: Kind
    low: int
    high: int
    label: str
    off: int | None = None
    default: int = 0  # the value of a game key the server never set

    def check(self, value: int, *, typed: bool = False) -> None:
        """Refuse a value out of bounds (nothing changes). ``off`` passes unless the
        owner typed it (a limit of 0 rounds is refused: an empty field turns it off)."""
        if value == self.off and not typed:
            return
        if not self.low <= value <= self.high:
            raise ServiceError(
                f"{self.key} must be from {self.low} to {self.high}.",
                key="casino.err.range",
                setting=Msg(self.label),
                low=self.low,
                high=self.high,
            )


#: the economy, in the panel's order: a new setting of GuildSettings is one entry here
#: (its key, kind, bounds and the message id of its name), as /give's two are
ECONOMY: tuple[Setting, ...] = (
    Setting("starting_chips", "chips", 0, MAX_GRANT, "casino.set.starting_chips"),
    Setting("daily_chips", "chips", 0, MAX_GRANT, "casino.set.daily_chips"),
    Setting("daily_cooldown_minutes", "minutes", 1, MONTH_MINUTES, "casino.set.daily_cooldown"),
    Setting("round_limit", "rounds", 1, 100_000, "casino.set.round_limit", off=0),
    Setting("round_period_minutes", "minutes", 1, MONTH_MINUTES, "casino.set.round_period"),
    Setting("account_age_days", "days", 0, MOST_AGE_DAYS, "casino.set.account_age"),
    Setting("member_age_days", "days", 0, MOST_AGE_DAYS, "casino.set.member_age"),
    Setting("give_enabled", "switch", 0, 1, "casino.set.give_enabled"),
    Setting("give_daily_cap", "chips", 0, MAX_GRANT, "casino.set.give_daily_cap"),
)


@dataclass(frozen=True)
class TableOption:
    """A choice of a game's start command that owners may restrict and whose default
    they may set: ``name`` is the command's option (and the rules' field), ``choices``
    its values in order, ``default`` the place of the command's own default, ``label``
    the message id of its description."""

    name: str
    choices: tuple[str | bool, ...]
    default: int
    label: str

    @property
    def every(self) -> int:
        """The bits of every choice (all allowed)."""
        return (1 << len(self.choices)) - 1


@dataclass(frozen=True)
class NumberOption:
    """A number of a game's start command that owners may bound: ``name`` is the
    command's option, ``low`` and ``high`` its own range (what the engine allows),
    ``default`` the command's own value when a member leaves it out (None: the engine's
    or the bot's, see :func:`table_start`), ``unit`` what the number is (``number``,
    ``seconds``, ``chips``), ``label`` the message id of its name."""

    name: str
    low: int
    high: int
    default: int | None
    unit: Kind
    label: str


@dataclass(frozen=True)
class GameLimits:
    """One game's table limits as the panel and a start read them."""

    game: str
    options: tuple[TableOption, ...]
    min_bet: int  # the start command's own default smallest bet
    max_bet: int  # and largest
    numbers: tuple[NumberOption, ...] = ()

    def key(self, name: str) -> str:
        return f"{self.game}.{name}"

    def settings(self) -> tuple[Setting, ...]:
        """Every setting of the game's section, in the panel's order."""
        game = self.game
        found = [
            Setting(f"{game}.min_bet_floor", "chips", 1, MOST_BET, "casino.set.floor", default=1),
            Setting(
                f"{game}.max_bet_cap", "chips", 1, MOST_BET, "casino.set.cap", default=MOST_BET
            ),
            Setting(
                f"{game}.min_bet", "chips", 1, MOST_BET, "casino.set.min_bet", default=self.min_bet
            ),
            Setting(
                f"{game}.max_bet", "chips", 1, MOST_BET, "casino.set.max_bet", default=self.max_bet
            ),
            Setting(f"{game}.opener_role", "role", 0, 2**63 - 1, "casino.set.opener_role"),
            Setting(f"{game}.max_tables", "count", 1, MOST_TABLES, "casino.set.max_tables", off=0),
        ]
        for option in self.options:
            found.append(
                Setting(
                    f"{game}.allow.{option.name}",
                    "choices",
                    1,
                    option.every,
                    option.label,
                    default=option.every,
                )
            )
            found.append(
                Setting(
                    f"{game}.default.{option.name}",
                    "choice",
                    0,
                    len(option.choices) - 1,
                    option.label,
                    default=option.default,
                )
            )
        for number in self.numbers:
            for end, default in (("least", number.low), ("most", number.high)):
                found.append(
                    Setting(
                        f"{game}.{end}.{number.name}",
                        number.unit,
                        number.low,
                        number.high,
                        number.label,
                        default=default,
                    )
                )
        return tuple(found)

    def number(self, name: str) -> NumberOption:
        return next(n for n in self.numbers if n.name == name)

    def bounds(self, settings: GuildSettings, name: str) -> tuple[int, int]:
        """The smallest and largest value of the number option ``name`` the server
        allows (the command's own range where it set none)."""
        number = self.number(name)
        return (
            settings.value(self.key(f"least.{name}"), number.low),
            settings.value(self.key(f"most.{name}"), number.high),
        )

    def value(self, settings: GuildSettings, name: str) -> int:
        setting = next(s for s in self.settings() if s.key == self.key(name))
        return settings.value(setting.key, setting.default)

    def option(self, name: str) -> TableOption:
        return next(o for o in self.options if o.name == name)

    def check(self, after: GuildSettings) -> None:
        """Refuse settings that contradict each other (nothing changes): a cap below
        the floor, a default smallest bet above the default largest, a default choice
        that members may not choose."""
        floor, cap = self.value(after, "min_bet_floor"), self.value(after, "max_bet_cap")
        if cap < floor:
            raise ServiceError(
                f"The cap {cap} is below the floor {floor}.",
                key="casino.err.cap_below_floor",
                cap=cap,
                floor=floor,
            )
        low, high = self.value(after, "min_bet"), self.value(after, "max_bet")
        if low > high:
            raise ServiceError(
                "The default smallest bet is above the default largest.",
                key="casino.err.defaults_order",
                low=low,
                high=high,
            )
        for option in self.options:
            allowed = after.value(self.key(f"allow.{option.name}"), option.every)
            default = after.value(self.key(f"default.{option.name}"), option.default)
            if not allowed >> default & 1:
                raise ServiceError(
                    "The default must be one of the allowed choices.",
                    key="casino.err.default_not_allowed",
                    setting=Msg(option.label),
                )
        for number in self.numbers:
            least, most = self.bounds(after, number.name)
            if least > most:
                raise ServiceError(
                    f"The smallest {number.name} allowed is above the largest.",
                    key="casino.err.number_order",
                    setting=Msg(number.label),
                    low=least,
                    high=most,
                )


def setting_named(key: str, games: Sequence[GameLimits]) -> tuple[Setting, GameLimits | None]:
    """The declaration of ``key`` and its game (None: the economy); ServiceError when no
    setting has that key (a forged or outdated form)."""
    for setting in ECONOMY:
        if setting.key == key:
            return setting, None
    for limits in games:
        for setting in limits.settings():
            if setting.key == key:
                return setting, limits
    raise ServiceError(f"No setting {key}.", key="casino.err.unknown")


def checker(limits: GameLimits | None) -> Callable[[GuildSettings], None] | None:
    """What a change must keep true, as the store's ``check``."""
    return None if limits is None else limits.check


@dataclass(frozen=True)
class Start:
    """A new table's bets and choices under the server's limits."""

    min_bet: int
    max_bet: int
    choices: Mapping[str, str | bool]
    #: each number option's value (None: left to the engine or the bot's setting)
    numbers: Mapping[str, int | None] = field(default_factory=dict)

    def whole(self, name: str) -> int:
        """The number option ``name``, one with a default of its own (never None)."""
        value = self.numbers[name]
        if value is None:
            raise ValueError(f"{name} has no default of its own")
        return value


def table_start(
    limits: GameLimits,
    settings: GuildSettings,
    *,
    given: Mapping[str, str | bool | None],
    min_bet: int | None,
    max_bet: int | None,
    role_ids: set[int],
    may_always_open: bool,
    open_tables: int,
    numbers: Mapping[str, int | None] | None = None,
    usual: Mapping[str, int] | None = None,
) -> Start:
    """A member opening a table of the game: refused (nothing opens), naming the limit,
    when the server lets only a role open tables and they lack it (members with Manage
    Server always may), when the server's most open tables are open, when a bet they
    give is outside the floor and the cap, or a choice they give is not allowed.
    Options they leave out take the server's defaults (bets brought within the floor
    and the cap)."""
    role = limits.value(settings, "opener_role")
    if role and not may_always_open and role not in role_ids:
        raise ServiceError(
            "Only members with a role may open tables here.",
            key="casino.err.opener_role",
            role=Raw(f"<@&{role}>"),
        )
    most = limits.value(settings, "max_tables")
    if most and open_tables >= most:
        raise ServiceError(
            f"At most {most} tables of this game may be open here.",
            key="casino.err.max_tables",
            most=most,
        )
    floor, cap = limits.value(settings, "min_bet_floor"), limits.value(settings, "max_bet_cap")
    for bet in (min_bet, max_bet):
        if bet is not None and bet < floor:
            raise ServiceError(
                f"The smallest bet here is at least {floor}.", key="casino.err.floor", amount=floor
            )
        if bet is not None and bet > cap:
            raise ServiceError(f"Bets here are capped at {cap}.", key="casino.err.cap", amount=cap)
    low = min_bet if min_bet is not None else _within(limits.value(settings, "min_bet"), floor, cap)
    high = (
        max_bet if max_bet is not None else _within(limits.value(settings, "max_bet"), floor, cap)
    )
    if min_bet is None:
        low = min(low, high)
    elif max_bet is None:
        high = max(low, high)
    chosen: dict[str, str | bool] = {}
    for option in limits.options:
        allowed = settings.value(limits.key(f"allow.{option.name}"), option.every)
        value = given.get(option.name)
        if value is None:
            chosen[option.name] = option.choices[
                settings.value(limits.key(f"default.{option.name}"), option.default)
            ]
            continue
        place = option.choices.index(value)
        if not allowed >> place & 1:
            raise ServiceError(
                "That choice is not allowed here.",
                key="casino.err.not_allowed",
                setting=Msg(option.label),
                choices=Listing(
                    [Msg(choice_label(c)) for i, c in enumerate(option.choices) if allowed >> i & 1]
                ),
            )
        chosen[option.name] = value
    return Start(low, high, chosen, _numbers(limits, settings, numbers or {}, usual or {}))


def _numbers(
    limits: GameLimits,
    settings: GuildSettings,
    given: Mapping[str, int | None],
    usual: Mapping[str, int],
) -> dict[str, int | None]:
    """The start's number options under the server's bounds (refused outside them)."""
    found: dict[str, int | None] = {}
    for number in limits.numbers:
        least, most = limits.bounds(settings, number.name)
        value = given.get(number.name)
        if value is not None:
            if not least <= value <= most:
                raise ServiceError(
                    f"{number.name} here must be from {least} to {most}.",
                    key="casino.err.number_outside",
                    setting=Msg(number.label),
                    low=least,
                    high=most,
                )
            found[number.name] = value
            continue
        if (least, most) == (number.low, number.high):
            found[number.name] = number.default  # as with no bounds (None: the engine's)
            continue
        base = number.default if number.default is not None else usual.get(number.name, least)
        found[number.name] = _within(base, least, most)
    return found


def choice_label(value: str | bool) -> str:
    """The message id that names one choice of a start option to members."""
    if isinstance(value, bool):
        return "casino.choice.on" if value else "casino.choice.off"
    return f"choice.{value}"


class Listing(Msg):
    """Several messages said as one list (in the reader's language)."""

    __slots__ = ("parts",)

    def __init__(self, parts: Sequence[Msg]) -> None:
        super().__init__("casino.list")
        self.parts = tuple(parts)

    def render(self, locale: str) -> str:
        return ", ".join(part.render(locale) for part in self.parts)


def _within(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


__all__ = [
    "ECONOMY",
    "GameLimits",
    "Listing",
    "NumberOption",
    "Setting",
    "Start",
    "TableOption",
    "checker",
    "choice_label",
    "setting_named",
    "table_start",
]
