"""PostgreSQL backend of the Store (``DATABASE_URL=postgresql://...``): see ``store.py``."""

from __future__ import annotations

from bot.storage.pg.connection import PgConnection, UnsupportedSQL
from bot.storage.pg.store import PgStore, is_postgres_url, redact

__all__ = ["PgConnection", "PgStore", "UnsupportedSQL", "is_postgres_url", "redact"]
