"""The message catalogs (bot/locales/*/LC_MESSAGES/messages.po) and bot.i18n."""

from __future__ import annotations

import string

import pytest
from babel.messages.pofile import read_po

from bot.i18n import (
    FSI,
    LOCALES,
    PDI,
    Msg,
    num,
    pct,
    po_path,
    signed,
    t,
)


def _po(locale: str) -> dict[str, str]:
    with po_path(locale).open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    return {str(m.id): str(m.string) for m in catalog if m.id}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


EN = _po("en")


def test_the_english_catalog_has_messages() -> None:
    assert len(EN) > 200
    assert all(text for text in EN.values()), "an English message is empty"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_id_is_in_every_catalog_with_the_same_placeholders(locale: str) -> None:
    other = _po(locale)
    missing = sorted(set(EN) - set(other))
    extra = sorted(set(other) - set(EN))
    assert not missing, f"{locale} lacks {missing[:10]}"
    assert not extra, f"{locale} has ids English lacks: {extra[:10]}"
    empty = sorted(k for k, v in other.items() if not v)
    assert not empty, f"{locale} has untranslated ids: {empty[:10]}"
    wrong = {
        key: (sorted(_fields(EN[key])), sorted(_fields(other[key])))
        for key in EN
        if _fields(EN[key]) != _fields(other[key])
    }
    assert not wrong, f"{locale}: placeholders differ (en, {locale}): {wrong}"


def test_the_placeholder_check_fails_on_a_missing_or_extra_placeholder() -> None:
    assert _fields("{name} has **{chips}** chips.") != _fields("{name} hat **Chips**.")
    assert _fields("You have {chips}.") != _fields("Du hast {chips} {extra}.")
    assert _fields("{a} and {a}") == _fields("{a}")


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_formats_with_its_placeholders(locale: str) -> None:
    for key, text in EN.items():
        values = dict.fromkeys(_fields(text), "x")
        out = t(locale, key, **values)
        assert out and "{" not in out.replace("{x}", ""), (key, out)


def test_numbers_are_formatted_for_the_locale() -> None:
    assert num("en", 1234567) == "1,234,567"
    assert num("de", 1234567) == "1.234.567"
    assert num("fr", 1234567).replace("\u202f", " ") == "1 234 567"
    assert num("hi", 1234567) == "12,34,567"
    assert num("en", 1016) == "1016" and num("de", 9.5) == "9,5" and num("en", 12345) == "12,345"
    assert signed("de", -10009) == "−10.009" and signed("en", 9) == "+9" and signed("fr", 0) == "±0"
    assert pct("en", 0.458597) == "45.86%" and pct("de", 0.458597).startswith("45,86")


def test_english_output_is_unchanged_and_other_languages_translate() -> None:
    assert t("en", "chips.balance.self", chips=1009) == "You have **1009** chips."
    assert t("de", "chips.balance.self", chips=21009) == "Du hast **21.009** Chips."
    assert t("xx", "chips.balance.self", chips=5) == "You have **5** chips."


def test_persian_isolates_names_and_numbers() -> None:
    text = t("fa", "chips.balance.other", name="alice", chips=1009)
    assert f"{FSI}alice{PDI}" in text and f"{FSI}۱۰۰۹{PDI}" in text  # Persian digits
    assert text.startswith("\u200f")  # a line starting with a name is anchored right to left
    assert FSI not in t("de", "chips.balance.other", name="alice", chips=1009)


def test_a_nested_message_is_rendered_in_the_outer_language() -> None:
    text = t("de", "err.amount.negative", what=Msg("amount.what.bet"))
    assert text == "Der Wert für Einsatz darf nicht negativ sein."
