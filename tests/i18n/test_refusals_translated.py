"""Every refusal the code raises in English has a message id, so it reaches German,
French, Hindi and Persian readers in their language (not as English, not as the generic
line). The source is scanned: a new refusal without a catalog entry fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.errors import friendly, parse_amount
from bot.i18n import LOCALES, english_key, has, t
from engine.errors import RuleError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "bot").rglob("*.py")),
    *sorted((ROOT / "cogs").glob("*.py")),
    *sorted((ROOT / "engine").rglob("*.py")),
]
RAISERS = {"ServiceError", "RuleError", "BadAmount"}


def _texts(node: ast.expr) -> list[str]:
    """The English texts of a literal or f-string: holes filled with a sample name, and a
    conditional word ending (``pack{'s' if n > 1 else ''}``) taken both ways."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if not isinstance(node, ast.JoinedStr):
        return []
    outs = [""]
    for part in node.values:
        if isinstance(part, ast.Constant):
            options = [str(part.value)]
        elif (
            isinstance(part, ast.FormattedValue)
            and isinstance(part.value, ast.IfExp)
            and isinstance(part.value.body, ast.Constant)
            and isinstance(part.value.orelse, ast.Constant)
        ):
            options = [str(part.value.body.value), str(part.value.orelse.value)]
        else:
            options = ["Qx7"]
        outs = [o + opt for o in outs for opt in options]
    # a conditional ending agrees with the others in a real message: keep the uniform picks
    return outs if len(outs) <= 2 else [outs[0], outs[-1]]


def _text(node: ast.expr) -> str | None:
    found = _texts(node)
    return found[0] if found else None


KEYED: list[str] = []  # where refusals are raised with a message id (``key=``)


def _english_refusals() -> list[tuple[str, str]]:
    """(where, English text) of refusals raised without a message id; those raised with
    ``key=`` must name an existing id (and are listed in ``KEYED``)."""
    found: list[tuple[str, str]] = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = ast.unparse(node.func).rsplit(".", 1)[-1]
            if name not in RAISERS:
                continue
            key = next((k.value for k in node.keywords if k.arg == "key"), None)
            if key is not None:
                assert isinstance(key, ast.Constant) and has(str(key.value)), (
                    f"{path}:{node.lineno}: unknown message id {ast.unparse(key)}"
                )
                KEYED.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                continue
            arg = node.args[-1] if name == "RuleError" else node.args[0]
            for text in _texts(arg):
                if text.strip():
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", text))
        # storage errors: user_message = "..." (class attribute) or user_message=... (call)
        for node in ast.walk(tree):
            value: ast.expr | None = None
            if (
                (
                    isinstance(node, ast.Assign)
                    and any(
                        isinstance(tg, ast.Name) and tg.id == "user_message" for tg in node.targets
                    )
                )
                or (isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "user_message")
                or (isinstance(node, ast.keyword) and node.arg == "user_message")
            ):
                value = node.value
            if value is not None and isinstance(value, ast.BinOp):
                value = None  # built from parts elsewhere in the scan
            text = _text(value) if value is not None else None
            if text:
                found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}", text))
        # (rule, message) pairs the Pontoon engine raises as RuleError(*why)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(node.elts[0], ast.Constant)
                and str(node.elts[0].value).startswith(("P-", "B-"))
            ):
                for text in _texts(node.elts[1]):
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", text))
    return found


REFUSALS = _english_refusals()


def test_the_scan_finds_the_refusals() -> None:
    assert len(REFUSALS) + len(KEYED) > 80


@pytest.mark.parametrize(
    ("where", "text"), REFUSALS, ids=[f"{w}:{i}" for i, (w, _) in enumerate(REFUSALS)]
)
def test_every_english_refusal_has_a_message_id(where: str, text: str) -> None:
    candidates = [text, text[:1].upper() + text[1:]]
    assert any(english_key(c) for c in candidates), f"{where}: no message id for {text!r}"


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_refusals_reach_members_in_their_language(locale: str) -> None:
    exc = RuleError("B-BET-1", "you have only 995 chips to bet with")
    text = friendly(exc, locale)
    assert "you have only" not in text and "B-BET-1" not in text
    body = t(locale, "engine.pb.only", amount=995).rstrip(".।")
    assert text == t(locale, "err.rule", text=body[:1].upper() + body[1:], rule="B-BET-1")
    with pytest.raises(Exception) as info:
        parse_amount("-5", "bet")
    what = t(locale, "amount.what.bet")
    assert friendly(info.value, locale) == t(locale, "err.amount.negative", what=what)
    assert friendly(info.value, "en") == "The bet cannot be negative."
