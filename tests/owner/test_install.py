"""The bot keeps its data where it is run, not where it is installed.

The fast test runs this checkout's bot from an empty folder elsewhere (the package's
folder and the working directory differ, as after ``pip install .``). The full check, a
non-editable ``pip install .`` into a fresh virtual environment (about a minute), is
``scripts/check_install.py``; it runs here when PONTOON_INSTALL_TEST=1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "BACKUP_", "DATA_DIR"))
    }
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env


def bot(args: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=clean_env(**extra),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_run_from_an_empty_folder_creates_the_database_there(tmp_path: Path) -> None:
    before = set((REPO / "data").glob("*")) if (REPO / "data").is_dir() else set()
    done = bot(["init"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "pontoon.sqlite3").is_file()
    assert str(tmp_path / "data" / "pontoon.sqlite3") in done.stdout
    after = set((REPO / "data").glob("*")) if (REPO / "data").is_dir() else set()
    assert after == before  # nothing written next to the package


def test_a_dot_env_in_the_working_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("STARTING_CHIPS=abc\n")
    done = bot(["audit"], tmp_path)
    assert done.returncode == 2 and "STARTING_CHIPS" in done.stderr, done
    (tmp_path / ".env").write_text("DATA_DIR=state\n")
    done = bot(["init"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "state" / "pontoon.sqlite3").is_file()


@pytest.mark.skipif(
    os.environ.get("PONTOON_INSTALL_TEST") != "1",
    reason="a non-editable install takes about a minute: PONTOON_INSTALL_TEST=1 to run it",
)
def test_pip_install_into_a_fresh_venv() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "check_install.py")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
