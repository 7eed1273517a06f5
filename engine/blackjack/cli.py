"""``python -m engine odds blackjack`` (BJ-EDGE-1) and the replay of a scripted
Blackjack game (``replay_doc``; ``python -m engine replay`` sends a document with
``"game": "blackjack"`` here, see API.md "Replay files")."""

from __future__ import annotations

import argparse
from typing import Any

from engine import replay
from engine.blackjack.actions import DEALER, Action, ActionKind, RoundResult
from engine.blackjack.hands import hand_total
from engine.blackjack.odds import house_edge
from engine.blackjack.rules import BlackjackRules
from engine.blackjack.shoe import Shoe
from engine.blackjack.table import BlackjackTable
from engine.cards import parse_card
from engine.cli_options import whole_number
from engine.records import ESCROW

Doc = tuple[int, dict[str, Any]]


def add_odds_parser(sub: Any) -> None:
    p = sub.add_parser(
        "blackjack", help="the house edge of a table's rules for a basic-strategy player"
    )
    p.add_argument(
        "--decks", type=whole_number(1, 8), default=6, help="decks in the shoe (BJ-TABLE-2)"
    )
    p.add_argument("--dealer", choices=["s17", "h17"], default="s17", help="BJ-DEALER-1")
    p.add_argument("--blackjack-pays", choices=["3:2", "6:5"], default="3:2", help="BJ-NAT-1")
    p.add_argument("--surrender", choices=["none", "late"], default="none", help="BJ-SURR-1")
    p.add_argument(
        "--double-on", choices=["any", "9-11", "10-11"], default="any", help="BJ-DOUBLE-1"
    )
    p.add_argument(
        "--no-double-after-split", action="store_true", help="no double after a split (BJ-SPLIT-1)"
    )
    p.add_argument("--resplit-aces", action="store_true", help="aces re-split (BJ-SPLIT-1)")
    p.add_argument(
        "--max-hands", type=whole_number(2, 4), default=4, help="hands after splits (BJ-SPLIT-1)"
    )
    p.add_argument(
        "--no-peek", action="store_true", help="the no-hole-card game (BJ-PEEK-1, BJ-NHC-1)"
    )
    p.set_defaults(func=run_odds)


def run_odds(args: argparse.Namespace) -> Doc:
    rules = BlackjackRules(
        decks=args.decks,
        dealer=args.dealer,
        blackjack_pays=args.blackjack_pays,
        surrender=args.surrender,
        double_on=args.double_on,
        double_after_split=not args.no_double_after_split,
        resplit_aces=args.resplit_aces,
        max_hands=args.max_hands,
        peek=not args.no_peek,
    )
    return 0, house_edge(rules).to_json()


# ------------------------------------------------------------------ replay
REPLAY_KEYS = {
    "game",
    "description",
    "rules",
    "seats",
    "balances",
    "shoe",
    "reshuffles",
    "seed",
    "actions",
    "expect",
}
ACTS = {
    "bet": ActionKind.BET,
    "deal": ActionKind.DEAL,
    "insurance": ActionKind.INSURANCE,
    "hit": ActionKind.HIT,
    "stand": ActionKind.STAND,
    "double": ActionKind.DOUBLE,
    "split": ActionKind.SPLIT,
    "surrender": ActionKind.SURRENDER,
    "timeout": ActionKind.TIMEOUT,
    "next_round": ActionKind.NEXT_ROUND,
    "join": ActionKind.JOIN,
    "leave": ActionKind.LEAVE,
}
_DEALER_ACTS = {"deal", "timeout", "next_round"}


def replay_doc(doc: Any) -> Doc:
    """Play a Blackjack replay document; returns (exit status, JSON result).

    ``seats`` sit down in order; members' chips are followed through the transfers the
    table returns and every stake is checked against what the member holds. An illegal
    action stops the replay with status 2 and an ``error`` entry, the balances as they
    stood before it (as for Pontoon)."""
    replay.check_doc(doc, REPLAY_KEYS, ACTS, _DEALER_ACTS, "seat ids")
    rules = replay.table_rules(BlackjackRules, doc)
    cards = replay.stacked_top(doc, "shoe", rules.decks)
    shoe = None if cards is None else Shoe(rules.decks, cards)
    chance = replay.scripted_chance(doc)
    table = BlackjackTable(rules, shoe)
    accounts = replay.opening_accounts(doc.get("balances", {}))
    rounds: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []

    def play(i: int, raw: dict[str, Any]) -> None:
        act = raw["act"]
        actor = DEALER if act in _DEALER_ACTS else raw["seat"]
        amount = raw.get("amount")
        out = table.apply(Action(actor, ACTS[act], amount, accounts.get(actor, 0)), chance)
        replay.move_chips(accounts, out.transfers)
        events.extend({k: v for k, v in e._asdict().items() if v is not None} for e in out.events)
        if out.result is not None:
            rounds.append(_round_json(out.result, accounts))

    def summary(before: dict[str, int] | None) -> dict[str, Any]:
        chips = accounts if before is None else before
        return {
            "game": "blackjack",
            **replay.standings(chips),
            "escrow": chips[ESCROW],
            "shuffles": table.shoe.shuffles,
            "events": events,
            "rounds": rounds,
        }

    for seat in doc.get("seats", []):
        table.apply(Action(seat, ActionKind.JOIN))
    return replay.play_actions(doc.get("actions", []), play, lambda: dict(accounts), summary)


def _round_json(result: RoundResult, accounts: dict[str, int]) -> dict[str, Any]:
    doc = result.to_json()
    doc["dealer_soft"] = hand_total([parse_card(c) for c in result.dealer])[1]
    doc.update(replay.standings(accounts))
    return doc


__all__ = ["add_odds_parser", "replay_doc", "run_odds"]
