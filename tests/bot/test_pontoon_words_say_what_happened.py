"""Every player-facing text says what happened and what to do, to the player
in the second person, without rule ids or internal names."""

from __future__ import annotations

import re

import pytest

from bot.errors import friendly
from bot.i18n import LOCALES, command_name, t
from cogs.pontoon import render
from engine.errors import RuleError, Word
from engine.pontoon import PontoonRules
from engine.pontoon.types import Event, EventKind
from engine.pontoon.views import HandStatus, HandView

RULE_ID = re.compile(r"\b[PB]-[A-Z]{2,}")


def name(seat: str) -> str:
    return {"1": "ann", "2": "bob", "3": "cat"}.get(seat, seat)


BANKER_BUST = Word.of("engine.result.win", why=Word("engine.why.banker_bust"))


def test_a_five_card_trick_paid_double_says_so() -> None:
    """It was labelled `win: banker bust (+40)`."""
    ev = Event(
        EventKind.HAND_RESULT,
        "1",
        0,
        ("7C", "3H", "3S", "AH", "7D"),
        40,
        21,
        None,
        "win: banker bust",
        BANKER_BUST,
    )
    line = render.result_line(ev, name)
    assert "five card trick" in line and "paid double" in line and "+40" in line
    plain = Event(
        EventKind.HAND_RESULT,
        "3",
        0,
        ("2H", "10D", "AD", "2D"),
        20,
        15,
        None,
        "win: banker bust",
        BANKER_BUST,
    )
    assert "the banker went bust" in render.result_line(plain, name)
    assert "five card trick" not in render.result_line(plain, name)


@pytest.mark.parametrize("locale", ["fr", "fa", "de"])
def test_a_bust_is_not_lose_lose(locale: str) -> None:
    """It read `perdu : perdu`, `باخت: شکست خورده`."""
    bust = Word.of("engine.result.lose", why=Word("engine.why.bust"))
    ev = Event(EventKind.HAND_RESULT, "3", 0, ("QD", "5S", "QS"), -20, 25, None, "lose: bust", bust)
    line = render.result_line(ev, name, locale)
    assert line.count(t(locale, "engine.why.bust")) == 1
    assert t(locale, "engine.why.bust") not in t(locale, "engine.result.lose", why="")


def test_the_bank_passing_on_a_pontoon_is_one_sentence_without_rule_ids() -> None:
    """It read `The bank passes to **ann** pontoon (P-NEXT-2)` / `...pontoon; from cat`."""
    pontoon = Word("engine.bank_passes.pontoon")
    settle = Event(
        EventKind.BANK_PASSES, "1", 0, (), None, None, None, "pontoon (P-NEXT-2)", pontoon
    )
    from_cat = Word.of("engine.bank_passes.from", old="3")
    deal = Event(EventKind.BANK_PASSES, "1", 0, (), None, None, None, "pontoon; from 3", from_cat)
    for locale in LOCALES:
        for ev in (settle, deal):
            line = render.event_line(ev, name, None, locale) or ""
            assert not RULE_ID.search(line) and "ann" in line
    assert render.event_line(deal, name, None) == "🏦 **ann** takes the bank from cat (pontoon)."


def test_the_banker_has_a_line_in_the_payouts() -> None:
    """The banker's hand and net result."""
    hand = HandView("2", 0, ("2C", "QC", "KC"), 0, 0, 0, HandStatus.BUST, 22)
    line = render.banker_result_line("bob", hand, -68)
    assert line == "🏦 Banker bob: 2♣ Q♣ K♣ = 22 · [bust] (-68)"


