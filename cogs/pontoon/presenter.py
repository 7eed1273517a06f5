"""Shows table changes in Discord: the table message, public posts, private cards by DM.

The service calls this after every committed change. Nothing here changes a game.
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

from bot.i18n import DEFAULT_LOCALE, Raw, from_english, t
from bot.i18n.languages import languages_of
from bot.metrics import METRICS
from bot.pontoon import CardDelivery, OpenPontoonTable, PontoonService, member_of_seat
from cogs.common import CURRENT_CLICK, GameBot, display
from cogs.pontoon import render
from cogs.pontoon.controls import table_view
from engine.pontoon.types import Event, EventKind, Outcome, Phase
from engine.records import HOUSE

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
REFRESH_RETRIES = 6  # re-render a table message whose edit failed, after 5, 10, 15... s
REFRESH_RETRY_SECONDS = 5.0
INTERACTION_TTL = 14 * 60  # followup tokens live 15 minutes
RESTART_CHECK_SECONDS = 0.05
NO_PINGS = discord.AllowedMentions.none()
FIRST_CARD_PHASES = (Phase.KITTY, Phase.BETTING, Phase.DOUBLING, Phase.SHOOTING)
#: public events that are not lines of the round's log: results go in the result post,
#: the bank passing or sold is announced with it
NOT_LOGGED = frozenset(
    {EventKind.HAND_RESULT, EventKind.ROUND_OVER, EventKind.BANK_PASSES, EventKind.BANK_SOLD}
)
SEAT_ID = re.compile(r"(?<![<@#&\d])\d{15,21}(?!\d)")


class TableWriter:
    """Edits table messages for changes no click answered (timers, slash commands, forms):
    at most one edit in flight per table, and the state drawn is the latest when the edit
    is sent, so a burst of changes costs one or two edits, not one each."""

    def __init__(self, presenter: PontoonDiscordPresenter) -> None:
        self.presenter = presenter
        self._pending: dict[str, tuple[OpenPontoonTable, str | None]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._shown: dict[str, object] = {}  # table id -> key of what the message shows
        self._clicked_during: set[str] = set()  # a click updated the message mid-edit

    def request(self, live: OpenPontoonTable, closed_reason: str | None = None) -> None:
        prev = self._pending.get(live.table_id)
        if prev is not None and prev[1] is not None and closed_reason is None:
            closed_reason = prev[1]  # a closed table stays closed
        self._pending[live.table_id] = (live, closed_reason)
        if live.table_id not in self._tasks:
            self._tasks[live.table_id] = asyncio.create_task(
                self._run(live.table_id), name=f"table-writer-{live.table_id}"
            )

    def shown(self, table_id: str, key: object) -> None:
        """A click's answer put ``key`` on the message."""
        self._shown[table_id] = key
        if table_id in self._tasks:
            self._clicked_during.add(table_id)

    def busy(self, table_id: str) -> bool:
        return table_id in self._tasks

    async def flush(self, table_id: str) -> None:
        task = self._tasks.get(table_id)
        if task is not None:
            await asyncio.shield(task)

    async def close(self) -> None:
        """Stop every edit in flight (at shutdown, before the HTTP session closes): the
        tables are saved, and the next start redraws what its messages do not show."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._pending.clear()

    async def _draw(self, live: OpenPontoonTable, closed_reason: str | None, failures: int) -> bool:
        """One draw; any exception (a network error that is no discord.HTTPException, a
        timeout, a closed session) is a failed draw to retry, logged once per streak."""
        try:
            return await self.presenter.draw(live, closed_reason, writer=self)
        except Exception as exc:
            if failures == 0:
                log.warning(
                    "could not draw the table message of %s (%s: %s); retrying",
                    live.table_id,
                    type(exc).__name__,
                    exc,
                )
            else:
                log.debug("table message of %s still failing: %r", live.table_id, exc)
            return False

    async def _run(self, table_id: str) -> None:
        try:
            failures = 0
            while table_id in self._pending:
                live, closed_reason = self._pending.pop(table_id)
                self._clicked_during.discard(table_id)
                ok = await self._draw(live, closed_reason, failures)
                if not ok:
                    failures += 1
                    if failures > REFRESH_RETRIES:
                        log.warning(
                            "gave up drawing the table message of %s for now; the next "
                            "change or restart draws it",
                            table_id,
                        )
                        return
                    self._pending.setdefault(table_id, (live, closed_reason))
                    await asyncio.sleep(REFRESH_RETRY_SECONDS * failures)
                    continue
                failures = 0
                if table_id in self._clicked_during:
                    # a click's answer and this edit crossed: draw once more, latest wins
                    self._clicked_during.discard(table_id)
                    self._pending.setdefault(table_id, (live, closed_reason))
        finally:
            self._tasks.pop(table_id, None)


class PontoonDiscordPresenter:
    """The service's Presenter, speaking discord.py."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.service: PontoonService | None = None  # set by start-up (bot.app)
        self.dm_closed: set[tuple[str, str]] = set()  # (table_id, seat) already told
        self.writer = TableWriter(self)
        # a round's results until its last move posts them (moves of one click or timer)
        self.results: dict[str, list[str]] = {}
        self._post_locks: dict[str, asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._restart_check: asyncio.Task[None] | None = None
        # last interaction per (table, seat): a followup to it reaches the member privately
        self.last_interaction: dict[
            tuple[str, str], tuple[float, discord.Interaction[discord.Client]]
        ] = {}

    def remember(
        self, live: OpenPontoonTable, interaction: discord.Interaction[discord.Client]
    ) -> None:
        self.last_interaction[(live.table_id, str(interaction.user.id))] = (
            time.monotonic(),
            interaction,
        )

    def guild_locale(self, live: OpenPontoonTable) -> str:
        """The language of the table's public messages: the server's."""
        langs = languages_of(self.bot)
        return DEFAULT_LOCALE if langs is None else langs.guild_now(live.guild_id)

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

    def embed(self, live: OpenPontoonTable, closed_reason: str | None = None) -> discord.Embed:
        eng = live.engine
        locale = self.guild_locale(live)
        seconds_left = self.bot.pontoon.seconds_left(live)
        dealer: str | None = None
        if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
            nxt = eng.next_banker if eng.phase is Phase.ROUND_OVER else eng.banker
            dealer = nxt or (str(live.opener_id) if str(live.opener_id) in eng.seats else None)
        text = render.table_text(
            eng.public_view(),
            eng.rules,
            self.namer(live),
            deadline_epoch=int(time.time() + seconds_left) if seconds_left is not None else None,
            closed_reason=closed_reason,
            waiting_on=eng.to_act(),
            dealer=dealer,
            log=self.log_lines(live, locale),
            cards_by_dm=live.cards is CardDelivery.DM,
            locale=locale,
        )
        colour = (
            discord.Colour.dark_green() if closed_reason is None else discord.Colour.dark_grey()
        )
        em = discord.Embed(title=text.title, description=text.description, colour=colour)
        for head, body in text.fields:
            em.add_field(name=head, value=body, inline=False)
        if text.footer:
            em.set_footer(text=text.footer)
        return em

    def _render(
        self, live: OpenPontoonTable, closed_reason: str | None
    ) -> tuple[discord.Embed, discord.ui.View, object]:
        embed = self.embed(live, closed_reason)
        view = table_view(live, closed=closed_reason is not None, locale=self.guild_locale(live))
        key = (str(embed.to_dict()), str(view.to_components()))
        return embed, view, key

    async def draw(
        self, live: OpenPontoonTable, closed_reason: str | None, *, writer: TableWriter
    ) -> bool:
        """Edit (or post) the table message with the table as it is now. False: try later."""
        embed, view, key = self._render(live, closed_reason)
        if live.message_id is not None and writer._shown.get(live.table_id) == key:
            return True  # the message already shows this
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        if live.message_id is not None:
            try:
                await channel.get_partial_message(live.message_id).edit(
                    embed=embed, view=view, allowed_mentions=NO_PINGS
                )
                writer._shown[live.table_id] = key
                return True
            except discord.NotFound:
                log.info("table message of %s is gone; posting a new one", live.table_id)
            except discord.HTTPException as exc:
                log.warning("could not edit the table message of %s: %s", live.table_id, exc)
                return closed_reason is not None
        if closed_reason is not None:
            return True
        try:
            msg = await channel.send(embed=embed, view=view, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.warning("could not post the table message of %s: %s", live.table_id, exc)
            return False
        writer._shown[live.table_id] = key
        await self.bot.pontoon.set_message(live, msg.id)
        return True

    async def refresh_table_message(
        self, live: OpenPontoonTable, closed_reason: str | None = None
    ) -> None:
        """Redraw the table message through the writer (within the limits) and wait."""
        self.writer.request(live, closed_reason)
        await self.writer.flush(live.table_id)

    def check_after_restart(self, tables: list[OpenPontoonTable]) -> None:
        """Start the restart re-check of these tables' messages in the background (the
        bot's close() cancels it before the HTTP session closes)."""
        self._restart_check = asyncio.create_task(
            self.redraw_stale(tables), name="pontoon-restart-check"
        )

    async def close(self, grace: float = 2.0) -> None:
        """At shutdown, before the HTTP session closes: stop the restart re-check and the
        table edits in flight, give posts and DMs already under way ``grace`` seconds,
        then stop them too. Nothing here is lost: the tables are saved, and the next
        start redraws any message that does not show its table."""
        check, self._restart_check = self._restart_check, None
        if check is not None:
            check.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await check
        await self.writer.close()
        pending = list(self._background)
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            for task in late:
                task.cancel()
            for task in late:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def redraw_stale(self, tables: list[OpenPontoonTable]) -> None:
        """After a restart, check each table's message (a GET, outside the channel's
        message bucket), at most 20 a second to stay far from the global limit."""
        for live in tables:
            try:
                await self.redraw_if_stale(live)
            except Exception:
                log.exception("could not check the table message of %s", live.table_id)
            await asyncio.sleep(RESTART_CHECK_SECONDS)

    async def redraw_if_stale(self, live: OpenPontoonTable) -> None:
        """After a restart: redraw only a table whose message may show an older state
        (its buttons carry the state version) or is gone."""
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
        ids = [
            getattr(c, "custom_id", "") or ""
            for row in msg.components
            for c in getattr(row, "children", [])
        ]
        if not ids or not all(i.endswith(current) for i in ids if i.startswith("pt:")):
            self.writer.request(live)

    async def _answer_click(self, live: OpenPontoonTable) -> bool:
        """Answer the member's click with the new table (UPDATE_MESSAGE). False when this
        change has no click to ride on."""
        click = CURRENT_CLICK.get()
        if click is None or click.done or click.table_id != live.table_id:
            return False
        interaction = click.interaction
        msg = interaction.message
        if msg is None or live.message_id is None or msg.id != live.message_id:
            return False
        if not click.claim():
            return False
        embed, view, key = self._render(live, None)
        try:
            await interaction.response.edit_message(
                embed=embed, view=view, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.warning("update of %s on its click failed: %s", live.table_id, exc)
            return False
        click.updated = True
        self.writer.shown(live.table_id, key)
        return True

    def log_lines(self, live: OpenPontoonTable, locale: str) -> list[str]:
        """The round's moves as the table message lists them, from the log the service
        saves with the table (so it is whole after a restart)."""
        name = self.namer(live, locale)
        lines = []
        for logged in live.round_log:
            ev = logged.event
            if ev.kind in NOT_LOGGED:
                continue
            line = self._log_line(ev, name, logged.banker, logged.by_timer, locale)
            if line:
                lines.append(self.name_ids(live, line, locale))
        return lines

    async def table_changed(self, live: OpenPontoonTable, outcome: Outcome) -> None:
        """One committed change: the table message first (on the click when there is one,
        else through the writer), then DMs and at most one public post, in the background
        so no member's answer waits behind them."""
        locale = self.guild_locale(live)
        name = self.namer(live, locale)
        banker = live.engine.banker
        results = self.results.setdefault(live.table_id, [])
        private: dict[str, list[str]] = defaultdict(list)
        announcements: list[str] = []
        finished = False
        for ev in outcome.events:
            if ev.to is not None:
                if ev.kind is EventKind.CARD_DEALT and dm_wanted(live, ev.to):
                    line = render.private_card_line(ev, self.member_locale(live, ev.to))
                    if line is not None:
                        private[ev.to].append(line)
                continue
            if ev.kind is EventKind.HAND_RESULT:
                results.append(render.result_line(ev, name, locale))
            elif ev.kind is EventKind.ROUND_OVER:
                finished = True
                METRICS.round_played("pontoon")
            elif ev.kind in (EventKind.BANK_PASSES, EventKind.BANK_SOLD):
                line = render.event_line(ev, name, banker, locale)
                if line:
                    announcements.append(self.name_ids(live, line, locale))
            # the other public events are the round's log (live.round_log), drawn with
            # the table message
        if not await self._answer_click(live):
            self.writer.request(live)
        results = self.results.pop(live.table_id, []) if finished else []
        # DMs go out per member, posts per table: neither waits behind the other
        for seat, card_lines in private.items():
            self._in_background(f"dm:{seat}", self.send_private(live, seat, card_lines))
        if results:
            self._in_background(
                f"post:{live.table_id}",
                self._post_result(live, results, announcements, name, locale),
            )
        elif announcements:
            channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
            self._in_background(
                f"post:{live.table_id}",
                self._safe_send(channel, render.shorten("\n".join(announcements), 2000)),
            )

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
        lock = self._post_locks.setdefault(key, asyncio.Lock())

        async def run() -> None:
            async with lock:
                try:
                    await coro
                except Exception:
                    log.exception("sending %s failed", key)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _post_result(
        self,
        live: OpenPontoonTable,
        results: list[str],
        announcements: list[str],
        name: render.Namer,
        locale: str = DEFAULT_LOCALE,
    ) -> None:
        """The round's one result post: every hand's result, balances, the next deal."""
        L = locale
        eng = live.engine
        em = discord.Embed(title=t(L, "pt.payouts"), colour=discord.Colour.gold())
        em.description = render.shorten("\n".join(results), 4000)
        balances = [
            t(L, "pt.balance_line", name=name(s), chips=eng.balances.get(s, 0))
            for s in eng.seats
            if s != HOUSE
        ]
        em.add_field(
            name=t(L, "pt.balances"),
            value=render.shorten("\n".join(balances), 1024) or "—",
            inline=False,
        )
        nxt_seat = eng.next_banker if eng.phase is Phase.ROUND_OVER else eng.banker
        nxt = name(nxt_seat or "?")
        pack = t(L, "pt.next.shuffle" if eng.needs_shuffle else "pt.next.no_shuffle")
        news = "\n".join(announcements)
        em.add_field(
            name=t(L, "pt.next_deal"),
            value=render.shorten(
                (news + "\n" if news else "") + t(L, "pt.next.line", banker=nxt, pack=pack), 1024
            ),
            inline=False,
        )
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        try:
            await channel.send(embed=em, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("result of %s not sent", live.table_id)

    async def _safe_send(self, channel: discord.abc.Messageable, content: str) -> None:
        try:
            await channel.send(content, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("could not post to channel %s", getattr(channel, "id", "?"))

    def hand_summary(self, live: OpenPontoonTable, seat: str, locale: str | None = None) -> str:
        """A member's own cards, for them only (in their language)."""
        L = self.member_locale(live, seat) if locale is None else locale
        hands = live.engine.private_view(seat)
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
            await dm.send(render.shorten(text, 2000), allowed_mentions=NO_PINGS)
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
                await held[1].followup.send(notice, ephemeral=True)
                return
            except discord.HTTPException:
                log.info("followup to %s failed; telling them in the channel", seat)
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        locale = self.guild_locale(live)
        name = self.namer(live, locale)(seat)
        await self._safe_send(channel, t(locale, "pt.dm.closed_public", name=name))

    def _closed_text(self, live: OpenPontoonTable, reason: str) -> str:
        locale = self.guild_locale(live)
        return t(locale, "pt.table_closed", reason=from_english(locale, reason))

    async def table_closed(self, live: OpenPontoonTable, reason: str) -> None:
        self.writer.request(live, closed_reason=reason)
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        self._in_background(
            f"post:{live.table_id}",
            self._safe_send(
                channel,
                render.shorten(self._closed_text(live, reason), 2000),
            ),
        )
        for key in [k for k in self.last_interaction if k[0] == live.table_id]:
            self.last_interaction.pop(key, None)
        self.results.pop(live.table_id, None)


def dm_wanted(live: OpenPontoonTable, seat: str) -> bool:
    """Whether face-down cards dealt to ``seat`` in this change go out by DM (issue 9:
    every DM is a request of its own, so only the ones a member needs):

    - none at a table opened with ``cards: button`` (members look with Show my cards);
    - a player's first card is shown in their Bet form and by Show my cards, so it rides
      in one DM with the second card (P-DEAL-1, P-DEAL-3), and later ones (buys, splits)
      come as they are dealt;
    - the banker's cards are turned face up in the banker's turn (P-BANKER-1) and the
      banker decides nothing before it, so the banker gets no DM, except the first card
      under P-VAR-3, looked at to choose whether to double all bets.
    """
    eng = live.engine
    if live.cards is not CardDelivery.DM:
        return False
    if seat == eng.banker:
        return eng.phase is Phase.DOUBLING
    return eng.phase not in FIRST_CARD_PHASES
