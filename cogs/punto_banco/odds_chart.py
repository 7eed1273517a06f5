"""Punto Banco's own chart: the house edge of each side, which ``/baccarat odds`` shows
with ``chart: True`` (drawn in a worker thread through cogs/stats.py's ``chart_file``)."""

from __future__ import annotations

import logging

import discord

from bot import charts
from bot.i18n import pct
from cogs.common import Interaction
from cogs.stats import chart_file
from engine.punto_banco import PuntoBancoRules, odds_for

log = logging.getLogger(__name__)

#: the sides as the table shows them: blue Punto, red Banco, green Egalité
ODDS_COLOURS = ("#c8202f", "#3a6fd8", "#2e9d4a")


def odds_png(rules: PuntoBancoRules, locale: str) -> bytes:
    edges = odds_for(rules).edges(rules)
    return charts.bar_chart(
        ["Banco", "Punto", "Egalité"],
        [float(edges[k]) * 100 for k in ("banco", "punto", "tie")],
        fmt_number=lambda v: pct(locale, v / 100, 2),
        colours=ODDS_COLOURS,
    )


async def send_odds_chart(
    interaction: Interaction, text: str, rules: PuntoBancoRules, locale: str
) -> None:
    """/baccarat odds with ``chart``: the numbers, and the house edges drawn beside them."""
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await chart_file("odds.png", odds_png, rules, locale)
        await interaction.followup.send(text, file=file, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer /baccarat odds with a chart")
