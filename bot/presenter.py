"""Shows table changes in Discord: the table message, public posts, private cards by DM.

The service calls this after every committed change. Nothing here changes a game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot import render
from bot.service import LiveTable, member_of_seat
from engine.pontoon.types import HOUSE, ActionKind, EventKind, Outcome, Phase

if TYPE_CHECKING:
    from bot.app import PontoonBot

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
REFRESH_RETRIES = 6  # re-render a table message whose edit failed, after 5, 10, 15... s
REFRESH_RETRY_SECONDS = 5.0
INTERACTION_TTL = 14 * 60  # followup tokens live 15 minutes


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"pt:(?P<table>[0-9a-f]+):(?P<act>[a-z_]+):(?P<version>[0-9]+)",
):
    """Every button on a table message. The custom id carries the table, the action and the
    state version, so buttons keep working after a restart and stale ones are refused."""

    def __init__(
        self,
        table_id: str,
        act: str,
        version: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or act,
                style=style,
                custom_id=f"pt:{table_id}:{act}:{version}",
                disabled=disabled,
                row=row,
            )
        )
        self.table_id = table_id
        self.act = act
        self.version = version

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Button[discord.ui.View],
        match: object,
        /,
    ) -> TableButton:
        m = match  # re.Match[str]
        return cls(m["table"], m["act"], int(m["version"]))  # type: ignore[index]

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:  # type: ignore[override]
        from cogs.pontoon import handle_button  # the cog owns what a click does

        await handle_button(interaction, self.table_id, self.act, self.version)


# (action, label, style, row) of every button a table message may carry, in order.
BUTTONS: list[tuple[str, str, discord.ButtonStyle, int]] = [
    ("join", "Join", discord.ButtonStyle.success, 0),
    ("leave", "Leave", discord.ButtonStyle.secondary, 0),
    ("deal", "Deal", discord.ButtonStyle.primary, 0),
    ("kitty", "Kitty", discord.ButtonStyle.secondary, 0),
    ("cards", "Show my cards", discord.ButtonStyle.secondary, 0),
    ("bet", "Bet", discord.ButtonStyle.primary, 1),
    ("double", "Double", discord.ButtonStyle.danger, 1),
    ("no_double", "No double", discord.ButtonStyle.secondary, 1),
    ("shoot", "Shoot", discord.ButtonStyle.primary, 1),
    ("buy", "Buy", discord.ButtonStyle.primary, 2),
    ("twist", "Twist", discord.ButtonStyle.primary, 2),
    ("stick", "Stick", discord.ButtonStyle.success, 2),
    ("split", "Split", discord.ButtonStyle.secondary, 3),
    ("declare", "Declare", discord.ButtonStyle.success, 3),
    ("burn", "Burn", discord.ButtonStyle.danger, 3),
]

ACT_KIND: dict[str, ActionKind] = {
    "join": ActionKind.JOIN,
    "leave": ActionKind.LEAVE,
    "bet": ActionKind.BET,
    "double": ActionKind.DOUBLE,
    "no_double": ActionKind.NO_DOUBLE,
    "shoot": ActionKind.SHOOT,
    "buy": ActionKind.BUY,
    "twist": ActionKind.TWIST,
    "stick": ActionKind.STICK,
    "split": ActionKind.SPLIT,
    "declare": ActionKind.DECLARE,
    "burn": ActionKind.BURN,
    "kitty": ActionKind.KITTY,
}


def legal_union(live: LiveTable) -> set[str]:
    """Names of the buttons someone at the table may use right now."""
    eng = live.engine
    kinds: set[ActionKind] = set()
    for seat in eng.seats:
        kinds.update(la.kind for la in eng.legal_actions(seat))
    names = {name for name, kind in ACT_KIND.items() if kind in kinds}
    if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
        names.update({"join", "deal"})
        if len(eng.seats) > 0:
            names.add("leave")
    names.add("cards")
    return names


def shown_buttons(live: LiveTable) -> list[str]:
    rules = live.engine.rules
    hide = set()
    if not rules.shoot:
        hide.update({"kitty", "shoot"})
    if not rules.banker_doubles:
        hide.update({"double", "no_double"})
    if rules.burn == "off":
        hide.add("burn")
    return [b[0] for b in BUTTONS if b[0] not in hide]


def table_view(live: LiveTable, *, closed: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    enabled = set() if closed else legal_union(live)
    for name, label, style, row in BUTTONS:
        if name not in shown_buttons(live):
            continue
        view.add_item(
            TableButton(
                live.table_id,
                name,
                live.engine.version,
                label=label,
                style=style,
                disabled=name not in enabled,
                row=row,
            )
        )
    return view


class DiscordPresenter:
    """The service's Presenter, speaking discord.py."""

    def __init__(self, bot: PontoonBot) -> None:
        self.bot = bot
        self.dm_closed: set[tuple[str, str]] = set()  # (table_id, seat) already told
        self._refresh_tasks: dict[str, asyncio.Task[None]] = {}  # table id -> retry task
        # last interaction per (table, seat): a followup to it reaches the member privately
        self.last_interaction: dict[
            tuple[str, str], tuple[float, discord.Interaction[discord.Client]]
        ] = {}

    def remember(self, live: LiveTable, interaction: discord.Interaction[discord.Client]) -> None:
        self.last_interaction[(live.table_id, str(interaction.user.id))] = (
            time.monotonic(),
            interaction,
        )

    def namer(self, live: LiveTable) -> render.Namer:
        def name(seat: str) -> str:
            if seat == HOUSE:
                return "the house"
            if seat in live.names:
                return live.names[seat]
            uid = member_of_seat(seat)
            return f"<@{uid}>" if uid is not None else seat

        return name

    def embed(self, live: LiveTable, closed_reason: str | None = None) -> discord.Embed:
        text = render.table_text(
            live.engine.public_view(),
            live.engine.rules,
            self.namer(live),
            seconds_left=self.bot.service.seconds_left(live),
            closed_reason=closed_reason,
        )
        colour = (
            discord.Colour.dark_green() if closed_reason is None else discord.Colour.dark_grey()
        )
        em = discord.Embed(title=text.title, description=text.description, colour=colour)
        for head, body in text.fields:
            em.add_field(name=head[:256], value=body[:1024] or "—", inline=False)
        if text.footer:
            em.set_footer(text=text.footer)
        return em

    async def refresh_table_message(
        self, live: LiveTable, closed_reason: str | None = None
    ) -> None:
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        embed = self.embed(live, closed_reason)
        view = table_view(live, closed=closed_reason is not None)
        if live.message_id is not None:
            try:
                await channel.get_partial_message(live.message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                log.info("table message of %s is gone; posting a new one", live.table_id)
            except discord.HTTPException:
                log.exception("could not edit the table message of %s", live.table_id)
                if closed_reason is None:
                    self._refresh_later(live.table_id)
                return
        if closed_reason is not None:
            return
        msg = await channel.send(embed=embed, view=view)
        await self.bot.service.set_message(live, msg.id)

    def _refresh_later(self, table_id: str) -> None:
        """A table message left showing an older state carries buttons of an older version,
        which are all refused as stale: nobody could play on from it. Re-render it later
        (a few tries, backing off) until an edit gets through or the table is gone."""
        if table_id in self._refresh_tasks:
            return

        async def later() -> None:
            try:
                for attempt in range(REFRESH_RETRIES):
                    await asyncio.sleep(REFRESH_RETRY_SECONDS * (attempt + 1))
                    live = self.bot.service.tables.get(table_id)
                    if live is None or live.message_id is None:
                        return
                    channel = self.bot.get_partial_messageable(
                        live.channel_id, guild_id=live.guild_id
                    )
                    try:
                        await channel.get_partial_message(live.message_id).edit(
                            embed=self.embed(live), view=table_view(live)
                        )
                        return
                    except discord.NotFound:
                        self._refresh_tasks.pop(table_id, None)
                        await self.refresh_table_message(live)  # posts a new message
                        return
                    except discord.HTTPException as exc:
                        log.warning("table message of %s still not refreshed: %s", table_id, exc)
            finally:
                if self._refresh_tasks.get(table_id) is asyncio.current_task():
                    self._refresh_tasks.pop(table_id, None)

        self._refresh_tasks[table_id] = asyncio.create_task(later(), name=f"refresh-{table_id}")

    async def table_changed(self, live: LiveTable, outcome: Outcome) -> None:
        name = self.namer(live)
        banker = live.engine.banker
        private: dict[str, list[str]] = defaultdict(list)
        lines: list[str] = []
        results: list[str] = []
        for ev in outcome.events:
            if ev.to is not None:
                line = render.private_card_line(ev) if ev.kind is EventKind.CARD_DEALT else None
                if line is not None:
                    private[ev.to].append(line)
                continue
            if ev.kind is EventKind.HAND_RESULT:
                results.append(render.result_line(ev, name))
                continue
            line = render.event_line(ev, name, banker)
            if line:
                lines.append(line)
        for seat, card_lines in private.items():
            await self.send_private(live, seat, card_lines)
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        if lines:
            await self._send_chunks(channel, lines)
        if results:
            em = discord.Embed(title="Payouts", colour=discord.Colour.gold())
            em.description = "\n".join(results)[:4000]
            balances = [
                f"{name(s)}: {live.engine.balances.get(s, 0)}"
                for s in live.engine.seats
                if s != HOUSE
            ]
            em.add_field(name="Balances", value="\n".join(balances)[:1024] or "—", inline=False)
            eng = live.engine
            nxt = "the house" if eng.banker == HOUSE else name(eng.banker or "?")
            pack = (
                "the pack will be shuffled (a pontoon was seen)"
                if eng.needs_shuffle
                else "used cards go to the bottom, no shuffle"
            )
            em.add_field(
                name="Next deal", value=f"Banker: {nxt} · {pack} (P-NEXT-1/2)", inline=False
            )
            try:
                await channel.send(embed=em)
            except discord.HTTPException:
                log.exception("payout summary of %s not sent", live.table_id)
        await self.refresh_table_message(live)

    async def _send_chunks(self, channel: discord.PartialMessageable, lines: list[str]) -> None:
        chunk: list[str] = []
        size = 0
        for line in lines:
            if size + len(line) > 1800 and chunk:
                await self._safe_send(channel, "\n".join(chunk))
                chunk, size = [], 0
            chunk.append(line)
            size += len(line) + 1
        if chunk:
            await self._safe_send(channel, "\n".join(chunk))

    async def _safe_send(self, channel: discord.PartialMessageable, content: str) -> None:
        try:
            await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.exception("could not post to channel %s", channel.id)

    def hand_summary(self, live: LiveTable, seat: str) -> str:
        hands = live.engine.private_view(seat)
        if not hands:
            return "You hold no cards right now."
        out = []
        for i, hand in enumerate(hands):
            label = f"Hand {i + 1}: " if len(hands) > 1 else "Your hand: "
            out.append(label + render.hand_line(hand))
        return "\n".join(out)

    async def send_private(self, live: LiveTable, seat: str, card_lines: list[str]) -> None:
        uid = member_of_seat(seat)
        if uid is None:
            return
        channel_ref = f"<#{live.channel_id}>"
        text = (
            f"Pontoon at {channel_ref}\n"
            + "\n".join(card_lines)
            + "\n"
            + self.hand_summary(live, seat)
        )
        try:
            user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
            await user.send(text)
            return
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED_CODE:
                log.warning("DM to %s refused: %s", uid, exc)
        except discord.HTTPException:
            log.exception("DM to %s failed", uid)
        await self.dm_failed(live, seat)

    async def dm_failed(self, live: LiveTable, seat: str) -> None:
        key = (live.table_id, seat)
        if key in self.dm_closed:
            return
        self.dm_closed.add(key)
        notice = (
            "I can't send you direct messages, so your face-down cards can't reach you by DM. "
            "Press **Show my cards** on the table message whenever you want to see them."
        )
        held = self.last_interaction.get(key)
        if held is not None and time.monotonic() - held[0] < INTERACTION_TTL:
            try:
                await held[1].followup.send(notice, ephemeral=True)
                return
            except discord.HTTPException:
                log.info("followup to %s failed; telling them in the channel", seat)
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        uid = member_of_seat(seat)
        await self._safe_send(
            channel,
            f"<@{uid}>, your DMs are closed: press **Show my cards** to see your cards.",
        )

    async def table_closed(self, live: LiveTable, reason: str) -> None:
        await self.refresh_table_message(live, closed_reason=reason)
        channel = self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        await self._safe_send(
            channel, f"The Pontoon table is closed: {reason}. Any stakes in play were returned."
        )
        for key in [k for k in self.last_interaction if k[0] == live.table_id]:
            self.last_interaction.pop(key, None)
