"""Domain errors raised by the engines. The bot maps them to friendly ephemeral replies."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engines raise on purpose."""


class RuleError(EngineError):
    """An action the rules do not allow right now. The state is left untouched.

    ``rule`` is the rule id from shared/rules (e.g. ``P-BUY-2``); ``message`` says in plain
    words why the action was refused.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class ConfigError(EngineError):
    """Table options or a replay file that do not make sense."""
