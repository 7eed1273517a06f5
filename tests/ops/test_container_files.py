"""The Dockerfile and compose.yaml agree with the project. No image is
built here (no Docker engine): the files are read and checked against the code. That
the HEALTHCHECK command answers a running bot is tests/e2e/test_ops_e2e.py."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml

from bot.__main__ import COMMANDS
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
SETTINGS = {name.upper() for name in Settings.model_fields}


def _instructions(name: str) -> list[str]:
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(name + " ")]


def _env_of_dockerfile() -> dict[str, str]:
    out: dict[str, str] = {}
    for args in _instructions("ENV"):
        for pair in shlex.split(args):
            key, _, value = pair.partition("=")
            out[key] = value
    return out


def test_the_image_runs_the_bot_as_a_user_with_its_data_on_a_volume() -> None:
    (cmd,) = _instructions("CMD")
    assert cmd.strip() == '["python", "-m", "bot"]'
    (user,) = _instructions("USER")
    assert user.strip() not in ("root", "0")
    env = _env_of_dockerfile()
    (volume,) = _instructions("VOLUME")
    assert env["DATA_DIR"] in volume
    (base,) = _instructions("FROM")
    assert "slim" in base and "python:3.1" in base


def test_the_healthcheck_is_a_command_of_the_bot_and_has_a_port_to_ask() -> None:
    (check,) = _instructions("HEALTHCHECK")
    command = check.split("CMD", 1)[1].strip()
    assert command == '["python", "-m", "bot", "health"]'
    assert "health" in COMMANDS
    assert _env_of_dockerfile()["METRICS_PORT"].isdigit()


def test_every_package_the_project_installs_is_copied_into_the_image() -> None:
    copied = {args.split()[0] for args in _instructions("COPY")}
    for package in ("bot", "cogs", "engine", "localdiscord"):
        assert package in copied, package
    assert {"pyproject.toml", "README.md", "LICENSE"} <= set(
        " ".join(_instructions("COPY")).split()
    )


def test_every_setting_the_files_name_is_a_real_setting() -> None:
    named = set(_env_of_dockerfile()) - {
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "PIP_NO_CACHE_DIR",
        "PIP_DISABLE_PIP_VERSION_CHECK",
    }
    bot = COMPOSE["services"]["bot"]
    named |= set(bot["environment"])
    assert named <= SETTINGS, named - SETTINGS
    # and each value is one the settings accept
    values = {k: str(v) for k, v in bot["environment"].items() if k != "DISCORD_TOKEN"}
    values["DISCORD_TOKEN"] = "x"
    settings = Settings(_env_file=None, **{k.lower(): v for k, v in values.items()})
    assert settings.database_url is not None and settings.metrics_port == 9100


def test_compose_waits_for_a_healthy_database_and_keeps_data_in_named_volumes() -> None:
    services = COMPOSE["services"]
    bot, db = services["bot"], services["db"]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    url = bot["environment"]["DATABASE_URL"]
    user, password, name = (
        db["environment"][k] for k in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB")
    )
    assert url == f"postgresql://{user}:{password}@db:5432/{name}"
    volumes = set(COMPOSE["volumes"])
    assert {v.split(":")[0] for v in bot["volumes"] + db["volumes"]} <= volumes
    # the metrics port is published on this machine only
    assert all(p.startswith("127.0.0.1:") for p in bot.get("ports", []))
