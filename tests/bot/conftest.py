"""Shared fixtures of the bot tests. ``store``: a fresh Store (SQLite file in tmp_path)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import GuildSettings, Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3", defaults=GuildSettings(1000, 100))
    try:
        yield s
    finally:
        await s.close()
