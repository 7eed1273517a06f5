"""Process settings, read from the environment and ``.env`` (names are case-insensitive).

Every setting is documented in ``.env.example``. Only what belongs to the machine is
here: what a server's owners decide is set per server with /casino settings and stored
in the database; the chip values here (starting and daily chips, the daily cooldown) are
the defaults of a server that set none, and the values of each person's own chips
outside servers (DMs, group DMs), where no server's settings apply.

Paths belong to the place the bot is run from, never to where the package is installed
(``pip install .`` puts the code in site-packages): ``.env`` is read from the working
directory, the data (database, backups) lives in ``DATA_DIR`` (default ``data`` in the
working directory), and a relative ``DATA_DIR``, ``DATABASE_PATH`` or ``BACKUP_DIR`` is
taken relative to the working directory.
"""

from __future__ import annotations

import abc
import difflib
import logging
import os
from collections.abc import Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar
from urllib.parse import urlparse

from pydantic import Field, PrivateAttr, SecretStr, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

#: the settings file, read from the working directory (the environment wins over it)
ENV_FILE = ".env"
#: the data folder, relative to the working directory unless DATA_DIR says otherwise
DEFAULT_DATA_DIR = Path("data")
#: the bot's name (the distribution pontoon-bot), not a game's: every install's data
#: is in this file, so the default stays
DATABASE_NAME = "pontoon.sqlite3"
SANDBOX_DATABASE_NAME = "sandbox.sqlite3"
BACKUPS_NAME = "backups"

MAX_CHIPS = 10**9
_LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")

Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]
# Discord allows at most a few thousand shards per bot; far above what anyone here needs.
MAX_SHARDS = 4096
# Timers: at least a second (tests use short ones; people want 30 s or more), at most a day.
Seconds = Annotated[float, Field(ge=1, le=86_400)]


class _OldNames(PydanticBaseSettingsSource):
    """A game section's old names (its ``renamed`` table), read from the environment and
    ``.env`` after every current name: a value under an old name counts only when its
    field has no value under its current name."""

    def __init__(
        self, settings_cls: type[BaseSettings], *sources: PydanticBaseSettingsSource
    ) -> None:
        super().__init__(settings_cls)
        self.sources = sources

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # not asked: everything is read in __call__

    def __call__(self) -> dict[str, Any]:
        renamed: Mapping[str, str] = getattr(self.settings_cls, "renamed", {})
        found: dict[str, Any] = {}
        for source in self.sources:  # the environment first, then .env
            names = getattr(source, "env_vars", {})
            for old, field in renamed.items():
                value = names.get(old.lower())
                if value is not None and field not in found:
                    found[field] = value
        return found


class GameSettings(BaseSettings):
    """One game's own section of the settings, defined in the game's package
    (``cogs/<game>/settings.py``) and reached through :meth:`Settings.section`, so the
    shared settings name no game. A field's name in the environment is the game's
    ``env_prefix`` and the field's name. A setting renamed from an older name keeps
    working under it: the game lists its old names in ``renamed`` ({old name: field}),
    the current name wins when both are set, and the start-up warns that the old name is
    old, naming the new one."""

    model_config = SettingsConfigDict(
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        case_sensitive=False,
        extra="ignore",
        validate_default=True,
    )

    #: the names this section's settings had before: {OLD_NAME: field}
    renamed: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        old_names = _OldNames(settings_cls, env_settings, dotenv_settings)
        return init_settings, env_settings, dotenv_settings, old_names, file_secret_settings

    @abc.abstractmethod
    def timers(self) -> object:
        """What the game's service is built with (its ``build_service``'s second argument)."""


