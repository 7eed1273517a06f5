"""The tests' fourth game, High Card, joins the bot without an edit of a shared file:
nothing outside tests/ names it, and once registered (:func:`registered`, as ``python
-m tests.fourth_game.launch`` does before the bot starts) start-up, the router, /help,
the casino panel, the settings and the catalogs all find it through the registry. Its
round through the real bot process is tests/e2e/test_fourth_game_e2e.py; its rules go
through the conformance test every game gets (tests/engine/test_conformance.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.games import GAMES, Game, by_name, register
from tests.fourth_game.registry import HIGHCARD, registered

ROOT = Path(__file__).resolve().parents[2]
#: how the fourth game is named anywhere (its name, title, package, settings' prefix)
ITS_NAMES = ("highcard", "high card", "high_card", "fourth_game", "hc:", "hcm:")


def test_no_shared_file_names_the_fourth_game() -> None:
    """Every tracked file outside tests/ (code, settings, contracts, catalogs, the
    sandbox) is free of High Card: it was added without editing any of them. (The docs
    may point to it as the worked example of CONTRIBUTING.md's "Adding a game".)"""
    tracked = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    shared = [f for f in tracked if f and not f.startswith("tests/") and not f.endswith(".md")]
    assert "bot/games.py" in shared and "pyproject.toml" in shared and ".env.example" in shared
    found = []
    for name in shared:
        path = ROOT / name
        if not path.is_file() or path.suffix in (".png", ".ico", ".sqlite3"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        found += [f"{name}: {word}" for word in ITS_NAMES if word in text]
    assert found == []


def test_the_check_would_see_the_game_named() -> None:
    """The scan above is not empty-handed by construction: the game's own files say
    its names."""
    own = (ROOT / "tests/fourth_game/cogs/highcard/commands.py").read_text().lower()
    assert "highcard" in own and "high card" in own


def test_registered_it_is_found_everywhere_then_gone() -> None:
    import importlib

    from bot.__main__ import game_sections, sandbox_channels
    from bot.i18n import catalog, t
    from cogs.casino.panel import game_sections as panel_sections
    from cogs.help import help_groups
    from cogs.router import game_package, registered_buttons, registered_forms

    assert HIGHCARD not in GAMES
    assert "hc.title" not in catalog("en")
    with registered():
        assert by_name("highcard") is HIGHCARD
        package = importlib.import_module(HIGHCARD.package)
        assert set(package.BUTTONS) <= set(registered_buttons())
        assert set(package.FORMS) <= set(registered_forms())
        assert game_package(package.BUTTONS[0]) is package
        assert any("highcard start" in group.paths for group in help_groups())
        assert package.LIMITS in [section.limits for section in panel_sections()]
        assert package.Settings in game_sections()
        assert sandbox_channels()[-1] == "highcard"  # its channel in the sandbox
        # its words, in English; another language falls back to them (no catalog of its own)
        assert t("en", "hc.title", round=2) == "High Card, round 2"
        assert t("de", "hc.title", round=2) == "High Card, round 2"
    assert HIGHCARD not in GAMES
    assert "hc.title" not in catalog("en")
    with pytest.raises(ValueError):
        by_name("highcard")


def test_a_second_game_of_the_same_name_or_group_is_refused() -> None:
    with registered():
        with pytest.raises(ValueError, match="already registered"):
            register(HIGHCARD)
        with pytest.raises(ValueError, match="already registered"):
            register(
                Game(
                    "other",
                    "Other",
                    HIGHCARD.build_service,
                    HIGHCARD.holdings,
                    command="highcard",
                    cogs=HIGHCARD.cogs,
                )
            )
    with pytest.raises(ValueError, match="no package"):
        register(
            Game(
                "nowhere",
                "Nowhere",
                HIGHCARD.build_service,
                HIGHCARD.holdings,
                cogs="tests.fourth_game.no_such_package",
            )
        )
    assert HIGHCARD not in GAMES and all(g.name != "nowhere" for g in GAMES)


async def test_start_up_builds_it_from_the_registry(tmp_path: Path) -> None:
    """make_bot builds its service and presenter like every other game's, under its name."""
    from bot.app import make_bot
    from bot.settings import Settings
    from bot.storage import Store
    from tests.fourth_game.bot.highcard import HighCardService

    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        with registered():
            bot = make_bot(Settings(_env_file=None, database_path=tmp_path / "db.sqlite3"), store)
            assert isinstance(bot.games["highcard"], HighCardService)
            assert type(bot.presenters["highcard"]).__name__ == "HighCardPresenter"
            await bot.close()
    finally:
        await store.close()
