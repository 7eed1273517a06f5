"""/break (a member's own break from play), /give (chips to another member, when the
server has it on) and the body of /casino reset (a fresh season, Manage Server, with a
confirmation button the router answers from its custom id, across restarts:
:func:`ask_reset`, called by the /casino group in cogs/casino/commands.py). The commands are thin: the work is in bot/economy.py and the
store."""

from __future__ import annotations

import logging
import re
import time
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.economy import BREAK_UNITS, ResetPlan, Seasons, give_chips, take_break
from bot.errors import ServiceError
from bot.i18n import Raw, choose, t
from bot.i18n.languages import locale_of, public_locale_of
from bot.storage.errors import SeasonAlreadyReset, stamp
from cogs.common import (
    GameBot,
    can_manage_guild,
    display,
    economy_scope,
    in_installed_server,
    reply,
)
from cogs.installs import everywhere, server_only
from cogs.router import RoutedButton, refuse

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]

CONFIRM_SECONDS = 300.0  # how long a reset's confirmation can be clicked


def guild_of(interaction: Interaction) -> int:
    """The server of a server-only command, refused anywhere else (a DM, a group DM, a
    server where only the member installed the app)."""
    if not in_installed_server(interaction):
        raise ServiceError(
            "Chips belong to a server: use this in a server channel.", key="chips.server_only"
        )
    assert interaction.guild_id is not None
    return interaction.guild_id


def check_may_reset(interaction: Interaction) -> None:
    if not can_manage_guild(interaction):
        raise ServiceError(
            "Only members with Manage Server can start a fresh season.",
            key="season.reset.denied",
        )


def reset_question(locale: str, plan: ResetPlan) -> str:
    """What the reset will do, named before the owner confirms it."""
    lines = [
        t(locale, "season.reset.ask", season=plan.season, next=plan.season + 1),
        t(
            locale,
            "season.reset.tables.none"
            if plan.tables == 0
            else choose(plan.tables, "season.reset.tables.one", "season.reset.tables.other"),
            tables=plan.tables,
        ),
        t(
            locale,
            choose(plan.members, "season.reset.members.one", "season.reset.members.other"),
            members=plan.members,
        ),
        t(locale, "season.reset.start", amount=plan.starting_chips),
        t(locale, "season.reset.standings", season=plan.season),
    ]
    return "\n".join(lines)


def now() -> float:
    """The time a click is read at (seconds since the epoch; tests set it)."""
    return time.time()


def seasons_of(client: object) -> Seasons:
    """The bot's one :class:`Seasons` (the /casino cog holds it: one reset at a time per
    server), found by what it is, not by the cog's name."""
    for cog in getattr(client, "cogs", {}).values():
        found = getattr(cog, "seasons", None)
        if isinstance(found, Seasons):
            return found
    raise ServiceError("A fresh season cannot be started now.", key="season.reset.unavailable")


