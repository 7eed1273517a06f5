"""Small discord.py helpers every game and cog shares: the bot as this layer sees it,
display names, where a table may open, the base of a game's slash-command group and the
command bodies games share, the table buttons' base. (Answering privately,
reading a form's fields and refusals are cogs/router.py's.) (The click whose answer
carries the new table, and the table message's writer, are in cogs/table_message.py.)"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, Self, TypeVar, cast

import discord
from discord.ext import commands

from bot.banked import BankedHost
from bot.casino import GameLimits, Start, table_start
from bot.errors import ServiceError, TableExists, options_error
from bot.host import Change, HostedTable, TableHost
from bot.i18n import Msg, t
from bot.i18n.languages import Languages, locale_of
from bot.settings import GameSettings, Settings
from bot.sharding import ShardPlan
from bot.storage import Store
from bot.storage.accounts import PERSONAL_SCOPE as PERSONAL_SCOPE  # one's own chips
from bot.text import NAME_MAX, shorten
from cogs import router
from cogs.permissions import in_installed_server as in_installed_server
from cogs.permissions import missing_permissions
from cogs.permissions import refusal as permissions_refusal
from cogs.router import RoutedButton, TableForm
from engine.records import Transfer

log = logging.getLogger(__name__)

Interaction = router.Interaction  # every cog's interaction type
reply = router.reply  # the one way to answer a member privately (cogs/router.py)

RulesT = TypeVar("RulesT")
TableT = TypeVar("TableT", bound=HostedTable)
TableT_contra = TypeVar("TableT_contra", bound=HostedTable, contravariant=True)


class GamePresenter(Protocol):
    """What start-up asks of every game's presenter (built with its service)."""

    async def on_change(self, change: Change[Any]) -> None:
        """A committed change of one of the game's tables, as its service publishes it
        (start-up subscribes this)."""
        ...

    def check_after_restart(self, tables: list[Any]) -> None:
        """After a restart, in the background: show each reloaded table again (redraw
        what may be stale)."""
        ...

    async def close(self) -> None:
        """At shutdown, before the HTTP session closes: stop drawing."""
        ...

    def redraw(self, live: Any) -> None:
        """Draw ``live``'s table message again soon (its words changed: the server's
        language), through the game's one table-message path."""
        ...


class GamePackage(Protocol):
    """What start-up finds in a game's package ``cogs.<game>`` (see bot.games): the
    presenter to build, the buttons to register; ``setup`` adds its slash commands."""

    Presenter: Callable[[GameBot, Any], GamePresenter]  # built with the game's service
    Settings: type[GameSettings]  # the game's own section of the settings
    BUTTONS: tuple[type[RoutedButton], ...]  # its buttons (start-up and the router)
    FORMS: tuple[type[TableForm], ...]  # its forms (the router answers their submits)
    HELP: Any  # its part of /help, a cogs.help.HelpSection

    def refusal_text(self, interaction: Interaction, exc: BaseException, locale: str) -> str:
        """A refusal in the game's own words (cogs.router.refuse asks it)."""
        ...


class GameBot(commands.Bot):
    """The bot as the Discord-facing code and the cogs see it. The one that runs is
    :class:`bot.app.CardBot` (start-up code, which builds these); this class only names
    what it carries, so nothing here or in the cogs imports the start-up layer.

    It names no game: a game's package reaches its own service and presenter in
    ``games`` / ``presenters`` through its accessor (``cogs/<game>/access.py``)."""

    settings: Settings
    store: Store
    shard_plan: ShardPlan
    languages: Languages
    games: dict[str, TableHost[Any]]  # every game's service, by its name in bot.games
    presenters: dict[str, Any]  # every game's presenter, by the same name


def bot_of(interaction: Interaction) -> GameBot:
    """The bot an interaction came to (always a :class:`GameBot` in this process)."""
    return interaction.client  # type: ignore[return-value]


