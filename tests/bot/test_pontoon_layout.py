"""The Pontoon table laid out as a table: one container, the banker's
block first, the seats, whose move with the countdown, the log, the buttons in rows; within
Discord's limits for layout messages at the largest table, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import card_faces
from bot.pontoon import LoggedEvent, seat_limit
from cogs.common import display
from cogs.pontoon.edge import edges
from engine.pontoon import PontoonRules
from engine.pontoon.types import Event, EventKind, Phase
from localdiscord.layout import FLAG_COMPONENTS_V2, count_components, layout_errors, text_length
from tests.bot.test_card_pictures import MARKUP
from tests.bot.test_pontoon_words import IDS, live_table, play_to, presenter

LOCALES = ("en", "de", "fr", "hi", "fa")
HOSTILE = {
    "en": "**@everyone** `x` <@1> ||spoiler|| _",
    "de": "ÄÖÜß **fett** ~~weg~~ ",
    "fr": "Élodie `code` > citation ",
    "hi": "खिलाड़ी **नाम** ",
    "fa": "بازیکن **نام** \u202e",
}


def hostile_names(locale: str, n: int) -> dict[str, str]:
    """100-character names full of markdown, mentions and the language's script."""
    out = {}
    for i, seat in enumerate(IDS[:n]):
        base = f"{i} " + HOSTILE[locale]
        out[seat] = (base * (100 // len(base) + 1))[:100]
    return out


@pytest.fixture()
def pictures() -> object:
    card_faces.use_emojis(MARKUP)
    yield None
    card_faces.use_text()


def largest() -> int:
    return seat_limit(PontoonRules(min_bet=1, max_bet=10, packs=2))


def test_the_largest_table_is_twenty_seats_with_two_packs() -> None:
    assert largest() == 20


@pytest.mark.parametrize("locale", LOCALES)
def test_largest_table_fits_discords_layout_limits_in_every_language(
    locale: str, pictures: object
) -> None:
    n = largest()
    names = hostile_names(locale, n)
    live = live_table(n, names=names)
    edges(live.engine.rules)  # the footer with the table's house edge, as once computed
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    twist = Event(EventKind.TWISTED, IDS[3], 0, ("10S", "KH", "QD"), total=20)
    live.round_log = [LoggedEvent(twist, IDS[1], by_timer=i % 2 == 0) for i in range(200)]
    for phase in (Phase.BETTING, Phase.PLAYING, Phase.BANKER, Phase.ROUND_OVER):
        play_to(live, phase)
        comps = p.layout(live).to_components()
        assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == [], (locale, phase)
        assert count_components(comps) <= 40
        assert text_length(comps) <= 4000
        assert [c["type"] for c in comps] == [17]  # one container
        inner = comps[0]["components"]
        texts = [c["content"] for c in inner if c["type"] == 10]
        assert "%" in texts[-1] or "٪" in texts[-1]  # the footer says the edge
        whole = "\n".join(texts)
        # the header, then the banker's block first among the blocks
        assert texts[0].startswith("## ")
        banker = live.engine.banker
        assert banker is not None
        assert display(names[banker])[:10] in texts[1]
        # every seat is there, by name (a long name may be shortened, never dropped)
        for seat in live.engine.seats:
            assert display(names[seat])[:10] in whole, (locale, phase, seat)
        # no picture cut in half, no mention, no raw id
        for m in re.finditer(r"<:", whole):
            assert re.match(r"<:pc_\w+:\d+>", whole[m.start() :]), whole[m.start() : m.start() + 30]
        assert "@everyone" not in whole.replace("@\u200beveryone", "")
        plain = re.sub(r"<:pc_\w+:\d+>", "", whole)
        assert not any(i in plain for i in IDS)
        # buttons in action rows, with the table's custom ids and state version
        rows = [c for c in inner if c["type"] == 1]
        assert rows and all(1 <= len(r["components"]) <= 5 for r in rows)
        ids = [b["custom_id"] for r in rows for b in r["components"]]
        assert all(re.fullmatch(rf"pt:abc123:[a-z_]+:{live.engine.version}", i) for i in ids)
        if phase is not Phase.ROUND_OVER:
            assert "<t:" in texts[0] and ":R>" in texts[0]  # the countdown


def test_a_small_table_shows_one_block_per_seat_with_cards_and_stakes(pictures: object) -> None:
    live = live_table(4)
    p = presenter()
    play_to(live, Phase.PLAYING)
    comps = p.layout(live).to_components()
    inner = comps[0]["components"]
    texts = [c["content"] for c in inner if c["type"] == 10]
    banker = live.engine.banker
    players = [s for s in live.engine.seats if s != banker]
    # header, banker, one text per player, (log), footer
    for seat in players:
        block = [x for x in texts[1:] if live.names[seat] in x]
        assert len(block) == 1, seat
        assert MARKUP["back"] in block[0] or "<:pc_" in block[0]
        assert "Stake" in block[0] or "stake" in block[0]
    assert live.names[banker] in texts[1]
    assert [c["type"] for c in inner].count(14) >= 2  # separators between the parts
    assert "Turn" in texts[0] or "turn" in texts[0]


def test_a_closed_table_has_greyed_buttons_and_says_why() -> None:
    from bot.i18n import Msg

    live = live_table(3)
    p = presenter()
    comps = p.layout(live, Msg("reason.idle")).to_components()
    assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == []
    buttons = [b for c in comps[0]["components"] if c["type"] == 1 for b in c["components"]]
    assert buttons and all(b.get("disabled") for b in buttons)
    header = comps[0]["components"][0]["content"]
    assert "closed" in header.lower() and "(" not in header.split("\n")[0][:3]


async def test_a_message_that_refuses_the_layout_moves_the_table_to_a_new_one() -> None:
    """A table message posted as an embed before the upgrade, which Discord will not
    turn into a layout (a 400): the writer posts the table anew and remembers it."""
    from types import SimpleNamespace

    import discord

    from cogs.table_message import TableMessages

    live = live_table(3)
    live.message_id = 77
    p = presenter()
    sent: list[dict[str, Any]] = []
    posted: list[int] = []

    class Old:
        async def edit(self, **kw: Any) -> None:
            resp = SimpleNamespace(status=400, reason="Bad Request")
            raise discord.HTTPException(resp, {"code": 50035, "message": "Invalid Form Body"})  # type: ignore[arg-type]

    class Channel:
        def get_partial_message(self, mid: int) -> Old:
            return Old()

        async def send(self, **kw: Any) -> Any:
            sent.append(kw)
            return SimpleNamespace(id=88)

    client: Any = SimpleNamespace(get_partial_messageable=lambda cid, guild_id=None: Channel())

    async def remember(lv: Any, mid: int) -> None:
        posted.append(mid)
        lv.message_id = mid

    writer: TableMessages[Any] = TableMessages(client, p._render, remember)
    assert await writer.draw(live, None)
    assert posted == [88] and live.message_id == 88
    assert isinstance(sent[0]["view"], discord.ui.LayoutView) and "embed" not in sent[0]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_button_of_every_variation_at_the_largest_table(
    locale: str, pictures: object
) -> None:
    """Shoot mode, the banker's double and burning show all seventeen buttons (four rows):
    the seats still fit, grouped, within the 40 components."""
    from bot.pontoon import opening_rules

    rules = opening_rules(
        PontoonRules(min_bet=1, max_bet=10, packs=2, shoot=True, banker_doubles=True, burn="13")
    )
    n = rules.max_seats or 0
    assert n == largest()
    live = live_table(n, rules=rules, names=hostile_names(locale, n))
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    comps = p.layout(live).to_components()
    assert layout_errors("", [], comps, FLAG_COMPONENTS_V2) == []
    rows = [c for c in comps[0]["components"] if c["type"] == 1]
    assert sum(len(r["components"]) for r in rows) == 17 and len(rows) == 4
    assert count_components(comps) <= 40
    whole = "\n".join(c["content"] for c in comps[0]["components"] if c["type"] == 10)
    for seat in live.engine.seats:
        assert display(live.names[seat])[:10] in whole
