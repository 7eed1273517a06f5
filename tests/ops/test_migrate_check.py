"""`python -m bot migrate --check`: whether the database is behind the code, read-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.storage.migrations import load_migrations, migrate


def _db_at(path: Path, upto: int) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    migrate(con, load_migrations()[:upto])
    con.close()


def test_behind_up_to_date_and_newer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bot.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(db))
    monkeypatch.chdir(tmp_path)
    known = load_migrations()
    _db_at(db, len(known) - 1)
    before = db.read_bytes()
    assert main(["migrate", "--check"]) == 1
    out = capsys.readouterr().out
    assert f"schema version {len(known) - 1}" in out and known[-1].name in out
    assert db.read_bytes() == before  # nothing applied, nothing written

    _db_at(db, len(known))
    assert main(["migrate", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out

    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO schema_version (version, name, checksum, applied_at) "
            "VALUES (999, 'future', 'x', 'x')"
        )
    assert main(["migrate", "--check"]) == 3
    assert "newer than this code" in capsys.readouterr().err


def test_migrate_without_check_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate"]) == 2
    assert "--check" in capsys.readouterr().err
