"""Plain-text helpers every game's words share (no Discord, no locale)."""

from __future__ import annotations

NAME_MAX = 32  # a display name as shown (Discord's own nickname limit)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


__all__ = ["NAME_MAX", "shorten"]
