"""``python -m bot [COMMAND]``: run the bot, or look after its database.

Every failure the operator can meet at start (a bad setting, no token, a token Discord
refuses, Discord unreachable, a database in use by another bot, missing, empty,
read-only or damaged) ends the process with ONE line on stderr and a non-zero exit code,
never a traceback. Ctrl-C (SIGINT) and SIGTERM stop the bot cleanly: timers stopped,
the database closed after the write in progress (every table is saved at each change).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bot.settings import GameSettings, Settings
    from bot.storage import Store
    from bot.storage.lock import ProcessLock

log = logging.getLogger("bot")

#: numpy's BLAS libraries would start a thread per core for a hint's small matrices: two
#: cores busy for one hint on a 2-core host (measured: 38.6 ms of CPU for 18.8 ms of wall
#: time), for no gain in wall time. One thread each, unless the environment sets its
#: own; set here, before anything the bot runs imports numpy (the engine's hints).
BLAS_THREADS: Final = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread(environ: MutableMapping[str, str] = os.environ) -> None:
    """Limit numpy's BLAS to one thread where the environment says nothing."""
    for name in BLAS_THREADS:
        if not environ.get(name):
            environ[name] = "1"


one_blas_thread()

USAGE = """\
usage: python -m bot                  run the bot (settings from .env / the environment);
                                      without DISCORD_TOKEN, the sandbox
       python -m bot sandbox          a local Discord with the bot and a web page to play
                                      on (SANDBOX_PORT); play chips in SANDBOX_DATABASE_PATH
       python -m bot --version        print the bot's version
       python -m bot audit [--db PATH] check the chip ledger; exit 1 on any discrepancy
       python -m bot init             create a new, empty database on purpose
       python -m bot backup [--to PATH]
                                      write an online backup now (default: BACKUP_DIR)
       python -m bot restore FILE     audit FILE, then make it the database (bot stopped)
       python -m bot migrate --check  is the database behind this code? (exit 1 if so)
       python -m bot health           ask the running bot's /healthz (METRICS_PORT)
"""

# Exit codes: 0 clean stop, 1 a check failed (audit, restore refused) or Discord refused a
# start-up request (a 4xx other than the token), 2 usage or
# settings, 3 the database cannot be used, 4 Discord refused the token, 5 Discord
# cannot be reached.
EXIT_USAGE, EXIT_DATABASE, EXIT_TOKEN, EXIT_UNREACHABLE = 2, 3, 4, 5


def fail(message: str, code: int) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "run"
    if command in ("-h", "--help", "help"):
        print(USAGE, end="")
        return 0
    if command in ("-V", "--version", "version"):
        print(f"pontoon-bot {version()}")
        return 0
    handler = COMMANDS.get(command)
    if handler is None:
        print(f"error: unknown command {command!r}", file=sys.stderr)
        print(USAGE, end="", file=sys.stderr)
        return EXIT_USAGE
    try:
        return handler(args[1:])
    except KeyboardInterrupt:  # Ctrl-C outside the bot's own loop (e.g. during a restore)
        return 130


def version() -> str:
    """The installed package's version (pyproject.toml), or "unknown" when run from a
    folder that was never installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("pontoon-bot")
    except PackageNotFoundError:
        return "unknown (not installed: pip install .)"


def game_sections() -> list[type[GameSettings]]:
    """Every registered game's own section of the settings (``Settings`` of its package)."""
    import importlib

    from bot.games import GAMES

    return [importlib.import_module(game.package).Settings for game in GAMES]


def load_settings() -> Settings | int:
    """The settings, every game's section checked too (a bad value: one line, exit 2)."""
    from bot.settings import load_settings as load

    settings = load(game_sections())
    return fail(settings, EXIT_USAGE) if isinstance(settings, str) else settings


def check_env_file() -> None:
    """Warnings about ``.env`` for the owner, once the logging is set up: a name no
    setting has (with the closest one), an old name (with the new one); and a ``.env``
    others may read (it holds the token) is made readable by its owner only."""
    from bot.settings import ENV_FILE, settings_warnings

    for warning in settings_warnings(game_sections()):
        log.warning("%s", warning)
    path = Path(ENV_FILE)
    try:
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            path.chmod(0o600)
            log.warning(
                "%s could be read by other users of this machine (mode %o): "
                "now readable by its owner only (600)",
                ENV_FILE,
                mode,
            )
    except OSError:  # no .env, or not ours to change
        pass


