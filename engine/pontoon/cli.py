"""Pontoon commands of ``python -m engine`` (see docs/engine-cli.md).

- ``replay FILE``: play a scripted game (``replay_doc`` does it in-process).
- ``simulate pontoon``: one punter against a house banker, stake 1, twist-only play.
- ``bench(seconds)``: complete 4-seat rounds per second with buys and splits.

Replay file notes (beyond the shared format):

- ``rules`` takes every field of ``PontoonRules`` (see API.md); unknown keys are an error.
- ``pack`` may list only the top of the pack: the rest of a full pack (one or two packs
  as P-TABLE-1 says) follows in new-pack order, minus the cards listed. The same holds for
  every list in ``reshuffles``.
- ``banker`` may be left out: the seats then cut for the bank (P-BANK-1) with the seeded
  random source from ``seed`` (default 0). On a house-banked table (``house_bank``) there
  is no banker seat.
- Extra ``act`` values: ``sit_out``, ``sell_bank`` (``amount``, ``target``), ``join``
  (``amount``), ``leave``, ``cut``, ``deal``. ``split`` takes an optional ``shoot`` for
  the new hand (P-SHOOT-5). Actions without ``seat`` (``next_round``) are taken by the
  banker.
- Keys ``expect``, ``description`` and ``name`` at the top level are ignored here (tests
  use ``expect``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from engine import replay
from engine.cards import Card, RandomChance, ScriptedChance, parse_card
from engine.cli_options import MAX_ROUNDS, MAX_SECONDS, add_play_options, whole_number
from engine.errors import ConfigError
from engine.pontoon.hands import PONTOON
from engine.pontoon.odds import heads_up, option_effects, table_edges
from engine.pontoon.rules import PontoonRules
from engine.pontoon.state import packs_used
from engine.pontoon.table import Table
from engine.pontoon.types import HOUSE, Action, ActionKind, Phase

_ACTS = {k.value: k for k in ActionKind}
_TOP_KEYS = {
    "rules",
    "seats",
    "banker",
    "balances",
    "pack",
    "reshuffles",
    "seed",
    "actions",
    "expect",
    "description",
    "name",
}


def _complete(top: Sequence[str], packs: int) -> list[Card]:
    """The listed cards on top, then the rest of ``packs`` full packs in new-pack order."""
    return replay.stacked_shoe([parse_card(c) for c in top], packs, "pack")


def _action(i: int, doc: Any, default_seat: str) -> Action:
    where = f"action {i}"
    if not isinstance(doc, dict):
        raise ConfigError(f'{where}: must be an object such as {{"seat": "ann", "act": "bet"}}')
    if "act" not in doc:
        raise ConfigError(f'{where}: missing "act" (what the seat does, e.g. "twist")')
    unknown = set(doc) - {"seat", "act", "amount", "shoot", "target"}
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}")
    kind = _ACTS.get(str(doc["act"]))
    if kind is None:
        raise ConfigError(f"{where}: unknown act {doc['act']!r} (one of {sorted(_ACTS)})")
    for key in ("amount", "shoot"):
        value = doc.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f'{where}: "{key}" must be a whole number, not {value!r}')
    for key in ("seat", "target"):
        value = doc.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f'{where}: "{key}" must be a seat id (a string), not {value!r}')
    seat = doc.get("seat", default_seat)
    return Action(str(seat), kind, doc.get("amount"), doc.get("shoot"), doc.get("target"))


def _is_text_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def check_replay_doc(doc: Any) -> None:
    """Refuse a replay document that is not shaped as engine-cli.md says, naming what is
    wrong (the replay itself then only meets the rules)."""
    if not isinstance(doc, dict):
        raise ConfigError("the file must hold one JSON object (see engine-cli.md)")
    unknown = set(doc) - _TOP_KEYS
    if unknown:
        raise ConfigError(f"unknown replay keys {sorted(unknown)}")
    if "seats" not in doc:
        raise ConfigError('missing "seats" (the list of seat ids)')
    if not _is_text_list(doc["seats"]) or not doc["seats"]:
        raise ConfigError('"seats" must be a list of seat ids, e.g. ["ann", "bob"]')
    if not isinstance(doc.get("rules", {}), dict):
        raise ConfigError('"rules" must be an object of table options')
    balances = doc.get("balances", {})
    if not isinstance(balances, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in balances.values()
    ):
        raise ConfigError('"balances" must map seat ids to whole numbers of chips')
    if doc.get("banker") is not None and not isinstance(doc["banker"], str):
        raise ConfigError('"banker" must be a seat id')
    if "pack" in doc and not _is_text_list(doc["pack"]):
        raise ConfigError('"pack" must be a list of cards, top first, e.g. ["7S", "KD"]')
    reshuffles = doc.get("reshuffles", [])
    if not isinstance(reshuffles, list) or not all(_is_text_list(r) for r in reshuffles):
        raise ConfigError('"reshuffles" must be a list of packs (lists of cards)')
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError('"seed" must be a whole number')
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ConfigError('"actions" must be a list of actions')
    for i, raw in enumerate(actions):
        _action(i, raw, "")  # each is well formed before any is played


def replay_doc(doc: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Play a replay document; returns (exit status, JSON result)."""
    check_replay_doc(doc)
    rules = replay.table_rules(PontoonRules, doc)
    seats = [str(s) for s in doc["seats"]]
    balances = {str(k): int(v) for k, v in doc.get("balances", {}).items()}
    packs = packs_used(rules.packs, len(seats))
    pack = replay.stacked_top(doc, "pack", packs)
    reshuffles = [_complete(r, packs) for r in doc.get("reshuffles", [])]
    chance = ScriptedChance(reshuffles, int(doc.get("seed", 0)))
    banker = doc.get("banker")
    if rules.house_bank and banker in (HOUSE, "house"):
        banker = None
    table = Table(rules, seats, balances, banker=banker, pack=pack)
    events: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []

    def run(a: Action) -> None:
        before_round = table.round_no
        out = table.apply(a, chance)
        events.extend(e.to_json() for e in out.events)
        if table.phase is Phase.ROUND_OVER and any(
            e.kind.value == "round_over" for e in out.events
        ):
            rounds.append(
                {
                    "round": table.round_no,
                    "banker": table.banker,
                    "next_banker": table.next_banker,
                    "results": [dict(r) for r in table.results],
                    "balances": dict(table.balances),
                    "kitty": table.kitty,
                }
            )
        del before_round

    if table.banker is None and not rules.house_bank:
        run(Action(seats[0], ActionKind.CUT))
    dealer = table.banker if not rules.house_bank else seats[0]
    assert dealer is not None
    run(Action(dealer, ActionKind.DEAL))

    def play(i: int, raw: Any) -> None:
        default = table.banker if table.banker and table.banker != HOUSE else seats[0]
        a = _action(i, raw, default)
        run(a)
        if a.kind is ActionKind.NEXT_ROUND and table.phase is Phase.WAITING:
            # the replay format goes straight on to the next deal
            nb = table.banker if not rules.house_bank else seats[0]
            if nb is not None and nb in table.balances:
                run(Action(nb, ActionKind.DEAL))

    def summary(before: dict[str, int] | None) -> dict[str, Any]:
        result = _summary(table, events, rounds)
        if before is not None:  # refused: the balances as they stood before the action
            result["balances"] = before
        return result

    return replay.play_actions(doc.get("actions", []), play, lambda: dict(table.balances), summary)


