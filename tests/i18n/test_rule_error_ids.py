"""Engine refusals carry their message id: the bot translates a ``RuleError`` by its
``key`` and ``params``, not by matching its English text.

- the source is scanned: every ``RuleError(...)`` the engine (or the bot) builds names a
  message id that every catalog has, with exactly that message's placeholders;
- random games are played and every refusal met on the way is checked: members in every
  language read its catalog text by its id, never a rule id;
- a refusal without a known id (a bug) reads the generic rule refusal: English is never
  read back into an id.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from bot.errors import friendly, rule_params, rule_text
from bot.i18n import LOCALES, catalog, placeholders, t
from engine.cards import RandomChance
from engine.errors import RuleError
from engine.pontoon import Action, ActionKind, Phase, PontoonRules, Table
from engine.punto_banco.coup import Side
from engine.punto_banco.rules import PuntoBancoRules
from engine.punto_banco.table import PuntoBancoTable

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*sorted((ROOT / "engine").rglob("*.py")), *sorted((ROOT / "bot").rglob("*.py"))]
K = ActionKind


def _rule_error_calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "RuleError":
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def _keys(node: ast.expr) -> list[str]:
    """The message ids a ``key=`` argument may name: a string, or either side of an
    ``a if cond else b`` of strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _keys(node.body) + _keys(node.orelse)
    raise AssertionError(f"key is not a literal message id: {ast.unparse(node)}")


CALLS = _rule_error_calls()


def test_the_scan_finds_the_engine_refusals() -> None:
    assert sum(1 for where, _ in CALLS if where.startswith("engine/")) >= 60


@pytest.mark.parametrize(("where", "call"), CALLS, ids=[w for w, _ in CALLS])
def test_every_rule_error_names_a_message_id_with_its_placeholders(
    where: str, call: ast.Call
) -> None:
    keywords = {k.arg: k.value for k in call.keywords}
    assert "key" in keywords, f"{where}: RuleError without key="
    params = {name for name in keywords if name != "key"}
    assert None not in params, f"{where}: no **params: each value is named"
    for key in _keys(keywords["key"]):
        for locale in LOCALES:
            assert key in catalog(locale), f"{where}: {key!r} is not in the {locale} catalog"
        # a message may leave a value out (the turn refusal does not say "(hand 1)")
        assert placeholders(catalog("en")[key]) <= params, f"{where}: placeholders of {key}"


def test_every_action_and_phase_name_is_a_word_of_every_catalog() -> None:
    """Refusals name actions and phases as ``Word(f"engine.word.{value}")``."""
    for locale in LOCALES:
        for value in [*(k.value for k in ActionKind), *(p.value for p in Phase)]:
            assert f"engine.word.{value}" in catalog(locale), (locale, value)


# --------------------------------------------------------------------- refusals in play
RULE_ID_TEXT = re.compile(r"\b[PB]-[A-Z]{2,}")


def _pontoon_refusals(seed: int) -> list[RuleError]:
    rng = random.Random(seed)
    shoot = rng.random() < 0.5
    house = not shoot and rng.random() < 0.3
    rules = PontoonRules(
        min_bet=2,
        max_bet=rng.choice([5, 20]),
        shoot=shoot,
        house_bank=house,
        burn=rng.choice(["off", "13", "14"]),
        split_aces_only=rng.random() < 0.5,
        stick_on_16=rng.random() < 0.5,
        banker_doubles=rng.random() < 0.5,
        no_buy_five_on_eleven=rng.random() < 0.5,
        packs=rng.choice([None, 1]),
    )
    seats = [f"s{i}" for i in range(rng.choice([2, 3, 4]))]
    table = Table(rules, seats, {s: rng.choice([3, 40, 400]) for s in seats})
    chance = RandomChance(rng)
    seen: list[RuleError] = []
    for _ in range(120):
        probe = Table.from_json(table.to_json())  # tried on a copy: only refusals are wanted
        for seat in [*table.seats, "stranger"]:
            for kind in K:
                amount: object = rng.choice([None, -1, 0, 1, 3, 7, 30, 1000, "x"])
                target = rng.choice([None, *table.seats])
                try:
                    probe.apply(Action(seat, kind, amount, None, target), chance)  # type: ignore[arg-type]
                except RuleError as exc:
                    seen.append(exc)
                else:
                    probe = Table.from_json(table.to_json())
        moves = [(s, la) for s in table.seats for la in table.legal_actions(s)]
        moves = [m for m in moves if m[1].kind not in (K.LEAVE, K.SELL_BANK)]
        if not moves:
            break
        seat, la = rng.choice(moves)
        amount = None
        if la.min_amount is not None:
            top = la.max_amount if la.max_amount is not None else la.min_amount + 5
            amount = rng.randint(la.min_amount, top)
        table.apply(Action(seat, la.kind, amount), chance)
    for seat in ("stranger", table.seats[0]):
        for chips in (-1, 5):
            try:
                table.set_balance(seat, chips)
            except RuleError as exc:
                seen.append(exc)
    return seen