class ResetButton(
    RoutedButton,
    template=(
        r"season:(?P<act>go|cancel):(?P<guild>[0-9]{1,20}):(?P<season>[0-9]{1,10})"
        r":(?P<owner>[0-9]{1,20}):(?P<until>[0-9]{1,12})"
    ),
):
    """A button of one owner's reset confirmation, for one season: **Start season N** or
    **Cancel**. Answered by the router from its custom id alone (the server, the season
    it confirms, the owner, when it expires: :data:`CONFIRM_SECONDS` after the question),
    so a restart between the question and the click changes nothing. The store decides:
    a second click, or a click for a season already closed, resets nothing twice."""

    prefix = "season"
    inactive = "season.reset.expired"

    def __init__(self, act: str, guild_id: int, season: int, owner_id: int, until: int) -> None:
        self.act, self.guild_id, self.season = act, guild_id, season
        self.owner_id, self.until = owner_id, until
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger if act == "go" else discord.ButtonStyle.secondary,
                custom_id=f"season:{act}:{guild_id}:{season}:{owner_id}:{until}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResetButton:
        return cls(
            match["act"],
            int(match["guild"]),
            int(match["season"]),
            int(match["owner"]),
            int(match["until"]),
        )

    async def clicked(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        if interaction.user.id != self.owner_id:
            await reply(interaction, t(locale, "season.reset.not_yours"))
            return
        if self.act == "cancel":
            await interaction.response.edit_message(
                content=t(locale, "season.reset.cancelled"), view=None
            )
            return
        if interaction.guild_id != self.guild_id:
            raise ServiceError("Unknown button.", key="err.unknown_button")
        check_may_reset(interaction)
        if now() > self.until:
            raise ServiceError("This confirmation has expired.", key="season.reset.expired")
        seasons = seasons_of(interaction.client)
        # a question for a season closed since (another question's click): said at once,
        # the question left as it was; the store decides the rest (nothing twice)
        current = await cast(GameBot, interaction.client).store.current_season(self.guild_id)
        if current != self.season:
            raise SeasonAlreadyReset(current)
        await interaction.response.edit_message(
            content=t(locale, "season.reset.working"), view=None
        )
        try:
            done = await seasons.reset(self.guild_id, interaction.user.id, self.season)
        except Exception as exc:
            await refuse(interaction, exc)
            return
        text = t(
            locale,
            "season.reset.done",
            season=done.season,
            next=done.season + 1,
            amount=done.starting_chips,
        )
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException:
            log.warning("the reset of server %s was not shown to its owner", self.guild_id)


def reset_view(owner_id: int, guild_id: int, plan: ResetPlan, locale: str) -> discord.ui.View:
    """The confirmation of one owner's reset, for one season: **Start season N** or
    **Cancel**, clickable by that owner only, for :data:`CONFIRM_SECONDS` (never kept:
    the router answers its buttons)."""
    until = int(now() + CONFIRM_SECONDS)
    view = discord.ui.View(timeout=None)
    for act, label in (
        ("go", t(locale, "season.reset.go", next=plan.season + 1)),
        ("cancel", t(locale, "season.reset.cancel")),
    ):
        button = ResetButton(act, guild_id, plan.season, owner_id, until)
        button.item.label = label
        view.add_item(button)
    view.stop()
    return view


#: the buttons the router answers (cogs/router.py ``SHARED_BUTTON_PACKAGES``)
BUTTONS: tuple[type[RoutedButton], ...] = (ResetButton,)


async def ask_reset(bot: GameBot, seasons: Seasons, interaction: Interaction) -> None:
    """/casino reset: what a fresh season does, and the buttons that start it or not."""
    guild_id = guild_of(interaction)
    check_may_reset(interaction)
    locale = await locale_of(interaction)
    plan = await seasons.plan(guild_id)
    view = reset_view(interaction.user.id, guild_id, plan, locale)
    await interaction.response.send_message(reset_question(locale, plan), view=view, ephemeral=True)


class Economy(commands.Cog):
    """/break and /give (/casino reset is in the /casino group, cogs/casino/commands.py,
    whose cog holds the server's :class:`Seasons`)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(
        name="break", description="Take a break from betting: 1 hour to 30 days, not ended early"
    )
    @app_commands.describe(length="how long, in the unit you choose", unit="minutes, hours or days")
    @app_commands.choices(unit=[app_commands.Choice(name=name, value=name) for name in BREAK_UNITS])
    async def break_cmd(self, interaction: Interaction, length: int, unit: str) -> None:
        # from the chips it is taken in: the server's, or outside servers the member's own
        guild_id = economy_scope(interaction)
        ends = await take_break(self.bot.store, guild_id, interaction.user.id, length, unit)
        await reply(
            interaction, t(await locale_of(interaction), "break.started", stamp=stamp(ends))
        )

    @server_only
    @app_commands.command(name="give", description="Give some of your chips to another member")
    @app_commands.describe(member="who gets them", amount="how many chips")
    @app_commands.guild_only()
    async def give(self, interaction: Interaction, member: discord.Member, amount: int) -> None:
        guild_id = guild_of(interaction)
        _, left = await give_chips(
            self.bot.store,
            guild_id,
            interaction.user.id,
            member.id,
            amount,
            receiver_is_bot=member.bot,
            joined_at=getattr(member, "joined_at", None),
        )
        public = await public_locale_of(interaction)
        await reply(
            interaction,
            t(
                public,
                "give.done",
                giver=display(interaction.user.display_name),
                receiver=Raw(member.mention),
                amount=amount,
            ),
            ephemeral=False,
        )
        try:
            await interaction.followup.send(
                t(await locale_of(interaction), "give.left", amount=left), ephemeral=True
            )
        except discord.HTTPException:
            log.warning("the gift allowance left was not shown to %s", interaction.user.id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Economy(bot))


__all__ = [
    "BUTTONS",
    "Economy",
    "ResetButton",
    "ask_reset",
    "reset_question",
    "reset_view",
    "setup",
]
