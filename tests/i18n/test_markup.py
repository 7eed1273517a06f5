"""Every message in every language, rendered with worst-case values, keeps Discord markup
well formed: timestamps, mentions and command mentions are never touched by
number formatting or bidi isolates; commands are written as command mentions; no rule id
reaches a player; Persian is written in Persian digits and anchored right to left."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.i18n import (
    FSI,
    LOCALES,
    PDI,
    catalog,
    command,
    command_name,
    markup_fields,
    placeholders,
    set_command_ids,
    t,
)

EN = catalog("en")
IDS = {"pontoon": 1234567890123456789, "bank": 2234567890123456789, "baccarat": 32345678901234}
IDS |= {"balance": 4, "daily": 5, "leaderboard": 6, "chips": 7, "language": 8, "help": 9}
#: a timestamp / id that number formatting would group (1,795,615,593 · 1.795.615.593)
BIG = 1795615593
SNOWFLAKE = 123456789012345678

#: what Discord accepts, strictly (https://discord.com/developers/docs/reference#message-formatting)
WELL_FORMED = re.compile(
    r"<t:-?\d+(?::[tTdDfFR])?>|<#\d+>|<@!?\d+>|<@&\d+>|</[-_\w]+(?: [-_\w]+){0,2}:\d+>"
    r"|<a?:\w+:\d+>"
)
#: anything that starts like Discord markup
STARTS = re.compile(r"<(?:t:|#|@|/|a?:)")


@pytest.fixture(autouse=True)
def _command_ids() -> Iterator[None]:
    set_command_ids(IDS)
    yield
    set_command_ids({})


def worst_values(locale: str, key: str) -> dict[str, object]:
    """Large numbers everywhere (the case that broke ``<t:…>``), ids in markup."""
    text = catalog(locale).get(key, EN[key])
    inside = markup_fields(text)
    return {
        name: (SNOWFLAKE if name in {"channel", "user", "role"} else BIG)
        if name in inside
        else 12345678
        for name in placeholders(EN[key])
    }


def markup_tokens(text: str) -> list[str]:
    """Each piece of ``text`` that starts like Discord markup, up to its closing ``>``."""
    out = []
    for match in STARTS.finditer(text):
        end = text.find(">", match.start())
        out.append(text[match.start() : end + 1] if end != -1 else text[match.start() :])
    return out


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_keeps_discord_markup_well_formed(locale: str) -> None:
    bad = {}
    for key in EN:
        out = t(locale, key, **worst_values(locale, key))
        wrong = [tok for tok in markup_tokens(out) if not WELL_FORMED.fullmatch(tok)]
        if wrong:
            bad[key] = wrong
        assert out.count(FSI) == out.count(PDI), (key, out)
    assert not bad, f"{locale}: malformed Discord markup: {bad}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_daily_timestamp_is_a_working_discord_timestamp(locale: str) -> None:
    """The /daily bug: `Komm <t:1.795.615.593:R> wieder.`"""
    out = t(locale, "err.storage.daily", stamp=BIG)
    assert f"<t:{BIG}:R>" in out
    out = t(locale, "chips.balance.self.seated", chips=BIG, channel=SNOWFLAKE)
    assert f"<#{SNOWFLAKE}>" in out


def test_markup_is_found_in_the_template_whatever_the_value_type() -> None:
    assert markup_fields("Come back <t:{stamp}:R>, {name}.") == {"stamp"}
    assert markup_fields("<#{channel}> <@{user}> </x y:{id}> {n}") == {"channel", "user", "id"}
    assert markup_fields("**{n}** chips") == frozenset()


def test_command_references_are_mentions_or_the_readers_command_name() -> None:
    assert command("de", "pontoon start") == f"</pontoon start:{IDS['pontoon']}>"
    set_command_ids({})
    assert command("de", "pontoon start") == f"`{command_name('de', 'pontoon start')}`"
    assert (
        command_name("de", "pontoon start") == "/pontoon " + catalog("de")["cmd.pontoon.start.name"]
    )
    assert command_name("fa", "pontoon start") == "/pontoon start"  # Discord has no Persian
    assert "`/pontoon start`" not in t("fr", "err.no_table")
    assert command_name("fr", "pontoon start") in t("fr", "err.no_table")


@pytest.mark.parametrize("locale", LOCALES)
def test_no_text_names_a_command_in_english_code_style(locale: str) -> None:
    """Command names are written as mentions (``</pontoon start>``) in the catalogs, so a
    German reader sees the command as their client names it."""
    named = {k: v for k, v in catalog(locale).items() if re.search(r"`/[a-z]", v)}
    assert not named


RULE_ID = re.compile(r"\b[PB]-[A-Z]{2,}")


@pytest.mark.parametrize("locale", LOCALES)
def test_no_rule_id_in_any_catalog_text(locale: str) -> None:
    """Rule ids are for logs, tests and the one reference line of /pontoon rules (filled
    in by the code): never in a catalog text."""
    found = {k: v for k, v in catalog(locale).items() if RULE_ID.search(v)}
    assert not found


def test_persian_numbers_are_persian_digits_and_lines_are_anchored() -> None:
    out = t("fa", "pt.balance_line", name="bob", chips=1234567)
    assert out.startswith("\u200f") and "۱٬۲۳۴٬۵۶۷" in out and not re.search(r"[0-9]", out)
    fa = catalog("fa")
    for key, text in fa.items():
        if key.startswith(("cmd.", "choice.")):
            continue
        for line in text.split("\n"):
            assert not line.startswith("{"), f"{key}: a line starts with a placeholder"
        outside = re.sub(r"\{[^{}]*\}|<[^<>]*>|`[^`]*`", "", text)
        assert not re.search(r"[0-9]", outside), f"{key}: Latin digits in {text!r}"


def test_the_check_catches_the_broken_timestamp() -> None:
    broken = "Komm <t:1.795.615.593:R> wieder. Reviens <t:\u20681 795 615 704\u2069:R>."
    assert [tok for tok in markup_tokens(broken) if not WELL_FORMED.fullmatch(tok)] == [
        "<t:1.795.615.593:R>",
        "<t:\u20681 795 615 704\u2069:R>",
    ]
    assert not WELL_FORMED.fullmatch("</pontoon start>")  # a reference never resolved


async def test_english_clients_read_no_internal_choice_name() -> None:
    """The Punto Banco drawing-rules choice was shown as its value, `seed`."""
    import discord
    from discord import app_commands
    from discord.app_commands import TranslationContext
    from discord.app_commands import TranslationContextLocation as Where

    from bot.translator import CatalogTranslator

    choice = app_commands.Choice(name="seed", value="seed")
    ctx = TranslationContext(location=Where.choice_name, data=choice)
    said = await CatalogTranslator().translate(
        app_commands.locale_str("seed"), discord.Locale.american_english, ctx
    )
    assert said == "table rules"
    assert catalog("de")["choice.seed"] == "Tischregeln"
