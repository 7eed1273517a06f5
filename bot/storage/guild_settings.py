"""Per-server settings (starting chips, daily chips, /give); a missing row means the process
default from ``Store.defaults``."""

from __future__ import annotations

from bot.i18n import Msg, Raw
from bot.storage.base import Con, StoreBase, rows
from bot.storage.errors import InvalidSetting
from bot.storage.models import GUILD_SETTING_KEYS, GUILD_SWITCH_KEYS, MAX_GRANT, GuildSettings


def guild_settings_tx(con: Con, guild_id: int, defaults: GuildSettings) -> GuildSettings:
    values = {
        str(r["key"]): int(r["value"])
        for r in rows(con, "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
    }
    return GuildSettings(
        starting_chips=values.get("starting_chips", defaults.starting_chips),
        daily_chips=values.get("daily_chips", defaults.daily_chips),
        give_enabled=values.get("give_enabled", defaults.give_enabled),
        give_daily_cap=values.get("give_daily_cap", defaults.give_daily_cap),
    )


class GuildSettingsStore(StoreBase):
    """Reading and changing a server's settings."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, defaults filled in from ``Store.defaults``."""
        return await self._read(lambda con: guild_settings_tx(con, guild_id, self.defaults))

    async def set_guild_setting(
        self, guild_id: int, key: str, value: int, by_user_id: int | None = None
    ) -> GuildSettings:
        """Change one server setting (``starting_chips``, ``daily_chips``,
        ``give_daily_cap``: 0..10^9; ``give_enabled``: 0 or 1). Returns the server's
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

        def work(con: Con) -> GuildSettings:
            con.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at, updated_by) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at, "
                "updated_by = excluded.updated_by",
                (guild_id, key, value, self._now(), by_user_id),
            )
            return guild_settings_tx(con, guild_id, self.defaults)

        return await self._write(work)


__all__ = ["GuildSettingsStore", "guild_settings_tx"]
