"""Every catalog file is valid gettext, as GNU ``msgfmt -c`` (and so Weblate, Poedit or
polib) reads it. Babel's reader, which the bot uses, silently drops lines it cannot
place (a ``msgstr`` with no ``msgid``), so the bot's own tests cannot see such a line:
this file checks the files themselves.

``msgfmt`` comes from gettext (Debian's ``gettext`` package; ``.ci/run`` installs it).
Without it the msgfmt check is skipped with the reason, except under ``CI=true``, where it
fails. The structural check below needs nothing and always runs."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.i18n import catalog_files, t

ROOT = Path(__file__).resolve().parents[2]
FILES = catalog_files()
MSGFMT = shutil.which("msgfmt")


def test_the_catalog_files_are_found() -> None:
    # the shared catalogs, in all five languages, are among them
    shared = [p for p in FILES if p.name == "messages.po"]
    assert len(shared) == 5, shared


def stray_msgstr(text: str) -> list[int]:
    """Line numbers of ``msgstr`` lines that do not follow a ``msgid``/``msgid_plural``
    (or a continuation string of one): the error ``msgfmt`` calls a syntax error."""
    found = []
    previous = ""  # keyword of the entry part the last string line belonged to
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            previous = "" if not stripped else previous
            continue
        keyword = stripped.split(" ", 1)[0]
        if keyword.startswith('"'):
            continue  # a continuation of the previous keyword's string
        if keyword.startswith("msgstr") and previous not in ("msgid", "msgid_plural", "msgstr"):
            found.append(number)
        previous = keyword.split("[", 1)[0]
    return found


def test_the_structural_check_finds_a_msgstr_without_msgid() -> None:
    good = 'msgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr ""\n"B"\n'
    assert stray_msgstr(good) == []
    bad = 'msgid "a"\nmsgstr "A"\n\nmsgstr "lost"\n\nmsgid "b"\nmsgstr "B"\n'
    assert stray_msgstr(bad) == [4]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_catalog_has_a_msgstr_without_a_msgid(path: Path) -> None:
    assert stray_msgstr(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_msgfmt_accepts_every_catalog(path: Path) -> None:
    if MSGFMT is None:
        if os.environ.get("CI") == "true":
            pytest.fail("msgfmt (gettext) is missing, but CI=true requires it", pytrace=False)
        pytest.skip("msgfmt (gettext) is not installed")
    done = subprocess.run(
        [MSGFMT, "-c", "--check-format", "-o", os.devnull, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_persian_footer_says_hidden_cards() -> None:
    # the glossary keeps "رو به پایین" for "rounded down" only; a hidden card is پنهان
    text = t("fa", "pt.footer.button")
    assert "پنهان" in text
    assert "رو به پایین" not in text
