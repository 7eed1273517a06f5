"""Who reads which language.

- Private answers (ephemeral replies, DMs) follow the member: their ``/language`` choice,
  else their Discord client's locale (``interaction.locale``), else the server's language.
- Public table messages follow the server: its ``/language server:`` choice, else the
  server's preferred locale (``interaction.guild_locale`` / ``Guild.preferred_locale``).

Choices are stored (bot/storage, migration 006) and cached here; the Discord locales seen
in interactions are remembered in memory so DMs sent later (cards) use them too. The
cache is read again from the store once it is ``ttl`` seconds old (at the next lookup
that may wait for the database), so a choice changed by another bot process (/language
on another shard) is not kept here for longer than that. A choice erased by another
process (/privacy delete on another shard) is dropped at once: the store signals the
erasure to every process (``store.on_erasure``, wired in bot/app.py to
:meth:`Languages.forgotten`); if that signal is missed, the ``ttl`` still applies.
"""

from __future__ import annotations

import logging
import time
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
        self,
        store: Store,
        guild_preferred: Callable[[int], object] | None = None,
        *,
        ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.ttl = ttl
        self._clock = clock
        self._loaded_at = 0.0
        self._guild_preferred = guild_preferred
        self._member_choice: dict[int, str | None] = {}
        self._guild_choice: dict[int, str | None] = {}
        self._member_discord: dict[int, str] = {}
        self._guild_discord: dict[int, str] = {}
        self._loaded = False

    async def load(self) -> None:
        """Read every stored choice once (at start-up), so the ``*_now`` lookups that
        rendering code uses need no database."""
        seen_members, seen_guilds = dict(self._member_choice), dict(self._guild_choice)
        members, guilds = await self.store.all_languages()
        # replaced, not merged: a choice erased meanwhile is gone here too; one made in
        # this process while the read was under way is kept
        self._member_choice = _fresh(members, self._member_choice, seen_members)
        self._guild_choice = _fresh(guilds, self._guild_choice, seen_guilds)
        self._loaded = True
        self._loaded_at = self._clock()

    async def refresh_if_stale(self) -> None:
        """Read every choice again once the cache is ``ttl`` seconds old. A failed read
        keeps the cache as it is and is tried again ``ttl`` seconds later."""
        if not self._loaded or self._clock() - self._loaded_at < self.ttl:
            return
        self._loaded_at = self._clock()  # one reader at a time; none while it fails
        try:
            await self.load()
        except Exception:
            log.exception("could not read the language choices again")

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
        await self.refresh_if_stale()
        if user_id not in self._member_choice and not self._loaded:
            self._member_choice[user_id] = await self.store.member_language(user_id)
        return self._member_choice.get(user_id)

    async def guild_choice(self, guild_id: int) -> str | None:
        await self.refresh_if_stale()
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


def _fresh(
    stored: dict[int, str], now: dict[int, str | None], before: dict[int, str | None]
) -> dict[int, str | None]:
    """The stored choices, with those changed here since ``before`` kept as they are now."""
    fresh: dict[int, str | None] = dict(stored)
    for key, value in now.items():
        if key not in before or before[key] != value:
            fresh[key] = value
    return fresh


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
