"""Who reads which language (bot/i18n/languages.py) and where the choices are stored."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.i18n import normalize, resolve
from bot.i18n.languages import Languages
from bot.storage import Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3")
    yield s
    await s.close()


def _interaction(user: int, locale: str, guild: int | None = 10, guild_locale: str = "en-US"):
    return SimpleNamespace(
        user=SimpleNamespace(id=user), locale=locale, guild_id=guild, guild_locale=guild_locale
    )


def test_discord_locales_map_to_ours() -> None:
    assert normalize("de") == "de" and normalize("en-GB") == "en" and normalize("hi") == "hi"
    assert normalize("pt-BR") is None and normalize(None) is None
    assert resolve("es-ES", "fr") == "fr" and resolve("ja") == "en"


async def test_choices_are_stored_and_survive_a_new_process(store: Store, tmp_path: Path) -> None:
    assert await store.member_language(1) is None and await store.guild_language(10) is None
    await store.set_member_language(1, "fa")
    await store.set_guild_language(10, "de", 1)
    await store.set_member_language(1, "hi")  # changes, no duplicate
    again = await Store.open(tmp_path / "bank.sqlite3")
    try:
        assert await again.member_language(1) == "hi"
        assert await again.guild_language(10) == "de"
        await again.set_guild_language(10, None)
        assert await again.guild_language(10) is None
    finally:
        await again.close()
    with pytest.raises(ValueError):
        await store.set_member_language(1, "xx")
    assert await store.member_language(1) == "hi"  # a refused change changes nothing


async def test_private_answers_follow_the_member_then_discord_then_the_server(
    store: Store,
) -> None:
    langs = Languages(store, guild_preferred=lambda gid: "fr" if gid == 10 else None)
    # nothing known: the server's preferred locale
    assert await langs.member(5, guild_id=10) == "fr"
    assert await langs.member(5) == "en"
    # the member's Discord client language wins over the server's
    assert await langs.of(_interaction(5, "de")) == "de"
    assert await langs.member(5, guild_id=10) == "de"  # remembered for DMs
    # an unsupported client language falls back to the server's
    assert await langs.of(_interaction(6, "ja", guild_locale="hi")) == "hi"
    # their /language choice wins over everything, and is stored
    await langs.choose_member(5, "fa")
    assert await langs.of(_interaction(5, "de")) == "fa"
    assert await Languages(store).member(5) == "fa"
    await langs.choose_member(5, None)
    assert await langs.of(_interaction(5, "de")) == "de"


async def test_public_messages_follow_the_servers_choice_then_its_locale(store: Store) -> None:
    langs = Languages(store, guild_preferred=lambda gid: "de")
    assert await langs.guild(10) == "de"
    langs.note(_interaction(5, "fr", guild_locale="hi"))  # what Discord said last
    assert await langs.guild(10) == "hi"
    await langs.choose_guild(10, "fa", by=1)
    assert await langs.guild(10) == "fa"
    assert await langs.public(_interaction(5, "fr", guild_locale="hi")) == "fa"
    assert await Languages(store).guild(10) == "fa"
    assert await langs.guild(None) == "en"


async def test_loaded_choices_resolve_without_the_database(store: Store) -> None:
    await store.set_member_language(5, "fa")
    await store.set_guild_language(10, "hi")
    langs = Languages(store, guild_preferred=lambda gid: "de")
    await langs.load()
    assert langs.member_now(5) == "fa" and langs.guild_now(10) == "hi"
    assert langs.guild_now(11) == "de" and langs.member_now(6, 11) == "de"
    langs.note(_interaction(6, "fr"))
    assert langs.member_now(6, 11) == "fr"
    assert await langs.member_choice(7) is None  # known absent after load: no query


async def test_choices_on_the_postgresql_store(pg_url: str) -> None:
    """The same methods on PostgreSQL (migration 006's twin), with Discord-sized ids."""
    from bot.storage.pg import PgStore

    user, guild = 10**18 + 7, 10**18 + 9
    store = await PgStore.connect(pg_url)
    try:
        await store.set_member_language(user, "fa")
        await store.set_member_language(user, "de")
        await store.set_guild_language(guild, "hi", user)
        assert await store.member_language(user) == "de"
        assert await store.all_languages() == ({user: "de"}, {guild: "hi"})
        await store.set_guild_language(guild, None)
        assert await store.guild_language(guild) is None
    finally:
        await store.close()
