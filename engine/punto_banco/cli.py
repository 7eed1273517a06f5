"""``python -m engine odds|simulate punto-banco``, the Punto Banco part of ``bench`` and
the replay of a scripted Punto Banco game (``replay_doc``; ``python -m engine replay``
sends a document with ``"game": "punto_banco"`` here, see API.md "Replay files")."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine import replay
from engine.cards import RandomChance
from engine.cli_options import add_play_options, whole_number
from engine.errors import ConfigError
from engine.punto_banco.actions import CROUPIER, Action, ActionKind, CoupResult
from engine.punto_banco.coup import Side
from engine.punto_banco.odds import _exact_odds, exact_odds
from engine.punto_banco.rules import PuntoBancoRules
from engine.punto_banco.simulate import simulate
from engine.punto_banco.table import PuntoBancoTable, Shoe
from engine.records import ESCROW

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
    add_play_options(p, "coups", "coups")
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


# ------------------------------------------------------------------ replay
REPLAY_KEYS = {
    "game",
    "description",
    "rules",
    "balances",
    "shoe",
    "reshuffles",
    "seed",
    "actions",
    "expect",
}
ACTS = {"bet", "withdraw", "repeat", "deal"}


def _check_side(i: int, action: dict[str, Any]) -> None:
    if action["act"] in ("bet", "withdraw") and action.get("side") not in {s.value for s in Side}:
        raise ConfigError(f'action {i}: "side" must be one of punto, banco, egalite')


def replay_doc(doc: Any) -> tuple[int, dict[str, Any]]:
    """Play a Punto Banco replay document; returns (exit status, JSON result).

    Bettors' chips are followed through the transfers the table returns; a bet is checked
    against what the bettor holds. An illegal action stops the replay with status 2 and
    an ``error`` entry, the balances as they stood before it (as for Pontoon)."""
    replay.check_doc(doc, REPLAY_KEYS, ACTS, {"deal"}, "bettor ids", _check_side)
    rules = replay.table_rules(PuntoBancoRules, doc)
    cards = replay.stacked_top(doc, "shoe", rules.packs)
    shoe = None if cards is None else Shoe(rules.packs, cards)
    chance = replay.scripted_chance(doc)
    table = PuntoBancoTable(rules, shoe)
    accounts = replay.opening_accounts(doc.get("balances", {}))
    coups: list[dict[str, Any]] = []

    def play(i: int, raw: Any) -> None:  # an action as the file has it (amount unchecked)
        act, seat = raw["act"], raw.get("seat")
        if act == "deal":
            result = table.deal(chance)
            replay.move_chips(accounts, result.transfers)
            coups.append(_coup_json(result, accounts))
            return
        assert isinstance(seat, str)
        balance = accounts.get(seat, 0)
        if act == "bet":
            amount = raw.get("amount")
            replay.move_chips(
                accounts, table.place_bet(seat, Side(raw["side"]), amount, balance=balance)
            )
        elif act == "withdraw":
            replay.move_chips(accounts, table.withdraw_bet(seat, Side(raw["side"])))
        else:
            replay.move_chips(accounts, table.repeat_bets(seat, balance=balance))

    def summary(before: dict[str, int] | None) -> dict[str, Any]:
        chips = accounts if before is None else before
        return {
            "game": "punto_banco",
            **replay.standings(chips),
            "escrow": chips[ESCROW],
            "coups": coups,
        }

    return replay.play_actions(doc.get("actions", []), play, lambda: dict(accounts), summary)


def _coup_json(result: CoupResult, accounts: dict[str, int]) -> dict[str, Any]:
    coup = result.coup
    return {
        "coup": result.coup_no,
        "shuffled": result.shuffled,
        "punto": [c.code for c in coup.punto],
        "banco": [c.code for c in coup.banco],
        "punto_total": coup.punto_total,
        "banco_total": coup.banco_total,
        "winner": coup.winner.value,
        "natural": coup.natural,
        "results": [
            {
                "bettor": r.bet.bettor,
                "side": r.bet.side.value,
                "amount": r.bet.amount,
                "outcome": r.outcome.value,
                "net": r.net,
            }
            for r in result.settlement.results
        ],
        **replay.standings(accounts),
    }
