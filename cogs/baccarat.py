"""/baccarat commands and the betting buttons: thin adapters from Discord to the
BaccaratService (bot/baccarat.py).

This extension builds its own service and presenter in ``setup`` (so the Pontoon bot
needs no change to host it), hooks it to the Pontoon TableService both ways (one table
per channel whatever the game; a member's chips in play at one game of a server at a
time), and registers the ``pb:`` buttons. Modal submits (``pbm:{table}:{side}:{round}``)
are handled from the custom id alone in ``on_interaction``, so a form opened before a
restart still works after it.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.baccarat import BaccaratService, BaccaratTable, BaccaratTimers, BetReceipt
from bot.errors import BadAmount, ServiceError, friendly, parse_amount, rule_text
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.service import seat_of
from bot.ui.baccarat.presenter import (
    BaccaratButton,
    DiscordBaccaratPresenter,
    odds_text,
    side_label,
)
from bot.ui.common import can_manage_guild, modal_values, reply
from engine.cards import RandomChance
from engine.errors import ConfigError, EngineError, RuleError
from engine.punto_banco import PuntoBancoRules, Side

if TYPE_CHECKING:
    from bot.app import PontoonBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]
MODAL_PREFIX = "pbm:"
AMOUNT_FIELD = "amount"
SIDES = ("punto", "banco", "egalite")


def service_of(bot: discord.Client) -> BaccaratService:
    service = getattr(bot, "baccarat", None)
    if not isinstance(service, BaccaratService):
        raise ServiceError(
            "Punto Banco is not running on this bot right now.", key="err.pb.not_running"
        )
    return service


def refused(exc: BaseException, locale: str = DEFAULT_LOCALE) -> str:
    if isinstance(exc, RuleError):
        return t(locale, "pb.refused", text=rule_text(locale, exc), rule=exc.rule)
    return friendly(exc, locale)


def receipt_text(receipt: BetReceipt, done: Msg, locale: str = DEFAULT_LOCALE) -> str:
    bets = ", ".join(
        t(locale, "pb.bet", side=side_label(locale, b.side), amount=b.amount) for b in receipt.bets
    ) or t(locale, "pb.receipt.none")
    return t(locale, "pb.receipt", done=done, bets=bets, balance=receipt.balance)


class BetModal(discord.ui.Modal):
    """Asks for the stake. Its submit is handled by :func:`handle_modal` via the cog's
    ``on_interaction`` listener, from the custom id alone (the same path before and after
    a restart), so ``on_submit`` does nothing here."""

    def __init__(
        self,
        table_id: str,
        side: Side,
        round_no: int,
        default: int | None,
        locale: str = DEFAULT_LOCALE,
    ) -> None:
        super().__init__(
            title=t(locale, "pb.modal.title", side=side_label(locale, side), coup=round_no),
            custom_id=f"{MODAL_PREFIX}{table_id}:{side.value}:{round_no}",
            timeout=600,
        )
        self.add_item(
            discord.ui.TextInput(
                label=t(locale, "pb.modal.label"),
                custom_id=AMOUNT_FIELD,
                placeholder=t(locale, "pb.modal.placeholder"),
                default=str(default) if default else None,
                required=True,
                max_length=12,
            )
        )

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        return None


async def handle_button(interaction: Interaction, table_id: str, act: str, round_no: int) -> None:
    """What a click on a ``pb:`` button does."""
    locale = await locale_of(interaction)
    try:
        service = service_of(interaction.client)
        live = service.get(table_id)
        seat = seat_of(interaction.user.id)
        if act == "odds":
            await reply(interaction, odds_text(live.engine.rules, live.engine.shoe, locale))
            return
        if round_no != live.round:
            raise ServiceError(
                "That button belongs to a betting window that has closed; nothing was "
                "changed. Use the buttons on the newest table message.",
                key="err.pb.stale",
            )
        if act in SIDES:
            side = Side(act)
            current = {b.side: b.amount for b in live.engine.bets_of(seat)}
            last = {b.side: b.amount for b in live.engine.last_bets_of(seat)}
            default = current.get(side) or last.get(side)
            await interaction.response.send_modal(
                BetModal(table_id, side, round_no, default, locale)
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if act == "repeat":
            receipt = await service.repeat(
                table_id, interaction.user.id, round_no=round_no, name=interaction.user.display_name
            )
            await interaction.followup.send(
                receipt_text(receipt, Msg("pb.repeated"), locale), ephemeral=True
            )
        elif act == "withdraw":
            receipt = await service.withdraw(table_id, interaction.user.id, round_no=round_no)
            await interaction.followup.send(
                receipt_text(receipt, Msg("pb.withdrawn"), locale), ephemeral=True
            )
        else:
            raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
    except (ServiceError, EngineError) as exc:
        await reply(interaction, refused(exc, locale))
    except Exception as exc:
        log.exception("button %s on %s failed", act, table_id)
        await reply(interaction, friendly(exc, locale))


def _placed(locale: str, amount: int, side: Side) -> Msg:
    return Msg("pb.placed", amount=amount, side=side_label(locale, side))


async def handle_modal(interaction: Interaction) -> None:
    """A submitted bet form: ``pbm:{table}:{side}:{round}`` plus the amount typed."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    locale = await locale_of(interaction)
    try:
        parts = custom_id[len(MODAL_PREFIX) :].split(":")
        if len(parts) != 3 or parts[1] not in SIDES or not parts[2].isdigit():
            raise ServiceError("That form is not known to this bot.", key="err.unknown_form")
        table_id, side, round_text = parts
        amount = parse_amount(modal_values(data).get(AMOUNT_FIELD), "bet")
        service = service_of(interaction.client)
        await interaction.response.defer(ephemeral=True, thinking=True)
        receipt = await service.bet(
            table_id,
            interaction.user.id,
            Side(side),
            amount,
            round_no=int(round_text),
            name=interaction.user.display_name,
        )
        await interaction.followup.send(
            receipt_text(receipt, _placed(locale, amount, Side(side)), locale),
            ephemeral=True,
        )
    except (ServiceError, EngineError) as exc:
        await reply(interaction, refused(exc, locale))
    except Exception as exc:
        log.exception("bet form %s failed", custom_id)
        await reply(interaction, friendly(exc, locale))


