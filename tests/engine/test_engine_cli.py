"""`python -m engine`: limits, help text, clean exits, and clear errors for bad replay files."""

from __future__ import annotations

import argparse
import inspect
import json
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from engine.__main__ import build_parser, main
from engine.pontoon import cli as pontoon_cli

ROOT = Path(__file__).resolve().parents[2]


def _run_engine(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine", *args]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "pontoon", "--rounds", "10000001"], "between 1 and 10,000,000"),
        (["simulate", "pontoon", "--rounds", "0"], "between 1 and 10,000,000"),
        (["simulate", "pontoon", "--rounds", "lots"], "'lots' is not a whole number"),
        (["simulate", "punto-banco", "--coups", "20000000"], "between 1 and 10,000,000"),
        (["bench", "--seconds", "3601"], "between 0.01 and 3600 seconds"),
        (["bench", "--seconds", "nan"], "between 0.01 and 3600 seconds"),
        (["bench", "--seconds", "-1"], "between 0.01 and 3600 seconds"),
    ],
)
def test_rounds_coups_and_seconds_are_capped_with_a_clear_message(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_the_simulate_function_refuses_too_many_rounds_too() -> None:
    from engine.errors import ConfigError

    with pytest.raises(ConfigError, match="10,000,000"):
        pontoon_cli.simulate(10_000_001, seed=0)


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found.extend(_parsers(child))
    return found


def test_every_option_has_help_text_and_shows_its_default() -> None:
    parsers = _parsers(build_parser())
    assert len(parsers) >= 7  # engine, replay, simulate x2, odds x1, bench ...
    for parser in parsers:
        text = parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                continue
            assert action.help, (parser.prog, action.dest)
            if action.option_strings:
                assert action.default is not None or "none" in action.help, action.dest
                assert "(default:" in text, parser.prog
        options = [a for a in parser._actions if a.option_strings and a.dest != "help"]
        assert text.count("(default:") >= len(options), parser.prog


# `python -m engine ...` that writes "simulating" on stderr once the first round is being
# played, i.e. once main() is running the simulation: the condition the Ctrl-C test waits
# for (a fixed sleep was too short on a busy machine: the signal came during start-up).
# It also restores Python's Ctrl-C handler: a test run started in the background of a
# non-interactive shell (nohup, CI wrappers) passes SIGINT down as ignored, and Python
# then leaves it ignored, so the signal would never arrive.
_SIGNAL_WHEN_SIMULATING = """
import signal
import sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from engine.__main__ import main
from engine.pontoon import Table

apply = Table.apply

def first_apply(self, *args, **kwargs):
    Table.apply = apply
    sys.stderr.write("simulating\\n")
    sys.stderr.flush()
    return apply(self, *args, **kwargs)

Table.apply = first_apply
sys.exit(main(sys.argv[1:]))
"""


def _wait_for_line(stream: IO[str], wanted: str, timeout: float) -> None:
    """Read ``stream`` until a line equal to ``wanted``; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if sel.select(timeout=deadline - time.monotonic()):
                line = stream.readline()
                if line.strip() == wanted:
                    return
                assert line, f"the process ended before writing {wanted!r}"
    pytest.fail(f"no {wanted!r} line within {timeout} s")


def test_ctrl_c_stops_with_status_130_and_no_traceback() -> None:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _SIGNAL_WHEN_SIMULATING,
            "simulate",
            "pontoon",
            "--rounds",
            "10000000",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        _wait_for_line(proc.stderr, "simulating", timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert out == ""


def test_a_closed_output_pipe_stops_quietly() -> None:
    # like `python -m engine simulate pontoon | head -0`: the reader is gone before we write
    proc = subprocess.Popen(
        _run_engine("simulate", "pontoon", "--rounds", "3000"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"rules": {}, "actions": []}', 'missing "seats" (the list of seat ids)'),
        ('{"seats": "ann"}', '"seats" must be a list of seat ids'),
        ('{"seats": ["a", "b"], "balances": {"a": "lots"}}', '"balances" must map seat ids'),
        ('{"seats": ["a", "b"], "pack": "7S"}', '"pack" must be a list of cards'),
        ('{"seats": ["a", "b"], "actions": {"act": "bet"}}', '"actions" must be a list'),
        ('{"seats": ["a", "b"], "actions": [{"seat": "a"}]}', 'action 0: missing "act"'),
        (
            '{"seats": ["a", "b"], "actions": [{"act": "stick"}, {"act": "bet", "amount": "5"}]}',
            'action 1: "amount" must be a whole number',
        ),
        ('{"seats": ["a", "b"], "actions": [{"act": "fly"}]}', "action 0: unknown act 'fly'"),
        ('{"seats": ["a", "b"], "oops": 1}', "unknown replay keys ['oops']"),
        ("[1, 2]", "the file must hold one JSON object"),
        ("{", "not valid JSON"),
    ],
)
def test_a_bad_replay_file_names_what_is_wrong(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {path}: ")
    assert message in captured.err, captured.err


def test_a_missing_replay_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    assert f"{tmp_path / 'nope.json'}: no such file" in capsys.readouterr().err


def test_a_good_replay_file_still_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({"seats": ["a", "b"], "banker": "b", "balances": {"a": 9, "b": 9}}))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "betting"


def test_bench_uses_only_the_public_api() -> None:
    source = inspect.getsource(pontoon_cli.play_bench_rounds)
    assert "._" not in source
    for name in ("legal_actions", "private_view", "apply"):
        assert f".{name}(" in source
