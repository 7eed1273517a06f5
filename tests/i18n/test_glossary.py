"""docs/glossary.md quotes each language's game words from the seed rule texts: every
quoted word must really be in that language's seed. The seeds are not part of the
repository: CI provides them as ``../shared/seeds`` beside the checkout. They are found
in ``$PONTOON_SEEDS``, ``$PONTOON_SHARED/seeds``, else in a ``shared/seeds`` folder beside
the checkout or beside one of its parents. Where none is found the check is skipped with
that reason, except under ``CI=true``, where it fails: CI must not lose the check."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def find_seeds(root: Path = ROOT, env: str | None = None) -> Path | None:
    """The seed folder: ``PONTOON_SEEDS``, then ``env`` (``PONTOON_SHARED``), then
    ``shared/seeds`` in each parent of ``root`` (nearest first: ``../shared/seeds``)."""
    env = os.environ.get("PONTOON_SHARED") if env is None else env
    named = os.environ.get("PONTOON_SEEDS")
    candidates = [Path(named)] if named else []
    candidates += [Path(env) / "seeds"] if env else []
    candidates += [parent / "shared" / "seeds" for parent in root.parents]
    return next((c for c in candidates if c.is_dir()), None)


SEEDS = find_seeds()
NO_SEEDS = (
    "the seed rule texts are not in this checkout's surroundings: CI provides them as "
    "../shared/seeds; elsewhere set PONTOON_SHARED (the folder holding seeds/) or PONTOON_SEEDS"
)
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


def test_the_seeds_are_found_from_the_env_var_or_a_parent(tmp_path: Path) -> None:
    seeds = tmp_path / "a" / "shared" / "seeds"
    seeds.mkdir(parents=True)
    project = tmp_path / "a" / "b" / "main"
    project.mkdir(parents=True)
    assert find_seeds(project, env="") == seeds
    other = tmp_path / "elsewhere"
    (other / "seeds").mkdir(parents=True)
    assert find_seeds(project, env=str(other)) == other / "seeds"
    lonely = tmp_path / "c" / "main"
    lonely.mkdir(parents=True)
    assert find_seeds(lonely, env="") is None


def seeds() -> Path:
    """The seed folder; where there is none, a skip that says why (a failure under CI)."""
    if SEEDS is not None:
        return SEEDS
    if os.environ.get("CI") == "true":
        pytest.fail(NO_SEEDS)
    pytest.skip(NO_SEEDS)


def test_without_the_seeds_the_check_skips_with_the_reason_but_fails_under_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(f"{__name__}.SEEDS", None)
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match=r"CI provides them as \.\./shared/seeds"):
        seeds()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="PONTOON_SHARED"):
        seeds()


@pytest.mark.parametrize("lang", sorted(COLUMNS))
def test_every_quoted_word_is_in_the_seed(lang: str) -> None:
    text = " ".join(
        p.read_text(encoding="utf-8")
        for p in sorted(seeds().iterdir())
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


# ------------------------------------------------ each language's reviewed word choices
LANG_GLOSSARY = ROOT / "docs" / "glossary"


def _choices(lang: str) -> list[tuple[str, str, list[str]]]:
    """(term, chosen word, words not used) of docs/glossary/<lang>.md."""
    lines = [
        ln
        for ln in (LANG_GLOSSARY / f"{lang}.md").read_text(encoding="utf-8").splitlines()
        if ln.startswith("|")
    ]
    out = []
    for line in lines[2:]:
        term, _seed, chosen, not_used, _why = [c.strip() for c in line.strip("|").split("|")]
        rejected = [] if not_used == "—" else [w.strip() for w in not_used.split(",")]
        out.append((term, re.split(r" \(|, ", chosen)[0], rejected))
    return out


@pytest.mark.parametrize("lang", sorted(COLUMNS))
def test_no_glossary_term_is_translated_two_ways(lang: str) -> None:
    """A word the review replaced appears nowhere in the catalog (not even in a command
    name or description), and the word chosen instead is there."""
    from bot.i18n import catalog

    texts = catalog(lang)
    rows = _choices(lang)
    assert len(rows) >= 8
    for term, chosen, rejected in rows:
        for word in rejected:
            hits = [k for k, v in texts.items() if uses_word(word, v)]
            assert not hits, f"{lang}: {term}: „{word}“ still in {hits[:5]}"
        if rejected:
            assert any(chosen in v for v in texts.values()), f"{lang}: {term}: no „{chosen}“"


def uses_word(word: str, text: str) -> bool:
    """``word`` starts a word of ``text``, in any case; ``_`` separates words, as in the
    option names of the command picker (``kätzchen_min``, ``force_ponton``)."""
    return re.search(r"(?<![^\W_])" + re.escape(word), text, re.IGNORECASE) is not None


def test_the_two_ways_check_fails_on_a_rejected_word() -> None:
    assert uses_word("Kätzchen", "das Kätzchen ist leer")
    assert not uses_word("Ponton", "Pontoon-Tisch")
    # option names: lower case, words joined by "_"
    assert uses_word("Kätzchen", "kätzchen_min")
    assert uses_word("Paket", "pakete")
    assert uses_word("ponton", "force_ponton")
    assert not uses_word("ponton", "force_pontoon")


def test_french_speaks_in_one_register() -> None:
    """vous throughout (a table message mixed « votre » and « ta » in one sentence)."""
    from bot.i18n import catalog

    found = {k: v for k, v in catalog("fr").items() if says_tu(v)}
    assert not found


#: tu forms: pronouns, t’ before a verb, the imperatives a table text would use
TU = re.compile(
    r"(?<![\w’'])(?:tu|te|ton|ta|tes|toi|tien|tienne|tiens|tiennes)(?!\w)"
    r"|(?<![\w’'])t[’'](?=\w|\W|$)"
    # an imperative starts the text or a clause ("le banquier appuie" is the third person)
    r"|(?:^|[.;:,—!?(«]\s*)(?:appuie|utilise|retire|choisis|attends|mise des|rejoins|tape"
    r"|clique|essaie|reviens|regarde|quitte|vends|achète|prends)(?!\w)",
    re.IGNORECASE,
)


def says_tu(text: str) -> bool:
    return TU.search(text) is not None


def test_the_register_check_catches_tu_imperatives_and_elisions() -> None:
    # the seven entries the 2026-11-28 review found, as they read before
    for text in (
        "appuie sur **Rejoindre** pour t’asseoir",
        "quand tout le monde est là, appuie sur **Distribuer**.",
        "Carte achetée pour {amount} — elle t’arrive face cachée.",
        "utilise ceci dans un salon de serveur.",
        "une mise de 0 jeton n’est pas une mise ; retire-la plutôt",
        "mise des multiples de {multiple} sur Banco",
        "les jetons de qui (par défaut : les tiens)",
    ):
        assert says_tu(text), text
    for text in (
        "appuyez sur **Rejoindre** pour vous asseoir",
        "la mise est rendue",
        "Misez des **multiples de 20**",
        "C’est le tour de {name}.",
        "une mise de 0 jeton n’est pas une mise ; retirez-la plutôt",
        "puis le banquier appuie sur **Distribuer**",
        "💵 {who} achète une carte",
    ):
        assert not says_tu(text), text