# ----------------------------------------------------------------------- run the bot
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# Stop signals received while the bot was starting, before its loop stops it itself:
# the start-up goes on to its next step and stops there, cleanly.
_stop_asked: list[str] = []


def note_stop(signum: int, frame: object = None) -> None:
    _stop_asked.append(signal.Signals(signum).name)


def stopped_early() -> int:
    """A stop signal arrived during the start-up: nothing to close but what the caller
    closes; say so as a running bot would."""
    if not logging.getLogger().handlers:
        logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.warning("stopping: %s received while starting", _stop_asked[0])
    log.warning("stopped cleanly; every table is saved and reloads at the next start")
    return 0


def cmd_run(args: Sequence[str]) -> int:
    # first of all, before the slow imports and settings: SIGINT and SIGTERM during the
    # start-up are noted and end it cleanly at its next step (exit 0)
    for signum in STOP_SIGNALS:
        signal.signal(signum, note_stop)
    if args:
        return fail(f"`python -m bot` takes no arguments, got {' '.join(args)!r}", EXIT_USAGE)
    settings = load_settings()
    if isinstance(settings, int):
        return settings
    from bot.logs import configure_logging

    configure_logging(
        settings.log_level,
        settings.log_format,
        secrets=[
            secret.get_secret_value()
            for secret in (settings.discord_token, settings.database_url)
            if secret is not None
        ],
    )
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "No DISCORD_TOKEN: starting the sandbox (a local Discord on this machine). To run "
            "the bot on Discord, put your bot's token in .env (see README, Settings).",
            file=sys.stderr,
        )
        return sandbox(settings)
    # the sandbox's bot is a `run` too: it says these once, there
    check_env_file()
    if _stop_asked:
        return stopped_early()
    return asyncio.run(run(settings))


def note_stops_on(loop: asyncio.AbstractEventLoop) -> None:
    """Until serve() handles them: stop signals are noted (the loop's own handlers, so
    a signal wakes the loop at once)."""
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, note_stop, signum)


# ----------------------------------------------------------------------- the sandbox
def cmd_sandbox(args: Sequence[str]) -> int:
    if args:
        return fail(
            f"`python -m bot sandbox` takes no arguments, got {' '.join(args)!r}", EXIT_USAGE
        )
    settings = load_settings()
    if isinstance(settings, int):
        return settings
    return sandbox(settings)


def sandbox(settings: Settings) -> int:
    """The local Discord (localdiscord) and its page, with this bot started as a child
    process pointed at it like at Discord: same code, its own token and its own database."""
    from localdiscord.sandbox import run_sandbox

    db = settings.sandbox_database_path
    if db == settings.database_path:
        return fail("SANDBOX_DATABASE_PATH must not be the bot's DATABASE_PATH", EXIT_USAGE)
    # the page is the place to watch; the terminal gets warnings (LOG_LEVEL=DEBUG: all)
    from bot.logs import configure_logging

    level = "WARNING" if settings.log_level == "INFO" else settings.log_level
    configure_logging(level, settings.log_format)
    env = {
        "LOG_LEVEL": level,
        "DATABASE_PATH": str(db),
        "DATABASE_URL": "",  # never the real (PostgreSQL) ledger
        "SHARD_COUNT": "",
        "SHARD_IDS": "",
        "DEV_GUILD_ID": "",
        "METRICS_PORT": "",  # the real bot's metrics port stays the real bot's
        "BACKUP_INTERVAL_MINUTES": "0",
        "PYTHONUNBUFFERED": "1",
    }
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return fail(f"cannot create {db.parent} for the sandbox's database: {exc}", EXIT_DATABASE)
    if db.exists():
        # the local Discord keeps no channel history from one start to the next: every
        # open table's message is gone, so the bot posts each table again (newcomer N-11)
        try:
            asyncio.run(forget_shown_messages(db))
        except Exception as exc:
            return fail(f"cannot open the sandbox's database {db}: {exc}", EXIT_DATABASE)
    try:
        return asyncio.run(
            run_sandbox(
                host=settings.sandbox_host,
                port=settings.sandbox_port,
                bot_argv=[sys.executable, "-m", main_module(), "run"],
                bot_env=env,
                channels=sandbox_channels(),
            )
        )
    except KeyboardInterrupt:
        return 130


