"""A fake Discord for end-to-end tests: ``FakeDiscord`` is both the server and the driver."""

from .models import (
    Button,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionFailed,
    InteractionResult,
    LogEntry,
    MessageVersion,
    ModalShown,
    NoResponse,
    RequestRecord,
    SelectMenu,
)
from .server import CommandUnavailable, FakeDiscord, Fault, RateLimits

__all__ = [
    "Button",
    "CommandUnavailable",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "InteractionFailed",
    "InteractionResult",
    "LogEntry",
    "MessageVersion",
    "ModalShown",
    "NoResponse",
    "RateLimits",
    "RequestRecord",
    "SelectMenu",
]
