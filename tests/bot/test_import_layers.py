"""The import-linter contracts in pyproject.toml name every module of bot/ (lint-imports
checks only the modules they name, so a new module left out would escape the layers)."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path
from typing import Any

import bot

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["type"] + ":" + c["name"]: c for c in config["contracts"]}


def layer_modules(layer: str) -> set[str]:
    return {name.strip() for name in layer.replace("|", ":").split(":")}


def the_layers() -> list[set[str]]:
    (layers,) = [c["layers"] for key, c in contracts().items() if key.startswith("layers:")]
    return [layer_modules(layer) for layer in layers]


def test_every_module_of_bot_is_in_a_layer() -> None:
    named = set().union(*the_layers())
    children = {f"bot.{m.name}" for m in pkgutil.iter_modules(bot.__path__)}
    assert children, "found no modules in bot/"
    assert children - named == set(), "add these to the layers contract in pyproject.toml"


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
