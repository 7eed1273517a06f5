"""The languages members and servers chose with /language (migration 006).

``None`` means no choice was made: follow Discord (the member's client locale, the
server's preferred locale).
"""

from __future__ import annotations

from bot.storage.base import Con, StoreBase, one, rows

#: the locales the catalogs have (bot/i18n); the migration's CHECK lists the same
LANGUAGE_CODES = ("en", "de", "fr", "hi", "fa")


class LanguageStore(StoreBase):
    """Reading and changing member and server languages."""

    async def all_languages(self) -> tuple[dict[int, str], dict[int, str]]:
        """Every stored choice: (user id -> locale, guild id -> locale)."""

        def work(con: Con) -> tuple[dict[int, str], dict[int, str]]:
            members = rows(con, "SELECT user_id, locale FROM member_languages")
            guilds = rows(con, "SELECT guild_id, locale FROM guild_languages")
            return (
                {int(r["user_id"]): str(r["locale"]) for r in members},
                {int(r["guild_id"]): str(r["locale"]) for r in guilds},
            )

        return await self._read(work)

    async def member_language(self, user_id: int) -> str | None:
        return await self._read(
            lambda con: _locale(
                one(con, "SELECT locale FROM member_languages WHERE user_id = ?", (user_id,))
            )
        )

    async def guild_language(self, guild_id: int) -> str | None:
        return await self._read(
            lambda con: _locale(
                one(con, "SELECT locale FROM guild_languages WHERE guild_id = ?", (guild_id,))
            )
        )

    async def set_member_language(self, user_id: int, locale: str | None) -> None:
        """Remember a member's language (None: forget it, follow Discord again)."""
        await self._set_language("member_languages", "user_id", user_id, locale, None)

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
        now = self._now()

        def work(con: Con) -> None:
            if locale is None:
                con.execute(f"DELETE FROM {table} WHERE {key} = ?", (ident,))
                return
            values: tuple[object, ...] = (ident, locale, now)
            if by:
                values += (by_user_id,)
            marks = ", ".join("?" * len(values))
            con.execute(
                f"INSERT INTO {table} ({key}, locale, updated_at{by}) VALUES ({marks}) "
                f"ON CONFLICT ({key}) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at"
                + (", updated_by = excluded.updated_by" if by else ""),
                values,
            )

        await self._write(work)


HINTS_KNOWN_MOST = 100_000  # (member, hint) pairs remembered before starting afresh


class HintStore(StoreBase):
    """One-time hints a member has been shown (migration 008), e.g. the pointer to /help
    the first time they join a table."""

    #: (member, hint) pairs this process knows were shown: a member's later joins cost
    #: no write (a set of its own per store, made at first use)
    _hints_known: set[tuple[int, str]] | None = None

    def hints_forgotten(self, user_id: int) -> None:
        """The member's data was erased (here or by another process): their hints may
        be shown again."""
        if self._hints_known is not None:
            self._hints_known = {k for k in self._hints_known if k[0] != user_id}

    async def mark_hint_shown(self, user_id: int, hint: str) -> bool:
        """Remember that ``user_id`` was shown ``hint``; True the first time only."""
        if self._hints_known is None:
            self._hints_known = set()
        known = self._hints_known
        if (user_id, hint) in known:
            return False
        now = self._now()

        def work(con: Con) -> bool:
            cur = con.execute(
                "INSERT INTO member_hints (user_id, hint, shown_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, hint) DO NOTHING",
                (user_id, hint, now),
            )
            return bool(cur.rowcount)

        first = await self._write(work)
        if len(known) >= HINTS_KNOWN_MOST:
            known.clear()
        known.add((user_id, hint))
        return first

    async def hint_shown(self, user_id: int, hint: str) -> bool:
        return await self._read(
            lambda con: (
                one(
                    con,
                    "SELECT 1 FROM member_hints WHERE user_id = ? AND hint = ?",
                    (user_id, hint),
                )
                is not None
            )
        )


def _locale(row: object) -> str | None:
    return None if row is None else str(row["locale"])  # type: ignore[index]


__all__ = ["LANGUAGE_CODES", "HintStore", "LanguageStore"]
