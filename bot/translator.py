"""Slash command names, descriptions, option names and choices in German, French and
Hindi (the locales Discord has of ours; Discord has no Persian), from the catalogs.

The message id is derived from where the string sits, so the cogs need no change:
``cmd.<qualified.name>.name`` / ``.desc``, ``cmd.<qualified.name>.opt.<option>.name`` /
``.desc`` and ``choice.<value>``. A string without an entry stays English.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import catalog

#: Discord locales we translate into (Persian is not a Discord locale)
DISCORD_LANGS = frozenset({"de", "fr", "hi"})


def _path(command: Any) -> str:
    return "cmd." + str(command.qualified_name).replace(" ", ".")


def command_key(location: Where, data: Any) -> str | None:
    """The message id of a command string at ``location`` (``data`` as discord.py gives)."""
    if location in (Where.command_name, Where.group_name):
        return _path(data) + ".name"
    if location in (Where.command_description, Where.group_description):
        return _path(data) + ".desc"
    if location is Where.parameter_name:
        return f"{_path(data.command)}.opt.{data.name}.name"
    if location is Where.parameter_description:
        return f"{_path(data.command)}.opt.{data.name}.desc"
    if location is Where.choice_name:
        return f"choice.{data.value}"
    return None


def lookup(lang: str, location: Where, data: Any) -> str | None:
    key = command_key(location, data)
    if key is None:
        return None
    return catalog(lang).get(key)


class CatalogTranslator(app_commands.Translator):
    """discord.py's Translator over our catalogs (set in ``CardBot.setup_hook``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = str(locale.value)
        if lang not in DISCORD_LANGS:
            return None
        return lookup(lang, context.location, context.data)
