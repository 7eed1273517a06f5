"""Optional mypyc build of the Pontoon engine's hot modules (the rest lives in pyproject.toml).

The pure-Python sources stay the source of truth: mypyc compiles the same files into
extension modules that Python imports instead of the ``.py`` files. When mypyc or a C
compiler is missing, compilation fails, or ``PONTOON_PURE=1`` is set, the package
installs as plain Python and behaves the same (only slower).

Editable installs put the compiled modules next to the sources (engine/*.so), and Python
imports those first: after editing a compiled module, run ``pip install -e .`` again (or
``PONTOON_PURE=1 pip install -e .``, which removes them) or the edit has no effect. Compiled classes are stricter than the
sources at their edges: wrong argument types raise TypeError, Action/LegalAction/Hand/
Pack/Table cannot be copied or pickled, and a Table takes no extra attributes or weakrefs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules on the hot path of Table.apply; everything else stays interpreted.
COMPILED = [
    "engine/cards.py",
    "engine/pontoon/hands.py",
    "engine/pontoon/types.py",
    "engine/pontoon/table.py",
]
# Python imports the shared runtime of the compiled modules as this submodule of engine.
GROUP = "engine._compiled"


def _warn(msg: str) -> None:
    print(f"pontoon-bot: {msg}; installing the engine as pure Python", file=sys.stderr)


def _remove_inplace_builds() -> None:
    """Drop compiled modules an earlier editable install left next to the sources."""
    here = Path(__file__).resolve().parent
    stems = [GROUP.replace(".", "/") + "__mypyc", *(p.removesuffix(".py") for p in COMPILED)]
    for stem in stems:
        path = here / stem
        for built in path.parent.glob(path.name + ".*.so"):
            built.unlink()


def _ext_modules() -> list[Any]:
    if os.environ.get("PONTOON_PURE", "") not in ("", "0"):
        _remove_inplace_builds()
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify(COMPILED, opt_level="3", group_name=GROUP))
    except BaseException as exc:  # mypy/mypyc may also sys.exit()
        if isinstance(exc, KeyboardInterrupt):
            raise
        _warn(f"mypyc compilation skipped ({type(exc).__name__}: {exc})")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python when compiling the C code fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler or linker failure
            _warn(f"building the compiled engine failed ({type(exc).__name__}: {exc})")
            self._remove_partial()
            self.extensions = []

    def _remove_partial(self) -> None:
        # A compiled module without its shared runtime cannot import: drop them all.
        for ext in self.extensions:
            for path in (self.get_ext_fullpath(ext.name), self._inplace_path(ext.name)):
                Path(path).unlink(missing_ok=True)

    def _inplace_path(self, name: str) -> str:
        build_py = self.get_finalized_command("build_py")
        parts = name.split(".")
        package_dir = os.path.abspath(build_py.get_package_dir(".".join(parts[:-1])))
        return os.path.join(package_dir, os.path.basename(self.get_ext_filename(name)))

    def get_outputs(self) -> list[str]:
        return [p for p in super().get_outputs() if os.path.exists(p)]


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
