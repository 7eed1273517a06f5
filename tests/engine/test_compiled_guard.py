"""The engine refuses to run stale compiled modules (an editable install after an edit)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import engine


def test_stale_compiled_module_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pontoon").mkdir()
    source = tmp_path / "pontoon" / "table.py"
    built = tmp_path / "pontoon" / "table.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"")
    source.write_text("# edited\n")
    os.utime(built, (1_000_000, 1_000_000))
    os.utime(source, (2_000_000, 2_000_000))
    monkeypatch.setattr(engine, "_HERE", tmp_path)
    with pytest.raises(ImportError, match="pip install -e"):
        engine._check_compiled_modules_are_current()
    os.utime(built, (3_000_000, 3_000_000))  # rebuilt after the edit: fine
    engine._check_compiled_modules_are_current()
