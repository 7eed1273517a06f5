"""How the Blackjack table says a hand's total (BJ-VAL-1, BJ-HIT-1): a soft total below
21 as soft, 21 plainly (soft or not), over 21 as a bust, in every language."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from bot.blackjack import OpenBlackjackTable
from bot.card_faces import back_face
from bot.i18n import Raw, t
from cogs.blackjack.text import (
    countdown,
    dealer_line,
    hand_total_text,
    notes_lines,
    result_text,
    rules_line,
    seat_lines,
    status_line,
    total_text,
)
from engine.blackjack import (
    Action,
    ActionKind,
    BlackjackRules,
    HandOutcome,
    HandResult,
    RoundResult,
)
from engine.cards import RandomChance, parse_cards
from tests.bot.test_pontoon_layout import LOCALES
from tests.engine.blackjack.cases_bj import ANN, BOB, CASES, build


@pytest.mark.rule("BJ-VAL-1", "BJ-HIT-1")
@pytest.mark.parametrize("locale", LOCALES)
def test_a_total_is_said_soft_plain_or_bust_at_its_edges(locale: str) -> None:
    def said(*cards: str) -> str:
        return total_text(parse_cards(list(cards)), locale)

    assert said("AS", "6D") == t(locale, "bj.total.soft", total=17)
    assert said("AS", "9D") == t(locale, "bj.total.soft", total=20)
    # a plain total in the language's digits (Persian writes its own)
    twenty_one, nineteen = ("۲۱", "۱۹") if locale == "fa" else ("21", "19")
    assert said("AS", "KD") == twenty_one == said("AS", "5D", "5C")  # soft 21: 21
    assert said("10S", "5D", "6C") == twenty_one
    assert said("10S", "5D", "7C") == t(locale, "bj.total.bust", total=22)
    assert said("10S", "9D") == nineteen


def live_of(name: str) -> OpenBlackjackTable:
    (c,) = [c for c in CASES if c.id == name]
    table, _ = build(c)
    live = OpenBlackjackTable("ab12", 1, 2, 3, table, 30.0, 45.0, closes_at=1_900_000_000.0)
    live.names.update({ANN: "ann", BOB: "bob"})
    return live


@pytest.mark.rule("BJ-SPLIT-1", "BJ-TIMER-1")
def test_after_a_split_the_status_and_seat_lines_name_each_hand() -> None:
    # ann split 8s: the first hand 8 3 stood, the second 8 2 is to play
    live = live_of("BJ-SPLIT-1:double on the later hand of a split")
    closes = Raw("1900000000")
    assert status_line(live) == t(
        "en", "bj.status.turn", name="ann", hand=t("en", "bj.hand_no", n=2), closes=closes
    )
    first, second = seat_lines(live)
    assert first.startswith("ann" + t("en", "bj.hand_no", n=1) + ":")
    assert first.endswith(" · " + t("en", "bj.state.stands"))
    assert second.startswith("ann" + t("en", "bj.hand_no", n=2) + ":")
    assert second.endswith(" · " + t("en", "bj.state.to_play"))
    # one hand: no hand number
    one = live_of("BJ-DOUBLE-1:first two cards")
    assert status_line(one) == t("en", "bj.status.turn", name="ann", hand="", closes=closes)
    (line,) = seat_lines(one)
    assert line.startswith("ann:") and "bet 10" in line


@pytest.mark.rule("BJ-INS-1", "BJ-DEAL-1")
def test_while_insurance_is_asked_the_table_says_so_and_shows_an_ace() -> None:
    live = live_of("BJ-INS-1:answered already")  # ann declined, bob is asked
    assert status_line(live) == t("en", "bj.status.insurance", closes=Raw("1900000000"))
    assert t("en", "bj.total.ace") in dealer_line(live)
    insured = live_of("BJ-INS-1:an ace up")
    insured.engine.apply(Action(ANN, ActionKind.INSURANCE, 5, 100), RandomChance(Random(0)))
    assert t("en", "bj.seat.insured", name="ann", amount=5) in seat_lines(insured)


@pytest.mark.rule("BJ-HIT-1", "BJ-INS-1")
def test_a_bust_hands_total_is_said_once_and_rules_say_when_insurance_is_off() -> None:
    cards = parse_cards(["10S", "5D", "9C"])
    assert hand_total_text(cards, HandOutcome.BUST) == "24"
    assert hand_total_text(cards, None) == t("en", "bj.total.bust", total=24)
    off = t("en", "bj.rules.no_insurance")
    assert off in rules_line(BlackjackRules(insurance=False))
    assert off not in rules_line(BlackjackRules())


@pytest.mark.rule("BJ-DEAL-1", "BJ-PEEK-1")
def test_the_dealer_line_shows_one_card_face_down_only_while_there_is_a_hole_card() -> None:
    back = back_face()
    peek = live_of("BJ-DOUBLE-1:first two cards")  # 6 up, 10 in the hole
    assert dealer_line(peek).count(back) == 1
    no_hole = live_of("BJ-INS-1:the no-hole-card game")  # an ace up, no second card yet
    assert back not in dealer_line(no_hole)


@pytest.mark.rule("BJ-BET-1")
def test_a_seat_without_a_bet_says_so() -> None:
    live = live_of("BJ-DOUBLE-1:first two cards")
    live.engine.apply(Action(BOB, ActionKind.JOIN))  # sits down mid-round: no bet
    lines = seat_lines(live)
    assert lines[-1] == t("en", "bj.seat.no_bet", name="bob", amount=0)
    live.engine.apply(Action(ANN, ActionKind.STAND), RandomChance(Random(0)))
    live.engine.apply(Action(BOB, ActionKind.BET, 7, 100))
    assert t("en", "bj.seat.bet", name="bob", amount=7) in seat_lines(live)


@pytest.mark.rule("BJ-BET-1")
def test_a_table_without_a_clock_counts_down_to_nothing() -> None:
    live = live_of("BJ-DOUBLE-1:first two cards")
    live.closes_at = None
    assert countdown(live) is None
    assert status_line(live) == t("en", "bj.status.turn", name="ann", hand="", closes=Raw("0"))


@pytest.mark.rule("BJ-SPLIT-1", "BJ-SETTLE-1")
def test_the_result_post_numbers_split_hands_and_says_what_the_house_took_or_paid() -> None:
    # ann split 8s: 8 3 stands on 11 and 8 2 on 10 against the dealer's 6 10 (16), who
    # draws from the new-deck order (an ace: 17); both hands lose 10
    live = live_of("BJ-SPLIT-1:double on the later hand of a split")
    table = live.engine
    table.apply(Action(ANN, ActionKind.STAND), RandomChance(Random(0)))
    result = table.last_result
    assert result is not None and result.dealer_total == 17
    post = result_text(live, result, {ANN: 80}, "en")
    assert "ann" + t("en", "bj.hand_no", n=1) + ":" in post
    assert "ann" + t("en", "bj.hand_no", n=2) + ":" in post
    assert t("en", "bj.result.dealer_total", total=17) in post
    assert t("en", "bj.result.balance", balance=80) in post
    assert t("en", "bj.result.house_took", amount=20) in post
    assert t("en", "bj.result.balance", balance=80) not in result_text(live, result, {}, "en")
    # one hand: no hand number
    one = live_of("BJ-DOUBLE-1:first two cards")  # ann 5 6 stands against 6 10 (then A)
    one.engine.apply(Action(ANN, ActionKind.STAND), RandomChance(Random(0)))
    lost = one.engine.last_result
    assert lost is not None
    text = result_text(one, lost, {}, "en")
    assert t("en", "bj.hand_no", n=1) not in text and "ann:" in text
    assert t("en", "bj.result.house_took", amount=10) in text


@pytest.mark.rule("BJ-TABLE-2", "BJ-TIMER-1")
def test_each_note_is_said_in_its_own_words() -> None:
    live = live_of("BJ-DOUBLE-1:first two cards")
    live.notes = [
        {"kind": "shuffled"},
        {"kind": "reshuffled_discards"},
        {"kind": "insurance_declined"},
    ]
    assert notes_lines(live) == [
        t("en", "bj.note.shuffled"),
        t("en", "bj.note.discards"),
        t("en", "bj.note.insurance_declined"),
    ]


@pytest.mark.rule("BJ-SURR-1", "BJ-DEALER-1", "BJ-SETTLE-1")
def test_the_words_for_surrender_a_dealer_bust_and_a_push() -> None:
    late = t("en", "bj.rules.surrender")
    assert late in rules_line(BlackjackRules(surrender="late"))
    assert late not in rules_line(BlackjackRules())
    live = live_of("BJ-DOUBLE-1:first two cards")
    base = RoundResult(1, ("6D", "10C", "5S"), 21, False, (), ())
    push = HandResult(ANN, 0, ("10S", "QH", "AS"), 21, 10, HandOutcome.PUSH, 0)
    text = result_text(live, replace(base, hands=(push,)), {}, "en")
    assert t("en", "bj.result.dealer_bust", total=21) not in text  # 21 is no bust
    assert t("en", "bj.result.house_took", amount=0) in text  # a push: the house took 0
    assert t("en", "bj.result.late") not in text
    assert t("en", "bj.result.late") in result_text(live, base, {}, "en", late=True)
    bust = replace(base, dealer=("6D", "10C", "6S"), dealer_total=22)
    assert t("en", "bj.result.dealer_bust", total=22) in result_text(live, bust, {}, "en")