S = TypeVar("S", bound=GameSettings)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        case_sensitive=False,
        extra="ignore",
        validate_default=True,
    )

    # Discord connection
    discord_token: SecretStr | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    # How long logging in to Discord may take before the bot gives up (exit 5): an
    # endpoint that accepts the connection but never answers must not hang the start.
    discord_login_timeout_seconds: Seconds = 30
    # The wait before each IDENTIFY after the process's first (another shard, or a new
    # session after a lost one). Discord allows one IDENTIFY per 5 s, discord.py's
    # default; a fake Discord (the end-to-end tests) may allow 0.
    identify_delay_seconds: Annotated[float, Field(ge=0, le=60)] = 5
    dev_guild_id: Annotated[int, Field(gt=0)] | None = None

    # Sharding: how many shards the bot has in all, and which of them this process runs
    # (None: all of them). Unset SHARD_COUNT: one plain, unsharded connection.
    shard_count: Annotated[int, Field(ge=1, le=MAX_SHARDS)] | None = None
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None

    # Storage: SQLite at DATABASE_PATH (default DATA_DIR/pontoon.sqlite3), unless
    # DATABASE_URL names a PostgreSQL database (needed to run several bot processes on
    # one ledger).
    data_dir: Path = DEFAULT_DATA_DIR
    database_path: Path = DEFAULT_DATA_DIR / DATABASE_NAME
    database_url: SecretStr | None = None
    shard_lease_seconds: Annotated[float, Field(ge=1, le=3600)] = 30
    # Online backups (SQLite's backup API) every BACKUP_INTERVAL_MINUTES (0: none), the
    # newest BACKUP_KEEP kept in BACKUP_DIR (default DATA_DIR/backups).
    backup_dir: Path = DEFAULT_DATA_DIR / BACKUPS_NAME
    backup_interval_minutes: Annotated[float, Field(ge=0, le=7 * 24 * 60)] = 60
    backup_keep: Annotated[int, Field(ge=1, le=10_000)] = 24

    # Chips: the defaults of a server whose owners set none (/casino settings), and the
    # values of each person's own chips outside servers (bot/storage/guild_settings.py)
    starting_chips: Chips = 1000
    daily_chips: Chips = 100
    daily_cooldown_hours: Annotated[float, Field(gt=0, le=24 * 30)] = 20

    # How cards look: "emoji", pictures the bot draws and uploads once as
    # application emojis (text cards until they are up, or if Discord refuses them), or
    # "text", cards such as 10♥ only.
    card_style: Literal["emoji", "text"] = "emoji"

    # Each game's timers are in its own section (GameSettings, in the game's package).

    log_level: str = "INFO"
    # "text" (one readable line per event) or "json" (one JSON object per line)
    log_format: Literal["text", "json"] = "text"
    # Health and Prometheus metrics over HTTP (/healthz, /metrics); off unless a port is set
    metrics_port: Annotated[int, Field(ge=1, le=65535)] | None = None
    metrics_host: str = "127.0.0.1"

    # The sandbox (`python -m bot` without a token, or `python -m bot sandbox`): a local
    # Discord-compatible server with a web page, on this address (port 0: a free port),
    # and its own database of play chips (default DATA_DIR/sandbox.sqlite3), never
    # DATABASE_PATH.
    sandbox_host: str = "127.0.0.1"
    sandbox_port: Annotated[int, Field(ge=0, le=65_535)] = 8765
    sandbox_database_path: Path = DEFAULT_DATA_DIR / SANDBOX_DATABASE_NAME

    # each game's own section, read once from the same sources (section())
    _sections: dict[type[GameSettings], GameSettings] = PrivateAttr(default_factory=dict)
    _env_file_used: Any = PrivateAttr(default=ENV_FILE)

    # Tests only: a fixed shuffle seed makes games reproducible. Never set it in production
    # (anyone who knows the seed knows every card).
    shuffle_seed: int | None = None
    # Tests only: how long Discord lets the bot answer an interaction through its token (15
    # minutes); a test's fake Discord shortens both (cogs/table_message.py).
    interaction_token_seconds: Annotated[float, Field(ge=10, le=900)] = 900

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self._env_file_used = values.get("_env_file", ENV_FILE)

    def section(self, kind: type[S]) -> S:
        """A game's own section of the settings (``kind``, defined in the game's package),
        read from the same environment and ``.env`` as these settings, once. Raises
        pydantic's ValidationError for a bad value (:func:`load_settings` checks every
        game's section at start)."""
        found = self._sections.get(kind)
        if found is None:
            found = kind(_env_file=self._env_file_used)
            self._sections[kind] = found
        assert isinstance(found, kind)
        return found

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str):
            return value.strip()
        return value

    @field_validator(
        "discord_api_base",
        "discord_gateway_url",
        "dev_guild_id",
        "shuffle_seed",
        "metrics_port",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        parsed = urlparse(value)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("must be an http(s) URL, e.g. http://127.0.0.1:8080/api/v10")
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        parsed = urlparse(value)
        if parsed.scheme not in ("ws", "wss") or not parsed.netloc:
            raise ValueError("must be a ws(s) URL, e.g. ws://127.0.0.1:8080/gateway")
        return value

    @field_validator("database_path", "sandbox_database_path")
    @classmethod
    def _resolve_path(cls, value: Path) -> Path:
        if str(value).strip() in ("", "."):
            raise ValueError("must name a file")
        value = from_working_dir(value)
        if value.exists() and value.is_dir():
            raise ValueError(f"{value} is a directory, not a database file")
        return value

    @field_validator("data_dir")
    @classmethod
    def _resolve_data_dir(cls, value: Path) -> Path:
        if not str(value).strip():
            raise ValueError("must name a folder")
        value = from_working_dir(value)
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} is a file, not a folder")
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, value: object) -> object:
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        text = str(value).strip()
        parsed = urlparse(text)
        if parsed.scheme not in ("postgresql", "postgres") or not (parsed.netloc or parsed.path):
            raise ValueError(
                "must be a PostgreSQL URL, e.g. postgresql://user:password@127.0.0.1:5432/pontoon "
                "(leave it empty to use SQLite at DATABASE_PATH)"
            )
        return text

    @field_validator("shard_count", mode="before")
    @classmethod
    def _blank_count_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: object) -> object:
        """``SHARD_IDS=0,1`` (commas or spaces); blank means all shards."""
        if isinstance(value, str):
            parts = [p for p in value.replace(",", " ").split() if p]
            if not parts:
                return None
            try:
                return tuple(int(p) for p in parts)
            except ValueError:
                raise ValueError(
                    f"must be shard numbers separated by commas, e.g. 0,1 (got {value!r})"
                ) from None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        if not self.shard_ids:
            raise ValueError("SHARD_IDS is empty")
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError(f"SHARD_IDS names a shard twice: {self.shard_ids}")
        bad = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if bad:
            raise ValueError(
                f"SHARD_IDS {bad} outside 0..{self.shard_count - 1} (SHARD_COUNT={self.shard_count})"
            )
        self.shard_ids = tuple(sorted(self.shard_ids))
        return self

    @field_validator("backup_dir")
    @classmethod
    def _resolve_dir(cls, value: Path) -> Path:
        if str(value).strip() in ("", "."):
            raise ValueError("must name a folder")
        value = from_working_dir(value)
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} is a file, not a folder")
        return value

    @model_validator(mode="after")
    def _paths_in_data_dir(self) -> Settings:
        """DATABASE_PATH and BACKUP_DIR not set: inside DATA_DIR."""
        if "database_path" not in self.model_fields_set:
            self.database_path = self.data_dir / DATABASE_NAME
            if self.database_path.is_dir():
                raise ValueError(f"{self.database_path} is a directory, not a database file")
        if "backup_dir" not in self.model_fields_set:
            self.backup_dir = self.data_dir / BACKUPS_NAME
        if "sandbox_database_path" not in self.model_fields_set:
            self.sandbox_database_path = self.data_dir / SANDBOX_DATABASE_NAME
        return self

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: object) -> str:
        level = str(value).strip().upper()
        if level == "WARN":
            level = "WARNING"
        if level not in _LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(_LOG_LEVELS)}")
        return level

    # Convenience views -----------------------------------------------------------
    @property
    def daily_cooldown(self) -> timedelta:
        return timedelta(hours=self.daily_cooldown_hours)

    @property
    def sharded(self) -> bool:
        """True when SHARD_COUNT is set: the bot runs discord.py's AutoShardedBot."""
        return self.shard_count is not None

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shard ids this process runs ((0,) when unsharded)."""
        if self.shard_count is None:
            return (0,)
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))

    def postgres_url(self) -> str | None:
        """DATABASE_URL, or None for SQLite."""
        return None if self.database_url is None else self.database_url.get_secret_value()

    def token(self) -> str:
        """The bot token; raises a clear error when it is not set."""
        if self.discord_token is None:
            raise RuntimeError(
                "DISCORD_TOKEN is not set: put it in the environment or in .env (see .env.example)"
            )
        return self.discord_token.get_secret_value()


def from_working_dir(path: Path) -> Path:
    """``path`` with ``~`` expanded, relative to the working directory when relative."""
    path = path.expanduser()
    return path if path.is_absolute() else Path.cwd() / path


def env_names(kind: type[BaseSettings]) -> tuple[dict[str, str], dict[str, str]]:
    """The names ``kind`` reads from the environment, upper case: {name: field} for the
    current names, and {old name: its current name} for the names kept from before."""
    prefix = str(kind.model_config.get("env_prefix", "")).upper()
    current: dict[str, str] = {}
    for field, info in kind.model_fields.items():
        alias = info.validation_alias
        current[alias.upper() if isinstance(alias, str) else f"{prefix}{field}".upper()] = field
    by_field = {field: name for name, field in current.items()}
    renamed: Mapping[str, str] = getattr(kind, "renamed", {})
    old = {name.upper(): by_field[field] for name, field in renamed.items()}
    return current, old


def _error_line(exc: Exception, kind: type[BaseSettings]) -> str:
    """pydantic's errors as one line an owner reads: each under the setting's name as
    they write it (nothing for a check of several settings, whose message names them),
    without pydantic's "Value error, " prefix."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return str(exc)
    current, _old = env_names(kind)
    by_field = {field: name for name, field in current.items()}
    parts = []
    for error in exc.errors():
        message = str(error["msg"]).removeprefix("Value error, ")
        loc = [str(p) for p in error["loc"]]
        if not loc:
            parts.append(message)
            continue
        name = by_field.get(loc[0], loc[0].upper())
        parts.append(f"{'.'.join([name, *loc[1:]])}: {message}")
    return "; ".join(parts)


