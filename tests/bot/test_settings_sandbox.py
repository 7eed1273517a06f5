"""The sandbox's settings: its address and its own database."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings

NAMES = ("SANDBOX_HOST", "SANDBOX_PORT", "SANDBOX_DATABASE_PATH", "DATABASE_PATH", "DATA_DIR")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults_are_local_and_apart_from_the_real_database(tmp_path: Path) -> None:
    s = Settings(_env_file=None)
    assert s.sandbox_host == "127.0.0.1"
    assert s.sandbox_port == 8765
    assert s.sandbox_database_path == tmp_path / "data" / "sandbox.sqlite3"
    assert s.sandbox_database_path != s.database_path


def test_data_dir_holds_it_and_a_relative_path_is_from_the_working_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "elsewhere"))
    assert Settings(_env_file=None).sandbox_database_path == (
        tmp_path / "elsewhere" / "sandbox.sqlite3"
    )
    monkeypatch.setenv("SANDBOX_DATABASE_PATH", "play/play.sqlite3")
    monkeypatch.setenv("SANDBOX_PORT", "0")
    s = Settings(_env_file=None)
    assert s.sandbox_database_path == tmp_path / "play" / "play.sqlite3"
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
