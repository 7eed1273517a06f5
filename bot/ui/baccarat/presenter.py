"""Shows Punto Banco tables in Discord: the betting message with its buttons, the coup
dealt card by card in one edited message, the payout summary, the odds.

The service (bot/baccarat.py) calls this after every committed change; nothing here
changes a game. The text builders are plain functions so they can be tested without
Discord.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

import discord

from bot import i18n
from bot.baccarat import BaccaratService, BaccaratTable, Phase
from bot.i18n import DEFAULT_LOCALE, Raw, choose, from_english, t
from bot.i18n.languages import languages_of
from engine.cards import Card
from engine.punto_banco import (
    Bet,
    BetOutcome,
    CoupResult,
    PuntoBancoRules,
    Shoe,
    Side,
    exact_odds_for_counts,
    odds_for,
)
from engine.records import Transfer

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

SIDE_LABEL = {Side.PUNTO: "Punto", Side.BANCO: "Banco", Side.EGALITE: "Egalité"}
SIDE_EMOJI = {Side.PUNTO: "🔵", Side.BANCO: "🔴", Side.EGALITE: "🟢"}
BUTTON_ID = re.compile(r"pb:(?P<table>[0-9a-f]+):(?P<act>[a-z]+):(?P<round>[0-9]+)")


class BaccaratButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=BUTTON_ID.pattern,
):
    """Every button of a betting message: ``pb:{table}:{act}:{round}``. The id carries the
    table and the coup being bet on, so buttons work after a restart and a button of an
    earlier betting window is refused politely."""

    def __init__(
        self,
        table_id: str,
        act: str,
        round_no: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or act,
                style=style,
                custom_id=f"pb:{table_id}:{act}:{round_no}",
                disabled=disabled,
                emoji=emoji,
            )
        )
        self.table_id = table_id
        self.act = act
        self.round_no = round_no

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls,
        interaction: Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> BaccaratButton:
        return cls(match["table"], match["act"], int(match["round"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        from cogs.baccarat import handle_button  # the cog owns what a click does

        await handle_button(interaction, self.table_id, self.act, self.round_no)


# (act, label message id, style, emoji) of the betting message's buttons, in order.
BUTTONS: list[tuple[str, str, discord.ButtonStyle, str | None]] = [
    ("punto", "pb.side.punto", discord.ButtonStyle.primary, None),
    ("banco", "pb.side.banco", discord.ButtonStyle.danger, None),
    ("egalite", "pb.side.egalite", discord.ButtonStyle.success, None),
    ("repeat", "pb.button.repeat", discord.ButtonStyle.secondary, "🔁"),
    ("withdraw", "pb.button.withdraw", discord.ButtonStyle.secondary, None),
    ("odds", "pb.button.odds", discord.ButtonStyle.secondary, None),
]


def betting_view(
    live: BaccaratTable,
    *,
    closed: bool = False,
    round_no: int | None = None,
    locale: str = DEFAULT_LOCALE,
) -> discord.ui.View:
    """The buttons of a betting message (``round_no``: the coup it was for, default the
    coup being bet on now), labelled in the server's language."""
    view = discord.ui.View(timeout=None)
    for act, label, style, emoji in BUTTONS:
        view.add_item(
            BaccaratButton(
                live.table_id,
                act,
                live.round if round_no is None else round_no,
                label=t(locale, label),
                style=style,
                emoji=emoji,
                disabled=closed and act != "odds",
            )
        )
    return view


# ---------------------------------------------------------------------- text builders
def side_label(locale: str, side: Side) -> str:
    return t(locale, f"pb.side.{side.value}")


