"""The sandbox: the local Discord with a web page on which people act as server members.

``run_sandbox`` starts a ``FakeDiscord`` (REST under ``/api/v10``, the gateway under
``/gateway``) and, on the same address, the page (``/``) with its JSON API
(``/sandbox/api/...``) and a WebSocket of change notices (``/sandbox/ws``); then it starts
the bot as a child process pointed at that address like the tests do, and runs until
Ctrl-C / SIGTERM or until the bot stops.

Everything a person does on the page goes through the same driver calls the end-to-end
tests use (``slash``, ``click``, ``select``, ``submit_modal``, ``post_as``), so the bot
sees ordinary Discord interactions. What the page sends is checked first: the member
acting must be a member of the server, messages and buttons must be ones that member can
see now, and every size is bounded (request bodies, text inputs, option values, names).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from .app_emojis import MAGIC
from .models import (
    BUTTON,
    DISCORD_EPOCH_MS,
    LABEL,
    MESSAGE_COMPONENT,
    STRING_SELECT,
    TEXT_INPUT,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    InteractionFailed,
    InteractionResult,
    NoResponse,
    walk_components,
)
from .server import CommandUnavailable, FakeDiscord, RateLimits, die_with_parent

__all__ = ["LOCALES", "SANDBOX_TOKEN", "Sandbox", "run_sandbox"]

log = logging.getLogger("localdiscord.sandbox")

JSON = dict[str, Any]

#: the page's languages -> the Discord locale sent in interactions. Discord has no Persian;
#: a member chooses it with the bot's own ``/language`` command, as on Discord.
LOCALES: dict[str, str] = {"en": "en-US", "de": "de", "fr": "fr", "hi": "hi", "fa": "fa"}
DISCORD_LOCALES = {"en-US": "en", "en-GB": "en", "de": "de", "fr": "fr", "hi": "hi"}

MAX_BODY = 64 * 1024  # a request from the page; Discord's own forms are far smaller
MAX_TEXT_INPUT = 4000  # Discord's limit for a text input's value
MAX_STRING_OPTION = 6000  # Discord's limit for a string option
MAX_CONTENT = 2000  # a plain message
MAX_MEMBERS = 25
MAX_MESSAGES_SHOWN = 150
MAX_MESSAGES_PER_CHANNEL = 400
NAME = re.compile(r"^[^\W_][\w .'-]{0,30}$")
SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")
#: ids of the sandbox's world (server, channels, members) start at 2025-01-01, so they
#: are the same at every start and the sandbox database still fits the world
WORLD_ID_BASE = (1_735_689_600_000 - DISCORD_EPOCH_MS) << 22
MEMBERS = ("Ann", "Ben", "Cat", "Dev")
#: a role select menu (Discord's component type 6): the page offers the server's roles
ROLE_SELECT = 6
#: the channel of no game (each game's channel is named by the bot, which starts the sandbox)
LOBBY = "lobby"
#: the group DM of every member (each has the app installed on their account)
GROUP_DM = "friends"
#: the world's ids are handed out in the order it is made, which is the order it grew in:
#: the first two game channels, the lobby, the members, the third game's channel, the
#: group DM, then the channels of the games registered since; so no id moves when a game
#: is added (the sandbox's database names channels and members by id)
GAME_CHANNELS_BEFORE_LOBBY = 2
GAME_CHANNELS_BEFORE_GROUP_DM = 3
SANDBOX_TOKEN = "sandbox.local-discord.token"
ACTIONS = ("slash", "click", "select", "modal", "dismiss", "post", "add_member", "locale")
WEB_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


class Refused(Exception):
    """A request from the page that the sandbox refuses (status, one line for the page)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def web_file(name: str) -> bytes:
    return resources.files("localdiscord").joinpath("web", name).read_bytes()


