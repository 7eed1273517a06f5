"""Per-server settings (the economy, /give, each game's table limits) and their trail; a
missing row means the process default from ``Store.defaults`` (or, for a game's key, the
game's own default, which its caller gives)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.i18n import Msg, Raw
from bot.storage.accounts import PERSONAL_SCOPE, member_account
from bot.storage.base import Con, StoreBase, from_iso, iso, rows
from bot.storage.errors import InvalidSetting, SettingChangedMeanwhile
from bot.storage.models import (
    GUILD_SETTING_KEYS,
    GUILD_SWITCH_KEYS,
    MAX_GRANT,
    GuildSettings,
    SettingChange,
)

#: a game's setting: ``<game>.<name>`` or ``<game>.<kind>.<option>``, lower case
GAME_KEY = re.compile(r"[a-z][a-z0-9_]{0,31}(\.[a-z0-9_]{1,32}){1,2}")
#: the largest value any setting may hold (a role id fits; SQLite and PostgreSQL bigint)
MAX_VALUE = 2**63 - 1


def personal_settings(defaults: GuildSettings) -> GuildSettings:
    """The settings of the members' own chips outside servers (:data:`PERSONAL_SCOPE`):
    the machine's values (``Store.defaults``, from the .env: starting and daily chips,
    the daily cooldown), never a server's. No server was joined, so no join-age gate."""
    return replace(defaults, member_age_days=0)


