"""Where each slash command may be installed and used, read from the payload the bot
syncs (each top-level command's ``to_dict``, as ``CommandTree.sync`` sends it):

* the games, /balance, /daily, /stats, /break, /help, /language and /privacy: installable
  by servers and users (``integration_types`` [0, 1]), usable in servers, DMs and group
  DMs (``contexts`` [0, 1, 2]);
* /chips, /casino, /give and /leaderboard: installable by servers only, used in their
  channels only ([0] and [0]);
* every command says both, so none is left to Discord's defaults;

and the bot syncs its commands globally unless DEV_GUILD_ID names a development server
(guild commands cannot be installed on an account: Discord reads ``integration_types``
on global commands only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import EXTENSIONS, CardBot, make_bot
from bot.games import GAMES
from bot.settings import Settings
from bot.storage import Store

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2

EVERYWHERE = {"pontoon", "bank", "blackjack", "baccarat", "balance", "daily", "stats"}
EVERYWHERE |= {"break", "help", "language", "privacy"}
SERVER_ONLY = {"chips", "casino", "give", "leaderboard"}


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[CardBot]:
    store = await Store.open(tmp_path / "bank.sqlite3")
    made = make_bot(Settings(_env_file=None), store)
    for name, service in made.games.items():
        service.unsubscribe(made.presenters[name].on_change)  # no Discord here
    try:
        for game in GAMES:  # what setup_hook loads, in its order
            await made.load_extension(game.package)
        for ext in EXTENSIONS:
            await made.load_extension(ext)
        yield made
    finally:
        for service in made.games.values():
            await service.shutdown()
        await made.http.close()
        await store.close()


def synced(bot: CardBot) -> dict[str, dict[str, Any]]:
    """Each top-level command's payload, as the bot's sync sends it to Discord."""
    return {c.name: c.to_dict(bot.tree) for c in bot.tree.get_commands()}


async def test_every_command_says_where_it_is_installed_and_used(bot: CardBot) -> None:
    payload = synced(bot)
    assert set(payload) == EVERYWHERE | SERVER_ONLY  # a new command must say where it works
    for name, command in payload.items():
        assert command["integration_types"] is not None, name
        assert command["contexts"] is not None, name


async def test_player_commands_install_on_an_account_and_work_in_dms_and_group_dms(
    bot: CardBot,
) -> None:
    payload = synced(bot)
    for name in sorted(EVERYWHERE):
        assert sorted(payload[name]["integration_types"]) == [GUILD_INSTALL, USER_INSTALL], name
        assert sorted(payload[name]["contexts"]) == [GUILD, BOT_DM, PRIVATE_CHANNEL], name
        assert payload[name]["dm_permission"] is True, name


async def test_server_administration_stays_in_servers_that_installed_the_bot(
    bot: CardBot,
) -> None:
    payload = synced(bot)
    for name in sorted(SERVER_ONLY):
        assert payload[name]["integration_types"] == [GUILD_INSTALL], name
        assert payload[name]["contexts"] == [GUILD], name
        assert payload[name]["dm_permission"] is False, name


class _Tree:
    """Records what the bot's sync asks of its command tree."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def copy_global_to(self, *, guild: discord.abc.Snowflake) -> None:
        self.calls.append(f"copy to {guild.id}")

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.calls.append("sync global" if guild is None else f"sync to {guild.id}")
        return []


@pytest.mark.parametrize(
    ("dev_guild", "calls"), [(None, ["sync global"]), (42, ["copy to 42", "sync to 42"])]
)
async def test_commands_are_synced_globally_unless_a_development_server_is_named(
    bot: CardBot, dev_guild: int | None, calls: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """Global commands are what an account's install gets; a development server's
    copies are instant but only there, and the log says so."""
    from bot.app import sync_commands

    tree = _Tree()
    await sync_commands(tree, dev_guild)  # type: ignore[arg-type]
    assert tree.calls == calls
    warned = "installed on an account gets none" in caplog.text
    assert warned == (dev_guild is not None)


def _help_asked(bot: CardBot, *, in_server: bool, sent: list[discord.Embed]) -> Any:
    """/help as discord.py hands it to the cog: in a server that installed the bot, or
    outside servers (a DM, a group DM: no server's integration)."""
    from types import SimpleNamespace

    async def send(*, embeds: list[discord.Embed], ephemeral: bool) -> None:
        sent.extend(embeds)

    return SimpleNamespace(
        client=bot,
        user=SimpleNamespace(id=42, bot=False),
        guild_id=7 if in_server else None,
        is_guild_integration=lambda: in_server,
        locale="en-US",
        response=SimpleNamespace(is_done=lambda: False, send_message=send),
        followup=SimpleNamespace(send=send),
    )


@pytest.mark.parametrize("locale", ["en", "de", "fr", "fa", "hi"])
@pytest.mark.parametrize("in_server", [True, False])
async def test_help_outside_servers_lists_only_the_commands_that_work_there(
    bot: CardBot, in_server: bool, locale: str
) -> None:
    """/help in a DM or group DM lists the commands declared usable there and says the
    chips there are the member's own; in a server it lists the administration too."""
    from bot.i18n import command, t
    from cogs.help import Help

    cog = bot.get_cog("Help")
    assert isinstance(cog, Help)
    sent: list[discord.Embed] = []
    asked = _help_asked(bot, in_server=in_server, sent=sent)
    asked.locale = {"en": "en-US", "de": "de", "fr": "fr", "fa": "fa", "hi": "hi"}[locale]
    await cog.help.callback(cog, asked)
    text = "\n".join(
        [e.description or "" for e in sent]
        + [f"{f.name}\n{f.value}" for e in sent for f in e.fields]
    )
    for path in ("casino settings", "chips grant", "give", "leaderboard"):
        assert (command(locale, path) in text) == in_server, path
    for path in ("balance", "daily", "break", "help", "language", "privacy show", "stats"):
        assert command(locale, path) in text, path
    assert (t(locale, "chips.personal.note") in text) == (not in_server)
    assert (t(locale, "help.group.admin") in text) == in_server  # an empty group is left out