class Sandbox:
    """The sandbox's world and its page, served by ``fake``'s own web server."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        channels: Sequence[str] = (),
        guild_name: str = "Sandbox Casino",
    ) -> None:
        """``channels``: a channel per game, in the order the bot registers its games
        (named by the bot: the sandbox knows no game), and the lobby."""
        self.fake = fake
        self._ids = itertools.count(WORLD_ID_BASE)
        with fake.ids_from(self._ids):
            self.guild: FakeGuild = fake.add_guild(guild_name)
            early, later = GAME_CHANNELS_BEFORE_LOBBY, GAME_CHANNELS_BEFORE_GROUP_DM
            for name in [*channels[:early], LOBBY]:
                fake.add_text_channel(self.guild, name)
            for i, name in enumerate(MEMBERS):
                fake.add_member(self.guild, name, manage_guild=i == 0)
            for name in channels[early:later]:
                fake.add_text_channel(self.guild, name)
            people = self.people()
            self.friends: FakeChannel = fake.group_dm(people[0], *people[1:], name=GROUP_DM)
            for name in channels[later:]:
                fake.add_text_channel(self.guild, name)
        for person in self.people():
            fake.install_for_user(person)
        self.version = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._push: asyncio.TimerHandle | None = None
        self._notices: dict[int, list[JSON]] = {}
        self._modal_done: dict[int, int] = {}
        self._persian: dict[int, bool] = {}  # member id -> chose Persian with /language
        self._guild_persian = False
        self._tasks: set[asyncio.Task[Any]] = set()
        fake.change_listeners.append(self._changed)

    # ------------------------------------------------------------------ routes
    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/", self._index)
        app.router.add_get("/sandbox/ws", self._ws)
        app.router.add_get("/sandbox/api/view", self._view)
        app.router.add_get(r"/sandbox/emojis/{id:\d+}.png", self._emoji)
        app.router.add_get("/sandbox/{name}", self._static)
        app.router.add_post("/sandbox/api/{action}", self._action)

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(
            body=web_file("index.html"),
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in WEB_FILES:
            raise web.HTTPNotFound()
        return web.Response(
            body=web_file(name),
            content_type=WEB_FILES[name],
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def _emoji(self, request: web.Request) -> web.Response:
        """An application emoji's picture, as Discord's CDN serves it to the client: the
        page draws ``<:name:id>`` in a message with it."""
        wanted = request.match_info["id"]
        emoji = next((e for e in self.fake.app_emojis.emojis if str(e.id) == wanted), None)
        if emoji is None:
            raise web.HTTPNotFound()
        kind = next((k for k, magic in MAGIC.items() if emoji.image.startswith(magic)), "png")
        return web.Response(
            body=emoji.image,
            content_type=f"image/{kind}",
            headers={"Cache-Control": "max-age=3600"},
        )

    # ------------------------------------------------------------------ live updates
    def _changed(self) -> None:
        """Called by the fake after every change: tell the pages, at most every 50 ms."""
        if self._push is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._push = loop.call_later(0.05, self._send_version)

    def _send_version(self) -> None:
        self._push = None
        self.version += 1
        frame = json.dumps({"version": self.version})
        for ws in list(self._sockets):
            if ws.closed:
                self._sockets.discard(ws)
                continue
            self._spawn(self._send(ws, frame))

    async def _send(self, ws: web.WebSocketResponse, frame: str) -> None:
        try:
            await asyncio.wait_for(ws.send_str(frame), 5)
        except Exception:  # a closed tab, a stuck client: drop it
            self._sockets.discard(ws)
            with contextlib.suppress(Exception):
                await ws.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_str(json.dumps({"version": self.version}))
            async for msg in ws:  # the page sends nothing that matters; read until closed
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self._sockets.discard(ws)
        return ws

    # ------------------------------------------------------------------ checks
    def member(self, raw: object) -> FakeMember:
        """The member acting: a member of the sandbox server (never the bot)."""
        text = str(raw or "")[:40]
        if not SNOWFLAKE.match(text):  # ?as=Ben: a name
            named = self.by_name(text)
            if named is None:
                raise Refused(403, "Unknown member.")
            return named
        member = self.guild.members.get(int(text))
        if member is None or member.user.bot:
            raise Refused(403, "Unknown member.")
        return member

    def by_name(self, name: str) -> FakeMember | None:
        wanted = name.strip().casefold()
        for m in self.guild.members.values():
            if not m.user.bot and m.name.casefold() == wanted:
                return m
        return None

    def channel(self, raw: object, member: FakeMember) -> FakeChannel:
        """A channel of the server, "dm" (the member's DMs with the bot) or a group DM the
        member is in."""
        text = str(raw or "")
        if text == "dm":
            return self.fake.dm_channel(member)
        if SNOWFLAKE.match(text):
            channel = self.fake.channels.get(int(text))
            if channel is not None and channel.guild_id == self.guild.id:
                return channel
            if channel is not None and channel.is_group_dm and channel.has_member(member.id):
                return channel
        raise Refused(404, "Unknown channel.")

    def message(self, raw: object, member: FakeMember) -> FakeMessage:
        text = str(raw or "")
        msg = self.fake.messages.get(int(text)) if SNOWFLAKE.match(text) else None
        if msg is None or not msg.visible_to_user(member.id):
            raise Refused(404, "Unknown message.")
        return msg

    async def body(self, request: web.Request) -> JSON:
        if request.content_length is not None and request.content_length > MAX_BODY:
            raise Refused(413, f"Request too large (at most {MAX_BODY // 1024} KB).")
        raw = await request.content.read(MAX_BODY + 1)
        if len(raw) > MAX_BODY:
            raise Refused(413, f"Request too large (at most {MAX_BODY // 1024} KB).")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise Refused(400, "The request is not JSON.") from None
        if not isinstance(data, dict):
            raise Refused(400, "The request is not a JSON object.")
        return data

    # ------------------------------------------------------------------ the view
    async def _view(self, request: web.Request) -> web.Response:
        try:
            member = self.member(request.query.get("as"))
            channel = self.channel(
                request.query.get("channel") or self.guild.channels[0].id, member
            )
        except Refused as exc:
            return web.json_response({"error": str(exc)}, status=exc.status)
        return web.json_response(self.view(member, channel), headers={"Cache-Control": "no-store"})

    def view(self, member: FakeMember, channel: FakeChannel) -> JSON:
        fake = self.fake
        messages = fake.channel_messages(channel, viewer=member)[-MAX_MESSAGES_SHOWN:]
        dm = fake.dm_channels.get(member.id)
        return {
            "version": self.version,
            "bot": {
                "id": str(fake.bot_user.id),
                "name": fake.bot_user.name,
                "ready": fake.bot_ready,
            },
            "guild": {
                "id": str(self.guild.id),
                "name": self.guild.name,
                "locale": "fa"
                if self._guild_persian
                else DISCORD_LOCALES.get(self.guild.preferred_locale, "en"),
            },
            "channels": [{"id": str(c.id), "name": c.name} for c in self.guild.channels],
            "roles": [
                {"id": str(r.id), "name": r.name} for r in self.guild.roles if r.id != self.guild.id
            ],
            "members": [self._member_view(m) for m in self.people()],
            "me": self._member_view(member),
            "channel": {
                "id": "dm" if channel.is_dm else str(channel.id),
                "name": fake.bot_user.name if channel.is_dm else channel.name,
                "dm": channel.is_dm,
                "group": channel.is_group_dm,
            },
            "group_dms": [
                {"id": str(c.id), "name": c.name, "members": [u.name for u in c.recipients]}
                for c in fake.group_dms_of(member)
            ],
            "dm_count": len(fake.channel_messages(dm)) if dm is not None else 0,
            "names": {str(u.id): u.name for u in fake.users.values()},
            "commands": self.offered_commands(member, channel),
            "messages": [self._message_view(m) for m in messages],
            "modal": self._modal_view(member),
            "notices": self._notices.get(member.id, [])[-5:],
        }

    def offered_commands(self, member: FakeMember, channel: FakeChannel) -> list[JSON]:
        """The commands Discord would offer this member here (their contexts and installs:
        in a group DM only those declared for user installs and group DMs)."""
        fake = self.fake
        candidates: list[tuple[JSON, int | None]] = [(c, None) for c in fake.global_commands]
        if channel.guild_id == self.guild.id:
            candidates += [(c, self.guild.id) for c in fake.guild_commands.get(self.guild.id, [])]
        offered = []
        for cmd, guild_id in candidates:
            try:
                fake.command_owners(cmd, guild_id, member.user, channel)
            except CommandUnavailable:
                continue
            offered.append(cmd)
        return offered

    def people(self) -> list[FakeMember]:
        return [m for m in self.guild.members.values() if not m.user.bot]

    def _member_view(self, m: FakeMember) -> JSON:
        locale = "fa" if self._persian.get(m.id) else DISCORD_LOCALES.get(m.user.locale, "en")
        return {
            "id": str(m.id),
            "name": m.name,
            "locale": locale,
            "manager": any(r.name == "Manager" for r in self.guild.roles if r.id in m.role_ids),
        }

    def _message_view(self, m: FakeMessage) -> JSON:
        used: JSON | None = None
        result = self.fake.interactions.get(m.interaction_id or 0)
        if result is not None and result.kind == "slash" and m.origin in ("response", "deferred"):
            used = {"user": result.user.name, "command": command_text(result.data)}
        return {
            "id": str(m.id),
            "author": m.author.name,
            "bot": m.author.bot,
            "content": m.content,
            "embeds": m.embeds,
            "components": m.components,
            "flags": m.flags,
            # files by name, as the page's own path (an embed's image is attachment://name)
            "attachments": {
                str(a.get("filename")): f"/attachments/{a.get('id')}/{a.get('filename')}"
                for a in m.attachments
            },
            "ephemeral": m.ephemeral,
            "loading": m.loading,
            "edited": m.edited_timestamp is not None,
            "timestamp": m.timestamp,
            "used": used,
        }

    def _modal_view(self, member: FakeMember) -> JSON | None:
        shown = next((m for m in reversed(self.fake.modals) if m.user_id == member.id), None)
        if shown is None or shown.interaction_id <= self._modal_done.get(member.id, 0):
            return None
        return {
            "id": str(shown.interaction_id),
            "custom_id": shown.custom_id,
            "title": shown.title,
            "inputs": modal_inputs(shown.components),
        }

    # ------------------------------------------------------------------ actions
    async def _action(self, request: web.Request) -> web.Response:
        action = request.match_info["action"]
        handler: Callable[[JSON], Awaitable[JSON]] | None = (
            getattr(self, f"act_{action}") if action in ACTIONS else None
        )
        if handler is None:
            return web.json_response({"error": "Unknown action."}, status=404)
        try:
            data = await self.body(request)
            answer = await handler(data)
        except Refused as exc:
            return web.json_response({"error": str(exc)}, status=exc.status)
        except TimeoutError:
            return web.json_response({"error": "The bot is not connected yet."}, status=503)
        except (LookupError, ValueError, TypeError, PermissionError) as exc:
            # the driver's own checks (an option of the wrong type, a disabled button...)
            return web.json_response({"error": first_line(exc)}, status=400)
        self._changed()
        return web.json_response(answer or {"ok": True})

    def _watch(self, member: FakeMember, result: InteractionResult) -> None:
        """Like Discord, say so when the bot did not answer in time."""

        async def watch() -> None:
            try:
                await result.wait_callback(self.fake.interaction_deadline + 0.5)
            except (NoResponse, InteractionFailed):
                self.notice(member, "The application did not respond.")

        self._spawn(watch())

    def notice(self, member: FakeMember, text: str) -> None:
        notices = self._notices.setdefault(member.id, [])
        notices.append({"id": f"{time.time_ns()}", "text": text})
        del notices[:-10]
        self._changed()

    async def act_slash(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        channel = self.channel(data.get("channel"), member)
        path = data.get("path")
        if (
            not isinstance(path, list)
            or not 1 <= len(path) <= 3
            or not all(isinstance(p, str) and 0 < len(p) <= 32 for p in path)
        ):
            raise Refused(400, "Choose a command.")
        raw_options = data.get("options") or {}
        if not isinstance(raw_options, dict) or len(raw_options) > 25:
            raise Refused(400, "Bad options.")
        schema = self.option_schema(channel, path)
        options = {
            name: self.option_value(name, value, schema) for name, value in raw_options.items()
        }
        result = await self.fake.slash(
            member, channel, path[0], path[1:], options, wait=False, timeout=1
        )
        self._watch(member, result)
        return {"ok": True}

    def option_schema(self, channel: FakeChannel, path: Sequence[str]) -> dict[str, JSON]:
        cmd, _ = self.fake._find_command(channel, path[0])
        if cmd is None:
            raise Refused(404, f"Unknown command /{path[0]}.")
        schema: list[JSON] = cmd.get("options", []) or []
        for seg in path[1:]:
            sub = next((o for o in schema if o["name"] == seg and o.get("type") in (1, 2)), None)
            if sub is None:
                raise Refused(404, f"Unknown command /{' '.join(path)}.")
            schema = sub.get("options", []) or []
        return {o["name"]: o for o in schema if o.get("type") not in (1, 2)}

    def option_value(self, name: object, value: object, schema: Mapping[str, JSON]) -> object:
        """A value from the page, typed as the option the bot registered asks."""
        spec = schema.get(str(name))
        if spec is None:
            raise Refused(400, f"Unknown option {str(name)[:40]!r}.")
        otype = int(spec.get("type", 3))
        text = str(value)
        if len(text) > MAX_STRING_OPTION:
            raise Refused(400, f"{name}: must be {MAX_STRING_OPTION} or fewer in length.")
        choices = spec.get("choices")
        if choices and text not in {str(c.get("value")) for c in choices}:
            raise Refused(400, f"{name}: choose one of the choices.")
        try:
            if otype == 4:
                number = int(text)
                if abs(number) > 2**53:
                    raise ValueError
                return number
            if otype == 10:
                return float(text)
        except ValueError:
            raise Refused(400, f"{name}: must be a number.") from None
        if otype == 5:
            return text.lower() in ("true", "1", "yes")
        if otype in (6, 9):
            return self.member(text) if SNOWFLAKE.match(text) else self.named(text, name)
        if otype == 7:
            return self.channel(text, next(iter(self.people())))
        if otype == 8:
            role = next((r for r in self.guild.roles if str(r.id) == text), None)
            if role is None:
                raise Refused(400, f"{name}: unknown role.")
            return role
        return text

    def named(self, text: str, option: object) -> FakeMember:
        member = self.by_name(text.lstrip("@"))
        if member is None:
            raise Refused(400, f"{option}: unknown member.")
        return member

    async def act_click(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        msg = self.message(data.get("message"), member)
        custom_id = str(data.get("custom_id") or "")[:100]
        button = next(
            (
                c
                for c in walk_components(msg.components)
                if c.get("type") == BUTTON and c.get("custom_id") == custom_id
            ),
            None,
        )
        if not custom_id:
            raise Refused(400, "Which button?")
        if button is not None and not button.get("disabled"):
            result = await self.fake.click(member, msg, custom_id, wait=False, timeout=1)
        elif any(custom_id in enabled_buttons(v.components) for v in msg.history):
            # a page that had not drawn the message's newest state yet: Discord delivers
            # such a click, and the bot refuses it itself (a stale button)
            result = await self.fake._send_interaction(
                itype=MESSAGE_COMPONENT,
                kind="component",
                data={"custom_id": custom_id, "component_type": BUTTON},
                user=member.user,
                channel=msg.channel,
                message=msg,
                timeout=1,
                wait=False,
            )
        else:
            raise Refused(409, "This interaction failed (that button is not on the message).")
        self._watch(member, result)
        return {"ok": True}

    async def act_select(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        msg = self.message(data.get("message"), member)
        values = data.get("values")
        if not isinstance(values, list) or len(values) > 25:
            raise Refused(400, "Bad choice.")
        custom_id = str(data.get("custom_id") or "")[:100]
        chosen: list[Any] = [str(v)[:100] for v in values]
        kind = next(
            (
                int(c.get("type", 0))
                for c in walk_components(msg.components)
                if c.get("custom_id") == custom_id
            ),
            0,
        )
        if kind == ROLE_SELECT:  # a role select names the server's roles, as Discord's does
            roles = {str(r.id): r for r in self.guild.roles if r.id != self.guild.id}
            if not all(v in roles for v in chosen):
                raise Refused(400, "Unknown role.")
            chosen = [roles[v] for v in chosen]
        result = await self.fake.select(member, msg, custom_id, chosen, wait=False, timeout=1)
        self._watch(member, result)
        return {"ok": True}

    async def act_modal(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        iid = str(data.get("modal") or "")
        shown = next(
            (
                m
                for m in self.fake.modals
                if m.user_id == member.id and str(m.interaction_id) == iid
            ),
            None,
        )
        if shown is None:
            raise Refused(404, "Unknown form.")
        values = data.get("values") or {}
        if not isinstance(values, dict):
            raise Refused(400, "Bad form.")
        inputs = {i["custom_id"]: i for i in modal_inputs(shown.components) if "custom_id" in i}
        clean: dict[str, Any] = {}
        for key, value in values.items():
            spec = inputs.get(key)
            if spec is None:
                raise Refused(400, "Unknown field in the form.")
            if spec["kind"] == "select":
                chosen = value if isinstance(value, list) else [value]
                allowed = {o["value"] for o in spec["options"]}
                if not all(str(v) in allowed for v in chosen):
                    raise Refused(400, "Choose one of the choices.")
                clean[key] = [str(v) for v in chosen]
                continue
            text = str(value)
            limit = min(int(spec.get("max_length") or MAX_TEXT_INPUT), MAX_TEXT_INPUT)
            if len(text) > limit:
                raise Refused(400, f"{spec['label'] or key}: must be {limit} or fewer in length.")
            if len(text) < int(spec.get("min_length") or 0):
                raise Refused(400, f"{spec['label'] or key}: too short.")
            clean[key] = text
        for key, spec in inputs.items():
            if spec.get("required") and not clean.get(key):
                raise Refused(400, f"{spec['label'] or key}: this field is required.")
        self._modal_done[member.id] = max(self._modal_done.get(member.id, 0), shown.interaction_id)
        # the latest form with this id shown to the member (a resubmitted old form goes to
        # the bot like Discord would send it; the bot decides whether it still applies)
        result = await self.fake.submit_modal(
            member, None, shown.custom_id, clean, wait=False, timeout=1
        )
        self._watch(member, result)
        return {"ok": True}

    async def act_dismiss(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        iid = str(data.get("modal") or "")
        if SNOWFLAKE.match(iid):
            self._modal_done[member.id] = max(self._modal_done.get(member.id, 0), int(iid))
        return {"ok": True}

    async def act_post(self, data: JSON) -> JSON:
        member = self.member(data.get("as"))
        channel = self.channel(data.get("channel"), member)
        content = str(data.get("content") or "").strip()
        if not content:
            raise Refused(400, "Cannot send an empty message.")
        if len(content) > MAX_CONTENT:
            raise Refused(400, f"Must be {MAX_CONTENT} or fewer in length.")
        await self.fake.post_as(member, channel, content)
        return {"ok": True}

    async def act_add_member(self, data: JSON) -> JSON:
        name = str(data.get("name") or "").strip()
        if not NAME.match(name):
            raise Refused(400, "A name of 1 to 31 letters, digits, spaces, dots or dashes.")
        if self.by_name(name) is not None:
            raise Refused(409, f"{name} is already a member.")
        if len(self.people()) >= MAX_MEMBERS:
            raise Refused(409, f"The sandbox has room for {MAX_MEMBERS} members.")
        with self.fake.ids_from(self._ids):
            member = self.fake.add_member(self.guild, name)
        self.fake.install_for_user(member)
        self.fake.add_to_group_dm(self.friends, member)
        return {"ok": True, "member": self._member_view(member)}

    async def act_locale(self, data: JSON) -> JSON:
        """A member's Discord language, or (``server: true``) the server's."""
        member = self.member(data.get("as"))
        code = str(data.get("locale") or "")
        if code not in LOCALES:
            raise Refused(400, "Unknown language.")
        first = self.guild.channels[0]
        if data.get("server"):
            manager = member if self._member_view(member)["manager"] else self.people()[0]
            if code == "fa" or self._guild_persian:
                # Discord offers no Persian server language: the bot's /language does it
                value = "fa" if code == "fa" else "auto"
                result = await self.fake.slash(
                    manager, first, "language", None, {"server": value}, wait=False, timeout=1
                )
                self._watch(manager, result)
                self._guild_persian = code == "fa"
            if code != "fa":
                self.fake.set_guild_locale(self.guild, LOCALES[code])
        else:
            if code == "fa" or self._persian.get(member.id):
                value = "fa" if code == "fa" else "auto"
                result = await self.fake.slash(
                    member, first, "language", None, {"member": value}, wait=False, timeout=1
                )
                self._watch(member, result)
                self._persian[member.id] = code == "fa"
            if code != "fa":
                self.fake.set_locale(member, LOCALES[code])
        return {"ok": True}

    # ------------------------------------------------------------------ upkeep
    def trim(self) -> None:
        """Keep a long-running sandbox's records bounded (the tests keep everything)."""
        fake = self.fake
        for records in (fake.requests, fake.log, fake.rate_limited, fake.rejected, fake.unhandled):
            del records[:-2000]
        del fake.modals[:-200]
        # a message keeps a few earlier versions (for stale clicks; the tests keep all)
        if len(fake.interactions) > 1000:
            for iid in sorted(fake.interactions)[:-1000]:
                result = fake.interactions.pop(iid)
                fake._by_token.pop(result.token, None)
        by_channel: dict[int, list[int]] = {}
        for mid, msg in fake.messages.items():
            by_channel.setdefault(msg.channel.id, []).append(mid)
            del msg.history[:-3]
        for ids in by_channel.values():
            for mid in sorted(ids)[:-MAX_MESSAGES_PER_CHANNEL]:
                fake.messages.pop(mid, None)


def enabled_buttons(components: Sequence[JSON]) -> set[str]:
    return {
        str(c.get("custom_id"))
        for c in walk_components(components)
        if c.get("type") == BUTTON and not c.get("disabled")
    }


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]


