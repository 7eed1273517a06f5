"""Hidden-battery attacks on the operator's commands (issue 10, other parameters).

Each test runs ``python -m bot ...`` as an operator would and fails on the code before
the fix that it names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.cli_helpers import one_error_line, run_bot


@pytest.mark.parametrize("command", [["audit"], ["backup"], ["init"], []])
def test_a_directory_at_database_path_is_one_error_line_for_every_command(
    tmp_path: Path, command: list[str]
) -> None:
    """DATABASE_PATH naming a directory: `audit` used to die with a pydantic traceback
    (exit 1); every command now reads its settings through one loader."""
    folder = tmp_path / "data"
    folder.mkdir()
    run = run_bot(command, folder)
    assert run.returncode == 2, run
    line = one_error_line(run)
    assert "DATABASE_PATH" in line and "directory" in line, line
    assert list(folder.iterdir()) == []  # nothing created inside it


HOLD = (
    "import sys, time\n"
    "from bot.storage.lock import ProcessLock\n"
    "ProcessLock.acquire(sys.argv[1])\n"
    "print('held', flush=True)\n"
    "time.sleep(60)\n"
)


@pytest.mark.parametrize("spelling", ["hard link", "symlink", "relative path, other cwd"])
def test_a_second_bot_on_another_name_of_the_same_database_is_refused(
    tmp_path: Path, spelling: str
) -> None:
    """Bot A holds data/bot.sqlite3; bot B is started on another name of that file. A
    hard link used to get its own sidecar lock and start (two writers on one ledger):
    the database file itself is now locked too."""
    import os
    import subprocess
    import sys

    from tests.bot.cli_helpers import REPO, bot_env

    data = tmp_path / "data"
    data.mkdir()
    db = data / "bot.sqlite3"
    assert run_bot(["init"], db).returncode == 0
    other = tmp_path / "elsewhere"
    other.mkdir()
    cwd = REPO
    if spelling == "hard link":
        name = other / "same.sqlite3"
        os.link(db, name)
    elif spelling == "symlink":
        name = other / "same.sqlite3"
        name.symlink_to(db)
    else:
        # a relative DATABASE_PATH is taken from the project folder, whatever the cwd
        name, cwd = Path(os.path.relpath(db, REPO)), other
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=bot_env(db),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for args in ([], ["restore", str(db)]):
            second = subprocess.run(
                [sys.executable, "-m", "bot", *args],
                env=bot_env(name),
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert second.returncode == 3, second
            line = one_error_line(second)
            assert "in use by another bot process" in line, line
    finally:
        holder.kill()
        holder.wait()
