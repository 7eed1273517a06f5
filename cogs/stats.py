"""/stats [member]: a chart of a member's chips over time, with each registered game's
net and rounds, and the chart /leaderboard shows with ``chart: True``. A game's own
charts are its package's (they draw through :func:`chart_file`).

Charts are drawn by :mod:`bot.charts` in a worker thread (``asyncio.to_thread``), never
on the event loop. The picture carries numbers and dates in the reader's language; the
words (title, what the colours mean) are in the message beside it, in the reader's
language, where Discord draws every script.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from datetime import date

import discord
from babel.dates import format_skeleton
from discord import app_commands
from discord.ext import commands

from bot import charts
from bot.games import GAMES
from bot.i18n import ONE, choose, num, t
from bot.i18n.languages import locale_of
from bot.storage import member_account
from bot.storage.history import ChipHistory
from cogs.common import GameBot, display, economy_scope
from cogs.installs import everywhere, whose_chips

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]


def game_title(name: str) -> str:
    """A game's name on the chart (a proper name, the same in every language), from the
    registry as it is now (a game registered after this module was imported too)."""
    return next((game.title for game in GAMES if game.name == name), name)


_BIDI_MARKS = dict.fromkeys(map(ord, "\u200e\u200f\u061c"))


def date_text(locale: str, day: date) -> str:
    """A short numeric date in the reader's language (``25.11.2026``, ``11/25/2026``)."""
    return format_skeleton("yMd", day, locale=locale).translate(_BIDI_MARKS)


def stats_png(history: ChipHistory, locale: str) -> bytes:
    return charts.balance_chart(
        [(p.ts, p.balance) for p in history.points],
        [(game_title(g.game), g.net) for g in history.games],
        fmt_number=lambda v: num(locale, round(v)),
        fmt_date=lambda d: date_text(locale, d),
    )


def leaderboard_png(balances: Sequence[int], locale: str) -> bytes:
    return charts.bar_chart(
        [f"#{i + 1}" for i in range(len(balances))],
        list(balances),
        fmt_number=lambda v: num(locale, round(v)),
        colours=[charts.UP] * len(balances),
        horizontal=True,
    )


async def chart_file(name: str, draw: Callable[..., bytes], *args: object) -> discord.File:
    """Draw a chart in a worker thread and wrap it for sending."""
    png = await asyncio.to_thread(draw, *args)
    return discord.File(io.BytesIO(png), filename=name)


def stats_caption(locale: str, name: str, history: ChipHistory, chips: int) -> str:
    """The caption under the /stats chart; ``name`` is the member's raw display name
    (made inert here with ``display``, as every name is)."""
    L = locale
    name = display(name)
    first, last = history.points[0].ts.date(), history.points[-1].ts.date()
    lines = [
        t(L, "stats.title", name=name),
        t(
            L,
            "stats.line",
            name=name,
            first=date_text(L, first),
            last=date_text(L, last),
            chips=chips,
        ),
    ]
    if history.games:
        lines.append(t(L, "stats.games_head"))
        lines.extend(
            t(
                L,
                # "1 chip": the net is passed as signed text, so its .one form is chosen here
                choose(g.tables, "stats.game.one", "stats.game.other")
                + (ONE if abs(g.net) == 1 else ""),
                game=game_title(g.game),
                net=f"+{num(L, g.net)}" if g.net > 0 else num(L, g.net),
                tables=g.tables,
            )
            for g in history.games
        )
    lines.extend(
        t(
            L,
            "stats.rounds",
            game=game_title(r.game),
            won=r.won,
            lost=r.lost,
            pushed=r.pushed,
        )
        for r in history.rounds
    )
    if history.gifts_out or history.gifts_in:
        lines.append(t(L, "stats.gifts", given=history.gifts_out, received=history.gifts_in))
    lines.append(t(L, "stats.rounds_note"))
    return "\n".join(lines)


class Stats(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name="stats", description="A chart of your chips over time")
    @app_commands.describe(member="whose chips (yours if left out)")
    async def stats(self, interaction: Interaction, member: discord.User | None = None) -> None:
        locale = await locale_of(interaction)
        # the server's chips, or outside servers the member's own (cogs.common)
        scope = economy_scope(interaction)
        who = whose_chips(interaction, member)
        await interaction.response.defer(ephemeral=True, thinking=True)
        chips = await self.bot.store.ensure_member(scope, who.id)
        account = member_account(scope, who.id)
        history = await self.bot.store.chip_history(account)
        if not history.points:
            await interaction.followup.send(
                t(locale, "stats.empty", name=display(who.display_name)), ephemeral=True
            )
            return
        file = await chart_file("stats.png", stats_png, history, locale)
        await interaction.followup.send(
            stats_caption(locale, who.display_name, history, chips),
            file=file,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Stats(bot))