def _summary(
    table: Table, events: list[dict[str, Any]], rounds: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "events": events,
        "balances": dict(table.balances),
        "banker": table.banker,
        "next_banker": table.next_banker,
        "kitty": table.kitty,
        "house": table.house_net,
        "escrow": table.escrow,
        "phase": table.phase.value,
        "round_no": table.round_no,
        "needs_shuffle": table.needs_shuffle,
        "rounds": rounds,
    }


def _replay_cmd(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    name = args.file
    try:
        with open(name, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{name}: no such file") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{name}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{name}: cannot be read ({exc})") from None
    try:
        return replay_doc(doc)
    except ConfigError as exc:
        raise ConfigError(f"{name}: {exc}") from None


def add_replay_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a scripted Pontoon game from a JSON file")
    p.add_argument("file", help="replay file (see docs/engine-cli.md)")
    p.set_defaults(func=_replay_cmd)


# ---------------------------------------------------------------------- simulate


def simulate(
    rounds: int,
    seed: int,
    punter_stick: int = 15,
    banker_stick: int = 17,
    fresh_pack: bool = False,
    rules: PontoonRules | None = None,
) -> dict[str, Any]:
    """One punter against the house banker, stake 1, twist-only play (engine-cli.md);
    ``rules``: other table options (``odds pontoon --rules``)."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ConfigError(f"--rounds must be between 1 and {MAX_ROUNDS:,} (got {rounds:,})")
    fixed = {"min_bet": 1, "max_bet": 1, "house_bank": True, "house_stands_on": banker_stick}
    rules = (rules or PontoonRules()).model_copy(update=fixed)
    chance = RandomChance(random.Random(seed))
    start = 10 * rounds + 100
    t = Table(rules, ["punter"], {"punter": start})
    bet = Action("punter", ActionKind.BET, 1)
    twist = Action("punter", ActionKind.TWIST)
    stick = Action("punter", ActionKind.STICK)
    declare = Action("punter", ActionKind.DECLARE)
    nxt = Action("punter", ActionKind.NEXT_ROUND)
    deal = Action("punter", ActionKind.DEAL)
    t.apply(deal, chance)
    outcomes: Counter[int] = Counter()
    busts = fives = pontoons = banker_busts = 0
    total = 0
    least = max(punter_stick, rules.stick_min)
    for r in range(rounds):
        before = t.balances["punter"]
        t.apply(bet, chance)
        while t.phase is Phase.PLAYING:
            kinds = {la.kind for la in t.legal_actions("punter")}
            if ActionKind.DECLARE in kinds:
                t.apply(declare, chance)
                continue
            hand = t.private_view("punter")[0]
            assert hand.total is not None
            wants_card = hand.total < least
            t.apply(twist if wants_card and ActionKind.TWIST in kinds else stick, chance)
        results = t.results
        res = results[0] if results else None
        if res is not None:
            if res["why"] == "bust":
                busts += 1
            elif res["score"] == 30:
                fives += 1
            elif res["score"] >= PONTOON:
                pontoons += 1
            if res["why"] == "banker bust":
                banker_busts += 1
        delta = t.balances["punter"] - before
        outcomes[delta] += 1
        total += delta
        if r + 1 < rounds:
            if fresh_pack:
                t.needs_shuffle = True
            t.apply(nxt, chance)
            t.apply(deal, chance)
    n = rounds
    return {
        "rounds": n,
        "seed": seed,
        "punter_stick": punter_stick,
        "banker_stick": banker_stick,
        "fresh_pack": fresh_pack,
        "ev": total / n,
        "outcomes": {str(k): outcomes[k] / n for k in sorted(set(outcomes) | {-2, -1, 1, 2})},
        "punter_bust": busts / n,
        "punter_five_card_trick": fives / n,
        "punter_pontoon": pontoons / n,
        "banker_bust": banker_busts / n,
    }


def _simulate_cmd(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    return 0, simulate(
        args.rounds, args.seed, args.punter_stick, args.banker_stick, args.fresh_pack
    )


def add_stick_options(p: argparse.ArgumentParser) -> None:
    """The twist-only punter's and the banker's stick totals (odds and simulate)."""
    p.add_argument(
        "--punter-stick",
        type=whole_number(2, 22),
        default=15,
        help="the punter twists while the best total is below this",
    )
    p.add_argument(
        "--banker-stick",
        type=whole_number(2, 21),
        default=17,
        help="the banker draws while the best total is below this",
    )


def add_simulate_parser(sub: Any) -> None:
    p = sub.add_parser("pontoon", help="one punter against the banker, stake 1, twist-only")
    add_play_options(p, "rounds", "rounds")
    add_stick_options(p)
    p.add_argument(
        "--fresh-pack",
        action="store_true",
        help="shuffle a full pack every round (otherwise P-NEXT-1)",
    )
    p.set_defaults(func=_simulate_cmd)


# ---------------------------------------------------------------------- bench


def play_bench_rounds(table: Table, chance: RandomChance, rounds: int, rng: random.Random) -> int:
    """Play ``rounds`` complete rounds through the public API (``legal_actions``,
    ``private_view``, ``apply``) with a fixed strategy: bets 2-10, buys on 11 or less
    with fewer than four cards, splits of pairs, twists below 15; the banker draws below
    17. Returns how many rounds were split at least once."""
    made: dict[tuple[str, ActionKind, int | None], Action] = {}

    def action(seat: str, kind: ActionKind, amount: int | None = None) -> Action:
        """Actions are immutable: build each once and reuse it, as a bot's buttons do."""
        key = (seat, kind, amount)
        found = made.get(key)
        if found is None:
            found = made[key] = Action(seat, kind, amount)
        return found

    splits = 0
    for _ in range(rounds):
        if table.phase is Phase.ROUND_OVER:
            table.apply(action(table.seats[0], ActionKind.NEXT_ROUND), chance)
            assert table.banker is not None
            table.apply(action(table.banker, ActionKind.DEAL), chance)
        for seat in table.to_act():
            table.apply(action(seat, ActionKind.BET, 2 + rng.randrange(9)), chance)
        did_split = False
        while (turn := table.turn) is not None:  # the players' turns, then the banker's
            seat, i = turn
            offered = {la.kind: la for la in table.legal_actions(seat)}
            hand = table.private_view(seat)[i]
            total = hand.total or 0
            if seat == table.banker:
                draws = total < 17 and ActionKind.TWIST in offered
                kind, amount = (ActionKind.TWIST if draws else ActionKind.STICK), None
            elif ActionKind.DECLARE in offered:
                kind, amount = ActionKind.DECLARE, None
            elif ActionKind.SPLIT in offered:
                kind, amount = ActionKind.SPLIT, None
                did_split = True
            elif ActionKind.BUY in offered and total <= 11 and len(hand.cards) < 4:
                kind, amount = ActionKind.BUY, offered[ActionKind.BUY].min_amount
            elif total < 15 and ActionKind.TWIST in offered:
                kind, amount = ActionKind.TWIST, None
            else:
                kind, amount = ActionKind.STICK, None
            table.apply(action(seat, kind, amount), chance)
        splits += did_split
    return splits


def bench(seconds: float = 3.0) -> dict[str, Any]:
    """Complete 4-seat rounds (a banker and three players) per second on one core."""
    if not 0 < seconds <= MAX_SECONDS:
        raise ConfigError(f"--seconds must be more than 0 and at most {MAX_SECONDS:g}")
    seats = ["a", "b", "c", "d"]
    big = 10**12
    table = Table(PontoonRules(min_bet=1, max_bet=10), seats, {s: big for s in seats}, banker="a")
    chance = RandomChance(random.Random(1))
    rng = random.Random(2)
    table.apply(Action("a", ActionKind.DEAL), chance)
    play_bench_rounds(table, chance, 200, rng)  # warm up
    rounds = 0
    split_rounds = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        split_rounds += play_bench_rounds(table, chance, 500, rng)
        rounds += 500
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu_start
    return {
        "rounds": rounds,
        "seconds": round(elapsed, 3),
        "cpu_seconds": round(cpu, 3),
        "rounds_per_second": round(rounds / elapsed, 1),
        "rounds_per_cpu_second": round(rounds / cpu, 1) if cpu > 0 else None,
        "seats": len(seats),
        "rounds_with_splits": split_rounds,
        "note": "one banker and three players through the public API (legal_actions, "
        "private_view, apply); bets 2-10, buys on 11 or less, splits of pairs, twists "
        "below 15, banker draws below 17",
    }


# ------------------------------------------------------------------ odds (python -m engine odds pontoon)


def _rules_option(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"--rules must be a JSON object ({exc.msg})") from None
    if not isinstance(doc, dict):
        raise argparse.ArgumentTypeError(
            '--rules must be a JSON object, e.g. {"pontoon_pays": "single"}'
        )
    return doc


def _house_rules(options: dict[str, Any], banker_stick: int) -> PontoonRules:
    """The table options for a house-banked heads-up game (engine-cli.md)."""
    doc = {**options, "house_bank": True, "house_stands_on": banker_stick}
    doc.setdefault("min_bet", 1)
    doc.setdefault("max_bet", max(1, doc["min_bet"]))
    try:
        return PontoonRules(**doc)
    except (ValidationError, ValueError) as exc:
        raise ConfigError(f"bad table options: {exc}") from None


def simulated(
    punter_stick: int, banker_stick: int, rounds: int, seed: int, rules: PontoonRules
) -> dict[str, Any]:
    """The twist-only game played ``rounds`` times as the rules say (P-NEXT-1: no shuffle
    unless a pontoon was seen), with the 95% interval of the mean (normal approximation,
    rounds treated as independent)."""
    doc = simulate(rounds, seed, punter_stick, banker_stick, False, rules=rules)
    mean = float(doc["ev"])
    second = sum(int(k) ** 2 * p for k, p in doc["outcomes"].items())
    sd = math.sqrt(max(0.0, second - mean * mean))
    half = 1.96 * sd / math.sqrt(rounds)
    doc["exact"] = False
    doc["interval"] = [mean - half, mean + half]
    doc["method"] = (
        f"simulation of {rounds:,} rounds (seed {seed}); 95% interval of the mean, "
        "mean +- 1.96 sd / sqrt(rounds)"
    )
    return doc


def _odds_cmd(args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    rules = _house_rules(args.rules or {}, args.banker_stick)
    if args.fresh_pack:
        doc = heads_up(args.punter_stick, args.banker_stick, rules)
        doc["method"] = "exact: every way a fresh pack can be dealt"
    else:
        doc = simulated(args.punter_stick, args.banker_stick, args.rounds, args.seed, rules)
    if args.table_price or args.options:
        table = (args.rules or {}) | {}
        try:
            table_rules = PontoonRules(**table)
        except (ValidationError, ValueError) as exc:
            raise ConfigError(f"bad table options: {exc}") from None
        if args.table_price:
            doc["table_price"] = table_edges(
                table_rules.model_copy(update={"house_bank": False, "shoot": False})
                if not table_rules.house_bank
                else table_rules
            )
            doc["table_price"]["note"] = PRICE_NOTE
        if args.options:
            doc["options"] = option_effects(table_rules)
            doc["options_note"] = OPTIONS_NOTE
    return 0, doc


PRICE_NOTE = (
    "house edge = minus the expected result per unit initial stake of a player who "
    "follows the hint, fresh pack each round; exact except for splits (approximated)"
)
OPTIONS_NOTE = (
    "edges against a banker drawing below 17 with one change each: no five card trick, "
    "the banker pays ties, every round doubled (per unit undoubled stake), and a first-card "
    "shoot bet (even money) riding on a hand the hint plays"
)


def add_odds_parser(sub: Any) -> None:
    p = sub.add_parser(
        "pontoon", help="the twist-only punter's exact odds, and the table's house edge"
    )
    add_stick_options(p)
    p.add_argument(
        "--fresh-pack",
        action="store_true",
        help="a full pack every round: computed exactly (otherwise simulated)",
    )
    p.add_argument(
        "--rules",
        type=_rules_option,
        default=None,
        help='table options as JSON (none: the defaults), e.g. {"pontoon_pays": "single"}',
    )
    add_play_options(p, "rounds", "rounds (simulation only)")
    p.set_defaults(rounds=200_000)
    p.add_argument(
        "--table-price",
        action="store_true",
        help="add the house edge against a player following the hint",
    )
    p.add_argument(
        "--options",
        action="store_true",
        help="add how each option moves the edge (docs/house-edge.md)",
    )
    p.set_defaults(func=_odds_cmd)