def test_refusals_speak_to_the_player_in_the_second_person() -> None:
    """It read `bob cannot cover a bet of 45 …` shown to bob."""
    exc = RuleError(
        "P-PAY-LIMIT",
        "2 cannot cover a bet of 45 and a possible 2x loss",
        key="engine.cannot_cover_bet",
        seat="2",
        amount=45,
        times=2,
    )
    assert friendly(exc, "en", me="2") == (
        "You cannot cover a bet of 45 and a possible loss of 2 times the stake."
    )
    assert friendly(exc, "en", me="3").startswith("2 cannot cover")
    for locale in LOCALES:
        assert "P-PAY-LIMIT" not in friendly(exc, locale, me="2")


def test_the_turn_refusal_has_no_hand_number_and_no_rule_id() -> None:
    """It read `It is cat's turn (hand 1) (rule P-TURN-END)`."""
    exc = RuleError("P-TURN-END", "it is 3's turn (hand 1)", key="engine.turn_of", seat="3", hand=1)
    assert friendly(exc, "en") == "It is 3's turn."
    for locale in LOCALES:
        said = friendly(exc, locale)
        assert "1" not in said.replace("3", "") and "P-TURN" not in said


def test_a_banker_is_told_how_to_leave() -> None:
    """It read `The banker cannot leave while banking; sell the bank first (rule P-SELL-1)`."""
    exc = RuleError(
        "P-SELL-1",
        "the banker cannot leave while banking; sell the bank first",
        key="engine.banker_cannot_leave",
    )
    for locale in LOCALES:
        said = friendly(exc, locale)
        assert command_name(locale, "bank sell") in said and "P-SELL" not in said
        assert command_name(locale, "pontoon end") in said


def test_the_bet_form_title_says_card_for_one_card() -> None:
    """It read `Place your bet — your cards: 2♥`."""
    one = HandView("1", 0, ("2H",), 0, 0, 0, HandStatus.OPEN, 2)
    assert render.form_title("Place your bet", [one]) == "Place your bet — your card: 2♥"
    two = one._replace(cards=("2H", "5C"))
    assert "your cards: 2♥ 5♣" in render.form_title("Buy", [two])


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_text_keeps_rule_ids_to_one_reference_line(locale: str) -> None:
    text = render.rules_text(PontoonRules(shoot=True, banker_doubles=True), locale)
    lines = [ln for ln in text.split("\n") if RULE_ID.search(ln)]
    assert len(lines) == 1 and lines[0] == t(locale, "pt.rules.ids", ids=render.RULE_IDS)
    assert "pack(s)" not in text and "Paket" not in text


def test_the_table_says_when_the_bankers_cover_limits_bets() -> None:
    """The form said `2 to 2` while the table said `Bets 2–50`."""
    line = t("en", "pt.cover_limit", cover=2)
    assert "banker can cover only 2" in line and "Twist" in line
    assert t("en", "pt.modal.hint.cover", min=2, max=2) == "2 to 2 (the banker cannot cover more)"
    assert len(t("fr", "pt.modal.hint.cover", min=10**9, max=10**9)) <= 100  # placeholder limit


def test_the_banker_line_names_the_rounds_banker_even_after_the_bank_passed() -> None:
    """The payouts are drawn after the bank passed on a pontoon: the banker's line comes
    from the round's own events, not from the table's new banker (who showed "—")."""
    events = [
        Event(EventKind.BANKER_REVEAL, "1", 0, ("KH", "8S"), None, 18),
        Event(EventKind.BANKER_STAYS, "1", 0, (), None, 18),
        Event(EventKind.BANK_PASSES, "2", 0, (), None, None, None, "pontoon"),
    ]
    hand = render.round_banker_hand(events)
    assert hand is not None and hand.seat == "1"
    assert render.banker_result_line("alice", hand, -4) == "🏦 Banker alice: K♥ 8♠ = 18 (-4)"
    drawn = [*events[:1], Event(EventKind.BANKER_DRAW, "1", 0, ("5C",), None, 23)]
    bust = render.round_banker_hand(drawn)
    assert bust is not None and bust.status is HandStatus.BUST and bust.cards[-1] == "5C"
    assert render.round_banker_hand(events[2:]) is None
