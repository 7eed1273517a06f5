"""/casino reset's confirmation survives a restart: its buttons are routed from their
custom ids alone (the server, the season they confirm, the owner, when they expire), as
the game buttons are. Asked before a restart and clicked after it, the fresh season
begins once; a second click, another member's click or a click after five minutes
resets nothing."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
import pytest

from bot.economy import Seasons
from bot.i18n import t
from bot.storage import Store
from cogs import router

G, OWNER, OTHER = 61, 601, 602


def economy() -> ModuleType:
    """cogs.economy as the router finds it now (loading the bot's extensions elsewhere
    puts a fresh copy of the module in its place)."""
    return importlib.import_module("cogs.economy")


@dataclass
class Response:
    said: list[str] = field(default_factory=list)
    edits: list[str] = field(default_factory=list)
    views: list[Any] = field(default_factory=list)
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, view: Any = None, ephemeral: bool = False) -> None:
        self.done = True
        self.said.append(text)
        self.views.append(view)

    async def edit_message(self, *, content: str, view: Any = None) -> None:
        self.done = True
        self.edits.append(content)

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        self.said.append(text)


@dataclass
class Bot:
    """The bot as a click reads it: its store and the /casino cog's seasons."""

    store: Store
    cogs: dict[str, Any]


@dataclass
class Owner:
    id: int
    guild_permissions: discord.Permissions = field(
        default_factory=lambda: discord.Permissions(manage_guild=True)
    )


@dataclass
class Asked:
    """An interaction as discord.py hands it over (a slash command or a click)."""

    client: Bot
    user: Owner
    data: dict[str, Any] = field(default_factory=dict)
    type: discord.InteractionType = discord.InteractionType.component
    guild_id: int = G
    channel_id: int = 9
    locale: str = "en-US"
    id: int = 1
    message: Any = None
    response: Response = field(default_factory=Response)

    @property
    def followup(self) -> Response:
        return self.response

    def is_guild_integration(self) -> bool:
        return True

    async def edit_original_response(self, *, content: str) -> None:
        self.response.edits.append(content)


def booted(store: Store) -> tuple[Bot, Seasons, router.Router]:
    """A process's bot: its seasons (no game has a table open) and its router."""
    seasons = Seasons(store, lambda: [])
    cog = type("CasinoCog", (), {"seasons": seasons})()
    bot = Bot(store, {"Casino": cog})
    return bot, seasons, router.Router(list(router.registered_buttons()), [])


def ids_of(view: discord.ui.View) -> dict[str, str]:
    """The confirmation's buttons, by label: their custom ids."""
    out = {}
    for item in view.children:
        button = getattr(item, "item", item)
        out[str(button.label)] = str(button.custom_id)
    return out


async def click(routes: router.Router, bot: Bot, user: int, custom_id: str) -> Asked:
    asked = Asked(bot, Owner(user), {"custom_id": custom_id, "component_type": 2})
    await routes.on_interaction(asked)  # type: ignore[arg-type]
    return asked


async def ask(bot: Bot, seasons: Seasons) -> dict[str, str]:
    asked = Asked(bot, Owner(OWNER), type=discord.InteractionType.application_command)
    await economy().ask_reset(bot, seasons, asked)  # type: ignore[arg-type]
    (text,) = asked.response.said
    assert "Season 1 ends and season 2 begins" in text, text
    (view,) = asked.response.views
    assert view.is_finished()  # never kept by discord.py: the router answers its clicks
    return ids_of(view)


async def test_a_restart_between_the_question_and_the_click_still_resets_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bank.sqlite3"
    store = await Store.open(path)
    await store.ensure_member(G, OWNER)
    await store.grant(G, OWNER, 250, "admin grant", None)
    bot, seasons, _ = booted(store)
    buttons = await ask(bot, seasons)
    go = buttons["Start season 2"]
    assert re.fullmatch(rf"season:go:{G}:1:{OWNER}:[0-9]+", go), go
    await store.close()  # the bot restarts: no view, no memory of the question

    store = await Store.open(path)
    try:
        bot, _, routes = booted(store)
        asked = await click(routes, bot, OTHER, go)  # someone else's click: refused
        assert asked.response.said == [t("en", "season.reset.not_yours")]
        assert await store.current_season(G) == 1

        asked = await click(routes, bot, OWNER, go)
        assert asked.response.edits[-1].startswith("Done: season 1 is closed"), asked.response
        assert await store.current_season(G) == 2
        assert await store.member_balance(G, OWNER) == 1000
        rows = await store.settings_log(G)

        again = await click(routes, bot, OWNER, go)  # a second click: nothing twice
        assert await store.current_season(G) == 2
        assert not any(e.startswith("Done") for e in again.response.edits)
        assert "already" in again.response.said[-1], again.response  # told why
        assert await store.settings_log(G) == rows
        assert await store.member_balance(G, OWNER) == 1000
    finally:
        await store.close()


async def test_a_click_after_five_minutes_is_refused_and_cancel_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(tmp_path / "bank.sqlite3")
    try:
        await store.ensure_member(G, OWNER)
        bot, seasons, routes = booted(store)
        asked_at = economy().now()
        buttons = await ask(bot, seasons)
        go, cancel = buttons["Start season 2"], buttons["Cancel"]

        monkeypatch.setattr(economy(), "now", lambda: asked_at + economy().CONFIRM_SECONDS + 2)
        late = await click(routes, bot, OWNER, go)
        assert late.response.said == [t("en", "season.reset.expired")]
        assert "expired" in late.response.said[0] and not late.response.edits
        assert await store.current_season(G) == 1

        monkeypatch.setattr(economy(), "now", lambda: asked_at + economy().CONFIRM_SECONDS - 5)
        stopped = await click(routes, bot, OWNER, cancel)
        assert stopped.response.edits == [t("en", "season.reset.cancelled")]
        assert await store.current_season(G) == 1
        # just within the five minutes: it begins
        done = await click(routes, bot, OWNER, go)
        assert done.response.edits[-1].startswith("Done"), done.response
        assert await store.current_season(G) == 2
        # a forged id of the confirmation's kind: refused as no longer valid
        forged = await click(routes, bot, OWNER, "season:go:nonsense")
        assert forged.response.said == [t("en", "season.reset.expired")]
    finally:
        await store.close()
