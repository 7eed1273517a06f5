"""Pure game engines for the Pontoon bot: no discord, no asyncio, no I/O, no global random.

The hot modules may be compiled with mypyc at install time (see setup.py). In an editable
install the compiled modules sit next to their sources and Python imports them first, so
an edited source would silently not run: the check below refuses that with a clear
message instead.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_COMPILED_SOURCES = ("cards.py", "pontoon/hands.py", "pontoon/types.py", "pontoon/table.py")


def _check_compiled_modules_are_current() -> None:
    for rel in _COMPILED_SOURCES:
        source = _HERE / rel
        for built in source.parent.glob(source.stem + ".*.so"):
            try:
                stale = source.stat().st_mtime > built.stat().st_mtime
            except OSError:
                continue
            if stale:
                raise ImportError(
                    f"engine/{rel} changed after it was compiled ({built.name}), so the old "
                    "compiled code would run instead of your edit. Run `pip install -e .` "
                    "again (or `PONTOON_PURE=1 pip install -e .` for pure Python)."
                )


_check_compiled_modules_are_current()
