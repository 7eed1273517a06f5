"""What the ``replay`` command of every game shares: the checks of a document's common
keys, the rules, cards and shuffles it names, the chip accounts followed through the
transfers a table returns, and the loop that plays its actions until one is refused."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import ValidationError

from engine.cards import Card, ScriptedChance, full_pack, parse_card
from engine.errors import ConfigError, RuleError
from engine.records import ESCROW, HOUSE, Transfer

Doc = tuple[int, dict[str, Any]]  # (exit status, the JSON result)
R = TypeVar("R")
S = TypeVar("S")


def check_doc(
    doc: Any,
    keys: Collection[str],
    acts: Collection[str],
    seatless: Collection[str],
    holders: str,
    check_action: Callable[[int, dict[str, Any]], None] | None = None,
) -> None:
    """Refuse a replay document that is not one JSON object of ``keys``, with a list of
    seat ids in ``seats``, whole chips by ``holders`` (e.g. "seat ids") in ``balances``
    and a list of ``actions``, each with an ``act`` of ``acts`` and a ``seat`` unless its
    act is in ``seatless``; ``check_action(index, action)`` checks the rest of each."""
    if not isinstance(doc, dict):
        raise ConfigError("the file must hold one JSON object")
    unknown = set(doc) - set(keys)
    if unknown:
        raise ConfigError(f"unknown replay keys {sorted(unknown)}")
    seats = doc.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ConfigError('"seats" must be a list of seat ids')
    balances = doc.get("balances", {})
    if not isinstance(balances, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in balances.values()
    ):
        raise ConfigError(f'"balances" must map {holders} to whole numbers of chips')
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ConfigError('"actions" must be a list')
    for i, a in enumerate(actions):
        if not isinstance(a, dict) or "act" not in a:
            raise ConfigError(f'action {i}: missing "act"')
        if a["act"] not in acts:
            raise ConfigError(f"action {i}: unknown act {a['act']!r}; one of {sorted(acts)}")
        if a["act"] not in seatless and not isinstance(a.get("seat"), str):
            raise ConfigError(f'action {i}: "{a["act"]}" needs a "seat"')
        if check_action is not None:
            check_action(i, a)


def table_rules(model: Callable[..., R], doc: Mapping[str, Any]) -> R:
    """The table rules of the document's ``rules`` (the defaults where it names none)."""
    try:
        return model(**doc.get("rules", {}))
    except (ValidationError, TypeError) as exc:
        raise ConfigError(f"bad rules: {exc}") from None


def card_list(raw: Any, what: str) -> list[Card]:
    """The cards of a list of card codes (``what``: the key it stands under)."""
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise ConfigError(f'"{what}" must be a list of cards')
    return [parse_card(c) for c in raw]


def stacked_shoe(top: list[Card], packs: int, what: str = "shoe") -> list[Card]:
    """The listed cards on top, then the rest of ``packs`` full packs in new-pack order
    (a card listed more often than the packs hold it is refused; ``what``: the shoe or
    the pack, for the message)."""
    rest = full_pack(packs)
    for c in top:
        if c not in rest:
            raise ConfigError(f"the {what} holds {c.code} too often")
        rest.remove(c)
    return top + rest


def stacked_top(doc: Mapping[str, Any], key: str, packs: int) -> list[Card] | None:
    """The shoe (or pack) a document stacks under ``key``: the cards it lists on top,
    then the rest of ``packs`` full packs in new-pack order; None where it lists none."""
    if key not in doc:
        return None
    return stacked_shoe(card_list(doc[key], key), packs, key)


def scripted_chance(doc: Mapping[str, Any]) -> ScriptedChance:
    """The document's ``reshuffles`` (each a list of cards, top first), then a shuffle
    seeded from its ``seed`` (default 0)."""
    reshuffles = [card_list(r, "reshuffles") for r in doc.get("reshuffles", [])]
    return ScriptedChance(reshuffles, int(doc.get("seed", 0)))


def opening_accounts(balances: Mapping[Any, int]) -> dict[str, int]:
    """The chips each account holds before the first action: the document's
    ``balances``, and empty escrow and house accounts unless it names them."""
    accounts = {str(k): v for k, v in balances.items()}
    accounts.setdefault(ESCROW, 0)
    accounts.setdefault(HOUSE, 0)
    return accounts


def move_chips(accounts: dict[str, int], transfers: Iterable[Transfer]) -> None:
    """Follow ``transfers`` in ``accounts`` (an account not there yet starts at 0)."""
    for t in transfers:
        accounts[t.src] = accounts.get(t.src, 0) - t.amount
        accounts[t.dst] = accounts.get(t.dst, 0) + t.amount


def standings(accounts: Mapping[str, int]) -> dict[str, Any]:
    """``{"balances": the players' chips, "house": the house's}`` of ``accounts``."""
    return {
        "balances": {k: v for k, v in accounts.items() if k not in (ESCROW, HOUSE)},
        "house": accounts[HOUSE],
    }


def play_actions(
    actions: Sequence[Any],
    play: Callable[[int, Any], None],
    snapshot: Callable[[], S],
    summary: Callable[[S | None], dict[str, Any]],
) -> Doc:
    """Play each of ``actions`` in order (``play(index, action)``) and return (0,
    ``summary(None)``). The first action the rules refuse ends the replay: nothing after
    it is applied, and the result is (2, ``summary(before)``, where ``before`` is the
    ``snapshot()`` taken just before that action) with an ``error`` entry naming it."""
    for i, raw in enumerate(actions):
        before = snapshot()
        try:
            play(i, raw)
        except RuleError as exc:
            result = summary(before)
            result["error"] = {"action": i, "rule": exc.rule, "message": exc.message}
            return 2, result
    return 0, summary(None)


__all__ = [
    "Doc",
    "card_list",
    "check_doc",
    "move_chips",
    "opening_accounts",
    "play_actions",
    "scripted_chance",
    "stacked_shoe",
    "stacked_top",
    "standings",
    "table_rules",
]
