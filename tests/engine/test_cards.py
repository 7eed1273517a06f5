"""engine.cards: the pack and RandomChance (shared by Pontoon and Punto Banco)."""

from __future__ import annotations

import random

import pytest

from engine.cards import Pack, RandomChance, ScriptedChance, full_pack, parse_card
from engine.errors import ConfigError


@pytest.mark.parametrize("packs", [1, 2, 8])
def test_random_chance_shuffle_is_random_shuffle_then_cut(packs: int) -> None:
    """The fast shuffle draws exactly what ``random.Random.shuffle`` draws."""
    cards = full_pack(packs)
    for seed in range(30):
        ours = RandomChance(random.Random(seed))
        ref = random.Random(seed)
        want = list(cards)
        ref.shuffle(want)
        k = ref.randrange(len(want))
        want = want[k:] + want[:k]
        assert ours.shuffle(cards) == want
        assert ours.rng.random() == ref.random()  # the same number of draws


def test_pack_deals_from_the_top_and_takes_used_cards_at_the_bottom() -> None:
    p = Pack(parse_card(c) for c in ["AS", "2S", "3S"])
    assert len(p) == 3 and p.codes() == ["AS", "2S", "3S"] == [c.code for c in p.peek()]
    assert p.deal().code == "AS"
    p.add_to_bottom([parse_card("KH"), parse_card("QH")])
    assert p.codes() == ["2S", "3S", "KH", "QH"] and len(p) == 4
    p.replace([parse_card("5D")])
    assert p.deal().code == "5D" and len(p) == 0
    with pytest.raises(ConfigError):
        p.deal()


class _OwnRandom(random.Random):
    """A ``random.Random`` subclass with its own ``random()``: ``shuffle`` then draws
    through ``random()``, so the fast path (``getrandbits``) must not be used for it."""

    def random(self) -> float:
        return super().random() / 2


@pytest.mark.rule("P-NEXT-1")
@pytest.mark.parametrize("size", [1, 2, 3, 8 * 52 + 1, 9 * 52])
def test_random_chance_matches_random_shuffle_then_cut_for_any_size(size: int) -> None:
    """A single card is not cut (no draw); two or more are; more cards than eight
    packs take the library's own shuffle."""
    cards = full_pack(9)[:size]
    for seed in range(5):
        ours = RandomChance(random.Random(seed))
        ref = random.Random(seed)
        want = list(cards)
        ref.shuffle(want)
        if size > 1:
            k = ref.randrange(size)
            want = want[k:] + want[:k]
        assert ours.shuffle(cards) == want
        assert ours.rng.random() == ref.random()


def test_random_chance_uses_a_subclass_own_draws() -> None:
    cards = full_pack()
    ours = RandomChance(_OwnRandom(7))
    ref = _OwnRandom(7)
    want = list(cards)
    ref.shuffle(want)
    k = ref.randrange(len(want))
    assert ours.shuffle(cards) == want[k:] + want[:k]


def test_a_scripted_chance_falls_back_to_a_seed_0_shuffle() -> None:
    cards = full_pack()
    assert ScriptedChance([]).shuffle(cards) == RandomChance(random.Random(0)).shuffle(cards)
    assert ScriptedChance([]).randbelow(1000) == random.Random(0).randrange(1000)


def test_a_new_pack_is_one_pack_of_52_different_cards_unless_told() -> None:
    assert len(full_pack()) == 52 == len(set(full_pack()))
    assert len(full_pack(2)) == 104
    with pytest.raises(ConfigError):
        full_pack(0)


@pytest.mark.rule("P-RANK-1")
@pytest.mark.parametrize(
    ("code", "ten"),
    [("10S", True), ("JH", True), ("QD", True), ("KC", True), ("AS", False), ("9H", False)],
)
def test_P_RANK_1_the_ten_point_cards_are_10_J_Q_K(code: str, ten: bool) -> None:
    assert parse_card(code).is_ten_card is ten


@pytest.mark.parametrize(
    ("text", "code"), [("th", "10H"), (" TS ", "10S"), ("10d", "10D"), ("as", "AS")]
)
def test_a_ten_may_be_written_t_and_case_does_not_matter(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["T", "1S", "11H", "AX", ""])
def test_what_is_not_a_card_is_refused(text: str) -> None:
    with pytest.raises(ConfigError, match="not a card"):
        parse_card(text)


def test_a_card_label_shows_its_rank_and_suit_symbol() -> None:
    assert [parse_card(c).pretty for c in ("10H", "AS", "QD", "2C")] == ["10♥", "A♠", "Q♦", "2♣"]


def test_the_cards_left_in_a_pack_are_listed_top_first() -> None:
    p = Pack(parse_card(c) for c in ["AS", "2S", "3S", "4S"])
    assert [c.code for c in p.cards] == ["AS", "2S", "3S", "4S"] == p.codes()
    p.deal()
    assert [c.code for c in p.cards] == ["2S", "3S", "4S"]
