"""Shows table changes in Discord: the table message, public posts, private cards by DM.

Start-up subscribes :meth:`PontoonDiscordPresenter.on_change` to the service, which
publishes every committed change; a member's click is answered by its handler from the
change it made (:meth:`PontoonDiscordPresenter.respond`). Nothing here changes a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import defaultdict
from collections.abc import Coroutine
from typing import Any

import discord

from bot.host import Change, ChangeKind, KeyedLocks
from bot.i18n import DEFAULT_LOCALE, Msg, Raw, t
from bot.i18n.languages import languages_of
from bot.metrics import METRICS
from bot.pontoon import (
    ROUND_LOG_MAX,
    CardDelivery,
    LoggedEvent,
    OpenPontoonTable,
    PontoonService,
    member_of_seat,
)
from bot.text import shorten
from cogs.common import GameBot, display
from cogs.pontoon import render
from cogs.pontoon.controls import row_components, table_rows
from cogs.pontoon.edge import edge_of, known_edge
from cogs.router import custom_ids
from cogs.table_message import NO_PINGS, Click, Drawing, Poster, TableMessages
from engine.pontoon.rules import PontoonRules
from engine.pontoon.types import Event, EventKind, Phase
from engine.pontoon.views import Observation
from engine.records import COMPUTER_PREFIX, HOUSE, is_computer_seat

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
INTERACTION_TTL = 14 * 60  # followup tokens live 15 minutes
RESTART_CHECK_SECONDS = 0.05
#: public events that are not lines of the round's log: results go in the result post,
#: the bank passing or sold is announced with it
NOT_LOGGED = frozenset(
    {EventKind.HAND_RESULT, EventKind.ROUND_OVER, EventKind.BANK_PASSES, EventKind.BANK_SOLD}
)
SEAT_ID = re.compile(rf"(?<![<@#&:\d])(?:\d{{15,21}}|{re.escape(COMPUTER_PREFIX)}\d+)(?!\d)")
#: the tables (per language) whose log lines are remembered, the most recently drawn:
#: a table drawn again after that formats the dozen lines it shows once more, and the
#: thousands of quiet tables of a large process keep none
LOG_CACHE_KEPT = 512


class PontoonDiscordPresenter:
    """The service's Presenter, speaking discord.py."""

    def __init__(self, bot: GameBot, service: PontoonService) -> None:
        self.bot = bot
        self.service = service
        self.dm_closed: set[tuple[str, str]] = set()  # (table_id, seat) already told
        # the table messages: a click answered with the new table, the rest coalesced
        self.writer: TableMessages[OpenPontoonTable] = TableMessages(
            bot, self._render, self._posted, self._close_table
        )
        # the log lines of the tables drawn most recently (LOG_CACHE_KEPT), per locale:
        # an event is formatted once while its table is in use
        self._log_cache: dict[tuple[str, str], dict[int, tuple[LoggedEvent, str | None]]] = {}
        self._post_locks = KeyedLocks()
        self._background: set[asyncio.Task[None]] = set()
        self._warming: set[PontoonRules] = set()  # rule sets whose house edge is on its way
        # per (table, seat): when the member's last interaction came and its followup
        # webhook (a followup reaches the member privately); the interaction itself, with
        # its message, is not kept
        self.last_interaction: dict[tuple[str, str], tuple[float, discord.Webhook]] = {}
        self._expiry: asyncio.TimerHandle | None = None

    async def _close_table(self, table_id: str, reason: Msg) -> None:
        """Close a table its messages can no longer reach, every stake returned."""
        await self.service.close(table_id, reason)

    async def _posted(self, live: OpenPontoonTable, message_id: int) -> None:
        await self.service.set_message(live, message_id)

    async def respond(
        self, click: Click, change: Change[OpenPontoonTable], otherwise: str | None = None
    ) -> None:
        """Answer a member's click from the change it made: the table that change left,
        in the click's own response (see
        :meth:`cogs.table_message.TableMessages.respond`)."""
        await self.writer.respond(click, change.table, otherwise)

    def remember(
        self, live: OpenPontoonTable, interaction: discord.Interaction[discord.Client]
    ) -> None:
        """Keep the member's interaction for a followup (the notice that their DMs are
        closed) while Discord takes one: dropped when the followup window closes, and not
        kept at all at a table that sends no DM (``cards: button``)."""
        if live.cards is not CardDelivery.DM:
            return
        key = (live.table_id, str(interaction.user.id))
        kept = self.last_interaction
        kept.pop(key, None)  # re-inserted last: the dict stays oldest first
        kept[key] = (time.monotonic(), interaction.followup)
        if self._expiry is None:
            self._expiry = asyncio.get_running_loop().call_later(INTERACTION_TTL, self._expire)

    def _expire(self) -> None:
        """Drop the interactions whose followup window has closed (the oldest come first),
        and come back when the next one's does."""
        self._expiry = None
        kept, now = self.last_interaction, time.monotonic()
        while kept:
            key, (at, _) = next(iter(kept.items()))
            if now - at < INTERACTION_TTL:
                self._expiry = asyncio.get_running_loop().call_later(
                    at + INTERACTION_TTL - now, self._expire
                )
                return
            del kept[key]

    def guild_locale(self, live: OpenPontoonTable) -> str:
        """The language of the table's public messages: the server's (outside servers,
        its opener's)."""
        langs = languages_of(self.bot)
        chosen = self.writer.locale(live)
        if chosen is not None or langs is None:
            return chosen or DEFAULT_LOCALE
        return langs.guild_now(live.guild_id)

    def member_locale(self, live: OpenPontoonTable, seat: str) -> str:
        """The language of a seated member's private messages (DMs)."""
        langs = languages_of(self.bot)
        uid = member_of_seat(seat)
        if langs is None or uid is None:
            return self.guild_locale(live)
        return langs.member_now(uid, live.guild_id)

    def namer(self, live: OpenPontoonTable, locale: str | None = None) -> render.Namer:
        """Seat -> the member's display name, markdown-escaped, never a mention or an id."""
        L = self.guild_locale(live) if locale is None else locale

        def name(seat: str) -> str:
            if seat == HOUSE:
                return t(L, "pt.house")
            if is_computer_seat(seat):
                n = seat.removeprefix(COMPUTER_PREFIX)  # a number: in the locale's digits
                return t(L, "pt.computer", n=int(n) if n.isdigit() else n)
            raw = live.names.get(seat)
            if raw is None:
                uid = member_of_seat(seat)
                guild = self.bot.get_guild(live.guild_id)
                member = guild.get_member(uid) if guild is not None and uid else None
                raw = member.display_name if member is not None else t(L, "pt.a_player")
            return display(raw)

        return name

    def name_ids(self, live: OpenPontoonTable, text: str, locale: str | None = None) -> str:
        """Engine messages carry seat ids: say them as names."""
        name = self.namer(live, locale)
        return SEAT_ID.sub(lambda m: name(m.group(0)), text)

    def parts(self, live: OpenPontoonTable, closed_reason: Msg | None = None) -> render.TableParts:
        """What the table message says now, in the server's language: drawn from the
        table's public observation (what everyone in the channel may see)."""
        seen = live.engine.observe()
        view = seen.table
        locale = self.guild_locale(live)
        seconds_left = self.service.seconds_left(live)
        dealer: str | None = None
        if view.phase in (Phase.WAITING, Phase.ROUND_OVER):
            nxt = seen.next_banker if view.phase is Phase.ROUND_OVER else view.banker
            opener = str(live.opener_id)
            dealer = nxt or (opener if any(sv.seat == opener for sv in view.seats) else None)
        return render.table_parts(
            view,
            live.engine.rules,
            self.namer(live),
            # to the nearest second: a clock resumed after a restart to the moment its
            # message shows (a whole second) is shown as that same moment
            deadline_epoch=round(time.time() + seconds_left) if seconds_left is not None else None,
            closed_reason=closed_reason,
            waiting_on=seen.waiting_on,
            dealer=dealer,
            log=self.log_lines(live, locale),
            cards_by_dm=live.cards is CardDelivery.DM,
            locale=locale,
            # the most new stake the banker can still cover (P-PAY-LIMIT) while bets and
            # buys are open, so the table can say why a maximum is lower or Buy is greyed
            cover=seen.cover_room,
        )

    def layout(
        self, live: OpenPontoonTable, closed_reason: Msg | None = None
    ) -> discord.ui.LayoutView:
        """The table laid out as a table (Discord's layout components): one container,
        the header (phase, whose move, countdown), the banker's block, the seats, the
        round's log, the footer, then the buttons in action rows. At most 40 components
        and 4,000 characters at the largest table, in every language."""
        return self._lay_out(live, self.parts(live, closed_reason), closed_reason)

    def _lay_out(
        self, live: OpenPontoonTable, parts: render.TableParts, closed_reason: Msg | None
    ) -> discord.ui.LayoutView:
        locale = self.guild_locale(live)
        closed = closed_reason is not None
        rows = table_rows(live, closed=closed, locale=locale)
        # the container, header, banker, log, footer and three separators; the rest of
        # Discord's 40 components is for the seats' texts
        fixed = 1 + 1 + 1 + 1 + 1 + 3 + row_components(rows)
        blocks = render.table_blocks(
            parts, groups=max(1, render.LAYOUT_COMPONENTS_MAX - fixed), locale=locale
        )
        colour = (
            discord.Colour.dark_green() if closed_reason is None else discord.Colour.dark_grey()
        )
        box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=colour
        )
        box.add_item(discord.ui.TextDisplay(blocks.header))
        if blocks.banker:
            box.add_item(discord.ui.Separator())
            box.add_item(discord.ui.TextDisplay(blocks.banker))
        if blocks.seats:
            box.add_item(discord.ui.Separator())
            for text in blocks.seats:
                box.add_item(discord.ui.TextDisplay(text))
        if blocks.log:
            box.add_item(discord.ui.Separator())
            box.add_item(discord.ui.TextDisplay(blocks.log))
        if blocks.footer:
            box.add_item(discord.ui.TextDisplay(blocks.footer))
        for row in rows:
            box.add_item(row)
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(box)
        return view

    def _render(self, live: OpenPontoonTable, closed_reason: Msg | None) -> Drawing:
        rules = live.engine.rules
        awaiting = closed_reason is None and known_edge(rules) is None
        if awaiting:  # the footer gets the house edge once it is known
            self.warm_edge(rules)
        parts = self.parts(live, closed_reason)
        return Drawing(
            self._lay_out(live, parts, closed_reason), awaiting=awaiting, deadline=parts.deadline
        )

    def warm_edge(self, rules: PontoonRules) -> None:
        """In the background, off the event loop: the house edge of ``rules`` (about half
        a second of CPU, once per rule set); the table messages drawn before it was known
        are drawn again with it."""
        if known_edge(rules) is not None or rules in self._warming:
            return
        self._warming.add(rules)

        async def work() -> None:
            try:
                if await edge_of(rules) is not None:
                    self.writer.redraw_awaiting()
            finally:
                self._warming.discard(rules)

        self._in_background("pontoon-house-edge", work())

    def check_after_restart(self, tables: list[OpenPontoonTable]) -> None:
        """Start the restart re-check of these tables' messages in the background (the
        bot's close() cancels it before the HTTP session closes; see
        :meth:`cogs.table_message.TableMessages.check_restored`: a message confirmed to
        show its table, countdown included, is not read at all; one that may be stale
        is read back, at most 20 a second to stay far from the global limit), after the
        house edge of their rule sets (their messages show it already: they are not
        drawn for it). A round that ended before the restart without its result post
        out gets it now."""
        self.writer.after_restart(self._restart_check(tables), "pontoon-restart-check")
        if any(live.result_due is not None for live in tables):
            self._in_background("results-after-restart", self._post_due_results(tables))

    async def _post_due_results(self, tables: list[OpenPontoonTable]) -> None:
        for live in await self.service.results_due(tables):
            result = self.result_post(live, self.round_news(live))
            if result is not None:
                self._in_background(f"post:{live.table_id}", result)

    async def _restart_check(self, tables: list[OpenPontoonTable]) -> None:
        # the figures first (once per rule set, off the event loop): a message drawn now
        # shows its edge, rather than being drawn again, with all the others, once known
        for rules in {live.engine.rules for live in tables}:
            await edge_of(rules)
        await self.writer.check_restored(
            tables, read_back=self.redraw_if_stale, pause=RESTART_CHECK_SECONDS
        )

    async def close(self, grace: float = 2.0) -> None:
        """At shutdown, before the HTTP session closes: stop the restart re-check and the
        table edits in flight, give posts and DMs already under way ``grace`` seconds,
        then stop them too. Nothing here is lost: the tables are saved, and the next
        start redraws any message that does not show its table."""
        await self.writer.close()
        pending = list(self._background)
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            for task in late:
                task.cancel()
            for task in late:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def repost(self, live: OpenPontoonTable) -> None:
        """/pontoon table: the table message again, at the bottom of the channel; the old
        one is retired to a note that points below."""
        await self.writer.repost(live, moved=t(self.guild_locale(live), "table.moved"))

    def redraw(self, live: OpenPontoonTable) -> None:
        """Draw the table message again (the server's language changed)."""
        self.writer.request(live)

    async def redraw_if_stale(self, live: OpenPontoonTable) -> None:
        """After a restart, for a table whose message may be stale and that runs no clock:
        read the message (a GET, outside the channel's message bucket) and redraw it
        only if it shows an older state (its buttons carry the state version) or is
        gone."""
        if live.message_id is None:
            self.writer.request(live)
            return
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        try:
            msg = await channel.fetch_message(live.message_id)
        except discord.HTTPException:
            self.writer.request(live)
            return
        current = f":{live.engine.version}"
        ids = sorted(custom_ids(msg.components))
        if not ids or not all(i.endswith(current) for i in ids if i.startswith("pt:")):
            self.writer.request(live)
        else:
            self.writer.confirm(live)  # the next restart need not read it again

    def log_lines(self, live: OpenPontoonTable, locale: str) -> list[str]:
        """The newest moves of the round as the table message lists them (at most
        ``render.LOG_LINES_MAX``), from the log the service saves with the table (so it is
        whole after a restart). Each event is formatted once per language and remembered
        while the table is among the :data:`LOG_CACHE_KEPT` drawn most recently, and only
        the visible tail is looked at: a redraw costs the same at move 10 and at move
        1,000, and a quiet table keeps no lines."""
        which = (live.table_id, locale)
        cache = self._log_cache.pop(which, None)
        if cache is None:
            cache = {}
        self._log_cache[which] = cache  # (re-inserted last: the least recently drawn go first)
        if len(self._log_cache) > LOG_CACHE_KEPT:
            del self._log_cache[next(iter(self._log_cache))]
        if len(cache) > 2 * ROUND_LOG_MAX:  # lines of rounds gone: keep what is still logged
            keep = {id(logged) for logged in live.round_log}
            for key in [k for k in cache if k not in keep]:
                del cache[key]
        name: render.Namer | None = None
        lines: list[str] = []
        for logged in reversed(live.round_log):
            held = cache.get(id(logged))
            if held is not None and held[0] is logged:
                line = held[1]
            else:
                if name is None:
                    name = self.namer(live, locale)
                line = self._format_logged(live, logged, name, locale)
                cache[id(logged)] = (logged, line)
            if line:
                lines.append(line)
                if len(lines) >= render.LOG_LINES_MAX:
                    break
        lines.reverse()
        return lines

    def _format_logged(
        self, live: OpenPontoonTable, logged: LoggedEvent, name: render.Namer, locale: str
    ) -> str | None:
        ev = logged.event
        if ev.kind is EventKind.ROUND_OVER and not any(
            lg.event.kind is EventKind.HAND_RESULT for lg in live.round_log
        ):  # the round ended with no hand to settle: nobody bet in time
            return t(locale, "pt.nobody_bet")
        if ev.kind in NOT_LOGGED:
            return None
        line = self._log_line(ev, name, logged.banker, logged.by_timer, locale)
        return self.name_ids(live, line, locale) if line else None

    async def on_change(self, change: Change[OpenPontoonTable]) -> None:
        """A committed change, as the service publishes it: a closed table is drawn
        closed and said; a saved one drawn again; a move is :meth:`table_changed`."""
        live = change.table
        if change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            await self.table_closed(live, change.reason)
        elif change.kind is ChangeKind.MOVE:
            await self.table_changed(live, change)
        else:
            self.writer.request(live)

    async def table_changed(
        self, live: OpenPontoonTable, outcome: Change[OpenPontoonTable]
    ) -> None:
        """One committed move: its DMs at once; then, once the member's click that made
        it is answered (with the table it left), the table message through the writer
        (nothing to do when that answer drew it) and at most one public post. Posts and
        DMs go in the background, so no member's answer waits behind them."""
        locale = self.guild_locale(live)
        name = self.namer(live, locale)
        # what the change left as each member dealt a face-down card sees it, built once
        # for the change (and as everyone sees it, once, when a post needs it)
        dealt_to = {
            ev.to for ev in outcome.events if ev.to is not None and ev.kind is EventKind.CARD_DEALT
        }
        dm = bool(dealt_to) and live.cards is CardDelivery.DM
        seen = live.engine.observations(dealt_to) if dm else {}

        private: dict[str, list[str]] = defaultdict(list)
        announcements: list[str] = []
        finished = False
        for ev in outcome.events:
            if ev.to is not None:
                if ev.kind is EventKind.CARD_DEALT and dm_wanted(live, ev.to, seen.get(ev.to)):
                    line = render.private_card_line(ev, self.member_locale(live, ev.to))
                    if line is not None:
                        private[ev.to].append(line)
                continue
            if ev.kind is EventKind.ROUND_OVER:
                finished = True
                METRICS.round_played("pontoon")
            elif ev.kind in (EventKind.BANK_PASSES, EventKind.BANK_SOLD):
                banker = live.engine.observe().table.banker
                news = self._news(live, ev, name, banker, locale)
                if news:
                    announcements.append(news)
            # the other public events are the round's log (live.round_log), drawn with
            # the table message
        # DMs go out per member, posts per table: neither waits behind the other
        for seat, card_lines in private.items():
            if finished and not seen[seat].hands:
                # the round ended with this card (a banker's pontoon at the deal): the
                # Payouts show every hand now, and a DM would say "no cards" beside it
                continue
            self._in_background(f"dm:{seat}", self.send_private(live, seat, card_lines))
        # the result is made now, from the round's log as this move left it
        result = self.result_post(live, announcements) if finished else None
        await self.writer.show(live, outcome.version)  # after the click's own answer
        if result is not None:
            self._in_background(f"post:{live.table_id}", result)
        elif announcements:
            channel = self.writer.channel(live)
            self._in_background(
                f"post:{live.table_id}",
                self._safe_send(channel, shorten("\n".join(announcements), 2000)),
            )

    def _news(
        self,
        live: OpenPontoonTable,
        ev: Event,
        name: render.Namer,
        banker: str | None,
        locale: str,
    ) -> str | None:
        """The line said in the channel for the bank passing or being sold (None for any
        other event: the round's log, drawn with the table message, says those)."""
        if ev.kind not in (EventKind.BANK_PASSES, EventKind.BANK_SOLD):
            return None
        passes = ev.says is not None and ev.says.key == "engine.bank_passes.from"
        if ev.kind is EventKind.BANK_PASSES and passes:
            return None  # the payouts already say who takes the bank: said once
        line = render.event_line(ev, name, banker, locale)
        return self.name_ids(live, line, locale) if line else None

    def round_news(self, live: OpenPontoonTable) -> list[str]:
        """What the round's end said besides its results (the bank passing), from the
        round's log: for a result posted after a restart."""
        logged = live.round_log
        ended = [i for i, lg in enumerate(logged) if lg.event.kind is EventKind.ROUND_OVER]
        if not ended:
            return []
        locale = self.guild_locale(live)
        name = self.namer(live, locale)
        said = (self._news(live, lg.event, name, lg.banker, locale) for lg in logged[ended[-1] :])
        return [line for line in said if line]

    @staticmethod
    def _log_line(
        ev: Event, name: render.Namer, banker: str | None, timed_out: bool, locale: str
    ) -> str | None:
        if timed_out:
            line = render.timed_out_line(ev, name, banker, locale)
            if line is not None:
                return line
        return render.event_line(ev, name, banker, locale)

    def _in_background(self, key: str, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` after the earlier ones of the same ``key`` (in order), without
        making anyone wait for it."""

        async def run() -> None:
            async with self._post_locks.hold(key):
                try:
                    await coro
                except Exception:
                    log.exception("sending %s failed", key)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def result_post(
        self, live: OpenPontoonTable, announcements: list[str]
    ) -> Coroutine[Any, Any, None] | None:
        """The round's one result post, to send in the background, made now from the
        round's log (saved with the table, as is the round whose post is due: a restart
        before the post is out loses nothing and posts it then, see
        :meth:`check_after_restart`). None when no result is due."""
        round_no = live.result_due
        if round_no is None:
            return None
        locale = self.guild_locale(live)
        name = self.namer(live, locale)
        results = [lg.event for lg in live.round_log if lg.event.kind is EventKind.HAND_RESULT]
        seats = [sv.seat for sv in live.engine.observe().table.seats]
        lines = render.result_lines(results, seats, name, locale)
        banker_net = -sum(ev.amount or 0 for ev in results)

        async def post() -> None:
            if lines:
                await self._post_result(live, lines, announcements, name, banker_net, locale)
            elif announcements:
                channel = self.writer.channel(live)
                await channel.send(
                    shorten("\n".join(announcements), 2000), allowed_mentions=NO_PINGS
                )
            await self.service.result_shown(live, round_no)

        return post()

    async def _post_result(
        self,
        live: OpenPontoonTable,
        results: list[str],
        announcements: list[str],
        name: render.Namer,
        banker_net: int,
        locale: str = DEFAULT_LOCALE,
    ) -> None:
        """The round's one result post: every hand's result, balances, the next deal,
        drawn from the table's public observation."""
        L = locale
        seen = live.engine.observe()
        view = seen.table
        em = discord.Embed(title=t(L, "pt.payouts"), colour=discord.Colour.gold())
        # the round's banker and hand from its log: the bank may have passed since
        hand = render.round_banker_hand(logged.event for logged in live.round_log)
        banker_seat = (
            hand.seat
            if hand is not None
            else next((lg.banker for lg in live.round_log if lg.banker), view.banker)
        )
        if banker_seat is not None:
            # the house's hand too: the one post a round keeps shows what beat whom
            line = render.banker_result_line(
                name(banker_seat), hand, banker_net, L, house=banker_seat == HOUSE
            )
            results = [*results, line]
        em.description = shorten("\n".join(results), 4000)
        balances = [  # a computer plays with the house's chips: no balance of its own
            t(L, "pt.balance_line", name=name(sv.seat), chips=sv.balance)
            for sv in view.seats
            if sv.seat != HOUSE and not is_computer_seat(sv.seat)
        ]
        em.add_field(
            name=t(L, "pt.balances"),
            value=shorten("\n".join(balances), 1024) or "—",
            inline=False,
        )
        nxt_seat = seen.next_banker if view.phase is Phase.ROUND_OVER else view.banker
        nxt = name(nxt_seat or "?")
        pack = t(L, "pt.next.shuffle" if view.needs_shuffle else "pt.next.no_shuffle")
        news = "\n".join(announcements)
        em.add_field(
            name=t(L, "pt.next_deal"),
            value=shorten(
                # the bank passing is said once: the news line names the new banker
                (news + "\n" + t(L, "pt.sentence", text=Raw(pack[:1].upper() + pack[1:])))
                if news
                else t(L, "pt.next.line", banker=nxt, pack=pack),
                1024,
            ),
            inline=False,
        )
        channel = self.writer.channel(live)
        await channel.send(embed=em, allowed_mentions=NO_PINGS)

    async def _safe_send(self, channel: Poster, content: str) -> None:
        try:
            await channel.send(content, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("could not post a table's message")

    def hand_summary(self, live: OpenPontoonTable, seat: str, locale: str | None = None) -> str:
        """A member's own cards, for them only (in their language): Show my cards and
        the card DM, drawn from the member's own observation."""
        L = self.member_locale(live, seat) if locale is None else locale
        hands = live.engine.observe(seat).hands
        if not hands:
            return t(L, "pt.no_cards")
        out = []
        for i, hand in enumerate(hands):
            label = t(L, "pt.hand_n", n=i + 1) if len(hands) > 1 else t(L, "pt.your_hand")
            out.append(label + render.hand_line(hand, locale=L))
        return "\n".join(out)

    async def send_private(self, live: OpenPontoonTable, seat: str, card_lines: list[str]) -> None:
        uid = member_of_seat(seat)
        if uid is None:
            return
        locale = self.member_locale(live, seat)
        text = (
            t(locale, "pt.dm.head", channel=Raw(f"<#{live.channel_id}>"))
            + "\n"
            + "\n".join(card_lines)
            + "\n"
            + self.hand_summary(live, seat, locale)
        )
        try:
            # discord.py keeps the DM channel once opened: no user lookup before each DM
            dm = await self.bot.create_dm(discord.Object(id=uid))
            await dm.send(shorten(text, 2000), allowed_mentions=NO_PINGS)
            return
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED_CODE:
                log.warning("DM to %s refused: %s", uid, exc)
        except discord.HTTPException:
            log.exception("DM to %s failed", uid)
        await self.dm_failed(live, seat)

    async def dm_failed(self, live: OpenPontoonTable, seat: str) -> None:
        key = (live.table_id, seat)
        if key in self.dm_closed:
            return
        self.dm_closed.add(key)
        notice = t(self.member_locale(live, seat), "pt.dm.closed")
        held = self.last_interaction.get(key)
        if held is not None and time.monotonic() - held[0] < INTERACTION_TTL:
            try:
                await held[1].send(notice, ephemeral=True)
                return
            except discord.HTTPException:
                log.info("followup to %s failed; telling them in the channel", seat)
        channel = self.writer.channel(live)
        locale = self.guild_locale(live)
        name = self.namer(live, locale)(seat)
        await self._safe_send(channel, t(locale, "pt.dm.closed_public", name=name))

    def _closed_text(self, live: OpenPontoonTable, reason: Msg) -> str:
        locale = self.guild_locale(live)
        return t(locale, "pt.table_closed", reason=reason)

    async def table_closed(self, live: OpenPontoonTable, reason: Msg) -> None:
        self.writer.request(live, closed_reason=reason)
        channel = self.writer.channel(live)
        self._in_background(
            f"post:{live.table_id}",
            self._safe_send(
                channel,
                shorten(self._closed_text(live, reason), 2000),
            ),
        )
        for key in [k for k in self.last_interaction if k[0] == live.table_id]:
            self.last_interaction.pop(key, None)
        for key in [k for k in self._log_cache if k[0] == live.table_id]:
            del self._log_cache[key]


def dm_wanted(live: OpenPontoonTable, seat: str, seen: Observation | None = None) -> bool:
    """Whether face-down cards dealt to ``seat`` in this change go out by DM (every
    DM is a request of its own, so only the ones a member needs):

    - none at a table opened with ``cards: button`` (members look with Show my cards);
    - a player's first card is shown in their Bet form and by Show my cards, so it rides
      in one DM with the second card (P-DEAL-1, P-DEAL-3), and later ones (buys, splits)
      come as they are dealt;
    - the banker's cards are turned face up in the banker's turn (P-BANKER-1) and the
      banker decides nothing before it, so the banker gets no DM, except the first card
      under P-VAR-3, looked at to choose whether to double all bets.

    ``seen``: the seat's observation of the change, when it was built already.
    """
    if live.cards is not CardDelivery.DM:
        return False
    return (live.engine.observe(seat) if seen is None else seen).cards_due
