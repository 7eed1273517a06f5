"""/balance, /daily, /leaderboard and /chips grant|audit: chips through the ledger.

/balance and /daily work everywhere: in a server that installed the bot with the
server's chips, elsewhere (a DM, a group DM, a server where only the member installed
the app) with the member's own chips (cogs.common.economy_scope). /leaderboard and
/chips are the server's."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

from bot.audit import audit
from bot.errors import ServiceError, friendly
from bot.i18n import DEFAULT_LOCALE, Raw, choose, t
from bot.i18n.languages import locale_of, public_locale_of
from bot.storage import member_account
from cogs.common import (
    PERSONAL_SCOPE,
    GameBot,
    can_manage_guild,
    display,
    economy_scope,
    in_installed_server,
    reply,
)
from cogs.installs import everywhere, server_only, whose_chips
from cogs.privacy import forget_in_server
from cogs.stats import chart_file, leaderboard_png

log = logging.getLogger(__name__)
Interaction = discord.Interaction[discord.Client]


def _guild(interaction: Interaction) -> int:
    """The server of a server-only command (its economy), refused anywhere else: a DM, a
    group DM, a server where only the member installed the app."""
    if not in_installed_server(interaction):
        raise ServiceError(
            "Chips belong to a server: use this in a server channel.", key="chips.server_only"
        )
    assert interaction.guild_id is not None
    return interaction.guild_id


def table_of_member(bot: GameBot, guild_id: int, user_id: int) -> tuple[int, int, str] | None:
    """(channel, chips in play, how /balance words them) of the table where the member
    has chips in play in the server, whatever its game: every game is asked (one table
    per server holds a member's chips, so at most one answers). None: no such table."""
    for service in bot.games.values():
        live = service.table_of_member(guild_id, user_id)
        if live is not None:
            return live.channel_id, service.chips_in_play_of(live, user_id), service.balance_words
    return None


class Chips(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @everywhere
    @app_commands.command(name="balance", description="Your chips (or another member's)")
    @app_commands.describe(member="whose chips (default: yours)")
    async def balance(self, interaction: Interaction, member: discord.User | None = None) -> None:
        try:
            guild_id = economy_scope(interaction)
            who = whose_chips(interaction, member)
            chips = await self.bot.store.ensure_member(guild_id, who.id)
            key = "chips.balance." + ("self" if who.id == interaction.user.id else "other")
            params: dict[str, object] = {"chips": chips, "name": display(who.display_name)}
            at = table_of_member(self.bot, guild_id, who.id)
            if at is not None:
                channel_id, in_play, words = at
                key += f".{words}" if in_play > 0 else ".seated"
                params |= {"channel": Raw(str(channel_id)), "in_play": in_play}
            locale = await locale_of(interaction)
            text = t(locale, key, **params)
            if guild_id == PERSONAL_SCOPE:  # whose chips these are, outside servers
                text += "\n" + t(locale, "chips.personal.note")
            if who.id == interaction.user.id:  # starting chips held back by an age gate?
                due = await self.bot.store.held_back_until(guild_id, who.id)
                if due is not None:
                    stamp = Raw(str(int(due.timestamp()) + 1))
                    text += "\n" + t(locale, "chips.balance.held", stamp=stamp)
            await reply(interaction, text)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @everywhere
    @app_commands.command(name="daily", description="Claim your daily chips")
    async def daily(self, interaction: Interaction) -> None:
        try:
            guild_id = economy_scope(interaction)
            # the server's amount, cooldown and age gates (/casino settings); outside
            # servers the member's own chips, with the machine's amount and cooldown
            chips = await self.bot.store.claim_daily(
                guild_id, interaction.user.id, now=datetime.now(UTC)
            )
            locale = await locale_of(interaction)
            text = t(locale, "chips.daily", chips=chips)
            if guild_id == PERSONAL_SCOPE:
                text += "\n" + t(locale, "chips.personal.note")
            await reply(interaction, text)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @server_only
    @app_commands.command(name="leaderboard", description="The richest members of this server")
    @app_commands.describe(
        chart="also show the chips as a bar chart",
        season="a past season's final standings (this season if left out)",
    )
    async def leaderboard(
        self,
        interaction: Interaction,
        chart: bool = False,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        try:
            guild_id = _guild(interaction)
            store = self.bot.store
            past = season is not None and season != await store.current_season(guild_id)
            if chart:  # drawing may take longer than Discord waits for a first answer
                await interaction.response.defer(thinking=True)
            if past and season is not None:
                rows = await store.season_standings(guild_id, season, 10)
            else:
                rows = await store.leaderboard(guild_id, 10)
            locale = await public_locale_of(interaction)
            if not rows:
                await reply(interaction, t(locale, "chips.leaderboard.empty"), ephemeral=False)
                return
            lines = [
                t(locale, "chips.leaderboard.row", rank=i + 1, member=f"<@{uid}>", chips=bal)
                for i, (uid, bal) in enumerate(rows)
            ]
            title = (
                t(locale, "chips.leaderboard.season", season=season)
                if past
                else t(locale, "chips.leaderboard.title")
            )
            em = discord.Embed(title=title, description="\n".join(lines))
            if chart:
                file = await chart_file(
                    "leaderboard.png", leaderboard_png, [bal for _, bal in rows], locale
                )
                em.set_image(url="attachment://leaderboard.png")
                em.set_footer(text=t(locale, "chips.leaderboard.chart"))
                await interaction.followup.send(
                    embed=em, file=file, allowed_mentions=discord.AllowedMentions.none()
                )
                return
            await interaction.response.send_message(
                embed=em, allowed_mentions=discord.AllowedMentions.none()
            )
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    chips = server_only(
        app_commands.Group(
            name="chips",
            description="Chip administration",
            default_permissions=discord.Permissions(manage_guild=True),
            guild_only=True,
        )
    )

    @chips.command(name="grant", description="Give a member chips (Manage Server)")
    @app_commands.describe(member="who gets the chips", amount="chips to give")
    async def grant(
        self,
        interaction: Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        try:
            guild_id = _guild(interaction)
            if not can_manage_guild(interaction):
                raise ServiceError(
                    "Only members with Manage Server can grant chips.", key="chips.grant.denied"
                )
            if member.bot:
                raise ServiceError("Bots do not hold chips.", key="chips.bots")
            await self.bot.store.ensure_member(guild_id, member.id)
            chips = await self.bot.store.grant(
                guild_id, member.id, amount, "admin grant", interaction.user.id
            )
            text = t(
                await public_locale_of(interaction),
                "chips.grant.done",
                amount=amount,
                name=display(member.display_name),
                chips=chips,
            )
            await reply(interaction, text, ephemeral=False)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @chips.command(
        name="settings", description="This server's starting and daily chips (Manage Server)"
    )
    @app_commands.describe(
        starting_chips="chips a member gets the first time they play here",
        daily_chips="chips /daily gives",
        give_enabled="may members give each other chips with /give (off at first)",
        give_daily_cap="the most chips one member may give in a day",
    )
    async def settings_cmd(
        self,
        interaction: Interaction,
        starting_chips: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_chips: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        give_enabled: bool | None = None,
        give_daily_cap: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        try:
            guild_id = _guild(interaction)
            store = self.bot.store
            changes = {
                key: value
                for key, value in (
                    ("starting_chips", starting_chips),
                    ("daily_chips", daily_chips),
                    ("give_enabled", None if give_enabled is None else int(give_enabled)),
                    ("give_daily_cap", give_daily_cap),
                )
                if value is not None
            }
            if changes:
                if not can_manage_guild(interaction):
                    raise ServiceError(
                        "Only members with Manage Server can change these.",
                        key="chips.settings.denied",
                    )
                for key, value in changes.items():
                    await store.set_guild_setting(guild_id, key, value, interaction.user.id)
            current = await store.guild_settings(guild_id)
            locale = await locale_of(interaction)
            text = t(
                locale,
                "chips.settings.show",
                starting=current.starting_chips,
                daily=current.daily_chips,
            )
            text += " " + (
                t(locale, "chips.settings.give.on", amount=current.give_daily_cap)
                if current.give_enabled
                else t(locale, "chips.settings.give.off")
            )
            await reply(
                interaction, text + (t(locale, "chips.settings.changed") if changes else "")
            )
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))

    @chips.command(
        name="forget", description="Erase a member's data in this server (Manage Server)"
    )
    @app_commands.describe(
        member="the member, if still in the server",
        user_id="or their user id (a member who left)",
        confirm="True: erase now (it cannot be undone)",
    )
    async def forget(
        self,
        interaction: Interaction,
        member: discord.User | None = None,
        user_id: str | None = None,
        confirm: bool = False,
    ) -> None:
        await forget_in_server(self.bot, interaction, member, user_id, confirm)

    @chips.command(name="audit", description="Check the chip ledger (Manage Server)")
    async def audit_cmd(self, interaction: Interaction) -> None:
        try:
            if not can_manage_guild(interaction):
                raise ServiceError(
                    "Only members with Manage Server can audit the ledger.",
                    key="chips.audit.denied",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            report = await audit(self.bot.store)
            locale = await locale_of(interaction)
            text = report.summary()
            if locale != DEFAULT_LOCALE:
                # the detailed report stays technical; the verdict is in the reader's language
                head = (
                    t(
                        locale,
                        "chips.audit.ok",
                        accounts=report.accounts,
                        transfers=report.transfers,
                    )
                    if report.ok
                    else t(
                        locale,
                        choose(
                            len(report.problems),
                            "chips.audit.failed.one",
                            "chips.audit.failed.other",
                        ),
                        problems=len(report.problems),
                    )
                )
                if report.computer_players:
                    head += "\n" + t(
                        locale, "chips.audit.computers", players=report.computer_players
                    )
                text = head + ("" if report.ok else "\n" + "\n".join(map(str, report.problems)))
            await interaction.followup.send(text[:1900], ephemeral=True)
        except Exception as exc:
            await reply(interaction, friendly(exc, await locale_of(interaction)))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Chips(bot))


__all__ = ["Chips", "member_account", "setup"]
