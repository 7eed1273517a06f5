"""Point discord.py at other Discord endpoints (a fake Discord in tests, a proxy, ...).

discord.py builds every REST URL from the class attribute ``discord.http.Route.BASE``
(read when a ``Route`` is constructed, so changing it affects all later requests,
webhooks and interaction callbacks included), and a plain ``discord.Client`` opens its
first gateway connection to ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
(``AutoShardedClient`` asks ``GET /gateway/bot`` instead, which is answered by the REST
base). After READY the client reconnects and RESUMEs to the ``resume_gateway_url`` that
the gateway itself sent in READY, and after an INVALID_SESSION it falls back to
``DEFAULT_GATEWAY`` again, so with both settings changed every connection, first connect
and RESUME alike, goes to the configured service.

The bot reads the values from the environment variables ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL``; leaving them unset keeps the real Discord endpoints.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl

__all__ = ["DEFAULT_API_BASE", "DEFAULT_GATEWAY_URL", "configure_endpoints"]

DEFAULT_API_BASE: str = discord.http.Route.BASE
"""The REST base discord.py ships with (``https://discord.com/api/v10``)."""

DEFAULT_GATEWAY_URL: str = str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
"""The gateway URL discord.py ships with (``wss://gateway.discord.gg/``)."""


def configure_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py's REST client and gateway at the given endpoints.

    Call it before the client logs in (before ``Client.start``/``Client.run``).

    Args:
        api_base: the REST base including the API version, for example
            ``http://127.0.0.1:8123/api/v10``. ``None`` or an empty string keeps the
            current value. A trailing slash is removed, because discord.py appends
            paths that start with ``/``.
        gateway_url: the gateway WebSocket URL, for example ``ws://127.0.0.1:8123/gateway``.
            ``None`` or an empty string keeps the current value. discord.py adds the
            ``v``, ``encoding`` and ``compress`` query parameters itself, so any query
            given here is dropped.

    Raises:
        ValueError: if a URL is not absolute or uses a scheme that cannot work
            (REST needs ``http``/``https``, the gateway ``ws``/``wss``).
    """
    if api_base:
        base = yarl.URL(api_base)
        if not base.is_absolute() or base.scheme not in ("http", "https"):
            raise ValueError(f"DISCORD_API_BASE must be an absolute http(s) URL, got {api_base!r}")
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        gateway = yarl.URL(gateway_url)
        if not gateway.is_absolute() or gateway.scheme not in ("ws", "wss"):
            raise ValueError(
                f"DISCORD_GATEWAY_URL must be an absolute ws(s) URL, got {gateway_url!r}"
            )
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway.with_query(None).with_fragment(
            None
        )
