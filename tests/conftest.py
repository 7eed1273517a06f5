"""Fixtures shared by every test directory: PostgreSQL databases of their own.

PostgreSQL tests use the server at ``PONTOON_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/test``). Each test session creates its own
database ``pontoon_<random>`` and drops it at the end, and each test gets a fresh schema
in it, so parallel runs never collide. Where no server answers, those tests are skipped
with the reason, except under CI (``CI=true``), where such a skip is a failure: CI must
really test the PostgreSQL backend.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Coroutine, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest

PG_SERVER = os.environ.get("PONTOON_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
PG_SKIP = "PostgreSQL not reachable"
T = TypeVar("T")


def _with_database(url: str, database: str, **query: str) -> str:
    parts = urlsplit(url)
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return urlunsplit(parts._replace(path="/" + database, query=q))


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a loop of its own (fixtures may be set up while the
    test's event loop is running)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_SERVER, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """URL of a database created for this test session (dropped at its end)."""
    name = f"pontoon_{secrets.token_hex(6)}"
    import asyncpg

    try:
        _run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        pytest.skip(f"{PG_SKIP} at {PG_SERVER}: {type(exc).__name__}: {exc}")
    try:
        yield _with_database(PG_SERVER, name)
    finally:
        _run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _create_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()


def new_schema_url(pg_database: str) -> str:
    """A new empty schema in the session's database; its URL (``search_path`` set)."""
    schema = f"t_{secrets.token_hex(6)}"
    _run(_create_schema(pg_database, schema))
    return _with_database(pg_database, urlsplit(pg_database).path.lstrip("/"), search_path=schema)


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """URL of an empty schema of its own for this test."""
    return new_schema_url(pg_database)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.skipped and os.environ.get("CI") == "true" and PG_SKIP in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid}: skipped because {PG_SKIP}, but CI=true requires PostgreSQL "
            f"(start it at {PG_SERVER} or set PONTOON_TEST_POSTGRES): {report.longrepr}"
        )
    return report


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist's default ``--dist load`` (``-n 2`` in pyproject's addopts): hand
    the tests to the workers one at a time, in collection order, as each worker is nearly
    done. Each worker then runs its tests in collection order, so the end-to-end tests on
    a shared bot come after that worker's other end-to-end tests (as tests/e2e/conftest.py
    orders them), and no worker is left with a long batch while the other idles."""
    if config.getvalue("dist") != "load":
        return None  # a --dist asked for on the command line
    from xdist.scheduler import LoadScopeScheduling

    class InOrder(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid  # every test a unit of its own

    config.option.loadscopereorder = False  # keep collection order
    return InOrder(config, log)