def command_text(data: JSON) -> str:
    parts = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return "/" + " ".join(parts)


def modal_inputs(components: Sequence[JSON]) -> list[JSON]:
    """A modal's fields for the page: text inputs and string selects with their labels (in
    action rows or in labels), and text displays."""
    out: list[JSON] = []
    for comp in components:
        ctype = comp.get("type")
        if ctype == LABEL:
            out.extend(
                _field(comp.get("component") or {}, comp.get("label"), comp.get("description"))
            )
        elif ctype == 10:  # text display
            out.append({"kind": "text", "content": str(comp.get("content", ""))})
        else:
            for inner in comp.get("components", []) or []:
                out.extend(_field(inner, inner.get("label"), None))
    return out


def _field(comp: JSON, label: object, description: object) -> list[JSON]:
    ctype = comp.get("type")
    if ctype == TEXT_INPUT:
        return [
            {
                "kind": "text_input",
                "custom_id": comp.get("custom_id"),
                "label": str(label or comp.get("label") or ""),
                "description": str(description or ""),
                "style": comp.get("style", 1),
                "placeholder": comp.get("placeholder") or "",
                "value": comp.get("value") or "",
                "required": comp.get("required", True),
                "min_length": comp.get("min_length") or 0,
                "max_length": comp.get("max_length") or MAX_TEXT_INPUT,
            }
        ]
    if ctype == STRING_SELECT:
        return [
            {
                "kind": "select",
                "custom_id": comp.get("custom_id"),
                "label": str(label or ""),
                "description": str(description or ""),
                "required": comp.get("required", True),
                "options": [
                    {
                        "label": str(o.get("label")),
                        "value": str(o.get("value")),
                        "default": bool(o.get("default")),
                    }
                    for o in comp.get("options", [])
                ],
            }
        ]
    return []


