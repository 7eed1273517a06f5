"""What the replay scenario tests of every game share (``tests/scenarios/<game>/``):
replaying a file through ``python -m engine replay``'s main function or as a
subprocess, the checks every ``expect`` block gets (the exit status and refusal, the
listed top-level keys, chips conserved), and a bad file's error line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    """(exit status, JSON result) of ``main(["replay", path])``, which writes no error."""
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return code, result


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    """``python -m engine replay path``, run from the repository's root."""
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replay_subprocess(path: Path) -> tuple[int, dict[str, Any]]:
    """(exit status, JSON result) of ``python -m engine replay path``."""
    proc = run_replay(path)
    try:
        result: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"exit {proc.returncode}: {proc.stderr}") from None
    return proc.returncode, result


def check_common(
    doc: dict[str, Any], code: int, result: dict[str, Any], keys: Iterable[str]
) -> None:
    """The checks of every game's ``expect`` block: status 2 and the refused action and
    rule when it expects an error (status 0 and no error otherwise), each of ``keys`` it
    lists as expected, and the chips conserved: seats (or bettors), house, escrow and any
    kitty hold what the seats brought."""
    expect = doc["expect"]
    if "error" in expect:
        assert code == 2, result
        assert result["error"]["action"] == expect["error"]["action"]
        assert result["error"]["rule"] == expect["error"]["rule"]
        assert result["error"]["message"]
    else:
        assert code == 0, result.get("error")
        assert "error" not in result
    for key in keys:
        if key in expect:
            assert result[key] == expect[key], (key, result[key], expect[key])
    held = sum(result["balances"].values()) + result["house"] + result["escrow"]
    assert held + result.get("kitty", 0) == sum(doc["balances"].values())


def replay_error(doc: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The error line of replaying ``doc`` from a file: status 1, the line names the
    file, and no traceback."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: "), err
    assert "Traceback" not in err
    return err
