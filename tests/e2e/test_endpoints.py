"""bot.endpoints.configure_endpoints points discord.py's REST and gateway URLs elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

import discord.gateway
import discord.http
import pytest
import yarl

from bot.endpoints import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL, configure_endpoints


@pytest.fixture(autouse=True)
def restore_endpoints() -> Iterator[None]:
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


def test_defaults_are_discord() -> None:
    assert DEFAULT_API_BASE == "https://discord.com/api/v10"
    assert DEFAULT_GATEWAY_URL == "wss://gateway.discord.gg/"


def test_configure_points_routes_and_gateway() -> None:
    configure_endpoints("http://127.0.0.1:9999/api/v10/", "ws://127.0.0.1:9999/gateway?v=9")
    route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=5)
    assert route.url == "http://127.0.0.1:9999/api/v10/channels/5"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert str(gateway) == "ws://127.0.0.1:9999/gateway"
    assert isinstance(gateway, yarl.URL)


def test_none_or_empty_keeps_current_values() -> None:
    configure_endpoints(None, "")
    assert discord.http.Route.BASE == DEFAULT_API_BASE
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == DEFAULT_GATEWAY_URL


@pytest.mark.parametrize(
    ("api", "gateway"),
    [("127.0.0.1:1/api/v10", None), ("ws://x/api", None), (None, "http://x/gw"), (None, "/gw")],
)
def test_rejects_unusable_urls(api: str | None, gateway: str | None) -> None:
    with pytest.raises(ValueError):
        configure_endpoints(api, gateway)
    assert discord.http.Route.BASE == DEFAULT_API_BASE
