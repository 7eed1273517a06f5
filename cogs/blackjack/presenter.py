"""Shows Blackjack tables in Discord: the table message (Components V2: the dealer's
cards, each seat's bet or hands, whose turn and its timer, the house edge, the buttons
offered now), and one result post per round.

A member's click is answered by its own handler with the table its change left, in the
click's response (:meth:`BlackjackPresenter.respond`). Start-up subscribes
:meth:`BlackjackPresenter.on_change` to the service (bot/blackjack.py), which publishes
every committed change: the table message is brought up to date through one coalescing
writer per table (cogs/table_message.py; nothing to do when the click's answer drew it)
and a settled round gets its result post, after the click is answered. Nothing here
changes a game. The words come from cogs/blackjack/text.py, the buttons from
controls.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.blackjack import BlackjackService, OpenBlackjackTable
from bot.host import Change, ChangeKind
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import languages_of
from bot.metrics import METRICS
from bot.text import shorten
from cogs.blackjack.controls import table_rows
from cogs.blackjack.text import (
    countdown,
    dealer_line,
    edge_line,
    notes_lines,
    result_text,
    rules_line,
    seat_lines,
    seat_name,
    status_line,
)
from cogs.common import GameBot
from cogs.table_message import NO_PINGS, Click, Drawing, Poster, TableMessages, clicks_answered
from engine.blackjack import BlackjackRules, Phase, RoundResult
from engine.blackjack.odds import basic_strategy, house_edge, known_house_edge, rule_alternatives
from engine.records import Transfer

log = logging.getLogger(__name__)

LAYOUT_TEXT_MAX = 4000  # Discord's limit of text across a layout message


def table_layout(
    live: OpenBlackjackTable, *, closed_reason: Msg | None = None, locale: str = DEFAULT_LOCALE
) -> discord.ui.LayoutView:
    """The table message as a layout: the round and its status, the dealer, the seats,
    what the table says, the house edge and the rules, then the buttons offered now.
    Drawn from the table's public observation (what everyone in the channel may see)."""
    seen = live.engine.observe()
    rules = live.engine.rules
    between_rounds = seen.phase in (Phase.BETTING, Phase.ROUND_OVER)
    if closed_reason is not None:
        status = t(locale, "bj.status.closed", reason=closed_reason)
        colour = discord.Colour.dark_grey()
    else:
        status = status_line(live, locale, seen=seen)
        colour = discord.Colour.dark_green() if between_rounds else discord.Colour.dark_gold()
    header = shorten(f"## {t(locale, 'bj.title', round=live.round)}\n{status}", 1000)
    dealer = "" if between_rounds else dealer_line(live, locale, seen=seen)
    seats = seat_lines(live, locale, seen=seen)
    head = t(locale, "bj.seats.head", seats=len(seen.seats))
    body = "\n".join(seats) if seats else t(locale, "bj.seats.none")
    # what the table says about the round being played (a settled round's notes are
    # in its result post, not under the next round's title)
    playing = seen.phase in (Phase.INSURANCE, Phase.PLAYING)
    notes = "\n".join(notes_lines(live, locale)) if playing else ""
    info = edge_line(rules, locale)
    footer = "-# " + shorten(t(locale, "bj.footer", rules=rules_line(rules, locale)), 400)
    used = len(header) + len(dealer) + len(notes) + len(info) + len(footer)
    seats_text = shorten(f"**{head}**\n{body}", max(60, LAYOUT_TEXT_MAX - used - 20))
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=colour)
    box.add_item(discord.ui.TextDisplay(header))
    if dealer:
        box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(dealer))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(seats_text))
    if notes:
        box.add_item(discord.ui.TextDisplay(shorten(notes, 600)))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(info))
    box.add_item(discord.ui.TextDisplay(footer))
    for row in table_rows(live, closed=closed_reason is not None, locale=locale):
        box.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view