ServiceT = TypeVar("ServiceT", bound=TableHost[Any])


def game_service(
    bot: GameBot, game: str, kind: type[ServiceT], not_running: tuple[str, str]
) -> ServiceT:
    """The service of the game registered as ``game``, typed as its package knows it
    (``cogs/<game>/access.py``); when this bot does not run it, the game's own refusal
    ``not_running`` (message id, English), which the member reads."""
    found = bot.games.get(game)
    if not isinstance(found, kind):
        key, english = not_running
        raise ServiceError(english, key=key)
    return found


def table_permissions_missing(interaction: Interaction) -> list[str]:
    """What the bot lacks to show a table in the interaction's channel: nothing where it
    may only answer interactions (a group DM), since its table messages are those
    answers."""
    return missing_permissions(interaction) if in_installed_server(interaction) else []


def economy_scope(interaction: Interaction) -> int:
    """Whose chips an interaction plays with: the server's id in a server that installed
    the bot, else :data:`PERSONAL_SCOPE` (the member's own chips outside servers)."""
    if in_installed_server(interaction):
        assert interaction.guild_id is not None
        return interaction.guild_id
    return PERSONAL_SCOPE


# channel id -> the command opening a table there where the bot may only answer
# interactions, whose (public, deferred) answer the table's first message is, and the
# opener's language: the table message's writer (cogs/table_message.py) takes it when it
# draws the new table
_OPENING: dict[int, tuple[Interaction, str]] = {}


async def open_as_answer(interaction: Interaction, locale: str) -> bool:
    """A table is about to open where the bot may only answer interactions (a group DM):
    the command is acknowledged publicly, its answer to be the table message itself.
    False (nothing done) in a server that installed the bot: there the table is posted
    in the channel and the command answered privately, as always."""
    if in_installed_server(interaction) or interaction.channel_id is None:
        return False
    # one table per channel: refused privately now, since once the command is
    # acknowledged publicly its first answer could only be public
    games: dict[str, TableHost[Any]] = getattr(interaction.client, "games", None) or {}
    if any(host.has_table(interaction.channel_id) for host in games.values()):
        raise TableExists()
    await interaction.response.defer(thinking=True)
    _OPENING[interaction.channel_id] = (interaction, locale)
    return True


def opening_failed(interaction: Interaction) -> None:
    """The table did not open after :func:`open_as_answer`: forget the command."""
    if interaction.channel_id is not None:
        held = _OPENING.get(interaction.channel_id)
        if held is not None and held[0] is interaction:
            del _OPENING[interaction.channel_id]


def opening_here(channel_id: int) -> tuple[Interaction, str] | None:
    """The command opening a table in the channel, and its opener's language."""
    return _OPENING.get(channel_id)


def take_opening(channel_id: int) -> tuple[Interaction, str] | None:
    """The command opening a table in the channel, taken to answer it with the table."""
    return _OPENING.pop(channel_id, None)


def opening_put_back(channel_id: int, opening: tuple[Interaction, str]) -> None:
    """The answer could not be drawn this time: the next try takes the command again."""
    _OPENING.setdefault(channel_id, opening)


# table id -> what hears of an answered click on that table: the writer of a table it
# reaches only through interaction tokens keeps the click's token (cogs/table_message.py)
_CLICKS_HEARD: dict[str, Callable[[Interaction], None]] = {}


def hear_clicks(table_id: str, listener: Callable[[Interaction], None] | None) -> None:
    """``listener`` hears of every answered click on the table from now on (None: none)."""
    if listener is None:
        _CLICKS_HEARD.pop(table_id, None)
    else:
        _CLICKS_HEARD[table_id] = listener


def clicked_on(table_id: str, interaction: Interaction) -> None:
    """A click on the table was answered: tell whoever listens (one dict look-up)."""
    listener = _CLICKS_HEARD.get(table_id)
    if listener is not None:
        listener(interaction)


