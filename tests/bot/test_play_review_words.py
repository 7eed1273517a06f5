"""What players read, as the 2026-12-07 play review found it (play.md P3, P10): each
sentence says what happened in the member's own words and digits."""

from __future__ import annotations

import random

import pytest

from bot.errors import friendly
from bot.i18n import LOCALES
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon import Table as PontoonTable
from engine.pontoon.types import Action, ActionKind, Phase


def _betting_table() -> PontoonTable:
    table = PontoonTable(PontoonRules())
    chance = RandomChance(random.Random(1))
    for seat in ("1", "2"):
        table.apply(Action(seat, ActionKind.JOIN, amount=1000), chance)
    table.apply(Action("1", ActionKind.CUT), chance)
    assert table.banker is not None
    table.apply(Action(table.banker, ActionKind.DEAL), chance)
    assert table.phase is Phase.BETTING
    return table


@pytest.mark.rule("P-SELL-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_selling_the_bank_mid_round_says_when_it_can_be_sold(locale: str) -> None:
    # P3: "Sell the bank is not possible now (the table is in the betting phase)."
    table = _betting_table()
    banker = table.banker
    assert banker is not None
    buyer = next(s for s in table.seats if s != banker)
    refusal = table.why_not(Action(banker, ActionKind.SELL_BANK, 5, target=buyer))
    assert refusal is not None and refusal.key == "engine.sell_between_rounds"
    said = friendly(refusal, locale)
    assert "{" not in said and "P-SELL" not in said
    if locale == "en":
        assert "You can sell the bank between rounds" in said, said
        assert "not possible now" not in said


def test_blackjack_totals_are_in_the_readers_digits() -> None:
    # P10: "ann: … ← 20 · شرط ۱۰" — hard totals were Latin beside Persian bets
    from cogs.blackjack.text import hand_total_text, total_text
    from engine.blackjack import HandOutcome
    from engine.cards import parse_card

    twenty = [parse_card("KS"), parse_card("QH")]
    bust = [parse_card("KS"), parse_card("QH"), parse_card("5D")]
    assert total_text(twenty, "fa") == "۲۰" and total_text(twenty, "en") == "20"
    assert hand_total_text(twenty, None, "fa") == "۲۰"
    assert hand_total_text(bust, HandOutcome.BUST, "fa") == "۲۵"
    assert hand_total_text(bust, HandOutcome.BUST, "hi") == "25"
    for locale in LOCALES:
        if locale != "fa":
            assert total_text(twenty, locale) == "20"


@pytest.mark.parametrize("locale", ["en", "de"])
def test_command_names_have_no_underscore(locale: str) -> None:
    # P8: `/pontoon platz_nehmen` in the German slash menu; a one-word name exists
    # (option names keep Discord's snake_case: "min_bet")
    from bot.i18n import catalog

    names = {
        key: value
        for key, value in catalog(locale).items()
        if key.startswith("cmd.") and key.endswith(".name") and ".opt." not in key
    }
    assert len(names) > 30
    assert not {k: v for k, v in names.items() if "_" in v}
    if locale == "de":
        assert names["cmd.pontoon.join.name"] == names["cmd.blackjack.join.name"] == "hinsetzen"


def test_pontoon_same_bet_is_enabled_only_with_a_stake_to_repeat() -> None:
    # newcomer N-08: Same bet was enabled in round 1, where it can only refuse
    from cogs.pontoon.controls import legal_union
    from tests.bot.test_pontoon_words import live_table, play_to

    live = live_table(3)
    play_to(live, Phase.BETTING)
    names = legal_union(live)
    assert "bet" in names and "same_bet" not in names
    player = next(s for s in live.engine.seats if s != live.engine.banker)
    live.last_bets[player] = 2  # a stake of an earlier round
    assert {"bet", "same_bet"} <= legal_union(live)


def test_amount_forms_say_the_allowed_range_in_their_label() -> None:
    # newcomer N-09: "AMOUNT (CHIPS) *" with no range; a placeholder hides under a default
    from cogs.blackjack.controls import AmountForm
    from cogs.pontoon.controls import _range_label
    from cogs.punto_banco.controls import BetModal
    from engine.punto_banco import Side
    from tests.bot.test_pontoon_words import live_table, play_to

    def label(form: object) -> str:
        (field,) = form.children  # type: ignore[attr-defined]
        return str(field.label)

    assert label(AmountForm("ab", "bet", 1, 5, 100, "en", least=2)) == "Chips: 2 to 100"
    assert label(AmountForm("ab", "insurance", 1, 5, 5, "en")) == "Chips: at most 5"
    persian = label(AmountForm("ab", "bet", 1, 5, 100, "fa", least=2))
    assert persian.replace("\u2068", "").replace("\u2069", "") == "ژتون: ۲ تا ۱۰۰"
    assert label(BetModal("ab", Side.BANCO, 1, None, "de", limits=(1, 1000))) == (
        "Chips: 1 bis 1.000"
    )
    live = live_table(3)
    play_to(live, Phase.BETTING)
    player = next(s for s in live.engine.seats if s != live.engine.banker)
    assert _range_label(live, player, ActionKind.BET, "en") == "Chips: 1 to 10"
    assert _range_label(live, player, ActionKind.TWIST, "en") is None
    for locale in LOCALES:
        assert len(label(AmountForm("ab", "bet", 1, 5, 1_000_000, locale, least=1))) <= 45


def test_hints_say_a_loss_as_a_loss_and_count_per_chip_on_what_the_play_stakes() -> None:
    # newcomer N-04: "Stand: you win 0.13 chips more per chip staked than hitting" when
    # standing itself loses 0.29; N-05: "Buy for 5: −8.55 (−1.71 per chip staked)"
    from cogs.blackjack.hints import hint_text as bj_hint_text
    from cogs.pontoon.hints import hint_text as pt_hint_text
    from engine.blackjack import ActionKind as BjKind
    from engine.blackjack.hint import ActionValue as BjValue
    from engine.blackjack.hint import BlackjackHint
    from engine.pontoon.hint import ActionValue as PtValue
    from engine.pontoon.hint import Hint

    losing = BlackjackHint(
        (
            BjValue(BjKind.STAND, None, -2.93, -0.293),
            BjValue(BjKind.HIT, None, -4.2, -0.42),
            BjValue(BjKind.DOUBLE, 10, -8.4, -0.84),
        ),
        ("5D", "KH"),
        "2H",
        309,
        10,
    )
    text = bj_hint_text(losing, "en")
    assert "**Stand**: you lose 0.13 chips less per chip staked than hitting" in text, text
    assert "you win" not in text
    assert "**Double**: −8.4 chips expected (−0.42 per chip staked)" in text, text
    assert "(−0.29 per chip staked)" in text  # standing stakes the bet alone
    pontoon = Hint(
        (
            PtValue(ActionKind.STICK, None, 2.22, 0.444),
            PtValue(ActionKind.TWIST, None, -3.0, -0.6),
            PtValue(ActionKind.BUY, 5, -8.55, -1.71),
        ),
        "house",
        17,
        40,
        5,
    )
    text = pt_hint_text(pontoon, ["KC", "10H"], "en")
    assert "you win" in text and "you lose" not in text, text  # the best play wins
    assert "(−0.86 per chip staked)" in text and "−1.71" not in text, text
    for locale in LOCALES:
        assert "{" not in bj_hint_text(losing, locale)


def test_a_pontoon_table_before_its_first_deal_reads_right() -> None:
    # newcomer N-06: a house-banked table said "the banker presses Deal" above "Next: any
    # player presses Deal"; N-07: "Bets 1–10 · round 0" before anything was dealt
    from engine.pontoon import PontoonRules
    from tests.bot.test_pontoon_words import laid_out, layout_texts, live_table, presenter

    house = live_table(1, PontoonRules(min_bet=1, max_bet=10, house_bank=True))
    text = "\n".join(layout_texts(laid_out(presenter(), house)))
    assert live_table and "the banker presses" not in text, text
    assert "then **Deal**" in text
    assert "round 0" not in text and "Bets 1–10" in text
    players = live_table(2)
    text = "\n".join(layout_texts(laid_out(presenter(), players)))
    assert "the banker presses **Deal**" in text  # a player-banked table says who deals
    assert "round 0" not in text


def test_the_punto_banco_footer_says_what_its_drawing_rules_are() -> None:
    # newcomer N-18: "this table's drawing rules" told a newcomer nothing (B-BANCO-2: the
    # table's own tableau stands on Banco 3 against a third-card 9; the standard draws)
    from cogs.punto_banco.text import rules_line
    from engine.punto_banco import PuntoBancoRules

    line = rules_line(PuntoBancoRules())
    assert "Banco stands on 3 against a third-card 9" in line, line
    assert "stands on 3" not in rules_line(PuntoBancoRules(tableau="standard"))
