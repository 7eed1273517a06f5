"""A ``.env`` the bot's user cannot read (made by root, mode 600, as the README's first
command makes it, then the bot run as a service user) ends in the one ``error:`` line
every other bad setting gets, exit 2, never a traceback."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.bot.cli_helpers import nobody_python, one_error_line, run_bot_as_nobody


@pytest.mark.parametrize("args", [["init"], ["migrate", "--check"], []], ids=" ".join)
def test_an_env_file_the_bots_user_cannot_read_is_one_error_line(args: list[str]) -> None:
    how = nobody_python()
    if isinstance(how, str):
        pytest.skip(how)
    _, uid, gid, _ = how
    # pytest's tmp_path is in root's private folder: 'nobody' needs a way in
    folder = Path(tempfile.mkdtemp(prefix="env-unreadable-"))
    try:
        os.chmod(folder, 0o755)
        env = folder / ".env"
        env.write_text("STARTING_CHIPS=5\n")
        os.chmod(env, 0o600)  # root's, as `umask 077 && cp .env.example .env` makes it
        data = folder / "data"
        data.mkdir()
        os.chown(data, uid, gid)
        run = run_bot_as_nobody(args, data / "bot.sqlite3", how, cwd=folder)
        line = one_error_line(run)
        assert run.returncode == 2, run
        assert line.startswith("error: cannot read") and ".env" in line, line
        assert "permission denied" in line and "chown or chmod" in line, line
        assert not list(data.iterdir())  # nothing was created before the refusal
    finally:
        shutil.rmtree(folder)
