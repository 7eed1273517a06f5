"""An asyncpg connection that answers the part of aiosqlite's API the Store uses.

The Store's queries are written once, in the SQL both databases understand (``?``
parameters, ``ON CONFLICT``, partial indexes). This adapter runs them on PostgreSQL:

* ``?`` parameters become ``$1, $2, ...``;
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

import re
from collections.abc import Generator, Iterable, Sequence
from functools import lru_cache
from types import TracebackType
from typing import Any

import asyncpg


class UnsupportedSQL(Exception):
    """The Store sent SQL that only SQLite understands and that has no translation."""


_BEGIN = re.compile(
    r"^\s*BEGIN(\s+(IMMEDIATE|DEFERRED|EXCLUSIVE))?\s*(TRANSACTION)?\s*;?\s*$", re.I
)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.I)
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
    """What ``await db.execute(...)`` / ``async with db.execute(...) as cur`` returns."""

    def __init__(self, conn: PgConnection, sql: str, params: Sequence[Any]) -> None:
        self._conn = conn
        self._sql = sql
        self._params = tuple(params)
        self._rows: list[Any] = []
        self._pos = 0
        self.rowcount = -1

    async def _run(self) -> PgCursor:
        self._rows, self.rowcount = await self._conn._run(self._sql, self._params)
        return self

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._run().__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    async def fetchone(self) -> Any:
        if self._pos >= len(self._rows):
            return None
        row = self._rows[self._pos]
        self._pos += 1
        return row

    async def fetchall(self) -> list[Any]:
        rows, self._pos = self._rows[self._pos :], len(self._rows)
        return rows


class PgConnection:
    """One asyncpg connection behind aiosqlite's ``execute``/``executemany``/``close``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn
        self.statements = 0  # statements sent (the benchmark reports it)

    @classmethod
    async def connect(cls, url: str, *, timeout: float = 10.0) -> PgConnection:
        return cls(await asyncpg.connect(url, timeout=timeout))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        return PgCursor(self, sql, params)

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        text, _ = translate(sql)
        args = [tuple(p) for p in seq]
        if args:
            self.statements += 1
            await self.raw.executemany(text, args)

    async def _run(self, sql: str, params: tuple[Any, ...]) -> tuple[list[Any], int]:
        text = " ".join(sql.split())
        if text in _CANNED:
            return list(_CANNED[text]), -1
        pg, returns_rows = translate(sql)
        self.statements += 1
        if returns_rows:
            rows = await self.raw.fetch(pg, *params)
            return list(rows), len(rows)
        status = await self.raw.execute(pg, *params)
        return [], _count(status)

    async def close(self) -> None:
        await self.raw.close()
