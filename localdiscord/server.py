"""A fake Discord (REST API v10 + Gateway v10) on 127.0.0.1 for end-to-end tests.

The real, unmodified discord.py client connects to it (see ``bot/endpoints.py``), and
tests drive it as people would: slash commands, button clicks, select menus, modal
submits. The fake records every message, edit and DM so tests can assert what each
person saw, and has switches for faults (429s, 500s, closed DMs, gateway drops).

    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Casino")
    table = fake.add_text_channel(guild, "pontoon")
    alice = fake.add_member(guild, "alice")
    ... start a bot with DISCORD_API_BASE=fake.api_base DISCORD_GATEWAY_URL=fake.gateway_url
    await fake.wait_for_bot_ready()
    r = await fake.slash(alice, table, "pontoon", "start", {"min_bet": 1})
    r2 = await fake.click(alice, r.message, label="Join")
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import logging
import re
import secrets
import signal
import sys
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .app_emojis import AppEmojiStore
from .conformance import form_errors, multipart_parts, note_refusal, refusal
from .layout import FLAG_COMPONENTS_V2
from .limits import command_problems, message_problems
from .models import (
    ACTION_ROW,
    APPLICATION_COMMAND,
    BOT_PERMISSIONS,
    BUTTON,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE_MESSAGE,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    DISCORD_EPOCH_MS,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    GROUP_DM_CHANNEL,
    GUILD_INSTALL,
    JSON,
    LABEL,
    MANAGE_GUILD,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    SELECT_TYPES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    STRING_SELECT,
    TEXT_INPUT,
    USER_INSTALL,
    VIEW_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResult,
    LogEntry,
    ModalShown,
    NoResponse,
    Person,
    RequestRecord,
    iso_now,
    user_of,
    walk_components,
)

log = logging.getLogger("localdiscord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
ADMINISTRATOR = 1 << 3

# Discord's own error bodies (https://discord.com/developers/docs/topics/opcodes-and-status-codes)
ERR_UNKNOWN_CHANNEL = (10003, "Unknown Channel")
ERR_UNKNOWN_MESSAGE = (10008, "Unknown Message")
ERR_UNKNOWN_WEBHOOK = (10015, "Unknown Webhook")
ERR_UNKNOWN_INTERACTION = (10062, "Unknown interaction")
ERR_CANNOT_DM = (50007, "Cannot send messages to this user")
ERR_EMPTY_MESSAGE = (50006, "Cannot send an empty message")
ERR_INVALID_FORM = (50035, "Invalid Form Body")
ERR_ALREADY_ACKED = (40060, "Interaction has already been acknowledged.")
#: a heartbeat's ACK follows it after this long (a round trip to Discord is longer)
HEARTBEAT_ACK_SECONDS = 0.25
ERR_NOT_AUTHOR = (50005, "Cannot edit a message authored by another user")
ERR_MISSING_PERMISSIONS = (50013, "Missing Permissions")
#: the bot's own requests in a group DM it is not in (it may only answer interactions there)
ERR_MISSING_ACCESS = (50001, "Missing Access")
#: a webhook call with an interaction token older than its 15 minutes
ERR_INVALID_WEBHOOK_TOKEN = (50027, "Invalid Webhook Token")
#: seconds an interaction token works for follow-ups and edits (Discord: 15 minutes)
INTERACTION_TOKEN_SECONDS = 15 * 60
#: ``app_permissions`` of a user-installed app in a group DM (no server roles apply: what
#: any member of a private channel may do, the bot's own extras left out)
GROUP_DM_APP_PERMISSIONS = EVERYONE_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS


class CommandUnavailable(PermissionError):
    """Discord would not offer this command to this person here: it is not declared for
    the context (``contexts``) or for an install the person has (``integration_types``),
    or the person is not in that group DM."""


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    discord.py only parses a body as JSON when the header equals that string, so
    aiohttp's ``json_response`` (which appends ``; charset=utf-8``) must not be used.
    """
    resp = web.Response(body=json.dumps(data).encode(), status=status)
    resp.headers["Content-Type"] = "application/json"
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def error_response(status: int, err: tuple[int, str], extra: JSON | None = None) -> web.Response:
    body: JSON = {"message": err[1], "code": err[0]}
    if extra:
        body.update(extra)
    return json_response(body, status)


def _form_errors(errors: Sequence[str]) -> JSON:
    """Discord's nested 50035 error shape: {"field": {"_errors": [{"code", "message"}]}}."""
    out: JSON = {}
    for err in errors:
        fld, _, msg = err.partition(": ")
        out.setdefault(fld if msg else "_base", {"_errors": []})["_errors"].append(
            {"code": "BASE_TYPE_INVALID", "message": msg or err}
        )
    return out


ATTACHMENTS_KEPT = 200  # uploaded files kept to serve (the oldest go first)


class _HTTPError(Exception):
    def __init__(self, status: int, err: tuple[int, str], extra: JSON | None = None) -> None:
        super().__init__(f"{status} {err}")
        self.response = error_response(status, err, extra)


# --------------------------------------------------------------------------- faults


