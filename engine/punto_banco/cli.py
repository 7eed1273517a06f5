"""``python -m engine odds|simulate punto-banco`` and the Punto Banco part of ``bench``."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine.cards import RandomChance
from engine.cli_options import MAX_ROUNDS, whole_number
from engine.punto_banco.actions import CROUPIER, Action, ActionKind
from engine.punto_banco.coup import Side
from engine.punto_banco.odds import _exact_odds, exact_odds
from engine.punto_banco.rules import PuntoBancoRules
from engine.punto_banco.simulate import simulate
from engine.punto_banco.table import PuntoBancoTable

Doc = tuple[int, dict[str, Any]]


def _add_table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--packs", type=whole_number(1, 8), default=1, help="packs in the shoe, 1..8 (B-TABLE-2)"
    )
    p.add_argument(
        "--tableau", choices=["seed", "standard"], default="seed", help="B-BANCO-2 tableau"
    )
    p.add_argument(
        "--commission", type=int, default=5, help="Banco commission in whole percent (B-WIN-1)"
    )
    p.add_argument("--tie-pays", type=int, default=8, help="Egalité pays N:1 (B-TIE-1)")
    p.add_argument(
        "--stake",
        type=int,
        default=None,
        help="also value Banco wins for this whole-chip stake (winnings rounded down); "
        "none by default",
    )


def _rules(args: argparse.Namespace) -> PuntoBancoRules:
    return PuntoBancoRules(
        packs=args.packs,
        tableau=args.tableau,
        banco_commission_pct=args.commission,
        tie_pays=args.tie_pays,
    )


def add_odds_parser(sub: Any) -> None:
    p = sub.add_parser("punto-banco", help="exact Punto Banco odds by enumerating every deal")
    _add_table_options(p)
    p.set_defaults(func=run_odds)


def add_simulate_parser(sub: Any) -> None:
    p = sub.add_parser("punto-banco", help="Punto Banco measured by play from a shoe")
    p.add_argument(
        "--coups",
        type=whole_number(1, MAX_ROUNDS),
        default=100_000,
        help=f"coups to deal, 1 to {MAX_ROUNDS:,}",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the shuffles")
    _add_table_options(p)
    p.set_defaults(func=run_simulate)


def run_odds(args: argparse.Namespace) -> Doc:
    rules = _rules(args)
    started = time.perf_counter()
    odds = exact_odds(rules.packs, rules.tableau)
    doc = odds.to_json(rules, args.stake)
    doc["seconds"] = round(time.perf_counter() - started, 4)
    return 0, doc


def run_simulate(args: argparse.Namespace) -> Doc:
    rules = _rules(args)
    chance = RandomChance(random.Random(args.seed))
    doc = simulate(rules, args.coups, chance, stake=args.stake).to_json()
    doc.update(seed=args.seed, packs=rules.packs, tableau=rules.tableau)
    return 0, doc


def bench(seconds: float) -> dict[str, Any]:
    """Coups per second through the full table (three bets and a deal, each through
    ``apply``, settlement included), and the time
    of the exact enumeration for 1 and 8 packs (uncached)."""
    rules = PuntoBancoRules(packs=8, tableau="standard")
    table = PuntoBancoTable(rules)
    chance = RandomChance(random.Random(0))
    coups = 0
    started = time.perf_counter()
    deadline = started + max(seconds, 0.01)
    now = started
    # the actions are built once and reused, as a bot's buttons do
    bets = [
        Action("ann", ActionKind.BET, Side.BANCO, 20),
        Action("bob", ActionKind.BET, Side.PUNTO, 10),
        Action("cat", ActionKind.BET, Side.EGALITE, 5),
    ]
    deal = Action(CROUPIER, ActionKind.DEAL)
    apply = table.apply
    while now < deadline:
        for _ in range(100):
            for bet in bets:
                apply(bet)
            apply(deal, chance)
        coups += 100
        now = time.perf_counter()
    elapsed = now - started
    enum: dict[str, float] = {}
    for packs in (1, 8):
        _exact_odds.cache_clear()
        t0 = time.perf_counter()
        exact_odds(packs, "standard")
        enum[str(packs)] = round(time.perf_counter() - t0, 4)
    return {
        "coups_per_second": round(coups / elapsed, 1),
        "coups": coups,
        "seconds": round(elapsed, 3),
        "bets_per_coup": 3,
        "odds_enumeration_seconds": enum,
    }
