"""`python -m bot --version`, and `backup --to` that neither
overwrites a file nor creates folders."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from bot.__main__ import main
from tests.bot.cli_helpers import run_bot


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh database made by `python -m bot init`, run in-process."""
    monkeypatch.chdir(tmp_path)
    for name in ("DATABASE_URL", "BACKUP_DIR", "DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "pontoon.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["init"]) == 0
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    run = run_bot(["--version"], tmp_path / "none.sqlite3")
    assert run.returncode == 0, run.stderr
    from importlib.metadata import version

    assert run.stdout.strip() == f"pontoon-bot {version('pontoon-bot')}"
    assert not (tmp_path / "none.sqlite3").exists()


def test_backup_to_an_existing_file_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "bk.sqlite3"
    assert main(["backup", "--to", str(target)]) == 0
    before = _digest(target)
    capsys.readouterr()
    assert main(["backup", "--to", str(target)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "already exists" in err and len(err.splitlines()) == 1
    assert _digest(target) == before
    # any existing file, not only an earlier backup
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    assert main(["backup", "--to", str(notes)]) == 2
    assert notes.read_text() == "mine"


def test_backup_to_a_missing_folder_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no" / "such" / "bk.sqlite3"
    assert main(["backup", "--to", str(target)]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and str(tmp_path / "no" / "such") in err
    assert not (tmp_path / "no").exists()


def test_backup_to_an_existing_folder_writes_a_new_file(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "keep"
    folder.mkdir()
    assert main(["backup", "--to", str(folder)]) == 0
    assert main(["backup", "--to", str(folder)]) == 0
    assert len(list(folder.glob("pontoon-*.sqlite3"))) == 2
