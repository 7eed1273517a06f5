"""Data kept by the fake Discord: users, guilds, channels, messages, interaction results.

Everything here is plain data plus small helpers for tests (find a button by label, the
visible text of a message). The server (``server.py``) owns and mutates these objects.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 50) - 1

EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_CHANNELS

# Channel types
GUILD_TEXT_CHANNEL = 0
DM_CHANNEL = 1
GROUP_DM_CHANNEL = 3

# Interaction context types and installation (integration) types
CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1
CONTEXT_PRIVATE_CHANNEL = 2
GUILD_INSTALL = 0
USER_INSTALL = 1

# Message flags
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Component types
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
CONTAINER = 17
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)

# Interaction types
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord user account (a person or the bot)."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    #: the Discord client language, sent as ``locale`` in this user's interactions
    locale: str = "en-US"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name or self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a DM channel with the bot (type 1) or a group DM
    (type 3: ``recipients``, an owner, a name; the bot is never in one)."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    #: a group DM's members (its owner first); empty for other channels
    recipients: list[FakeUser] = field(default_factory=list)
    owner_id: int | None = None

    @property
    def is_dm(self) -> bool:
        """A DM between the bot and one person (type 1)."""
        return self.type == DM_CHANNEL

    @property
    def is_group_dm(self) -> bool:
        """A group DM of people (type 3): the bot is not in it."""
        return self.type == GROUP_DM_CHANNEL

    @property
    def is_private(self) -> bool:
        """Outside any server: a DM with the bot or a group DM."""
        return self.type in (DM_CHANNEL, GROUP_DM_CHANNEL)

    def has_member(self, user_id: int) -> bool:
        """A group DM's recipient, or a DM's person."""
        if self.is_group_dm:
            return any(u.id == user_id for u in self.recipients)
        return self.recipient is not None and self.recipient.id == user_id

    def payload(self, bot_user: FakeUser | None = None) -> JSON:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        if self.is_group_dm:
            return {
                "id": str(self.id),
                "type": GROUP_DM_CHANNEL,
                "last_message_id": None,
                "recipients": [u.payload() for u in self.recipients],
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id),
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: list[FakeChannel] = field(default_factory=list)
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)
    #: the server's preferred locale: ``preferred_locale`` in GUILD_CREATE, ``guild_locale``
    #: (and ``guild.locale``) in its interactions
    preferred_locale: str = "en-US"
    #: the server installed the app (its bot is a member); False: a server the bot is not
    #: in, where only members who installed the app on their account can use it
    bot_installed: bool = True

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[0]

    def role(self, name: str) -> FakeRole | None:
        return next((r for r in self.roles if r.name == name), None)

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel {name!r} in guild {self.name!r}")

    def member(self, name: str) -> FakeMember:
        for member in self.members.values():
            if member.name == name:
                return member
        raise KeyError(f"no member {name!r} in guild {self.name!r}")


@dataclass(eq=False)
class FakeMember:
    """A user's membership of one guild."""

    user: FakeUser
    guild: FakeGuild
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    @property
    def permissions(self) -> int:
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        perms = self.guild.everyone_role.permissions
        for role in self.guild.roles:
            if role.id in self.role_ids:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


Person = FakeUser | FakeMember


def user_of(person: Person) -> FakeUser:
    return person.user if isinstance(person, FakeMember) else person


# ----------------------------------------------------------------------------- components


def walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component, depth first, including those nested in rows, sections, containers."""
    for comp in components:
        yield comp
        inner = comp.get("components")
        if isinstance(inner, list):
            yield from walk_components(inner)
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: str | None

    @classmethod
    def from_payload(cls, data: JSON) -> Button:
        emoji = data.get("emoji")
        return cls(
            label=data.get("label"),
            custom_id=data.get("custom_id"),
            style=int(data.get("style", 1)),
            disabled=bool(data.get("disabled", False)),
            url=data.get("url"),
            emoji=(emoji or {}).get("name") if isinstance(emoji, dict) else None,
        )


@dataclass(frozen=True)
class SelectMenu:
    type: int
    custom_id: str
    placeholder: str | None
    options: tuple[JSON, ...]
    disabled: bool
    min_values: int
    max_values: int

    @property
    def option_values(self) -> list[str]:
        return [str(o.get("value")) for o in self.options]

    @property
    def option_labels(self) -> list[str]:
        return [str(o.get("label")) for o in self.options]


def embed_text(embed: JSON) -> str:
    parts: list[str] = []
    for key in ("title", "description"):
        if embed.get(key):
            parts.append(str(embed[key]))
    if embed.get("author", {}).get("name"):
        parts.append(str(embed["author"]["name"]))
    for fld in embed.get("fields", []) or []:
        parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
    if embed.get("footer", {}).get("text"):
        parts.append(str(embed["footer"]["text"]))
    return "\n".join(parts)


def _text_of(content: str, embeds: Sequence[JSON], components: Sequence[JSON]) -> str:
    parts = [content] if content else []
    parts.extend(embed_text(e) for e in embeds)
    parts.extend(
        str(c.get("content", ""))
        for c in walk_components(components)
        if c.get("type") == TEXT_DISPLAY
    )
    return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message (it gets a new version on every edit)."""

    content: str
    embeds: tuple[JSON, ...]
    components: tuple[JSON, ...]
    flags: int
    attachments: tuple[JSON, ...]
    at: float  # time.monotonic() when this state was set
    source: str  # how it was set: "create", "edit", "update" (callback 7), "followup" ...

    @property
    def text(self) -> str:
        """Content, embed texts and text-display components of this version."""
        return _text_of(self.content, self.embeds, self.components)

    def buttons(self) -> list[Button]:
        return [
            Button.from_payload(c)
            for c in walk_components(self.components)
            if c.get("type") == BUTTON
        ]


class _ComponentHelpers:
    components: list[JSON]

    def buttons(self) -> list[Button]:
        return [
            Button.from_payload(c)
            for c in walk_components(self.components)
            if c.get("type") == BUTTON
        ]

    def button(self, label: str) -> Button:
        """The button with this exact label (or emoji name); raises LookupError if none."""
        buttons = self.buttons()
        for b in buttons:
            if b.label == label or (b.label is None and b.emoji == label):
                return b
        labels = [b.label or b.emoji for b in buttons]
        raise LookupError(f"no button labelled {label!r}; buttons are {labels!r}")

    def enabled_buttons(self) -> list[str]:
        """Labels (or emoji names) of the buttons that can be clicked."""
        return [str(b.label or b.emoji) for b in self.buttons() if not b.disabled]

    def has_button(self, label: str) -> bool:
        return any(b.label == label for b in self.buttons())

    def selects(self) -> list[SelectMenu]:
        out = []
        for c in walk_components(self.components):
            if c.get("type") in SELECT_TYPES:
                out.append(
                    SelectMenu(
                        type=int(c["type"]),
                        custom_id=str(c.get("custom_id")),
                        placeholder=c.get("placeholder"),
                        options=tuple(c.get("options", []) or []),
                        disabled=bool(c.get("disabled", False)),
                        min_values=int(c.get("min_values", 1)),
                        max_values=int(c.get("max_values", 1)),
                    )
                )
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in walk_components(self.components) if c.get("custom_id")]


