"""The house edge of a Pontoon table's options, as /pontoon rules and the table's
footer say it.

The figure is ``engine.pontoon.odds.table_edges``: minus the expected result per unit
initial stake of a player who follows the hint, a fresh pack each round (exact except
for splits, which the hint approximates; docs/house-edge.md). For a house-banked table
it is the house's edge; for a player-banked table it is the banker seat's advantage
against such a player (a player-banker assumed to draw below 17). It takes about half a
second of CPU, so it is computed once per distinct rule set, in a worker thread, and
remembered; drawing never waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from bot.i18n import DEFAULT_LOCALE, Raw, pct, t
from engine.pontoon.odds import table_edges
from engine.pontoon.rules import PontoonRules

log = logging.getLogger(__name__)

#: computed figures by rule set (a handful of distinct rule sets ever exist on a bot)
_EDGES: dict[PontoonRules, dict[str, Any]] = {}
_MAX = 256
#: the computation under way for a rule set: every table with those rules waits for the
#: same one (5,000 tables restored with the same options start one, not 5,000)
_PENDING: dict[PontoonRules, asyncio.Future[dict[str, Any]]] = {}
#: each rule set a table drew with -> its key (:func:`_key` copies the model: a table's
#: every drawing asks for its figure, so it is worked out once per rule set)
_KEYS: dict[PontoonRules, PontoonRules] = {}
#: the table footer's wording by (rule set, language), with the figures it says
_FOOTERS: dict[tuple[PontoonRules, str], tuple[dict[str, Any], str]] = {}


@dataclass(frozen=True)
class TableEdge:
    """The figure a table shows: ``edge`` per unit stake; ``banker_seat`` for a
    player-banked table; ``margin`` the half-width of the 95% interval when the figure is
    a simulation's estimate (None when exact)."""

    edge: float
    banker_seat: bool
    margin: float | None = None


def _key(rules: PontoonRules) -> PontoonRules:
    """The rules as the figure depends on them: the seat limit a table opens with
    (``max_seats``) changes nothing in a heads-up figure, so the options a member asks for
    and the table opened with them share one computation."""
    if rules.max_seats is None:
        return rules
    key = _KEYS.get(rules)
    if key is None:
        if len(_KEYS) >= _MAX:
            _KEYS.clear()
        key = _KEYS[rules] = rules.model_copy(update={"max_seats": None})
    return key


def edges(rules: PontoonRules) -> dict[str, Any]:
    """``table_edges(rules)``, computed once per rule set (blocking: call it off the
    event loop)."""
    key = _key(rules)
    found = _EDGES.get(key)
    if found is None:
        found = table_edges(key)
        if len(_EDGES) >= _MAX:
            _EDGES.clear()
        _EDGES[key] = found
    return found


def pick(rules: PontoonRules, figures: dict[str, Any]) -> TableEdge:
    """The figure of this table from ``table_edges``'s answer: the house's edge when the
    house banks, else the banker seat's."""
    key = "house_bank" if rules.house_bank else "player_banker"
    part = figures[key]
    margin = None if figures.get("exact", True) else part.get("ci95")
    return TableEdge(float(part["edge"]), not rules.house_bank, margin)


def known_edge(rules: PontoonRules) -> TableEdge | None:
    """The table's figure if it was computed already, else None (never computes)."""
    found = _EDGES.get(_key(rules))
    return None if found is None else pick(rules, found)


async def edge_of(rules: PontoonRules, wait: float | None = None) -> TableEdge | None:
    """The table's figure, computed in a worker thread if needed; None if ``wait``
    seconds pass first (the computation goes on and is remembered) or it fails."""
    known = known_edge(rules)
    if known is not None:
        return known
    key = _key(rules)
    job = _PENDING.get(key)
    if job is None:
        job = asyncio.ensure_future(asyncio.to_thread(edges, key))
        _PENDING[key] = job
        job.add_done_callback(lambda _done: _PENDING.pop(key, None))
    try:
        return pick(rules, await asyncio.wait_for(asyncio.shield(job), wait))
    except TimeoutError:
        return None
    except Exception:
        log.exception("could not compute the house edge of %r", rules)
        return None


def _figure(edge: TableEdge, locale: str) -> str:
    """The figure without its sign: a negative edge is said as the players' advantage."""
    return pct(locale, abs(edge.edge), 2)


def _key_of(edge: TableEdge, short: bool) -> str:
    """The message for the figure: the house's or the banker seat's edge, or, when it is
    negative (the rules favour a player who follows the hint), the player's advantage
    over the house or the players' over the banker seat."""
    if edge.edge < 0:
        if edge.banker_seat:
            return "pt.edge.short.players_over_banker" if short else "pt.edge.players_over_banker"
        return "pt.edge.short.player" if short else "pt.edge.player"
    if edge.banker_seat:
        return "pt.edge.short.banker_seat" if short else "pt.edge.banker_seat"
    return "pt.edge.short.house" if short else "pt.edge.house"


def edge_line(rules: PontoonRules, locale: str = DEFAULT_LOCALE) -> str:
    """/pontoon rules's line: the edge of each stake for a player who follows the hint
    (or that it is still being computed)."""
    edge = known_edge(rules)
    if edge is None:
        return t(locale, "pt.edge.pending")
    line = t(locale, _key_of(edge, short=False), edge=Raw(_figure(edge, locale)))
    if edge.margin is not None:
        line += t(locale, "pt.edge.estimate", margin=Raw(pct(locale, edge.margin, 2)))
    return line


def edge_footer(rules: PontoonRules, locale: str = DEFAULT_LOCALE) -> str:
    """The table footer's short form, or "" while it is being computed. Every drawing of
    a table says it: it is worded once per rule set and language."""
    figures = _EDGES.get(_key(rules))
    if figures is None:
        return ""
    held = _FOOTERS.get((rules, locale))
    if held is not None and held[0] is figures:
        return held[1]
    edge = pick(rules, figures)
    text = t(locale, _key_of(edge, short=True), edge=Raw(_figure(edge, locale)))
    if edge.margin is not None:
        text += t(locale, "pt.edge.estimate", margin=Raw(pct(locale, edge.margin, 2)))
    if len(_FOOTERS) >= _MAX:
        _FOOTERS.clear()
    _FOOTERS[(rules, locale)] = (figures, text)
    return text
