"""An asyncpg connection that answers the part of sqlite3's API the Store uses.

The Store's transactions are plain functions of a connection, run on the store's one
worker thread (``bot.storage.base``); their queries are written once, in the SQL both
databases understand (``?`` parameters, ``ON CONFLICT``, partial indexes, rows read by
column name). :class:`PgConnection` runs them on PostgreSQL: it owns an asyncio event
loop on that worker thread and drives asyncpg with it, one statement at a time, so a
transaction function works unchanged. The translation:

* ``?`` parameters become ``$1, $2, ...``; ``x IN ()`` / ``x NOT IN ()`` (an empty list,
  which PostgreSQL cannot parse) become FALSE / TRUE;
* ``BEGIN IMMEDIATE`` / ``BEGIN DEFERRED`` / ``BEGIN`` start a SERIALIZABLE transaction
  (the Store retries one that PostgreSQL aborts as a serialization failure, see
  ``PgStore``); ``INSERT OR IGNORE`` becomes ``INSERT ... ON CONFLICT DO NOTHING``;
* the few SQLite-only statements have PostgreSQL equivalents: ``typeof(x) = 'integer'``
  is always true of a BIGINT column; ``PRAGMA foreign_key_check`` has nothing to report
  (PostgreSQL enforces foreign keys on every write); ``PRAGMA quick_check`` answers
  ``ok`` (PostgreSQL checksums pages itself); ``sqlite_master`` is looked up in
  ``information_schema``.

A statement the adapter does not know how to run on PostgreSQL fails loudly
(:class:`UnsupportedSQL`), so a new SQLite-only query cannot slip through: the whole
storage test suite runs against both databases.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

import asyncpg


class UnsupportedSQL(Exception):
    """The Store sent SQL that only SQLite understands and that has no translation."""


_BEGIN = re.compile(
    r"^\s*BEGIN(\s+(IMMEDIATE|DEFERRED|EXCLUSIVE))?\s*(TRANSACTION)?\s*;?\s*$", re.I
)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.I)
_EMPTY_NOT_IN = re.compile(r"[\w.]+\s+NOT\s+IN\s*\(\s*\)", re.I)
_EMPTY_IN = re.compile(r"[\w.]+\s+IN\s*\(\s*\)", re.I)
_TYPEOF_INTEGER = re.compile(r"typeof\s*\(\s*[\w.]+\s*\)\s*(<>|!=|=)\s*'integer'", re.I)
_SQLITE_ONLY = re.compile(r"\b(PRAGMA|sqlite_master|typeof|strftime|julianday|INSERT\s+OR)\b", re.I)

# Whole statements with a fixed answer or a fixed PostgreSQL equivalent.
_CANNED: dict[str, list[tuple[Any, ...]]] = {
    "PRAGMA foreign_key_check": [],
    "PRAGMA quick_check": [("ok",)],
    "PRAGMA integrity_check": [("ok",)],
}
_EQUIVALENT = {
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'": (
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_name = 'schema_version'"
    ),
}

SERIALIZABLE = "BEGIN ISOLATION LEVEL SERIALIZABLE"


def _placeholders(sql: str) -> str:
    """``?`` -> ``$n``, leaving quoted text alone."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


@lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, bool]:
    """(PostgreSQL text, returns rows?) of one Store statement."""
    text = " ".join(sql.split())
    if text in _EQUIVALENT:
        return _EQUIVALENT[text], True
    if _BEGIN.match(text):
        return SERIALIZABLE, False
    if _INSERT_OR_IGNORE.match(text):
        text = _INSERT_OR_IGNORE.sub("INSERT INTO", text) + " ON CONFLICT DO NOTHING"
    text = _EMPTY_NOT_IN.sub("TRUE", text)
    text = _EMPTY_IN.sub("FALSE", text)
    text = _TYPEOF_INTEGER.sub(lambda m: "TRUE" if m[1] == "=" else "FALSE", text)
    leftover = _SQLITE_ONLY.search(text)
    if leftover:
        raise UnsupportedSQL(f"no PostgreSQL translation for {leftover[0]!r} in: {sql[:200]}")
    head = text.lstrip("( ").split(" ", 1)[0].upper()
    returns_rows = head in ("SELECT", "WITH", "VALUES") or " RETURNING " in text.upper()
    return _placeholders(text), returns_rows


def _count(status: str) -> int:
    """Rows touched, from a command status such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgCursor:
    """What ``con.execute(...)`` returns: the rows (asyncpg Records, readable by index
    and by column name like ``sqlite3.Row``) and ``rowcount``."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._pos = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._pos >= len(self._rows):
            return None
        row = self._rows[self._pos]
        self._pos += 1
        return row

    def fetchall(self) -> list[Any]:
        rest, self._pos = self._rows[self._pos :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """One asyncpg connection behind sqlite3's ``execute``/``executemany``/
    ``in_transaction``/``close``. Create and use it on one thread only (the store's
    worker thread): it runs its own event loop there."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url = url
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        self.raw: Any = None
        self.broken = False  # set when a call failed on the connection: reconnect next time
        self.statements = 0  # statements sent (the benchmark reports it)

    def run(self, coro: Any) -> Any:
        """Run one asyncpg coroutine to its end on this connection's loop."""
        return self.loop.run_until_complete(coro)

    def connect(self) -> None:
        """(Re)connect: a lost or broken connection is replaced by a new one."""
        if self.raw is not None:
            old, self.raw = self.raw, None
            old.terminate()
        self.raw = self.run(asyncpg.connect(self.url, timeout=self.timeout))
        self.broken = False

    def ensure_connected(self) -> None:
        if self.raw is None or self.broken or self.raw.is_closed():
            self.connect()

    @property
    def in_transaction(self) -> bool:
        return self.raw is not None and not self.raw.is_closed() and self.raw.is_in_transaction()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        text = " ".join(sql.split())
        if text in _CANNED:
            return PgCursor(list(_CANNED[text]), -1)
        pg, returns_rows = translate(sql)
        self.statements += 1
        if returns_rows:
            rows = self.run(self.raw.fetch(pg, *params))
            return PgCursor(list(rows), len(rows))
        status = self.run(self.raw.execute(pg, *params))
        return PgCursor([], _count(status))

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> PgCursor:
        text, _ = translate(sql)
        args = [tuple(p) for p in seq]
        if args:
            self.statements += 1
            self.run(self.raw.executemany(text, args))
        return PgCursor([], len(args))

    def close(self) -> None:
        try:
            if self.raw is not None and not self.raw.is_closed():
                self.run(self.raw.close(timeout=5))
        except Exception:
            if self.raw is not None:
                self.raw.terminate()
        finally:
            self.raw = None
            self.loop.close()