def guild_settings_tx(con: Con, guild_id: int, defaults: GuildSettings) -> GuildSettings:
    if guild_id == PERSONAL_SCOPE:
        return personal_settings(defaults)
    values = {
        str(r["key"]): int(r["value"])
        for r in rows(con, "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
    }
    economy = {key: values.pop(key) for key in GUILD_SETTING_KEYS if key in values}
    return replace(defaults, **economy, tables=values)


def plays_again_at_tx(
    con: Con, guild_id: int, user_id: int, game: str, defaults: GuildSettings, now: datetime
) -> datetime | None:
    """The server's limit of rounds per member, game and period: None when the member
    may play a round of ``game`` at ``now``, else when they may again (the oldest of their
    last ``round_limit`` rounds leaves the period). Reads the server's settings and the
    member's rounds of the period only (an index on account and time), never their whole
    history."""
    settings = guild_settings_tx(con, guild_id, defaults)
    if settings.round_limit <= 0:
        return None
    period = timedelta(minutes=settings.round_period_minutes)
    found = rows(
        con,
        "SELECT r.ts FROM round_results r JOIN game_tables g ON g.id = r.table_id "
        "WHERE r.account = ? AND r.ts >= ? AND g.game = ? ORDER BY r.ts DESC LIMIT ?",
        (member_account(guild_id, user_id), iso(now - period), game, settings.round_limit),
    )
    if len(found) < settings.round_limit:
        return None
    return min(from_iso(str(r["ts"])) for r in found) + period


#: acts of an owner the trail records beside the settings (a fresh season)
TRAIL_KEYS = frozenset({"season"})


def check_key(key: str) -> None:
    if key not in GUILD_SETTING_KEYS and not GAME_KEY.fullmatch(key):
        raise InvalidSetting(
            key, Msg("err.storage.setting.unknown", keys=Raw(", ".join(GUILD_SETTING_KEYS)))
        )


def refuse_personal(guild_id: int) -> None:
    """The members' own chips outside servers have no settings to change: theirs are the
    machine's (:func:`personal_settings`). No command reaches here with scope 0."""
    if guild_id == PERSONAL_SCOPE:
        raise ValueError("the settings of the members' own chips are the machine's (.env)")


def with_value(settings: GuildSettings, key: str, value: int) -> GuildSettings:
    """``settings`` with ``key`` set to ``value``."""
    if key in GUILD_SETTING_KEYS:
        return replace(settings, **{key: value})  # type: ignore[arg-type]
    return replace(settings, tables={**settings.tables, key: value})


class GuildSettingsStore(StoreBase):
    """Reading and changing a server's settings, and the trail of every change."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, defaults filled in from ``Store.defaults``."""
        return await self._read(lambda con: guild_settings_tx(con, guild_id, self.defaults))

    async def set_guild_setting(
        self, guild_id: int, key: str, value: int, by_user_id: int | None = None
    ) -> GuildSettings:
        """Change one economy setting (a key of ``GUILD_SETTING_KEYS``: 0..10^9; a switch
        such as ``give_enabled``: 0 or 1) whatever its value was. Returns the server's
        settings after the change."""
        if key not in GUILD_SETTING_KEYS:
            raise InvalidSetting(
                key,
                Msg("err.storage.setting.unknown", keys=Raw(", ".join(GUILD_SETTING_KEYS))),
            )
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_GRANT:
            raise InvalidSetting(key, Msg("err.storage.setting.range", high=MAX_GRANT))
        if key in GUILD_SWITCH_KEYS and value not in (0, 1):
            raise InvalidSetting(key, Msg("err.storage.setting.switch"))
        return await self.change_guild_setting(
            guild_id, key, value, expected=None, by_user_id=by_user_id
        )

    async def change_guild_setting(
        self,
        guild_id: int,
        key: str,
        value: int,
        *,
        expected: int | None,
        by_user_id: int | None,
        default: int = 0,
        check: Callable[[GuildSettings], None] | None = None,
    ) -> GuildSettings:
        """Set ``key`` to ``value`` and write the change to the trail, in one transaction.

        ``expected``: the value the owner saw (compare-and-set): when the value in effect
        is another, :class:`SettingChangedMeanwhile` says which and nothing changes
        (None: whatever it is). ``default``: a game key's value when the server set none.
        ``check(after)`` sees the settings as they would be and raises to refuse (a cap
        below its floor). Setting the value in effect changes nothing and writes no
        trail. Returns the server's settings after."""
        check_key(key)
        refuse_personal(guild_id)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
            raise InvalidSetting(key, Msg("err.storage.setting.range", high=MAX_GRANT))
        if key in GUILD_SWITCH_KEYS and value not in (0, 1):
            raise InvalidSetting(key, Msg("err.storage.setting.switch"))

        def work(con: Con) -> GuildSettings:
            before = guild_settings_tx(con, guild_id, self.defaults)
            old = before.value(key, default)
            if expected is not None and old != expected:
                raise SettingChangedMeanwhile(key, old)
            if old == value:
                return before
            after = with_value(before, key, value)
            if check is not None:
                check(after)
            now = self._now()
            con.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at, "
                "updated_by = excluded.updated_by",
                (guild_id, key, value, now, by_user_id),
            )
            con.execute(
                "INSERT INTO settings_log "
                "(guild_id, key, old_value, new_value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, key, old, value, now, by_user_id),
            )
            return after

        return await self._write(work)

    async def record_in_trail(
        self,
        guild_id: int,
        key: str,
        old_value: int,
        new_value: int,
        *,
        by_user_id: int | None,
        ts: str | None = None,
    ) -> None:
        """Write an owner's act that is not a setting (a fresh season: ``season``, from
        the season it closed to the next) to the server's trail."""
        refuse_personal(guild_id)
        if key not in TRAIL_KEYS:
            raise InvalidSetting(key, Msg("err.storage.setting.unknown", keys=Raw("season")))

        def work(con: Con) -> None:
            con.execute(
                "INSERT INTO settings_log "
                "(guild_id, key, old_value, new_value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, key, old_value, new_value, ts or self._now(), by_user_id),
            )

        await self._write(work)

    async def settings_log(
        self, guild_id: int, limit: int = 20, before_id: int | None = None
    ) -> list[SettingChange]:
        """The server's newest ``limit`` setting changes (before change ``before_id``),
        newest first."""
        limit = max(1, min(int(limit), 100))
        below = MAX_VALUE if before_id is None else before_id

        def work(con: Con) -> list[SettingChange]:
            found = rows(
                con,
                "SELECT id, guild_id, key, old_value, new_value, updated_at, updated_by "
                "FROM settings_log WHERE guild_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                (guild_id, below, limit),
            )
            return [
                SettingChange(
                    id=int(r["id"]),
                    guild_id=int(r["guild_id"]),
                    key=str(r["key"]),
                    old_value=int(r["old_value"]),
                    new_value=int(r["new_value"]),
                    ts=str(r["updated_at"]),
                    by_user_id=None if r["updated_by"] is None else int(r["updated_by"]),
                )
                for r in found
            ]

        return await self._read(work)


__all__ = [
    "GAME_KEY",
    "TRAIL_KEYS",
    "GuildSettingsStore",
    "check_key",
    "guild_settings_tx",
    "personal_settings",
    "plays_again_at_tx",
    "refuse_personal",
    "with_value",
]