def sandbox_channels() -> list[str]:
    """A sandbox channel per registered game, named after its slash-command group."""
    from bot.games import GAMES

    return [game.group for game in GAMES]


def main_module() -> str:
    """The module this process was started as (``python -m bot``, or a launcher that
    registers a game first, such as the tests'): the sandbox starts its bot the same way."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return spec.name if spec is not None and spec.name else "bot"


async def forget_shown_messages(db: Path) -> None:
    """Mark no open table of the SQLite database ``db`` as shown by its message."""
    from bot.storage import Store

    store = await Store.open(db)
    try:
        await store.forget_shown()
    finally:
        await store.close()


async def open_database(settings: Settings) -> Store | str:
    """The store for the bot (PostgreSQL when DATABASE_URL is set, else the SQLite file),
    or the one-line reason it cannot be used."""
    from bot.storage import StorageError, Store
    from bot.storage.files import check_start, mark_initialised
    from bot.storage.models import GuildSettings

    # the machine's values: the defaults of every server that set none of its own
    defaults = GuildSettings(
        starting_chips=settings.starting_chips,
        daily_chips=settings.daily_chips,
        daily_cooldown_minutes=max(1, round(settings.daily_cooldown_hours * 60)),
    )
    url = settings.postgres_url()
    try:
        if url is not None:
            from bot.storage.pg import PgStore

            return await PgStore.connect(url, defaults=defaults)
        check_start(settings.database_path)
        store = await Store.open(settings.database_path, defaults=defaults)
    except StorageError as exc:
        return str(exc)
    mark_initialised(settings.database_path)
    return store


async def run(settings: Settings) -> int:
    loop = asyncio.get_running_loop()
    note_stops_on(loop)
    try:
        return await start(settings)
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


async def start(settings: Settings) -> int:
    import discord

    from bot.storage import StorageError
    from bot.storage.leases import ShardsTaken
    from bot.storage.lock import ProcessLock

    if _stop_asked:
        return stopped_early()
    url = settings.postgres_url()
    lock: ProcessLock | None = None
    if url is None:  # SQLite: one process per database file (PostgreSQL: shard leases)
        try:
            lock = ProcessLock.acquire(settings.database_path)
        except StorageError as exc:  # in use by another bot, a read-only folder
            return fail(str(exc), EXIT_DATABASE)
    try:
        store = await open_database(settings)
        if isinstance(store, str):
            return fail(store, EXIT_DATABASE)
        log.info("%s", storage_line(settings))
        try:
            if _stop_asked:
                return stopped_early()
            return await serve(settings, store, lock)
        except ShardsTaken as exc:
            return fail(
                f"another bot process is running these shards ({exc}); give each process "
                "its own SHARD_IDS (see README, Several processes)",
                EXIT_DATABASE,
            )
        except discord.LoginFailure as exc:
            return fail(f"Discord refused the bot token (DISCORD_TOKEN): {exc}", EXIT_TOKEN)
        except discord.HTTPException as exc:
            where = settings.discord_api_base or "discord.com"
            if exc.status >= 500:
                return fail(f"cannot reach Discord at {where}: {exc}", EXIT_UNREACHABLE)
            # Discord answered and refused something at start-up (say, a slash command
            # it will not register): not a network fault, so not "cannot reach"
            first = str(exc).splitlines()[0] if str(exc) else ""
            return fail(f"Discord at {where} refused a start-up request: {first}", 1)
        except (OSError, discord.GatewayNotFound) as exc:
            where = settings.discord_api_base or "discord.com"
            return fail(f"cannot reach Discord at {where}: {exc}", EXIT_UNREACHABLE)
        except Exception as exc:  # one line for the operator; the details in the debug log
            log.debug("the bot stopped on an unexpected error", exc_info=exc)
            return fail(f"the bot stopped on an unexpected error: {exc!r}", 1)
        finally:
            await store.close()
    finally:
        if lock is not None:
            lock.release()


def storage_line(settings: Settings) -> str:
    """Where the bot keeps its data, for the start-up log."""
    if settings.postgres_url() is not None:
        return "database: PostgreSQL (DATABASE_URL); back it up with pg_dump"
    every = (
        f"every {settings.backup_interval_minutes:g} min, newest {settings.backup_keep} kept"
        if settings.backup_interval_minutes > 0
        else "scheduled backups off (BACKUP_INTERVAL_MINUTES=0)"
    )
    return f"database: {settings.database_path}; backups: {settings.backup_dir} ({every})"


async def serve(settings: Settings, store: Store, lock: ProcessLock | None) -> int:
    """Run the bot until it stops; returns the exit code."""
    from bot.app import make_bot
    from bot.endpoints import configure_endpoints
    from bot.leases import hold_shard_leases
    from bot.storage import StorageUnavailable

    configure_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    bot = make_bot(settings, store)
    loop = asyncio.get_running_loop()
    outcome: dict[str, int] = {"code": 0}
    stopping: list[asyncio.Task[None]] = []

    def stop(code: int, why: str) -> None:
        if stopping:
            return
        outcome["code"] = code
        log.warning("stopping: %s", why)
        stopping.append(loop.create_task(bot.close()))

    def on_fatal(exc: StorageUnavailable) -> None:
        loop.call_soon(stop, EXIT_DATABASE, str(exc))

    store.on_fatal = on_fatal
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, 0, f"{signal.Signals(signum).name} received")
    if _stop_asked:  # a signal while the bot was being built
        stop(0, f"{_stop_asked[0]} received while starting")
    helpers = [
        loop.create_task(watch_database(store, lock, stop), name="watch-database"),
        loop.create_task(backup_loop(settings, store), name="backups"),
    ]

    async def lease_lost() -> None:
        stop(EXIT_DATABASE, "this process lost its shard lease to another process")

    try:
        async with hold_shard_leases(store, settings, on_lost=lease_lost) as keeper, bot:
            bot.lease_keeper = keeper  # /healthz reports whether it still holds them
            token = settings.discord_token.get_secret_value() if settings.discord_token else ""
            try:
                # bot.start() is login() then connect(); the login is bounded in time
                try:
                    await asyncio.wait_for(
                        bot.login(token), timeout=settings.discord_login_timeout_seconds
                    )
                except TimeoutError:
                    raise OSError(
                        f"no answer to the login in {settings.discord_login_timeout_seconds:g} s"
                    ) from None
                await bot.connect()
            except Exception as exc:
                if not stopping:
                    raise
                # a stop asked for while starting (Ctrl-C before the gateway was ready)
                # cuts the login or the connection short: that is the stop, not a fault
                log.debug("start-up cut short by the stop: %r", exc)
    finally:
        for task in helpers:
            task.cancel()
        for task in [*helpers, *stopping]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        note_stops_on(loop)  # a second signal while closing changes nothing
    if outcome["code"] == 0:
        # at the level of "stopping: …", so a console that shows warnings only (the
        # sandbox's) shows the pair (newcomer N-13)
        log.warning("stopped cleanly; every table is saved and reloads at the next start")
    return outcome["code"]


async def watch_database(
    store: Store, lock: ProcessLock | None, stop: Callable[[int, str], None], every: float = 2.0
) -> None:
    """Notice a database file deleted, replaced, overwritten or made read-only, or
    SQLite's files beside it taken away, even while nobody plays, and keep the process
    lock's file in place (a deleted lock file is locked afresh)."""
    from bot.storage import StorageUnavailable
    from bot.storage.lock import DatabaseInUse

    while True:
        await asyncio.sleep(every)
        try:
            store.check_file()
            await store.check_written_elsewhere()
            if lock is not None:
                lock.ensure()
        except StorageUnavailable as exc:
            if exc.fatal:
                return  # store.on_fatal stops the bot
            log.warning("cannot check the database file: %s", exc)
        except DatabaseInUse as exc:
            log.critical("the lock file was replaced and %s; stopping", exc)
            stop(EXIT_DATABASE, str(exc))
            return
        except OSError as exc:
            log.warning("cannot check the database's lock file: %s", exc)


