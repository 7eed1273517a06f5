"""``python -m engine replay|simulate|odds|bench`` (see shared/formats/engine-cli.md).

Everything printed on stdout is one JSON document; errors go to stderr with a non-zero
exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    from engine.pontoon import cli as pontoon_cli
    from engine.punto_banco import cli as pb_cli

    pontoon_cli.add_replay_parser(sub)
    sim = sub.add_parser("simulate", help="simulate many rounds and print measured figures")
    sim_sub = sim.add_subparsers(dest="game", required=True)
    pontoon_cli.add_simulate_parser(sim_sub)
    pb_cli.add_simulate_parser(sim_sub)
    odds = sub.add_parser("odds", help="exact odds by enumeration")
    odds_sub = odds.add_subparsers(dest="game", required=True)
    pb_cli.add_odds_parser(odds_sub)
    bench = sub.add_parser(
        "bench", help="rounds per second of Pontoon, coups per second of Punto Banco"
    )
    bench.add_argument("--seconds", type=float, default=3.0, help="time per benchmark")
    bench.set_defaults(func=_bench)

    args = parser.parse_args(argv)
    try:
        code, doc = args.func(args)
    except Exception as exc:  # the CLI's one place to turn errors into exit codes
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(doc, indent=2, sort_keys=False))
    return int(code)


def _bench(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    from engine.pontoon import cli as pontoon_cli
    from engine.punto_banco import cli as pb_cli

    return 0, {
        "pontoon": pontoon_cli.bench(args.seconds),
        "punto_banco": pb_cli.bench(args.seconds),
    }


if __name__ == "__main__":
    sys.exit(main())