def load_settings(sections: Iterable[type[GameSettings]] = ()) -> Settings | str:
    """The settings with every game's section in ``sections`` read, or the one line that
    says which setting is bad (for the operator: every ``python -m bot`` command reads
    its settings through here, never a traceback)."""
    from pydantic import ValidationError

    try:
        settings = Settings()
    except ValidationError as exc:
        return f"bad setting: {_error_line(exc, Settings)}"
    except OSError as exc:
        return _unreadable(exc)
    for kind in sections:
        try:
            settings.section(kind)
        except ValidationError as exc:
            return f"bad setting: {_error_line(exc, kind)}"
        except OSError as exc:
            return _unreadable(exc)
    return settings


def _unreadable(exc: OSError) -> str:
    """The one line for a settings file the bot's user cannot open (a ``.env`` made by
    root or another user with mode 600, as the README's first command makes it)."""
    name = exc.filename or ENV_FILE
    why = exc.strerror or type(exc).__name__
    return (
        f"cannot read {name} ({why.lower()}): run the bot as the user who owns it, "
        "or let the bot's user read it (chown or chmod)"
    )


def settings_warnings(
    sections: Iterable[type[GameSettings]] = (), env_file: Path | str = ENV_FILE
) -> list[str]:
    """What the owner should hear about the settings: a name in ``.env`` that no setting
    has (a typo is otherwise silently ignored), with the closest real name, and an old
    name still read (in ``.env`` or the environment), with its new name."""
    from dotenv import dotenv_values

    current, old = env_names(Settings)
    for kind in sections:
        names, renamed = env_names(kind)
        current.update(names)
        old.update(renamed)
    path = from_working_dir(Path(env_file))
    written = [k.upper() for k in dotenv_values(path)] if path.is_file() else []
    warnings = []
    for name in written:
        if name in current or name in old:
            continue
        close = difflib.get_close_matches(name, list(current), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        warnings.append(f"unknown setting {name} in {env_file} is ignored{hint}")
    environment = {k.upper() for k in os.environ}
    for name, new in old.items():
        if name in written or name in environment:
            warnings.append(f"{name} is an old name of {new}: it still works, but write {new}")
    return warnings
