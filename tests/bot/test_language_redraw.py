"""/language server: the server's open tables, of every game, are drawn again in the
new language at once (they stayed in the old one until someone clicked)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from discord import app_commands

from cogs.language import Language, redraw_tables
from cogs.pontoon.presenter import PontoonDiscordPresenter
from cogs.punto_banco.presenter import PuntoBancoPresenter

G, OTHER = 1, 2


class Recorder:
    def __init__(self) -> None:
        self.redrawn: list[str] = []

    def redraw(self, live: Any) -> None:
        self.redrawn.append(live.table_id)


def fake_bot() -> Any:
    def table(table_id: str, guild: int) -> Any:
        return SimpleNamespace(table_id=table_id, guild_id=guild)

    games = {
        "pontoon": SimpleNamespace(tables={"p1": table("p1", G), "p2": table("p2", OTHER)}),
        "punto_banco": SimpleNamespace(tables={"b1": table("b1", G)}),
    }
    return SimpleNamespace(games=games, presenters={name: Recorder() for name in games})


def test_every_open_table_of_the_server_is_redrawn() -> None:
    bot = fake_bot()
    assert redraw_tables(bot, G) == 2
    assert bot.presenters["pontoon"].redrawn == ["p1"]  # not the other server's p2
    assert bot.presenters["punto_banco"].redrawn == ["b1"]


async def test_language_server_redraws_at_once() -> None:
    bot = fake_bot()
    chosen: list[Any] = []

    async def choose_guild(guild_id: int, locale: str | None, by: int) -> None:
        chosen.append((guild_id, locale))

    async def guild(guild_id: int) -> str:
        return "de"

    bot.languages = SimpleNamespace(choose_guild=choose_guild, guild=guild)
    said: list[str] = []

    async def send_message(text: str, **kwargs: Any) -> None:
        said.append(text)

    interaction: Any = SimpleNamespace(
        client=bot,
        user=SimpleNamespace(id=5, guild_permissions=SimpleNamespace(manage_guild=True)),
        guild_id=G,
        is_guild_integration=lambda: True,  # a server that installed the bot
        locale="en-US",
        guild_locale="en-US",
        response=SimpleNamespace(is_done=lambda: False, send_message=send_message),
    )
    cog = Language(bot)
    await cog.language.callback(
        cog, interaction, None, app_commands.Choice(name="Deutsch", value="de")
    )
    assert chosen == [(G, "de")]
    assert bot.presenters["pontoon"].redrawn == ["p1"]
    assert bot.presenters["punto_banco"].redrawn == ["b1"]
    assert said and "German" in said[-1]


def test_each_game_presenter_redraws_through_its_table_message_path() -> None:
    bot: Any = SimpleNamespace(get_guild=lambda gid: None, games={}, settings=None)
    live = SimpleNamespace(table_id="t1")
    pontoon = PontoonDiscordPresenter(bot, SimpleNamespace())
    requested: list[Any] = []
    pontoon.writer = SimpleNamespace(request=requested.append)  # type: ignore[assignment]
    pontoon.redraw(live)  # type: ignore[arg-type]
    bacc = PuntoBancoPresenter.__new__(PuntoBancoPresenter)
    bacc.messages = SimpleNamespace(request=requested.append)  # type: ignore[assignment]
    bacc.redraw(live)  # type: ignore[arg-type]
    assert requested == [live, live]
