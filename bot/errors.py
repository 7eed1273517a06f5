"""Errors every game's service raises, and the one place every domain error becomes a reply.

Cogs never build error text themselves: they call :func:`friendly` on whatever a service
call raised, with the reader's language, and send the result ephemerally.

Every refusal names its catalog message: a :class:`ServiceError` its ``key`` (required)
and placeholder values, a storage error its ``key``/``params`` (``bot.storage.errors``),
an engine ``RuleError`` or ``ConfigError`` its ``key`` and ``params``. Their English
texts are for logs only: nothing here reads English back into a message id. A refusal
whose id is missing or unknown is a bug: it is logged, and the member reads a generic line.
"""

from __future__ import annotations

import logging

from bot.i18n import DEFAULT_LOCALE, Msg, Raw, catalog, has, placeholders, t
from bot.metrics import METRICS
from bot.storage.errors import StorageError
from engine.errors import ConfigError, RuleError, Word

log = logging.getLogger(__name__)


class ServiceError(Exception):
    """A request the bot refuses, with a message fit to show the member.

    ``message`` is the English text (for logs); ``key`` and ``params`` name the catalog
    message the member reads, in their language (English too)."""

    def __init__(
        self, message: str, rule: str | None = None, *, key: str, **params: object
    ) -> None:
        super().__init__(message)
        self.message = message
        self.user_message = message if rule is None else f"{message} ({rule})"
        self.rule = rule
        self.key = key
        self.params = params

    def localized(self, locale: str) -> str:
        """The refusal in ``locale``, from the catalog (English too, so the words are the
        catalog's); the rule id, if any, stays in the logs."""
        return catalog_text(locale, self.key, self.params, what=self.message)


def catalog_text(locale: str, key: str | None, params: dict[str, object], *, what: str) -> str:
    """The catalog message ``key`` in ``locale`` with ``params``; a missing or unknown id,
    or values missing for its placeholders, is a bug: logged, and the generic refusal."""
    if key is not None and has(key):
        if placeholders(catalog(DEFAULT_LOCALE)[key]) <= set(params):
            return t(locale, key, **params)
        log.error("bug: refusal %s lacks values for its placeholders (%r)", key, what)
    else:
        log.error("bug: refusal without a known message id %r (%r)", key, what)
    return t(locale, "err.generic.refused")


class NoTableHere(ServiceError):
    """A game's "no table of mine in this channel": the message is the class's. Each game
    subclasses it in its own service module (its ``no_table_error``)."""

    key_of: str
    english: str

    def __init__(self) -> None:
        super().__init__(self.english, key=self.key_of)


class TableClosed(ServiceError):
    """A move on a table that is closed, in its game's own words (``key``, ``english``):
    every stake still on it went back to its owner when it closed."""

    def __init__(self, english: str = "That table is closed.", key: str = "err.svc.closed") -> None:
        super().__init__(english, key=key)


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
    """Not seated at this table. ``key`` names the refusal of the game whose table it is,
    so it names the Join button that table shows (Blackjack's ``engine.bj.not_seated``:
    French **S’asseoir**, not Pontoon's **Rejoindre**)."""

    def __init__(self, key: str = "err.not_seated") -> None:
        super().__init__("You are not seated at this table. Press **Join** first.", key=key)


class BusyElsewhere(ServiceError):
    """Chips in play at another table of the server; ``channel_id``: that table's channel,
    named to the member (a seat there counts, even with nothing staked yet)."""

    def __init__(self, channel_id: int | None = None) -> None:
        if channel_id is None:
            super().__init__(
                "You already have chips in play at another table in this server; "
                "finish or leave that table first.",
                key="err.busy_elsewhere",
            )
            return
        super().__init__(
            f"You are already playing at the table in channel {channel_id} (bets, or a "
            "seat even with nothing staked); finish or leave that table first.",
            key="err.busy_elsewhere.at",
            channel=Raw(f"<#{channel_id}>"),
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
    return {name: word_value(v) for name, v in exc.params.items()}


def word_value(value: object) -> object:
    """A placeholder value from the engine: a :class:`Word` (and the Words inside it)
    becomes its catalog message; anything else stays as it is."""
    return word_msg(value) if isinstance(value, Word) else value


def word_msg(word: Word) -> Msg:
    """An engine :class:`Word` as the catalog message it names (with its inner Words)."""
    return Msg(word.key, **{n: word_value(v) for n, v in word.params})


def rule_text(locale: str, exc: RuleError, *, me: object = None) -> str:
    """An engine rule refusal in ``locale``, capitalised, without the rule id and without
    a closing full stop (the message around it puts one). The engine gives the message id
    (its own English text is for logs). Said to ``me`` (a seat id), a refusal about that seat has a second-person text
    where the catalog has one (``<id>.you``: "You cannot cover..." instead of "bob
    cannot...")."""
    key = exc.key
    if key is not None and me is not None and str(exc.params.get("seat")) == str(me):
        key = key + ".you" if has(key + ".you") else key
    if key is not None and has(key):  # err.rule.generic too: a refusal meant to say little
        text = t(locale, key, **rule_params(exc))
    else:
        log.error("bug: rule refusal without a known message id: %s (%s)", exc.message, exc.rule)
        text = t(locale, "err.rule.generic")
    text = text.strip().rstrip(".।")
    return text[:1].upper() + text[1:]


def friendly(exc: BaseException, locale: str = DEFAULT_LOCALE, *, me: object = None) -> str:
    """The message a member sees for a refused action, in ``locale`` (said to ``me``, the
    member's seat id, when known). No rule id: those stay in the logs. Unknown errors get
    a generic line. Each refusal is counted by kind (``bot.metrics``)."""
    METRICS.refused(type(exc).__name__)
    if isinstance(exc, ServiceError):
        return exc.localized(locale)
    if isinstance(exc, RuleError):
        return t(locale, "err.rule", text=rule_text(locale, exc, me=me), rule=exc.rule)
    if isinstance(exc, ConfigError):
        return t(locale, "err.config", detail=config_detail(exc))
    if isinstance(exc, StorageError):
        return catalog_text(locale, exc.key, exc.params, what=str(exc))
    return t(locale, "err.generic")


def config_detail(exc: ConfigError) -> Msg:
    """Why table options were refused, as a catalog message; an engine ``ConfigError``
    without a known id is a bug (logged) and reads "they do not fit together"."""
    if exc.key is not None and has(exc.key):
        return Msg(exc.key, **exc.params)
    log.error("bug: table options refused without a known message id: %s", exc)
    return Msg("err.config.unknown")


def options_error(exc: ValueError) -> ConfigError:
    """The engine's own refusal inside a rules model's validation error (pydantic keeps
    it as the error's ``ctx["error"]``), or a ``ConfigError`` without an id."""
    errors = getattr(exc, "errors", None)
    for error in errors() if callable(errors) else ():
        found = (error.get("ctx") or {}).get("error")
        if isinstance(found, ConfigError):
            return found
    return ConfigError(str(exc).splitlines()[0])
