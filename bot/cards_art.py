"""The card pictures: 52 faces and a back, drawn with Pillow.

Discord-free and deterministic: the same card gives the same PNG bytes on every machine
with the same Pillow, because nothing comes from the system: the rank is written with
the font Pillow ships (``ImageFont.load_default(size=…)``, Pillow ≥ 10.1) and the suits
are drawn as shapes. Each picture is a 128×128 PNG (Discord shows emojis at 22–48 px and
takes at most 256 KB); the card fills the height so that at 24 px the rank is about
11 px tall and the suit 9 px.

Suits are told apart three ways: shape, and the four-colour deck's colours (spades
black, hearts red, diamonds blue, clubs green), so red/black stays readable for members
who cannot tell red from green or see no colour at all (the shapes differ).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card, Rank, Suit, parse_card

SIZE: Final = 128
#: drawn at this multiple of SIZE, then scaled down (smooth edges, still deterministic)
SCALE: Final = 4
MAX_BYTES: Final = 256 * 1024

#: the four-colour deck: spades black, hearts red, diamonds blue, clubs green
SUIT_COLOUR: Final[dict[Suit, tuple[int, int, int]]] = {
    Suit.SPADES: (20, 20, 20),
    Suit.HEARTS: (200, 16, 32),
    Suit.DIAMONDS: (20, 70, 200),
    Suit.CLUBS: (10, 130, 40),
}
FACE_FILL: Final = (255, 255, 255, 255)
EDGE: Final = (60, 60, 60, 255)
BACK_FILL: Final = (150, 20, 40, 255)
BACK_LINE: Final = (240, 220, 200, 255)

#: the name of a card's emoji (``pc_AS``, ``pc_10H``) and of the back's
EMOJI_PREFIX: Final = "pc_"
BACK: Final = "back"


def emoji_name(code: str) -> str:
    """The application emoji name of a card code (``"AS"``) or of ``BACK``."""
    return EMOJI_PREFIX + code


def all_codes() -> list[str]:
    """Every picture: the 52 cards (suit by suit, ace to king) and the back."""
    return [r.value + s.value for s in Suit for r in Rank] + [BACK]


def _card_outline(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    s = SIZE * SCALE
    margin_x = 12 * SCALE
    draw.rounded_rectangle(
        (margin_x, SCALE, s - margin_x - 1, s - SCALE - 1),
        radius=12 * SCALE,
        fill=fill,
        outline=EDGE,
        width=3 * SCALE,
    )


def _suit_shape(
    draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, r: float, colour: tuple[int, ...]
) -> None:
    """A suit drawn from circles and polygons, centred on (cx, cy), about 2r across."""
    fill = (*colour[:3], 255)
    if suit is Suit.DIAMONDS:
        draw.polygon([(cx, cy - r), (cx + 0.8 * r, cy), (cx, cy + r), (cx - 0.8 * r, cy)], fill)
        return
    if suit is Suit.HEARTS:
        lobe = 0.52 * r
        for dx in (-lobe, lobe):
            draw.ellipse((cx + dx - lobe, cy - r, cx + dx + lobe, cy - r + 2 * lobe), fill)
        draw.polygon(
            [
                (cx - 2 * lobe + 1, cy - r + lobe * 1.2),
                (cx + 2 * lobe - 1, cy - r + lobe * 1.2),
                (cx, cy + r),
            ],
            fill,
        )
        return
    # spades and clubs have a stem
    draw.polygon([(cx, cy + 0.2 * r), (cx - 0.45 * r, cy + r), (cx + 0.45 * r, cy + r)], fill)
    if suit is Suit.SPADES:
        lobe = 0.5 * r
        for dx in (-lobe, lobe):
            draw.ellipse(
                (cx + dx - lobe, cy + 0.5 * r - 2 * lobe, cx + dx + lobe, cy + 0.5 * r), fill
            )
        draw.polygon(
            [
                (cx - 2 * lobe + 1, cy + 0.5 * r - lobe * 1.2),
                (cx + 2 * lobe - 1, cy + 0.5 * r - lobe * 1.2),
                (cx, cy - r),
            ],
            fill,
        )
        return
    # clubs: three round leaves
    leaf = 0.42 * r
    for dx, dy in ((0.0, -0.5 * r), (-0.5 * r, 0.15 * r), (0.5 * r, 0.15 * r)):
        draw.ellipse((cx + dx - leaf, cy + dy - leaf, cx + dx + leaf, cy + dy + leaf), fill)
    draw.rectangle((cx - 0.12 * r, cy - 0.2 * r, cx + 0.12 * r, cy + 0.5 * r), fill)


@cache
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=px)


def _finish(big: Image.Image) -> bytes:
    small = big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def draw_face(card: Card) -> bytes:
    """One card's face: the rank large in the upper half, the suit below, in its colour."""
    s = SIZE * SCALE
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _card_outline(draw, FACE_FILL)
    colour = SUIT_COLOUR[card.suit]
    rank = card.rank.value
    font = _font(60 * SCALE if len(rank) == 1 else 50 * SCALE)
    box = draw.textbbox((0, 0), rank, font=font, stroke_width=2 * SCALE)
    w, h = box[2] - box[0], box[3] - box[1]
    draw.text(
        (s / 2 - w / 2 - box[0], 34 * SCALE - h / 2 - box[1]),
        rank,
        font=font,
        fill=(*colour, 255),
        stroke_width=2 * SCALE,
        stroke_fill=(*colour, 255),
    )
    _suit_shape(draw, card.suit, s / 2, 92 * SCALE, 26 * SCALE, colour)
    return _finish(big)


def draw_back() -> bytes:
    """The back every face-down card shows: a lattice on red, inside a white border."""
    s = SIZE * SCALE
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _card_outline(draw, FACE_FILL)
    inner = (20 * SCALE, 8 * SCALE, s - 20 * SCALE - 1, s - 8 * SCALE - 1)
    draw.rounded_rectangle(inner, radius=8 * SCALE, fill=BACK_FILL)
    step = 12 * SCALE
    for k in range(-s, 2 * s, step):
        draw.line((k, inner[1], k + (inner[3] - inner[1]), inner[3]), BACK_LINE, 2 * SCALE)
        draw.line((k, inner[3], k + (inner[3] - inner[1]), inner[1]), BACK_LINE, 2 * SCALE)
    # the lattice ran over the border: cut it back to the inner panel
    mask = Image.new("L", (s, s), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=8 * SCALE, fill=255)
    base = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(base).rounded_rectangle(
        (12 * SCALE, SCALE, s - 12 * SCALE - 1, s - SCALE - 1),
        radius=12 * SCALE,
        fill=FACE_FILL,
        outline=EDGE,
        width=3 * SCALE,
    )
    base.paste(big, (0, 0), mask)
    return _finish(base)


def draw(code: str) -> bytes:
    """The picture of a card code (``"QH"``) or of ``BACK``."""
    return draw_back() if code == BACK else draw_face(parse_card(code))


def draw_all() -> Iterator[tuple[str, bytes]]:
    """(code, PNG bytes) for all 53 pictures."""
    for code in all_codes():
        yield code, draw(code)


def cached_pictures(folder: Path) -> dict[str, bytes]:
    """All 53 pictures, drawn once into ``folder`` (``<code>.png``) and read back after.

    A picture whose file is missing or empty is drawn again; the folder is created."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, bytes] = {}
    for code in all_codes():
        path = folder / f"{code}.png"
        data = path.read_bytes() if path.is_file() else b""
        if not data:
            data = draw(code)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        out[code] = data
    return out
