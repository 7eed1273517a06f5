"""/help in the member's language (issue 23): what the bot does, the commands grouped as
clickable command mentions, how a round goes in five lines; the one-time join hint is
remembered per member in the store."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import LOCALES, set_command_ids, t
from bot.storage import Store
from cogs.help import GROUPS, HELP_HINT, first_join_hint, help_embed, help_text

IDS = {"pontoon": 11, "bank": 12, "baccarat": 13, "balance": 14, "daily": 15}
IDS |= {"leaderboard": 16, "chips": 17, "language": 18, "help": 19, "privacy": 20}
IDS |= {"blackjack": 21}


@pytest.fixture
def ids() -> Iterator[None]:
    set_command_ids(IDS)
    yield
    set_command_ids({})


@pytest.mark.parametrize("locale", LOCALES)
def test_help_lists_every_group_as_command_mentions(locale: str, ids: None) -> None:
    title, about, fields = help_text(locale)
    assert title == t(locale, "help.title") and about == t(locale, "help.about")
    heads = [h for h, _ in fields]
    for group, paths in GROUPS:
        body = dict(fields)[t(locale, f"help.group.{group}")]
        for path in paths:
            assert f"</{path}:{IDS[path.split()[0]]}>" in body, (group, path)
    assert heads[-1] == t(locale, "help.round.title")
    round_lines = dict(fields)[heads[-1]].split("\n")
    assert len(round_lines) == 5
    em = help_embed(locale)
    assert all(len(f.value or "") <= 1024 for f in em.fields)
    assert not re.search(r"\b[PB]-[A-Z]{2,}", str(em.to_dict()))


def test_help_covers_the_groups_the_issue_names() -> None:
    assert [g for g, _ in GROUPS] == ["play", "chips", "bank", "settings", "admin"]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3")
    yield s
    await s.close()


async def test_the_join_hint_is_shown_once_per_member_across_restarts(
    store: Store, tmp_path: Path
) -> None:
    sent: list[str] = []

    async def send(text: str, *, ephemeral: bool) -> None:
        assert ephemeral
        sent.append(text)

    def interaction(user: int) -> Any:
        return SimpleNamespace(
            client=SimpleNamespace(store=store),
            user=SimpleNamespace(id=user),
            followup=SimpleNamespace(send=send),
        )

    await first_join_hint(interaction(5), "de")
    await first_join_hint(interaction(5), "de")
    await first_join_hint(interaction(6), "fa")
    assert sent == [t("de", "help.hint"), t("fa", "help.hint")]
    again = await Store.open(tmp_path / "bank.sqlite3")
    try:
        assert await again.hint_shown(5, HELP_HINT)
        assert not await again.hint_shown(7, HELP_HINT)
        assert not await again.mark_hint_shown(5, HELP_HINT)
    finally:
        await again.close()


async def test_the_hint_store_on_postgresql(pg_url: str) -> None:
    from bot.storage.pg import PgStore

    user = 10**18 + 11
    store = await PgStore.connect(pg_url)
    try:
        assert await store.mark_hint_shown(user, HELP_HINT)
        assert not await store.mark_hint_shown(user, HELP_HINT)
        assert await store.hint_shown(user, HELP_HINT)
    finally:
        await store.close()
