"""Small discord.py helpers every game and cog shares: the bot as this layer sees it,
answering privately, reading modal fields, display names. (The click whose answer
carries the new table, and the table message's writer, are in cogs/table_message.py.)"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.i18n.languages import Languages
from bot.pontoon import OpenPontoonTable, PontoonService
from bot.punto_banco import PuntoBancoService
from bot.settings import Settings
from bot.sharding import ShardPlan
from bot.storage import Store
from bot.text import NAME_MAX, shorten

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


class PontoonPresenter(Protocol):
    """What buttons, forms and commands ask of the Pontoon presenter
    (:class:`cogs.pontoon.presenter.PontoonDiscordPresenter`, which also draws those buttons:
    naming it here would be an import circle)."""

    def remember(self, live: OpenPontoonTable, interaction: Interaction) -> None: ...

    def hand_summary(self, live: OpenPontoonTable, seat: str, locale: str | None = None) -> str: ...

    def name_ids(self, live: OpenPontoonTable, text: str, locale: str | None = None) -> str: ...


class GameBot(commands.Bot):
    """The bot as the Discord-facing code and the cogs see it. The one that runs is
    :class:`bot.app.CardBot` (start-up code, which builds these); this class only names
    what it carries, so nothing here or in the cogs imports the start-up layer."""

    settings: Settings
    store: Store
    shard_plan: ShardPlan
    languages: Languages
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
