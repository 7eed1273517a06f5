"""Join by button: the member who clicked is told privately that they are seated, and
the pointer to /help comes with it the first time only (shared with /pontoon join)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import LOCALES, t
from bot.storage import Store
from cogs.help import first_join_hint
from cogs.pontoon.controls import seated


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3")
    yield s
    await s.close()


@pytest.mark.parametrize("locale", LOCALES)
async def test_join_confirms_the_seat_and_points_to_help_once(store: Store, locale: str) -> None:
    sent: list[str] = []

    async def send(text: str, *, ephemeral: bool) -> None:
        assert ephemeral  # to the one who clicked only
        sent.append(text)

    def interaction(user: int) -> Any:
        return SimpleNamespace(
            client=SimpleNamespace(store=store),
            user=SimpleNamespace(id=user),
            followup=SimpleNamespace(send=send),
        )

    await seated(interaction(5), locale)
    await seated(interaction(5), locale)
    seat, hint = t(locale, "pt.done.join"), t(locale, "help.hint")
    assert sent == [f"{seat} {hint}", seat]
    # a member who saw the hint after /pontoon join is not told again
    sent.clear()
    await first_join_hint(interaction(6), locale)
    await seated(interaction(6), locale)
    assert sent == [hint, seat]
