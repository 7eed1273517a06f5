"""Every refusal the code raises names its message id, so it reaches English, German,
French, Hindi and Persian readers from the catalogs (English is never read back into an
id). The source is scanned: a new refusal without a catalog id fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.errors import friendly, parse_amount
from bot.i18n import LOCALES, catalog, t
from engine.errors import RuleError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "bot").rglob("*.py")),
    *sorted((ROOT / "cogs").rglob("*.py")),
    *sorted((ROOT / "engine").rglob("*.py")),
]
RAISERS = {"ServiceError", "RuleError", "BadAmount"}


def _keys(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _keys(node.body) + _keys(node.orelse)
    return []  # built elsewhere (a variable): its parts are literals found by the scan


def _refusals() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """(where, message ids) of every refusal raised, and where one is raised without."""
    keyed: list[tuple[str, list[str]]] = []
    missing: list[str] = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if ast.unparse(node.func).rsplit(".", 1)[-1] not in RAISERS:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            key = next((k.value for k in node.keywords if k.arg == "key"), None)
            if key is None and not any(k.arg is None for k in node.keywords):
                missing.append(where)
            elif key is not None:
                keyed.append((where, _keys(key)))
    return keyed, missing


KEYED, MISSING = _refusals()


def test_the_scan_finds_the_refusals() -> None:
    assert len(KEYED) > 80


def test_every_refusal_is_raised_with_a_message_id() -> None:
    assert MISSING == []


@pytest.mark.parametrize(("where", "keys"), KEYED, ids=[w for w, _ in KEYED])
def test_every_refusal_id_is_in_every_catalog(where: str, keys: list[str]) -> None:
    for key in keys:
        for locale in LOCALES:
            assert key in catalog(locale), f"{where}: {key!r} is not in the {locale} catalog"


def test_no_storage_error_is_raised_with_an_english_sentence_for_members() -> None:
    """Storage errors name their message by ``key``/``params``; ``user_message`` is
    derived from it (English, for logs), never passed in."""
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "user_message":
                raise AssertionError(f"{path.relative_to(ROOT)}: user_message= passed")


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_refusals_reach_members_in_their_language(locale: str) -> None:
    exc = RuleError("B-BET-1", "you have only 995 chips to bet with", "engine.pb.only", amount=995)
    text = friendly(exc, locale)
    assert "you have only" not in text and "B-BET-1" not in text
    body = t(locale, "engine.pb.only", amount=995).rstrip(".।")
    assert text == t(locale, "err.rule", text=body[:1].upper() + body[1:], rule="B-BET-1")
    with pytest.raises(Exception) as info:
        parse_amount("-5", "bet")
    what = t(locale, "amount.what.bet")
    assert friendly(info.value, locale) == t(locale, "err.amount.negative", what=what)
    assert friendly(info.value, "en") == "The bet cannot be negative."
