"""The process's log: one line per event, as text or as JSON (``LOG_FORMAT=json``).

Each line carries what the event happened to (``guild``, ``channel``, ``member``,
``shard``, and ``table`` where known) from a context variable that start-up sets when an
interaction arrives, so every line logged while answering it, in the tasks and worker
threads it starts too, names it. The variable holds these ids only and is read by the
log filter only: nothing that plays or answers reaches anything through it (the click
handler is given its interaction and answers it itself). Tasks that outlive one
interaction (timers, the restart check) start with an empty context. No token or secret
reaches a line: the configured secrets are replaced by ``[secret]`` wherever they would
appear.
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

CONTEXT_KEYS = ("guild", "channel", "member", "shard", "table")
_context: contextvars.ContextVar[tuple[tuple[str, int | str], ...]] = contextvars.ContextVar(
    "log_context", default=()
)
# attributes every LogRecord has: anything else on a record came from ``extra=``
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def set_log_context(**values: int | str | None) -> None:
    """Name what the current task (and the tasks it starts) is working on."""
    merged = dict(_context.get())
    merged.update({k: v for k, v in values.items() if v is not None})
    _context.set(tuple(merged.items()))


class ContextFilter(logging.Filter):
    """Adds the context's ids to each record and hides the secrets."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s and len(s) >= 8]

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get():
            if not hasattr(record, key):
                setattr(record, key, value)
        if self.secrets:
            text = record.getMessage()
            if any(secret in text for secret in self.secrets):
                for secret in self.secrets:
                    text = text.replace(secret, "[secret]")
                record.msg, record.args = text, None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the context's ids, any
    ``extra=`` fields, and the exception (type and text) when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value if isinstance(value, int | float | bool) else str(value)
        if record.exc_info and record.exc_info[1] is not None:
            line["error"] = f"{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The plain format, with the context's ids after the message when there are any."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        ids = [f"{k}={getattr(record, k)}" for k in CONTEXT_KEYS if hasattr(record, k)]
        if not ids:
            return text
        first, sep, rest = text.partition("\n")
        return f"{first} [{' '.join(ids)}]{sep}{rest}"


def _not_about_voice(record: logging.LogRecord) -> bool:
    """discord.py warns at every start that voice libraries are missing; the bot has no
    voice, so the warning says nothing to its operator."""
    return "voice will NOT be supported" not in record.getMessage()


def configure_logging(level: str, fmt: str = "text", secrets: Iterable[str] = ()) -> None:
    """Log to stderr at ``level``, as ``fmt`` ("text" or "json")."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(ContextFilter(secrets))
    handler.addFilter(_not_about_voice)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


__all__ = [
    "ContextFilter",
    "JsonFormatter",
    "TextFormatter",
    "configure_logging",
    "set_log_context",
]