async def backup_loop(settings: Settings, store: Store) -> None:
    """Scheduled online backups with rotation (BACKUP_INTERVAL_MINUTES, BACKUP_KEEP)."""
    from bot.storage.backup import rotate
    from bot.storage.base import run_to_end

    if settings.backup_interval_minutes <= 0:
        return
    if settings.postgres_url() is not None:
        log.info("scheduled backups are for SQLite; back PostgreSQL up with pg_dump")
        return

    async def one_backup() -> None:
        try:
            settings.backup_dir.mkdir(parents=True, exist_ok=True)
            path = await store.backup(settings.backup_dir)
            removed = rotate(settings.backup_dir, settings.backup_keep)
            log.info("backup written: %s (%d old backup(s) removed)", path, len(removed))
        except Exception as exc:  # a failed backup must not stop the bot
            log.error("scheduled backup to %s failed: %s", settings.backup_dir, exc)

    while True:
        await asyncio.sleep(settings.backup_interval_minutes * 60)
        # a stop during a backup waits for it and its rotation: the copy being written
        # in its thread would otherwise land after the stop, one more than BACKUP_KEEP
        await run_to_end(asyncio.ensure_future(one_backup()))


# ------------------------------------------------------------- database commands
def sqlite_settings(command: str, instead: str, *, explicit_db: bool = False) -> Settings | int:
    """The settings for a command that works on the SQLite file, or its exit status: a bad
    setting, or DATABASE_URL naming PostgreSQL (say what to use instead) unless the
    command was given a database file of its own (``explicit_db``)."""
    settings = load_settings()
    if isinstance(settings, int) or explicit_db or settings.postgres_url() is None:
        return settings
    return fail(
        f"`python -m bot {command}` works on a SQLite database, but DATABASE_URL names a "
        f"PostgreSQL one: {instead}",
        EXIT_USAGE,
    )


