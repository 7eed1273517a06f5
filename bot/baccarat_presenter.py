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
from fractions import Fraction
from typing import TYPE_CHECKING

import discord

from bot.baccarat import BaccaratService, BaccaratTable, Phase
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


# (act, label, style, emoji) of the betting message's buttons, in order.
BUTTONS: list[tuple[str, str, discord.ButtonStyle, str | None]] = [
    ("punto", "Punto", discord.ButtonStyle.primary, None),
    ("banco", "Banco", discord.ButtonStyle.danger, None),
    ("egalite", "Egalité", discord.ButtonStyle.success, None),
    ("repeat", "Repeat bet", discord.ButtonStyle.secondary, "🔁"),
    ("withdraw", "Take back my bets", discord.ButtonStyle.secondary, None),
    ("odds", "Odds", discord.ButtonStyle.secondary, None),
]


def betting_view(
    live: BaccaratTable, *, closed: bool = False, round_no: int | None = None
) -> discord.ui.View:
    """The buttons of a betting message (``round_no``: the coup it was for, default the
    coup being bet on now)."""
    view = discord.ui.View(timeout=None)
    for act, label, style, emoji in BUTTONS:
        view.add_item(
            BaccaratButton(
                live.table_id,
                act,
                live.round if round_no is None else round_no,
                label=label,
                style=style,
                emoji=emoji,
                disabled=closed and act != "odds",
            )
        )
    return view


# ---------------------------------------------------------------------- text builders
def pct(value: Fraction | float, digits: int = 2) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def chips(n: int) -> str:
    return f"{n:,}"


def signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else (f"−{-n:,}" if n < 0 else "±0")


def rules_line(rules: PuntoBancoRules) -> str:
    packs = "1 pack" if rules.packs == 1 else f"{rules.packs} packs"
    return (
        f"{packs} · {rules.tableau} tableau · bets {chips(rules.min_bet)}–{chips(rules.max_bet)} "
        f"· Punto 1:1 · Banco 1:1 less {rules.banco_commission_pct}% · "
        f"Egalité {rules.tie_pays}:1"
    )


def bets_lines(live: BaccaratTable, bets: Sequence[Bet]) -> list[str]:
    by_bettor: dict[str, list[str]] = {}
    for bet in bets:
        by_bettor.setdefault(bet.bettor, []).append(f"{SIDE_LABEL[bet.side]} {chips(bet.amount)}")
    return [f"{live.name(seat)}: {', '.join(parts)}" for seat, parts in by_bettor.items()]


def side_totals(bets: Sequence[Bet]) -> str:
    totals = dict.fromkeys(Side, 0)
    for bet in bets:
        totals[bet.side] += bet.amount
    return " · ".join(f"{SIDE_LABEL[s]} {chips(totals[s])}" for s in Side)


def betting_embed(
    live: BaccaratTable,
    *,
    closed_reason: str | None = None,
    idle_windows: int | None = None,
    round_no: int | None = None,
    bets: Sequence[Bet] | None = None,
) -> discord.Embed:
    """The table message of a betting window (open, dealing, or the table closed).
    ``round_no`` and ``bets``: those of a window that has closed (default: the current)."""
    rules = live.engine.rules
    if bets is None:
        bets = live.engine.bets
    title = f"Punto Banco — coup #{live.round if round_no is None else round_no}"
    if closed_reason is not None:
        desc = f"The table is closed: {closed_reason}."
        colour = discord.Colour.dark_grey()
    elif round_no is not None or live.phase is Phase.DEALING or live.closes_at is None:
        desc = "Betting is closed — the coup is dealt below."
        colour = discord.Colour.dark_gold()
    else:
        desc = (
            f"**Betting is open** — closes <t:{int(live.closes_at)}:R>.\n"
            "Press **Punto**, **Banco** or **Egalité** (or `/baccarat bet`) to bet; "
            "betting again on the same side changes your bet. **Repeat bet** places your "
            "bets of the last coup again (B-BET-1)."
        )
        if live.empty_windows and idle_windows:
            left = max(idle_windows - live.empty_windows, 0)
            desc += (
                f"\nNo bets last time: the table closes if {left} more betting "
                f"window{'s' if left != 1 else ''} pass{'es' if left == 1 else ''} without a bet."
            )
        colour = discord.Colour.dark_green()
    em = discord.Embed(title=title, description=desc, colour=colour)
    lines = bets_lines(live, bets)
    em.add_field(
        name=f"Bets ({side_totals(bets)})",
        value="\n".join(lines)[:1024] if lines else "No bets yet.",
        inline=False,
    )
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        advice = (
            f"bet multiples of {multiple} on Banco to lose nothing to rounding."
            if rules.max_bet >= multiple
            else f"with bets below {multiple} every Banco win loses a little to rounding."
        )
        em.add_field(
            name="Banco commission",
            value=(
                f"Banco wins are paid {100 - rules.banco_commission_pct}% of the stake, "
                f"**rounded down** to whole chips: {advice}"
            ),
            inline=False,
        )
    em.set_footer(
        text=f"{rules_line(rules)} · {len(live.engine.shoe)} cards in the shoe · "
        f"table {live.table_id}"
    )
    return em


