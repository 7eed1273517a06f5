"""The languages members and servers chose with /language (migration 003).

A mixin of :class:`bot.storage.Store`, kept in its own module so the rest of the store
does not depend on it. ``None`` means no choice was made: follow Discord.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import aiosqlite

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from contextlib import AbstractAsyncContextManager
    from typing import Any, TypeVar

    T = TypeVar("T")

#: the locales the catalogs have (bot/i18n); the migration's CHECK lists the same
LANGUAGE_CODES = ("en", "de", "fr", "hi", "fa")


class LanguageStore:
    """Store methods for member and server languages."""

    if TYPE_CHECKING:

        def _read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...

        async def _transact(
            self, work: Callable[[aiosqlite.Connection], Awaitable[T]], *, mode: str = ...
        ) -> T: ...

        @staticmethod
        async def _one(db: aiosqlite.Connection, sql: str, params: Any = ()) -> Any: ...

        @staticmethod
        async def _all(db: aiosqlite.Connection, sql: str, params: Any = ()) -> list[Any]: ...

        def _now(self) -> str: ...

    async def all_languages(self) -> tuple[dict[int, str], dict[int, str]]:
        """Every stored choice: (user id -> locale, guild id -> locale)."""
        async with self._read() as db:
            members = await self._all(db, "SELECT user_id, locale FROM member_languages")
            guilds = await self._all(db, "SELECT guild_id, locale FROM guild_languages")
        return {int(r[0]): str(r[1]) for r in members}, {int(r[0]): str(r[1]) for r in guilds}

    async def member_language(self, user_id: int) -> str | None:
        async with self._read() as db:
            row = await self._one(
                db, "SELECT locale FROM member_languages WHERE user_id = ?", (user_id,)
            )
        return None if row is None else str(row[0])

    async def set_member_language(self, user_id: int, locale: str | None) -> None:
        """Remember a member's language (None: forget it, follow Discord again)."""
        await self._set_language("member_languages", "user_id", user_id, locale, None)

    async def guild_language(self, guild_id: int) -> str | None:
        async with self._read() as db:
            row = await self._one(
                db, "SELECT locale FROM guild_languages WHERE guild_id = ?", (guild_id,)
            )
        return None if row is None else str(row[0])

    async def set_guild_language(
        self, guild_id: int, locale: str | None, by_user_id: int | None = None
    ) -> None:
        """Set a server's language for public table messages (None: follow Discord)."""
        await self._set_language("guild_languages", "guild_id", guild_id, locale, by_user_id)

    async def _set_language(
        self, table: str, key: str, ident: int, locale: str | None, by_user_id: int | None
    ) -> None:
        """Upsert (or, for None, delete) one row of ``table`` (a fixed name, never input)."""
        if locale is not None and locale not in LANGUAGE_CODES:
            raise ValueError(f"unsupported language {locale!r}")
        by = ", updated_by" if table == "guild_languages" else ""

        async def work(db: aiosqlite.Connection) -> None:
            if locale is None:
                await db.execute(f"DELETE FROM {table} WHERE {key} = ?", (ident,))
                return
            values: tuple[object, ...] = (ident, locale, self._now())
            if by:
                values += (by_user_id,)
            marks = ", ".join("?" * len(values))
            await db.execute(
                f"INSERT INTO {table} ({key}, locale, updated_at{by}) VALUES ({marks}) "
                f"ON CONFLICT ({key}) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at"
                + (", updated_by = excluded.updated_by" if by else ""),
                values,
            )

        await self._transact(work)
