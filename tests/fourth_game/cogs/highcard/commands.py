"""/highcard commands: open a table and end it (Join, Bet and Draw are buttons)."""

from __future__ import annotations

from discord import app_commands

from bot.errors import ServiceError
from cogs.common import GameBot, GameCommands, Interaction, end_table, open_windowed_table
from tests.fourth_game.bot.highcard import HighCardService, OpenHighCardTable
from tests.fourth_game.cogs.highcard import access
from tests.fourth_game.cogs.highcard.limits import LIMITS
from tests.fourth_game.engine.highcard import HighCardRules


class HighCard(
    GameCommands[OpenHighCardTable],
    group_name="highcard",
    group_description="High Card: one card each against the house's, higher wins",
):
    service: HighCardService
    presenter: access.HighCardPresenterPart

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot, access.service(bot), access.presenter(bot))

    @app_commands.command(name="start", description="Open a High Card table in this channel")
    @app_commands.describe(min_bet="smallest stake", max_bet="largest stake")
    async def start(
        self,
        interaction: Interaction,
        min_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        max_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        await open_windowed_table(
            interaction,
            self.service,
            dm=ServiceError("High Card tables live in server channels.", key="err.hc.dm"),
            limits=LIMITS,
            given={},
            min_bet=min_bet,
            max_bet=max_bet,
            rules=lambda start: HighCardRules(min_bet=start.min_bet, max_bet=start.max_bet),
            betting_seconds=None,
            opened="hc.opened",
        )

    @app_commands.command(name="end", description="Close this channel's High Card table")
    async def end(self, interaction: Interaction) -> None:
        await end_table(interaction, self.service, self._table, "hc.ended")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(HighCard(bot))


__all__ = ["HighCard", "setup"]
