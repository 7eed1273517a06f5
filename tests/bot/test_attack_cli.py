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