class Baccarat(
    commands.GroupCog,
    group_name="baccarat",
    group_description="Punto Banco (mini baccarat): bet on Punto, Banco or Egalité",
):
    def __init__(
        self, bot: PontoonBot, service: BaccaratService, presenter: DiscordBaccaratPresenter
    ) -> None:
        self.bot = bot
        self.service = service
        self.presenter = presenter
        self._shown = False
        super().__init__()

    async def cog_load(self) -> None:
        loaded = await self.service.load()
        log.info("reloaded %d open Punto Banco table(s)", len(loaded))
        if self.bot.is_ready():  # the extension was reloaded on a running bot
            await self._show_restored()

    async def cog_unload(self) -> None:
        await self.service.shutdown()
        _unhook(self.bot, self.service)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self._show_restored()

    async def _show_restored(self) -> None:
        if self._shown:
            return
        self._shown = True
        for live in list(self.service.tables.values()):
            try:
                await self.presenter.table_restored(live)
            except Exception:
                log.exception("could not show restored table %s", live.table_id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        if str(data.get("custom_id", "")).startswith(MODAL_PREFIX):
            await handle_modal(interaction)

    def _table(self, interaction: Interaction) -> BaccaratTable:
        if interaction.channel_id is None:
            raise ServiceError("Use this in a server channel.", key="err.server_only")
        return self.service.in_channel(interaction.channel_id)

    @app_commands.command(name="start", description="Open a Punto Banco table in this channel")
    @app_commands.describe(
        packs="packs in the shoe, 1 to 8 (B-TABLE-2)",
        tableau="Banco's drawing table: the seed's, or casino standard (B-BANCO-2)",
        min_bet="smallest bet (B-BET-1)",
        max_bet="largest bet per side (B-BET-1)",
        betting_seconds="how long each betting window stays open",
    )
    async def start(
        self,
        interaction: Interaction,
        packs: app_commands.Range[int, 1, 8] = 1,
        tableau: Literal["seed", "standard"] = "seed",
        min_bet: app_commands.Range[int, 1, 1_000_000] = 1,
        max_bet: app_commands.Range[int, 1, 1_000_000] = 100,
        betting_seconds: app_commands.Range[int, 5, 3600] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise ServiceError(
                    "Punto Banco tables live in server channels, not in DMs.", key="err.pb.dm"
                )
            if min_bet > max_bet:
                raise ServiceError(
                    "The minimum bet cannot be above the maximum bet (B-BET-1).",
                    key="err.pb.min_max",
                )
            try:
                rules = PuntoBancoRules(
                    packs=packs, tableau=tableau, min_bet=min_bet, max_bet=max_bet
                )
            except ValueError as exc:
                raise ConfigError(str(exc).splitlines()[0]) from exc
            await interaction.response.defer(ephemeral=True, thinking=True)
            live = await self.service.open_table(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                rules,
                betting_seconds=betting_seconds,
                opener_name=interaction.user.display_name,
            )
            await interaction.followup.send(
                t(locale, "pb.opened", seconds=live.betting_seconds), ephemeral=True
            )
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))

    @app_commands.command(name="bet", description="Bet on Punto, Banco or Egalité (B-BET-1)")
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
        try:
            live = self._table(interaction)
            stake = parse_amount(amount, "bet")
            await interaction.response.defer(ephemeral=True, thinking=True)
            receipt = await self.service.bet(
                live.table_id,
                interaction.user.id,
                Side(side),
                stake,
                name=interaction.user.display_name,
            )
            await reply(
                interaction, receipt_text(receipt, _placed(locale, stake, Side(side)), locale)
            )
        except (ServiceError, EngineError, BadAmount) as exc:
            await reply(interaction, refused(exc, locale))

    @app_commands.command(name="repeat", description="Place your bets of the last coup again")
    async def repeat(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            receipt = await self.service.repeat(
                live.table_id, interaction.user.id, name=interaction.user.display_name
            )
            await reply(interaction, receipt_text(receipt, Msg("pb.repeated"), locale))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, refused(exc, locale))

    @app_commands.command(name="withdraw", description="Take back your bets before the deal")
    @app_commands.describe(side="only this bet (default: all your bets)")
    async def withdraw(
        self,
        interaction: Interaction,
        side: Literal["punto", "banco", "egalite"] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            receipt = await self.service.withdraw(live.table_id, interaction.user.id, side)
            await reply(interaction, receipt_text(receipt, Msg("pb.taken_back"), locale))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, refused(exc, locale))

    @app_commands.command(name="table", description="Post this channel's table message again")
    async def table(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.presenter.repost(live)
            await reply(interaction, t(locale, "pb.reposted"))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))

    @app_commands.command(
        name="odds", description="Exact probabilities and house edge of each bet here"
    )
    async def odds(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            text = odds_text(live.engine.rules, live.engine.shoe, locale)
        except ServiceError:
            text = odds_text(PuntoBancoRules(), locale=locale) + "\n" + t(locale, "pb.odds.default")
        await reply(interaction, text)

    @app_commands.command(
        name="end", description="Close this channel's Punto Banco table; open bets are returned"
    )
    async def end(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            is_admin = can_manage_guild(interaction)
            if interaction.user.id != live.opener_id and not is_admin:
                raise ServiceError(
                    "Only the table's opener or a server manager can end the table.",
                    key="err.end_denied",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            refunds = await self.service.close(
                live.table_id, f"ended by {interaction.user.display_name}"
            )
            back = sum(transfer.amount for transfer in refunds)
            await reply(interaction, t(locale, "pb.ended", amount=back))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))


def _hook(bot: PontoonBot, service: BaccaratService) -> None:
    """One table per channel whatever the game; chips in play at one game at a time."""
    pontoon = bot.service
    service.channel_checks.append(lambda channel_id: channel_id in pontoon.by_channel)
    service.busy_checks.append(
        lambda guild_id, user_id: pontoon.table_of_member(guild_id, user_id) is not None
    )
    pontoon.channel_checks.append(service.has_table)
    pontoon.busy_checks.append(service.member_has_bets)


def _unhook(bot: PontoonBot, service: BaccaratService) -> None:
    pontoon = bot.service
    pontoon.channel_checks[:] = [c for c in pontoon.channel_checks if c != service.has_table]
    pontoon.busy_checks[:] = [c for c in pontoon.busy_checks if c != service.member_has_bets]
    if getattr(bot, "baccarat", None) is service:
        delattr(bot, "baccarat")
    bot.remove_dynamic_items(BaccaratButton)


async def setup(bot: PontoonBot) -> None:
    settings = bot.settings
    seconds = float(settings.baccarat_betting_seconds)
    seed = getattr(settings, "shuffle_seed", None)  # tests only: reproducible shoes
    presenter = DiscordBaccaratPresenter(bot, card_delay=min(0.5, seconds / 10))
    service = BaccaratService(
        bot.store,
        chance=RandomChance(random.Random(seed)) if seed is not None else None,
        timers=BaccaratTimers(betting_seconds=seconds),
        presenter=presenter,
        owns_guild=bot.shard_plan.owns,
    )
    presenter.service = service
    bot.baccarat = service  # type: ignore[attr-defined]
    _hook(bot, service)
    bot.add_dynamic_items(BaccaratButton)
    await bot.add_cog(Baccarat(bot, service, presenter))
