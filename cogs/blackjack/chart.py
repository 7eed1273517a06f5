"""The basic-strategy chart of a table's rules as a picture (``/blackjack odds``).

Numbers, card ranks and the move letters only (H S D Ds P R): the words that explain
them are in the message beside the picture, in the reader's language, as for every
chart of the bot (bot/charts.py). The moves are the engine's
(:func:`engine.blackjack.odds.basic_strategy`), computed from the same rules as the
house edge.
"""

from __future__ import annotations

import io
from typing import Final

from bot.i18n import DEFAULT_LOCALE
from engine.blackjack import BlackjackRules
from engine.blackjack.odds import PAIR_ROWS, SOFT_ROWS, UP_CARDS, basic_strategy

COLOURS: Final = {
    "H": "#c8202f",
    "S": "#2e9d4a",
    "D": "#3a6fd8",
    "Ds": "#7a9be6",
    "P": "#d0a000",
    "R": "#8e8e93",
}
PAPER: Final = "#2b2d31"
INK: Final = "#ffffff"


def _rank(value: int) -> str:
    return "A" if value == 1 else str(value)


def chart_rows(rules: BlackjackRules) -> list[tuple[str, list[str]]]:
    """The chart as (row label, a move per dealer up card 2..10, A)."""
    chart = basic_strategy(rules)
    rows: list[tuple[str, list[str]]] = []
    for value in range(5, 18):
        rows.append((str(value), [chart[("hard", value, up)] for up in UP_CARDS]))
    for value in SOFT_ROWS:
        rows.append((f"A,{value - 11}", [chart[("soft", value, up)] for up in UP_CARDS]))
    for value in PAIR_ROWS:
        r = _rank(value)
        rows.append((f"{r},{r}", [chart[("pair", value, up)] for up in UP_CARDS]))
    return rows


def strategy_png(rules: BlackjackRules, locale: str = DEFAULT_LOCALE) -> bytes:
    """The chart as a PNG: a coloured cell per player hand and dealer up card."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = chart_rows(rules)
    fig = Figure(figsize=(5.6, 0.24 * len(rows) + 0.9), dpi=110, facecolor=PAPER)
    ax = fig.add_axes((0.12, 0.02, 0.86, 0.9))
    ax.set_facecolor(PAPER)
    ax.set_xlim(0, len(UP_CARDS))
    ax.set_ylim(len(rows), 0)
    ax.axis("off")
    for col, up in enumerate(UP_CARDS):
        ax.text(col + 0.5, -0.5, _rank(up), ha="center", va="center", color=INK, fontsize=9)
    for i, (label, moves) in enumerate(rows):
        ax.text(-0.15, i + 0.5, label, ha="right", va="center", color=INK, fontsize=8)
        for col, move in enumerate(moves):
            ax.add_patch(
                matplotlib.patches.Rectangle(
                    (col + 0.04, i + 0.06), 0.92, 0.88, color=COLOURS[move], linewidth=0
                )
            )
            ax.text(col + 0.5, i + 0.52, move, ha="center", va="center", color=INK, fontsize=7)
        if i in (12, 12 + len(SOFT_ROWS)):  # between the hard, soft and pair rows
            ax.axhline(i + 1, color=INK, linewidth=0.8)
    FigureCanvasAgg(fig)
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=PAPER, metadata={"Software": None})
    return out.getvalue()


__all__ = ["COLOURS", "chart_rows", "strategy_png"]
