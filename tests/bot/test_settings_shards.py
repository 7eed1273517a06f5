"""SHARD_COUNT / SHARD_IDS settings and the shard plan built from them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from bot.sharding import ShardPlan, shard_of


def test_unset_means_one_plain_unsharded_process() -> None:
    s = Settings(_env_file=None)
    assert not s.sharded and s.own_shards == (0,)
    plan = ShardPlan.from_settings(s)
    assert plan.everything and plan.owns(123 << 22)


def test_shard_ids_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3, 1")
    s = Settings(_env_file=None)
    assert s.sharded and s.shard_count == 4 and s.shard_ids == (1, 3)
    plan = ShardPlan.from_settings(s)
    assert not plan.everything
    assert [plan.owns(n << 22) for n in range(4)] == [False, True, False, True]


def test_shard_count_alone_runs_every_shard() -> None:
    s = Settings(_env_file=None, shard_count=3)
    assert s.own_shards == (0, 1, 2)


@pytest.mark.parametrize(
    ("count", "ids", "words"),
    [
        (None, "0", "needs SHARD_COUNT"),
        ("2", "2", "outside 0..1"),
        ("2", "0,0", "twice"),
        ("2", "one", "shard numbers"),
        ("0", None, "greater than or equal to 1"),
    ],
)
def test_bad_shard_settings_are_refused_clearly(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str | None, words: str
) -> None:
    for name, value in (("SHARD_COUNT", count), ("SHARD_IDS", ids)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=words):
        Settings(_env_file=None)


def test_discords_shard_formula() -> None:
    guild = 81384788765712384  # Discord's documented example snowflake
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 16) == (guild >> 22) % 16
    with pytest.raises(ValueError):
        shard_of(guild, 0)


@pytest.mark.parametrize(
    ("command", "instead"),
    [(["init"], "createdb"), (["backup"], "pg_dump"), (["restore", "x.sqlite3"], "pg_restore")],
)
def test_sqlite_file_commands_refuse_a_postgres_database(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    instead: str,
) -> None:
    from bot.__main__ import main

    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@127.0.0.1:1/nowhere")
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL names a PostgreSQL one" in err and instead in err


def test_database_url_must_be_postgres() -> None:
    with pytest.raises(ValidationError, match="must be a PostgreSQL URL"):
        Settings(_env_file=None, database_url="mysql://x@y/z")
    s = Settings(_env_file=None, database_url="postgresql://bot:secret@db:5432/pontoon")
    assert s.postgres_url() == "postgresql://bot:secret@db:5432/pontoon"
    assert "secret" not in repr(s)
