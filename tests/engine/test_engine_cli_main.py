"""`python -m engine` through its main() function, in this process: the limits and exit
statuses of docs/engine-cli.md ("Limits and exit statuses") that the subprocess tests of
test_engine_cli.py also check (a mutant of the engine is only seen in this process), and
the options' ranges at their edges."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from engine import __main__ as engine_main
from engine.__main__ import main
from engine.cli_options import MAX_ROUNDS, MAX_SECONDS, seconds, whole_number
from engine.punto_banco import cli as pb_cli


@pytest.mark.parametrize("argv", [[], ["simulate"], ["odds"]])
def test_a_command_without_its_game_is_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 2 for a usage error: the command, and the game after `simulate` or
    `odds`, are required."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "required" in err and "Traceback" not in err


def test_the_document_is_printed_indented_in_the_order_it_was_built(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Everything printed on stdout is one JSON document, indented by two spaces, its keys
    in the order the command wrote them (the chances first, the edges after)."""
    assert main(["odds", "punto-banco"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert list(doc)[:4] == ["banco", "punto", "tie", "edge"]
    assert out.splitlines()[1] == f'  "banco": {json.dumps(doc["banco"])},'


def _raising(exc: BaseException) -> Any:
    def run(args: argparse.Namespace) -> Any:
        raise exc

    return run


def test_ctrl_c_in_a_command_ends_with_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 130 when interrupted with Ctrl-C, "interrupted" on stderr, nothing on
    stdout and no traceback."""
    monkeypatch.setattr(pb_cli, "run_odds", _raising(KeyboardInterrupt()))
    assert main(["odds", "punto-banco"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "interrupted\n"


def test_an_error_in_a_command_ends_with_status_1_on_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit status 1 for any other error: one line on stderr."""
    monkeypatch.setattr(pb_cli, "run_odds", _raising(ValueError("no odds today")))
    assert main(["odds", "punto-banco"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "error: no odds today\n"


class _ClosedPipe:
    """A stdout whose reader has gone away (`| head`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError

    def flush(self) -> None:
        raise BrokenPipeError

    def fileno(self) -> int:
        return 1


def test_a_closed_output_pipe_ends_quietly_with_status_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A closed output pipe ends the command quietly with status 1; stdout is pointed at
    the null device so that the flush at exit cannot fail again. (capsys comes first so
    that the stdout replaced here is put back before capsys puts back its own.)"""
    pointed: list[int] = []
    monkeypatch.setattr(engine_main.os, "dup2", lambda src, dst: pointed.append(dst))
    monkeypatch.setattr(engine_main.sys, "stdout", _ClosedPipe())
    assert main(["odds", "punto-banco"]) == 1
    assert pointed == [1]
    assert capsys.readouterr().err == ""


def test_bench_runs_both_games_and_ends_with_status_0(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench` prints rounds per second of Pontoon and coups per second of Punto Banco."""
    assert main(["bench", "--seconds", "0.01"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"pontoon", "punto_banco"}
    assert doc["punto_banco"]["coups"] > 0


@pytest.mark.parametrize(
    ("parse", "least", "most"),
    [
        (whole_number(1, MAX_ROUNDS), "1", "10000000"),
        (whole_number(1, 8), "1", "8"),
        (seconds(0.01, MAX_SECONDS), "0.01", "3600"),
    ],
)
def test_each_option_s_range_includes_both_ends(parse: Any, least: str, most: str) -> None:
    """The ranges of docs/engine-cli.md are inclusive: `--coups` 1 to 10,000,000,
    `--packs` 1 to 8 (B-TABLE-2), `bench --seconds` 0.01 to 3600."""
    assert parse(least) == float(least)
    assert parse(most) == float(most)
