"""The sandbox's settings: its address and its own database."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import PROJECT_ROOT, Settings

NAMES = ("SANDBOX_HOST", "SANDBOX_PORT", "SANDBOX_DATABASE_PATH", "DATABASE_PATH")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_defaults_are_local_and_apart_from_the_real_database() -> None:
    s = Settings(_env_file=None)
    assert s.sandbox_host == "127.0.0.1"
    assert s.sandbox_port == 8765
    assert s.sandbox_database_path == PROJECT_ROOT / "data" / "sandbox.sqlite3"
    assert s.sandbox_database_path != s.database_path


def test_relative_path_and_free_port(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SANDBOX_DATABASE_PATH", "data/play.sqlite3")
    monkeypatch.setenv("SANDBOX_PORT", "0")
    s = Settings(_env_file=None)
    assert s.sandbox_database_path == PROJECT_ROOT / "data" / "play.sqlite3"
    assert s.sandbox_port == 0


@pytest.mark.parametrize("port", ["-1", "65536", "http"])
def test_bad_ports_are_refused(monkeypatch: pytest.MonkeyPatch, port: str) -> None:
    monkeypatch.setenv("SANDBOX_PORT", port)
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_a_folder_is_not_a_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SANDBOX_DATABASE_PATH", str(tmp_path))
    with pytest.raises(ValidationError):
        Settings(_env_file=None)
