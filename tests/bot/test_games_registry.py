"""The game registry (bot/games.py): one entry per game, the only place that knows which
games exist; start-up, the audit and the stored tables all go through it."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import typing
from pathlib import Path

import pytest

from bot.games import GAMES, by_name
from bot.host import TableHost


def test_each_game_has_one_name_its_package_and_its_service() -> None:
    """Read from the registry itself: every entry has its own name and slash group, its
    Discord package exports what start-up needs, and its service is a table host."""
    names = [game.name for game in GAMES]
    assert names and len(set(names)) == len(names)
    assert len({game.group for game in GAMES}) == len(GAMES)
    for game in GAMES:
        package = importlib.import_module(game.package)
        assert callable(package.setup) and package.BUTTONS and package.Presenter
        assert by_name(game.name) is game
        service = typing.get_type_hints(game.build_service)["return"]
        assert issubclass(service, TableHost), (game.name, service)
        assert service.game == game.name


def test_every_game_package_in_cogs_is_registered() -> None:
    """A game's Discord package (a package of cogs/ with a ``Presenter`` and ``BUTTONS``)
    left out of the registry would never be loaded: the folders and the registry agree."""
    cogs = Path(__file__).resolve().parents[2] / "cogs"
    found = set()
    for folder in cogs.iterdir():
        if (folder / "__init__.py").is_file():
            package = importlib.import_module(f"cogs.{folder.name}")
            if hasattr(package, "Presenter") and hasattr(package, "BUTTONS"):
                found.add(package.__name__)
    assert found and found == {game.package for game in GAMES if game.package.startswith("cogs.")}


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        by_name("poker")


def test_the_audit_reads_a_saved_table_through_its_game() -> None:
    from bot.audit import saved_table
    from engine.pontoon import PontoonRules, Table

    table = Table(PontoonRules(), seats=["1"], balances={"1": 500})
    state = '{"engine": %s, "meta": {}}'

    held = saved_table("pontoon", state % json.dumps(table.to_json()))
    assert held is not None and held.in_play == frozenset({1}) and held.escrow == 0
    with pytest.raises(ValueError):
        saved_table("baccarat", state % "{}")  # renamed by migration 007
    assert saved_table("pontoon", "not json") is None


def _game_words() -> set[str]:
    """Each game's name and title, as words to look for (``punto_banco``, ``puntobanco``)."""
    words = set()
    for game in GAMES:
        words |= {game.name, game.name.replace("_", ""), game.title.replace(" ", "").lower()}
        words.add(game.group)
    return words


def _imported_modules(module: object) -> set[str]:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def test_the_shared_bot_type_names_no_game() -> None:
    """A third game needs nothing in cogs/common.py: ``GameBot`` carries every game's
    service and presenter by registry name (``games`` / ``presenters``), no attribute and
    no type of one game, and the shared module imports no game's code."""
    from cogs import common

    annotations = inspect.get_annotations(common.GameBot)
    assert {"games", "presenters"} <= set(annotations)
    words = _game_words()
    for attribute, annotation in annotations.items():
        said = f"{attribute} {annotation}".lower().replace("_", "")
        assert not any(word.replace("_", "") in said for word in words), (attribute, annotation)
    for game in GAMES:
        for module in _imported_modules(common):
            assert not module.startswith((f"bot.{game.name}", f"cogs.{game.name}")), module


async def test_start_up_gives_the_bot_no_attribute_named_after_a_game(tmp_path: Path) -> None:
    """bot/app.py builds every game from the registry into ``games`` / ``presenters``
    only (no ``bot.pontoon``, no ``bot.presenter``) and imports no game's code."""
    from bot import app
    from bot.settings import Settings
    from bot.storage import Store

    for game in GAMES:
        for module in _imported_modules(app):
            assert not module.startswith((f"bot.{game.name}", f"cogs.{game.name}")), module
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        bot = app.make_bot(Settings(_env_file=None, database_path=tmp_path / "db.sqlite3"), store)
        assert set(bot.games) == set(bot.presenters) == {game.name for game in GAMES}
        for game in GAMES:
            assert not hasattr(bot, game.name), game.name
        assert not hasattr(bot, "presenter")
        await bot.close()
    finally:
        await store.close()
