"""Domain errors raised by the engines. The bot maps them to friendly ephemeral replies."""

from __future__ import annotations

from dataclasses import dataclass


class EngineError(Exception):
    """Base class of every error the engines raise on purpose."""


@dataclass(frozen=True)
class Word:
    """A value inside a refusal that is itself a catalog message (an action's or a phase's
    name), so the bot can say it in the reader's language too."""

    key: str


class RuleError(EngineError):
    """An action the rules do not allow right now. The state is left untouched.

    ``rule`` is the rule id from docs/rules (e.g. ``P-BUY-2``); ``message`` says in plain
    English why the action was refused (for logs, the CLI and tests). ``key`` is the id of
    the bot's catalog message with the same meaning and ``params`` its placeholder values
    (seat ids as they are, numbers as numbers, :class:`Word` for translatable words).
    """

    def __init__(self, rule: str, message: str, key: str | None = None, **params: object) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
        self.key = key
        self.params = params


class ConfigError(EngineError):
    """Table options or a replay file that do not make sense."""
