"""Card pictures: drawn, small, readable, distinct, deterministic; every
card goes through bot.card_faces; no face-down card's picture where only its back may be."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot import card_faces, cards_art
from bot.i18n import LOCALES, t
from bot.pontoon import LoggedEvent
from cogs.pontoon import render
from cogs.punto_banco.text import deal_text, hand_text
from engine.cards import RandomChance, Rank, Suit, parse_card
from engine.errors import RuleError
from engine.pontoon import PontoonRules
from engine.pontoon.types import Action, ActionKind, Event, EventKind, Phase
from tests.bot.test_pontoon_words import IDS, laid_out, layout_texts, live_table, presenter

MARKUP = {code: f"<:pc_{code}:{10**18 + i}>" for i, code in enumerate(cards_art.all_codes())}


@pytest.fixture(scope="module")
def pictures() -> dict[str, bytes]:
    return dict(cards_art.draw_all())


@pytest.fixture(autouse=True)
def text_after() -> Iterator[None]:
    yield
    card_faces.use_text()


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGBA")


def ink(
    img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int] | None = None
) -> set[tuple[int, int]]:
    """Pixels of ``box`` that are neither background nor the card's white (nor, given the
    suit's ``colour``, anything far from it, such as the card's grey edge): the glyphs."""
    out = set()
    px = img.load()
    assert px is not None
    for y in range(box[1], box[3]):
        for x in range(box[0], box[2]):
            r, g, b, a = px[x, y]  # type: ignore[misc]
            near = colour is None or (
                abs(r - colour[0]) + abs(g - colour[1]) + abs(b - colour[2]) < 90
            )
            if a > 200 and min(r, g, b) < 180 and near:
                out.add((x, y))
    return out


def test_53_pictures_small_png_distinct_and_the_same_every_time(
    pictures: dict[str, bytes],
) -> None:
    assert len(pictures) == 53 and cards_art.BACK in pictures
    assert len(set(pictures.values())) == 53
    for code, data in pictures.items():
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(data) <= cards_art.MAX_BYTES == 256 * 1024
        assert Image.open(io.BytesIO(data)).size == (128, 128)
        assert 2 <= len(cards_art.emoji_name(code)) <= 32
    for code in ("AS", "10H", "QD", "7C", cards_art.BACK):
        assert cards_art.draw(code) == pictures[code]


def test_rank_and_suit_lie_inside_the_card_and_differ_at_emoji_size(
    pictures: dict[str, bytes],
) -> None:
    small = {c: image(d).resize((24, 24), Image.Resampling.LANCZOS) for c, d in pictures.items()}
    for suit in Suit:
        ranks = {}
        for rank in Rank:
            code = rank.value + suit.value
            big = image(pictures[code])
            alpha = big.getchannel("A").getbbox()
            assert alpha is not None
            colour = cards_art.SUIT_COLOUR[suit]
            rank_ink = ink(big, (0, 0, 128, 64), colour)
            assert rank_ink, code
            xs = [x for x, _ in rank_ink]
            ys = [y for _, y in rank_ink]
            # the rank's glyph is well inside the card's outline, and large
            assert alpha[0] + 4 < min(xs) and max(xs) < alpha[2] - 4, code
            assert max(ys) - min(ys) >= 30, code
            assert len(ink(big, (0, 68, 128, 124), colour)) > 1000, code  # the suit below it
            ranks[rank] = frozenset(ink(small[code], (3, 1, 21, 12)))
            assert ranks[rank], f"{code}: no rank left at 24 px"
        # every rank reads differently at 24 px
        assert len(set(ranks.values())) == 13, suit


def _mean_ink_colour(data: bytes) -> tuple[float, float, float]:
    img = image(data)
    px = img.load()
    assert px is not None
    found = [px[x, y][:3] for x, y in ink(img, (20, 70, 108, 124))]  # type: ignore[index]
    return tuple(sum(c[i] for c in found) / len(found) for i in range(3))  # type: ignore[return-value]


def test_suits_differ_in_colour_and_in_shape(pictures: dict[str, bytes]) -> None:
    colours = {s: _mean_ink_colour(pictures["A" + s.value]) for s in Suit}
    red, black = colours[Suit.HEARTS], colours[Suit.SPADES]
    assert red[0] > 150 and red[0] > 3 * red[2] and max(black) < 60
    # four colours: every pair of suits far apart in colour ...
    for a in Suit:
        for b in Suit:
            if a is not b:
                assert sum(abs(x - y) for x, y in zip(colours[a], colours[b], strict=True)) > 120
    # ... and in shape (in grey, for members who see no colour)
    shapes = {s: frozenset(ink(image(pictures["A" + s.value]), (20, 68, 108, 124))) for s in Suit}
    for a in Suit:
        for b in Suit:
            if a is not b:
                assert len(shapes[a] ^ shapes[b]) > 300, (a, b)


def test_pictures_are_drawn_once_into_the_data_folder(tmp_path: Path) -> None:
    first = cards_art.cached_pictures(tmp_path / "cards")
    assert len(list((tmp_path / "cards").glob("*.png"))) == 53
    (tmp_path / "cards" / "KS.png").write_bytes(b"")  # damaged: drawn again
    again = cards_art.cached_pictures(tmp_path / "cards")
    assert again == first


def test_one_function_for_every_card_text_or_picture() -> None:
    assert card_faces.card_face("10H") == "10♥" and card_faces.back_face() == "🂠"
    assert render.cards_text(["AS"], hidden=1) == "A♠ 🂠"
    card_faces.use_emojis({"AS": "<:pc_AS:1>"})  # not a full set: stays text
    assert not card_faces.pictures_on() and card_faces.card_face("AS") == "A♠"
    card_faces.use_emojis(MARKUP)
    assert card_faces.card_face(parse_card("AS")) == MARKUP["AS"]
    assert render.cards_text(["AS", "10H"], hidden=2) == " ".join(
        [MARKUP["AS"], MARKUP["10H"], MARKUP["back"], MARKUP["back"]]
    )
    assert hand_text([parse_card("9D")]) == MARKUP["9D"] + " · 9♦"  # and in text (N-03)
    card_faces.use_text()
    assert render.cards_text(["AS"]) == "A♠"


def test_form_titles_stay_text_since_forms_show_no_pictures() -> None:
    card_faces.use_emojis(MARKUP)
    live = live_table(2)
    from tests.bot.test_pontoon_words import play_to

    play_to(live, Phase.PLAYING)
    seat = live.engine.to_act()[0]
    title = render.form_title("Twist", live.engine.private_view(seat))
    assert "<:" not in title


def test_a_cut_never_splits_a_cards_picture() -> None:
    from bot.text import shorten

    text = "x" * 10 + MARKUP["AS"] + "y"
    for limit in range(1, len(text)):
        cut = shorten(text, limit)
        assert len(cut) <= limit
        assert "<:" not in cut or MARKUP["AS"] in cut


def test_no_face_down_card_shows_its_picture_on_the_table_during_a_round() -> None:
    """Pontoon, packs=1 (every code once): at every step of several rounds, the public
    table message shows face-down cards only as backs."""
    card_faces.use_emojis(MARKUP)
    live = live_table(4, PontoonRules(min_bet=1, max_bet=10, packs=1))
    p = presenter()
    eng = live.engine
    chance = RandomChance(random.Random(3))
    backs_seen = 0
    public_cards: set[str] = set()

    def step(action: Action) -> None:
        out = eng.apply(action, chance)
        for ev in out.events:
            if ev.to is None:
                live.round_log.append(LoggedEvent(ev, eng.banker, False))
                public_cards.update(ev.cards)

    step(Action(IDS[0], ActionKind.CUT))
    assert eng.banker is not None
    rounds = 0
    for _ in range(600):
        if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
            if rounds == 3:
                break
            rounds += 1
            live.round_log = []
            public_cards.clear()
            if eng.phase is Phase.ROUND_OVER:
                step(Action(eng.banker or IDS[0], ActionKind.NEXT_ROUND))
            if eng.phase is Phase.WAITING:
                step(Action(eng.banker or IDS[0], ActionKind.DEAL))
            continue
        seat = eng.to_act()[0]
        kinds = {la.kind for la in eng.legal_actions(seat)}
        pick = random.Random(len(live.round_log)).random()
        wanted = [
            Action(seat, ActionKind.BET, amount=2),
            Action(seat, ActionKind.DECLARE),
            *([Action(seat, ActionKind.BUY, amount=2)] if pick < 0.3 else []),
            *([Action(seat, ActionKind.TWIST)] if pick < 0.6 else []),
            Action(seat, ActionKind.STICK),
            *(Action(seat, k) for k in sorted(kinds, key=lambda k: k.value)),
        ]
        for action in wanted:
            if action.kind not in kinds:
                continue
            try:
                step(action)
                break
            except RuleError:
                continue
        else:
            raise AssertionError(f"no legal move for {seat} in {eng.phase}: {kinds}")
        # what is face down now: each holder's cards the public view does not show
        view = eng.public_view()
        face_down: set[str] = set()
        hidden = 0
        for sv in view.seats:
            mine = eng.private_view(sv.seat)
            for pub, own in zip(sv.hands, mine, strict=False):
                face_down.update(set(own.cards) - set(pub.cards))
                hidden += pub.hidden
        if view.banker_hand is not None:
            hidden += view.banker_hand.hidden
        # the message the bot sends: its layout's seat blocks (the banker's and the
        # players', neither the header, the log nor the footer) and all of it
        comps = laid_out(p, live)
        texts = layout_texts(comps)
        log_head = "**" + t("en", "pt.log_title") + "**"
        seats = " ".join(x for x in texts[1:] if not x.startswith((log_head, "-# ")))
        everything = str(comps)
        for code in face_down:
            assert MARKUP[code] not in seats, (code, seats)
            if code not in public_cards:
                assert MARKUP[code] not in everything, code
        if hidden:
            assert MARKUP["back"] in seats
            backs_seen += 1
    assert rounds == 3 and backs_seen > 5


def test_punto_banco_shows_only_the_cards_turned_so_far() -> None:
    from tests.bot.test_punto_banco_presenter import table

    card_faces.use_emojis(MARKUP)
    live = table()
    result = live.engine.deal(RandomChance(random.Random(2)))
    dealt = [c.code for _, c in result.coup.dealt]
    for shown in range(len(dealt) + 1):
        text = deal_text(result, shown)
        for i, code in enumerate(dealt):
            assert (MARKUP[code] in text) == (i < shown), (shown, code)


def test_the_largest_table_with_pictures_stays_within_discords_limits() -> None:
    from tests.bot.test_pontoon_words import play_to

    card_faces.use_emojis(MARKUP)
    names = {s: "é" * 32 for s in IDS[:20]}
    live = live_table(20, names=names)
    p = presenter()
    for phase in (Phase.BETTING, Phase.PLAYING):
        play_to(live, phase)
        comps = laid_out(p, live)
        assert MARKUP["back"] in "\n".join(layout_texts(comps))
    seat = live.engine.to_act()[0]
    summary = p.hand_summary(live, seat, "en")
    assert "<:pc_" in summary and len(summary) < 2000


@pytest.mark.parametrize("locale", LOCALES)
def test_the_table_with_pictures_fits_in_every_language_and_cuts_no_picture(locale: str) -> None:
    import re

    from tests.bot.test_pontoon_words import play_to

    card_faces.use_emojis(MARKUP)
    live = live_table(20, names={s: "ß" * 32 for s in IDS[:20]})
    play_to(live, Phase.PLAYING)
    log = [f"{i}: " + render.cards_text(["AS", "10H", "QD", "7C"] * 3) for i in range(40)]
    p = presenter()
    p.guild_locale = lambda live: locale  # type: ignore[method-assign]
    p.log_lines = lambda live, locale: log  # type: ignore[method-assign]
    texts = layout_texts(laid_out(p, live))
    whole = "\n".join(texts)
    assert MARKUP["back"] in whole
    # the log is shown, its pictures too (its lines cut where a picture starts)
    logs = [x for x in texts if x.startswith("**" + t(locale, "pt.log_title") + "**")]
    assert len(logs) == 1 and MARKUP["AS"] in logs[0]
    # every picture is whole: "<:" always starts a full <:pc_XX:id>
    assert len(re.findall(r"<:", whole)) == len(re.findall(r"<:pc_\w+:\d+>", whole))


def test_result_posts_write_each_card_in_text_beside_its_picture() -> None:
    """Newcomer review N-03: at Discord's emoji size (21 px) a picture's rank is ~7 px and
    5♦ reads as 6; a result post, the one record of a round, writes every card in text
    too, so players can check their cards. The table keeps the pictures alone."""
    from bot.blackjack import OpenBlackjackTable
    from cogs.blackjack.text import result_text
    from engine.blackjack import DEALER, BlackjackRules, BlackjackTable, Shoe
    from engine.blackjack import Action as BjAction
    from engine.blackjack import ActionKind as BjKind
    from engine.cards import full_pack

    card_faces.use_emojis(MARKUP)
    assert card_faces.faces_read(["5D", "KH"]) == f"{MARKUP['5D']} {MARKUP['KH']} · 5♦ K♥"
    assert card_faces.faces_read([]) == "—"
    # Pontoon: a payout line
    ev = Event(EventKind.HAND_RESULT, "ann", 0, ("5D", "KH", "6H"), amount=-4, total=21)
    line = render.result_line(ev, lambda seat: seat)
    assert MARKUP["5D"] in line and "5♦ K♥ 6♥" in line, line
    # Blackjack: the dealer's line and each hand's line
    table = BlackjackTable(BlackjackRules(decks=1))
    top = [parse_card(c) for c in ("5D", "6H", "KH", "9S")]  # ann 5♦ K♥, dealer 6♥ 9♠
    rest = full_pack(1)
    for c in top:
        rest.remove(c)
    table.shoe = Shoe(1, top + rest)
    chance = RandomChance(random.Random(0))
    table.apply(BjAction("1", BjKind.JOIN), chance)
    table.apply(BjAction("1", BjKind.BET, 10), chance)
    table.apply(BjAction(DEALER, BjKind.DEAL), chance)
    table.apply(BjAction("1", BjKind.STAND), chance)
    result = table.last_result
    assert result is not None
    live = OpenBlackjackTable("t1", 1, 2, 3, table, 30.0, 45.0, names={"1": "ann"})
    post = result_text(live, result, {"1": 990})
    assert "5♦ K♥" in post and "6♥ 9♠" in post, post
    card_faces.use_text()
    assert card_faces.faces_read(["5D", "KH"]) == "5♦ K♥"  # text cards: once