# ---------------------------------------------------------------------- running it
async def run_sandbox(
    *,
    host: str,
    port: int,
    bot_argv: Sequence[str],
    bot_env: Mapping[str, str],
    channels: Sequence[str] = (),
    say: Callable[[str], None] = print,
    rate_scale: float = 1.0,
) -> int:
    """Serve the local Discord and the page on ``host:port``, start the bot
    (``bot_argv`` with ``bot_env`` plus the variables that point it here), and run until a
    signal or until the bot exits. ``channels``: one per game, named by the bot. Returns
    the exit code (the bot's, if it stopped first)."""
    fake = FakeDiscord(token=SANDBOX_TOKEN, host=host, rate_limits=RateLimits(scale=rate_scale))
    sandbox = Sandbox(fake, channels=channels)
    try:
        await fake.start(port, extra_routes=sandbox.add_routes)
    except OSError as exc:
        print(
            f"error: the sandbox cannot listen on {host}:{port}: {exc.strerror or exc} "
            "(set SANDBOX_PORT to another port)",
            file=sys.stderr,
        )
        return 2
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    env = {**os.environ, **bot_env, **fake.bot_env(SANDBOX_TOKEN)}
    proc = await asyncio.create_subprocess_exec(
        *bot_argv,
        stdin=asyncio.subprocess.DEVNULL,
        env=env,
        preexec_fn=die_with_parent,
        start_new_session=True,  # Ctrl-C reaches the sandbox, which stops the bot itself
    )
    say(f"Sandbox: open {fake.base_url}/ (a local Discord with the bot; play chips; Ctrl-C stops)")

    async def upkeep() -> None:
        while True:
            await asyncio.sleep(30)
            sandbox.trim()

    keeper = loop.create_task(upkeep())
    exited = loop.create_task(proc.wait())
    stopped = loop.create_task(stop.wait())
    code = 0
    try:
        await asyncio.wait({exited, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if exited.done():
            code = proc.returncode or 0
            print(
                f"error: the bot stopped (exit code {code}); the sandbox stops too", file=sys.stderr
            )
            code = code or 1
        else:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            try:
                await asyncio.wait_for(asyncio.shield(exited), 10)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await exited
    finally:
        for task in (keeper, stopped):
            task.cancel()
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        for task in list(sandbox._tasks):
            task.cancel()
        for ws in list(sandbox._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        await fake.stop()
    return code
