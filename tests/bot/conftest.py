"""Shared fixtures of the bot tests.

``store``: a fresh Store, once on SQLite (a file in tmp_path) and once on PostgreSQL (a
schema of its own, see tests/conftest.py): the storage tests run against both backends.
``backend``: which one ("sqlite" or "postgresql"). Helpers to reach the database behind
the Store's back are in tests/storage_backends.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Store
from tests.storage_backends import open_test_store

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Store]:
    s = await open_test_store(backend, request, tmp_path)
    try:
        yield s
    finally:
        await s.close()
