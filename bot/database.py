"""Open the Store the settings ask for: PostgreSQL when DATABASE_URL is set (several
processes may share it), else SQLite at DATABASE_PATH (one process)."""

from __future__ import annotations

from bot.settings import Settings
from bot.storage import GuildSettings, Store


def store_defaults(settings: Settings) -> GuildSettings:
    return GuildSettings(starting_chips=settings.starting_chips, daily_chips=settings.daily_chips)


async def open_store(settings: Settings, *, migrate_schema: bool = True) -> Store:
    url = settings.postgres_url()
    if url is not None:
        from bot.storage.pg import PgStore

        return await PgStore.connect(
            url, defaults=store_defaults(settings), migrate_schema=migrate_schema
        )
    return await Store.open(
        settings.database_path, defaults=store_defaults(settings), migrate_schema=migrate_schema
    )


def describe(settings: Settings) -> str:
    """Where the ledger is, for messages (no password)."""
    url = settings.postgres_url()
    if url is not None:
        from bot.storage.pg import redact

        return redact(url)
    return str(settings.database_path)
