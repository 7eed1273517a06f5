"""Words the translation and play reviews of 2026-11-28 found wrong, rendered the way the
bot renders them: each test reads the text a player gets and fails on the old wording."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import COMMAND_LOCALES, FSI, LOCALES, PDI, Msg, catalog, num, signed, t
from cogs.pontoon.render import event_line
from engine.errors import Word
from engine.pontoon.types import Event, EventKind


def test_hindi_result_lines_use_the_oblique_banker_total() -> None:
    # "18 बैंकर का 19 से हारा" is ungrammatical: before से/को the possessive is के
    total = Msg("engine.label.banker_total", total=19)
    lost = t("hi", "engine.why.loses_to", label=18, blabel=total)
    won = t("hi", "engine.why.beats", label=18, blabel=Msg("engine.label.banker_total", total=17))
    for line in (lost, won):
        assert "बैंकर के" in line and "बैंकर का" not in line, line


@pytest.mark.parametrize("locale", LOCALES)
def test_the_shoot_prompt_names_the_shoot_button(locale: str) -> None:
    # fr told players to press **Tirer**, a button that is „Pari de tir“
    prompt = t(locale, "pt.move.shoot", names="ann")
    bold = re.findall(r"\*\*([^*]+)\*\*", prompt)
    assert bold == [t(locale, "pt.button.shoot")], (prompt, bold)


def test_french_single_payout_is_not_called_a_tie() -> None:
    # „à égalité“ means tied; a single payout is „1 contre 1“
    text = t("fr", "pt.pays.single")
    assert "égalité" not in text.lower() and "1 contre 1" in text


@pytest.mark.parametrize("locale", sorted(COMMAND_LOCALES))
def test_lang_show_names_the_options_as_the_picker_shows_them(locale: str) -> None:
    text = t(locale, "lang.show", member="x", server="y")
    for option in ("member", "server"):
        shown = catalog(locale)[f"cmd.language.opt.{option}.name"]
        assert f"{shown}:" in text, (option, shown, text)
        if shown != option:
            assert f"{option}:" not in text, (option, text)


def _kitty(locale: str, says: str, amount: int | None) -> str:
    ev = Event(EventKind.KITTY, amount=amount, says=Word(says))
    line = event_line(ev, lambda seat: seat, None, locale)
    assert line is not None
    return line.replace(FSI, "").replace(PDI, "")  # Persian isolates each value


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("says", ["engine.kitty.added", "engine.kitty.returned"])
def test_kitty_lines_say_the_amount_first(locale: str, says: str) -> None:
    # "Kitty: an den Bankier zurück 30", "किटी: जोड़े गए 30" read backwards
    line = _kitty(locale, says, 30)
    amount, detail = num(locale, 30), t(locale, says)
    assert amount in line and detail in line, line
    assert line.index(amount) < line.index(detail), line
    assert line.rstrip().endswith(detail), line


@pytest.mark.parametrize("locale", LOCALES)
def test_an_emptied_kitty_line_has_no_gap(locale: str) -> None:
    line = _kitty(locale, "engine.kitty.empty", None)
    assert line.endswith(t(locale, "engine.kitty.empty")) and "  " not in line, repr(line)


def test_english_action_and_phase_words_are_no_internal_names() -> None:
    # "No_double is not possible now", "Sell_bank is not possible now"
    words = {k: v for k, v in catalog("en").items() if k.startswith("engine.word.")}
    assert len(words) > 20
    assert not {k: v for k, v in words.items() if "_" in v}
    refusal = t(
        "en",
        "engine.not_now",
        kind=Msg("engine.word.no_double"),
        phase=Msg("engine.word.round_over"),
    )
    assert refusal == "no double is not possible now (the table is in the round over phase)"
    assert "_" not in t("en", "engine.not_now", kind=Msg("engine.word.sell_bank"), phase="x")


def test_a_persian_zero_is_a_persian_digit() -> None:
    # a Persian tie line read "(±۰) ← خالص ±0"
    assert signed("fa", 0) == "±۰" and signed("en", 0) == "±0"


def test_german_action_words_are_capitalised() -> None:
    # "bieten geht für dich gerade nicht": the refusal starts with the word as it is
    words = {k: v for k, v in catalog("de").items() if k.startswith("engine.word.")}
    assert words and not {k: v for k, v in words.items() if not v[:1].isupper()}


@pytest.mark.parametrize(
    ("locale", "key", "old"),
    [
        # word for word from the English idiom; the refusal means "cannot sit out now"
        ("fr", "engine.nothing_to_sit_out", "rien à passer"),
        ("hi", "engine.nothing_to_sit_out", "छोड़ने को कुछ नहीं"),
        ("fa", "engine.nothing_to_sit_out", "چیزی برای"),
        # the tableau option offered "the text's" rules, which no player ever sees
        ("de", "cmd.baccarat.start.opt.tableau.desc", "Textes"),
        ("fr", "cmd.baccarat.start.opt.tableau.desc", "texte"),
        ("hi", "cmd.baccarat.start.opt.tableau.desc", "पाठ"),
        ("fa", "cmd.baccarat.start.opt.tableau.desc", "متن"),
        ("de", "engine.not_player", "diesem Austeilen"),
        ("de", "engine.kitty_range", "im Rahmen der Chips des Bankiers"),  # no verb
        ("fr", "engine.kitty_range", "dans les jetons"),
        ("fr", "pt.deadline", "s’écoule"),  # "is passing", not "runs out"
        ("hi", "cmd.pontoon.twist.desc", "ऊपर की ओर"),  # "towards the top"
        ("fr", "pt.done.shoot_pass", "passez le tir"),
        ("fr", "engine.why.pontoon_beats", "bat pontoon"),  # articles missing
        ("fr", "cmd.language.desc", "langue que"),
        ("de", "err.amount.negative", "Der Wert für"),  # "für Betrag": no article
        ("de", "err.amount.too_large", "Der Wert für"),
        ("hi", "pb.odds.chances", "बैंको जीते"),  # reads "Banco won" (plural past)
        ("hi", "cmd.stats.name", "आंकड़े"),  # the glossary spells with candrabindu
    ],
)
def test_a_reviewed_phrase_is_gone(locale: str, key: str, old: str) -> None:
    assert old not in catalog(locale)[key]
    assert t(locale, key, seat="ann", low=1, high=2, ts=1)


def test_the_german_natural_strength_does_not_read_of_course() -> None:
    # a bare „natürlich“ reads "of course"
    for key in ("choice.natural", "pt.strength.natural"):
        assert catalog("de")[key] != "natürlich" and "Pontoon" in catalog("de")[key]


def test_persian_lists_use_the_persian_comma() -> None:
    # "بانکو ۱۹, پونتو ۲۰": a Latin comma in a Persian sentence
    from bot.punto_banco import BetReceipt
    from cogs.pontoon.render import whose_move
    from cogs.punto_banco.text import receipt_text
    from engine.pontoon.types import Phase
    from engine.punto_banco.bets import Bet
    from engine.punto_banco.coup import Side

    bets = [Bet("10", Side.BANCO, 19), Bet("10", Side.PUNTO, 20)]
    NO_CHANGE: Any = None  # the receipt's words do not read its change
    receipt = receipt_text(
        BetReceipt(bets, 961, NO_CHANGE), Msg("pb.placed", amount=1, side="x"), "fa"
    )
    waiting = whose_move(
        Phase.BETTING,
        lambda seat: seat,
        banker="a",
        turn=None,
        waiting_on=["b", "c"],
        dealer=None,
        locale="fa",
    )
    for text in (receipt, waiting):
        assert "،" in text and "," not in text, text
    assert "," in receipt_text(
        BetReceipt(bets, 961, NO_CHANGE), Msg("pb.placed", amount=1, side="x"), "en"
    )


def test_hindi_banker_stays_pays_from_the_total_up() -> None:
    # "{paying} को भुगतान" read "pays (exactly) 19"
    text = t("hi", "pt.ev.banker_stays", total=18, paying=19)
    assert "19 या ज़्यादा" in text, text
    assert t("hi", "engine.why.banker_bust").endswith("हुआ")


def test_french_results_against_a_banker_five_card_trick_have_the_article() -> None:
    five = Msg("engine.label.banker_five")
    assert "perd contre le tour de cinq cartes" in t(
        "fr", "engine.why.loses_to", label=18, blabel=five
    )


@pytest.mark.parametrize(
    "word",
    [
        "پنجره",  # "window", an English calque: مهلت شرط‌بندی
        "ربات",  # the catalog says بات
        "مزیت کازینو",  # برتری کازینو, as the odds table says
        "عددی درست",  # عدد صحیح
        " بر زده",  # بُر زده, with the zamma
    ],
)
def test_persian_uses_one_word_for_each_thing(word: str) -> None:
    found = {k: v for k, v in catalog("fa").items() if word in v}
    assert not found


def test_the_persian_commission_sentence_has_its_verb_in_place() -> None:
    assert "گرد می‌شود**" in t("fa", "pb.commission.text", paid=95, advice="x")


def test_french_phase_and_cannot_now_refusals_read_as_french() -> None:
    # „en phase mises“ is not French; „faire « rejoindre »“ is clumsy
    not_now = t("fr", "engine.not_now", kind="x", phase=Msg("engine.word.betting"))
    assert "en phase" not in not_now and "phase en cours" in not_now, not_now
    cannot = t("fr", "err.pt.cannot_now", kind=Msg("engine.word.join"))
    assert "faire «" not in cannot and cannot.startswith("«"), cannot


@pytest.mark.parametrize(
    ("locale", "key", "old"),
    [
        ("de", "privacy.info", "verbuchter Buchung"),  # "booked booking"
        ("de", "privacy.delete.done.other", "verbuchter Buchung"),
        ("de", "privacy.forget.done", "verbuchter Buchung"),
        ("hi", "privacy.info", "खाते के नीचे"),  # literally "under" an account
        ("hi", "privacy.delete.done.other", "खाते के नीचे"),
        ("hi", "privacy.forget.done", "खाते के नीचे"),
    ],
)
def test_privacy_texts_name_the_ledger_plainly(locale: str, key: str, old: str) -> None:
    assert old not in catalog(locale)[key]


def test_german_whose_move_line_fits_several_names() -> None:
    # „A, B ist am Zug“: the verb was singular for a list of names
    assert t("de", "pt.move.act", names="A, B") == "▶ Am Zug: A, B"


def test_french_rounding_note_says_rounded_down() -> None:
    note = t("fr", "pb.note.rounded", stake=10, paid=95, exact="9,5", won=9)
    assert "arrondi à l’inférieur" in note, note
