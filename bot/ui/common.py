"""Small discord.py helpers every cog shares: answering privately, reading modal fields."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


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
