"""What an owner and a contributor read says what the code does: every game named where
the games are listed, the settings an owner looks for, the programs a contributor needs,
a way to add a message in English only, and the compose file's fixed password explained."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
CONTRIBUTING = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
GAMES = ("pontoon", "punto_banco", "blackjack")


def test_no_document_speaks_of_two_games() -> None:
    for name, text in (("README", README), ("CONTRIBUTING", CONTRIBUTING)):
        flat = re.sub(r"\s+", " ", text)
        found = re.findall(r"\b(?:[Bb]oth games|two games|[Aa] third game)\b", flat)
        assert not found, (name, found)


def test_the_package_description_and_the_layout_name_every_game() -> None:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "Blackjack" in meta["project"]["description"]
    layout = README[README.index("## Layout") :]
    for game in GAMES:
        assert f"engine/{game}/" in layout and f"cogs/{game}/" in layout, game
        assert f"{game}.py" in layout, game


def test_the_readme_names_blackjack_where_channels_are_restricted() -> None:
    step = README[README.index("6. To keep tables to some channels") :][:900]
    assert "`/blackjack`" in step and "Add channels" in step


def test_the_readme_names_the_daily_cooldown_as_a_default_servers_may_change() -> None:
    # the cooldown is per server (/casino settings); the machine's value is its default
    settings = README[README.index("## Settings") :][:2500]
    assert "`DAILY_COOLDOWN_HOURS`" in settings
    assert "only the defaults of a server whose owners set none" in settings


def test_the_readme_says_stats_counts_rounds() -> None:
    assert "are not counted" not in README
    assert "won, lost\n  or pushed" in README or "won, lost or pushed" in README


def test_contributing_names_the_system_programs_the_tests_need() -> None:
    assert "apt-get install chromium gettext" in CONTRIBUTING


def test_contributing_says_how_to_add_a_message_in_english_only() -> None:
    assert "If you write only English" in CONTRIBUTING and "#, fuzzy" in CONTRIBUTING
    assert "untranslated" in CONTRIBUTING


def test_the_compose_files_fixed_password_is_explained_and_not_published() -> None:
    lines = (REPO / "compose.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "POSTGRES_PASSWORD:" in line)
    comment = " ".join(line.strip() for line in lines[at - 4 : at] if line.strip().startswith("#"))
    assert "password" in comment and "ports" in comment, comment
    db = [line for line in lines[lines.index("  db:") : lines.index("  bot:")]]
    assert not [line for line in db if line.strip().startswith("ports:")]  # the promise
