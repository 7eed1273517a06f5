"""engine.cards: the pack and RandomChance (shared by Pontoon and Punto Banco)."""

from __future__ import annotations

import random

import pytest

from engine.cards import Pack, RandomChance, full_pack, parse_card
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