@dataclass(eq=False)
class FakeMessage(_ComponentHelpers):
    """A message as the fake stores it: its current state plus every earlier state."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    created_at: float
    timestamp: str
    ephemeral_for: int | None = None  # user id: an ephemeral message only this user sees
    interaction_id: int | None = None  # set when created by an interaction response/followup
    #: the installs that authorized the interaction which made this message
    #: (``authorizing_integration_owners``; a click on it carries them, as on Discord)
    integration_owners: dict[str, str] | None = None
    origin: str = "channel"  # "channel" (POST /channels), "response", "followup", "deferred"
    msg_type: int = 0
    attachments: list[JSON] = field(default_factory=list)
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    @property
    def is_dm(self) -> bool:
        return self.channel.is_dm

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred response ("Bot is thinking...") not yet edited."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edit_count(self) -> int:
        return sum(1 for v in self.history if v.source not in ("create", "deferred"))

    @property
    def versions(self) -> list[MessageVersion]:
        return list(self.history)

    @property
    def text(self) -> str:
        """Content, embed texts and text-display components joined by newlines."""
        return _text_of(self.content, self.embeds, self.components)

    @property
    def all_versions_text(self) -> str:
        """The text of every version this message ever had (for privacy assertions)."""
        return "\n".join(v.text for v in self.history)

    def visible_to_user(self, user_id: int) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_for is not None:
            return self.ephemeral_for == user_id
        if self.channel.is_private:
            return self.channel.has_member(user_id)
        return True

    def snapshot(self, source: str) -> None:
        self.history.append(
            MessageVersion(
                content=self.content,
                embeds=tuple(self.embeds),
                components=tuple(self.components),
                flags=self.flags,
                attachments=tuple(self.attachments),
                at=time.monotonic(),
                source=source,
            )
        )

    def payload(self, app_id: int) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": False,
            "type": self.msg_type,
            "flags": self.flags,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.interaction_id is not None:
            data["webhook_id"] = str(app_id)
            data["application_id"] = str(app_id)
        return data

    def __repr__(self) -> str:
        eph = f" ephemeral_for={self.ephemeral_for}" if self.ephemeral_for else ""
        return (
            f"<FakeMessage id={self.id} channel={self.channel.name!r}{eph}"
            f" text={self.text[:60]!r} buttons={[b.label for b in self.buttons()]!r}>"
        )


@dataclass(frozen=True)
class LogEntry:
    """One thing that happened, in order: message created/edited/deleted, DM refused..."""

    kind: str  # "create", "edit", "delete", "dm_refused", "rejected", "interaction", "callback"
    at: float
    channel_id: int | None = None
    message_id: int | None = None
    user_id: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str  # relative to /api/v10, query excluded
    status: int
    at: float
    fault: bool = False


@dataclass(frozen=True)
class ModalShown:
    """A modal the bot opened (callback type 9) for a user."""

    interaction_id: int
    user_id: int
    channel: FakeChannel
    message_id: int | None  # the message the opening component sat on, if any
    custom_id: str
    title: str
    components: tuple[JSON, ...]

    def text_inputs(self) -> list[JSON]:
        return [c for c in walk_components(self.components) if c.get("type") == TEXT_INPUT]


class NoResponse(TimeoutError):
    """The bot did not answer an interaction in time."""


class InteractionFailed(AssertionError):
    """The bot answered, but Discord refused the callback (invalid payload, too late...):
    the person would see "This interaction failed". ``result`` has the details."""

    def __init__(self, message: str, result: InteractionResult) -> None:
        super().__init__(message)
        self.result = result


class InteractionResult(_ComponentHelpers):
    """What the bot did with one interaction. Returned by ``FakeDiscord.slash/click/...``.

    ``callback_type`` is the callback the bot chose (4 message, 5 deferred, 6 deferred
    update, 7 update message, 8 autocomplete, 9 modal). ``latency`` is the seconds from
    the INTERACTION_CREATE being written to the bot's socket to the callback request
    arriving. ``message`` is the current state of the original response message (for a
    component interaction answered with 6/7, the message the component sits on).
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        interaction_id: int,
        token: str,
        type: int,
        kind: str,
        user: FakeUser,
        channel: FakeChannel,
        source_message_id: int | None,
        data: JSON,
    ) -> None:
        self._fake = fake
        self.interaction_id = interaction_id
        self.token = token
        self.type = type
        self.kind = kind
        self.user = user
        self.channel = channel
        self.source_message_id = source_message_id
        self.data = data
        self.sent_at: float | None = None
        self.callback_at: float | None = None
        self.callback_type: int | None = None
        self.callback_status: int | None = None
        self.callback_error: str | None = None
        self.late = False
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.modal: ModalShown | None = None
        self.autocomplete_choices: list[JSON] | None = None
        self.callback_event = asyncio.Event()
        #: the interaction context (0 server, 1 DM with the bot, 2 group DM / private channel)
        self.context: int = 0
        #: ``authorizing_integration_owners`` as sent: {"0": guild id or "0", "1": user id}
        self.integration_owners: dict[str, str] = {}
        #: ``FakeDiscord.clock()`` when the interaction was created (its token lives 15 min)
        self.created_clock: float = 0.0
        #: the INTERACTION_CREATE payload as sent to the bot
        self.payload: JSON = {}

    # ------------------------------------------------------------------ state
    @property
    def answered(self) -> bool:
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        if self.sent_at is None or self.callback_at is None:
            return None
        return self.callback_at - self.sent_at

    @property
    def deferred(self) -> bool:
        return self.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE)

    @property
    def message(self) -> FakeMessage | None:
        if self.original_message_id is None:
            return None
        return self._fake.message(self.original_message_id)

    def require_message(self) -> FakeMessage:
        """``message``, or AssertionError if the interaction produced none."""
        msg = self.message
        if msg is None:
            raise AssertionError(f"interaction {self.interaction_id} produced no message: {self!r}")
        return msg

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._fake.message(i) for i in self.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Original response (if any) then followups, current state."""
        msg = self.message
        return ([msg] if msg is not None else []) + [
            m for m in self.followups if msg is None or m.id != msg.id
        ]

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def content(self) -> str:
        msg = self.message
        return msg.content if msg else ""

    @property
    def text(self) -> str:
        msg = self.message
        return msg.text if msg else ""

    @property
    def embeds(self) -> list[JSON]:
        msg = self.message
        return msg.embeds if msg else []

    @property
    def components(self) -> list[JSON]:  # type: ignore[override]
        msg = self.message
        return msg.components if msg else []

    @property
    def all_text(self) -> str:
        """Text of the original response and all followups."""
        return "\n".join(m.text for m in self.messages)

    # ------------------------------------------------------------------ waiting
    async def wait_callback(self, timeout: float = 5.0) -> InteractionResult:
        try:
            await asyncio.wait_for(self.callback_event.wait(), timeout)
        except TimeoutError:
            raise NoResponse(
                f"bot did not answer {self.kind} interaction {self.interaction_id} "
                f"({self.data.get('name') or self.data.get('custom_id')!r}) within {timeout}s"
                f"{self._fake.debug_tail()}"
            ) from None
        if self.callback_status != 200 and self.callback_type is None:
            what = "after the 3 s deadline" if self.late else f"with HTTP {self.callback_status}"
            raise InteractionFailed(
                f"{self.kind} interaction {self.interaction_id} "
                f"({self.data.get('name') or self.data.get('custom_id')!r}): Discord refused "
                f"the bot's callback {what}: {self.callback_error}",
                self,
            )
        return self

    async def wait_until(
        self, predicate: Callable[[InteractionResult], bool], timeout: float = 5.0
    ) -> None:
        await self._fake.wait_until(lambda: predicate(self), timeout)

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self._fake.wait_until(lambda: len(self.followup_ids) >= count, timeout)
        return self.followups

    async def wait_message(self, timeout: float = 5.0) -> FakeMessage:
        """Wait for a response message that is not 'thinking' any more (after defer + edit)."""

        def done() -> bool:
            msg = self.message
            return msg is not None and not msg.loading

        await self._fake.wait_until(done, timeout)
        msg = self.message
        assert msg is not None
        return msg

    def __repr__(self) -> str:
        lat = f"{self.latency * 1000:.1f}ms" if self.latency is not None else "-"
        return (
            f"<InteractionResult {self.kind} id={self.interaction_id} cb={self.callback_type}"
            f" latency={lat} message={self.message!r} followups={len(self.followup_ids)}>"
        )
