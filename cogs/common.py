"""Small discord.py helpers every game and cog shares: the bot as this layer sees it,
answering privately, reading modal fields, display names, and the click whose answer
may carry the new table."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.host import TableHost
from bot.i18n.languages import Languages
from bot.pontoon import OpenPontoonTable, PontoonService
from bot.punto_banco import PuntoBancoService
from bot.settings import Settings
from bot.sharding import ShardPlan
from bot.storage import Store
from bot.text import NAME_MAX, shorten

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]
ANSWER_BY_SECONDS = 2.2  # a click not answered by then is acknowledged (Discord allows 3 s)


class PontoonPresenter(Protocol):
    """What buttons, forms and commands ask of the Pontoon presenter
    (:class:`cogs.pontoon.presenter.PontoonDiscordPresenter`, which also draws those buttons:
    naming it here would be an import circle)."""

    def remember(self, live: OpenPontoonTable, interaction: Interaction) -> None: ...

    def hand_summary(self, live: OpenPontoonTable, seat: str, locale: str | None = None) -> str: ...

    def name_ids(self, live: OpenPontoonTable, text: str, locale: str | None = None) -> str: ...


class GamePresenter(Protocol):
    """What start-up asks of every game's presenter."""

    service: Any  # the game's service, set by start-up once both exist

    def check_after_restart(self, tables: list[Any]) -> None:
        """After a restart, in the background: show each reloaded table again (redraw
        what may be stale)."""
        ...

    async def close(self) -> None:
        """At shutdown, before the HTTP session closes: stop drawing."""
        ...


class GamePackage(Protocol):
    """What start-up finds in a game's package ``cogs.<game>`` (see bot.games): the
    presenter to build, the buttons to register; ``setup`` adds its slash commands."""

    Presenter: Callable[[GameBot], GamePresenter]
    BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...]


class GameBot(commands.Bot):
    """The bot as the Discord-facing code and the cogs see it. The one that runs is
    :class:`bot.app.CardBot` (start-up code, which builds these); this class only names
    what it carries, so nothing here or in the cogs imports the start-up layer."""

    settings: Settings
    store: Store
    shard_plan: ShardPlan
    languages: Languages
    games: dict[str, TableHost[Any]]  # every game's service, by its name in bot.games
    presenters: dict[str, Any]
    pontoon: PontoonService
    punto_banco: PuntoBancoService
    presenter: PontoonPresenter


def bot_of(interaction: Interaction) -> GameBot:
    """The bot an interaction came to (always a :class:`GameBot` in this process)."""
    return interaction.client  # type: ignore[return-value]


async def reply(interaction: Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer ``interaction`` (ephemerally by default), whether or not it was already
    answered or deferred. A failure to answer is logged, never raised."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


def modal_values(data: Any) -> dict[str, str]:
    """The text typed into each field of a submitted modal, by field custom id. Works on
    the raw interaction data, so a form opened before a restart can still be read."""
    out: dict[str, str] = {}
    rows = data.get("components", []) if isinstance(data, dict) else []
    stack = list(rows)
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        if "components" in comp:
            stack.extend(comp["components"])
        if "component" in comp:
            stack.append(comp["component"])
        if "custom_id" in comp and "value" in comp:
            out[str(comp["custom_id"])] = str(comp["value"] or "")
    return out


def can_manage_guild(interaction: Interaction) -> bool:
    """The member has Manage Server in this server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def display(raw: str) -> str:
    """A display name as players read it: shortened, markdown escaped, never a mention."""
    text = discord.utils.escape_mentions(shorten(raw.strip() or "?", NAME_MAX))
    return discord.utils.escape_markdown(text)


# ----------------------------------------- a click whose answer may carry the new table
@dataclass
class Click:
    """A member's interaction whose answer may carry the new table (an UPDATE_MESSAGE
    callback on the table message). Exactly one of the presenter, the watchdog or the code
    handling the click (a button, a form, a command) claims the answer."""

    interaction: Interaction
    table_id: str
    claimed: bool = False
    updated: bool = False  # answered with the new table
    done: bool = False  # its handling is over (a task started meanwhile must not use it)

    def claim(self) -> bool:
        if self.claimed or self.interaction.response.is_done():
            return False
        self.claimed = True
        return True


# The member action being handled in this task (None: a timer or the bot itself).
CURRENT_CLICK: ContextVar[Click | None] = ContextVar("pontoon_click", default=None)


@contextlib.contextmanager
def member_action(click: Click | None = None) -> Iterator[Click | None]:
    """Mark the code inside as a member's own action; with ``click``, the table change it
    causes is answered on that interaction (and acknowledged late if it takes too long).
    (A move the timer makes is marked by the service, in the round's log.)"""
    token = CURRENT_CLICK.set(click)
    watchdog: asyncio.TimerHandle | None = None
    if click is not None:
        watchdog = asyncio.get_running_loop().call_later(
            ANSWER_BY_SECONDS, lambda: asyncio.ensure_future(_late_ack(click))
        )
    try:
        yield click
    finally:
        if click is not None:
            click.done = True
        if watchdog is not None:
            watchdog.cancel()
        CURRENT_CLICK.reset(token)


async def _late_ack(click: Click) -> None:
    """The change took too long to answer with: acknowledge now (the writer edits)."""
    if click.claim():
        interaction = click.interaction
        with contextlib.suppress(discord.HTTPException):
            if interaction.message is None:  # a slash command: its answer comes privately
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()


async def answer(click: Click, text: str) -> None:
    """The member's private answer: the interaction's own response when still free, else
    a followup (after the watchdog acknowledged or the table update answered)."""
    interaction = click.interaction
    try:
        if click.claim():
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


async def acknowledge(click: Click) -> None:
    """Nothing to show on this click's message (the writer draws it): an empty ack."""
    if click.claim():
        with contextlib.suppress(discord.HTTPException):
            if click.interaction.message is None:
                await click.interaction.response.defer(ephemeral=True)
            else:
                await click.interaction.response.defer()
