"""Shows Punto Banco tables in Discord: the betting message with its buttons (a click
answered with the new table, other changes coalesced: cogs/table_message.py), each coup
as one post dealt card by card and ending with the payout summary.

Start-up subscribes :meth:`PuntoBancoPresenter.on_change` to the service
(bot/punto_banco.py), which publishes every committed change; nothing here changes a
game. Its words come from cogs/punto_banco/text.py (plain functions, tested
without Discord); the buttons from cogs/punto_banco/controls.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import NamedTuple

import discord

from bot.host import Change, ChangeKind
from bot.i18n import DEFAULT_LOCALE, Msg, Raw, t
from bot.i18n.languages import languages_of
from bot.metrics import METRICS
from bot.punto_banco import OpenPuntoBancoTable, Phase, PuntoBancoService, results_from_json
from bot.text import shorten
from cogs.common import GameBot
from cogs.punto_banco.controls import betting_rows
from cogs.punto_banco.settings import PuntoBancoSettings
from cogs.punto_banco.text import (
    banco_note,
    bet_text,
    bets_lines,
    bettor_name,
    deal_text,
    hand_line,
    hand_text,
    pct,
    rules_line,
    side_label,
    side_totals,
    signed,
)
from cogs.table_message import NO_PINGS, Click, Drawing, Poster, TableMessages
from engine.punto_banco import (
    Bet,
    BetOutcome,
    CoupResult,
    PuntoBancoObservation,
    Side,
    odds_for,
)
from engine.records import Transfer

log = logging.getLogger(__name__)

#: a summary embed's description, with room to spare under Discord's 4,096 characters
DESCRIPTION_MAX = 3900
CUT_MARK = "\n…"


# ------------------------------------------------------------------------ embeds
class BettingParts(NamedTuple):
    """What the table message of a betting window says, part by part."""

    title: str
    status: str  # open with its countdown, dealing, or closed and why
    colour: discord.Colour
    bets_head: str  # "Bets (Punto … · Banco … · Egalité …)"
    bets: list[str]  # a line per bettor
    commission: tuple[str, str] | None  # (title, text) when Banco pays commission
    footer: str


def countdown(live: OpenPuntoBancoTable) -> int | None:
    """The moment (epoch seconds) the message of the open betting window counts down to;
    None while the coup is being dealt."""
    if live.phase is Phase.DEALING or live.closes_at is None:
        return None
    return int(live.closes_at)


def betting_parts(
    live: OpenPuntoBancoTable,
    *,
    closed_reason: Msg | None = None,
    idle_windows: int | None = None,
    round_no: int | None = None,
    bets: Sequence[Bet] | None = None,
    locale: str = DEFAULT_LOCALE,
    seen: PuntoBancoObservation | None = None,
) -> BettingParts:
    """The parts of a betting window's message (open, dealing, or the table closed).
    ``round_no`` and ``bets``: those of a window that has closed (default: the current).
    Drawn from the table's public observation ``seen`` (default: the table's now)."""
    rules = live.engine.rules
    if seen is None:
        seen = live.engine.observe()
    if bets is None:
        bets = seen.bets
    title = t(locale, "pb.title", coup=live.round if round_no is None else round_no)
    closes = None if closed_reason is not None or round_no is not None else countdown(live)
    if closed_reason is not None:
        desc = t(locale, "pb.closed", reason=closed_reason)
        colour = discord.Colour.dark_grey()
    elif closes is None:
        desc = t(locale, "pb.dealing")
        colour = discord.Colour.dark_gold()
    else:
        desc = t(locale, "pb.open", closes=Raw(str(closes)))
        if live.empty_windows and idle_windows and live.empty_windows >= idle_windows - 1:
            # said only in the window that closes the table if nobody bets in it
            desc += "\n" + t(locale, "pb.idle.last")
        colour = discord.Colour.dark_green()
    commission = None
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        advice = t(
            locale,
            "pb.commission.advice.ok"
            if rules.max_bet >= multiple
            else "pb.commission.advice.small",
            multiple=multiple,
        )
        commission = (
            t(locale, "pb.commission.field"),
            t(
                locale,
                "pb.commission.text",
                paid=100 - rules.banco_commission_pct,
                advice=advice,
            ),
        )
    footer = t(
        locale,
        "pb.footer",
        rules=rules_line(rules, locale),
        cards=seen.cards_for_next_coup,
        table=live.table_id,
    )
    return BettingParts(
        title,
        desc,
        colour,
        t(locale, "pb.bets.field", totals=side_totals(bets, locale)),
        bets_lines(live, bets, locale),
        commission,
        footer,
    )


#: Discord's limit of text across a layout message's text displays
LAYOUT_TEXT_MAX = 4000


def betting_layout(
    live: OpenPuntoBancoTable,
    *,
    closed_reason: Msg | None = None,
    idle_windows: int | None = None,
    round_no: int | None = None,
    bets: Sequence[Bet] | None = None,
    locale: str = DEFAULT_LOCALE,
    seen: PuntoBancoObservation | None = None,
) -> discord.ui.LayoutView:
    """The table message as a layout (Components V2): one container with the coup and
    its betting window, the last coup's Punto and Banco hands as cards (once it has been
    shown), the bets, the commission, the odds, the rules; the buttons in two rows.
    Within Discord's 40 components and 4,000 characters, whatever the bettors. Drawn
    from the table's public observation ``seen`` (default: the table's now): every
    card in it is dealt face up (B-DEAL-1), and the shoe is not in it (B-TABLE-1)."""
    if seen is None:
        seen = live.engine.observe()
    parts = betting_parts(
        live,
        closed_reason=closed_reason,
        idle_windows=idle_windows,
        round_no=round_no,
        bets=bets,
        locale=locale,
        seen=seen,
    )
    closed = closed_reason is not None or round_no is not None
    header = shorten(f"## {parts.title}\n{parts.status}", 1000)
    hands = ""
    coup = seen.last_coup
    # the last coup's hands, once its post has shown them (never ahead of the deal)
    if (
        closed_reason is None
        and coup is not None
        and round_no is None
        and live.phase is not Phase.DEALING
        and live.announced >= seen.coup_no
    ):
        hands = "\n".join(
            [
                t(locale, "pb.deal.head", coup=seen.coup_no),
                hand_line(Side.PUNTO, coup.punto, locale),
                hand_line(Side.BANCO, coup.banco, locale),
            ]
        )
    odds = odds_for(live.engine.rules)
    odds_line = t(
        locale,
        "pb.odds.chances",
        banco=pct(odds.banco, 2, locale),
        punto=pct(odds.punto, 2, locale),
        tie=pct(odds.tie, 2, locale),
        natural=pct(odds.natural, 2, locale),
    )
    commission = f"**{parts.commission[0]}**\n{parts.commission[1]}" if parts.commission else ""
    footer = "-# " + shorten(parts.footer, 300) if parts.footer else ""
    used = len(header) + len(hands) + len(odds_line) + len(commission) + len(footer)
    head = "**" + parts.bets_head + "**"
    body = "\n".join(parts.bets) if parts.bets else t(locale, "pb.bets.none")
    bets_text = shorten(head + "\n" + body, max(60, LAYOUT_TEXT_MAX - used - 10))
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=parts.colour
    )
    box.add_item(discord.ui.TextDisplay(header))
    if hands:
        box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(hands))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(bets_text))
    if commission:
        box.add_item(discord.ui.TextDisplay(commission))
    box.add_item(discord.ui.Separator())
    box.add_item(discord.ui.TextDisplay(odds_line))
    if footer:
        box.add_item(discord.ui.TextDisplay(footer))
    for row in betting_rows(live, closed=closed, round_no=round_no, locale=locale):
        box.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    return view


def summary_embed(
    live: OpenPuntoBancoTable,
    result: CoupResult,
    balances: dict[str, int],
    *,
    late: bool = False,
    locale: str = DEFAULT_LOCALE,
) -> discord.Embed:
    """Payouts of a coup: each bettor's bets (side, stake, result), net and new balance.
    Under the coup's own post, which has just shown the hands and the result, that is all
    it says; a coup shown late (after a restart, with no such post) says its hands and
    result first."""
    coup = result.coup
    if not late:
        em = discord.Embed(
            title=t(locale, "pb.summary.payouts_title", coup=result.coup_no),
            colour=discord.Colour.gold(),
        )
        em.description = payout_lines(live, result, balances, locale) or t(
            locale, "pb.summary.no_bets"
        )
        return _house_footer(em, result, locale)
    head = (
        t(locale, "pb.summary.tie", punto=coup.punto_total, banco=coup.banco_total)
        if coup.winner is Side.EGALITE
        else t(
            locale,
            "pb.summary.wins",
            side=side_label(locale, coup.winner),
            win=max(coup.punto_total, coup.banco_total),
            lose=min(coup.punto_total, coup.banco_total),
        )
    )
    em = discord.Embed(
        title=t(locale, "pb.summary.title", coup=result.coup_no, head=head)
        + (t(locale, "pb.summary.late") if late else ""),
        colour=discord.Colour.gold(),
    )
    hands = t(
        locale,
        "pb.summary.hands",
        punto_cards=hand_text(coup.punto),
        punto=coup.punto_total,
        banco_cards=hand_text(coup.banco),
        banco=coup.banco_total,
    )
    heading = "\n\n" + t(locale, "pb.summary.payouts") + "\n"
    # the hands share the description with the payouts: the list gets what is left
    room = DESCRIPTION_MAX - len(hands) - len(heading)
    text = payout_lines(live, result, balances, locale, limit=room)
    em.description = hands + heading + (text or t(locale, "pb.summary.no_bets"))
    return _house_footer(em, result, locale)


def payout_lines(
    live: OpenPuntoBancoTable,
    result: CoupResult,
    balances: dict[str, int],
    locale: str,
    *,
    limit: int = DESCRIPTION_MAX,
) -> str:
    """One line per bettor: each bet's side, stake and result, the net and the balance;
    at most ``limit`` characters, whole lines, "…" closing a cut list."""
    rules = live.engine.rules
    by_bettor: dict[str, list[str]] = {}
    net: dict[str, int] = {}
    for r in result.settlement.results:
        bet = r.bet
        stake = bet_text(locale, bet.side, bet.amount)
        if r.outcome is BetOutcome.WIN:
            text = t(locale, "pb.summary.won", stake=stake, net=signed(r.net, locale))
            if bet.side is Side.BANCO:
                text += banco_note(rules, bet.amount, r.net, locale)
        elif r.outcome is BetOutcome.PUSH:
            text = t(locale, "pb.summary.push", stake=stake)
        else:
            text = t(locale, "pb.summary.lost", stake=stake, net=signed(r.net, locale))
        by_bettor.setdefault(bet.bettor, []).append(text)
        net[bet.bettor] = net.get(bet.bettor, 0) + r.net
    lines: list[str] = []
    for seat, parts in by_bettor.items():
        bal = balances.get(seat)
        tail = t(locale, "pb.summary.net", net=signed(net[seat], locale)) + (
            t(locale, "pb.summary.balance", balance=bal) if bal is not None else ""
        )
        lines.append(
            t(
                locale,
                "pb.bets.line",
                name=bettor_name(live, seat),
                bets=t(locale, "pb.summary.separator").join(parts) + tail,
            )
        )
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = len(CUT_MARK)
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept) + CUT_MARK if kept else CUT_MARK.strip()


def _house_footer(em: discord.Embed, result: CoupResult, locale: str) -> discord.Embed:
    house = -sum(r.net for r in result.settlement.results)
    em.set_footer(
        text=t(
            locale,
            "pb.summary.house_took" if house >= 0 else "pb.summary.house_paid",
            amount=abs(house),
        )
    )
    return em


# ------------------------------------------------------------------------ presenter
class PuntoBancoPresenter:
    """The PuntoBancoService's presenter, speaking discord.py. The table message goes
    through :class:`cogs.table_message.TableMessages` (the one answer path of every
    game): a bet, a repeat or a withdrawal clicked on the table message is answered with
    the new table in the click's own response; other changes are coalesced per table."""

    def __init__(
        self, bot: GameBot, service: PuntoBancoService, *, card_delay: float | None = None
    ) -> None:
        self.bot = bot
        if card_delay is None:  # a tenth of the betting window, at most half a second
            seconds = float(bot.settings.section(PuntoBancoSettings).betting_seconds)
            card_delay = min(0.5, seconds / 10)
        self.card_delay = card_delay
        self.service = service
        self.messages: TableMessages[OpenPuntoBancoTable] = TableMessages(
            bot, self._draw, self._posted, self._close_table
        )

    def redraw(self, live: OpenPuntoBancoTable) -> None:
        """Draw the table message again (the server's language changed)."""
        self.messages.request(live)

    def check_after_restart(self, tables: list[OpenPuntoBancoTable]) -> None:
        """After a restart, in the background (the bot's close() cancels it before the
        HTTP session closes): post each coup settled but not shown, and draw again the
        betting messages that do not show their table and its countdown (see
        :meth:`cogs.table_message.TableMessages.check_restored`)."""
        self.messages.after_restart(
            self.messages.check_restored(tables, missed=self.table_restored),
            "punto-banco-restart-check",
        )

    async def close(self) -> None:
        """At shutdown, before the HTTP session closes: stop the restart re-check and
        the table edits in flight."""
        await self.messages.close()

    def _channel(self, live: OpenPuntoBancoTable) -> Poster:
        """Where posts go: the table's channel, or follow-ups where the bot may only
        answer interactions (see cogs/table_message.py)."""
        return self.messages.channel(live)

    def _locale_now(self, live: OpenPuntoBancoTable) -> str:
        """The server's language (table messages are public), from what is in memory."""
        langs = languages_of(self.bot)
        chosen = self.messages.locale(live)  # a table outside servers: its opener's
        if chosen is not None or langs is None:
            return chosen or DEFAULT_LOCALE
        return langs.guild_now(live.guild_id)

    async def _locale(self, live: OpenPuntoBancoTable) -> str:
        """The server's language: table messages are public."""
        langs = languages_of(self.bot)
        chosen = self.messages.locale(live)  # a table outside servers: its opener's
        if chosen is not None or langs is None:
            return chosen or DEFAULT_LOCALE
        return await langs.guild(live.guild_id)

    def _idle_windows(self) -> int | None:
        return self.service.timers.idle_windows

    def _draw(self, live: OpenPuntoBancoTable, closed_reason: Msg | None) -> Drawing:
        """The table message as it stands: the betting window open, or closed with the
        bets of the coup being dealt (``live.last_results``), or the table closed."""
        locale = self._locale_now(live)
        seen = live.engine.observe()
        round_no: int | None = None
        bets: list[Bet] | None = None
        if closed_reason is None and live.phase is Phase.DEALING:
            round_no = seen.coup_no
            bets = [r.bet for r in results_from_json(live.last_results)]
        closed = closed_reason is not None or round_no is not None
        layout = betting_layout(
            live,
            closed_reason=closed_reason,
            idle_windows=self._idle_windows(),
            round_no=round_no,
            bets=bets,
            locale=locale,
            seen=seen,
        )
        return Drawing(layout, final=closed, deadline=None if closed else countdown(live))

    async def _close_table(self, table_id: str, reason: Msg) -> None:
        """Close a table its messages can no longer reach, every stake returned."""
        await self.service.close(table_id, reason)

    async def _posted(self, live: OpenPuntoBancoTable, message_id: int) -> None:
        await self.service.set_message(live, message_id)

    async def repost(self, live: OpenPuntoBancoTable) -> None:
        """/baccarat table: post the table message again at the bottom of the channel; the
        old one is retired to a note that points below."""
        await self.messages.repost(live, moved=t(await self._locale(live), "table.moved"))

    async def on_change(self, change: Change[OpenPuntoBancoTable]) -> None:
        """A committed change, as the service publishes it: a new table, or a new
        betting window (its message posted anew at the bottom); a window that opens
        again; a bet (the table message brought up to date, unless the click that made
        it was answered with it); a dealt coup; a closed table."""
        live = change.table
        if change.kind is ChangeKind.OPENED:
            await self.messages.repost(live)
        elif change.kind is ChangeKind.CLOSED:
            assert change.reason is not None
            await self.table_closed(live, change.reason, change.transfers)
        elif change.kind is ChangeKind.SAVED:
            if live.message_id is None:  # a new betting window: a new message
                await self.messages.repost(live)
            else:
                self.messages.request(live)
        else:
            coups = [o.coup for o in change.outcomes if o.coup is not None]
            if coups:
                await self.coup_dealt(live, coups[-1])
            else:
                await self.messages.show(live, change.version)

    async def respond(
        self,
        click: Click,
        change: Change[OpenPuntoBancoTable],
        otherwise: str | None = None,
    ) -> None:
        """Answer a member's click from the bet it made: the table that change left, in
        the click's own response (see :meth:`cogs.table_message.TableMessages.respond`)."""
        await self.messages.respond(click, change.table, otherwise)

    async def coup_dealt(self, live: OpenPuntoBancoTable, result: CoupResult) -> None:
        """Betting closed: the window's message keeps its bets with its buttons off; the
        coup's one post is dealt card by card and ends with the payouts (the service
        opens the next window once this is shown)."""
        METRICS.round_played("punto_banco")
        bettors = (r.bet.bettor for r in result.settlement.results)
        try:
            balances = await self.service.balances_of(live, bettors)
        except Exception:
            log.exception("could not read the balances after coup %d", result.coup_no)
            balances = {}
        channel = self._channel(live)
        self.messages.request(live)
        await self.messages.flush(live.table_id)
        locale = await self._locale(live)
        shown = 4 if self.card_delay <= 0 else 1
        msg = await channel.send(deal_text(result, shown, locale), allowed_mentions=NO_PINGS)
        if msg is None:  # the table can no longer be reached (it closes)
            return
        while shown < len(result.coup.dealt):
            await asyncio.sleep(self.card_delay)
            shown += 1
            try:
                await msg.edit(content=deal_text(result, shown, locale))
            except discord.HTTPException:
                log.exception("could not show card %d of coup %s", shown, result.coup_no)
        await asyncio.sleep(self.card_delay)
        await msg.edit(
            content=deal_text(result, shown, locale),
            embed=summary_embed(live, result, balances, locale=locale),
            allowed_mentions=NO_PINGS,
        )

    async def table_closed(
        self, live: OpenPuntoBancoTable, reason: Msg, refunds: Sequence[Transfer]
    ) -> None:
        self.messages.request(live, closed_reason=reason)
        locale = await self._locale(live)
        text = t(locale, "pb.table_closed", reason=reason)
        if refunds:
            back: dict[str, int] = {}
            for transfer in refunds:
                back[transfer.dst] = back.get(transfer.dst, 0) + transfer.amount
            text += t(
                locale,
                "pb.table_closed.refunds",
                refunds=t(locale, "perm.separator").join(
                    t(locale, "pb.refund", name=bettor_name(live, seat), amount=n)
                    for seat, n in back.items()
                ),
            )
        else:
            text += t(locale, "pb.table_closed.none")
        try:
            await self._channel(live).send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.exception("could not announce the close of %s", live.table_id)

    async def table_restored(self, live: OpenPuntoBancoTable) -> bool:
        """After a restart: show a coup that was settled but not shown, then the table
        anew (True); False when there was none (the table message is the restart
        check's)."""
        service = self.service
        missed = service.missed_result(live)
        if missed is not None:
            from bot.storage import member_account

            seats = [r.bet.bettor for r in missed.settlement.results]
            found = await service.store.balances(
                member_account(live.guild_id, int(s)) for s in seats
            )
            balances = {s: found[member_account(live.guild_id, int(s))] for s in seats}
            await self._channel(live).send(
                embed=summary_embed(
                    live, missed, balances, late=True, locale=await self._locale(live)
                ),
                allowed_mentions=NO_PINGS,
            )
            await service.mark_announced(live)
            await self.messages.repost(live)
            return True
        return False


__all__ = [
    "BettingParts",
    "PuntoBancoPresenter",
    "betting_parts",
    "countdown",
    "summary_embed",
]
