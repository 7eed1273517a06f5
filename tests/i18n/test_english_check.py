"""The English-leak check used by the end-to-end language tests can fail."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.e2e.i18n_check import english_fragments, english_leaks

NAMES = ["alice", "bob"]


@pytest.mark.parametrize("locale", ["de", "fr", "hi", "fa"])
def test_an_english_sentence_is_caught(locale: str) -> None:
    english = t("en", "pb.refused", text="x", rule="B-BET-1")
    assert english_leaks([english], locale, NAMES)
    assert english_leaks(["Only the banker may double."], locale, NAMES)


@pytest.mark.parametrize("locale", ["de", "fr", "hi", "fa"])
def test_the_target_language_passes(locale: str) -> None:
    texts = [
        t(locale, "chips.balance.other.in_play", name="alice", chips=1009, channel="1", in_play=5),
        t(
            locale,
            "pb.summary.won",
            stake=t(locale, "pb.bet", side=t(locale, "pb.side.banco"), amount=10),
            net="+9",
        ),
        t(locale, "pb.opened", seconds=6),
        t(locale, "err.storage.insufficient", who="<@123>", needed=5, has=1),
    ]
    assert english_leaks(texts, locale, NAMES) == []


def test_fragments_leave_out_words_the_target_language_shares() -> None:
    frags = english_fragments("de")
    assert "your bets on this coup" in frags
    assert "punto banco" not in frags
