"""High Card's presenter: the table message (through cogs/table_message.py, the answer
path every game shares) and one post per draw with its cards and what each stake won."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.host import Change, ChangeKind
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import languages_of
from cogs.common import GameBot
from cogs.table_message import NO_PINGS, Click, Drawing, TableMessages
from engine.records import HOUSE, Transfer
from tests.fourth_game.bot.highcard import HighCardService, OpenHighCardTable
from tests.fourth_game.cogs.highcard.controls import table_rows
from tests.fourth_game.engine.highcard import Drawn, HighCardObservation
from tests.fourth_game.engine.highcard.table import card_of

log = logging.getLogger(__name__)


def card_text(code: str) -> str:
    return card_of(code).pretty


def seat_lines(
    live: OpenHighCardTable, locale: str, seen: HighCardObservation | None = None
) -> list[str]:
    """Each seat and its stake, from the table's public observation (``seen``)."""
    seen = live.engine.observe() if seen is None else seen
    return [
        t(locale, "hc.seat.staked", name=live.name(seat), amount=stake)
        if stake
        else t(locale, "hc.seat.waiting", name=live.name(seat))
        for seat, stake in seen.stakes
    ]


def result_lines(live: OpenHighCardTable, drawn: Sequence[Drawn], locale: str) -> list[str]:
    """The draw as members read it: the house's card, then each stake's card and result."""
    lines = []
    for d in drawn:
        if d.seat == HOUSE:
            lines.append(t(locale, "hc.draw.house", card=card_text(d.card)))
            continue
        key = "hc.draw.won" if d.net > 0 else "hc.draw.lost" if d.net < 0 else "hc.draw.push"
        lines.append(t(locale, key, name=live.name(d.seat), card=card_text(d.card), amount=d.stake))
    return lines


def table_layout(
    live: OpenHighCardTable, locale: str, closed_reason: Msg | None = None
) -> discord.ui.LayoutView:
    seen = live.engine.observe()  # what everyone in the channel may see
    head = t(locale, "hc.title", round=live.round)
    status = (
        t(locale, "hc.closed", reason=closed_reason)
        if closed_reason is not None
        else t(locale, "hc.open", low=live.engine.rules.min_bet, high=live.engine.rules.max_bet)
    )
    seats = "\n".join(seat_lines(live, locale, seen)) or t(locale, "hc.seats.none")
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=discord.Colour.dark_green()
    )
    box.add_item(discord.ui.TextDisplay(f"## {head}\n{status}"))
    box.add_item(discord.ui.TextDisplay(seats))
    if seen.last:
        box.add_item(discord.ui.TextDisplay("\n".join(result_lines(live, seen.last, locale))))
    for row in table_rows(live, locale, closed=closed_reason is not None):
        box.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view


class HighCardPresenter:
    def __init__(self, bot: GameBot, service: HighCardService) -> None:
        self.bot = bot
        self.service = service
        self.messages: TableMessages[OpenHighCardTable] = TableMessages(
            bot, self._draw, self._posted
        )

    def _locale(self, live: OpenHighCardTable) -> str:
        langs = languages_of(self.bot)
        return DEFAULT_LOCALE if langs is None else langs.guild_now(live.guild_id)

    def _draw(self, live: OpenHighCardTable, closed_reason: Msg | None) -> Drawing:
        layout = table_layout(live, self._locale(live), closed_reason)
        return Drawing(layout, final=closed_reason is not None)

    async def _posted(self, live: OpenHighCardTable, message_id: int) -> None:
        await self.service.set_message(live, message_id)

    def redraw(self, live: OpenHighCardTable) -> None:
        self.messages.request(live)

    def check_after_restart(self, tables: list[OpenHighCardTable]) -> None:
        self.messages.after_restart(self.messages.check_restored(tables), "highcard-restart")

    async def close(self) -> None:
        await self.messages.close()

    async def respond(
        self, click: Click, change: Change[OpenHighCardTable], otherwise: str | None = None
    ) -> None:
        await self.messages.respond(click, change.table, otherwise)

    async def on_change(self, change: Change[OpenHighCardTable]) -> None:
        live = change.table
        if change.kind is ChangeKind.OPENED:
            await self.messages.repost(live)
        elif change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            await self.table_closed(live, change.reason, change.transfers)
        elif change.kind is ChangeKind.SAVED:
            self.messages.request(live)
        else:
            await self.messages.show(live, change.version)
            drawn = [e for e in change.events if isinstance(e, Drawn)]
            if drawn:
                await self.post(
                    live,
                    t(self._locale(live), "hc.draw.head", round=live.round - 1)
                    + "\n"
                    + "\n".join(result_lines(live, drawn, self._locale(live))),
                )

    async def table_closed(
        self, live: OpenHighCardTable, reason: Msg, refunds: Sequence[Transfer]
    ) -> None:
        self.messages.request(live, closed_reason=reason)
        returned = sum(transfer.amount for transfer in refunds)
        await self.post(
            live, t(self._locale(live), "hc.table_closed", reason=reason, amount=returned)
        )

    async def post(self, live: OpenHighCardTable, text: str) -> None:
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        try:
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("could not post to the channel of %s", live.table_id)


__all__ = ["HighCardPresenter", "table_layout"]
