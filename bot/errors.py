"""Errors the table service raises, and the one place every domain error becomes a reply.

Cogs never build error text themselves: they call :func:`friendly` on whatever a service
call raised and send the result ephemerally.
"""

from __future__ import annotations

from engine.errors import ConfigError, RuleError


class ServiceError(Exception):
    """A request the bot refuses, with a message fit to show the member."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.user_message = message if rule is None else f"{message} ({rule})"
        self.rule = rule


class NoTable(ServiceError):
    def __init__(self) -> None:
        super().__init__("There is no open table in this channel. Start one with `/pontoon start`.")


class TableExists(ServiceError):
    def __init__(self) -> None:
        super().__init__("This channel already has an open table: one table per channel.")


class StaleButton(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "That button belongs to an older state of the table; nothing was changed. "
            "Use the buttons on the current table message."
        )


class NotSeated(ServiceError):
    def __init__(self) -> None:
        super().__init__("You are not seated at this table. Press **Join** first.")


class BusyElsewhere(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "You already have chips in play at another table in this server; "
            "finish or leave that table first."
        )


class BadAmount(ServiceError):
    pass


class EngineFault(ServiceError):
    """The game engine failed part-way through an action (a bug or an impossible state,
    e.g. an empty pack). The service has put the table back as it was last saved."""

    def __init__(self, detail: str | None = None) -> None:
        why = f" ({detail})" if detail else ""
        super().__init__(
            f"The game could not do that{why}. The table is exactly as it was; nothing was changed."
        )


def engine_fault(exc: BaseException) -> EngineFault:
    """The member-facing error for an unexpected exception raised by an engine call."""
    detail = str(exc)[:120] if isinstance(exc, ConfigError) else None
    return EngineFault(detail)


def parse_amount(text: str | int | None, what: str = "amount") -> int:
    """Parse a chip amount typed by a member: a whole positive number, at most 10^9."""
    if text is None:
        raise BadAmount(f"Please give the {what}.")
    if isinstance(text, int):
        value = text
    else:
        cleaned = text.strip().replace(",", "").replace("_", "")
        if not cleaned.isascii() or not cleaned.lstrip("-").isdigit():
            raise BadAmount(f"`{text[:40]}` is not a whole number of chips.")
        if len(cleaned) > 12:
            raise BadAmount(f"That {what} is far too large.")
        value = int(cleaned)
    if value < 0:
        raise BadAmount(f"The {what} cannot be negative.")
    if value > 10**9:
        raise BadAmount(f"That {what} is far too large.")
    return value


def friendly(exc: BaseException) -> str:
    """The message a member sees for a refused action. Unknown errors get a generic line."""
    if isinstance(exc, ServiceError):
        return exc.user_message
    if isinstance(exc, RuleError):
        text = exc.message[:1].upper() + exc.message[1:]
        return f"{text} (rule {exc.rule})"
    if isinstance(exc, ConfigError):
        return f"Those table options do not work: {exc}"
    user_message = getattr(exc, "user_message", None)
    if isinstance(user_message, str):
        return user_message
    return "Something went wrong on our side; nothing was changed. Please try again."
