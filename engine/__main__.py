"""``python -m engine replay|simulate|odds|bench`` (see docs/engine-cli.md).

Everything printed on stdout is one JSON document; errors go to stderr with a non-zero
exit status (1; 2 for bad options or a refused replay action). Ctrl-C stops with status
130 and a closed output pipe (``| head``) with status 1, both without a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from engine.cli_options import MAX_SECONDS, Parser, seconds


def build_parser() -> argparse.ArgumentParser:
    from engine.blackjack import cli as bj_cli
    from engine.pontoon import cli as pontoon_cli
    from engine.pontoon import odds as pontoon_odds
    from engine.punto_banco import cli as pb_cli

    parser = Parser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    pontoon_cli.add_replay_parser(sub)
    # A replay file with "game": "punto_banco" is a Punto Banco game (API.md of
    # engine/punto_banco), "game": "blackjack" a Blackjack one (engine/blackjack);
    # any other is Pontoon's, as engine-cli.md describes.
    sub.choices["replay"].set_defaults(func=_replay)
    sub.choices["replay"].description = (
        'Replay a scripted Pontoon game, or a Punto Banco ("game": "punto_banco") '
        'or Blackjack ("game": "blackjack") one.'
    )
    sim = sub.add_parser("simulate", help="simulate many rounds and print measured figures")
    sim_sub = sim.add_subparsers(dest="game", required=True)
    pontoon_cli.add_simulate_parser(sim_sub)
    pb_cli.add_simulate_parser(sim_sub)
    odds = sub.add_parser("odds", help="exact odds by enumeration")
    odds_sub = odds.add_subparsers(dest="game", required=True)
    pontoon_odds.add_odds_parser(odds_sub)
    pb_cli.add_odds_parser(odds_sub)
    bj_cli.add_odds_parser(odds_sub)
    bench = sub.add_parser(
        "bench", help="rounds per second of Pontoon, coups per second of Punto Banco"
    )
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
    from engine.blackjack import cli as bj_cli
    from engine.errors import ConfigError
    from engine.pontoon import cli as pontoon_cli
    from engine.punto_banco import cli as pb_cli

    name = args.file
    try:
        with open(name, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return pontoon_cli._replay_cmd(args)  # names what is wrong with the file
    if isinstance(doc, dict) and doc.get("game") == "punto_banco":
        try:
            return pb_cli.replay_doc(doc)
        except ConfigError as exc:
            raise ConfigError(f"{name}: {exc}") from None
    if isinstance(doc, dict) and doc.get("game") == "blackjack":
        try:
            return bj_cli.replay_doc(doc)
        except ConfigError as exc:
            raise ConfigError(f"{name}: {exc}") from None
    return pontoon_cli._replay_cmd(args)


def _bench(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    from engine.pontoon import cli as pontoon_cli
    from engine.punto_banco import cli as pb_cli

    return 0, {
        "pontoon": pontoon_cli.bench(args.seconds),
        "punto_banco": pb_cli.bench(args.seconds),
    }


if __name__ == "__main__":
    sys.exit(main())