def cmd_audit(args: Sequence[str]) -> int:
    from bot.audit import main as audit_main

    return audit_main(list(args))


def cmd_init(args: Sequence[str]) -> int:
    if args:
        return fail("`python -m bot init` takes no arguments", EXIT_USAGE)
    settings = sqlite_settings(
        "init", "create the database with createdb; the bot creates its tables"
    )
    if isinstance(settings, int):
        return settings
    return asyncio.run(init(settings))


async def init(settings: Settings) -> int:
    from bot.storage import StorageError, Store
    from bot.storage.files import mark_initialised, prepare_init
    from bot.storage.lock import ProcessLock

    db = settings.database_path
    try:
        with ProcessLock.acquire(db):
            prepare_init(db)
            store = await Store.open(db)
            await store.close()
            mark_initialised(db)
    except StorageError as exc:
        return fail(str(exc), EXIT_DATABASE)
    print(f"created a new, empty database at {db}")
    return 0


def cmd_backup(args: Sequence[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Write an online backup of the database now (safe while the bot runs).",
    )
    parser.add_argument("--db", type=Path, default=None, help="default: DATABASE_PATH")
    parser.add_argument(
        "--to",
        type=Path,
        default=None,
        help="a new file, or an existing folder to put a timestamped file in "
        "(default: BACKUP_DIR); never overwrites a file, never creates folders",
    )
    ns = parser.parse_args(list(args))
    settings = sqlite_settings("backup", "back it up with pg_dump", explicit_db=ns.db is not None)
    if isinstance(settings, int):
        return settings
    if ns.to is not None:
        refused = backup_target_refused(ns.to)
        if refused is not None:
            return fail(refused, EXIT_USAGE)
    from bot.storage import StorageError
    from bot.storage.backup import backup_database, rotate

    db: Path = ns.db or settings.database_path
    dest: Path = ns.to or settings.backup_dir
    try:
        if ns.to is None:
            dest.mkdir(parents=True, exist_ok=True)
        path = backup_database(db, dest)
    except (StorageError, OSError) as exc:
        return fail(f"backup of {db} failed: {exc}", EXIT_DATABASE)
    except Exception as exc:  # sqlite3.Error: a damaged database
        return fail(f"backup of {db} failed: {exc}", EXIT_DATABASE)
    if ns.to is None:
        rotate(dest, settings.backup_keep)
    print(f"backup written: {path}")
    return 0


def backup_target_refused(to: Path) -> str | None:
    """Why ``backup --to`` may not write there, or None: an existing file is never
    overwritten (it may be the only good backup), and a missing folder is never created
    (a typo would otherwise put the backup where nobody looks)."""
    if to.is_dir():
        return None
    if to.exists() or to.is_symlink():
        return f"{to} already exists; backup refused (choose a new name, or a folder)"
    if not to.parent.is_dir():
        return f"the folder {to.parent} does not exist; backup refused (create it first)"
    return None


def cmd_restore(args: Sequence[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m bot restore",
        description="Make a backup the bot's database, after auditing it. The bot must be "
        "stopped; the replaced database is kept as <database>.before-restore.",
    )
    parser.add_argument("file", type=Path, help="the backup to restore")
    parser.add_argument("--db", type=Path, default=None, help="default: DATABASE_PATH")
    ns = parser.parse_args(list(args))
    settings = sqlite_settings(
        "restore", "restore a pg_dump with pg_restore", explicit_db=ns.db is not None
    )
    if isinstance(settings, int):
        return settings
    return asyncio.run(restore(ns.file, ns.db or settings.database_path))


async def restore(backup: Path, db: Path) -> int:
    from bot.audit import audit_backup
    from bot.storage import StorageError
    from bot.storage.backup import restore_database
    from bot.storage.files import mark_initialised
    from bot.storage.lock import DatabaseInUse, ProcessLock

    try:
        lock = ProcessLock.acquire(db)
    except (DatabaseInUse, StorageError) as exc:
        return fail(f"{exc}; restore refused", EXIT_DATABASE)
    with lock:
        ok, report = await audit_backup(backup)
        print(report)
        if not ok:
            return fail(f"{backup} failed the audit; restore refused, nothing changed", 1)
        try:
            restore_database(backup, db)
        except (StorageError, OSError) as exc:
            return fail(f"restore failed: {exc}", EXIT_DATABASE)
        mark_initialised(db)
    print(f"restored {backup} to {db}")
    return 0


# ------------------------------------------------------------- operators' checks
def cmd_migrate(args: Sequence[str]) -> int:
    """``migrate --check``: is the database behind this code? 0 up to date, 1 behind
    (the next start applies the listed migrations), 3 unusable or newer than the code."""
    if list(args) != ["--check"]:
        return fail(
            "usage: python -m bot migrate --check (the bot applies migrations itself at "
            "start; back up first with `python -m bot backup`)",
            EXIT_USAGE,
        )
    settings = load_settings()
    if isinstance(settings, int):
        return settings
    from bot.storage.schema_check import pending_migrations

    try:
        have, pending = asyncio.run(pending_migrations(settings))
    except Exception as exc:
        return fail(f"cannot read the database's schema: {exc}", EXIT_DATABASE)
    if not pending:
        print(f"the database is up to date (schema version {have})")
        return 0
    names = ", ".join(m.name for m in pending)
    print(
        f"the database is at schema version {have}; the next start applies "
        f"{len(pending)} migration(s): {names}"
    )
    return 1


def cmd_health(args: Sequence[str]) -> int:
    """``health``: ask the running bot's /healthz (METRICS_PORT); 0 healthy, 1 not."""
    if args:
        return fail("`python -m bot health` takes no arguments", EXIT_USAGE)
    settings = load_settings()
    if isinstance(settings, int):
        return settings
    if not settings.metrics_port:
        return fail("METRICS_PORT is not set: the bot serves no health check", EXIT_USAGE)
    import urllib.error
    import urllib.request

    host = settings.metrics_host if settings.metrics_host not in ("0.0.0.0", "::") else "127.0.0.1"
    url = f"http://{host}:{settings.metrics_port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            print(answer.read().decode())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode())
        return 1
    except OSError as exc:
        return fail(f"no answer from {url}: {exc}", 1)


COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "run": cmd_run,
    "sandbox": cmd_sandbox,
    "audit": cmd_audit,
    "init": cmd_init,
    "backup": cmd_backup,
    "restore": cmd_restore,
    "migrate": cmd_migrate,
    "health": cmd_health,
}


def exit_process(code: int) -> None:
    """Exit with ``code``; when a store left a connection unclosed on purpose (its
    database file was overwritten in place), exit without finalizers, which would close
    it and write its log into the other program's file."""
    from bot.storage.base import abandoned_connections

    if abandoned_connections():
        sys.stdout.flush()
        sys.stderr.flush()
        logging.shutdown()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    exit_process(main())
