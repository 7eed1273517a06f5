"""Each game's own section of the settings (its package's ``Settings``), the warnings
an owner gets about ``.env`` (a name no setting has, an old name), and the one line a
bad setting gives (no pydantic prefix, never an empty name)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import game_sections
from bot.games import GAMES
from bot.settings import GameSettings, Settings, env_names, load_settings, settings_warnings
from cogs.blackjack.settings import BlackjackSettings
from cogs.pontoon.settings import PontoonSettings
from cogs.punto_banco.settings import PuntoBancoSettings

NAMES = (
    "PONTOON_BET_SECONDS",
    "PONTOON_TURN_SECONDS",
    "PONTOON_IDLE_MINUTES",
    "BET_TIMER_SECONDS",
    "TURN_TIMER_SECONDS",
    "IDLE_TABLE_MINUTES",
    "PUNTO_BANCO_BETTING_SECONDS",
    "BACCARAT_BETTING_SECONDS",
    "STARTING_CHIPS",
    "SHARD_IDS",
    "SHARD_COUNT",
    "DATABASE_URL",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.chdir(tmp_path)


def test_the_shared_settings_name_no_game() -> None:
    """The timers are no longer fields of the shared settings: each game has its own."""
    shared = " ".join(Settings.model_fields).lower()
    for word in ("bet_timer", "turn_timer", "idle_table", "baccarat", "punto", "pontoon"):
        assert word not in shared, word
    assert {kind for kind in game_sections()} == {
        PontoonSettings,
        PuntoBancoSettings,
        BlackjackSettings,
    }
    assert len(game_sections()) == len(GAMES)
    assert all(issubclass(kind, GameSettings) for kind in game_sections())


def test_each_game_reads_its_own_names_with_its_defaults() -> None:
    settings = Settings(_env_file=None)
    pontoon = settings.section(PontoonSettings).timers()
    assert (pontoon.bet_seconds, pontoon.turn_seconds, pontoon.idle_seconds) == (60, 60, 900)
    assert settings.section(PuntoBancoSettings).timers().betting_seconds == 20
    assert settings.section(PontoonSettings) is settings.section(PontoonSettings)  # read once
    current, old = env_names(PuntoBancoSettings)
    assert current == {
        "PUNTO_BANCO_BETTING_SECONDS": "betting_seconds",
        "PUNTO_BANCO_IDLE_MINUTES": "idle_minutes",
    }
    assert old == {"BACCARAT_BETTING_SECONDS": "PUNTO_BANCO_BETTING_SECONDS"}


def test_new_names_and_old_names_both_work_from_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "PONTOON_BET_SECONDS=7\nTURN_TIMER_SECONDS=8\nIDLE_TABLE_MINUTES=2.5\n"
        "BACCARAT_BETTING_SECONDS=6\n"
    )
    settings = Settings(_env_file=env)
    pontoon = settings.section(PontoonSettings).timers()
    assert (pontoon.bet_seconds, pontoon.turn_seconds, pontoon.idle_seconds) == (7, 8, 150)
    assert settings.section(PuntoBancoSettings).betting_seconds == 6
    # IDLE_TABLE_MINUTES was Pontoon's alone: Punto Banco's idle close was two empty
    # windows until PUNTO_BANCO_IDLE_MINUTES came, so the old name keeps to Pontoon
    assert settings.section(PuntoBancoSettings).idle_minutes == 10
    warnings = settings_warnings(game_sections(), env)
    assert (
        "BACCARAT_BETTING_SECONDS is an old name of PUNTO_BANCO_BETTING_SECONDS: "
        "it still works, but write PUNTO_BANCO_BETTING_SECONDS"
    ) in warnings
    assert any(
        w.startswith("TURN_TIMER_SECONDS is an old name of PONTOON_TURN_SECONDS") for w in warnings
    )
    assert not any("PONTOON_BET_SECONDS" in w for w in warnings)


def test_the_new_name_wins_over_the_old(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACCARAT_BETTING_SECONDS", "6")
    monkeypatch.setenv("PUNTO_BANCO_BETTING_SECONDS", "9")
    assert Settings(_env_file=None).section(PuntoBancoSettings).betting_seconds == 9


def test_the_new_name_in_env_file_wins_over_an_old_name_in_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    env = tmp_path / ".env"
    env.write_text("PONTOON_TURN_SECONDS=9\n")
    monkeypatch.setenv("TURN_TIMER_SECONDS", "6")
    monkeypatch.setenv("BET_TIMER_SECONDS", "5")
    pontoon = Settings(_env_file=env).section(PontoonSettings)
    assert (pontoon.turn_seconds, pontoon.bet_seconds) == (9, 5)


def test_old_names_are_a_table_of_the_game_not_fields() -> None:
    """A game lists its old names in ``renamed``; no field of any section carries an old
    name, and every old name leads to a field of its section."""
    for kind in game_sections():
        assert all(field in kind.model_fields for field in kind.renamed.values()), kind
        assert all(info.validation_alias is None for info in kind.model_fields.values()), kind
        assert not any("baccarat" in field for field in kind.model_fields), kind


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [
        (PontoonSettings, "bet_seconds", 0),
        (PontoonSettings, "turn_seconds", -10),
        (PontoonSettings, "turn_seconds", 10**9),
        (PontoonSettings, "idle_minutes", 0),
        (PontoonSettings, "idle_minutes", -1),
        (PuntoBancoSettings, "betting_seconds", 0.5),
    ],
)
def test_nonsense_is_rejected(kind: type[GameSettings], field: str, value: object) -> None:
    with pytest.raises(ValidationError):
        kind(_env_file=None, **{field: value})


def test_a_bad_game_setting_is_one_line_under_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PONTOON_BET_SECONDS", "0")
    assert load_settings(game_sections()) == (
        "bad setting: PONTOON_BET_SECONDS: Input should be greater than or equal to 1"
    )


def test_a_mistyped_name_is_named_with_the_closest_setting(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("STARTNG_CHIPS=5\nPONTON_TURN_SECONDS=9\nSTARTING_CHIPS=7\nZZZ_QQQ=1\n")
    warnings = settings_warnings(game_sections(), env)
    assert warnings == [
        f"unknown setting STARTNG_CHIPS in {env} is ignored (did you mean STARTING_CHIPS?)",
        f"unknown setting PONTON_TURN_SECONDS in {env} is ignored "
        "(did you mean PONTOON_TURN_SECONDS?)",
        f"unknown setting ZZZ_QQQ in {env} is ignored",
    ]
    assert settings_warnings(game_sections(), tmp_path / "missing.env") == []


def test_errors_carry_no_pydantic_prefix_and_no_empty_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SHARD_IDS", "0,1")
    assert (
        load_settings() == "bad setting: SHARD_IDS needs SHARD_COUNT (the total number of shards)"
    )
    monkeypatch.delenv("SHARD_IDS")
    monkeypatch.setenv("DATABASE_URL", "postgres//oops")
    line = load_settings()
    assert isinstance(line, str)
    assert line.startswith("bad setting: DATABASE_URL: must be a PostgreSQL URL")
    assert "Value error" not in line


def test_the_readme_one_liner_creates_env_for_its_owner_only(tmp_path: Path) -> None:
    """The part of the README's run line that creates `.env`, run by a shell with the
    usual umask: the copy is readable by its owner only (it will hold the token)."""
    import re
    import subprocess

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    line = next(
        ln for ln in readme.splitlines() if ln.startswith("python3 -m venv") and "-m bot" in ln
    )
    assert line.count("\n") == 0
    found = re.search(r"\{ \[ -f \.env \] \|\| .*?; \}", line)
    assert found is not None, line
    (tmp_path / ".env.example").write_text("# example\n")
    subprocess.run(["sh", "-c", f"umask 022 && {found.group(0)}"], cwd=tmp_path, check=True)
    assert (tmp_path / ".env").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / ".env").read_text() == "# example\n"


def test_the_bot_start_makes_a_readable_env_private(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.__main__ import check_env_file

    env = tmp_path / ".env"
    env.write_text("STARTNG_CHIPS=5\n")
    env.chmod(0o644)
    with caplog.at_level("WARNING"):
        check_env_file()
    assert env.stat().st_mode & 0o777 == 0o600
    said = caplog.text
    assert "unknown setting STARTNG_CHIPS in .env is ignored (did you mean STARTING_CHIPS?)" in said
    assert "now readable by its owner only" in said
