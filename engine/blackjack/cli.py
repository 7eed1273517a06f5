"""``python -m engine odds blackjack`` (BJ-EDGE-1) and the replay of a scripted
Blackjack game (``replay_doc``; ``python -m engine replay`` sends a document with
``"game": "blackjack"`` here, see API.md "Replay files")."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from engine.blackjack.actions import DEALER, Action, ActionKind, RoundResult
from engine.blackjack.hands import hand_total
from engine.blackjack.odds import house_edge
from engine.blackjack.rules import BlackjackRules
from engine.blackjack.shoe import Shoe
from engine.blackjack.table import BlackjackTable
from engine.cards import Card, ScriptedChance, parse_card
from engine.cli_options import whole_number
from engine.errors import ConfigError, RuleError
from engine.records import ESCROW, HOUSE, Transfer
from engine.replay import move_chips, opening_accounts, stacked_shoe

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


def _cards(raw: Any, what: str) -> list[Card]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise ConfigError(f'"{what}" must be a list of cards')
    return [parse_card(c) for c in raw]


def _check_doc(doc: Any) -> None:
    if not isinstance(doc, dict):
        raise ConfigError("the file must hold one JSON object")
    unknown = set(doc) - REPLAY_KEYS
    if unknown:
        raise ConfigError(f"unknown replay keys {sorted(unknown)}")
    seats = doc.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ConfigError('"seats" must be a list of seat ids')
    balances = doc.get("balances", {})
    if not isinstance(balances, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in balances.values()
    ):
        raise ConfigError('"balances" must map seat ids to whole numbers of chips')
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ConfigError('"actions" must be a list')
    for i, a in enumerate(actions):
        if not isinstance(a, dict) or "act" not in a:
            raise ConfigError(f'action {i}: missing "act"')
        if a["act"] not in ACTS:
            raise ConfigError(f"action {i}: unknown act {a['act']!r}; one of {sorted(ACTS)}")
        if a["act"] not in _DEALER_ACTS and not isinstance(a.get("seat"), str):
            raise ConfigError(f'action {i}: "{a["act"]}" needs a "seat"')


def replay_doc(doc: Any) -> Doc:
    """Play a Blackjack replay document; returns (exit status, JSON result).

    ``seats`` sit down in order; members' chips are followed through the transfers the
    table returns and every stake is checked against what the member holds. An illegal
    action stops the replay with status 2 and an ``error`` entry, the balances as they
    stood before it (as for Pontoon)."""
    _check_doc(doc)
    try:
        rules = BlackjackRules(**doc.get("rules", {}))
    except (ValidationError, TypeError) as exc:
        raise ConfigError(f"bad rules: {exc}") from None
    shoe: Shoe | None = None
    if "shoe" in doc:  # the listed cards on top, then the rest in new-deck order
        shoe = Shoe(rules.decks, stacked_shoe(_cards(doc["shoe"], "shoe"), rules.decks))
    reshuffles = [_cards(r, "reshuffles") for r in doc.get("reshuffles", [])]
    chance = ScriptedChance(reshuffles, int(doc.get("seed", 0)))
    table = BlackjackTable(rules, shoe)
    accounts = opening_accounts(doc.get("balances", {}))
    rounds: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []

    def move(transfers: Sequence[Transfer]) -> None:
        move_chips(accounts, transfers)

    def summary() -> dict[str, Any]:
        return {
            "game": "blackjack",
            "balances": {k: v for k, v in accounts.items() if k not in (ESCROW, HOUSE)},
            "house": accounts[HOUSE],
            "escrow": accounts[ESCROW],
            "shuffles": table.shoe.shuffles,
            "events": events,
            "rounds": rounds,
        }

    for seat in doc.get("seats", []):
        table.apply(Action(seat, ActionKind.JOIN))
    for i, raw in enumerate(doc.get("actions", [])):
        act = raw["act"]
        actor = DEALER if act in _DEALER_ACTS else raw["seat"]
        amount = raw.get("amount")
        action = Action(actor, ACTS[act], amount, accounts.get(actor, 0))
        try:
            out = table.apply(action, chance)
        except RuleError as exc:
            result = summary()
            result["error"] = {"action": i, "rule": exc.rule, "message": exc.message}
            return 2, result
        move(out.transfers)
        events.extend({k: v for k, v in e._asdict().items() if v is not None} for e in out.events)
        if out.result is not None:
            rounds.append(_round_json(out.result, accounts))
    return 0, summary()


def _round_json(result: RoundResult, accounts: dict[str, int]) -> dict[str, Any]:
    doc = result.to_json()
    doc["dealer_soft"] = hand_total([parse_card(c) for c in result.dealer])[1]
    doc["balances"] = {k: v for k, v in accounts.items() if k not in (ESCROW, HOUSE)}
    doc["house"] = accounts[HOUSE]
    return doc


__all__ = ["add_odds_parser", "replay_doc", "run_odds"]
