"""Errors the table service raises, and the one place every domain error becomes a reply.

Cogs never build error text themselves: they call :func:`friendly` on whatever a service
call raised, with the reader's language, and send the result ephemerally.

A :class:`ServiceError` may carry a message id (``key``) and its placeholders; one raised
with English text only is matched against the English catalog (``bot.i18n.from_english``)
so it reaches the member in their language too. Engine ``RuleError`` refusals carry
their message id and values the same way (the English matching is only a fallback).
"""

from __future__ import annotations

from bot.i18n import DEFAULT_LOCALE, Msg, english_key, from_english, t
from bot.metrics import METRICS
from engine.errors import ConfigError, RuleError, Word


class ServiceError(Exception):
    """A request the bot refuses, with a message fit to show the member.

    ``message`` is the English text; ``key`` and ``params`` (optional) name the catalog
    message to show in other languages."""

    def __init__(
        self, message: str, rule: str | None = None, *, key: str | None = None, **params: object
    ) -> None:
        super().__init__(message)
        self.message = message
        self.user_message = message if rule is None else f"{message} ({rule})"
        self.rule = rule
        self.key = key
        self.params = params

    def localized(self, locale: str) -> str:
        """The refusal in ``locale``."""
        if locale == DEFAULT_LOCALE:
            return self.user_message
        text = (
            t(locale, self.key, **self.params)
            if self.key is not None
            else from_english(locale, self.message)
        )
        return text if self.rule is None else f"{text} ({self.rule})"


class NoTable(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "There is no open table in this channel. Start one with `/pontoon start`.",
            key="err.no_table",
        )


class TableExists(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "This channel already has an open table: one table per channel.",
            key="err.table_exists",
        )


class StaleButton(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "That button belongs to an older state of the table; nothing was changed. "
            "Use the buttons on the current table message.",
            key="err.stale_button",
        )


class NotSeated(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "You are not seated at this table. Press **Join** first.", key="err.not_seated"
        )


class BusyElsewhere(ServiceError):
    def __init__(self) -> None:
        super().__init__(
            "You already have chips in play at another table in this server; "
            "finish or leave that table first.",
            key="err.busy_elsewhere",
        )


class BadAmount(ServiceError):
    pass


def _what(what: str) -> Msg:
    return Msg(f"amount.what.{what}")


class _Amount:
    """Builds :class:`BadAmount` refusals with their English text and message id."""

    @staticmethod
    def missing(what: str) -> BadAmount:
        return BadAmount(f"Please give the {what}.", key="err.amount.missing", what=_what(what))

    @staticmethod
    def not_number(text: str) -> BadAmount:
        return BadAmount(
            f"`{text[:40]}` is not a whole number of chips.",
            key="err.amount.not_number",
            text=text[:40],
        )

    @staticmethod
    def too_large(what: str) -> BadAmount:
        return BadAmount(
            f"That {what} is far too large.", key="err.amount.too_large", what=_what(what)
        )

    @staticmethod
    def negative(what: str) -> BadAmount:
        return BadAmount(
            f"The {what} cannot be negative.", key="err.amount.negative", what=_what(what)
        )


class EngineFault(ServiceError):
    """The game engine failed part-way through an action (a bug or an impossible state,
    e.g. an empty pack). The service has put the table back as it was last saved."""

    def __init__(self, detail: str | None = None) -> None:
        why = f" ({detail})" if detail else ""
        super().__init__(
            f"The game could not do that{why}. The table is exactly as it was; nothing was changed.",
            key="err.engine_fault",
        )


def engine_fault(exc: BaseException) -> EngineFault:
    """The member-facing error for an unexpected exception raised by an engine call."""
    detail = str(exc)[:120] if isinstance(exc, ConfigError) else None
    return EngineFault(detail)


def parse_amount(text: str | int | None, what: str = "amount") -> int:
    """Parse a chip amount typed by a member: a whole positive number, at most 10^9."""
    if text is None:
        raise _Amount.missing(what)
    if isinstance(text, int):
        value = text
    else:
        cleaned = text.strip().replace(",", "").replace("_", "")
        if not cleaned.isascii() or not cleaned.lstrip("-").isdigit():
            raise _Amount.not_number(text)
        if len(cleaned) > 12:
            raise _Amount.too_large(what)
        value = int(cleaned)
    if value < 0:
        raise _Amount.negative(what)
    if value > 10**9:
        raise _Amount.too_large(what)
    return value


def rule_params(exc: RuleError) -> dict[str, object]:
    """A refusal's placeholder values for :func:`t`: an engine :class:`Word` becomes its
    catalog message; seat ids stay ids (the presenters say them as names)."""
    return {name: Msg(v.key) if isinstance(v, Word) else v for name, v in exc.params.items()}


def rule_text(locale: str, exc: RuleError) -> str:
    """An engine rule refusal in ``locale``, capitalised, without the rule id. The engine
    gives the message id; a refusal without one is matched by its English text."""
    if locale == DEFAULT_LOCALE:
        text = exc.message
    elif exc.key is not None:
        text = t(locale, exc.key, **rule_params(exc))
    else:
        found = english_key(exc.message) or english_key(exc.message[:1].upper() + exc.message[1:])
        text = t(locale, found[0], **found[1]) if found else t(locale, "err.rule.generic")
    return text[:1].upper() + text[1:]


def friendly(exc: BaseException, locale: str = DEFAULT_LOCALE) -> str:
    """The message a member sees for a refused action, in ``locale``. Unknown errors get a
    generic line. Each refusal is counted by kind (``bot.metrics``)."""
    METRICS.refused(type(exc).__name__)
    if isinstance(exc, ServiceError):
        return exc.localized(locale)
    if isinstance(exc, RuleError):
        return t(locale, "err.rule", text=rule_text(locale, exc), rule=exc.rule)
    if isinstance(exc, ConfigError):
        if locale == DEFAULT_LOCALE:
            return f"Those table options do not work: {exc}"
        detail = from_english(locale, str(exc), fallback="err.config.unknown")
        return t(locale, "err.config", detail=detail)
    user_message = getattr(exc, "user_message", None)
    if isinstance(user_message, str):
        return user_message if locale == DEFAULT_LOCALE else from_english(locale, user_message)
    return t(locale, "err.generic")
