"""Settings: defaults, environment and .env, validation of nonsense."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings

REPO = Path(__file__).resolve().parents[2]

ENV_NAMES = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATA_DIR",
    "BACKUP_DIR",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "DEV_GUILD_ID",
    "STARTING_CHIPS",
    "DAILY_CHIPS",
    "DAILY_COOLDOWN_HOURS",
    "PONTOON_BET_SECONDS",
    "PONTOON_TURN_SECONDS",
    "PONTOON_IDLE_MINUTES",
    "PUNTO_BANCO_BETTING_SECONDS",
    "LOG_LEVEL",
    "SHUFFLE_SEED",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    s = Settings(_env_file=None)
    assert s.discord_token is None
    # the data lives where the bot is run, never next to the installed package
    assert s.data_dir == tmp_path / "data"
    assert s.database_path == tmp_path / "data" / "pontoon.sqlite3"
    assert s.backup_dir == tmp_path / "data" / "backups"
    assert (s.discord_api_base, s.discord_gateway_url, s.dev_guild_id) == (None, None, None)
    assert (s.starting_chips, s.daily_chips, s.daily_cooldown_hours) == (1000, 100, 20)
    assert s.log_level == "INFO"
    assert s.daily_cooldown == timedelta(hours=20)
    with pytest.raises(RuntimeError, match="DISCORD_TOKEN"):
        s.token()


def test_environment_is_case_insensitive_and_token_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("discord_token", "abc.def.ghi")
    monkeypatch.setenv("Starting_Chips", "250")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    s = Settings(_env_file=None)
    assert s.token() == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(s) and "abc.def.ghi" not in str(s.model_dump())
    assert s.starting_chips == 250
    assert s.dev_guild_id == 123456789012345678
    assert s.log_level == "DEBUG" and s.log_level_number == 10


def test_env_file_and_relative_database_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    env = tmp_path / ".env"
    env.write_text(
        "DATABASE_PATH=data/other.sqlite3\n"
        "DISCORD_API_BASE=http://127.0.0.1:8080/api/v10/\n"
        "DISCORD_GATEWAY_URL=ws://127.0.0.1:8080/gateway\n"
        "DISCORD_TOKEN=\n"
        "DEV_GUILD_ID=\n"
        "SHUFFLE_SEED=\n"
    )
    s = Settings(_env_file=env)
    assert s.database_path == tmp_path / "data" / "other.sqlite3"
    assert s.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert s.discord_gateway_url == "ws://127.0.0.1:8080/gateway"
    assert s.discord_token is None and s.dev_guild_id is None
    assert s.shuffle_seed is None


def test_absolute_database_path_is_kept(tmp_path: Path) -> None:
    s = Settings(_env_file=None, database_path=tmp_path / "x.sqlite3")
    assert s.database_path == tmp_path / "x.sqlite3"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("starting_chips", -1),
        ("starting_chips", 10**10),
        ("daily_chips", -5),
        ("daily_cooldown_hours", 0),
        ("daily_cooldown_hours", -1),
        ("shuffle_seed", "abc"),
        ("dev_guild_id", 0),
        ("dev_guild_id", -3),
        ("log_level", "LOUD"),
        ("discord_api_base", "ftp://example.com"),
        ("discord_api_base", "not a url"),
        ("discord_gateway_url", "http://127.0.0.1/gateway"),
        ("database_path", ""),
    ],
)
def test_nonsense_is_rejected(field: str, value: object) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, **{field: value})


def test_database_path_may_not_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        Settings(_env_file=None, database_path=tmp_path)


def test_env_example_documents_every_setting() -> None:
    text = (REPO / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"# {name.upper()}=" in text, name
    # Nothing is set in the example: every assignment is commented out.
    assert all(line.startswith("#") or not line.strip() for line in text.splitlines()), (
        "the example must not set values"
    )
    assert (
        Settings(_env_file=REPO / ".env.example").model_dump()
        == Settings(_env_file=None).model_dump()
    )
    # each game's own section too, under its current names (not the old ones)
    from bot.__main__ import game_sections
    from bot.settings import env_names

    for kind in game_sections():
        current, old = env_names(kind)
        for name in current:
            assert f"# {name}=" in text, name
        for name in old:
            assert f"# {name}=" not in text, name
        assert kind(_env_file=REPO / ".env.example") == kind(_env_file=None)


def test_env_example_names_no_setting_that_does_not_exist() -> None:
    """Every ``# NAME=value`` line of .env.example is a setting the bot reads, shared or
    of a registered game's section (a game removed or renamed leaves no stale line)."""
    import re

    from bot.__main__ import game_sections
    from bot.settings import env_names

    known = set(env_names(Settings)[0])
    for kind in game_sections():
        known |= set(env_names(kind)[0])
    text = (REPO / ".env.example").read_text()
    named = re.findall(r"^# ([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE)
    assert len(named) > 20
    assert sorted(set(named) - known) == []
    # and the check sees a stale name
    assert "PONTOON_NO_SUCH_SECONDS" not in known


def test_env_file_is_read_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `.env` where the bot is run counts, wherever the package is installed."""
    (tmp_path / ".env").write_text("STARTING_CHIPS=77\nDATABASE_PATH=db/x.sqlite3\n")
    monkeypatch.chdir(tmp_path)
    s = Settings()
    assert s.starting_chips == 77
    assert s.database_path == tmp_path / "db" / "x.sqlite3"
    assert s.backup_dir == tmp_path / "data" / "backups"


def test_data_dir_holds_the_database_and_backups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", "state")
    s = Settings(_env_file=None)
    assert s.data_dir == tmp_path / "state"
    assert s.database_path == tmp_path / "state" / "pontoon.sqlite3"
    assert s.backup_dir == tmp_path / "state" / "backups"
    # an explicit DATABASE_PATH or BACKUP_DIR still wins
    s = Settings(_env_file=None, backup_dir=Path("/srv/b"), database_path=Path("d.sqlite3"))
    assert (s.backup_dir, s.database_path) == (Path("/srv/b"), tmp_path / "d.sqlite3")


def test_data_dir_may_not_be_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValidationError):
        Settings(_env_file=None, data_dir=tmp_path / "f")


def test_no_path_hangs_off_the_installed_package() -> None:
    """Nothing in bot/settings.py derives a path from the package's own location."""
    source = (REPO / "bot" / "settings.py").read_text()
    assert "__file__" not in source
