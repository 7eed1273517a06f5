"""/blackjack commands: thin adapters from Discord to the BlackjackService
(bot/blackjack.py). The table message's buttons and forms, and what a click or a submit
does, are in controls.py beside this file (the router, cogs/router.py, answers the
forms' submits).

Start-up (bot.app) builds the service and the presenter and registers the ``bj:``
buttons; this cog only adds the commands. Its refusals are raised, and answered by the
one error handler (cogs/router.py) in Blackjack's words.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot.blackjack import BlackjackService, OpenBlackjackTable
from bot.errors import ServiceError, parse_amount
from bot.i18n import Msg, t
from bot.i18n.languages import locale_of
from cogs.blackjack import access, hints
from cogs.blackjack.chart import strategy_png
from cogs.blackjack.limits import LIMITS
from cogs.blackjack.text import odds_text
from cogs.common import (
    GameBot,
    GameCommands,
    Interaction,
    end_table,
    open_windowed_table,
    reply,
    repost_table,
)
from cogs.installs import everywhere
from cogs.table_message import Click, answer, answered_in_time
from engine.blackjack import ActionKind, BlackjackRules
from engine.blackjack.odds import house_edge

log = logging.getLogger(__name__)


@everywhere
class Blackjack(
    GameCommands[OpenBlackjackTable],
    group_name="blackjack",
    group_description="Blackjack against the house: hit, stand, double, split",
):
    service: BlackjackService
    presenter: access.BlackjackPresenterPart

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot, access.service(bot), access.presenter(bot))

    @app_commands.command(name="start", description="Open a Blackjack table in this channel")
    @app_commands.describe(
        decks="decks in the shoe, 1 to 8",
        dealer="the dealer stands on soft 17 (s17) or hits it (h17)",
        blackjack_pays="what a blackjack pays",
        surrender="late surrender of the first two cards",
        double_on="which first two cards may double",
        double_after_split="doubling after a split",
        resplit_aces="split aces may be split again",
        peek="the dealer checks for blackjack (off: no hole card)",
        min_bet="smallest bet",
        max_bet="largest bet",
        betting_seconds="how long each betting window stays open",
    )
    async def start(
        self,
        interaction: Interaction,
        decks: app_commands.Range[int, 1, 8] | None = None,
        dealer: Literal["s17", "h17"] | None = None,
        blackjack_pays: Literal["3:2", "6:5"] | None = None,
        surrender: Literal["none", "late"] | None = None,
        double_on: Literal["any", "9-11", "10-11"] | None = None,
        double_after_split: bool | None = None,
        resplit_aces: bool | None = None,
        peek: bool | None = None,
        min_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        max_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        betting_seconds: app_commands.Range[int, 5, 3600] | None = None,
    ) -> None:
        # an option left out takes the server's default (/casino settings)
        given: dict[str, str | bool | None] = {
            "dealer": dealer,
            "blackjack_pays": blackjack_pays,
            "surrender": surrender,
            "double_on": double_on,
            "double_after_split": double_after_split,
            "resplit_aces": resplit_aces,
            "peek": peek,
        }
        await open_windowed_table(
            interaction,
            self.service,
            dm=ServiceError(
                "Blackjack tables live in server channels, not in DMs.", key="err.bj.dm"
            ),
            limits=LIMITS,
            given=given,
            min_bet=min_bet,
            max_bet=max_bet,
            rules=lambda start: BlackjackRules(
                decks=start.whole("decks"),
                min_bet=start.min_bet,
                max_bet=start.max_bet,
                **start.choices,
            ),
            betting_seconds=betting_seconds,
            numbers={"decks": decks},  # left out: 6, or within the server's bounds
            opened="bj.opened",
            # the table shows its house edge: compute it now
            first=lambda rules: asyncio.to_thread(house_edge, rules),
        )

    async def _act(self, interaction: Interaction, kind: str, amount: int | None = None) -> None:
        """One move typed as a command: answered privately; the table message is redrawn
        through its writer."""
        locale = await locale_of(interaction)
        live = self._table(interaction)
        user = interaction.user
        click = Click(interaction, live.table_id)
        with answered_in_time(click):
            if kind == "join":
                await self.service.join(live.table_id, user.id, name=user.display_name)
                done = Msg("bj.joined")
            elif kind == "leave":
                await self.service.leave(live.table_id, user.id)
                done = Msg("bj.left")
            elif kind == "bet":
                stake = parse_amount(amount, "bet")
                await self.service.bet(live.table_id, user.id, stake, name=user.display_name)
                done = Msg("bj.bet_placed", amount=stake)
            elif kind == "insurance":
                stake = parse_amount(amount, "insurance") if amount else 0
                await self.service.insure(live.table_id, user.id, stake)
                done = Msg("bj.insured" if stake else "bj.insurance_declined", amount=stake)
            else:
                await self.service.play(live.table_id, user.id, ActionKind(kind), amount=amount)
                done = Msg("bj.done")
            await answer(click, t(locale, "bj.answer", done=done))

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await self._act(interaction, "join")

    @app_commands.command(name="leave", description="Leave your seat (not during your hand)")
    async def leave(self, interaction: Interaction) -> None:
        await self._act(interaction, "leave")

    @app_commands.command(name="bet", description="Bet on the next round")
    @app_commands.describe(amount="chips; betting again changes your bet")
    async def bet(
        self, interaction: Interaction, amount: app_commands.Range[int, 1, 1_000_000_000]
    ) -> None:
        await self._act(interaction, "bet", amount)

    @app_commands.command(name="hit", description="Take a card")
    async def hit(self, interaction: Interaction) -> None:
        await self._act(interaction, "hit")

    @app_commands.command(name="stand", description="End your hand")
    async def stand(self, interaction: Interaction) -> None:
        await self._act(interaction, "stand")

    @app_commands.command(name="double", description="Double your bet and take one card")
    @app_commands.describe(amount="chips to add, up to your bet (default: your bet)")
    async def double(
        self,
        interaction: Interaction,
        amount: app_commands.Range[int, 1, 1_000_000_000] | None = None,
    ) -> None:
        await self._act(interaction, "double", amount)

    @app_commands.command(name="split", description="Split a pair into two hands")
    async def split(self, interaction: Interaction) -> None:
        await self._act(interaction, "split")

    @app_commands.command(name="surrender", description="Give up your hand for half your bet")
    async def surrender(self, interaction: Interaction) -> None:
        await self._act(interaction, "surrender")

    @app_commands.command(name="insurance", description="Insure against a dealer blackjack")
    @app_commands.describe(amount="chips, up to half your bet (0 declines)")
    async def insurance(
        self, interaction: Interaction, amount: app_commands.Range[int, 0, 1_000_000_000]
    ) -> None:
        await self._act(interaction, "insurance", amount)

    @app_commands.command(
        name="hint", description="What each play of your hand is expected to win (only you see it)"
    )
    async def hint(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        found = self.service.hint(live.table_id, interaction.user.id)
        await reply(interaction, hints.hint_text(found, locale))

    @app_commands.command(name="table", description="Post this channel's table message again")
    async def table(self, interaction: Interaction) -> None:
        await repost_table(interaction, self._table, self.presenter.repost, "bj.reposted")

    @app_commands.command(
        name="odds", description="The house edge of this table's rules, and its strategy chart"
    )
    @app_commands.describe(chart="also show the basic-strategy chart as a picture")
    async def odds(self, interaction: Interaction, chart: bool = True) -> None:
        locale = await locale_of(interaction)
        try:
            rules = self._table(interaction).engine.rules
            extra = ""
        except ServiceError:
            rules = BlackjackRules()
            extra = "\n" + t(locale, "bj.odds.default")
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            text = await asyncio.to_thread(odds_text, rules, locale)
            if not chart:
                await interaction.followup.send(text + extra, ephemeral=True)
                return
            png = await asyncio.to_thread(strategy_png, rules, locale)
            await interaction.followup.send(
                text + extra + "\n" + t(locale, "bj.odds.chart"),
                file=discord.File(fp=_bytes(png), filename="strategy.png"),
                ephemeral=True,
            )
        except discord.HTTPException:
            log.exception("could not answer /blackjack odds")

    @app_commands.command(
        name="end", description="Close this channel's Blackjack table; stakes are returned"
    )
    async def end(self, interaction: Interaction) -> None:
        await end_table(interaction, self.service, self._table, "bj.ended")


def _bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Blackjack(bot))