def can_manage_guild(interaction: Interaction) -> bool:
    """The member has Manage Server in this server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


#: format characters a name may not carry (bidi overrides and isolates, zero-width
#: spaces, invisible tags): they could reorder or hide the text around the name.
#: ZWNJ and ZWJ stay (Persian writing and emoji sequences need them).
_KEEP_FORMAT = {"\u200c", "\u200d"}
_SCHEME = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,20}):(//)")


@functools.lru_cache(maxsize=4096)
def display(raw: str) -> str:
    """THE way a member's name goes into any text the bot writes: invisible format
    characters dropped, shortened to ``NAME_MAX``, mentions, markdown, angle-bracket
    tags (channels, emoji, timestamps) and links made inert. Every name passes here."""
    text = "".join(
        " " if unicodedata.category(c) == "Cc" else c
        for c in raw[: NAME_MAX * 8]  # a 2,000-character name costs what a short one does
        if unicodedata.category(c) != "Cf" or c in _KEEP_FORMAT
    )
    text = discord.utils.escape_mentions(shorten(text.strip() or "?", NAME_MAX))
    text = discord.utils.escape_markdown(text).replace("<", "\\<")
    return _SCHEME.sub("\\1:\u200b\\2", text)


async def where_to_open(
    interaction: Interaction,
    locale: str,
    *,
    dm: ServiceError,
    min_bet: int,
    max_bet: int,
) -> tuple[int, int] | None:
    """What every game checks before it opens a table here, in one place: a server
    channel (else ``dm`` is raised), the bot's permissions there (else the member is told
    which are missing and None is returned: open nothing), bet limits in order. Returns
    (server id, channel id) for the table. Outside a server that installed the bot (a
    group DM, a DM, a server where only the member installed it) the table is keyed by
    :data:`PERSONAL_SCOPE` and the channel, and no permission is checked: its messages
    are the answers to the members' own interactions (cogs/table_message.py). ``dm``
    is raised only when the interaction names no channel at all."""
    if interaction.channel_id is None:
        raise dm
    missing = table_permissions_missing(interaction)
    if missing:  # the table message could not be posted: open nothing
        await reply(interaction, permissions_refusal(locale, missing))
        return None
    if min_bet > max_bet:
        raise ServiceError("The minimum bet cannot be above the maximum bet.", key="err.min_max")
    return economy_scope(interaction), interaction.channel_id


async def place_and_rules(
    interaction: Interaction,
    locale: str,
    *,
    dm: ServiceError,
    service: TableHost[Any],
    limits: GameLimits,
    given: Mapping[str, str | bool | None],
    min_bet: int | None,
    max_bet: int | None,
    rules: Callable[[Start], RulesT],
    numbers: Mapping[str, int | None] | None = None,
    usual: Mapping[str, int] | None = None,
) -> tuple[int, int, RulesT] | None:
    """The server's table limits (/casino settings, read now: a table keeps the rules it
    opened with) applied to what the member chose (``given``, None where they left an
    option out; ``numbers``: the numbers they gave, ``usual`` the bot's own of a timer;
    :func:`bot.casino.table_start` refuses a start outside them, naming the
    limit), :func:`where_to_open`, then the table's rules built by ``rules(start)``:
    options the engine refuses become the member's message (``options_error``). None:
    open nothing (the member was already told why). Outside a server that installed the
    bot no owner's limits apply: the machine's defaults do (no server chose any)."""
    if interaction.channel_id is None:
        raise dm
    bot = cast(GameBot, interaction.client)
    scope = economy_scope(interaction)
    settings = await bot.store.guild_settings(scope)
    personal = scope == PERSONAL_SCOPE
    start = table_start(
        limits,
        settings,
        given=given,
        min_bet=min_bet,
        max_bet=max_bet,
        role_ids=set()
        if personal
        else {role.id for role in getattr(interaction.user, "roles", ())},
        may_always_open=personal or can_manage_guild(interaction),
        # outside servers no server's count of open tables applies
        open_tables=0 if personal else len(service.by_guild.get(scope, {})),
        numbers=numbers,
        usual=usual,
    )
    place = await where_to_open(
        interaction, locale, dm=dm, min_bet=start.min_bet, max_bet=start.max_bet
    )
    if place is None:
        return None
    try:
        made = rules(start)
    except ValueError as exc:
        raise options_error(exc) from exc
    return place[0], place[1], made


class GameCommands(commands.GroupCog, Generic[TableT]):
    """The base of a game's slash-command group (``/<game> …``): the bot, the game's
    service and presenter, and the game's table in the channel a command is used in.

    A game's cog subclasses it with its group (``group_name=``, ``group_description=``),
    narrows ``service`` and ``presenter`` to its own types and keeps its commands, their
    decorators on its own callbacks; a body games share is one of the functions below
    (:func:`open_windowed_table`, :func:`repost_table`, :func:`end_table`)."""

    service: TableHost[TableT]
    presenter: object

    def __init__(self, bot: GameBot, service: TableHost[TableT], presenter: object) -> None:
        self.bot = bot
        self.service = service
        self.presenter = presenter
        super().__init__()

    def _table(self, interaction: Interaction) -> TableT:
        """The game's table in the interaction's channel (else the game's refusal)."""
        return self.service.in_channel(interaction.channel_id)


async def open_windowed_table(
    interaction: Interaction,
    service: BankedHost[Any, RulesT, Any],
    *,
    dm: ServiceError,
    limits: GameLimits,
    given: Mapping[str, str | bool | None],
    min_bet: int | None,
    max_bet: int | None,
    rules: Callable[[Start], RulesT],
    betting_seconds: int | None,
    opened: str,
    numbers: Mapping[str, int | None] | None = None,
    first: Callable[[RulesT], Awaitable[object]] | None = None,
) -> None:
    """/<game> start of a game whose tables take bets in timed windows: the place and the
    rules (:func:`place_and_rules`), then, the command acknowledged, ``first(rules)`` (what
    the table's first message needs worked out beforehand), the table opened by the
    game's ``service`` with the member as its opener, and ``opened`` (the game's message
    id, given the window's seconds) said to them privately. ``numbers``: the other numbers
    the member gave (the rules read them from ``Start.numbers``); the betting window is
    one of them, under the server's bounds like the rest. Where the bot may only answer
    interactions (a group DM) the command's answer is the table message itself
    (cogs/table_message.py draws it), and nothing is said privately."""
    locale = await locale_of(interaction)
    given_numbers = {**(numbers or {}), "betting_seconds": betting_seconds}
    window: list[Start] = []  # the start the rules were built from

    def built(start: Start) -> RulesT:
        window.append(start)
        return rules(start)

    made = await place_and_rules(
        interaction,
        locale,
        dm=dm,
        service=service,
        limits=limits,
        given=given,
        min_bet=min_bet,
        max_bet=max_bet,
        rules=built,
        numbers=given_numbers,
        usual={"betting_seconds": int(service.timers.betting_seconds)},
    )
    if made is None:
        return
    guild_id, channel_id, table_rules = made
    seconds = window[0].numbers.get("betting_seconds", betting_seconds) if window else None
    as_answer = await open_as_answer(interaction, locale)
    if not as_answer:
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        if first is not None:
            await first(table_rules)
        live = await service.open_table(
            guild_id,
            channel_id,
            interaction.user.id,
            table_rules,
            betting_seconds=seconds,
            opener_name=interaction.user.display_name,
        )
    except BaseException:
        opening_failed(interaction)
        raise
    if not as_answer:
        await interaction.followup.send(
            t(locale, opened, seconds=live.betting_seconds), ephemeral=True
        )


async def repost_table(
    interaction: Interaction,
    table: Callable[[Interaction], TableT],
    repost: Callable[[TableT], Awaitable[None]],
    done: str,
) -> None:
    """/<game> table: post the channel's table (``table(interaction)``) message again
    (refused, privately, where the bot lacks a permission it needs), then say ``done``
    (the game's message id). Outside servers no permission is needed: the table comes
    as a follow-up of the freshest interaction on it (cogs/table_message.py)."""
    locale = await locale_of(interaction)
    live = table(interaction)
    missing = table_permissions_missing(interaction)
    if missing:
        await reply(interaction, permissions_refusal(locale, missing))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await repost(live)
    await reply(interaction, t(locale, done))


class MayEnd(Protocol[TableT_contra]):
    """What /<game> end asks of every game before it closes a table."""

    def check_may_end(self, live: TableT_contra, user_id: int, *, is_admin: bool) -> None: ...


class EndsTables(MayEnd[TableT_contra], Protocol[TableT_contra]):
    """What /<game> end asks of a game whose close returns the chips it gave back."""

    async def close(self, table_id: str, reason: Msg) -> Sequence[Transfer]: ...


def may_end(interaction: Interaction, service: MayEnd[TableT], live: TableT) -> Msg:
    """/<game> end by the member of ``interaction``: refused unless they opened ``live`` or
    manage the server; the reason the table closes, naming them."""
    try:
        service.check_may_end(live, interaction.user.id, is_admin=can_manage_guild(interaction))
    except ServiceError as exc:
        if exc.key == "err.end_denied" and not in_installed_server(interaction):
            # no server manager here: only the opener may
            raise ServiceError(
                "Only the member who opened this table can end it.",
                key="err.end_denied.personal",
            ) from exc
        raise
    return Msg("reason.ended_by", name=display(interaction.user.display_name))


async def end_table(
    interaction: Interaction,
    service: EndsTables[TableT],
    table: Callable[[Interaction], TableT],
    done: str,
) -> None:
    """/<game> end by the member of ``interaction`` (the opener or a server manager):
    close the channel's table (``table(interaction)``) and say ``done`` (the game's
    message id, given how many chips went back to their owners; its ``.none`` form when
    no bet was open, not "0 chips went back to their owners")."""
    locale = await locale_of(interaction)
    live = table(interaction)
    reason = may_end(interaction, service, live)
    await interaction.response.defer(ephemeral=True, thinking=True)
    refunds = await service.close(live.table_id, reason)
    returned = sum(transfer.amount for transfer in refunds)
    await reply(interaction, t(locale, done if returned else done + ".none", amount=returned))


def table_button_id(prefix: str, acts: str = "[a-z_]+") -> str:
    """The custom id pattern of a game's table buttons: ``{prefix}:{table}:{act}:{number}``
    (the number is the state the button was drawn for: a version, a coup)."""
    return rf"{prefix}:(?P<table>[0-9a-f]+):(?P<act>{acts}):(?P<number>[0-9]+)"


class TableButton(
    RoutedButton,
    template=r"(?!)",  # the base matches no custom id; each game's subclass gives its own
):
    """A button on a game's table message. The custom id carries the table, the action
    and the state it was drawn for, so buttons keep working after a restart and a stale
    one is refused politely. A game subclasses it with ``template=table_button_id(p)``,
    sets ``prefix = p`` and says in :meth:`clicked` what a click does (a refusal it
    raises is answered by the router's one error handler)."""

    def __init__(
        self,
        table_id: str,
        act: str,
        number: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or act,
                style=style,
                custom_id=f"{self.prefix}:{table_id}:{act}:{number}",
                disabled=disabled,
                emoji=emoji,
                row=row,
            )
        )
        self.table_id = table_id
        self.act = act
        self.number = number

    async def callback(self, interaction: Interaction) -> None:
        await super().callback(interaction)
        clicked_on(self.table_id, interaction)  # answered: its token may reach the table

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls,
        interaction: Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(match["table"], match["act"], int(match["number"]))
