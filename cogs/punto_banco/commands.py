"""/baccarat commands: thin adapters from Discord to the PuntoBancoService
(bot/punto_banco.py). The betting message's buttons and the bet form, and what a click or a
submit does, are in controls.py beside this file.

Start-up (bot.app) builds the service and the presenter and registers the ``pb:``
buttons; this cog only adds the commands. Its refusals are raised, and answered by the one
error handler (cogs/router.py).
"""

from __future__ import annotations

import logging
from typing import Literal

from discord import app_commands

from bot.errors import ServiceError, parse_amount
from bot.i18n import Msg, t
from bot.i18n.languages import locale_of
from bot.punto_banco import OpenPuntoBancoTable, PuntoBancoService
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
from cogs.punto_banco import access
from cogs.punto_banco.limits import LIMITS
from cogs.punto_banco.odds_chart import send_odds_chart
from cogs.punto_banco.text import odds_text, placed, receipt_text
from cogs.table_message import Click, answer, answered_in_time
from engine.punto_banco import PuntoBancoRules, Side

log = logging.getLogger(__name__)


@everywhere
class PuntoBanco(
    GameCommands[OpenPuntoBancoTable],
    group_name="baccarat",
    group_description="Punto Banco (mini baccarat): bet on Punto, Banco or Egalité",
):
    service: PuntoBancoService
    presenter: access.PuntoBancoPresenterPart

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot, access.service(bot), access.presenter(bot))

    @app_commands.command(name="start", description="Open a Punto Banco table in this channel")
    @app_commands.describe(
        packs="packs in the shoe, 1 to 8",
        tableau="Banco's drawing rules: this table's own, or the casino standard",
        min_bet="smallest bet",
        max_bet="largest bet per side",
        betting_seconds="how long each betting window stays open",
    )
    async def start(
        self,
        interaction: Interaction,
        packs: app_commands.Range[int, 1, 8] | None = None,
        tableau: Literal["seed", "standard"] | None = None,
        min_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        max_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        betting_seconds: app_commands.Range[int, 5, 3600] | None = None,
    ) -> None:
        await open_windowed_table(
            interaction,
            self.service,
            dm=ServiceError(
                "Punto Banco tables live in server channels, not in DMs.", key="err.pb.dm"
            ),
            limits=LIMITS,
            given={"tableau": tableau},  # left out: the server's default (/casino settings)
            min_bet=min_bet,
            max_bet=max_bet,
            rules=lambda start: PuntoBancoRules(
                packs=start.whole("packs"),
                tableau=str(start.choices["tableau"]),
                min_bet=start.min_bet,
                max_bet=start.max_bet,
            ),
            betting_seconds=betting_seconds,
            numbers={"packs": packs},  # left out: 1, or within the server's bounds
            opened="pb.opened",
        )

    @app_commands.command(name="bet", description="Bet on Punto, Banco or Egalité")
    @app_commands.describe(
        side="punto (1:1), banco (1:1 less commission) or egalite (tie)",
        amount="chips; betting again on a side changes that bet",
    )
    async def bet(
        self,
        interaction: Interaction,
        side: Literal["punto", "banco", "egalite"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        stake = parse_amount(amount, "bet")
        click = Click(interaction, live.table_id)
        with answered_in_time(click):  # the table is redrawn through its writer
            receipt = await self.service.bet(
                live.table_id,
                interaction.user.id,
                Side(side),
                stake,
                name=interaction.user.display_name,
            )
            await answer(click, receipt_text(receipt, placed(locale, stake, Side(side)), locale))

    @app_commands.command(name="repeat", description="Place your bets of the last coup again")
    async def repeat(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        click = Click(interaction, live.table_id)
        with answered_in_time(click):
            receipt = await self.service.repeat(
                live.table_id, interaction.user.id, name=interaction.user.display_name
            )
            await answer(click, receipt_text(receipt, Msg("pb.repeated"), locale))

    @app_commands.command(name="withdraw", description="Take back your bets before the deal")
    @app_commands.describe(side="only this bet (default: all your bets)")
    async def withdraw(
        self,
        interaction: Interaction,
        side: Literal["punto", "banco", "egalite"] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        click = Click(interaction, live.table_id)
        with answered_in_time(click):
            receipt = await self.service.withdraw(live.table_id, interaction.user.id, side)
            await answer(click, receipt_text(receipt, Msg("pb.taken_back"), locale))

    @app_commands.command(name="table", description="Post this channel's table message again")
    async def table(self, interaction: Interaction) -> None:
        await repost_table(interaction, self._table, self.presenter.repost, "pb.reposted")

    @app_commands.command(
        name="odds", description="Exact probabilities and house edge of each bet here"
    )
    @app_commands.describe(chart="also show the house edge of each bet as a chart")
    async def odds(self, interaction: Interaction, chart: bool = False) -> None:
        locale = await locale_of(interaction)
        rules = PuntoBancoRules()
        try:
            live = self._table(interaction)
            rules = live.engine.rules
            text = odds_text(live.engine.rules, live.engine.shoe, locale)
        except ServiceError:  # no table here (or a DM): the defaults, not a refusal
            text = odds_text(PuntoBancoRules(), locale=locale) + "\n" + t(locale, "pb.odds.default")
        if chart:
            await send_odds_chart(
                interaction, text + "\n" + t(locale, "pb.odds.chart"), rules, locale
            )
            return
        await reply(interaction, text)

    @app_commands.command(
        name="end", description="Close this channel's Punto Banco table; open bets are returned"
    )
    async def end(self, interaction: Interaction) -> None:
        await end_table(interaction, self.service, self._table, "pb.ended")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PuntoBanco(bot))
