"""The Punto Banco table message laid out with Discord's layout components: one
container, the betting window, the last coup's hands as cards, the bets, the
odds, the buttons in rows; within 40 components and 4,000 characters in every language."""

from __future__ import annotations

import random
import re

import pytest

from bot import card_faces
from bot.i18n import Msg, num
from bot.punto_banco import Phase
from cogs.punto_banco.presenter import betting_layout
from cogs.punto_banco.text import pct
from engine.cards import RandomChance
from engine.punto_banco import Side, odds_for
from localdiscord.layout import FLAG_COMPONENTS_V2, count_components, layout_errors, text_length
from localdiscord.models import TEXT_DISPLAY, walk_components
from tests.bot.test_card_pictures import MARKUP
from tests.bot.test_pontoon_layout import HOSTILE, LOCALES
from tests.bot.test_punto_banco_presenter import table

BETTORS = 200


def texts(comps: list[dict[str, object]]) -> str:
    return "\n".join(str(c["content"]) for c in walk_components(comps) if c["type"] == TEXT_DISPLAY)


@pytest.fixture()
def pictures() -> object:
    card_faces.use_emojis(MARKUP)
    yield None
    card_faces.use_text()


@pytest.mark.parametrize("locale", LOCALES)
def test_a_crowded_table_fits_in_every_language(locale: str, pictures: object) -> None:
    live = table()
    eng = live.engine
    eng.deal(RandomChance(random.Random(3)))  # a coup already dealt and shown
    live.announced = eng.coup_no
    live.phase = Phase.BETTING
    for i in range(BETTORS):
        seat = str(1000 + i)
        live.names[seat] = (f"{i} " + HOSTILE[locale] * 10)[:100]
        eng.place_bet(seat, list(Side)[i % 3], 1 + i % 10, balance=1000)
    comps = betting_layout(live, idle_windows=3, locale=locale).to_components()
    assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == []
    assert count_components(comps) <= 40 and text_length(comps) <= 4000
    assert [c["type"] for c in comps] == [17]
    whole = texts(comps)
    # Punto's and Banco's hands of the last coup, as pictures, with their totals
    coup = eng.last_coup
    assert coup is not None
    for card in (*coup.punto, *coup.banco):
        assert MARKUP[card.code] in whole
    for total in (coup.punto_total, coup.banco_total):
        assert re.search(rf"\*\*\W*{re.escape(num(locale, total))}\W*\*\*", whole), total
    odds = odds_for(eng.rules)  # the odds line
    assert pct(odds.banco, 2, locale) in whole and pct(odds.tie, 2, locale) in whole
    assert "<t:" in whole  # the window's countdown
    assert "@everyone" not in whole.replace("@\u200beveryone", "")
    for m in re.finditer(r"<:", whole):
        assert re.match(r"<:pc_\w+:\d+>", whole[m.start() :])
    ids = [c["custom_id"] for c in walk_components(comps) if c["type"] == 2]
    assert len(ids) == 6 and all(re.fullmatch(r"pb:abc123:[a-z]+:\d+", str(i)) for i in ids)


def test_no_hands_before_the_coup_is_shown_and_a_closed_table_greys_its_bets() -> None:
    live = table()
    eng = live.engine
    eng.place_bet("10", Side.BANCO, 10, balance=100)
    eng.deal(RandomChance(random.Random(3)))
    live.announced = eng.coup_no - 1  # dealt, its post still turning the cards
    comps = betting_layout(live).to_components()
    assert "Coup #" not in texts(comps).replace("coup #", "")
    closed = betting_layout(live, closed_reason=Msg("reason.idle")).to_components()
    assert layout_errors("", [], closed, FLAG_COMPONENTS_V2) == []
    buttons = [c for c in walk_components(closed) if c["type"] == 2]
    assert {str(b["custom_id"]).split(":")[2] for b in buttons if not b.get("disabled")} == {"odds"}
