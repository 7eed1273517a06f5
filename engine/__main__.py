"""``python -m engine replay|simulate|odds|bench`` (see docs/engine-cli.md).

Everything printed on stdout is one JSON document; errors go to stderr with a non-zero
exit status (1; 2 for bad options or a refused replay action). Ctrl-C stops with status
130 and a closed output pipe (``| head``) with status 1, both without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, cast

from engine.cli_options import MAX_SECONDS, Parser, seconds

Replayed = tuple[int, dict[str, Any]]


def game_clis() -> list[tuple[str, ModuleType]]:
    """Each game's command-line module (``engine/<game>/cli.py``), in the order of
    ``engine.games``: a game takes part in what its module offers (``replay_doc``,
    ``add_simulate_parser``, ``add_odds_parser``, ``bench``), so a new game needs no
    edit here. The game whose module has ``add_replay_parser`` comes first: its replay
    format is the default, a replay file that names no other game (``"game"``) is played
    as that game's (docs/engine-cli.md)."""
    from engine.games import GAMES

    clis = [(game.name, importlib.import_module(f"engine.{game.name}.cli")) for game in GAMES]
    return sorted(clis, key=lambda named: not hasattr(named[1], "add_replay_parser"))


def build_parser() -> argparse.ArgumentParser:
    clis = game_clis()
    default_name, default = clis[0]
    parser = Parser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    default.add_replay_parser(sub)
    others = [f'"game": "{name}"' for name, cli in clis[1:] if hasattr(cli, "replay_doc")]
    sub.choices["replay"].set_defaults(func=_replay)
    sub.choices["replay"].description = (
        f"Replay a scripted game from a JSON file: {', '.join(others)} name their game; "
        f"any other file is a {default_name} game."
    )
    sim = sub.add_parser("simulate", help="simulate many rounds and print measured figures")
    sim_sub = sim.add_subparsers(dest="game", required=True)
    odds = sub.add_parser("odds", help="exact odds by enumeration")
    odds_sub = odds.add_subparsers(dest="game", required=True)
    for _, cli in clis:
        if hasattr(cli, "add_simulate_parser"):
            cli.add_simulate_parser(sim_sub)
        if hasattr(cli, "add_odds_parser"):
            cli.add_odds_parser(odds_sub)
    bench = sub.add_parser("bench", help="rounds (or coups) per second of each game's engine")
    bench.add_argument(
        "--seconds",
        type=seconds(0.01, MAX_SECONDS),
        default=3.0,
        help=f"time per benchmark, at most {MAX_SECONDS:g}",
    )
    bench.set_defaults(func=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        try:
            code, doc = args.func(args)
        except Exception as exc:  # the CLI's one place to turn errors into exit codes
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(json.dumps(doc, indent=2, sort_keys=False))
        sys.stdout.flush()
        return int(code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly. Point stdout at devnull so
        # the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _replay(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    from engine.errors import ConfigError

    clis = game_clis()
    default = clis[0][1]
    name = args.file
    try:
        with open(name, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return cast(Replayed, default._replay_cmd(args))  # names what is wrong with the file
    game = doc.get("game") if isinstance(doc, dict) else None
    for game_name, cli in clis[1:]:
        if game == game_name and hasattr(cli, "replay_doc"):
            try:
                return cast(Replayed, cli.replay_doc(doc))
            except ConfigError as exc:
                raise ConfigError(f"{name}: {exc}") from None
    return cast(Replayed, default._replay_cmd(args))


def _bench(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    return 0, {name: cli.bench(args.seconds) for name, cli in game_clis() if hasattr(cli, "bench")}


if __name__ == "__main__":
    sys.exit(main())
