"""What a container or a packager does: ``pip install .`` (not editable) into a fresh
virtual environment, then run the bot from an empty folder. Checks that

* ``python -m bot --version`` answers;
* ``python -m bot init`` creates the database in that folder (``./data/pontoon.sqlite3``),
  not inside site-packages;
* a ``.env`` in that folder is read (a bad value in it is refused with one line, exit 2);
* ``DATA_DIR`` moves the data;
* the installed package carries its licence (MIT).

Prints what it checked and exits 0, or 1 on the first failure. Takes about a minute
(the install builds a wheel).

    python scripts/check_install.py [--keep]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"FAILED ({done.returncode}): {' '.join(cmd)}\n{done.stdout}{done.stderr}")
    return done.stdout + done.stderr


def clean_env(**extra: str) -> dict[str, str]:
    import os

    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "BACKUP_", "DATA_DIR", "PYTHONPATH"))
    }
    env.update(extra)
    return env


def check(tmp: Path) -> None:
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp)
    python = str(venv / "bin" / "python")
    run([python, "-m", "pip", "install", "-q", str(REPO)], tmp)
    print("installed (not editable) into", venv)

    here = tmp / "empty"
    here.mkdir()
    out = run([python, "-m", "bot", "--version"], here, clean_env())
    assert out.startswith("pontoon-bot "), out
    print("--version:", out.strip())

    out = run([python, "-m", "bot", "init"], here, clean_env())
    db = here / "data" / "pontoon.sqlite3"
    assert db.is_file(), out
    site = run([python, "-c", "import bot; print(bot.__file__)"], tmp, clean_env())
    assert not (Path(site.strip()).parents[1] / "data").exists(), "data inside site-packages"
    print("init created", db)

    (here / ".env").write_text("STARTING_CHIPS=abc\n")
    bad = subprocess.run(
        [python, "-m", "bot", "audit"],
        cwd=here,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "STARTING_CHIPS" in bad.stderr, bad
    print(".env in the working folder is read:", bad.stderr.strip())
    (here / ".env").unlink()

    out = run([python, "-m", "bot", "init"], here, clean_env(DATA_DIR="state"))
    assert (here / "state" / "pontoon.sqlite3").is_file(), out
    print("DATA_DIR=state created", here / "state" / "pontoon.sqlite3")

    meta = run([python, "-m", "pip", "show", "pontoon-bot"], tmp, clean_env())
    assert "License: MIT" in meta, meta
    print("licence: MIT")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ns = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pontoon-install-"))
    try:
        check(tmp)
    except (AssertionError, SystemExit) as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if not ns.keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept", tmp)
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