def _odds_of(rules: BlackjackRules) -> None:
    """Compute (and so remember) what /blackjack odds shows for ``rules``."""
    house_edge(BlackjackRules())  # the usual table it is set against
    rule_alternatives(rules)
    basic_strategy(rules)


async def _work_out_edge(rules: BlackjackRules) -> bool:
    """The house edge of ``rules``, worked out off the event loop unless it is known
    (True: it was worked out now)."""
    if known_house_edge(rules) is not None:
        return False
    await asyncio.to_thread(house_edge, rules)
    return True


class BlackjackPresenter:
    """The BlackjackService's presenter, speaking discord.py."""

    def __init__(self, bot: GameBot, service: BlackjackService) -> None:
        self.bot = bot
        self.service = service
        self.messages: TableMessages[OpenBlackjackTable] = TableMessages(
            bot, self._draw, self._posted, self._close_table
        )
        self._warming: set[BlackjackRules] = set()  # rule sets whose odds are on their way
        self._tasks: set[asyncio.Task[None]] = set()

    def warm_odds(self, rules: BlackjackRules) -> None:
        """In the background, off the event loop, once per rule set: the house edge (the
        table messages drawn before it was known are drawn again with it), then what
        /blackjack odds says and draws, so the command answers at once."""
        if rules in self._warming:
            return
        self._warming.add(rules)
        task = asyncio.create_task(self._warm(rules), name="blackjack-odds")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _warm(self, rules: BlackjackRules) -> None:
        try:
            if await _work_out_edge(rules):
                self.messages.redraw_awaiting()
            await asyncio.to_thread(_odds_of, rules)
        except Exception:
            log.exception("could not compute the odds of %r", rules)
        finally:
            self._warming.discard(rules)

    def check_after_restart(self, tables: list[OpenBlackjackTable]) -> None:
        """After a restart, in the background (the bot's close() cancels it before the
        HTTP session closes): the odds of the tables' rule sets, each round settled but
        not posted, and the table messages that do not show their table and its
        countdown drawn again (see
        :meth:`cogs.table_message.TableMessages.check_restored`)."""
        self.messages.after_restart(self._restart_check(tables), "blackjack-restart-check")

    async def _restart_check(self, tables: list[OpenBlackjackTable]) -> None:
        for rules in {live.engine.rules for live in tables}:
            # the house edge first: a message drawn now shows it, rather than being
            # drawn again, with all the others, once known
            try:
                await _work_out_edge(rules)
            except Exception:
                log.exception("could not compute the house edge of %r", rules)
            self.warm_odds(rules)
        await self.messages.check_restored(tables, missed=self.table_restored)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.messages.close()

    def _channel(self, live: OpenBlackjackTable) -> Poster:
        """Where posts go: the table's channel, or follow-ups where the bot may only
        answer interactions (see cogs/table_message.py)."""
        return self.messages.channel(live)

    def _locale_now(self, live: OpenBlackjackTable) -> str:
        langs = languages_of(self.bot)
        chosen = self.messages.locale(live)  # a table outside servers: its opener's
        if chosen is not None or langs is None:
            return chosen or DEFAULT_LOCALE
        return langs.guild_now(live.guild_id)

    async def _locale(self, live: OpenBlackjackTable) -> str:
        langs = languages_of(self.bot)
        chosen = self.messages.locale(live)  # a table outside servers: its opener's
        if chosen is not None or langs is None:
            return chosen or DEFAULT_LOCALE
        return await langs.guild(live.guild_id)

    def _draw(self, live: OpenBlackjackTable, closed_reason: Msg | None) -> Drawing:
        layout = table_layout(live, closed_reason=closed_reason, locale=self._locale_now(live))
        closed = closed_reason is not None
        awaiting = not closed and known_house_edge(live.engine.rules) is None
        if awaiting:  # the table shows the house edge once it is known
            self.warm_odds(live.engine.rules)
        return Drawing(
            layout,
            final=closed,
            awaiting=awaiting,
            deadline=None if closed else countdown(live),
        )

    async def _close_table(self, table_id: str, reason: Msg) -> None:
        """Close a table its messages can no longer reach, every stake returned."""
        await self.service.close(table_id, reason)

    async def _posted(self, live: OpenBlackjackTable, message_id: int) -> None:
        await self.service.set_message(live, message_id)

    async def repost(self, live: OpenBlackjackTable) -> None:
        """/blackjack table: the table message again at the bottom of the channel; the old
        one is retired to a note that points below."""
        await self.messages.repost(live, moved=t(await self._locale(live), "table.moved"))

    async def on_change(self, change: Change[OpenBlackjackTable]) -> None:
        """A committed change, as the service publishes it: a new table is posted; a
        closed one is drawn closed and its refunds said; a move brings the table message
        up to date (nothing to do when the click that made it was answered with it) and
        a settled round gets its one result post, after the click is answered."""
        live = change.table
        if change.kind is ChangeKind.OPENED:
            self.warm_odds(live.engine.rules)
            await self.messages.repost(live)
        elif change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            await self.table_closed(live, change.reason, change.transfers)
        elif change.kind is ChangeKind.MOVE:
            await self.messages.show(live, change.version)
            results = [o.result for o in change.outcomes if o.result is not None]
            if results:
                await self.round_settled(live, results[-1])

    async def respond(
        self,
        click: Click,
        change: Change[OpenBlackjackTable],
        otherwise: str | None = None,
    ) -> None:
        """Answer a member's click from the change it made: the table that change left,
        in the click's own response (see
        :meth:`cogs.table_message.TableMessages.respond`)."""
        await self.messages.respond(click, change.table, otherwise)

    async def round_settled(self, live: OpenBlackjackTable, result: RoundResult) -> None:
        """The round's one result post, once the click that ended it is answered: the
        dealer's cards, each hand's result, each seat's net and balance; then the round
        is marked shown (a restart does not post it again)."""
        METRICS.round_played("blackjack")
        await clicks_answered(live.table_id)
        try:
            balances = await self.service.balances_of(live, (h.seat for h in result.hands))
        except Exception:
            log.exception(
                "table %s: could not read the balances after round %d",
                live.table_id,
                result.round_no,
            )
            balances = {}
        locale = await self._locale(live)
        await self._channel(live).send(
            shorten(result_text(live, result, balances, locale), 2000), allowed_mentions=NO_PINGS
        )
        await self.service.mark_announced(live, result.round_no)

    async def table_closed(
        self, live: OpenBlackjackTable, reason: Msg, refunds: Sequence[Transfer]
    ) -> None:
        self.messages.request(live, closed_reason=reason)
        locale = await self._locale(live)
        text = t(locale, "bj.table_closed", reason=reason)
        if refunds:
            back: dict[str, int] = {}
            for transfer in refunds:
                back[transfer.dst] = back.get(transfer.dst, 0) + transfer.amount
            text += "\n" + t(
                locale,
                "bj.table_closed.refunds",
                refunds=", ".join(
                    t(locale, "bj.refund", name=seat_name(live, seat), amount=n)
                    for seat, n in back.items()
                ),
            )
        try:
            await self._channel(live).send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("could not announce the close of %s", live.table_id)

    async def table_restored(self, live: OpenBlackjackTable) -> bool:
        """After a restart: post a round that was settled but not shown, then the table
        anew (True); False when there was none (the table message is the restart
        check's)."""
        service = self.service
        missed = service.missed_result(live)
        if missed is not None:
            locale = await self._locale(live)
            await self._channel(live).send(
                shorten(result_text(live, missed, {}, locale, late=True), 2000),
                allowed_mentions=NO_PINGS,
            )
            await service.mark_announced(live, missed.round_no)
            await self.messages.repost(live, moved=t(locale, "table.moved"))
            return True
        return False


__all__ = ["BlackjackPresenter", "table_layout"]
