"""The game registry (bot/games.py): one entry per game, the only place that knows which
games exist; start-up, the audit and the stored tables all go through it."""

from __future__ import annotations

import importlib
import json

import pytest

from bot.games import GAMES, by_name
from bot.host import TableHost


def test_each_game_has_one_name_its_package_and_its_service() -> None:
    names = [game.name for game in GAMES]
    assert names == ["pontoon", "punto_banco"]
    for game in GAMES:
        package = importlib.import_module(game.package)
        assert callable(package.setup) and package.BUTTONS and package.Presenter
        assert by_name(game.name) is game


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


def test_every_service_is_a_table_host() -> None:
    from bot.pontoon import PontoonService
    from bot.punto_banco import PuntoBancoService

    assert issubclass(PontoonService, TableHost) and issubclass(PuntoBancoService, TableHost)
