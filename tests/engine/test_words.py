"""The engine's words for the bot: ``Word`` with its values, and the message
ids of table options a rules model refuses (``OptionsError``)."""

from __future__ import annotations

import pydantic
import pytest

from engine.errors import ConfigError, OptionsError, Word
from engine.pontoon import PontoonRules
from engine.punto_banco.rules import PuntoBancoRules


def test_a_word_with_words_inside_round_trips_through_json() -> None:
    word = Word.of("a.b", n=3, seat="s1", inner=Word.of("c.d", total=19), bare=Word("e"))
    assert Word.from_json(word.to_json()) == word
    assert word.to_json()["params"]["inner"] == {"key": "c.d", "params": {"total": 19}}
    assert Word("e").to_json() == {"key": "e"}
    assert hash(word) == hash(
        Word.of("a.b", n=3, seat="s1", inner=Word.of("c.d", total=19), bare=Word("e"))
    )


@pytest.mark.parametrize(
    ("model", "options", "key"),
    [
        (PontoonRules, {"min_bet": 5, "max_bet": 2}, "err.config.bets"),
        (PontoonRules, {"min_bet": 0}, "err.config.bets"),
        (PontoonRules, {"packs": 3}, "err.config.packs"),
        (PontoonRules, {"kitty_min": 9, "kitty_max": 2}, "err.config.kitty"),
        (PontoonRules, {"kitty_min": 0}, "err.config.kitty"),
        (PontoonRules, {"house_bank": True, "shoot": True}, "err.config.house_shoot"),
        (PontoonRules, {"max_seats": 1}, "err.config.seats"),
        (PontoonRules, {"house_stands_on": 1}, "err.config.house_stands"),
        (PontoonRules, {"house_stands_on": 22}, "err.config.house_stands"),
        (PuntoBancoRules, {"min_bet": 9, "max_bet": 2}, "err.config.bets"),
    ],
)
def test_refused_table_options_name_their_message(
    model: type[pydantic.BaseModel], options: dict[str, object], key: str
) -> None:
    with pytest.raises(pydantic.ValidationError) as info:
        model(**options)
    found = info.value.errors()[0]["ctx"]["error"]
    assert isinstance(found, OptionsError) and isinstance(found, ConfigError)
    assert found.key == key


def test_options_at_their_limits_are_accepted() -> None:
    PontoonRules(min_bet=3, max_bet=3, kitty_min=4, kitty_max=4, max_seats=2, house_stands_on=2)
    PontoonRules(packs=2, house_stands_on=21)
    PuntoBancoRules(min_bet=5, max_bet=5)
