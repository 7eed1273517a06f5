"""Blackjack's own section of the settings (``BLACKJACK_…``): its names, its defaults,
what the service is built with, and values out of range refused at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.blackjack import BlackjackTimers
from bot.settings import Settings, env_names
from cogs.blackjack.settings import BlackjackSettings

ENV_EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def test_blackjack_reads_its_own_names_with_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BLACKJACK_BETTING_SECONDS", "BLACKJACK_TURN_SECONDS", "BLACKJACK_IDLE_MINUTES"):
        monkeypatch.delenv(name, raising=False)
    timers = Settings(_env_file=None).section(BlackjackSettings).timers()
    # 30 s windows, 45 s turns, 1.5 minutes of empty windows: three windows
    assert timers == BlackjackTimers(betting_seconds=30, turn_seconds=45, idle_windows=3)
    current, old = env_names(BlackjackSettings)
    assert current == {
        "BLACKJACK_BETTING_SECONDS": "betting_seconds",
        "BLACKJACK_TURN_SECONDS": "turn_seconds",
        "BLACKJACK_IDLE_MINUTES": "idle_minutes",
    }
    assert old == {}


def test_the_environment_sets_the_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLACKJACK_BETTING_SECONDS", "20")
    monkeypatch.setenv("BLACKJACK_TURN_SECONDS", "15")
    monkeypatch.setenv("BLACKJACK_IDLE_MINUTES", "5")
    timers = BlackjackSettings(_env_file=None).timers()  # type: ignore[call-arg]
    assert timers == BlackjackTimers(betting_seconds=20, turn_seconds=15, idle_windows=15)
    monkeypatch.setenv("BLACKJACK_IDLE_MINUTES", "0.05")  # 3 s: still two windows
    assert BlackjackSettings(_env_file=None).timers().idle_windows == 2  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BLACKJACK_BETTING_SECONDS", "4"),  # below what /blackjack start allows
        ("BLACKJACK_BETTING_SECONDS", "3601"),
        ("BLACKJACK_TURN_SECONDS", "0"),
        ("BLACKJACK_IDLE_MINUTES", "0"),
    ],
)
def test_values_out_of_range_are_refused(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        BlackjackSettings(_env_file=None)  # type: ignore[call-arg]


def test_the_example_file_names_every_blackjack_setting() -> None:
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    for name in env_names(BlackjackSettings)[0]:
        assert f"# {name}=" in text, name
