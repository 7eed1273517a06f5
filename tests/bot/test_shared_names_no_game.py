"""Nothing shared names a game: the code of every shared module (``bot/`` but the registry
``bot/games.py`` and each game's ``bot/<game>.py`` and ``bot/<game>_*.py``, the modules at the top of
``cogs/``, and those at the top of ``engine/``) holds no game's name in an identifier or a string, so a new game is added
without editing them. Docstrings and comments may name a game as an example.

The bot's own name, ``pontoon``, is also Pontoon's: where the code writes the bot's name
(the distribution, the metrics' namespace, the data file, the backups, a PostgreSQL
channel) it is listed below, so that a new such use is a decision, not an accident."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

#: file -> strings that begin with the bot's name (not a game's), each kept for operators
BOTS_NAME = {
    "bot/__main__.py": ("pontoon-bot",),  # the distribution (pip, --version)
    "bot/audit.py": ("pontoon-restore-",),  # a scratch folder's prefix
    "bot/metrics.py": ("pontoon_",),  # the metrics' namespace (dashboards, alerts)
    "bot/settings.py": ("pontoon.sqlite3", "must be a PostgreSQL URL"),  # the data file
    "bot/storage/backup.py": ("pontoon-",),  # backup file names
    "bot/storage/pg/listen.py": ("pontoon_erasure",),  # a PostgreSQL NOTIFY channel
}


def _game_words() -> set[str]:
    words = set()
    for game in GAMES:
        words |= {game.name, game.title.lower(), game.group}  # Punto Banco's: /baccarat
    return {w.replace("_", "").replace(" ", "") for w in words}


def _own(name: str) -> bool:
    """A top-level module of bot/ that is one game's: the registry, ``<game>.py`` or a
    part of it split off as ``<game>_<part>.py`` (Pontoon's hint inputs)."""
    return name == "games.py" or any(
        name == f"{game.name}.py" or name.startswith(f"{game.name}_") for game in GAMES
    )


def _shared_modules() -> list[Path]:
    found = [
        p for p in (ROOT / "bot").rglob("*.py") if p.parent != ROOT / "bot" or not _own(p.name)
    ]
    # the engine's shared modules too (its command line, and engine/games.py, which finds
    # the games instead of listing them)
    engine = list((ROOT / "engine").glob("*.py"))
    return sorted(found + list((ROOT / "cogs").glob("*.py")) + engine)


def _said(tree: ast.AST) -> list[tuple[int, str]]:
    """Every identifier and every string but docstrings, with its line."""
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docs.add(id(body[0].value))
    said: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs:
                said.append((line, node.value))
        elif isinstance(node, ast.Name):
            said.append((line, node.id))
        elif isinstance(node, ast.Attribute | ast.keyword):
            said.append((line, str(node.attr if isinstance(node, ast.Attribute) else node.arg)))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            said.append((line, node.name))
        elif isinstance(node, ast.arg):
            said.append((line, node.arg))
        elif isinstance(node, ast.alias):
            said.append((line, node.name))
        elif isinstance(node, ast.ImportFrom) and node.module:
            said.append((line, node.module))
    return said


def test_no_shared_module_names_a_game_in_its_code() -> None:
    words = _game_words()
    modules = _shared_modules()
    assert ROOT / "bot" / "host.py" in modules and ROOT / "cogs" / "router.py" in modules
    assert ROOT / "engine" / "__main__.py" in modules and ROOT / "engine" / "games.py" in modules
    assert ROOT / "bot" / "games.py" not in modules
    found = []
    for path in modules:
        name = path.relative_to(ROOT).as_posix()
        allowed = BOTS_NAME.get(name, ())
        for line, text in _said(ast.parse(path.read_text(encoding="utf-8"))):
            flat = text.lower().replace("_", "").replace("-", "").replace(" ", "")
            if any(word in flat for word in words) and not text.startswith(allowed or ("\0",)):
                found.append(f"{name}:{line}: {text[:80]!r}")
    assert not found, "\n".join(found)


def test_the_check_sees_a_game_named_in_code() -> None:
    """The scan above finds a game's name in an identifier and in a string, and not in a
    docstring."""
    tree = ast.parse(
        '"""Pontoon, as an example."""\n'
        "from bot.punto_banco import X\n"
        "def f(baccarat_seconds: int) -> str:\n"
        "    return 'pontoon'\n"
    )
    words = _game_words()
    hits = [
        line for line, text in _said(tree) if any(w in text.lower().replace("_", "") for w in words)
    ]
    assert sorted(set(hits)) == [2, 3, 4]


def test_no_ambient_interaction_no_private_discord_no_local_refusals() -> None:
    """One path per click: no context variable carries anything but the log lines' ids
    (bot/logs.py), nothing reads discord.py's private attributes or the engine's banker
    cap, and refusals are turned into answers only by the router (cogs/router.py)."""
    found = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for needle, only_in in (
            ("ContextVar", "bot/logs.py"),
            ("__discord_ui_compiled_template__", None),
            ("_banker_cap", None),
            ("except (ServiceError, EngineError)", "cogs/router.py"),
        ):
            if needle in text and name != only_in:
                found.append(f"{name}: {needle}")
    assert not found, found


def test_the_log_context_holds_ids_only() -> None:
    """The one context variable names what a line is about (numbers and table ids); it
    is read by the log filter only, never by code that answers or plays."""
    from bot import logs

    assert set(logs.CONTEXT_KEYS) == {"guild", "channel", "member", "shard", "table"}
    readers = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        if path.name != "logs.py" and ("logs._context" in text or "import _context" in text):
            readers.append(path.relative_to(ROOT).as_posix())
    assert readers == [], readers
    # logs.py itself only sets it (set_log_context) and reads it (ContextFilter)
    tree = ast.parse((ROOT / "bot" / "logs.py").read_text(encoding="utf-8"))
    reads = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "_context"
    ]
    assert {node.attr for node in reads} == {"get", "set"}


def test_contributing_names_what_every_game_package_exports() -> None:
    """CONTRIBUTING's "Adding a game" lists what a game's Discord package exports and the
    two registries; every registered game has exactly those, so the guide stays true."""
    import importlib

    import engine.games

    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    guide = text[text.index("## Adding a game") : text.index("## Commits")]
    exports = {"Presenter", "setup", "BUTTONS", "FORMS", "refusal_text", "Settings", "HELP"}
    for name in exports:
        assert f"`{name}`" in guide or f"`{name}(" in guide, name
    for game in GAMES:
        package = importlib.import_module(game.package)
        assert exports <= set(package.__all__), (game.name, exports - set(package.__all__))
    assert "`engine/games.py`" in guide and "`bot/games.py`" in guide
    assert {g.name for g in engine.games.GAMES} == {g.name for g in GAMES}
