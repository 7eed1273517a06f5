"""docs/glossary.md quotes each language's game words from the seed rule texts: every
quoted word must really be in that language's seed. The seeds are not part of the
repository: they are looked for in PONTOON_SEEDS, else in ``shared/seeds`` beside the
repository or beside any folder above it (a git worktree lives deeper than the clone);
skipped where there are none, e.g. a fresh clone on CI."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def find_seeds() -> Path:
    """The seed folder: PONTOON_SEEDS, else the nearest ``shared/seeds`` beside the
    repository or one of the folders above it (a missing path when there is none)."""
    named = os.environ.get("PONTOON_SEEDS")
    if named:
        return Path(named)
    for folder in ROOT.parents:
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return ROOT.parent / "shared" / "seeds"


SEEDS = find_seeds()
GLOSSARY = ROOT / "docs" / "glossary.md"
#: glossary column -> seed files (by number prefix)
COLUMNS = {"de": ("000", "004"), "fr": ("001",), "fa": ("002",), "hi": ("003",)}
QUOTED = re.compile(r"„([^“]+)“")


def _rows() -> list[tuple[str, dict[str, str]]]:
    lines = [ln for ln in GLOSSARY.read_text(encoding="utf-8").splitlines() if ln.startswith("|")]
    head = [c.strip().split(" ")[0] for c in lines[0].strip("|").split("|")]
    out = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        out.append((cells[0], dict(zip(head, cells, strict=True))))
    return out


def test_the_glossary_has_the_terms_the_issue_names() -> None:
    terms = {term for term, _ in _rows()}
    needed = {"pontoon", "five card trick", "buy", "twist", "stick", "bust", "banker"}
    needed |= {"kitty", "Punto", "Banco", "Egalité", "commission", "deal", "shoot (bet)"}
    assert needed <= terms, needed - terms


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not next to the repo")
@pytest.mark.parametrize("lang", sorted(COLUMNS))
def test_every_quoted_word_is_in_the_seed(lang: str) -> None:
    text = " ".join(
        p.read_text(encoding="utf-8")
        for p in sorted(SEEDS.iterdir())
        if p.name.split("_")[0] in COLUMNS[lang]
    )
    squash = re.sub(r"\s+", " ", text).replace("\u200c", "").lower()
    quoted = 0
    for term, cells in _rows():
        for word in QUOTED.findall(cells[lang]):
            quoted += 1
            probe = re.sub(r"\s+", " ", word).replace("\u200c", "").lower()
            assert probe in squash, f"{term} ({lang}): „{word}“ is not in the seed"
    assert quoted >= 10
