"""Charts as PNG bytes: a member's chips over time, bars (the leaderboard's, a game's
odds chart).

matplotlib with the Agg backend (no display, no pyplot state: each chart is its own
``Figure``, so charts can be drawn in worker threads at once); imported on first use,
so start-up does not pay for it. Discord-free and language-free: the caller passes the
formatters that write numbers and dates in the reader's language, and puts the words
(title, what the colours mean) in the message beside the picture, so every script is
shown by Discord's own fonts rather than the one font the chart has. The pictures carry
numbers, dates and colours only, plus proper names the caller chooses.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NumberFormat = Callable[[float], str]
DateFormat = Callable[[date], str]

UP: Final = "#2e9d4a"
DOWN: Final = "#c8202f"
LINE: Final = "#3a6fd8"
INK: Final = "#dcddde"
GRID: Final = "#4f545c"
PAPER: Final = "#2b2d31"  # Discord's dark theme, where most members read


def _figure(width: float, height: float) -> Figure:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, facecolor=PAPER)
    return fig


def _style(ax: Any) -> None:
    ax.set_facecolor(PAPER)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(GRID)
    ax.tick_params(colors=INK, labelsize=9)
    ax.grid(True, color=GRID, linewidth=0.5, alpha=0.6)
    ax.set_axisbelow(True)


def _png(fig: Figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    out = io.BytesIO()
    fig.savefig(out, format="png", facecolor=PAPER, metadata={"Software": None})
    return out.getvalue()


def _number_formatter(fmt: NumberFormat) -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _pos: fmt(value))


def balance_chart(
    points: Sequence[tuple[datetime, int]],
    games: Sequence[tuple[str, int]],
    *,
    fmt_number: NumberFormat,
    fmt_date: DateFormat,
) -> bytes:
    """The balance after each change as a stepped line (left), and the net result per
    game as bars, green for a gain and red for a loss (right, when there is a game)."""
    from matplotlib import dates as mdates
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

    fig = _figure(8.0, 3.6)
    grid = fig.add_gridspec(1, 2 if games else 1, width_ratios=[5, 2] if games else [1])
    ax = fig.add_subplot(grid[0, 0])
    _style(ax)
    if points:
        points = thin(points)
        # matplotlib's dates are days since 1970-01-01 (its default epoch)
        xs = [p[0].timestamp() / 86_400 for p in points]
        ys = [p[1] for p in points]
        if len(xs) == 1:  # one moment: a short flat line, not an invisible dot
            xs, ys = [xs[0] - 0.5, xs[0] + 0.5], ys * 2
        ax.step(xs, ys, where="post", color=LINE, linewidth=1.6)
        ax.fill_between(xs, ys, step="post", color=LINE, alpha=0.15)
        ticks = day_ticks(xs)
        if ticks is not None:  # hourly ticks of a short history all read the same date
            ax.xaxis.set_major_locator(FixedLocator(ticks))
        else:
            locator = mdates.AutoDateLocator(minticks=3, maxticks=6)  # type: ignore[no-untyped-call]
            ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(
            FuncFormatter(
                lambda v, _pos: fmt_date(mdates.num2date(v).date())  # type: ignore[no-untyped-call]
            )
        )
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
    ax.yaxis.set_major_formatter(_number_formatter(fmt_number))
    ax.set_ylim(bottom=0)
    if games:
        bx = fig.add_subplot(grid[0, 1])
        _bars(bx, [g for g, _ in games], [n for _, n in games], fmt_number, signed=True)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.1, top=0.95, wspace=0.25)
    return _png(fig)


def day_ticks(xs: Sequence[float]) -> list[float] | None:
    """For a history of a few days (``xs`` in days since 1970): one tick per calendar day,
    each inside the drawn range, so no date is written twice; None for a longer one."""
    lo, hi = min(xs), max(xs)
    if hi - lo >= 3:
        return None
    return sorted({min(max(math.floor(x) + 0.5, lo), hi) for x in xs})


def thin(points: Sequence[tuple[datetime, int]], most: int = 800) -> list[tuple[datetime, int]]:
    """At most about ``most`` points, keeping each stretch's lowest and highest balance
    in time order (a picture 600 pixels wide shows no more)."""
    if len(points) <= most:
        return list(points)
    size = -(-len(points) // (most // 2))
    out: list[tuple[datetime, int]] = []
    for start in range(0, len(points), size):
        chunk = points[start : start + size]
        lo = min(range(len(chunk)), key=lambda i: chunk[i][1])
        hi = max(range(len(chunk)), key=lambda i: chunk[i][1])
        for i in sorted({lo, hi}):
            out.append(chunk[i])
    if out[-1] is not points[-1]:
        out.append(points[-1])
    return out


def _bars(
    ax: Any,
    labels: Sequence[str],
    values: Sequence[float],
    fmt: NumberFormat,
    *,
    signed: bool = False,
    colours: Sequence[str] | None = None,
    horizontal: bool = False,
) -> None:
    from matplotlib.ticker import MaxNLocator

    _style(ax)
    shades = list(colours) if colours else [UP if v >= 0 else DOWN for v in values]
    pos = list(range(len(values)))
    if horizontal:
        bars = ax.barh(pos, values, color=shades)
        ax.set_yticks(pos, labels)
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.xaxis.set_major_formatter(_number_formatter(fmt))
    else:
        bars = ax.bar(pos, values, color=shades)
        ax.set_xticks(pos, labels)
        ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.yaxis.set_major_formatter(_number_formatter(fmt))
    if signed:
        (ax.axvline if horizontal else ax.axhline)(0, color=INK, linewidth=0.8)
    ax.bar_label(bars, labels=[fmt(v) for v in values], color=INK, fontsize=9, padding=2)
    ax.margins(x=0.15, y=0.15)


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    fmt_number: NumberFormat,
    colours: Sequence[str] | None = None,
    horizontal: bool = False,
) -> bytes:
    """Bars with their values written on them (the leaderboard, the house edges)."""
    fig = _figure(6.0, 3.2 if not horizontal else 0.6 + 0.35 * max(1, len(values)))
    ax = fig.add_subplot()
    _bars(ax, labels, values, fmt_number, colours=colours, horizontal=horizontal)
    fig.tight_layout()
    return _png(fig)


__all__ = ["DOWN", "UP", "balance_chart", "bar_chart"]
