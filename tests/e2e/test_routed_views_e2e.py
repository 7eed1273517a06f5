"""However a message with a game's buttons is sent, discord.py's view store is left with
no pattern that reads a game's custom id: only the router (cogs/router.py) answers its
clicks. discord.py 2.7's ``InteractionResponse.send_message`` keeps any view it is given
and registers its dynamic items' templates without asking ``is_dispatchable`` (a bank
offer's Accept was answered twice so); the other ways ask. A discord.py client runs in
this process against the fake Discord, sends a view holding a routed button each way,
and the store is read after each."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from bot.endpoints import configure_endpoints
from cogs.pontoon.bank_offer import AcceptBank
from cogs.router import NO_CUSTOM_ID, registered_buttons
from localdiscord import FakeDiscord
from tests.e2e.conftest import World

pytestmark = pytest.mark.e2e

Interaction = discord.Interaction[discord.Client]


def offer(price: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptBank("ab12", 42, price))
    return view


def store_of(client: discord.Client) -> Any:
    return client._connection._view_store  # discord.py's ViewStore (private)


def forget(client: discord.Client) -> None:
    """Empty the store's dynamic items, so the next way to send is judged alone."""
    store_of(client)._dynamic_items.clear()


def routed_patterns_in(client: discord.Client) -> list[str]:
    """The patterns in discord.py's store (of dynamic items it dispatches itself) that
    would read a routed button's custom id or are a routed button's own pattern."""
    store = store_of(client)
    routed = {b.pattern for b in registered_buttons()}
    ids = [f"bk:ab12:42:{price}" for price in range(1, 10)]
    return [
        p.pattern
        for p in store._dynamic_items
        if p in routed or any(p.fullmatch(cid) for cid in ids)
    ]


@contextlib.asynccontextmanager
async def client_on(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A discord.py client in this process, connected to ``fake``."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    env = fake.bot_env()
    configure_endpoints(env["DISCORD_API_BASE"], env["DISCORD_GATEWAY_URL"])
    client = discord.Client(intents=discord.Intents.default())
    task = asyncio.create_task(client.start(env["DISCORD_TOKEN"]))
    try:
        await fake.wait_for_bot_ready(20)
        yield client
    finally:
        await client.close()
        with contextlib.suppress(BaseException):
            await task
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


async def test_a_game_view_sent_every_way_registers_no_routed_pattern(
    fake_discord: FakeDiscord, world: World
) -> None:
    assert AcceptBank.pattern.fullmatch("bk:ab12:42:1")  # the router reads it
    assert not NO_CUSTOM_ID.fullmatch("bk:ab12:42:1")  # what discord.py is given does not
    registered: dict[str, list[str]] = {}
    async with client_on(fake_discord) as client:
        answering: asyncio.Queue[Callable[[Interaction], Awaitable[None]]] = asyncio.Queue()
        finished: asyncio.Queue[BaseException | None] = asyncio.Queue()

        @client.event
        async def on_interaction(interaction: Interaction) -> None:
            step = await answering.get()
            try:
                await step(interaction)
            except BaseException as exc:
                await finished.put(exc)
            else:
                await finished.put(None)

        channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
        forget(client)
        message = await channel.send("a channel message", view=offer(1))
        registered["channel message"] = routed_patterns_in(client)
        forget(client)
        message = await message.edit(content="an edited message", view=offer(2))
        registered["message edit"] = routed_patterns_in(client)

        async def respond(interaction: Interaction) -> None:
            forget(client)
            await interaction.response.send_message("a response", view=offer(3))
            registered["response"] = routed_patterns_in(client)
            forget(client)
            await interaction.followup.send("a followup", view=offer(4))
            registered["followup"] = routed_patterns_in(client)
            forget(client)
            await interaction.followup.send("a private followup", view=offer(5), ephemeral=True)
            registered["ephemeral followup"] = routed_patterns_in(client)
            forget(client)
            await interaction.edit_original_response(content="edited", view=offer(6))
            registered["response edit"] = routed_patterns_in(client)

        async def update(interaction: Interaction) -> None:
            forget(client)
            await interaction.response.edit_message(content="updated", view=offer(7))
            registered["update of the clicked message"] = routed_patterns_in(client)

        for step in (respond, update):
            await answering.put(step)
            shown = fake_discord.message(message.id)
            await fake_discord.click(world.alice, shown, shown.buttons()[0].custom_id)
            error = await asyncio.wait_for(finished.get(), 10)
            assert error is None, repr(error)

    assert set(registered) == {
        "channel message",
        "message edit",
        "response",
        "followup",
        "ephemeral followup",
        "response edit",
        "update of the clicked message",
    }
    assert registered == {way: [] for way in registered}


def test_every_routed_button_gives_discord_py_a_template_that_reads_nothing() -> None:
    """The structural half: whatever way a view is sent, what discord.py would register
    for a game's button (its ``DynamicItem`` template) matches no custom id."""
    buttons = list(registered_buttons())
    assert AcceptBank in buttons
    for button in buttons:
        compiled = button.__discord_ui_compiled_template__  # discord.py's key
        assert compiled is NO_CUSTOM_ID, button
        assert button.pattern is not NO_CUSTOM_ID
        assert re.compile(button.pattern.pattern) == button.pattern
