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
from .server import FakeDiscord, Fault, RateLimits

__all__ = [
    "Button",
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
