"""The one way every card the bot shows is written.

``card_face(card)`` gives the card's picture as an application emoji (``<:pc_AS:123>``)
once the pictures are uploaded (``cogs/card_emojis.py`` calls :func:`use_emojis`), and
the text card (``A♠``) before that, with ``CARD_STYLE=text``, or when Discord refused
them. ``back_face()`` is what a face-down card shows. Discord-free: the words modules of
every game call these, whatever sends the text.

The emojis belong to the application, so one table of them serves every server, DM and
shard of the process; it is process-wide on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from engine.cards import Card, parse_card

#: the text of a face-down card when there are no pictures
TEXT_BACK: Final = "🂠"
#: the code of the back's picture (``bot.cards_art.BACK``)
BACK_CODE: Final = "back"

_markup: dict[str, str] = {}


def emoji_markup(name: str, emoji_id: int) -> str:
    """How a message shows a custom emoji."""
    return f"<:{name}:{emoji_id}>"


def use_emojis(found: Mapping[str, str]) -> None:
    """Show cards as these emojis: card code (``"AS"``, ``"back"``) → markup. Only a full
    set (52 faces and the back) is used, so a table never mixes pictures and text."""
    _markup.clear()
    if len(found) >= 53 and BACK_CODE in found:
        _markup.update(found)


def use_text() -> None:
    """Show text cards (``CARD_STYLE=text``, or the pictures are gone)."""
    _markup.clear()


def pictures_on() -> bool:
    return bool(_markup)


def card_face(card: Card | str) -> str:
    """One face-up card as it is shown: its emoji, or its text (``10♥``)."""
    c = parse_card(card) if isinstance(card, str) else card
    return _markup.get(c.code) or c.pretty


def back_face() -> str:
    """A face-down card as it is shown: the back's emoji, or ``🂠``."""
    return _markup.get(BACK_CODE) or TEXT_BACK


def faces(cards: Iterable[Card | str], hidden: int = 0, sep: str = " ") -> str:
    """Face-up cards then ``hidden`` backs, joined; ``—`` for none."""
    shown = [card_face(c) for c in cards]
    shown.extend([back_face()] * hidden)
    return sep.join(shown) if shown else "—"


def faces_read(cards: Iterable[Card | str], sep: str = " ") -> str:
    """Face-up cards as a result post shows them, for players to check: the pictures and
    then the same cards in text (``🂡🂮 · 5♦ K♥``), since a picture's rank is small at
    Discord's emoji size (a 5 reads as a 6); without pictures, the text cards alone."""
    known = [parse_card(c) if isinstance(c, str) else c for c in cards]
    if not known or not _markup:
        return faces(known, sep=sep)
    return f"{faces(known, sep=sep)} · {' '.join(c.pretty for c in known)}"
