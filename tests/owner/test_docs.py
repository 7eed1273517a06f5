"""Documents that fit their reader and point inside the repository."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.i18n import catalog_files

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = [README, REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]
RULE_ID = re.compile(r"\b([PB]-[A-Z]+(?:-[0-9A-Z]+)?)\b")
OUTSIDE = re.compile(r"\.\./shared|shared/rules|shared/formats")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_licence_is_mit_and_named_in_pyproject() -> None:
    licence = _text(REPO / "LICENSE")
    assert licence.startswith("MIT License") and "the Pontoon bot contributors" in licence
    project = tomllib.loads(_text(REPO / "pyproject.toml"))["project"]
    assert project["license"] == {"text": "MIT"}


def test_rules_and_formats_are_inside_the_repository() -> None:
    """No document, code or test points at the rule or format texts outside the repo
    (docs/glossary.md says the seed texts it quotes are not shipped, without a path)."""
    offenders = []
    for path in DOCS:
        offenders += [f"{path}:{m.group(0)}" for m in OUTSIDE.finditer(_text(path))]
    for folder in ("engine", "bot", "cogs", "scripts", "tests"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix not in (".py", ".md") or path == Path(__file__).resolve():
                continue
            for m in re.finditer(r"shared/rules|shared/formats", _text(path)):
                offenders.append(f"{path}:{m.group(0)}")
    assert offenders == []


@pytest.mark.parametrize("args", [["--help"], ["replay", "--help"], ["simulate", "--help"]])
def test_engine_help_points_inside_the_repository(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "shared/" not in done.stdout.replace("\n", "")
    if args == ["--help"]:
        assert "docs/engine-cli.md" in done.stdout.replace("\n", "").replace(" ", "")


def test_every_rule_id_the_bot_cites_is_defined_in_docs_rules() -> None:
    defined = set()
    for path in (REPO / "docs" / "rules").glob("*.md"):
        defined |= set(re.findall(r"\*\*([PB]-[A-Z]+(?:-[0-9A-Z]+)?)\*\*", _text(path)))
    assert len(defined) > 60
    cited: dict[str, str] = {}
    sources = [README, *catalog_files()]
    for folder in ("engine", "bot", "cogs"):
        sources += list((REPO / folder).rglob("*.py")) + list((REPO / folder).rglob("*.md"))
    for path in sources:
        for rule in RULE_ID.findall(_text(path)):
            cited.setdefault(rule, str(path))
    unknown = {
        rule: where
        for rule, where in cited.items()
        # a family (P-SHOOT for P-SHOOT-1..9) is fine
        if rule not in defined and not any(d.startswith(rule + "-") for d in defined)
    }
    assert unknown == {}


def test_local_links_in_the_documents_exist() -> None:
    broken = []
    for path in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _text(path)):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            if not (path.parent / target).exists():
                broken.append(f"{path.relative_to(REPO)} -> {target}")
    assert broken == []


def _first_command() -> str:
    block = re.search(r"```bash\n(.*?)\n```", _text(README), re.S)
    assert block is not None
    return block.group(1)


def test_the_first_command_works_again_when_env_exists(tmp_path: Path) -> None:
    """`cp -n` fails where .env exists on some systems (GNU coreutils 9.2-9.4, BSD,
    macOS): the README's first command must not depend on it."""
    command = _first_command()
    assert "python -m bot" in command and "cp -n" not in command
    part = re.search(r"&& (\{ .*? \}) && python -m bot", command)
    assert part is not None, command
    (tmp_path / ".env.example").write_text("# example\n")
    for run in range(2):
        done = subprocess.run(["sh", "-c", part.group(1)], cwd=tmp_path)
        assert done.returncode == 0, run
        if run == 0:
            (tmp_path / ".env").write_text("DISCORD_TOKEN=mine\n")
    assert (tmp_path / ".env").read_text() == "DISCORD_TOKEN=mine\n"  # kept


def test_readme_does_not_ask_for_env_before_the_command_that_creates_it() -> None:
    before = _text(README).split(_first_command())[0]
    assert ".env` first" not in before and "token in `.env`" not in before


def _slash_commands() -> set[str]:
    """Every slash command in cogs/ as `/group sub` or `/name`, read from the source."""
    found = set()
    for path in (REPO / "cogs").rglob("*.py"):
        source = _text(path)
        group = re.search(r'group_name="([^"]+)"', source)
        for m in re.finditer(r'@app_commands\.command\(\s*name="([^"]+)"', source):
            found.add(f"/{group.group(1)} {m.group(1)}" if group else f"/{m.group(1)}")
        for var, name in re.findall(r'(\w+) = app_commands\.Group\(\s*name="([^"]+)"', source):
            for m in re.finditer(rf'@{var}\.command\(\s*name="([^"]+)"', source):
                found.add(f"/{name} {m.group(1)}")
    return found