@dataclass
class Fault:
    """Make the next ``remaining`` requests matching ``method`` + ``pattern`` fail."""

    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int
    retry_after: float = 0.1
    is_global: bool = False
    body: JSON | None = None
    hits: int = 0
    delay: float = 0.0  # seconds to wait first; with status 0 the request then goes through

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and (self.method == "*" or self.method == method)
            and self.pattern.fullmatch(path) is not None
        )

    def response(self) -> web.Response:
        self.remaining -= 1
        self.hits += 1
        if self.status == 429:
            body = self.body or {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
            }
            headers = {
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                "X-RateLimit-Scope": "shared" if not self.is_global else "global",
                # discord.py treats a 429 without Via as a Cloudflare ban and gives up
                "Via": "1.1 google",
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            return json_response(body, 429, headers)
        body = self.body or {"message": f"{self.status}: Injected fault", "code": 0}
        return json_response(body, self.status)


def route_pattern(route: str) -> re.Pattern[str]:
    """'/channels/{id}/messages/*' -> regex; ``{name}`` and ``*`` match one path segment."""
    if route.startswith("re:"):
        return re.compile(route[3:])
    out = ""
    for part in re.split(r"(\{[^}]*\}|\*)", route):
        if part == "*" or (part.startswith("{") and part.endswith("}")):
            out += "[^/]+"
        else:
            out += re.escape(part)
    return re.compile(out)


# --------------------------------------------------------------------------- rate limits
# Discord's published limits (https://discord.com/developers/docs/topics/rate-limits):
# message creates and edits in one channel share one bucket (5 per 5 s); every bot has a
# global limit of 50 requests per second, which interaction endpoints (callbacks and the
# interaction's webhook) are outside of. Every answer carries the X-RateLimit-* headers;
# a request over a limit gets a 429 the way Discord sends it.

_CHANNEL_MESSAGE_ROUTE = re.compile(r"/channels/(\d+)/messages(?:/(\d+))?")
_INTERACTION_ROUTE = re.compile(r"/interactions/[^/]+/[^/]+/callback|/webhooks/[^/]+/[^/]+(/.*)?")
_MESSAGE_BUCKET_HASH = "c8a2d6f4e0b1messages"


@dataclass
class RateLimits:
    """The limits the fake enforces. ``scale`` multiplies every window (0.2: 5 edits per
    second instead of per 5 s) to keep a test suite fast; benchmarks use 1.0."""

    enabled: bool = True
    scale: float = 1.0
    channel_messages: int = 5  # creates + edits per channel per window
    channel_window: float = 5.0
    global_requests: int = 50  # per window, interaction endpoints excluded
    global_window: float = 1.0
    route_requests: int = 50  # any other route, per route and major parameter
    route_window: float = 1.0


@dataclass
class _Bucket:
    limit: int
    window: float
    reset_at: float = 0.0
    used: int = 0

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.reset_at, self.used = now + self.window, 0
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        return max(0.0, self.reset_at - now)


class RateLimiter:
    """Buckets by route and major parameter, plus the global limit."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self.buckets: dict[str, _Bucket] = {}
        self.global_bucket = _Bucket(limits.global_requests, limits.global_window * limits.scale)

    def bucket_for(self, method: str, path: str) -> tuple[str, str, _Bucket]:
        """(bucket hash, key, bucket) of a request; message creates and edits of one
        channel share one bucket."""
        lim = self.limits
        m = _CHANNEL_MESSAGE_ROUTE.fullmatch(path)
        if m is not None and (
            (method == "POST" and m.group(2) is None) or (method == "PATCH" and m.group(2))
        ):
            key = f"messages:{m.group(1)}"
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = _Bucket(
                    lim.channel_messages, lim.channel_window * lim.scale
                )
            return _MESSAGE_BUCKET_HASH, key, bucket
        template = re.sub(r"/\d+", "/{id}", path)
        major = re.match(r"/(?:channels|guilds|webhooks)/(\d+)", path)
        bucket_hash = _bucket_hash(f"{method} {template}")
        key = f"{bucket_hash}:{major.group(1) if major else ''}"
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = _Bucket(lim.route_requests, lim.route_window * lim.scale)
        return bucket_hash, key, bucket

    def check(
        self, method: str, path: str, now: float
    ) -> tuple[web.Response | None, dict[str, str]]:
        """None and the headers to add to the answer, or a 429 response."""
        enforce = self.limits.enabled
        exempt = _INTERACTION_ROUTE.fullmatch(path) is not None
        if not exempt and not self.global_bucket.take(now) and enforce:
            retry = self.global_bucket.reset_after(now)
            return _too_many(retry, is_global=True, headers={"X-RateLimit-Global": "true"}), {}
        bucket_hash, _key, bucket = self.bucket_for(method, path)
        allowed = bucket.take(now) or not enforce
        reset_after = bucket.reset_after(now)
        # limits off: the headers never say a bucket ran dry (discord.py would wait)
        remaining = bucket.limit - bucket.used if enforce else max(1, bucket.limit - bucket.used)
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, remaining)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if allowed:
            return None, headers
        return _too_many(reset_after, is_global=False, headers=headers), {}


def _bucket_hash(text: str) -> str:
    """A stable, opaque bucket hash for a route (Discord's look like this)."""
    return hashlib.blake2s(text.encode(), digest_size=8).hexdigest()


def _too_many(retry_after: float, *, is_global: bool, headers: Mapping[str, str]) -> web.Response:
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    out = dict(headers)
    out.update(
        {
            "Retry-After": str(max(1, int(-(-retry_after // 1)))),  # whole seconds, rounded up
            "X-RateLimit-Scope": "global" if is_global else "shared",
            # discord.py treats a 429 without Via as a Cloudflare ban and gives up
            "Via": "1.1 google",
        }
    )
    return json_response(body, 429, out)


# --------------------------------------------------------------------------- gateway


class _Connection:
    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if compress else None
        self.lock = asyncio.Lock()
        self.closed = False

    async def send(self, payload: JSON) -> None:
        text = json.dumps(payload)
        async with self.lock:
            if self.closed or self.ws.closed:
                raise ConnectionResetError("gateway connection closed")
            if self.compressor is not None:
                data = self.compressor.compress(text.encode()) + self.compressor.flush(
                    zlib.Z_SYNC_FLUSH
                )
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)


@dataclass
class _Session:
    session_id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    events: list[JSON] = field(default_factory=list)
    conn: _Connection | None = None
    guilds_sent: bool = False  # READY and this shard's GUILD_CREATEs were dispatched

    @property
    def shard_id(self) -> int:
        return int(self.shard[0]) if self.shard else 0

    @property
    def shard_count(self) -> int:
        return int(self.shard[1]) if self.shard else 1


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    """The fake Discord server plus the driver API tests use.

    Args:
        interaction_deadline: seconds a bot has to send the initial callback, like
            Discord's 3 s; a later callback gets 404 Unknown interaction.
        validate: reject message payloads Discord would reject (empty message, too long
            content, more than 5 rows / 5 buttons per row, duplicate custom ids...).
        heartbeat_interval_ms: the interval sent in HELLO.
        rate_limits: the limits enforced (default: Discord's published ones, real
            windows); ``RateLimits(scale=0.2)`` shrinks the windows, ``False`` turns
            enforcement off (headers are still sent). ``rate_limited`` records every 429
            the limits gave (injected faults are not in it).
        shard_count: the shard count ``GET /gateway/bot`` recommends. With more than one,
            IDENTIFY must name ``[shard_id, shard_count]`` (else close 4011 Sharding
            required) and each guild lives on shard ``(guild_id >> 22) % shard_count``.
    """

    def __init__(
        self,
        *,
        interaction_deadline: float = 3.0,
        validate: bool = True,
        heartbeat_interval_ms: int = 41250,
        bot_name: str = "PontoonBot",
        rate_limits: RateLimits | bool = True,
        shard_count: int = 1,
        token: str | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        if isinstance(rate_limits, bool):
            rate_limits = RateLimits(enabled=rate_limits)
        self.rate_limiter = RateLimiter(rate_limits)
        self.rate_limited: list[RequestRecord] = []
        self._acks: set[asyncio.Task[None]] = set()  # heartbeat ACKs on their way
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        self.shard_count = shard_count
        self.interaction_deadline = interaction_deadline
        self.validate = validate
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.host = host
        #: when set, REST requests must carry ``Authorization: Bot <token>`` (the sandbox)
        self.token = token
        #: called (with no arguments) after every change, for live views (the sandbox page)
        self.change_listeners: list[Callable[[], None]] = []
        self._id_source: Iterator[int] | None = None
        self.port: int | None = None
        self._last_id = 0
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._closing = False

        self.bot_user = FakeUser(self._next_id(), bot_name, bot=True)
        self.app_id = self.bot_user.id
        self.owner_user = FakeUser(self._next_id(), "app-owner")

        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.messages: dict[int, FakeMessage] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self.group_dms: dict[int, FakeChannel] = {}  # channel id -> group DM (type 3)
        #: users who installed the app on their own account (integration type 1)
        self.user_installs: set[int] = set()
        #: seconds added to the real clock by ``advance_clock`` (interaction tokens expire
        #: on this clock; the 3 s answer window stays on real time)
        self.clock_offset = 0.0
        self.token_lifetime: float = INTERACTION_TOKEN_SECONDS
        self.closed_dms: set[int] = set()
        # channel id -> permission bits taken from the bot there (a channel overwrite)
        self.bot_denied: dict[int, int] = {}
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs = 0
        self.app_emojis = AppEmojiStore()

        self.log: list[LogEntry] = []
        self.requests: list[RequestRecord] = []
        self.unhandled: list[str] = []
        self.rejected: list[JSON] = []
        self.attachment_bytes: dict[str, bytes] = {}  # attachment id -> its file, newest last
        self.faults: list[Fault] = []
        self.modals: list[ModalShown] = []
        self.interactions: dict[int, InteractionResult] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self.presence_updates: list[JSON] = []

        self._sessions: dict[int, _Session] = {}  # shard id -> session (0 when unsharded)
        self._connections: set[_Connection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.gateway_connects = 0
        self.identify_payloads: list[JSON] = []
        self._waiters: set[asyncio.Future[None]] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    # ================================================================= lifecycle
    async def start(
        self, port: int = 0, *, extra_routes: Callable[[web.Application], None] | None = None
    ) -> FakeDiscord:
        """Listen on ``host:port`` (0: a free port). ``extra_routes`` adds routes of its own
        to the app before it starts (the sandbox's page); paths outside ``/api`` and the
        gateway are left alone by the fake."""
        app = web.Application(middlewares=[self._middleware], client_max_size=32 * 1024 * 1024)
        if extra_routes is not None:
            extra_routes(app)
        app.router.add_get(GATEWAY_PATH, self._gateway_handler)
        app.router.add_get("/attachments/{aid}/{name}", self._get_attachment)
        app.router.add_get(GATEWAY_PATH + "/", self._gateway_handler)
        r = app.router
        p = API_PREFIX
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/users/{user_id}", self._get_user)
        r.add_get(p + "/oauth2/applications/@me", self._get_app)
        r.add_get(p + "/applications/@me", self._get_app)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway_bot)
        r.add_route("*", p + "/applications/{app_id}/commands", self._global_commands)
        r.add_route("*", p + "/applications/{app_id}/commands/{cmd_id}", self._global_command)
        r.add_route("*", p + "/applications/{app_id}/guilds/{guild_id}/commands", self._guild_cmds)
        r.add_route(
            "*", p + "/applications/{app_id}/guilds/{guild_id}/commands/{cmd_id}", self._guild_cmd
        )
        r.add_route("*", p + "/applications/{app_id}/emojis", self._app_emojis)
        r.add_post(p + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(p + "/webhooks/{app_id}/{token}", self._followup)
        r.add_route("*", p + "/webhooks/{app_id}/{token}/messages/{mid}", self._webhook_message)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/channels/{cid}", self._get_channel)
        r.add_get(p + "/channels/{cid}/messages", self._list_messages)
        r.add_post(p + "/channels/{cid}/messages", self._post_message)
        r.add_route("*", p + "/channels/{cid}/messages/{mid}", self._channel_message)
        r.add_post(p + "/channels/{cid}/typing", self._typing)
        r.add_route("*", p + "/channels/{cid}/messages/{mid}/reactions/{emoji}/@me", self._reaction)
        r.add_get(p + "/guilds/{gid}", self._get_guild)
        r.add_get(p + "/guilds/{gid}/channels", self._get_guild_channels)
        r.add_get(p + "/guilds/{gid}/members/{uid}", self._get_member)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, port)
        await self._site.start()
        server = self._site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        self.port = int(sockets[0].getsockname()[1])
        log.info("fake discord listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        self._closing = True
        for conn in list(self._connections):
            conn.closed = True
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        for task in list(self._tasks):
            task.cancel()
        for fut in list(self._waiters):
            if not fut.done():
                fut.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("FakeDiscord not started")
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for DISCORD_API_BASE (``http://127.0.0.1:PORT/api/v10``)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for DISCORD_GATEWAY_URL (``ws://127.0.0.1:PORT/gateway``)."""
        if self.port is None:
            raise RuntimeError("FakeDiscord not started")
        return f"ws://{self.host}:{self.port}{GATEWAY_PATH}"

    def bot_env(self, token: str | None = None) -> dict[str, str]:
        """Environment variables that point a bot process at this fake."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": token or self.token or "fake-token",
        }

    # ================================================================= helpers
    @contextlib.contextmanager
    def ids_from(self, ids: Iterator[int]) -> Iterator[None]:
        """Objects created inside take their ids from ``ids`` (the sandbox's world keeps the
        same ids from one start to the next, so its database still fits)."""
        self._id_source = ids
        try:
            yield
        finally:
            self._id_source = None

    def _next_id(self) -> int:
        if self._id_source is not None:
            return next(self._id_source)
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, now)
        return self._last_id

    def _notify(self) -> None:
        for listener in self.change_listeners:
            listener()
        for fut in list(self._waiters):
            if not fut.done():
                fut.set_result(None)
        self._waiters.clear()

    def _spawn(self, coro: Any) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _record(self, kind: str, **kw: Any) -> None:
        self.log.append(LogEntry(kind=kind, at=time.monotonic(), **kw))
        self._notify()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate()`` is true; it is re-checked whenever the fake's state changes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s{self.debug_tail()}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.add(fut)
            try:
                await asyncio.wait_for(fut, min(remaining, 0.25))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(fut)

    async def settle(self, quiet: float = 0.25, timeout: float = 10.0) -> None:
        """Wait until the bot has made no REST request and the fake has recorded nothing
        new for ``quiet`` seconds (after a click the bot may still be editing the table
        message or sending DMs). Raises TimeoutError if it keeps talking for ``timeout``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        seen = (len(self.requests), len(self.log))
        last_change = loop.time()
        while True:
            await asyncio.sleep(min(0.02, quiet / 4))
            now = (len(self.requests), len(self.log))
            if now != seen:
                seen, last_change = now, loop.time()
            elif loop.time() - last_change >= quiet:
                return
            if loop.time() > end:
                raise TimeoutError(f"the bot was still busy after {timeout}s{self.debug_tail()}")

    def debug_tail(self, n: int = 8) -> str:
        lines = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-n:]]
        extra = ""
        if lines:
            extra += "\nlast requests to the fake:\n  " + "\n  ".join(lines)
        if self.unhandled:
            extra += "\nunhandled routes: " + ", ".join(self.unhandled[-n:])
        if self.rejected:
            extra += "\nrejected payloads: " + json.dumps(self.rejected[-3:])[:800]
        return extra

    # ================================================================= world building
    def add_guild(self, name: str, *, owner: FakeUser | None = None, bot: bool = True) -> FakeGuild:
        """A server. ``bot=False``: a server that did not install the app (the bot is not
        in it and hears nothing of it); its members who installed the app on their
        account may still use the commands declared for user installs and servers there,
        and the bot's own requests on it get 403 Missing Access (50001)."""
        gid = self._next_id()
        guild = FakeGuild(id=gid, name=name, owner_id=(owner or self.owner_user).id)
        guild.bot_installed = bot
        guild.roles.append(FakeRole(gid, gid, "@everyone", EVERYONE_PERMISSIONS, 0))
        if bot:
            bot_role = FakeRole(self._next_id(), gid, self.bot_user.name, BOT_PERMISSIONS, 1, True)
            guild.roles.append(bot_role)
            guild.members[self.bot_user.id] = FakeMember(self.bot_user, guild, [bot_role.id])
        self.guilds[gid] = guild
        if self._session is not None and bot:
            self._spawn(self._dispatch("GUILD_CREATE", self._guild_create_payload(guild)))
        self._notify()
        return guild

    def add_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(self._next_id(), name, 0, guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if self._session is not None:
            self._spawn(self._dispatch("CHANNEL_CREATE", channel.payload()))
        return channel

    def add_role(self, guild: FakeGuild, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(self._next_id(), guild.id, name, permissions, len(guild.roles))
        guild.roles.append(role)
        if self._session is not None:
            self._spawn(
                self._dispatch(
                    "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
                )
            )
        return role

    def add_user(self, name: str) -> FakeUser:
        user = FakeUser(self._next_id(), name)
        self.users[user.id] = user
        return user

    def add_member(
        self,
        guild: FakeGuild,
        name: str,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        roles: Sequence[FakeRole] = (),
        user: FakeUser | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """Add a person to a guild. ``manage_guild``/``administrator`` give them a role
        with that permission. Pass ``user=`` to put an existing user in a second guild."""
        if user is None:
            user = self.add_user(name)
        role_ids = [r.id for r in roles]
        if manage_guild:
            role = guild.role("Manager") or self.add_role(guild, "Manager", MANAGE_GUILD)
            role_ids.append(role.id)
        if administrator:
            role = guild.role("Admin") or self.add_role(guild, "Admin", ADMINISTRATOR)
            role_ids.append(role.id)
        member = FakeMember(user, guild, role_ids, nick)
        guild.members[user.id] = member
        if self._session is not None:
            self._spawn(
                self._dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
            )
        return member

    def remove_member(self, member: FakeMember) -> None:
        """The person leaves (or is kicked from) the guild."""
        guild = member.guild
        guild.members.pop(member.id, None)
        if self._session is not None:
            self._spawn(
                self._dispatch(
                    "GUILD_MEMBER_REMOVE",
                    {"guild_id": str(guild.id), "user": member.user.payload()},
                )
            )
        self._notify()

    def set_roles(self, member: FakeMember, roles: Sequence[FakeRole]) -> None:
        """Replace a member's roles (GUILD_MEMBER_UPDATE is sent to the bot)."""
        member.role_ids = [r.id for r in roles]
        if self._session is not None:
            self._spawn(
                self._dispatch(
                    "GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(member.guild.id)}
                )
            )

    def delete_channel(self, channel: FakeChannel) -> None:
        """A moderator deletes the channel: later requests to it get 404 Unknown Channel."""
        self.channels.pop(channel.id, None)
        guild = self.guilds.get(channel.guild_id or 0)
        if guild is not None and channel in guild.channels:
            guild.channels.remove(channel)
        self.group_dms.pop(channel.id, None)
        if self._session is not None and not channel.is_private:
            self._spawn(self._dispatch("CHANNEL_DELETE", channel.payload()))
        self._record("channel_delete", channel_id=channel.id)

    def delete_message(self, message: FakeMessage | InteractionResult | int) -> None:
        """A moderator deletes a message: the bot's later edits get 404 Unknown Message."""
        self._delete_message(self._resolve_message(message))

    def close_dms(self, person: Person) -> None:
        """From now on the bot's DMs to this user fail with 403 / code 50007."""
        self.closed_dms.add(user_of(person).id)

    def open_dms(self, person: Person) -> None:
        self.closed_dms.discard(user_of(person).id)

    def deny_bot(self, channel: FakeChannel, permissions: int = SEND_MESSAGES) -> None:
        """A channel overwrite takes ``permissions`` (bits, default Send Messages) from the
        bot in ``channel``: interactions there carry the reduced ``app_permissions``, and
        the bot's posts there get 403 Missing Permissions (50013), like Discord."""
        self.bot_denied[channel.id] = self.bot_denied.get(channel.id, 0) | permissions

    def allow_bot(self, channel: FakeChannel) -> None:
        self.bot_denied.pop(channel.id, None)

    # ----------------------------------------------------------------------- user installs
    def install_for_user(self, person: Person) -> None:
        """The person adds the app to their own account (integration type 1, "User
        Install"): the commands declared for user installs are offered to them in DMs and
        group DMs (and in servers, beside the server's install)."""
        self.user_installs.add(user_of(person).id)
        self._notify()

    def uninstall_for_user(self, person: Person) -> None:
        """The person removes the app from their account (Authorized Apps -> Deauthorize)."""
        self.user_installs.discard(user_of(person).id)
        self._notify()

    def installed_for(self, person: Person) -> bool:
        """Whether the person has the app installed on their own account."""
        return user_of(person).id in self.user_installs

    def group_dm(self, owner: Person, *people: Person, name: str | None = None) -> FakeChannel:
        """A group DM (channel type 3) of ``owner`` and ``people``; the bot is not in it
        and gets no gateway event about it. The app can act there only through the
        interactions of people who installed it on their account."""
        users = [user_of(owner)] + [user_of(p) for p in people]
        recipients: list[FakeUser] = []
        for user in users:
            if all(u.id != user.id for u in recipients):
                recipients.append(user)
        for user in recipients:
            self.users.setdefault(user.id, user)
        label = name or ", ".join(u.name for u in recipients)
        channel = FakeChannel(
            self._next_id(),
            label,
            GROUP_DM_CHANNEL,
            None,
            recipients=recipients,
            owner_id=recipients[0].id,
        )
        self.group_dms[channel.id] = channel
        self.channels[channel.id] = channel
        self._notify()
        return channel

    def add_to_group_dm(self, channel: FakeChannel, person: Person) -> None:
        """A member of a group DM adds another person to it."""
        if not channel.is_group_dm:
            raise ValueError(f"{channel.name!r} is not a group DM")
        user = user_of(person)
        self.users.setdefault(user.id, user)
        if not channel.has_member(user.id):
            channel.recipients.append(user)
        self._notify()

    def remove_from_group_dm(self, channel: FakeChannel, person: Person) -> None:
        """The person leaves the group DM: they see nothing of it and can use nothing in it."""
        uid = user_of(person).id
        channel.recipients[:] = [u for u in channel.recipients if u.id != uid]
        self._notify()

    def group_dms_of(self, person: Person) -> list[FakeChannel]:
        """The group DMs this person is in (oldest first)."""
        uid = user_of(person).id
        return [c for c in self.group_dms.values() if c.has_member(uid)]

    # ----------------------------------------------------------------------- clock
    def clock(self) -> float:
        """The fake's clock (monotonic seconds plus ``advance_clock``): interaction tokens
        expire ``token_lifetime`` (15 min) after their interaction on this clock."""
        return time.monotonic() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move the fake's clock forward: interaction tokens older than 15 minutes get
        401 Invalid Webhook Token (50027). The 3 s answer window is not affected."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.clock_offset += seconds
        self._notify()

    def token_expired(self, result: InteractionResult) -> bool:
        """Whether this interaction's token no longer works (older than 15 minutes)."""
        return self.clock() - result.created_clock >= self.token_lifetime

    # ================================================================= faults
    # ----------------------------------------------------------------------- locales
    def set_locale(self, person: Person, locale: str) -> None:
        """The person's Discord client language (``en-US``, ``de``, ``fr``, ``hi``...):
        sent as ``locale`` in their interactions from now on, like Discord does."""
        user = person.user if isinstance(person, FakeMember) else person
        user.locale = locale

    def set_guild_locale(self, guild: FakeGuild, locale: str) -> None:
        """The server's preferred locale (Server Settings -> Community -> language): sent
        in GUILD_UPDATE, and as ``guild_locale`` in its interactions from now on."""
        guild.preferred_locale = locale
        if self._session is not None:
            data = self._guild_create_payload(guild)
            for key in ("members", "channels", "threads", "presences", "voice_states"):
                data.pop(key, None)
            self._spawn(self._dispatch("GUILD_UPDATE", data))

    def inject_fault(
        self,
        route: str,
        *,
        status: int,
        method: str = "*",
        count: int = 1,
        retry_after: float = 0.1,
        is_global: bool = False,
        body: JSON | None = None,
    ) -> Fault:
        """Make the next ``count`` requests to ``route`` fail with ``status``.

        ``route`` is a path relative to ``/api/v10`` where ``{anything}`` or ``*`` matches
        one segment (``"/channels/*/messages"``), or ``"re:<regex>"``. For 429 the body
        and headers are what discord.py reads (``retry_after`` in JSON, ``Via`` header).
        """
        fault = Fault(
            method.upper(), route_pattern(route), status, count, retry_after, is_global, body
        )
        self.faults.append(fault)
        return fault

    def rate_limit_next(
        self, route: str, *, method: str = "*", count: int = 1, retry_after: float = 0.1
    ) -> Fault:
        """429 for the next ``count`` requests to ``route`` (see ``inject_fault``)."""
        return self.inject_fault(
            route, status=429, method=method, count=count, retry_after=retry_after
        )

    def delay_next(self, route: str, seconds: float, *, method: str = "*", count: int = 1) -> Fault:
        """Slow Discord: the next ``count`` requests to ``route`` are answered normally but
        only after ``seconds`` (e.g. an interaction callback after the 3 s deadline)."""
        fault = Fault(method.upper(), route_pattern(route), 0, count, delay=seconds)
        self.faults.append(fault)
        return fault

    def fail_message_edits(self, count: int = 1, status: int = 500) -> Fault:
        """The next ``count`` message edits (channel or webhook PATCH) answer ``status``."""
        return self.inject_fault(
            r"re:/(channels/[^/]+|webhooks/[^/]+/[^/]+)/messages/[^/]+",
            status=status,
            method="PATCH",
            count=count,
        )

    async def drop_gateway(self, *, code: int = 4000, abort: bool = False) -> None:
        """Close the bot's gateway socket. The session is kept, so the client RESUMEs and
        gets the events dispatched meanwhile replayed. ``abort`` kills the TCP connection
        without a close frame."""
        session = self._session
        if session is None or session.conn is None:
            raise RuntimeError("no bot connected to the gateway")
        conn = session.conn
        session.conn = None
        conn.closed = True
        if abort:
            transport = conn.ws._req.transport if conn.ws._req is not None else None
            if transport is not None:
                transport.abort()
        else:
            await conn.ws.close(code=code, message=b"fake drop")
        self._record("gateway_drop", detail=f"code={code} abort={abort}")

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and RESUMEs."""
        session = self._session
        if session is None or session.conn is None:
            raise RuntimeError("no bot connected to the gateway")
        await session.conn.send({"op": 7, "d": None})

    async def invalidate_session(self) -> None:
        """Forget the session and send op 9 (not resumable): the client must IDENTIFY again."""
        session = self._session
        if session is None or session.conn is None:
            raise RuntimeError("no bot connected to the gateway")
        conn = session.conn
        self._sessions.pop(session.shard_id, None)
        await conn.send({"op": 9, "d": False})

    # ================================================================= readiness
    @property
    def bot_connected(self) -> bool:
        s = self._session
        return s is not None and s.conn is not None and not s.conn.closed

    @property
    def bot_ready(self) -> bool:
        """IDENTIFY seen and READY + every GUILD_CREATE sent on the current session of
        every shard."""
        return self.shards_ready(range(self.shard_count))

    async def wait_for_bot_ready(
        self,
        timeout: float = 15.0,
        *,
        commands: bool = False,
        identify_count: int = 1,
        command_syncs: int = 1,
    ) -> None:
        """Wait until the bot IDENTIFYed (at least ``identify_count`` times in total) and
        got READY and all GUILD_CREATEs; with ``commands=True`` also until command syncs
        (PUT/POST of application commands) reached ``command_syncs`` in total.

        discord.py fires ``on_ready`` only ``guild_ready_timeout`` (2 s by default) after
        the last GUILD_CREATE; interactions are dispatched before that, but work a bot
        does in ``on_ready`` may not have happened yet: wait for its visible effects
        (``wait_until``/``settle``)."""
        await self.wait_until(
            lambda: (
                self.bot_ready
                and self.identify_count >= identify_count
                and (not commands or self.command_syncs >= command_syncs)
            ),
            timeout,
        )

    async def wait_for_resume(self, count: int = 1, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: self.resume_count >= count and self.bot_connected, timeout)

    # ================================================================= records / queries
    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def channel_messages(
        self, channel: FakeChannel, *, viewer: Person | None = None, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel (current state, oldest first; ``m.history`` has every
        version). Ephemeral messages only with ``viewer=`` and only that viewer's."""
        uid = user_of(viewer).id if viewer is not None else None
        out = []
        for m in self.messages.values():
            if m.channel.id != channel.id or (m.deleted and not include_deleted):
                continue
            if m.ephemeral_for is not None and m.ephemeral_for != uid:
                continue
            out.append(m)
        return sorted(out, key=lambda m: m.id)

    def ephemerals(self, person: Person) -> list[FakeMessage]:
        """Ephemeral messages shown to this person."""
        uid = user_of(person).id
        return sorted(
            (m for m in self.messages.values() if m.ephemeral_for == uid and not m.deleted),
            key=lambda m: m.id,
        )

    def dms(self, person: Person) -> list[FakeMessage]:
        """Messages the bot delivered to this person's DMs (current state)."""
        ch = self.dm_channels.get(user_of(person).id)
        if ch is None:
            return []
        return self.channel_messages(ch)

    def refused_dms(self, person: Person) -> list[LogEntry]:
        """DMs the bot tried to send while the person's DMs were closed."""
        uid = user_of(person).id
        return [e for e in self.log if e.kind == "dm_refused" and e.user_id == uid]

    def visible_to(self, person: Person) -> list[FakeMessage]:
        """Everything this person can see: public messages in channels of guilds they are
        in, their own ephemerals and their DMs (oldest first)."""
        uid = user_of(person).id
        out = []
        for m in self.messages.values():
            if not m.visible_to_user(uid):
                continue
            if not m.channel.is_private and m.ephemeral_for is None:
                guild = self.guilds.get(m.channel.guild_id or 0)
                if guild is None or uid not in guild.members:
                    continue
            out.append(m)
        return sorted(out, key=lambda m: m.id)

    def hidden_from(self, person: Person) -> list[FakeMessage]:
        """Messages that exist but this person cannot see (others' ephemerals and DMs)."""
        uid = user_of(person).id
        return sorted(
            (m for m in self.messages.values() if not m.deleted and not m.visible_to_user(uid)),
            key=lambda m: m.id,
        )

    def latest_message_with_button(
        self, channel: FakeChannel, label: str, *, viewer: Person | None = None
    ) -> FakeMessage:
        for m in reversed(self.channel_messages(channel, viewer=viewer)):
            if m.has_button(label):
                return m
        raise LookupError(f"no message with a button {label!r} in #{channel.name}")

    def last_message(self, channel: FakeChannel, *, viewer: Person | None = None) -> FakeMessage:
        msgs = self.channel_messages(channel, viewer=viewer)
        if not msgs:
            raise LookupError(f"no messages in #{channel.name}")
        return msgs[-1]

    def requests_to(self, route: str, method: str = "*") -> list[RequestRecord]:
        pattern = route_pattern(route)
        return [
            r
            for r in self.requests
            if (method == "*" or r.method == method.upper()) and pattern.fullmatch(r.path)
        ]

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """Registered application commands (global, or one guild's)."""
        if guild is None:
            return list(self.global_commands)
        return list(self.guild_commands.get(guild.id, []))

    def synced_command(self, name: str, *, guild: FakeGuild | None = None) -> JSON:
        """The command the bot synced under this name (global, or ``guild``'s), as Discord
        stores it: ``integration_types`` and ``contexts`` always lists, Discord's defaults
        filled in where the bot left them out (see ``_command_record``). LookupError if none."""
        for cmd in self.commands(guild):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        raise LookupError(f"no synced command /{name}")

    # ================================================================= payload builders
    def _guild_create_payload(self, guild: FakeGuild) -> JSON:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_video_channel_users": 25,
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in guild.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _interaction_payload(
        self,
        *,
        iid: int,
        token: str,
        itype: int,
        data: JSON,
        user: FakeUser,
        channel: FakeChannel,
        message: FakeMessage | None = None,
        owners: Mapping[str, str] | None = None,
    ) -> JSON:
        owners = dict(owners) if owners else self._default_owners(channel)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            member = guild.members.get(user.id)
            if member is None:
                raise ValueError(f"{user.name} is not a member of {guild.name}")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {
                "id": str(guild.id),
                "locale": guild.preferred_locale,
                "features": [],
            }
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = member.payload(with_permissions=True)
            bot_member = guild.members.get(self.bot_user.id)
            app_permissions = (
                bot_member.permissions if bot_member is not None else GROUP_DM_APP_PERMISSIONS
            )
            payload["app_permissions"] = str(app_permissions & ~self.bot_denied.get(channel.id, 0))
            payload["authorizing_integration_owners"] = owners
            payload["context"] = CONTEXT_GUILD
        elif channel.is_group_dm:
            if not channel.has_member(user.id):
                raise ValueError(f"{user.name} is not in the group DM {channel.name!r}")
            payload["user"] = user.payload()
            payload["app_permissions"] = str(GROUP_DM_APP_PERMISSIONS)
            payload["authorizing_integration_owners"] = owners
            payload["context"] = CONTEXT_PRIVATE_CHANNEL
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = str(BOT_PERMISSIONS)
            payload["authorizing_integration_owners"] = owners
            payload["context"] = CONTEXT_BOT_DM
        if message is not None:
            payload["message"] = message.payload(self.app_id)
        return payload

    @staticmethod
    def context_of(channel: FakeChannel) -> int:
        """The interaction context of a channel: 0 server, 1 DM with the bot, 2 group DM."""
        if channel.guild_id is not None:
            return CONTEXT_GUILD
        return CONTEXT_PRIVATE_CHANNEL if channel.is_group_dm else CONTEXT_BOT_DM

    def _default_owners(self, channel: FakeChannel) -> dict[str, str]:
        """``authorizing_integration_owners`` of a server install: the server's id, or "0"
        in the bot's DMs (a group DM has no server install)."""
        if channel.guild_id is not None:
            if not self.guilds[channel.guild_id].bot_installed:
                raise ValueError("this server has no server install: pass a user install")
            return {str(GUILD_INSTALL): str(channel.guild_id)}
        if channel.is_group_dm:
            raise ValueError("a group DM has no server install: pass the user install's owner")
        return {str(GUILD_INSTALL): "0"}

    def command_owners(
        self, cmd: JSON, cmd_guild: int | None, user: FakeUser, channel: FakeChannel
    ) -> dict[str, str]:
        """The installs that authorize ``user`` to run ``cmd`` in ``channel`` (its
        ``authorizing_integration_owners``), or CommandUnavailable where Discord would
        not offer the command: a context not in its ``contexts``, no install of a type in
        its ``integration_types`` (a user install counts only if this person made it),
        a group DM the person is not in."""
        context = self.context_of(channel)
        types, contexts = command_scope(cmd, cmd_guild)
        name = cmd.get("name")
        where = {0: "a server", 1: "a DM with the app", 2: "a group DM"}[context]
        if context not in contexts:
            raise CommandUnavailable(
                f"/{name} is not offered in {where}: its contexts are {contexts}"
                f" (0 server, 1 bot DM, 2 group DM)"
            )
        if channel.is_private and not channel.has_member(user.id):
            raise CommandUnavailable(f"{user.name} is not in {channel.name!r}")
        owners: dict[str, str] = {}
        guild = self.guilds.get(channel.guild_id or 0)
        server_install = guild.bot_installed if guild is not None else True
        if GUILD_INSTALL in types and context != CONTEXT_PRIVATE_CHANNEL and server_install:
            owners[str(GUILD_INSTALL)] = str(channel.guild_id or 0)
        if USER_INSTALL in types and user.id in self.user_installs and cmd_guild is None:
            owners[str(USER_INSTALL)] = str(user.id)
        if not owners:
            if USER_INSTALL in types:
                why = f"{user.name} has not installed the app on their account"
            else:
                why = f"its integration_types are {types} (0 server install, 1 user install)"
            raise CommandUnavailable(f"/{name} is not offered to {user.name} in {where}: {why}")
        return owners

    # ================================================================= driver: interactions
    def _find_command(self, channel: FakeChannel, name: str) -> tuple[JSON | None, int | None]:
        if channel.guild_id is not None:
            for cmd in self.guild_commands.get(channel.guild_id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, channel.guild_id
        for cmd in self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, None
        return None, None

    async def slash(
        self,
        member: Person,
        channel: FakeChannel,
        command: str,
        subcommand: str | Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Run a slash command as ``member`` in ``channel`` and wait for the bot's callback.

        ``command`` may hold the whole path (``"pontoon admin grant"``); ``subcommand``
        is a name, a space separated path or a list (group, subcommand). ``options`` maps
        option names to values: str/int/float/bool, a FakeMember/FakeUser (user option,
        with ``resolved`` data), FakeChannel or FakeRole. Option types come from the
        command the bot registered; the command must be registered (waits up to
        ``timeout`` for the bot to sync it).
        """
        parts = command.split()
        if isinstance(subcommand, str):
            parts += subcommand.split()
        elif subcommand:
            parts += list(subcommand)
        name, path = parts[0], parts[1:]
        user = user_of(member)
        try:
            await self.wait_until(lambda: self._find_command(channel, name)[0] is not None, timeout)
        except TimeoutError:
            registered = [c["name"] for c in self.global_commands] + [
                c["name"] for cmds in self.guild_commands.values() for c in cmds
            ]
            raise LookupError(
                f"command /{name} is not registered (registered: {registered})"
            ) from None
        cmd, cmd_guild = self._find_command(channel, name)
        assert cmd is not None
        owners = self.command_owners(cmd, cmd_guild, user, channel)
        resolved: JSON = {}
        schema: list[JSON] = cmd.get("options", []) or []
        # walk subcommand groups / subcommands
        nested: list[JSON] = []
        top_options = nested
        for seg in path:
            sub = next((o for o in schema if o["name"] == seg and o.get("type") in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in schema if o.get("type") in (1, 2)]
                raise LookupError(f"/{name}: no subcommand {seg!r} (have {subs})")
            node: JSON = {"name": seg, "type": sub["type"], "options": []}
            nested.append(node)
            nested = node["options"]
            schema = sub.get("options", []) or []
        if any(o.get("type") in (1, 2) for o in schema):
            subs = [o["name"] for o in schema if o.get("type") in (1, 2)]
            raise LookupError(f"/{' '.join(parts)} needs a subcommand: {subs}")
        nested.extend(self._build_options(schema, options or {}, resolved, channel))
        data: JSON = {
            "id": str(cmd["id"]),
            "name": name,
            "type": 1,
            "options": top_options,
        }
        if resolved:
            data["resolved"] = resolved
        if cmd_guild is not None:
            data["guild_id"] = str(cmd_guild)
        return await self._send_interaction(
            itype=APPLICATION_COMMAND,
            kind="slash",
            data=data,
            user=user,
            channel=channel,
            timeout=timeout,
            wait=wait,
            owners=owners,
        )

    def _build_options(
        self,
        schema: list[JSON],
        values: Mapping[str, Any],
        resolved: JSON,
        channel: FakeChannel,
    ) -> list[JSON]:
        by_name = {o["name"]: o for o in schema}
        out: list[JSON] = []
        for opt in schema:
            if opt.get("required") and opt["name"] not in values:
                raise ValueError(f"required option {opt['name']!r} missing")
        for key, value in values.items():
            spec = by_name.get(key)
            if spec is None:
                raise ValueError(f"unknown option {key!r}; command has {list(by_name)}")
            otype = int(spec.get("type", 3))
            out.append(
                {
                    "name": key,
                    "type": otype,
                    "value": self._option_value(otype, value, resolved, channel),
                }
            )
        return out

    def _option_value(self, otype: int, value: Any, resolved: JSON, channel: FakeChannel) -> Any:
        if otype == 3:
            return str(value)
        if otype == 4:
            return int(value)
        if otype == 5:
            return bool(value)
        if otype == 10:
            return float(value)
        if otype in (6, 9) and isinstance(value, FakeMember | FakeUser):
            user = user_of(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild = self.guilds.get(channel.guild_id or 0)
            member = guild.members.get(user.id) if guild else None
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, with_permissions=True
                )
            return str(user.id)
        if otype in (7, 9) and isinstance(value, FakeChannel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(BOT_PERMISSIONS),
                "parent_id": None,
            }
            return str(value.id)
        if otype in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        return value

    def _resolve_message(
        self, message: FakeMessage | InteractionResult | int | None
    ) -> FakeMessage:
        if isinstance(message, InteractionResult):
            message = message.message
        if message is None:
            raise ValueError("no message to act on (the interaction produced none)")
        return self.messages[message] if isinstance(message, int) else self.messages[message.id]

    async def click(
        self,
        member: Person,
        message: FakeMessage | InteractionResult | int | None,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Click a button on ``message`` (by ``custom_id`` or ``label``) as ``member``.
        ``message`` may be a FakeMessage, its id, or an InteractionResult (its message).

        The interaction carries the message's current stored payload, like Discord. The
        person must be able to see the message and the button must be enabled.
        """
        msg = self._resolve_message(message)
        user = user_of(member)
        if not msg.visible_to_user(user.id):
            raise PermissionError(f"{user.name} cannot see message {msg.id}")
        buttons = [c for c in walk_components(msg.components) if c.get("type") == BUTTON]
        if label is not None:
            comp = next((c for c in buttons if c.get("label") == label), None)
        else:
            comp = next((c for c in buttons if c.get("custom_id") == custom_id), None)
        if comp is None:
            have = [(c.get("label"), c.get("custom_id")) for c in buttons]
            raise LookupError(f"no button {label or custom_id!r} on message {msg.id}: {have}")
        if comp.get("disabled"):
            raise PermissionError(f"button {comp.get('label')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError("link buttons do not send interactions")
        data = {"custom_id": comp["custom_id"], "component_type": BUTTON}
        return await self._send_interaction(
            itype=MESSAGE_COMPONENT,
            kind="component",
            data=data,
            user=user,
            channel=msg.channel,
            message=msg,
            timeout=timeout,
            wait=wait,
        )

    async def select(
        self,
        member: Person,
        message: FakeMessage | InteractionResult | int | None,
        custom_id: str,
        values: Sequence[Any],
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``. For user/role/
        channel selects pass FakeMember/FakeRole/FakeChannel objects."""
        msg = self._resolve_message(message)
        user = user_of(member)
        if not msg.visible_to_user(user.id):
            raise PermissionError(f"{user.name} cannot see message {msg.id}")
        comp = next(
            (
                c
                for c in walk_components(msg.components)
                if c.get("type") in SELECT_TYPES and c.get("custom_id") == custom_id
            ),
            None,
        )
        if comp is None:
            raise LookupError(f"no select {custom_id!r} on message {msg.id}")
        if comp.get("disabled"):
            raise PermissionError(f"select {custom_id!r} is disabled")
        ctype = int(comp["type"])
        resolved: JSON = {}
        out_values: list[str] = []
        if ctype == STRING_SELECT:
            allowed = {str(o.get("value")) for o in comp.get("options", [])}
            for v in values:
                if str(v) not in allowed:
                    raise ValueError(f"{v!r} is not an option of {custom_id!r}: {sorted(allowed)}")
                out_values.append(str(v))
        else:
            otype = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            out_values = [str(self._option_value(otype, v, resolved, msg.channel)) for v in values]
        n = len(out_values)
        if not int(comp.get("min_values", 1)) <= n <= int(comp.get("max_values", 1)):
            raise ValueError(f"{n} values chosen for {custom_id!r}")
        data: JSON = {"custom_id": custom_id, "component_type": ctype, "values": out_values}
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(
            itype=MESSAGE_COMPONENT,
            kind="component",
            data=data,
            user=user,
            channel=msg.channel,
            message=msg,
            timeout=timeout,
            wait=wait,
        )

    async def submit_modal(
        self,
        member: Person,
        channel: FakeChannel | None,
        custom_id: str,
        values: Mapping[str, Any],
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Submit the modal ``custom_id`` with ``values`` (text input custom_id -> text).

        Uses the shape of the latest modal with that custom_id the bot showed to
        ``member`` (action rows or labels, and the message it was opened from); if the
        bot never showed one, sends plain action rows of text inputs. ``channel`` may be
        None to use the channel the modal was opened in.
        """
        user = user_of(member)
        shown = next(
            (m for m in reversed(self.modals) if m.user_id == user.id and m.custom_id == custom_id),
            None,
        )
        components: list[JSON]
        message: FakeMessage | None = None
        owners: dict[str, str] | None = None
        if shown is not None:
            channel = channel or shown.channel
            opener = self.interactions.get(shown.interaction_id)
            if opener is not None and opener.integration_owners:
                owners = opener.integration_owners  # the submit is authorized as the opening was
            if shown.message_id is not None:
                message = self.messages.get(shown.message_id)
            known = {c.get("custom_id") for c in walk_components(shown.components)}
            unknown = set(values) - known
            if unknown:
                raise ValueError(
                    f"modal {custom_id!r} has no inputs {sorted(unknown)}; has {known}"
                )
            for ti in shown.text_inputs():
                if ti.get("required", True) and not values.get(ti["custom_id"]):
                    raise ValueError(f"required input {ti['custom_id']!r} left empty")
            components = [self._modal_answer(c, values) for c in shown.components]
            components = [c for c in components if c]
        else:
            if channel is None:
                raise ValueError("channel needed for a modal the bot never showed")
            components = [
                {
                    "type": ACTION_ROW,
                    "components": [{"type": TEXT_INPUT, "custom_id": k, "value": str(v)}],
                }
                for k, v in values.items()
            ]
        assert channel is not None
        return await self._send_interaction(
            itype=MODAL_SUBMIT,
            kind="modal",
            data={"custom_id": custom_id, "components": components},
            user=user,
            channel=channel,
            message=message,
            timeout=timeout,
            wait=wait,
            owners=owners,
        )

    def _modal_answer(self, comp: JSON, values: Mapping[str, Any]) -> JSON:
        ctype = comp.get("type")
        if ctype == ACTION_ROW:
            inner = [self._modal_answer(c, values) for c in comp.get("components", [])]
            return {"type": ACTION_ROW, "components": [c for c in inner if c]}
        if ctype == LABEL:
            child = self._modal_answer(comp.get("component", {}), values)
            return {"type": LABEL, "id": comp.get("id", 0), "component": child} if child else {}
        cid = comp.get("custom_id")
        if cid is None:
            return {}
        if ctype == TEXT_INPUT:
            return {
                "type": TEXT_INPUT,
                "id": comp.get("id", 0),
                "custom_id": cid,
                "value": str(values.get(cid, "")),
            }
        if ctype in SELECT_TYPES:
            raw = values.get(cid, [])
            vals = [str(v) for v in (raw if isinstance(raw, list | tuple) else [raw])]
            return {"type": ctype, "id": comp.get("id", 0), "custom_id": cid, "values": vals}
        return {}

    def dm_channel(self, person: Person) -> FakeChannel:
        """The DM channel between the bot and this person (created on first use)."""
        user = user_of(person)
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self._next_id(), f"dm-{user.name}", 1, None, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    async def post_as(self, member: Person, channel: FakeChannel, content: str) -> FakeMessage:
        """A person writes a plain message in a channel (MESSAGE_CREATE to the bot if its
        intents ask for it; the content is blank without the message_content intent, as on
        Discord, unless the message mentions the bot)."""
        user = user_of(member)
        msg = FakeMessage(
            id=self._next_id(),
            channel=channel,
            author=user,
            content=content,
            embeds=[],
            components=[],
            flags=0,
            created_at=time.monotonic(),
            timestamp=iso_now(),
            origin="user",
        )
        msg.snapshot("create")
        self.messages[msg.id] = msg
        self._record(
            "create", channel_id=channel.id, message_id=msg.id, user_id=user.id, detail="user"
        )
        session = self._session
        if session is not None and self._wants_message_events(channel):
            payload = msg.payload(self.app_id)
            mentioned = f"<@{self.bot_user.id}>" in content
            if not session.intents & (1 << 15) and not mentioned:
                payload["content"] = ""
            if mentioned:
                payload["mentions"] = [self.bot_user.payload()]
            if channel.guild_id is not None:
                guild = self.guilds[channel.guild_id]
                if user.id in guild.members:
                    payload["member"] = guild.members[user.id].payload(with_user=False)
            await self._dispatch("MESSAGE_CREATE", payload)
        return msg

    async def _send_interaction(
        self,
        *,
        itype: int,
        kind: str,
        data: JSON,
        user: FakeUser,
        channel: FakeChannel,
        message: FakeMessage | None = None,
        timeout: float,
        wait: bool,
        owners: Mapping[str, str] | None = None,
    ) -> InteractionResult:
        if owners is None and message is not None and message.integration_owners:
            # a component on a message carries the installs that made the message
            owners = message.integration_owners
        if channel.id not in self.channels:
            raise LookupError(f"channel {channel.name!r} does not exist (deleted?)")
        if self._session_for_guild(channel.guild_id) is None:
            await self.wait_until(
                lambda: self._session_for_guild(channel.guild_id) is not None, timeout
            )
        iid = self._next_id()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(32)
        payload = self._interaction_payload(
            iid=iid,
            token=token,
            itype=itype,
            data=data,
            user=user,
            channel=channel,
            message=message,
            owners=owners,
        )
        result = InteractionResult(
            self,
            interaction_id=iid,
            token=token,
            type=itype,
            kind=kind,
            user=user,
            channel=channel,
            source_message_id=message.id if message else None,
            data=data,
        )
        result.payload = payload
        result.context = int(payload["context"])
        result.integration_owners = dict(payload["authorizing_integration_owners"])
        result.created_clock = self.clock()
        self.interactions[iid] = result
        self._by_token[token] = result
        result.sent_at = time.perf_counter()
        await self._dispatch("INTERACTION_CREATE", payload)
        self._record("interaction", channel_id=channel.id, user_id=user.id, detail=kind)
        if wait:
            await result.wait_callback(timeout)
        return result

    # ================================================================= gateway
    async def _dispatch(self, event: str, data: JSON, session: _Session | None = None) -> None:
        """Send an event on ``session``, by default on the shard its guild lives on."""
        if session is None:
            session = self._session_for_event(event, data)
        if session is None:
            return
        if event != "INTERACTION_CREATE" and not self._bot_hears(event, data):
            return  # a server the bot is not in: it hears nothing of it
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        conn = session.conn
        if conn is not None and not conn.closed:
            try:
                await conn.send(frame)
            except (ConnectionResetError, RuntimeError) as exc:
                log.debug("dispatch %s not delivered (%s); kept for RESUME", event, exc)

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        query = request.query
        if query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only encoding=json is supported")
            return ws
        compress = query.get("compress")
        if compress not in (None, "zlib-stream"):
            await ws.close(code=4000, message=b"unsupported compress")
            return ws
        conn = _Connection(ws, compress == "zlib-stream")
        self._connections.add(conn)
        self.gateway_connects += 1
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        await ws.close(code=4002)
                        break
                    await self._on_gateway_payload(conn, payload)
                elif msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        except (ConnectionResetError, RuntimeError) as exc:
            log.debug("gateway connection ended: %s", exc)
        finally:
            conn.closed = True
            self._connections.discard(conn)
            for session in self._sessions.values():
                if session.conn is conn:
                    session.conn = None
            self._notify()
        return ws

    async def _ack_heartbeat(self, conn: _Connection) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_SECONDS)
        with contextlib.suppress(ConnectionResetError, RuntimeError):
            await conn.send({"op": 11})

    async def _on_gateway_payload(self, conn: _Connection, payload: JSON) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            # acknowledged a moment later, as Discord's own round trip does: discord.py's
            # keep-alive thread notes the heartbeat's send time only once the event loop
            # has sent it, and an ACK handled before that reads as "Can't keep up …
            # 41.3s behind" on an idle machine (newcomer N-12)
            task = asyncio.create_task(self._ack_heartbeat(conn))
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 3:
            self.presence_updates.append(d or {})
            self._notify()
        elif op == 8:
            await self._request_members(d or {})
        else:
            log.debug("ignoring gateway op %s", op)

    async def _identify(self, conn: _Connection, d: JSON) -> None:
        accepted, shard = await self._identify_shard(conn, d)
        if not accepted:
            return
        shard_id = shard[0] if shard else 0
        old = self._sessions.get(shard_id)
        if old is not None and old.conn is not None and old.conn is not conn:
            old.conn.closed = True
            with contextlib.suppress(Exception):
                await old.conn.ws.close(code=4000)
        session = _Session(secrets.token_hex(16), int(d.get("intents", 0)), shard, conn=conn)
        self._sessions[shard_id] = session
        self.identify_count += 1
        self.identify_payloads.append(d)
        guilds = self._guilds_of_shard(session)
        ready: JSON = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "application": {"id": str(self.app_id), "flags": 0},
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._dispatch("READY", ready, session)
        for guild in guilds:
            await self._dispatch("GUILD_CREATE", self._guild_create_payload(guild), session)
        session.guilds_sent = True
        self._notify()

    async def _resume(self, conn: _Connection, d: JSON) -> None:
        session = next(
            (s for s in self._sessions.values() if s.session_id == d.get("session_id")), None
        )
        if session is None:
            await conn.send({"op": 9, "d": False})
            return
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            old.closed = True
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        last = int(d.get("seq") or 0)
        session.conn = conn
        for frame in list(session.events):
            if frame["s"] > last:
                await conn.send(frame)
        self.resume_count += 1
        await self._dispatch("RESUMED", {}, session)
        self._record("gateway_resume", detail=f"from seq {last}")

    async def _request_members(self, d: JSON) -> None:
        gid = int(d.get("guild_id", 0))
        guild = self.guilds.get(gid)
        if guild is None:
            return
        await self._dispatch(
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(gid),
                "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": d.get("nonce"),
            },
        )

    # ================================================================= sharding
    # Discord puts each guild on shard (guild_id >> 22) % shard_count; a bot IDENTIFYs once
    # per shard with [shard_id, shard_count] and gets READY and GUILD_CREATEs for that
    # shard's guilds only; events of a guild go to its shard, DMs to shard 0.

    @property
    def _session(self) -> _Session | None:
        """The lowest shard's session (the only one when the bot is not sharded)."""
        return self._sessions[min(self._sessions)] if self._sessions else None

    def shard_of(self, guild_id: int, shard_count: int | None = None) -> int:
        """The shard a guild lives on."""
        return (guild_id >> 22) % (shard_count or self.shard_count)

    def add_guild_on_shard(self, name: str, shard_id: int) -> FakeGuild:
        """A guild whose id falls on ``shard_id`` (ids are spent until one does)."""
        if not 0 <= shard_id < self.shard_count:
            raise ValueError(f"shard {shard_id} outside 0..{self.shard_count - 1}")
        # Snowflakes: the shard comes from the timestamp bits; pick the next id (a second
        # ahead of the clock, so _next_id takes it) whose timestamp falls on the shard.
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS + 1000) << 22
        candidate = max(self._last_id + 1, now)
        while self.shard_of(candidate) != shard_id:
            candidate += 1 << 22
        self._last_id = candidate - 1
        return self.add_guild(name)

    def session_shards(self) -> list[list[int] | None]:
        """The ``shard`` field of each live session's IDENTIFY (None when unsharded)."""
        return [s.shard for _, s in sorted(self._sessions.items())]

    def shards_ready(self, shard_ids: Iterable[int]) -> bool:
        """Every one of these shards has a connected session that got READY and its
        GUILD_CREATEs."""
        wanted = list(shard_ids)
        for shard_id in wanted:
            s = self._sessions.get(shard_id)
            if s is None or s.conn is None or s.conn.closed or not s.guilds_sent:
                return False
        return bool(wanted)

    async def wait_for_shards(
        self, shard_ids: Iterable[int], timeout: float = 20.0, *, identify_count: int = 0
    ) -> None:
        """Wait until ``shards_ready(shard_ids)`` and at least ``identify_count``
        IDENTIFYs were seen in total."""
        wanted = list(shard_ids)
        await self.wait_until(
            lambda: self.shards_ready(wanted) and self.identify_count >= identify_count, timeout
        )

    async def _identify_shard(self, conn: _Connection, d: JSON) -> tuple[bool, list[int] | None]:
        """Check IDENTIFY's ``shard``; closes the socket like Discord when it is wrong."""
        shard = d.get("shard")
        if shard is None:
            if self.shard_count > 1:
                await conn.ws.close(code=4011, message=b"Sharding required")
                return False, None
            return True, None
        ok = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(x, int) for x in shard)
            and 0 <= shard[0] < shard[1]
            and shard[1] >= self.shard_count
        )
        if not ok:
            await conn.ws.close(code=4010, message=b"Invalid shard")
            return False, None
        return True, [int(shard[0]), int(shard[1])]

    def _guilds_of_shard(self, session: _Session) -> list[FakeGuild]:
        return [
            g
            for g in list(self.guilds.values())
            if g.bot_installed and self.shard_of(g.id, session.shard_count) == session.shard_id
        ]

    def _session_for_guild(self, guild_id: int | None) -> _Session | None:
        if guild_id is None:
            return self._sessions.get(0)
        for session in self._sessions.values():
            if self.shard_of(guild_id, session.shard_count) == session.shard_id:
                return session
        return None

    def _bot_hears(self, event: str, data: JSON) -> bool:
        """The bot gets this event: not one of a server it is not in (only its
        interactions reach the app there)."""
        gid = data.get("guild_id")
        if gid is None and event.startswith("GUILD_"):
            gid = data.get("id")
        guild = self.guilds.get(int(gid)) if gid is not None else None
        return guild is None or guild.bot_installed

    def _session_for_event(self, event: str, data: JSON) -> _Session | None:
        gid = data.get("guild_id")
        if gid is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            gid = data.get("id")
        return self._session_for_guild(None if gid is None else int(gid))

    # ================================================================= REST plumbing
    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        if not path.startswith(API_PREFIX):
            return await handler(request)
        rel = path[len(API_PREFIX) :]
        method = request.method
        for fault in self.faults:
            if fault.matches(method, rel):
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.status == 0:
                    fault.remaining -= 1
                    fault.hits += 1
                    break
                faulted = fault.response()
                self.requests.append(
                    RequestRecord(method, rel, faulted.status, time.monotonic(), True)
                )
                self._notify()
                return faulted
        limited, limit_headers = self.rate_limiter.check(method, rel, time.monotonic())
        if limited is not None:
            record = RequestRecord(method, rel, 429, time.monotonic())
            self.requests.append(record)
            self.rate_limited.append(record)
            self._record("rate_limited", detail=f"{method} {rel}")
            self._notify()
            return limited
        resp: web.StreamResponse
        try:
            # Discord's published API and documented limits (localdiscord/conformance.py)
            resp = await refusal(self, request, rel) or await handler(request)
        except _HTTPError as exc:
            resp = exc.response
        except web.HTTPNotFound:
            self.unhandled.append(f"{method} {rel}")
            resp = error_response(404, (0, "404: Not Found"))
        except web.HTTPMethodNotAllowed:
            self.unhandled.append(f"{method} {rel}")
            resp = error_response(405, (0, "405: Method Not Allowed"))
        for key, value in limit_headers.items():
            resp.headers[key] = value
        self.requests.append(RequestRecord(method, rel, resp.status, time.monotonic()))
        self._notify()
        return resp

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or len(auth) <= 4:
            raise _HTTPError(401, (0, "401: Unauthorized"))
        if self.token is not None and not secrets.compare_digest(auth[4:], self.token):
            raise _HTTPError(401, (0, "401: Unauthorized"))

    async def _body(self, request: web.Request) -> tuple[Any, list[JSON]]:
        """JSON body (or multipart ``payload_json``) and the attachments uploaded."""
        files: list[JSON] = []
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            raw = await request.read()  # read once: localdiscord/conformance.py reads it too
            for part in multipart_parts(request.headers.get("Content-Type", ""), raw):
                if part.name == "payload_json":
                    payload = json.loads(part.data)
                else:
                    content = part.data
                    aid = str(self._next_id())
                    name = part.filename or "file"
                    # kept to be served like Discord's CDN (the sandbox draws charts)
                    self.attachment_bytes[aid] = bytes(content)
                    while len(self.attachment_bytes) > ATTACHMENTS_KEPT:
                        del self.attachment_bytes[next(iter(self.attachment_bytes))]
                    files.append(
                        {
                            "id": aid,
                            "filename": name,
                            "size": len(content),
                            "url": f"{self.base_url}/attachments/{aid}/{name}",
                            "proxy_url": f"{self.base_url}/attachments/{aid}/{name}",
                        }
                    )
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        try:
            return json.loads(raw), files
        except ValueError:
            raise _HTTPError(400, (50109, "The request body contains invalid JSON.")) from None

    def _channel(self, cid: str) -> FakeChannel:
        try:
            return self.channels[int(cid)]
        except (KeyError, ValueError):
            raise _HTTPError(404, ERR_UNKNOWN_CHANNEL) from None

    def _bot_channel(self, request: web.Request) -> FakeChannel:
        """The channel of a bot request on ``/channels/{cid}...``: a group DM is refused
        with 403 Missing Access (50001), the bot is not in it (it may only answer the
        interactions of people who installed it there)."""
        channel = self._channel(request.match_info["cid"])
        guild = self.guilds.get(channel.guild_id or 0)
        if channel.is_group_dm or (guild is not None and not guild.bot_installed):
            self._record(
                "missing_access",
                channel_id=channel.id,
                detail=f"{request.method} {request.path[len(API_PREFIX) :]}",
            )
            raise _HTTPError(403, ERR_MISSING_ACCESS)
        return channel

    # ---------------------------------------------------------------- validation
    def _validate(
        self, content: str, embeds: list[JSON], components: list[JSON], files: int, flags: int
    ) -> None:
        if not self.validate:
            return
        errors = message_problems(content, embeds, components, flags)  # localdiscord/limits.py
        if errors:
            note_refusal(self, "the message", errors)
            raise _HTTPError(400, ERR_INVALID_FORM, {"errors": form_errors(errors)})
        if not content and not embeds and not components and not files:
            self.rejected.append({"errors": ["empty message"]})
            self._record("rejected", detail="empty message")
            raise _HTTPError(400, ERR_EMPTY_MESSAGE)

    # ---------------------------------------------------------------- message store
    def _create_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: list[JSON],
        *,
        ephemeral_for: int | None = None,
        interaction: InteractionResult | None = None,
        origin: str = "channel",
        loading: bool = False,
    ) -> FakeMessage:
        content = str(body.get("content") or "")
        embeds = list(body.get("embeds") or [])
        components = list(body.get("components") or [])
        flags = int(body.get("flags") or 0)
        if not loading:
            self._validate(content, embeds, components, len(files), flags)
        if ephemeral_for is not None:
            flags |= FLAG_EPHEMERAL
        else:
            flags &= ~FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        msg = FakeMessage(
            id=self._next_id(),
            channel=channel,
            author=self.bot_user,
            content=content,
            embeds=embeds,
            components=components,
            flags=flags,
            created_at=time.monotonic(),
            timestamp=iso_now(),
            ephemeral_for=ephemeral_for,
            interaction_id=interaction.interaction_id if interaction else None,
            integration_owners=dict(interaction.integration_owners) if interaction else None,
            origin=origin,
            msg_type=20
            if interaction is not None
            and interaction.type == APPLICATION_COMMAND
            and origin != "followup"
            else 0,
            attachments=files,
        )
        msg.snapshot("deferred" if loading else "create")
        self.messages[msg.id] = msg
        uid = channel.recipient.id if channel.is_dm and channel.recipient else ephemeral_for
        self._record("create", channel_id=channel.id, message_id=msg.id, user_id=uid, detail=origin)
        if ephemeral_for is None and not loading and self._wants_message_events(channel):
            self._spawn(self._dispatch("MESSAGE_CREATE", msg.payload(self.app_id)))
        return msg

    def _edit_message(
        self, msg: FakeMessage, body: JSON, files: list[JSON], source: str = "edit"
    ) -> FakeMessage:
        content = str(body["content"] or "") if "content" in body else msg.content
        embeds = list(body["embeds"] or []) if "embeds" in body else msg.embeds
        components = list(body["components"] or []) if "components" in body else msg.components
        attachments = msg.attachments
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            attachments = [a for a in msg.attachments if str(a.get("id")) in keep] + files
        elif files:
            attachments = msg.attachments + files
        flags = msg.flags & ~FLAG_LOADING
        if "flags" in body and body["flags"] is not None:
            asked = int(body["flags"])
            if msg.flags & FLAG_COMPONENTS_V2 and not asked & FLAG_COMPONENTS_V2:
                self.rejected.append({"errors": ["IS_COMPONENTS_V2 removed"]})
                self._record("rejected", detail="IS_COMPONENTS_V2 cannot be removed")
                raise _HTTPError(
                    400,
                    ERR_INVALID_FORM,
                    {"errors": _form_errors(["flags: IS_COMPONENTS_V2 cannot be removed"])},
                )
            flags |= asked & FLAG_COMPONENTS_V2
        self._validate(content, embeds, components, len(attachments), flags)
        msg.content, msg.embeds, msg.components, msg.attachments = (
            content,
            embeds,
            components,
            attachments,
        )
        msg.flags = flags
        msg.edited_timestamp = iso_now()
        msg.snapshot(source)
        uid = (
            msg.channel.recipient.id
            if msg.channel.is_dm and msg.channel.recipient
            else msg.ephemeral_for
        )
        self._record(
            "edit", channel_id=msg.channel.id, message_id=msg.id, user_id=uid, detail=source
        )
        if msg.ephemeral_for is None and self._wants_message_events(msg.channel):
            self._spawn(self._dispatch("MESSAGE_UPDATE", msg.payload(self.app_id)))
        return msg

    def _wants_message_events(self, channel: FakeChannel) -> bool:
        """Only send MESSAGE_* events the bot's intents subscribe to (like Discord)."""
        session = self._session
        if session is None or channel.is_group_dm:
            return False  # the bot is not in a group DM: it hears nothing of it
        bit = (1 << 12) if channel.is_dm else (1 << 9)
        return bool(session.intents & bit)

    def _delete_message(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._record(
            "delete", channel_id=msg.channel.id, message_id=msg.id, user_id=msg.ephemeral_for
        )
        if msg.ephemeral_for is None and self._wants_message_events(msg.channel):
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild_id is not None:
                data["guild_id"] = str(msg.channel.guild_id)
            self._spawn(self._dispatch("MESSAGE_DELETE", data))

    # ================================================================= REST handlers
    async def _get_attachment(self, request: web.Request) -> web.Response:
        """An uploaded file, as Discord's CDN serves it (the sandbox page draws charts)."""
        data = self.attachment_bytes.get(request.match_info["aid"])
        if data is None:
            raise web.HTTPNotFound()
        name = request.match_info["name"].lower()
        kinds = {
            ".png": "image/png",
            ".jpg": "image/jpeg",
            ".jpeg": "image/jpeg",
            ".gif": "image/gif",
        }
        kind = next((v for k, v in kinds.items() if name.endswith(k)), "application/octet-stream")
        return web.Response(body=data, content_type=kind)

    async def _get_me(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        return json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _HTTPError(404, (10013, "Unknown User"))
        return json_response(user.payload())

    async def _get_app(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        return json_response(
            {
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner_user.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self.guilds),
                "tags": [],
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    # -------------------------------------------------------------- commands
    def _store_commands(
        self, body: list[JSON], guild_id: int | None, old: list[JSON]
    ) -> list[JSON]:
        problems = [p for cmd in body for p in command_problems(cmd)]
        if problems:
            raise _HTTPError(400, ERR_INVALID_FORM, {"errors": _form_errors(problems)})
        out = []
        by_name = {(c["name"], c.get("type", 1)): c for c in old}
        for cmd in body:
            prev = by_name.get((cmd["name"], cmd.get("type", 1)))
            out.append(self._command_record(cmd, guild_id, prev))
        return out

    def _command_record(self, cmd: JSON, guild_id: int | None, prev: JSON | None) -> JSON:
        rec = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "name_localizations": None,
            "description_localizations": None,
            **cmd,
            "id": prev["id"] if prev else str(self._next_id()),
            "application_id": str(self.app_id),
            "version": str(self._next_id()),
        }
        if guild_id is not None:
            rec["guild_id"] = str(guild_id)
        rec["integration_types"], rec["contexts"] = command_scope(cmd, guild_id)
        return rec

    async def _global_commands(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        if request.method == "GET":
            return json_response(self.global_commands)
        body, _ = await self._body(request)
        if request.method == "PUT":
            self.global_commands = self._store_commands(body, None, self.global_commands)
            self.command_syncs += 1
            self._notify()
            return json_response(self.global_commands)
        if request.method == "POST":
            prev = next((c for c in self.global_commands if c["name"] == body["name"]), None)
            rec = self._command_record(body, None, prev)
            self.global_commands = [c for c in self.global_commands if c is not prev] + [rec]
            self.command_syncs += 1
            self._notify()
            return json_response(rec, 201 if prev is None else 200)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PUT", "POST"])

    async def _app_emojis(self, request: web.Request) -> web.Response:
        """The application's own emojis (localdiscord/app_emojis.py has the limits)."""
        self._check_auth(request)
        if request.match_info["app_id"] != str(self.app_id):
            raise _HTTPError(404, (10002, "Unknown Application"))
        owner = self.bot_user.payload()
        if request.method == "GET":
            return json_response({"items": [e.payload(owner) for e in self.app_emojis.emojis]})
        if request.method != "POST":
            raise web.HTTPMethodNotAllowed(request.method, ["GET", "POST"])
        body, _ = await self._body(request)
        refused = self.app_emojis.problems(body)
        if refused is not None:
            status, code, message, errors = refused
            extra = {"errors": _form_errors(errors)} if errors else None
            raise _HTTPError(status, (code, message), extra)
        emoji = self.app_emojis.add(self._next_id(), body)
        return json_response(emoji.payload(owner), 201)

    async def _global_command(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        cid = request.match_info["cmd_id"]
        cmd = next((c for c in self.global_commands if c["id"] == cid), None)
        if cmd is None:
            raise _HTTPError(404, (10063, "Unknown application command"))
        if request.method == "GET":
            return json_response(cmd)
        if request.method == "DELETE":
            self.global_commands.remove(cmd)
            return web.Response(status=204)
        if request.method == "PATCH":
            body, _ = await self._body(request)
            cmd.update(body)
            cmd["integration_types"], cmd["contexts"] = command_scope(cmd, None)
            return json_response(cmd)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    async def _guild_cmds(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        gid = self._guild(request.match_info["guild_id"]).id
        current = self.guild_commands.get(gid, [])
        if request.method == "GET":
            return json_response(current)
        body, _ = await self._body(request)
        if request.method == "PUT":
            self.guild_commands[gid] = self._store_commands(body, gid, current)
            self.command_syncs += 1
            self._notify()
            return json_response(self.guild_commands[gid])
        if request.method == "POST":
            prev = next((c for c in current if c["name"] == body["name"]), None)
            rec = self._command_record(body, gid, prev)
            self.guild_commands[gid] = [c for c in current if c is not prev] + [rec]
            self.command_syncs += 1
            self._notify()
            return json_response(rec, 201 if prev is None else 200)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PUT", "POST"])

    async def _guild_cmd(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        gid = int(request.match_info["guild_id"])
        cid = request.match_info["cmd_id"]
        current = self.guild_commands.get(gid, [])
        cmd = next((c for c in current if c["id"] == cid), None)
        if cmd is None:
            raise _HTTPError(404, (10063, "Unknown application command"))
        if request.method == "GET":
            return json_response(cmd)
        if request.method == "DELETE":
            current.remove(cmd)
            return web.Response(status=204)
        body, _ = await self._body(request)
        cmd.update(body)
        return json_response(cmd)

    # -------------------------------------------------------------- interactions
    async def _callback(self, request: web.Request) -> web.Response:
        now = time.perf_counter()
        iid = int(request.match_info["iid"])
        token = request.match_info["token"]
        result = self.interactions.get(iid)
        if result is None or result.token != token:
            raise _HTTPError(404, ERR_UNKNOWN_INTERACTION)
        body, files = await self._body(request)
        if result.answered:
            raise _HTTPError(400, ERR_ALREADY_ACKED)
        assert result.sent_at is not None
        if now - result.sent_at > self.interaction_deadline:
            result.late = True
            result.callback_at = now
            result.callback_status = 404
            result.callback_error = "late"
            self._record("callback_late", user_id=result.user.id, detail=str(body.get("type")))
            result.callback_event.set()
            raise _HTTPError(404, ERR_UNKNOWN_INTERACTION)
        ctype = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        resource: JSON | None = None
        source = self.messages.get(result.source_message_id or 0)
        ephemeral_for = result.user.id if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
        try:
            if ctype == CB_MESSAGE:
                msg = self._create_message(
                    result.channel,
                    data,
                    files,
                    ephemeral_for=ephemeral_for,
                    interaction=result,
                    origin="response",
                )
                result.original_message_id = msg.id
                resource = {"type": ctype, "message": msg.payload(self.app_id)}
            elif ctype == CB_DEFERRED_MESSAGE:
                msg = self._create_message(
                    result.channel,
                    {"content": "", "flags": data.get("flags")},
                    [],
                    ephemeral_for=ephemeral_for,
                    interaction=result,
                    origin="deferred",
                    loading=True,
                )
                result.original_message_id = msg.id
                resource = {"type": ctype, "message": msg.payload(self.app_id)}
            elif ctype in (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE):
                if source is None:
                    raise _HTTPError(400, (40004, "Interaction has no message to update"))
                result.original_message_id = source.id
                if ctype == CB_UPDATE_MESSAGE:
                    self._edit_message(source, data, files, source="update")
                    resource = {"type": ctype, "message": source.payload(self.app_id)}
                else:
                    resource = {"type": ctype}
            elif ctype == CB_AUTOCOMPLETE:
                result.autocomplete_choices = list(data.get("choices", []))
                resource = {"type": ctype}
            elif ctype == CB_MODAL:
                shown = ModalShown(
                    interaction_id=iid,
                    user_id=result.user.id,
                    channel=result.channel,
                    message_id=source.id if source else None,
                    custom_id=str(data.get("custom_id")),
                    title=str(data.get("title")),
                    components=tuple(data.get("components", [])),
                )
                self.modals.append(shown)
                result.modal = shown
                resource = {"type": ctype}
            else:
                raise _HTTPError(400, (50035, f"Invalid interaction callback type {ctype}"))
        except _HTTPError as exc:
            result.callback_status = exc.response.status
            result.callback_error = (
                (exc.response.body or b"").decode() if isinstance(exc.response.body, bytes) else ""
            )
            result.callback_at = now
            result.callback_event.set()
            self._notify()
            raise
        result.callback_at = now
        result.callback_type = ctype
        result.callback_status = 200
        result.callback_event.set()
        self._record(
            "callback", channel_id=result.channel.id, user_id=result.user.id, detail=str(ctype)
        )
        msg_obj = self.messages.get(result.original_message_id or 0)
        body_out: JSON = {
            "interaction": {
                "id": str(iid),
                "type": result.type,
                "activity_instance_id": None,
                "response_message_id": str(msg_obj.id) if msg_obj and ctype in (4, 5, 7) else None,
                "response_message_loading": ctype == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(
                    msg_obj and msg_obj.ephemeral and ctype in (4, 5)
                ),
            },
        }
        if resource is not None:
            body_out["resource"] = resource
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(body_out)
        return web.Response(status=204)

    def _interaction_for_webhook(self, request: web.Request) -> InteractionResult:
        if request.match_info["app_id"] != str(self.app_id):
            raise _HTTPError(404, ERR_UNKNOWN_WEBHOOK)
        result = self._by_token.get(request.match_info["token"])
        if result is None:
            raise _HTTPError(404, ERR_UNKNOWN_WEBHOOK)
        if self.token_expired(result):
            self._record(
                "token_expired",
                channel_id=result.channel.id,
                user_id=result.user.id,
                detail=f"{request.method} {request.path}",
            )
            raise _HTTPError(401, ERR_INVALID_WEBHOOK_TOKEN)
        return result

    def token_may_edit(self, result: InteractionResult, msg: FakeMessage) -> bool:
        """Which messages ``/webhooks/{app}/{token}/messages/{id}`` reaches: the token's own
        original response and follow-ups, and any message the app made through an
        interaction in the same channel that everyone there sees (not someone's
        ephemeral). Discord documents only the first two; the second is what lets a user
        install keep one table message current in a group DM from later clicks (each
        click's token edits the message made under an earlier one), and Discord takes
        such edits. A channel message the bot posted itself is not a webhook's: 404."""
        if msg.id == result.original_message_id or msg.id in result.followup_ids:
            return True
        return (
            msg.interaction_id is not None
            and msg.channel.id == result.channel.id
            and msg.ephemeral_for is None
        )

    async def _followup(self, request: web.Request) -> web.Response:
        result = self._interaction_for_webhook(request)
        if result.channel.id not in self.channels:
            raise _HTTPError(404, ERR_UNKNOWN_CHANNEL)
        if not result.answered:
            raise _HTTPError(404, ERR_UNKNOWN_WEBHOOK)
        body, files = await self._body(request)
        original = self.messages.get(result.original_message_id or 0)
        if (
            original is not None
            and original.loading
            and result.callback_type == CB_DEFERRED_MESSAGE
        ):
            # Discord: the first followup after a "thinking" defer replaces that message
            msg = self._edit_message(original, body, files, source="followup")
        else:
            eph = result.user.id if int(body.get("flags") or 0) & FLAG_EPHEMERAL else None
            msg = self._create_message(
                result.channel,
                body,
                files,
                ephemeral_for=eph,
                interaction=result,
                origin="followup",
            )
        result.followup_ids.append(msg.id)
        self._notify()
        return json_response(msg.payload(self.app_id))

    async def _webhook_message(self, request: web.Request) -> web.Response:
        result = self._interaction_for_webhook(request)
        mid = request.match_info["mid"]
        if mid == "@original":
            msg = self.messages.get(result.original_message_id or 0)
        else:
            msg = self.messages.get(int(mid)) if mid.isdigit() else None
            if msg is not None and not self.token_may_edit(result, msg):
                msg = None
        if msg is None or msg.deleted or msg.channel.id not in self.channels:
            raise _HTTPError(404, ERR_UNKNOWN_MESSAGE)
        if request.method == "GET":
            return json_response(msg.payload(self.app_id))
        if request.method == "PATCH":
            body, files = await self._body(request)
            self._edit_message(msg, body, files, source="edit")
            return json_response(msg.payload(self.app_id))
        if request.method == "DELETE":
            self._delete_message(msg)
            return web.Response(status=204)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    # -------------------------------------------------------------- channels / DMs
    async def _create_dm(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        body, _ = await self._body(request)
        uid = int(body.get("recipient_id", 0))
        user = self.users.get(uid)
        if user is None or user.bot:
            raise _HTTPError(400, (50033, "Invalid Recipients"))
        return json_response(self.dm_channel(user).payload())

    async def _get_channel(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        return json_response(self._bot_channel(request).payload())

    async def _typing(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        self._bot_channel(request)
        return web.Response(status=204)

    async def _reaction(self, request: web.Request) -> web.Response:
        """The bot's own reaction on a message (``PUT``/``DELETE .../reactions/{emoji}/@me``):
        refused in a group DM, otherwise accepted and not kept."""
        self._check_auth(request)
        channel = self._bot_channel(request)
        mid = request.match_info["mid"]
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.channel.id != channel.id:
            raise _HTTPError(404, ERR_UNKNOWN_MESSAGE)
        return web.Response(status=204)

    async def _list_messages(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        channel = self._bot_channel(request)
        limit = int(request.query.get("limit", 50))
        msgs = list(reversed(self.channel_messages(channel)))
        before = request.query.get("before")
        after = request.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
        return json_response([m.payload(self.app_id) for m in msgs[:limit]])

    async def _post_message(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        channel = self._bot_channel(request)
        body, files = await self._body(request)
        if (
            channel.is_dm
            and channel.recipient is not None
            and channel.recipient.id in self.closed_dms
        ):
            self._record(
                "dm_refused",
                channel_id=channel.id,
                user_id=channel.recipient.id,
                detail=str(body.get("content") or "")[:200],
            )
            raise _HTTPError(403, ERR_CANNOT_DM)
        denied = self.bot_denied.get(channel.id, 0)
        if denied & (SEND_MESSAGES | VIEW_CHANNEL) or (denied & EMBED_LINKS and body.get("embeds")):
            self._record("post_refused", channel_id=channel.id, detail="missing permissions")
            raise _HTTPError(403, ERR_MISSING_PERMISSIONS)
        msg = self._create_message(channel, body, files, origin="channel")
        return json_response(msg.payload(self.app_id))

    async def _channel_message(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        channel = self._bot_channel(request)
        mid = request.match_info["mid"]
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if (
            msg is None
            or msg.deleted
            or msg.channel.id != channel.id
            or msg.ephemeral_for is not None
        ):
            raise _HTTPError(404, ERR_UNKNOWN_MESSAGE)
        if request.method == "GET":
            return json_response(msg.payload(self.app_id))
        if request.method == "PATCH":
            if msg.author.id != self.bot_user.id:
                raise _HTTPError(403, ERR_NOT_AUTHOR)
            body, files = await self._body(request)
            self._edit_message(msg, body, files)
            return json_response(msg.payload(self.app_id))
        if request.method == "DELETE":
            self._delete_message(msg)
            return web.Response(status=204)
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "PATCH", "DELETE"])

    # -------------------------------------------------------------- guilds
    def _guild(self, gid: str) -> FakeGuild:
        try:
            guild = self.guilds[int(gid)]
        except (KeyError, ValueError):
            raise _HTTPError(404, (10004, "Unknown Guild")) from None
        if not guild.bot_installed:
            raise _HTTPError(403, ERR_MISSING_ACCESS)
        return guild

    async def _get_guild(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        payload = self._guild_create_payload(self._guild(request.match_info["gid"]))
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            payload.pop(key, None)
        return json_response(payload)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        guild = self._guild(request.match_info["gid"])
        return json_response([c.payload() for c in guild.channels])

    async def _get_member(self, request: web.Request) -> web.Response:
        self._check_auth(request)
        guild = self._guild(request.match_info["gid"])
        member = guild.members.get(int(request.match_info["uid"]))
        if member is None:
            raise _HTTPError(404, (10007, "Unknown Member"))
        return json_response(member.payload())


def command_scope(cmd: JSON, guild_id: int | None) -> tuple[list[int], list[int]]:
    """(integration_types, contexts) of a synced command, Discord's defaults applied.

    A guild command lives in that one server: guild install, server context. A global
    command left without ``integration_types`` is available to the server install only,
    and without ``contexts`` in servers and the bot's DMs (``[0]`` only when
    ``dm_permission`` is false). Discord's reference says "your app's configured contexts"
    and "all contexts", but what it does is the narrower default
    (discord/discord-api-docs#7108): the fake takes what Discord does, so a command that
    is not declared for user installs or group DMs is not offered there."""
    if guild_id is not None:
        return [GUILD_INSTALL], [CONTEXT_GUILD]
    types = cmd.get("integration_types")
    contexts = cmd.get("contexts")
    if not types:
        types = [GUILD_INSTALL]
    if not contexts:
        allows_dm = cmd.get("dm_permission") is not False
        contexts = [CONTEXT_GUILD, CONTEXT_BOT_DM] if allows_dm else [CONTEXT_GUILD]
    return sorted({int(t) for t in types}), sorted({int(c) for c in contexts})


def die_with_parent() -> None:
    """``preexec_fn`` for bot subprocesses: on Linux the child gets SIGKILL when the
    process that started it dies, so a crashed test run leaves no bot behind."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


__all__ = [
    "CommandUnavailable",
    "FakeDiscord",
    "Fault",
    "NoResponse",
    "RateLimits",
    "die_with_parent",
    "json_response",
    "route_pattern",
]
