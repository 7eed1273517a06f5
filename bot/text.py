"""Plain-text helpers every game's words share (no Discord, no locale)."""

from __future__ import annotations

NAME_MAX = 32  # a display name as shown (Discord's own nickname limit)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut. A cut never
    splits Discord markup such as a card's emoji (``<:pc_AS:123>``): it goes before it."""
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    start = cut.rfind("<")
    if start != -1 and ">" not in cut[start:] and text[start + 1 : start + 2] in (":", "a"):
        cut = cut[:start]
    return cut + "…"


__all__ = ["NAME_MAX", "shorten"]