def hand_text(cards: Sequence[Card]) -> str:
    return "  ".join(c.pretty for c in cards) if cards else "—"


def total_of(cards: Sequence[Card]) -> int:
    return sum(c.baccarat_value for c in cards) % 10


def deal_text(result: CoupResult, shown: int) -> str:
    """The coup message after ``shown`` cards have been turned (B-DEAL-1 order)."""
    coup = result.coup
    dealt = coup.dealt[:shown]
    punto = [c for s, c in dealt if s is Side.PUNTO]
    banco = [c for s, c in dealt if s is Side.BANCO]
    lines = [
        f"**Coup #{result.coup_no}**" + (" — the shoe was reshuffled" if result.shuffled else "")
    ]
    lines.append(f"{SIDE_EMOJI[Side.PUNTO]} Punto: {hand_text(punto)}   → **{total_of(punto)}**")
    lines.append(f"{SIDE_EMOJI[Side.BANCO]} Banco: {hand_text(banco)}   → **{total_of(banco)}**")
    p2, b2 = total_of(coup.punto[:2]), total_of(coup.banco[:2])
    finished = shown >= len(coup.dealt)
    if coup.punto_third is not None and shown >= 5:
        lines.append(f"Punto draws a third card on {p2} (B-PUNTO-1).")
    if finished:
        if coup.natural:
            lines.append("A natural: nobody draws (B-NAT-1).")
        else:
            if coup.punto_third is None:
                lines.append(f"Punto stands on {p2} (B-PUNTO-1).")
            rule = "B-BANCO-1" if coup.punto_third is None else "B-BANCO-2"
            verb = "draws a third card" if coup.banco_third is not None else "stands"
            lines.append(f"Banco {verb} on {b2} ({rule}).")
        if coup.winner is Side.EGALITE:
            lines.append(
                f"**Egalité** {coup.punto_total}–{coup.banco_total}: Egalité bets win, "
                "Punto and Banco bets are returned (B-TIE-1)."
            )
        else:
            lose = coup.banco_total if coup.winner is Side.PUNTO else coup.punto_total
            win = coup.punto_total if coup.winner is Side.PUNTO else coup.banco_total
            lines.append(f"**{SIDE_LABEL[coup.winner]} wins**, {win} to {lose}.")
    else:
        lines.append("…")
    return "\n".join(lines)


def banco_note(rules: PuntoBancoRules, stake: int, won: int) -> str:
    exact = Fraction(stake * (100 - rules.banco_commission_pct), 100)
    if exact.denominator == 1:
        return f" ({rules.banco_commission_pct}% commission: {stake - won})"
    return (
        f" ({stake} × {100 - rules.banco_commission_pct}% = {float(exact):g}, "
        f"rounded down to {won})"
    )


def summary_embed(
    live: BaccaratTable,
    result: CoupResult,
    balances: dict[str, int],
    *,
    late: bool = False,
) -> discord.Embed:
    """Payouts of a coup: each bettor's bets (side, stake, result), net and new balance."""
    rules = live.engine.rules
    coup = result.coup
    head = (
        f"Egalité {coup.punto_total}–{coup.banco_total}"
        if coup.winner is Side.EGALITE
        else f"{SIDE_LABEL[coup.winner]} wins {max(coup.punto_total, coup.banco_total)}"
        f" to {min(coup.punto_total, coup.banco_total)}"
    )
    em = discord.Embed(
        title=f"Coup #{result.coup_no}: {head}"
        + (" (result of the coup before the restart)" if late else ""),
        colour=discord.Colour.gold(),
    )
    em.description = (
        f"Punto {hand_text(coup.punto)} → {coup.punto_total} · "
        f"Banco {hand_text(coup.banco)} → {coup.banco_total}"
    )
    by_bettor: dict[str, list[str]] = {}
    net: dict[str, int] = {}
    for r in result.settlement.results:
        bet = r.bet
        stake = f"{SIDE_LABEL[bet.side]} {chips(bet.amount)}"
        if r.outcome is BetOutcome.WIN:
            text = f"{stake}: **won {signed(r.net)}**"
            if bet.side is Side.BANCO:
                text += banco_note(rules, bet.amount, r.net)
        elif r.outcome is BetOutcome.PUSH:
            text = f"{stake}: returned on the Egalité (±0)"
        else:
            text = f"{stake}: lost {signed(r.net)}"
        by_bettor.setdefault(bet.bettor, []).append(text)
        net[bet.bettor] = net.get(bet.bettor, 0) + r.net
    lines: list[str] = []
    for seat, parts in by_bettor.items():
        bal = balances.get(seat)
        tail = f" → net {signed(net[seat])}" + (
            f", balance {chips(bal)}" if bal is not None else ""
        )
        lines.append(f"{live.name(seat)}: " + "; ".join(parts) + tail)
    text = "\n".join(lines)
    if len(text) > 4000:
        text = text[:3990] + "\n…"
    em.description += "\n\n**Payouts**\n" + (text or "No bets on this coup.")
    house = -sum(net.values())
    em.set_footer(text=f"The house {'took' if house >= 0 else 'paid'} {abs(house):,} this coup.")
    return em


