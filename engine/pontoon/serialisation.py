"""A table as JSON and back (``Table.to_json`` / ``Table.from_json``): the bot stores this
after every action. The key names are a stored format: keep them when renaming fields."""

from __future__ import annotations

from typing import Any

from engine.cards import Pack, parse_card
from engine.errors import ConfigError
from engine.pontoon.hands import Hand
from engine.pontoon.payouts import Payouts
from engine.pontoon.rules import PontoonRules
from engine.pontoon.state import RESULT_KEYS, TableState
from engine.pontoon.types import Phase
from engine.pontoon.views import HandStatus

FORMAT = 1


def hand_to_json(hand: Hand) -> dict[str, Any]:
    return {
        "cards": [c.code for c in hand.cards],
        "up": list(hand.face_up),
        "stake": hand.stake,
        "orig": hand.original_stake,
        "last_buy": hand.last_buy,
        "twisted": hand.twisted,
        "shoot": hand.shoot,
        "status": hand.status.value,
        "split": hand.from_split,
        "shown": hand.shown,
    }


def hand_from_json(d: dict[str, Any]) -> Hand:
    hand = Hand([parse_card(c) for c in d["cards"]], int(d["stake"]))
    hand.face_up = [bool(u) for u in d["up"]]
    if len(hand.face_up) != len(hand.cards):
        raise ConfigError("a hand's face-up flags must match its cards")
    hand.original_stake = int(d["orig"])
    hand.last_buy = int(d["last_buy"])
    hand.twisted = bool(d["twisted"])
    hand.shoot = int(d["shoot"])
    hand.status = HandStatus(d["status"])
    hand.from_split = bool(d["split"])
    hand.shown = bool(d["shown"])
    return hand


def results_as_dicts(table: TableState) -> list[dict[str, Any]]:
    out = []
    for result in table.result_rows:
        d = dict(zip(RESULT_KEYS, result, strict=True))
        d["cards"] = list(result[2])
        out.append(d)
    return out


def rules_to_json(rules: PontoonRules) -> dict[str, Any]:
    """The rules as stored; ``max_seats`` only when it is set, so tables that do not use
    it are stored exactly as before it existed."""
    d = rules.model_dump()
    if d.get("max_seats") is None:
        d.pop("max_seats", None)
    return d


def table_to_json(t: TableState) -> dict[str, Any]:
    d = {
        "format": FORMAT,
        "rules": rules_to_json(t.rules),
        "seats": list(t.seats),
        "balances": dict(t.balances),
        "banker": t.banker,
        "phase": t.phase.value,
        "version": t.version,
        "round_no": t.round_no,
        "kitty": t.kitty,
        "escrow": t.escrow,
        "house_net": t.house_net,
        "pack": t.pack.codes(),
        "needs_shuffle": t.needs_shuffle,
        "players": list(t.players),
        "hands": {p: [hand_to_json(h) for h in hs] for p, hs in t.hands.items()},
        "decided": dict(t.decided),
        "active": list(t.active),
        "shoot_i": t.shooter,
        "tp": t.turn_player,
        "th": t.turn_hand,
        "bhand": None if t.banker_hand is None else hand_to_json(t.banker_hand),
        "banker_sees": t.banker_sees,
        "doubled": t.doubled,
        "open_stake": t.open_stake,
        "shoot_out": t.shoot_out,
        "pontoon_seen": t.pontoon_seen,
        "banker_pontoon": t.banker_pontoon,
        "next_banker": t.bank_passes_to,
        "results": results_as_dicts(t),
    }
    if t.auction is not None:  # only while an auction of the bank runs (P-SHOOT-8)
        d["auction"] = dict(t.auction)
    return d


# Tables with the same rules share one (frozen) rules object and its payouts: thousands
# of reloaded tables hold a few rule sets, not one copy each.
_SHARED_RULES: dict[tuple[tuple[str, Any], ...], tuple[PontoonRules, Payouts]] = {}


def _rules_of(d: dict[str, Any]) -> tuple[PontoonRules, Payouts]:
    try:
        key = tuple(sorted(d.items()))
        hash(key)
    except TypeError:  # a value that cannot be a key: not shared
        rules = PontoonRules.model_validate(d)
        return rules, Payouts.for_rules(rules)
    shared = _SHARED_RULES.get(key)
    if shared is None:
        rules = PontoonRules.model_validate(d)
        shared = (rules, Payouts.for_rules(rules))
        if len(_SHARED_RULES) < 1024:
            _SHARED_RULES[key] = shared
    return shared


def load_table_json(t: TableState, d: dict[str, Any]) -> None:
    """Overwrite every field of ``t`` from ``table_to_json`` output."""
    if d.get("format") != FORMAT:
        raise ConfigError("unknown table snapshot format")
    t.rules, t.payouts = _rules_of(d["rules"])
    t.seats = [str(s) for s in d["seats"]]
    t.balances = {str(k): int(v) for k, v in d["balances"].items()}
    t.banker = d["banker"]
    t.phase = Phase(d["phase"])
    t.version = int(d["version"])
    t.round_no = int(d["round_no"])
    t.kitty = int(d["kitty"])
    t.escrow = int(d["escrow"])
    t.house_net = int(d["house_net"])
    t.pack = Pack(parse_card(c) for c in d["pack"])
    t.needs_shuffle = bool(d["needs_shuffle"])
    t.reset_round()
    t.players = [str(p) for p in d["players"]]
    t.hands = {str(p): [hand_from_json(h) for h in hs] for p, hs in d["hands"].items()}
    t.decided = {str(k): bool(v) for k, v in d["decided"].items()}
    t.active = [str(p) for p in d["active"]]
    t.shooter = int(d["shoot_i"])
    t.turn_player = int(d["tp"])
    t.turn_hand = int(d["th"])
    t.banker_hand = None if d["bhand"] is None else hand_from_json(d["bhand"])
    t.banker_sees = bool(d["banker_sees"])
    t.doubled = bool(d["doubled"])
    t.open_stake = int(d["open_stake"])
    t.shoot_out = int(d["shoot_out"])
    t.pontoon_seen = bool(d["pontoon_seen"])
    t.banker_pontoon = bool(d["banker_pontoon"])
    t.bank_passes_to = d["next_banker"]
    t.result_rows = [
        (
            r["seat"],
            r["hand"],
            tuple(r["cards"]),
            r["score"],
            r["stake"],
            r["outcome"],
            r["net"],
            r["shoot_net"],
            r["why"],
        )
        for r in d["results"]
    ]
    auction = d.get("auction")
    t.auction = None if auction is None else {str(k): int(v) for k, v in auction.items()}