def pct(value: Fraction | float, digits: int = 2, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.pct(locale, value, digits)


def chips(n: int, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.num(locale, n)


def signed(n: int, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.signed(locale, n)


def _packs(locale: str, packs: int) -> str:
    return t(locale, "pb.packs.one" if packs == 1 else "pb.packs.other", packs=packs)


def rules_line(rules: PuntoBancoRules, locale: str = DEFAULT_LOCALE) -> str:
    return t(
        locale,
        "pb.rules",
        packs=_packs(locale, rules.packs),
        tableau=t(locale, f"pb.tableau.{rules.tableau}"),
        min=rules.min_bet,
        max=rules.max_bet,
        commission=rules.banco_commission_pct,
        tie=rules.tie_pays,
    )


def _bet(locale: str, side: Side, amount: int) -> str:
    return t(locale, "pb.bet", side=side_label(locale, side), amount=amount)


def bets_lines(live: BaccaratTable, bets: Sequence[Bet], locale: str = DEFAULT_LOCALE) -> list[str]:
    by_bettor: dict[str, list[str]] = {}
    for bet in bets:
        by_bettor.setdefault(bet.bettor, []).append(_bet(locale, bet.side, bet.amount))
    return [
        t(locale, "pb.bets.line", name=live.name(seat), bets=", ".join(parts))
        for seat, parts in by_bettor.items()
    ]


def side_totals(bets: Sequence[Bet], locale: str = DEFAULT_LOCALE) -> str:
    totals = dict.fromkeys(Side, 0)
    for bet in bets:
        totals[bet.side] += bet.amount
    return " · ".join(_bet(locale, s, totals[s]) for s in Side)


def betting_embed(
    live: BaccaratTable,
    *,
    closed_reason: str | None = None,
    idle_windows: int | None = None,
    round_no: int | None = None,
    bets: Sequence[Bet] | None = None,
    locale: str = DEFAULT_LOCALE,
) -> discord.Embed:
    """The table message of a betting window (open, dealing, or the table closed).
    ``round_no`` and ``bets``: those of a window that has closed (default: the current)."""
    rules = live.engine.rules
    if bets is None:
        bets = live.engine.bets
    title = t(locale, "pb.title", coup=live.round if round_no is None else round_no)
    if closed_reason is not None:
        desc = t(locale, "pb.closed", reason=from_english(locale, closed_reason))
        colour = discord.Colour.dark_grey()
    elif round_no is not None or live.phase is Phase.DEALING or live.closes_at is None:
        desc = t(locale, "pb.dealing")
        colour = discord.Colour.dark_gold()
    else:
        desc = t(locale, "pb.open", closes=Raw(str(int(live.closes_at))))
        if live.empty_windows and idle_windows:
            left = max(idle_windows - live.empty_windows, 0)
            desc += "\n" + t(locale, choose(left, "pb.idle.one", "pb.idle.other"), left=left)
        colour = discord.Colour.dark_green()
    em = discord.Embed(title=title, description=desc, colour=colour)
    lines = bets_lines(live, bets, locale)
    em.add_field(
        name=t(locale, "pb.bets.field", totals=side_totals(bets, locale)),
        value="\n".join(lines)[:1024] if lines else t(locale, "pb.bets.none"),
        inline=False,
    )
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        advice = t(
            locale,
            "pb.commission.advice.ok"
            if rules.max_bet >= multiple
            else "pb.commission.advice.small",
            multiple=multiple,
        )
        em.add_field(
            name=t(locale, "pb.commission.field"),
            value=t(
                locale,
                "pb.commission.text",
                paid=100 - rules.banco_commission_pct,
                advice=advice,
            ),
            inline=False,
        )
    em.set_footer(
        text=t(
            locale,
            "pb.footer",
            rules=rules_line(rules, locale),
            cards=len(live.engine.shoe),
            table=live.table_id,
        )
    )
    return em


def hand_text(cards: Sequence[Card]) -> str:
    return "  ".join(c.pretty for c in cards) if cards else "—"


def total_of(cards: Sequence[Card]) -> int:
    return sum(c.baccarat_value for c in cards) % 10


def deal_text(result: CoupResult, shown: int, locale: str = DEFAULT_LOCALE) -> str:
    """The coup message after ``shown`` cards have been turned (B-DEAL-1 order)."""
    coup = result.coup
    dealt = coup.dealt[:shown]
    punto = [c for s, c in dealt if s is Side.PUNTO]
    banco = [c for s, c in dealt if s is Side.BANCO]
    lines = [
        t(locale, "pb.deal.head", coup=result.coup_no)
        + (t(locale, "pb.deal.reshuffled") if result.shuffled else "")
    ]
    for side, cards in ((Side.PUNTO, punto), (Side.BANCO, banco)):
        lines.append(
            t(
                locale,
                "pb.deal.hand",
                emoji=SIDE_EMOJI[side],
                side=side_label(locale, side),
                cards=hand_text(cards),
                total=total_of(cards),
            )
        )
    p2, b2 = total_of(coup.punto[:2]), total_of(coup.banco[:2])
    finished = shown >= len(coup.dealt)
    if coup.punto_third is not None and shown >= 5:
        lines.append(t(locale, "pb.deal.punto_draws", total=p2))
    if finished:
        if coup.natural:
            lines.append(t(locale, "pb.deal.natural"))
        else:
            if coup.punto_third is None:
                lines.append(t(locale, "pb.deal.punto_stands", total=p2))
            rule = "B-BANCO-1" if coup.punto_third is None else "B-BANCO-2"
            key = "pb.deal.banco_draws" if coup.banco_third is not None else "pb.deal.banco_stands"
            lines.append(t(locale, key, total=b2, rule=rule))
        if coup.winner is Side.EGALITE:
            lines.append(t(locale, "pb.deal.tie", punto=coup.punto_total, banco=coup.banco_total))
        else:
            lose = coup.banco_total if coup.winner is Side.PUNTO else coup.punto_total
            win = coup.punto_total if coup.winner is Side.PUNTO else coup.banco_total
            lines.append(
                t(
                    locale,
                    "pb.deal.wins",
                    side=side_label(locale, coup.winner),
                    win=win,
                    lose=lose,
                )
            )
    else:
        lines.append("…")
    return "\n".join(lines)


def banco_note(rules: PuntoBancoRules, stake: int, won: int, locale: str = DEFAULT_LOCALE) -> str:
    exact = Fraction(stake * (100 - rules.banco_commission_pct), 100)
    if exact.denominator == 1:
        return t(locale, "pb.note.exact", commission=rules.banco_commission_pct, amount=stake - won)
    return t(
        locale,
        "pb.note.rounded",
        stake=stake,
        paid=100 - rules.banco_commission_pct,
        exact=Decimal(exact.numerator) / Decimal(exact.denominator),
        won=won,
    )


def summary_embed(
    live: BaccaratTable,
    result: CoupResult,
    balances: dict[str, int],
    *,
    late: bool = False,
    locale: str = DEFAULT_LOCALE,
) -> discord.Embed:
    """Payouts of a coup: each bettor's bets (side, stake, result), net and new balance."""
    rules = live.engine.rules
    coup = result.coup
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
    em.description = t(
        locale,
        "pb.summary.hands",
        punto_cards=hand_text(coup.punto),
        punto=coup.punto_total,
        banco_cards=hand_text(coup.banco),
        banco=coup.banco_total,
    )
    by_bettor: dict[str, list[str]] = {}
    net: dict[str, int] = {}
    for r in result.settlement.results:
        bet = r.bet
        stake = _bet(locale, bet.side, bet.amount)
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
        lines.append(t(locale, "pb.bets.line", name=live.name(seat), bets="; ".join(parts) + tail))
    text = "\n".join(lines)
    if len(text) > 4000:
        text = text[:3990] + "\n…"
    em.description += (
        "\n\n" + t(locale, "pb.summary.payouts") + "\n" + (text or t(locale, "pb.summary.no_bets"))
    )
    house = -sum(net.values())
    em.set_footer(
        text=t(
            locale,
            "pb.summary.house_took" if house >= 0 else "pb.summary.house_paid",
            amount=abs(house),
        )
    )
    return em


def odds_text(
    rules: PuntoBancoRules, shoe: Shoe | None = None, locale: str = DEFAULT_LOCALE
) -> str:
    """The table's exact probabilities and house edge per bet, and the real Banco edge
    of small whole-chip stakes (winnings rounded down)."""
    odds = odds_for(rules)
    edges = odds.edges(rules)
    no_tie = 1 - odds.tie
    L = locale

    def p(value: Fraction | float, digits: int = 2) -> str:
        return pct(value, digits, L)

    lines = [
        t(
            L,
            "pb.odds.head",
            packs=_packs(L, rules.packs),
            tableau=t(L, f"pb.tableau.{rules.tableau}"),
        ),
        t(
            L,
            "pb.odds.chances",
            banco=p(odds.banco),
            punto=p(odds.punto),
            tie=p(odds.tie),
            natural=p(odds.natural),
        ),
        t(L, "pb.odds.edge_head"),
        t(
            L,
            "pb.odds.banco",
            edge=p(edges["banco"], 3),
            commission=rules.banco_commission_pct,
            decided=p(edges["banco"] / no_tie, 3),
        ),
        t(L, "pb.odds.punto", edge=p(edges["punto"], 3), decided=p(edges["punto"] / no_tie, 3)),
        t(L, "pb.odds.tie", edge=p(edges["tie"], 3), tie=rules.tie_pays),
    ]
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        candidates = {rules.min_bet, 1, 5, 10, 15, 19, multiple, 2 * multiple - 1, 100}
        stakes = sorted(s for s in candidates if rules.min_bet <= s <= rules.max_bet)[:8]
        parts = [
            t(L, "pb.odds.stake", stake=s, edge=p(odds.edges_for_stake(rules, s)["banco"], 2))
            + (t(L, "pb.odds.stake_pays", won=rules.banco_winnings(s)) if s < multiple else "")
            for s in stakes
        ]
        advice = t(
            L,
            "pb.odds.advice.ok" if rules.max_bet >= multiple else "pb.odds.advice.small",
            multiple=multiple,
        )
        lines += [
            t(L, "pb.odds.stakes_head"),
            " · ".join(parts),
            t(L, "pb.odds.warning", edge=p(edges["banco"], 2), advice=advice),
        ]
    if shoe is not None and not shoe.needs_shuffle:
        now = exact_odds_for_counts(shoe.value_counts(), rules.tableau)
        lines.append(
            t(
                L,
                "pb.odds.shoe",
                cards=len(shoe),
                banco=p(now.banco),
                punto=p(now.punto),
                tie=p(now.tie),
            )
        )
    return "\n".join(lines)


# ------------------------------------------------------------------------ presenter
class DiscordBaccaratPresenter:
    """The BaccaratService's presenter, speaking discord.py."""

    def __init__(self, bot: commands.Bot, *, card_delay: float = 0.5) -> None:
        self.bot = bot
        self.card_delay = card_delay
        self.service: BaccaratService | None = None  # set once the service exists

    def _channel(self, live: BaccaratTable) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(live.channel_id, guild_id=live.guild_id)

    async def _locale(self, live: BaccaratTable) -> str:
        """The server's language: table messages are public."""
        langs = languages_of(self.bot)
        return DEFAULT_LOCALE if langs is None else await langs.guild(live.guild_id)

    def _idle_windows(self) -> int | None:
        return self.service.timers.idle_windows if self.service else None

    async def _post_table(self, live: BaccaratTable) -> None:
        locale = await self._locale(live)
        msg = await self._channel(live).send(
            embed=betting_embed(live, idle_windows=self._idle_windows(), locale=locale),
            view=betting_view(live, locale=locale),
        )
        if self.service is not None:
            await self.service.set_message(live, msg.id)
        else:
            live.message_id = msg.id

    async def refresh(
        self,
        live: BaccaratTable,
        *,
        closed_reason: str | None = None,
        round_no: int | None = None,
        bets: Sequence[Bet] | None = None,
    ) -> None:
        """Edit the table message to the current state (post a new one if it is gone)."""
        closed = closed_reason is not None or round_no is not None or live.phase is Phase.DEALING
        locale = await self._locale(live)
        embed = betting_embed(
            live,
            closed_reason=closed_reason,
            idle_windows=self._idle_windows(),
            round_no=round_no,
            bets=bets,
            locale=locale,
        )
        view = betting_view(live, closed=closed, round_no=round_no, locale=locale)
        if live.message_id is not None:
            try:
                await (
                    self._channel(live)
                    .get_partial_message(live.message_id)
                    .edit(embed=embed, view=view)
                )
                return
            except discord.NotFound:
                log.info("table message of %s is gone; posting a new one", live.table_id)
            except discord.HTTPException:
                log.exception("could not edit the table message of %s", live.table_id)
                return
        if closed_reason is None and round_no is None:
            await self._post_table(live)

    async def repost(self, live: BaccaratTable) -> None:
        """Post the table message again at the bottom of the channel (the old one keeps
        working until the window closes)."""
        await self._post_table(live)

    async def table_opened(self, live: BaccaratTable) -> None:
        await self._post_table(live)

    async def bets_changed(self, live: BaccaratTable) -> None:
        await self.refresh(live)

    async def window_extended(self, live: BaccaratTable) -> None:
        await self.refresh(live)

    async def betting_opened(self, live: BaccaratTable) -> None:
        await self._post_table(live)

    async def coup_dealt(
        self, live: BaccaratTable, result: CoupResult, balances: dict[str, int]
    ) -> None:
        channel = self._channel(live)
        # betting closed: the window's message keeps its bets, its buttons go off
        await self.refresh(
            live, round_no=result.coup_no, bets=[r.bet for r in result.settlement.results]
        )
        locale = await self._locale(live)
        shown = 4 if self.card_delay <= 0 else 1
        msg = await channel.send(deal_text(result, shown, locale))
        while shown < len(result.coup.dealt):
            await asyncio.sleep(self.card_delay)
            shown += 1
            try:
                await msg.edit(content=deal_text(result, shown, locale))
            except discord.HTTPException:
                log.exception("could not show card %d of coup %s", shown, result.coup_no)
        await asyncio.sleep(self.card_delay)
        await channel.send(
            embed=summary_embed(live, result, balances, locale=locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def table_closed(
        self, live: BaccaratTable, reason: str, refunds: Sequence[Transfer]
    ) -> None:
        await self.refresh(live, closed_reason=reason)
        locale = await self._locale(live)
        text = t(locale, "pb.table_closed", reason=from_english(locale, reason))
        if refunds:
            back: dict[str, int] = {}
            for transfer in refunds:
                back[transfer.dst] = back.get(transfer.dst, 0) + transfer.amount
            text += t(
                locale,
                "pb.table_closed.refunds",
                refunds=", ".join(
                    t(locale, "pb.refund", name=live.name(seat), amount=n)
                    for seat, n in back.items()
                ),
            )
        else:
            text += t(locale, "pb.table_closed.none")
        try:
            await self._channel(live).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.exception("could not announce the close of %s", live.table_id)

    async def table_restored(self, live: BaccaratTable) -> None:
        """After a restart: show a coup that was settled but not shown, then the table."""
        service = self.service
        missed = service.missed_result(live) if service else None
        if service is not None and missed is not None:
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
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await service.mark_announced(live)
            live.message_id = None
            await self._post_table(live)
            return
        await self.refresh(live)


__all__ = [
    "BUTTONS",
    "BaccaratButton",
    "DiscordBaccaratPresenter",
    "betting_embed",
    "betting_view",
    "deal_text",
    "odds_text",
    "summary_embed",
]
