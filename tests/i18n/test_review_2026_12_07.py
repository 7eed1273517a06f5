"""The translation review of 2026-12-07: each finding it made, checked on the catalogs as
the bot renders them (bot.i18n.t), so the old text fails."""

from __future__ import annotations

import re

import pytest

from bot.errors import NotSeated
from bot.i18n import CHIP_COUNTS, FSI, LOCALES, PDI, catalog, placeholders, t

RLM = "\u200f"
PERSIAN_DIGIT = "[۰-۹0-9]"


# ------------------------------------------- Persian: ratios and counts survive RTL layout
def test_no_persian_ratio_or_count_joins_a_placeholder_to_a_digit() -> None:
    """t() isolates every inserted value (FSI…PDI). An isolate is a neutral to the bidi
    algorithm, so in ``{tie}:۱`` the ``:`` no longer sits between two numbers and the
    pair is laid out right to left: 8:1 shows as ۱:۸. A ratio or a count beside a
    placeholder is written with words (``{tie} به ۱``, ``{seats} از ۷``)."""
    joined = re.compile(r"\}[:/∶]" + PERSIAN_DIGIT + "|" + PERSIAN_DIGIT + r"[:/∶]\{")
    bad = {k: v for k, v in catalog("fa").items() if joined.search(v)}
    assert not bad, bad


def test_the_persian_egalite_payout_and_seat_count_read_in_words() -> None:
    footer = t(
        "fa",
        "pb.rules",
        packs="۸ دسته",
        tableau="x",
        min=1,
        max=100,
        commission=5,
        tie=8,
    )
    assert f"{FSI}۸{PDI} به ۱" in footer
    assert not re.search(PDI + "[:/]", footer)
    assert f"({FSI}۸{PDI} به ۱ " in t("fa", "pb.odds.tie", edge="۱۴٪", tie=8)
    assert f"({FSI}۳{PDI} از ۷)" in t("fa", "bj.seats.head", seats=3)


def _visual(text: str) -> str | None:
    """``text`` in the order a right-to-left paragraph shows it, left to right on screen,
    by the system's FriBidi (the Unicode bidi algorithm); None without the library."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("fribidi")
    if name is None:
        return None
    lib = ctypes.CDLL(name)
    chars = (ctypes.c_uint32 * len(text))(*map(ord, text))
    out = (ctypes.c_uint32 * (len(text) + 1))()
    base = ctypes.c_uint32(0x111)  # FRIBIDI_PAR_RTL
    lib.fribidi_log2vis(chars, len(text), ctypes.byref(base), out, None, None, None)
    shown = "".join(chr(c) for c in out[: len(text)])
    return "".join(c for c in shown if c not in "\u2066\u2067\u2068\u2069\u200e\u200f")


def test_the_persian_ratios_show_in_the_right_order_on_screen() -> None:
    """Checked with the Unicode bidi algorithm itself where FriBidi is installed: the old
    ``{tie}:۱`` shows as ۱:۸; the words show ``۸ به ۱`` (read right to left: 8 to 1)."""
    old = _visual(f"{RLM}اگالیته {FSI}۸{PDI}:۱")
    if old is None:
        pytest.skip("FriBidi (libfribidi) is not installed")
    assert old.startswith("۱:۸")  # the bug the words avoid
    footer = t("fa", "pb.rules", packs="x", tableau="y", min=1, max=100, commission=5, tie=8)
    # on screen, left to right: "۱ به ۸ اگالیته …", read right to left: Egalité 8 to 1
    assert re.match(r"۱ \S+ ۸ ", _visual(footer) or ""), _visual(footer)
    seats = _visual(t("fa", "bj.seats.head", seats=3)) or ""
    assert re.match(r"\(۷ \S+ ۳\) ", seats), seats  # read right to left: (3 of 7)


def test_every_persian_line_that_starts_with_a_placeholder_starts_with_rlm() -> None:
    """docs/glossary/fa.md: a line that starts with a placeholder starts with U+200F, so
    a renderer that looks at the first character still lays it out right to left
    (``pt.bold`` is a fragment put inside other lines)."""
    bad = [
        key
        for key, text in catalog("fa").items()
        if not key.startswith("cmd.") and key != "pt.bold"
        for line in text.split("\n")
        if line.startswith(("{", "**{"))
    ]
    assert not bad, bad


def test_the_retired_persian_stand_word_is_banned_by_its_stem() -> None:
    """ایستادن is retired for stay/stand outside Punto Banco's drawing rule; its stem
    catches می‌ایستد and بایستد too."""
    from bot.i18n import domain_catalog, domains

    hits = [
        (domain, key)
        for domain in domains()
        if domain != "punto_banco"
        for key, text in domain_catalog("fa", domain).items()
        if "ایست" in text
    ]
    assert not hits, hits
    assert "می‌ماند" in t("fa", "engine.on_21")


def test_persian_command_names_are_names_discord_accepts() -> None:
    """Discord's command names take letters, digits, ``-`` and ``_``: no U+200C."""
    for locale in LOCALES:
        names = {
            k: v for k, v in catalog(locale).items() if k.startswith("cmd.") and k.endswith(".name")
        }
        bad = {k: v for k, v in names.items() if not re.fullmatch(r"[-_\w\u0900-\u097f]{1,32}", v)}
        assert not bad, (locale, bad)