def _punto_banco_refusals() -> list[RuleError]:
    table = PuntoBancoTable(PuntoBancoRules(min_bet=2, max_bet=50))
    seen: list[RuleError] = []

    def attempt(call: Callable[[], object]) -> None:
        try:
            call()
        except RuleError as exc:
            seen.append(exc)

    for amount in (2.5, "5", True, 0, -3, 1, 51, 30):
        for balance in (None, 10, -4):
            attempt(partial(table.place_bet, "ann", Side.BANCO, amount, balance=balance))  # type: ignore[arg-type]
    attempt(partial(table.withdraw_bet, "bob", Side.EGALITE))
    attempt(partial(table.repeat_bets, "bob"))
    table.place_bet("bob", Side.PUNTO, 20)
    table.deal(RandomChance(random.Random(1)))
    attempt(partial(table.repeat_bets, "bob", balance=5))
    return seen


def _seating_refusals() -> list[RuleError]:
    """Joining a full table, a bad seat id, and dealing alone."""
    table = Table(PontoonRules(packs=1), ["s0"], {"s0": 50})
    seen: list[RuleError] = []
    chance = RandomChance(random.Random(2))
    for action in [Action("s0", K.CUT), Action("s0", K.DEAL), Action("@bad", K.JOIN, 5)]:
        try:
            table.apply(action, chance)
        except RuleError as exc:
            seen.append(exc)
    for n in range(1, 30):
        try:
            table.apply(Action(f"s{n}", K.JOIN, 5), chance)
        except RuleError as exc:
            seen.append(exc)
            break
    return seen


REFUSALS = [
    *(exc for seed in range(12) for exc in _pontoon_refusals(seed)),
    *_punto_banco_refusals(),
    *_seating_refusals(),
]


def test_play_meets_many_kinds_of_refusal() -> None:
    assert len({exc.key for exc in REFUSALS}) >= 35


@pytest.mark.parametrize("locale", LOCALES)
def test_refusals_read_from_the_catalog_without_rule_ids(locale: str) -> None:
    """Every language (English too) reads a refusal's catalog text by its id; the engine's
    own English text, with its rule id, is for logs. No rule id reaches the member."""
    checked: set[tuple[str | None, str]] = set()
    for exc in REFUSALS:
        if (exc.key, exc.message) in checked:
            continue
        checked.add((exc.key, exc.message))
        assert exc.key is not None, exc
        said = friendly(exc, locale)
        assert exc.rule not in said and not RULE_ID_TEXT.search(said), (exc.key, said)
        body = t(locale, exc.key, **rule_params(exc)).strip().rstrip(".।")
        assert rule_text(locale, exc) == body[:1].upper() + body[1:], exc.key


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_without_a_known_id_reads_the_generic_line_even_in_english(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The engine's English is for logs: without an id (a bug, logged) nobody reads it,
    not even when it is word for word a catalog text."""
    generic = _sentence(t(locale, "err.rule.generic"))
    same_words = RuleError("P-SPLIT-2", t("en", "engine.split_four"))
    unknown = RuleError("P-X", "brand new refusal", key="engine.no_such_message")
    for exc in (same_words, unknown):
        caplog.clear()
        assert rule_text(locale, exc) == generic
        assert "bug" in caplog.text
    assert rule_text(locale, RuleError("P-SPLIT-2", "x", key="engine.split_four")) != generic


def test_the_id_wins_over_the_english_text() -> None:
    exc = RuleError("P-TABLE-1", "some words", key="engine.pack_empty")
    assert rule_text("fr", exc) == _sentence(t("fr", "engine.pack_empty"))


def _sentence(text: str) -> str:
    """A catalog text as ``rule_text`` gives it: capitalised, no closing full stop."""
    text = text.strip().rstrip(".।")
    return text[:1].upper() + text[1:]