def odds_text(rules: PuntoBancoRules, shoe: Shoe | None = None) -> str:
    """The table's exact probabilities and house edge per bet, and the real Banco edge
    of small whole-chip stakes (winnings rounded down)."""
    odds = odds_for(rules)
    edges = odds.edges(rules)
    no_tie = 1 - odds.tie
    packs = "1 pack" if rules.packs == 1 else f"{rules.packs} packs"
    lines = [
        f"**Punto Banco odds** — {packs}, {rules.tableau} tableau "
        "(exact: every possible deal enumerated)",
        f"Banco wins {pct(odds.banco)} · Punto wins {pct(odds.punto)} · "
        f"Egalité {pct(odds.tie)} · a natural {pct(odds.natural)}",
        "**House edge** (expected loss per chip bet):",
        f"• Banco {pct(edges['banco'], 3)} (pays 1:1 less {rules.banco_commission_pct}%; "
        f"{pct(edges['banco'] / no_tie, 3)} counting only decided coups)",
        f"• Punto {pct(edges['punto'], 3)} ({pct(edges['punto'] / no_tie, 3)} counting only "
        "decided coups)",
        f"• Egalité {pct(edges['tie'], 3)} (pays {rules.tie_pays}:1)",
    ]
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        candidates = {rules.min_bet, 1, 5, 10, 15, 19, multiple, 2 * multiple - 1, 100}
        stakes = sorted(s for s in candidates if rules.min_bet <= s <= rules.max_bet)[:8]
        parts = [
            f"{s}: {pct(odds.edges_for_stake(rules, s)['banco'], 2)}"
            + (f" (a win pays {rules.banco_winnings(s)})" if s < multiple else "")
            for s in stakes
        ]
        advice = (
            f"Bet **multiples of {multiple}** on Banco to be paid in full."
            if rules.max_bet >= multiple
            else f"This table's largest bet is below {multiple}, so every Banco win here "
            "loses something to rounding."
        )
        lines += [
            "**Banco edge for a whole-chip stake** (winnings are rounded DOWN):",
            " · ".join(parts),
            f"⚠️ Banco wins are rounded down to whole chips, so small Banco bets cost far "
            f"more than {pct(edges['banco'], 2)}. {advice}",
        ]
    if shoe is not None and not shoe.needs_shuffle:
        now = exact_odds_for_counts(shoe.value_counts(), rules.tableau)
        lines.append(
            f"This shoe now ({len(shoe)} cards left): Banco {pct(now.banco)} · "
            f"Punto {pct(now.punto)} · Egalité {pct(now.tie)}"
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

    def _idle_windows(self) -> int | None:
        return self.service.timers.idle_windows if self.service else None

    async def _post_table(self, live: BaccaratTable) -> None:
        msg = await self._channel(live).send(
            embed=betting_embed(live, idle_windows=self._idle_windows()),
            view=betting_view(live),
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
        embed = betting_embed(
            live,
            closed_reason=closed_reason,
            idle_windows=self._idle_windows(),
            round_no=round_no,
            bets=bets,
        )
        view = betting_view(live, closed=closed, round_no=round_no)
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
        shown = 4 if self.card_delay <= 0 else 1
        msg = await channel.send(deal_text(result, shown))
        while shown < len(result.coup.dealt):
            await asyncio.sleep(self.card_delay)
            shown += 1
            try:
                await msg.edit(content=deal_text(result, shown))
            except discord.HTTPException:
                log.exception("could not show card %d of coup %s", shown, result.coup_no)
        await asyncio.sleep(self.card_delay)
        await channel.send(
            embed=summary_embed(live, result, balances),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def table_closed(
        self, live: BaccaratTable, reason: str, refunds: Sequence[Transfer]
    ) -> None:
        await self.refresh(live, closed_reason=reason)
        text = f"The Punto Banco table is closed: {reason}."
        if refunds:
            back: dict[str, int] = {}
            for t in refunds:
                back[t.dst] = back.get(t.dst, 0) + t.amount
            text += " Open bets returned: " + ", ".join(
                f"{live.name(seat)} {chips(n)}" for seat, n in back.items()
            )
        else:
            text += " No bets were open."
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
                embed=summary_embed(live, missed, balances, late=True),
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
