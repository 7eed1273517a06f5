"""The import-linter contracts in pyproject.toml name every shared module of bot/
(lint-imports checks only the modules they name, so a new module left out would escape
the layers). They name no game: each game's own modules of bot/ (its service
``bot/<game>.py`` and its parts ``bot/<game>_*.py``, found through the registry) are
held here to the place the contracts would give them, between the registry and the
house-banked tables, and kept free of Discord."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import grimp

import bot
from bot.games import GAMES

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["type"] + ":" + c["name"]: c for c in config["contracts"]}


def layer_modules(layer: str) -> set[str]:
    return {name.strip() for name in layer.replace("|", ":").split(":")}


def the_layers() -> list[set[str]]:
    (layers,) = [c["layers"] for key, c in contracts().items() if key.startswith("layers:")]
    return [layer_modules(layer) for layer in layers]


def game_modules() -> dict[str, str]:
    """Each game's own modules of bot/ (``bot.<game>`` and ``bot.<game>_<part>``) -> its
    name, found through the registry."""
    children = {f"bot.{m.name}" for m in pkgutil.iter_modules(bot.__path__)}
    own = {}
    for game in GAMES:
        for module in children:
            if module == f"bot.{game.name}" or module.startswith(f"bot.{game.name}_"):
                own[module] = game.name
    return own


def test_every_module_of_bot_is_in_a_layer() -> None:
    named = set().union(*the_layers())
    children = {f"bot.{m.name}" for m in pkgutil.iter_modules(bot.__path__)}
    assert children, "found no modules in bot/"
    games = game_modules()
    assert children - named - set(games) == set(), "add these to the layers contract"
    assert not named & set(games), "the contracts in pyproject.toml name no game"


def test_the_contracts_name_no_game() -> None:
    text = PYPROJECT.read_text(encoding="utf-8")
    contracts_part = text[text.index("[tool.importlinter]") : text.index("[tool.mypy]")]
    for game in GAMES:
        assert game.name not in contracts_part, game.name


def test_each_games_service_sits_between_the_registry_and_the_shared_layers() -> None:
    """What the layers contract would say of a game's modules of bot/ if it named them:
    imported only by the registry, the game's own modules and its own Discord package;
    importing only what lies below the game services (and its own modules); never
    reaching Discord, directly or not."""
    graph = grimp.build_graph("bot", "cogs", "engine", include_external_packages=True)
    layers = the_layers()
    below = set().union(*layers[layers.index({"bot.games"}) + 1 :])
    games = game_modules()
    assert set(games.values()) == {g.name for g in GAMES if g.package == f"cogs.{g.name}"}
    wrong = []
    for module, name in sorted(games.items()):
        own = {m for m, n in games.items() if n == name}
        for importer in graph.find_modules_that_directly_import(module):
            if importer not in own | {"bot.games"} and not importer.startswith(f"cogs.{name}."):
                wrong.append(f"{importer} imports {module}")
        for imported in graph.find_modules_directly_imported_by(module):
            top = ".".join(imported.split(".")[:2])
            if imported.split(".")[0] in ("bot", "cogs") and top not in below | own:
                wrong.append(f"{module} imports {imported}")
        if graph.find_shortest_chain(module, "discord") is not None:
            wrong.append(f"{module} reaches discord")
    assert wrong == []


def test_every_module_below_the_cogs_is_kept_free_of_discord() -> None:
    """The layers under the cogs and the forbidden contract's source modules are one list."""
    layers = the_layers()
    below_cogs = set().union(*layers[layers.index({"cogs"}) + 1 : -1])
    (no_discord,) = [
        set(c["source_modules"])
        for c in contracts().values()
        if c["type"] == "forbidden" and c["forbidden_modules"] == ["discord"]
    ]
    assert below_cogs == no_discord


def test_the_independence_contracts_leave_out_shared_modules_only() -> None:
    """``cogs.*`` and ``engine.*`` are independent but for the imports of the shared
    modules listed in ``ignore_imports``: a game's package among them would let every
    other game import it unseen."""
    import cogs
    import engine

    games = {g.package for g in GAMES} | {g.engine_package for g in GAMES}
    for key, contract in contracts().items():
        if not key.startswith("independence:"):
            continue
        (root,) = {m.split(".")[0] for m in contract["modules"]}
        path = {"cogs": cogs.__path__, "engine": engine.__path__}[root]
        children = {f"{root}.{m.name}" for m in pkgutil.iter_modules(path)}
        targets = {line.split("->")[1].strip() for line in contract["ignore_imports"]}
        assert all(
            line.split("->")[0].strip() == f"{root}.**" for line in contract["ignore_imports"]
        )
        assert targets <= children - games, targets & games
