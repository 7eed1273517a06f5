"""Domain errors raised by the engines. The bot maps them to friendly ephemeral replies."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, NamedTuple


class EngineError(Exception):
    """Base class of every error the engines raise on purpose."""


class Word(NamedTuple):
    """A value inside a refusal that is itself a catalog message (an action's or a phase's
    name, a hand's result), so the bot can say it in the reader's language too.

    ``key`` is the bot's catalog id; ``params`` its placeholder values as (name, value)
    pairs: numbers, seat ids, or other :class:`Word` s. Build one with :meth:`of`.

    An immutable record (a tuple underneath, like ``Event`` and ``Transfer``: settling a
    round builds several, and a tuple is the cheapest immutable record); read by
    attribute name. Assignment raises ``dataclasses.FrozenInstanceError``."""

    key: str
    params: tuple[tuple[str, object], ...] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    @classmethod
    def of(cls, key: str, /, **params: object) -> Word:
        return cls(key, tuple(params.items()))

    def to_json(self) -> dict[str, Any]:
        """``{"key": ..., "params": {...}}``, a Word inside as its own JSON object."""
        params = {n: v.to_json() if isinstance(v, Word) else v for n, v in self.params}
        return {"key": self.key, "params": params} if params else {"key": self.key}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Word:
        params = d.get("params") or {}
        return cls.of(
            str(d["key"]),
            **{n: cls.from_json(v) if isinstance(v, dict) else v for n, v in params.items()},
        )


class RuleError(EngineError):
    """An action the rules do not allow right now. The state is left untouched.

    ``rule`` is the rule id from docs/rules (e.g. ``P-BUY-2``); ``message`` says in plain
    English why the action was refused (for logs, the CLI and tests). ``key`` is the id of
    the bot's catalog message with the same meaning and ``params`` its placeholder values
    (seat ids as they are, numbers as numbers, :class:`Word` for translatable words).
    """

    def __init__(self, rule: str, message: str, key: str | None = None, **params: object) -> None:
        # Refusals are built often (``legal_actions`` asks the refusal functions), and
        # most are only compared with None: the text is made when it is read.
        self.rule = rule
        self.message = message
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class ConfigError(EngineError):
    """Table options or a replay file that do not make sense.

    The message is plain English (for logs, the CLI and tests). ``key`` and ``params``,
    where given, name the bot's catalog message with the same meaning (like
    :class:`RuleError`); without one the bot says a generic line."""

    def __init__(self, message: str, key: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class OptionsError(ConfigError, ValueError):
    """Table options that do not fit together, raised inside a rules model's validator (a
    ValueError, so pydantic reports it as a validation error and keeps it as the
    error's ``ctx["error"]``)."""
