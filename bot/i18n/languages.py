"""Who reads which language.

- Private answers (ephemeral replies, DMs) follow the member: their ``/language`` choice,
  else their Discord client's locale (``interaction.locale``), else the server's language.
- Public table messages follow the server: its ``/language server:`` choice, else the
  server's preferred locale (``interaction.guild_locale`` / ``Guild.preferred_locale``).

Choices are stored (bot/storage, migration 003) and cached here; the Discord locales seen
in interactions are remembered in memory so DMs sent later (cards) use them too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.i18n import DEFAULT_LOCALE, normalize


class Store(Protocol):
    """What the languages need of the store (``bot.storage.Store`` is one): the storage
    layer uses ``bot.i18n`` for its messages, so ``bot.i18n`` names no storage class."""

    async def all_languages(self) -> tuple[dict[int, str], dict[int, str]]: ...

    async def member_language(self, user_id: int) -> str | None: ...

    async def guild_language(self, guild_id: int) -> str | None: ...

    async def set_member_language(self, user_id: int, locale: str | None) -> None: ...

    async def set_guild_language(
        self, guild_id: int, locale: str | None, by_user_id: int | None = None
    ) -> None: ...


log = logging.getLogger(__name__)


class Languages:
    """Resolves and remembers member and server languages."""

    def __init__(
        self, store: Store, guild_preferred: Callable[[int], object] | None = None
    ) -> None:
        self.store = store
        self._guild_preferred = guild_preferred
        self._member_choice: dict[int, str | None] = {}
        self._guild_choice: dict[int, str | None] = {}
        self._member_discord: dict[int, str] = {}
        self._guild_discord: dict[int, str] = {}
        self._loaded = False

    async def load(self) -> None:
        """Read every stored choice once (at start-up), so the ``*_now`` lookups that
        rendering code uses need no database."""
        members, guilds = await self.store.all_languages()
        self._member_choice.update(members)
        self._guild_choice.update(guilds)
        self._loaded = True

    # --------------------------------------------------------------- what Discord says
    def note(self, interaction: Any) -> None:
        """Remember the Discord locales an interaction carries."""
        user = getattr(interaction, "user", None)
        found = normalize(getattr(interaction, "locale", None))
        if user is not None and found is not None:
            self._member_discord[int(user.id)] = found
        guild_id = getattr(interaction, "guild_id", None)
        guild_found = normalize(getattr(interaction, "guild_locale", None))
        if guild_id is not None and guild_found is not None:
            self._guild_discord[int(guild_id)] = guild_found

    def discord_member(self, user_id: int) -> str | None:
        return self._member_discord.get(user_id)

    def discord_guild(self, guild_id: int) -> str | None:
        found = self._guild_discord.get(guild_id)
        if found is None and self._guild_preferred is not None:
            found = normalize(self._guild_preferred(guild_id))
        return found

    # ------------------------------------------------------------------------ choices
    async def member_choice(self, user_id: int) -> str | None:
        if user_id not in self._member_choice and not self._loaded:
            self._member_choice[user_id] = await self.store.member_language(user_id)
        return self._member_choice.get(user_id)

    async def guild_choice(self, guild_id: int) -> str | None:
        if guild_id not in self._guild_choice and not self._loaded:
            self._guild_choice[guild_id] = await self.store.guild_language(guild_id)
        return self._guild_choice.get(guild_id)

    async def choose_member(self, user_id: int, locale: str | None) -> None:
        await self.store.set_member_language(user_id, locale)
        self._member_choice[user_id] = locale

    def forgotten(self, user_id: int) -> None:
        """The member's data was erased (/privacy delete): forget their choice here too."""
        self._member_choice[user_id] = None
        self._member_discord.pop(user_id, None)

    async def choose_guild(self, guild_id: int, locale: str | None, by: int | None) -> None:
        await self.store.set_guild_language(guild_id, locale, by)
        self._guild_choice[guild_id] = locale

    # ------------------------------------------- resolve without I/O (after ``load``)
    def guild_now(self, guild_id: int | None) -> str:
        """:meth:`guild` from what is known in memory (every choice once loaded)."""
        if guild_id is None:
            return DEFAULT_LOCALE
        chosen = self._guild_choice.get(guild_id)
        return chosen or self.discord_guild(guild_id) or DEFAULT_LOCALE

    def member_now(self, user_id: int, guild_id: int | None = None) -> str:
        """:meth:`member` from what is known in memory (every choice once loaded)."""
        chosen = self._member_choice.get(user_id)
        if chosen:
            return chosen
        return self.discord_member(user_id) or self.guild_now(guild_id)

    # ------------------------------------------------------------------------ resolve
    async def guild(self, guild_id: int | None) -> str:
        """The language of a server's public table messages."""
        if guild_id is None:
            return DEFAULT_LOCALE
        try:
            chosen = await self.guild_choice(guild_id)
        except Exception:
            log.exception("could not read the language of server %s", guild_id)
            chosen = None
        return chosen or self.discord_guild(guild_id) or DEFAULT_LOCALE

    async def member(self, user_id: int, guild_id: int | None = None) -> str:
        """The language of a member's private answers and DMs."""
        try:
            chosen = await self.member_choice(user_id)
        except Exception:
            log.exception("could not read the language of member %s", user_id)
            chosen = None
        if chosen:
            return chosen
        found = self.discord_member(user_id)
        if found:
            return found
        return await self.guild(guild_id) if guild_id is not None else DEFAULT_LOCALE

    async def of(self, interaction: Any) -> str:
        """The language to answer this interaction privately in."""
        self.note(interaction)
        return await self.member(int(interaction.user.id), getattr(interaction, "guild_id", None))

    async def public(self, interaction: Any) -> str:
        """The language of public messages in this interaction's server."""
        self.note(interaction)
        return await self.guild(getattr(interaction, "guild_id", None))


def languages_of(client: Any) -> Languages | None:
    found = getattr(client, "languages", None)
    return found if isinstance(found, Languages) else None


async def locale_of(interaction: Any) -> str:
    """The member's language for a private answer to ``interaction`` (English if the
    client has no :class:`Languages`)."""
    langs = languages_of(getattr(interaction, "client", None))
    if langs is None:
        return normalize(getattr(interaction, "locale", None)) or DEFAULT_LOCALE
    return await langs.of(interaction)


async def public_locale_of(interaction: Any) -> str:
    """The server's language for a public message answering ``interaction``."""
    langs = languages_of(getattr(interaction, "client", None))
    if langs is None:
        return normalize(getattr(interaction, "guild_locale", None)) or DEFAULT_LOCALE
    return await langs.public(interaction)