# ------------------------------------------------------------- a refusal names its table's button
@pytest.mark.parametrize("locale", LOCALES)
def test_blackjacks_not_seated_refusal_names_blackjacks_join_button(locale: str) -> None:
    from bot.blackjack import NOT_SEATED

    refusal = NotSeated(NOT_SEATED)
    text = t(locale, refusal.key or "")
    assert f"**{t(locale, 'bj.button.join')}**" in text
    # Pontoon's own refusal names Pontoon's button
    assert f"**{t(locale, 'pt.button.join')}**" in t(locale, NotSeated().key or "")


# --------------------------------------------------------------------------- French
def test_french_tirer_is_blackjacks_hit_only() -> None:
    fr = catalog("fr")
    shoot = [k for k in fr if ".shoot" in k and k.endswith(".name")] + ["engine.word.shoot"]
    assert len(shoot) >= 6
    assert not [k for k in shoot if "tirer" in fr[k]], shoot
    assert fr["cmd.blackjack.hit.name"] == "tirer"


def test_french_sitting_a_round_out_is_not_passing_the_deal() -> None:
    for key in ("help.round", "pt.rules.timeout", "pt.sitting_out"):
        assert "passe la donne" not in t("fr", key, stick=15)
        assert "passe cette donne" not in t("fr", key, stick=15)
        assert "ne joue pas" in t("fr", key, stick=15)


def test_french_never_puts_de_before_a_name() -> None:
    """„Le temps de Ana“ needs an elision a placeholder cannot make."""
    bad = {k: v for k, v in catalog("fr").items() if re.search(r"\b[Dd]e \*?\*?\{name\}", v)}
    assert not bad, bad


def test_french_hint_lines_need_no_agreement_with_the_figure() -> None:
    line = t("fr", "bj.hint.line", n=1, action="Rester", chips="0,5", per="0,05")
    assert "jetons attendus" not in line and "espérance 0,5" in line
    assert "qu’en vous assurant" in t(
        "fr", "bj.hint.better", best="x", margin="0,1", other=t("fr", "bj.hint.than.insure")
    )


# ---------------------------------------------------------------------------- Hindi
def test_the_hindi_learn_line_says_the_doubled_round_costs_the_player() -> None:
    text = t(
        "hi",
        "pt.learn.edge",
        edge="0.68%",
        twist_only="16.6%",
        no_five="12.4%",
        doubled="20.7%",
        ties="24.7%",
    )
    assert "खिलाड़ी एकल दांव का लगभग 20.7% गँवाता है" in text
    assert "खर्च करता है" not in text


def test_hindi_writes_khatm_with_the_nukta() -> None:
    assert not [k for k, v in catalog("hi").items() if "खत्म" in v]


# ---------------------------------------------------------------------------- German
def test_german_blackjack_commands_share_the_other_games_names() -> None:
    de = catalog("de")
    for part in ("start", "end"):
        assert de[f"cmd.blackjack.{part}.name"] == de[f"cmd.pontoon.{part}.name"]
    assert "gegen das Haus" in de["cmd.blackjack.desc"]


def test_the_daily_option_names_daily_as_the_reader_sees_it() -> None:
    for locale in ("de", "fr", "hi"):
        name = catalog(locale)["cmd.daily.name"]
        assert f"/{name}" in catalog(locale)["cmd.chips.settings.opt.daily_chips.desc"]


# ----------------------------------------------------------------------- "1 chip", not "1 chips"
PLURAL = {"en": "chips", "de": "Chips", "fr": "jetons", "hi": "चिप्स"}
#: English texts whose "chips" follows a figure with decimals (a hint) or a range
# a hint's figures are text with two decimals ("0.13 chips"), never a count of one
NOT_COUNTS = {
    "bj.hint.line",
    "pt.hint.line",
    "bj.hint.better",
    "pt.hint.better",
    "bj.hint.better_loss",
    "pt.hint.better_loss",
    "pt.rules.bets",
}


def _count_messages() -> list[tuple[str, str]]:
    """(id, the chip-count placeholder) of every English message that says "{x} chips"."""
    found = []
    for key, text in catalog("en").items():
        if key in NOT_COUNTS or key.endswith(".one"):
            continue
        match = re.search(r"\{(\w+)\}\**\s+chips\b", text)
        if match:
            found.append((key, match.group(1)))
    return found


def test_every_chip_count_placeholder_is_one_bot_i18n_knows() -> None:
    names = {
        name
        for key, name in _count_messages()
        if key != "stats.game.one" and key != "stats.game.other"
    }
    assert names <= set(CHIP_COUNTS), names - set(CHIP_COUNTS)


@pytest.mark.parametrize("locale", sorted(PLURAL))
def test_a_count_of_one_chip_is_never_plural(locale: str) -> None:
    checked = 0
    for key, name in _count_messages():
        if key.startswith("stats.game."):
            continue  # its net is signed text: cogs/stats.py picks the .one form (below)
        params: dict[str, object] = {p: 2 for p in placeholders(catalog("en")[key])}
        params[name] = 1
        text = t(locale, key, **params)
        assert not re.search(r"\b1\**\s+" + PLURAL[locale] + r"(?!\w)", text), (key, text)
        checked += 1
    assert checked >= 20


def test_stats_says_one_chip_for_a_net_of_one() -> None:
    from datetime import UTC, datetime

    from bot.storage.history import BalancePoint, ChipHistory, GameNet
    from cogs.stats import stats_caption

    now = datetime(2026, 12, 7, tzinfo=UTC)
    history = ChipHistory(points=[BalancePoint(now, 1)], games=[GameNet("pontoon", -1, 1)])
    caption = stats_caption("en", "ann", history, 1)
    assert "Now: 1 chip." in caption
    assert re.search(r"Pontoon: [-−]1 chip at 1 table", caption), caption
