"""Words the 2026-11-28 reviews found that the first fixes left open, read as players get
them: each test fails on the old wording or the old catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import LOCALES, Msg, Raw, catalog, catalog_files, choose, domain_catalog, t
from cogs.pontoon import render
from tests.engine.pontoon.pontoon_helpers import table

ROOT = Path(__file__).resolve().parents[2]


def _name(seat: str) -> str:
    return seat


def _table_text(cover: int, locale: str = "en") -> str:
    t_ = table(seats=("ann", "bob", "cat"), banker="cat", max_bet=50)
    parts = render.table_parts(t_.public_view(), t_.rules, _name, locale=locale, cover=cover)
    return "\n".join(parts.lines)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_banker_with_nothing_left_to_cover_is_not_said_to_cover_zero(locale: str) -> None:
    # it read "The banker can cover only 0 more chips of stakes" (fr "que 0 jetons")
    none = _table_text(0, locale)
    assert t(locale, "pt.cover_none") in none
    assert t(locale, "pt.cover_limit", cover=0) not in none
    some = _table_text(2, locale)
    assert t(locale, "pt.cover_limit", cover=2) in some and t(locale, "pt.cover_none") not in some


def test_english_and_french_cover_refusals_say_times_the_stake_not_2x() -> None:
    en = t("en", "engine.cannot_cover_bet.you", amount=45, times=2)
    assert "2x" not in en and "2 times the stake" in en, en
    fr = t("fr", "engine.cannot_cover_bet.you", amount=45, times=2)
    assert not fr.rstrip().endswith("2 fois"), fr


def test_french_turn_line_needs_no_elision_before_a_vowel() -> None:
    # « C’est le tour de ann » wanted « d’ann »: « c’est à ann de jouer » needs none
    text = t("fr", "engine.turn_of", seat="ann")
    assert "de ann" not in text and "ann" in text, text


@pytest.mark.parametrize(
    ("key", "params", "verb"),
    [
        ("pt.ev.cut", {"name": "bob"}, "काटा"),
        ("pt.ev.twisted", {"who": "cat", "hand": ""}, "ट्विस्ट किया"),
        ("pt.ev.burned", {"who": "cat", "hand": ""}, "जलाया"),
        ("pt.ev.split", {"who": "cat"}, "विभाजित किया"),
        ("pt.ev.banker_draw", {}, "लिया"),
    ],
)
def test_hindi_log_lines_put_the_card_before_the_verb(
    key: str, params: dict[str, str], verb: str
) -> None:
    # "bob ने काटा 10♠" -> "bob ने 10♠ काटा"
    line = t("hi", key, cards="10♠", **params)
    assert line.endswith(verb) and line.index("10♠") < line.index(verb), line


def test_the_next_deal_sentence_ends_with_the_languages_full_stop() -> None:
    assert t("hi", "pt.sentence", text="पैक फेंटा जाएगा") == "पैक फेंटा जाएगा।"
    assert t("en", "pt.sentence", text="The pack will be shuffled") == "The pack will be shuffled."


@pytest.mark.parametrize("what", ["amount.what.amount", "amount.what.stake", "amount.what.bid"])
def test_hindi_amount_refusals_are_sentences_not_label_fragments(what: str) -> None:
    # "राशि: मान ऋणात्मक नहीं हो सकता।" read as a label and a fragment
    for key in ("err.amount.negative", "err.amount.too_large"):
        text = t("hi", key, what=Msg(what))
        assert ": मान" not in text and text.endswith("।"), text


def test_german_betting_commands_share_one_word_and_twist_is_ziehen() -> None:
    de = catalog("de")
    assert de["cmd.pontoon.bet.name"] == de["cmd.baccarat.bet.name"] == "setzen"
    assert de["pt.button.twist"] == "Ziehen" and de["cmd.pontoon.twist.name"] == "ziehen"
    assert not [k for k, v in de.items() if re.search(r"\b(ge)?dreh", v, re.IGNORECASE)]


def test_german_balance_says_at_the_table_in_a_channel() -> None:
    for key in ("chips.balance.self.seated", "chips.balance.self.in_play"):
        text = t("de", key, chips=5, channel="1", in_play=3)
        assert "am Tisch in <#1>" in text and "sitzt an" not in text, text


def test_command_names_keep_their_accents() -> None:
    assert catalog("fr")["cmd.privacy.name"] == "confidentialité"


def test_persian_words_the_review_asked_for() -> None:
    fa = catalog("fa")
    assert (
        "دست جاری" in fa["chips.balance.self.betting"]
        and "بعدی" not in fa["chips.balance.self.betting"]
    )
    assert "نشان بده" not in fa["cmd.leaderboard.opt.chart.desc"]
    assert "نشان بده" not in fa["cmd.baccarat.odds.opt.chart.desc"]
    assert "خانه" not in fa["cmd.pontoon.start.opt.banker.desc"]


@pytest.mark.parametrize("locale", LOCALES)
def test_counts_choose_a_singular_or_plural_form_without_parentheses(locale: str) -> None:
    # "1 table(s)", "problème(s)", "मेज़(ों)"
    for base in ("stats.game", "chips.audit.failed", "privacy.delete.ask", "privacy.delete.done"):
        for n in (1, 3):
            key = choose(n, base + ".one", base + ".other")
            text = t(locale, key, game="Pontoon", net=5, tables=n, problems=n, servers=n, chips=1)
            assert not re.search(r"\w\((s|e|n|en|ों|एँ)\)", text), text
    assert t("en", "stats.game.one", game="Pontoon", net=5, tables=1).endswith("1 table")
    assert "मेज़" not in catalog("hi")["stats.games_head"]


def test_english_clients_read_choice_labels_as_words() -> None:
    en = catalog("en")
    labels = {k: v for k, v in en.items() if k.startswith("choice.")}
    assert labels and not [v for v in labels.values() if "_" in v]


def test_each_games_choices_are_in_its_own_catalog() -> None:
    shared = domain_catalog("en", "messages")
    assert "choice.players_double_banker_single" in domain_catalog("en", "pontoon")
    assert "choice.egalite" in domain_catalog("en", "punto_banco")
    # shared choices: no game's (the /break units are every game's)
    assert {k for k in shared if k.startswith("choice.")} == {
        "choice.standard",
        "choice.auto",
        "choice.minutes",
        "choice.hours",
        "choice.days",
    }


NARROW = "\u202f"


def test_french_uses_narrow_spaces_before_high_punctuation_and_curly_apostrophes() -> None:
    for key, text in catalog("fr").items():
        bare = re.sub(r"\{[^{}]*\}|<[^<>]*>|`[^`]*`", "x", text)
        assert not re.search(r"[ \u00a0][:;!?»]|«[ \u00a0]", bare), (key, text)
        assert "'" not in bare, (key, text)


# every id in a catalog is said by some code: the literal id, an id the code builds from a
# prefix (f"engine.word.{…}"), a .you/.one/.other form of one, or a slash command's words
PY_DIRS = ("bot", "cogs", "engine")
LITERAL = re.compile(r"[\"']([a-z_]+(?:\.[a-z0-9_\-]+)+)[\"']")
PREFIX = re.compile(r"f?[\"']([a-z_]+(?:\.[a-z0-9_]+)*\.)(?:\{|[\"'])")


def _code_ids() -> tuple[set[str], set[str]]:
    src = "\n".join(
        p.read_text(encoding="utf-8") for d in PY_DIRS for p in (ROOT / d).rglob("*.py")
    )
    return set(LITERAL.findall(src)), set(PREFIX.findall(src))


def _command_ids() -> set[str]:
    """The message ids of every slash command, group, option and choice the cogs declare
    (the ids bot.translator asks for)."""
    import importlib
    import inspect
    import pkgutil

    from discord import app_commands
    from discord.ext import commands

    import cogs

    ids: set[str] = set()

    def walk(c: app_commands.Command[..., object] | app_commands.Group, path: list[str]) -> None:
        here = [*path, c.name]
        base = "cmd." + ".".join(here)
        ids.update((base + ".name", base + ".desc"))
        if isinstance(c, app_commands.Group):
            for sub in c.commands:
                walk(sub, here)
            return
        for p in c.parameters:
            ids.update((f"{base}.opt.{p.name}.name", f"{base}.opt.{p.name}.desc"))
            ids.update(f"choice.{ch.value}" for ch in p.choices)

    seen: set[object] = set()
    for info in pkgutil.walk_packages(cogs.__path__, "cogs."):
        for obj in vars(importlib.import_module(info.name)).values():
            if inspect.isclass(obj) and issubclass(obj, commands.Cog) and obj not in seen:
                seen.add(obj)
                group = getattr(obj, "__cog_group_name__", None)
                prefix = (
                    [str(group)] if getattr(obj, "__cog_is_app_commands_group__", False) else []
                )
                if prefix:
                    ids.update((f"cmd.{prefix[0]}.name", f"cmd.{prefix[0]}.desc"))
                for c in obj.__cog_app_commands__:
                    walk(c, prefix)
    return ids


def test_every_catalog_id_is_used_by_some_code() -> None:
    literals, prefixes = _code_ids()
    commands = _command_ids()

    def used(key: str) -> bool:
        if key.startswith(("cmd.", "choice.")):
            return key in commands
        if key in literals or any(key.startswith(p) for p in prefixes):
            return True
        return any(
            key.endswith(s) and key[: -len(s)] in literals
            for s in (".you", ".one", ".other", ".none")
        )

    unused = sorted(k for k in catalog("en") if not used(k))
    assert not unused, unused


def test_the_unused_ids_the_review_found_are_gone() -> None:
    en = catalog("en")
    for key in ("pt.timeout.stuck", "pt.timeout.twisted", "pt.rules.pays", "pb.idle.one"):
        assert key not in en
    assert catalog_files()  # the files the ids came from still exist


@pytest.mark.parametrize("locale", LOCALES)
def test_a_banker_who_did_not_play_says_why_instead_of_a_dash(locale: str) -> None:
    # every player bust: "🏦 Banker bob: — (+34)"
    line = render.banker_result_line("bob", None, 34, locale)
    assert t(locale, "pt.banker_not_needed") in line and "—" not in line, line


@pytest.mark.parametrize("locale", LOCALES)
def test_a_lone_player_is_told_a_second_is_needed_before_deal(locale: str) -> None:
    # "▶ Next: Ann presses Deal" while Deal was greyed out for a player alone (P-TABLE-1)
    def move(seats: tuple[str, ...], **rules: object) -> str:
        t_ = table(seats=seats, banker=None, deal=False, **rules)
        return render.table_parts(t_.public_view(), t_.rules, _name, locale=locale).lines[1]

    alone = move(("ann",))
    assert alone == t(locale, "pt.move.need_two", who=Raw(t(locale, "pt.move.dealer.any"))), alone
    assert move(("ann", "bob")) == t(
        locale, "pt.move.deal", who=Raw(t(locale, "pt.move.dealer.any"))
    )
    assert move(("ann",), house_bank=True) != alone  # the house banks: one may play


def test_a_hands_total_follows_its_cards_without_a_separator() -> None:
    # "Your hand: 10♠ 3♣ · = 13 · stake 10"
    from engine.pontoon.views import HandStatus, HandView

    hand = HandView("1", 0, ("10S", "3C"), 0, 10, 0, HandStatus.OPEN, 13)
    line = render.hand_line(hand)
    assert "· =" not in line and line.startswith("10♠ 3♣ = 13"), line


def test_the_french_newcomer_hint_assumes_no_gender() -> None:
    # « Nouveau ici ? » assumed a man; the glossary avoided that for « assis » too
    assert catalog("fr")["help.hint"].startswith("Première fois ici")


@pytest.mark.parametrize("locale", LOCALES)
def test_command_words_stay_within_discords_limits(locale: str) -> None:
    # a 103-character German option description made Discord refuse every command
    from localdiscord.limits import command_name_ok

    for key, text in catalog(locale).items():
        if (key.startswith("cmd.") and key.endswith(".desc")) or key.startswith("choice."):
            assert 1 <= len(text) <= 100, (key, len(text))
        elif key.startswith("cmd.") and key.endswith(".name") and locale != "fa":
            assert command_name_ok(text), (key, text)


def test_persian_lines_that_open_with_a_symbol_are_anchored_right_to_left() -> None:
    # "✂️ ⁨Ben⁩ می‌بُرد …" was laid out left to right: its first strong letter was the name
    import unicodedata

    for key, text in catalog("fa").items():
        if key.startswith(("cmd.", "choice.")) or not text:
            continue
        for line in text.split("\n"):
            if line and (unicodedata.category(line[0]).startswith("S") or line[0] in "•▶"):
                raise AssertionError((key, line))