def test_the_readme_names_every_slash_command() -> None:
    commands = _slash_commands()
    assert {"/pontoon start", "/bank auction", "/bank bid", "/baccarat table"} <= commands
    readme = _text(README)
    missing = sorted(c for c in commands if c not in readme)
    assert missing == []


def test_the_readme_says_which_intents_and_permissions_the_bot_needs() -> None:
    readme = _text(README)
    assert "Privileged Gateway Intents" in readme and "needs none of them" in readme
    for name in (
        "View Channel",
        "Send Messages",
        "Send Messages in Threads",
        "Embed Links",
        "Read Message History",
    ):
        assert f"| {name} |" in readme
    assert "bot+applications.commands" in readme


def test_contributing_shows_how_to_add_a_command_a_language_and_a_game() -> None:
    text = _text(REPO / "CONTRIBUTING.md")
    for heading in ("## Layout", "## Adding a slash command", "## Adding a language"):
        assert heading in text
    assert "## Adding a game" in text
    # the paths it names exist
    for path in re.findall(r"`((?:bot|cogs|engine|tests|docs)/[\w./]+\.(?:py|md))`", text):
        assert (REPO / path).exists(), path


def test_measurements_live_in_docs_performance() -> None:
    readme = _text(README)
    perf = _text(REPO / "docs" / "performance.md")
    for heading in ("## Reliability", "## On Discord's rate limits", "## Storage speed"):
        assert heading not in readme and heading in perf
    assert "docs/performance.md" in readme


# A folder of the machine a file was written on (a top folder such as tmp, root or home), and
# words only the people who wrote the code could follow: numbers of a tracker that is not
# part of the repository, names of test batteries and branches nobody else has.
MACHINE_PATH = re.compile(r"(?<![\w.~$-])/(?:work|tmp|root|home|Users)/[\w.-]")
INSIDER = re.compile(
    r"\b[Ii]ssues? #?\d+\b|[Hh]idden[- ][Bb]attery|\battack`? branch\b|\b[Tt]he shared machine\b"
)


def _repository_files() -> list[Path]:
    """Every file of the repository (git's list; without git, the tree minus what git
    ignores here: virtual environments, caches, data)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if listed.returncode == 0 and listed.stdout:
        return [REPO / name for name in listed.stdout.split("\0") if name]
    skip = {".git", ".venv", "venv", "data", "node_modules", ".mutate-cache"}
    return [
        p
        for p in REPO.rglob("*")
        if p.is_file() and not skip & set(p.relative_to(REPO).parts) and "cache" not in str(p)
    ]


def test_the_repository_speaks_of_itself_only() -> None:
    """No file names a folder of a developer's machine or an insider word; a test file
    is named for what it tests. (Where a test needs files from outside the repository
    it says where CI provides them, as tests/i18n/test_glossary.py does.)"""
    offenders = []
    for path in _repository_files():
        if not path.is_file() or path == Path(__file__).resolve():
            continue  # deleted in the work tree; this file's examples of what is found
        data = path.read_bytes()
        if b"\0" in data[:4096]:
            continue  # a picture or another binary file
        text = data.decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for rx in (MACHINE_PATH, INSIDER):
                m = rx.search(line)
                if m:
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {m.group(0)}")
        if "issue" in path.name.lower():
            offenders.append(f"{path.relative_to(REPO)}: a file named for an issue")
    assert offenders == [], "\n".join(offenders)


def test_the_check_sees_machine_paths_and_insider_words() -> None:
    for line in (
        "see /" + "work/shared/rules",  # split: this file must not name the path itself
        "--compare-dir /tmp/x/main",
        "HOME=/home/dev/pontoon",
        "(issue 17)",
        "Issue 9: the form",
        "the hidden battery",
        "the `attack` branch",
        "never run it on the shared machine",  # only its writers know which machine
    ):
        assert MACHINE_PATH.search(line) or INSIDER.search(line), line
    for line in (
        "--compare-dir ../pontoon-old",
        "the HTTP session closes",
        "python -m pytest tests/bot/test_attack_cli.py",
        "an http://127.0.0.1:9/api/v10 base",
        "$TMPDIR/x and ~/home/x",
    ):
        assert not MACHINE_PATH.search(line) and not INSIDER.search(line), line
