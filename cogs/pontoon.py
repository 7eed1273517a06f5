"""/pontoon commands and the table buttons: thin adapters from Discord to the TableService."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.errors import BadAmount, NotSeated, ServiceError, StaleButton, friendly, parse_amount
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.interactions import can_manage_guild, modal_values, reply
from bot.presenter import (
    ACT_KIND,
    Click,
    TableButton,
    acknowledge,
    answer,
    display,
    member_action,
)
from bot.render import rules_text
from bot.service import CardDelivery, LiveTable, seat_of
from engine.errors import ConfigError, EngineError
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase

if TYPE_CHECKING:
    from bot.app import PontoonBot

log = logging.getLogger(__name__)

MODAL_PREFIX = "ptm:"
# Modal submits are handled from the custom id alone, so an open modal still works after a
# restart: ptm:{table}:{act}:{version}
AMOUNT_FIELD = "amount"
SHOOT_FIELD = "shoot"
Interaction = discord.Interaction[discord.Client]


def _bot(interaction: Interaction) -> PontoonBot:
    return interaction.client  # type: ignore[return-value]


class AmountModal(discord.ui.Modal):
    """Asks for a chip amount (and, on a fourth card in Shoot mode, a shoot bet)."""

    def __init__(
        self,
        table_id: str,
        act: str,
        version: int,
        title: str,
        *,
        with_shoot: bool,
        hint: str,
        locale: str = DEFAULT_LOCALE,
    ) -> None:
        super().__init__(
            title=title, custom_id=f"{MODAL_PREFIX}{table_id}:{act}:{version}", timeout=600
        )
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=t(locale, "pt.modal.amount"),
            custom_id=AMOUNT_FIELD,
            placeholder=hint,
            max_length=12,
        )
        self.add_item(self.amount)
        if with_shoot:
            self.shoot: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
                label=t(locale, "pt.modal.shoot"),
                custom_id=SHOOT_FIELD,
                required=False,
                max_length=12,
            )
            self.add_item(self.shoot)

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        await handle_modal(interaction)


def _range_hint(
    live: LiveTable, seat: str, kind: ActionKind, locale: str = DEFAULT_LOCALE
) -> tuple[str, bool]:
    for la in live.engine.legal_actions(seat):
        if la.kind is kind:
            hint = ""
            if la.min_amount is not None and la.max_amount is not None:
                hint = t(locale, "pt.modal.hint", min=la.min_amount, max=la.max_amount)
            return hint, bool(la.shoot_max)
    return "", False


#: message id of each amount form's title
MODAL_TITLES = {
    "bet": "pt.modal.bet",
    "buy": "pt.modal.buy",
    "shoot": "pt.modal.shoot_title",
    "kitty": "pt.modal.kitty",
}


async def handle_button(interaction: Interaction, table_id: str, act: str, version: int) -> None:
    bot = _bot(interaction)
    service = bot.service
    click: Click | None = None
    locale = await locale_of(interaction)
    try:
        live = service.get(table_id)
        bot.presenter.remember(live, interaction)
        seat = seat_of(interaction.user.id)
        if act == "cards":
            await interaction.response.send_message(
                bot.presenter.hand_summary(live, seat, locale)
                if seat in live.engine.seats
                else t(locale, "pt.not_seated_here"),
                ephemeral=True,
            )
            return
        if act in MODAL_TITLES:
            kind = ACT_KIND[act]
            if seat not in live.engine.seats:
                raise NotSeated()
            if act != "bet" and version != live.engine.version:
                raise StaleButton()
            hint, with_shoot = _range_hint(live, seat, kind, locale)
            if not hint and kind is not ActionKind.SHOOT and kind is not ActionKind.KITTY:
                # Not legal for this seat now: say why; nothing changes.
                raise _why_not(live, seat, kind)
            modal = AmountModal(
                table_id,
                act,
                version,
                render.form_title(
                    t(locale, MODAL_TITLES[act]), live.engine.private_view(seat), locale
                ),
                with_shoot=with_shoot,
                hint=hint or t(locale, "amount.what.amount"),
                locale=locale,
            )
            # Not kept as a live Modal: members at one table share the custom id, so a live
            # modal could swallow or drop another member's submit. Every submit is answered
            # from its custom id alone (Pontoon.on_interaction -> handle_modal).
            modal.stop()
            await interaction.response.send_modal(modal)
            return
        click = Click(interaction, table_id)
        with member_action(click):
            if act == "deal":
                await service.deal(table_id, interaction.user.id, version=version)
            elif act == "join":
                if seat not in live.engine.seats:
                    check_room(live)
                await service.act(
                    table_id,
                    interaction.user.id,
                    ActionKind.JOIN,
                    name=interaction.user.display_name,
                )
            elif act == "leave":
                await service.act(table_id, interaction.user.id, ActionKind.LEAVE)
            elif act == "same_bet":
                await service.act(
                    table_id,
                    interaction.user.id,
                    ActionKind.BET,
                    amount=_last_bet(bot, live, seat),
                )
            elif act in ACT_KIND:
                await service.act(table_id, interaction.user.id, ACT_KIND[act], version=version)
            else:
                raise ServiceError(
                    "That button is not known to this bot.", key="err.unknown_button"
                )
        await acknowledge(click)  # only when the update could not ride on the click
    except (ServiceError, EngineError) as exc:
        await _refuse(interaction, exc, table_id, click, locale)
    except Exception as exc:
        log.exception("button %s on %s failed", act, table_id)
        await _refuse(interaction, exc, table_id, click, locale)


def seat_limit(rules: PontoonRules) -> int:
    """How many may sit at a table: what one table message can show (25 embed fields: a
    field per seat and one for the round's log) and what the packs can deal (five cards a
    seat: 10 with one pack, 20 with two)."""
    packs = rules.packs or 2  # no pack count given: a second pack comes in at 8 players
    return min(render.EMBED_FIELDS_MAX - 1, 52 * packs // 5)


def check_room(live: LiveTable) -> None:
    limit = seat_limit(live.engine.rules)
    if len(live.engine.seats) >= limit:
        raise ServiceError(
            f"The table is full ({limit} seats). (P-TABLE-1)", key="err.pt.full", limit=limit
        )


def _last_bet(bot: PontoonBot, live: LiveTable, seat: str) -> int:
    amount = bot.presenter.last_bet.get((live.table_id, seat))
    if amount is None:
        raise ServiceError(
            "You have no earlier bet at this table to repeat: press **Bet** and type an amount.",
            key="err.pt.no_last_bet",
        )
    return amount


async def _refuse(
    interaction: Interaction,
    exc: BaseException,
    table_id: str | None,
    click: Click | None = None,
    locale: str = DEFAULT_LOCALE,
) -> None:
    """The member's private "no" in their language: the friendly message, seat ids said
    as names."""
    bot = _bot(interaction)
    text = friendly(exc, locale)
    live = bot.service.tables.get(table_id) if table_id else None
    if live is not None:
        text = bot.presenter.name_ids(live, text, locale)
    if click is not None:
        await answer(click, text)
    else:
        await reply(interaction, text)


def _why_not(live: LiveTable, seat: str, kind: ActionKind) -> ServiceError:
    eng = live.engine
    if eng.turn is not None and eng.turn[0] != seat and eng.phase is Phase.PLAYING:
        return ServiceError("It is not your turn. (P-TURN-END)", key="err.pt.not_your_turn")
    return ServiceError(
        f"You cannot {kind.value} right now.",
        key="err.pt.cannot_now",
        kind=Msg(f"engine.word.{kind.value}"),
    )


async def handle_modal(interaction: Interaction) -> None:
    bot = _bot(interaction)
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    click: Click | None = None
    table_id: str | None = None
    locale = await locale_of(interaction)
    try:
        parts = custom_id[len(MODAL_PREFIX) :].split(":")
        if len(parts) != 3 or parts[1] not in MODAL_TITLES or not parts[2].isdigit():
            raise ServiceError("That form is not known to this bot.", key="err.unknown_form")
        table_id, act, version_text = parts
        values = modal_values(data)
        amount = parse_amount(values.get(AMOUNT_FIELD), "amount")
        shoot_text = values.get(SHOOT_FIELD, "").strip()
        shoot = parse_amount(shoot_text, "shoot bet") if shoot_text else None
        live = bot.service.get(table_id)
        bot.presenter.remember(live, interaction)
        version = None if act == "bet" else int(version_text)
        click = Click(interaction, table_id)
        with member_action(click):
            await bot.service.act(
                table_id,
                interaction.user.id,
                ACT_KIND[act],
                amount=amount,
                shoot=shoot,
                version=version,
            )
        if not click.updated:  # the table was not redrawn on this form: say it worked
            await answer(click, _done_text(act, amount).render(locale))
    except (ServiceError, EngineError) as exc:
        await _refuse(interaction, exc, table_id, click, locale)
    except Exception as exc:
        log.exception("modal %s failed", custom_id)
        await _refuse(interaction, exc, table_id, click, locale)


def _custom_ids(components: object) -> set[str]:
    """Every custom id in a message's components (rows, containers, sections)."""
    found: set[str] = set()
    stack = list(components) if isinstance(components, list | tuple) else []
    while stack:
        comp = stack.pop()
        cid = getattr(comp, "custom_id", None)
        if isinstance(cid, str):
            found.add(cid)
        for attr in ("children", "components", "items"):
            more = getattr(comp, attr, None)
            if isinstance(more, list | tuple):
                stack.extend(more)
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            stack.append(accessory)
    return found


async def handle_orphan_click(interaction: Interaction) -> None:
    """Answer a click that no item will: discord.py dispatches a DynamicItem only when the
    clicked custom id is on the message the interaction carries, so a click on a button
    from an older rendering of the table (or a forged id) would get no answer at all and
    the member would see "This interaction failed"."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if int(data.get("component_type", 2) or 2) != discord.ComponentType.button.value:
        return
    msg = interaction.message
    if msg is not None and custom_id in _custom_ids(msg.components):
        return  # discord.py dispatches it to its item
    store = getattr(interaction.client._connection, "_view_store", None)
    views = getattr(store, "_views", {}) if store is not None else {}
    key = (discord.ComponentType.button.value, custom_id)
    if key in views.get(msg.id if msg is not None else None, {}) or key in views.get(None, {}):
        return  # a View registered for it answers
    match = TableButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is not None:
        # a Pontoon button from an older rendering: the usual path says why (stale, closed)
        await handle_button(interaction, match["table"], match["act"], int(match["version"]))
        return
    await reply(interaction, t(await locale_of(interaction), "err.pt.inactive_button"))


def _done_text(act: str, amount: int) -> Msg:
    return {
        "bet": Msg("pt.done.bet", amount=amount),
        "buy": Msg("pt.done.buy", amount=amount),
        "shoot": Msg("pt.done.shoot", amount=amount) if amount else Msg("pt.done.shoot_pass"),
        "kitty": Msg("pt.done.kitty", amount=amount),
    }.get(act, Msg("pt.done"))


class Pontoon(
    commands.GroupCog,
    group_name="pontoon",
    group_description="Play Pontoon at this channel's table",
):
    def __init__(self, bot: PontoonBot) -> None:
        self.bot = bot
        super().__init__()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Every Pontoon modal submit (forms are never kept as live Modal objects), and
        button clicks discord.py would drop without an answer."""
        if interaction.type is discord.InteractionType.component:
            await handle_orphan_click(interaction)
            return
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(MODAL_PREFIX):
            return
        await handle_modal(interaction)

    def _table(self, interaction: Interaction) -> LiveTable:
        if interaction.channel_id is None:
            raise ServiceError("Use this in a server channel.", key="err.server_only")
        return self.bot.service.in_channel(interaction.channel_id)

    async def _do(
        self,
        interaction: Interaction,
        kind: ActionKind,
        *,
        amount: int | None = None,
        shoot: int | None = None,
        done: Msg | None = None,
    ) -> None:
        click = Click(interaction, "")
        live: LiveTable | None = None
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            self.bot.presenter.remember(live, interaction)
            if amount is not None:
                amount = parse_amount(amount)
            if shoot is not None:
                shoot = parse_amount(shoot, "shoot bet")
            with member_action(click):
                await self.bot.service.act(
                    live.table_id,
                    interaction.user.id,
                    kind,
                    amount=amount,
                    shoot=shoot,
                    name=interaction.user.display_name,
                )
            await answer(click, (done or Msg("pt.done")).render(locale))
        except (ServiceError, EngineError, BadAmount) as exc:
            await _refuse(interaction, exc, live.table_id if live else None, click, locale)

    @app_commands.command(name="start", description="Open a Pontoon table in this channel")
    @app_commands.describe(
        min_bet="smallest initial bet (P-TABLE-2)",
        max_bet="largest initial bet (P-TABLE-2)",
        banker="players cut for the bank, or the house banks (for a lone player)",
        packs="number of packs (default: 1, two with 8+ players)",
        shoot="Shoot Pontoon mode with a kitty (P-SHOOT)",
        kitty_min="smallest kitty in Shoot mode",
        kitty_max="largest kitty in Shoot mode",
        split_aces_only="P-VAR-1: only aces may be split",
        stick_on_16="P-VAR-2: need 16 to stick",
        banker_doubles="P-VAR-3: the banker may double all bets",
        pontoon_pays="P-VAR-4: how pontoons pay (five card tricks stay double)",
        no_buy_five_on_eleven="P-VAR-5: no buying the fifth card on 11 or less",
        royal_pontoon="P-VAR-6: three sevens pay triple",
        pontoon_strength="P-VAR-7: which pontoons are stronger",
        burn="P-VAR-8: burn a hard 13 or 14",
        turn_timer="seconds each player has to bet or act (default: the bot's setting)",
        cards="how players see face-down cards: by DM (default) or only with Show my cards",
    )
    async def start(
        self,
        interaction: Interaction,
        min_bet: app_commands.Range[int, 1, 1_000_000] = 1,
        max_bet: app_commands.Range[int, 1, 1_000_000] = 10,
        banker: Literal["players", "house"] = "players",
        packs: app_commands.Range[int, 1, 2] | None = None,
        shoot: bool = False,
        kitty_min: app_commands.Range[int, 1, 1_000_000] = 10,
        kitty_max: app_commands.Range[int, 1, 1_000_000] = 100,
        split_aces_only: bool = False,
        stick_on_16: bool = False,
        banker_doubles: bool = False,
        pontoon_pays: Literal[
            "double", "single", "triple", "players_double_banker_single"
        ] = "double",
        no_buy_five_on_eleven: bool = False,
        royal_pontoon: bool = False,
        pontoon_strength: Literal[
            "standard", "picture_beats_ten", "ace_ten_not_pontoon", "natural"
        ] = "standard",
        burn: Literal["off", "13", "14"] = "off",
        turn_timer: app_commands.Range[int, 10, 3600] | None = None,
        cards: Literal["dm", "button"] = "dm",
    ) -> None:
        locale = await locale_of(interaction)
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                raise ServiceError(
                    "Pontoon tables live in server channels, not in DMs.", key="err.pt.dm"
                )
            if min_bet > max_bet:
                raise ServiceError(
                    "The minimum bet cannot be above the maximum bet (P-TABLE-2).",
                    key="err.pt.min_max",
                )
            if shoot and kitty_min > kitty_max:
                raise ServiceError(
                    "The kitty minimum cannot be above its maximum (P-SHOOT-1).",
                    key="err.pt.kitty_min_max",
                )
            try:
                rules = PontoonRules(
                    min_bet=min_bet,
                    max_bet=max_bet,
                    packs=packs,
                    shoot=shoot,
                    kitty_min=kitty_min,
                    kitty_max=kitty_max,
                    split_aces_only=split_aces_only,
                    stick_on_16=stick_on_16,
                    banker_doubles=banker_doubles,
                    pontoon_pays=pontoon_pays,
                    no_buy_five_on_eleven=no_buy_five_on_eleven,
                    royal_pontoon=royal_pontoon,
                    pontoon_strength=pontoon_strength,
                    burn=burn,
                    house_bank=banker == "house",
                )
            except ValueError as exc:
                raise ConfigError(str(exc).splitlines()[0]) from exc
            click = Click(interaction, "")
            with member_action(click):
                live = await self.bot.service.open_table(
                    interaction.guild_id,
                    interaction.channel_id,
                    interaction.user.id,
                    rules,
                    opener_name=interaction.user.display_name,
                    turn_seconds=float(turn_timer) if turn_timer else None,
                    cards=CardDelivery(cards),
                )
            self.bot.presenter.remember(live, interaction)
            await answer(click, t(locale, "pt.opened"))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))

    @app_commands.command(name="join", description="Sit at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        with contextlib.suppress(ServiceError):
            live = self._table(interaction)
            if seat_of(interaction.user.id) not in live.engine.seats:
                try:
                    check_room(live)
                except ServiceError as exc:
                    await reply(interaction, friendly(exc, await locale_of(interaction)))
                    return
        await self._do(interaction, ActionKind.JOIN, done=Msg("pt.done.join"))

    @app_commands.command(name="leave", description="Leave this channel's table (between rounds)")
    async def leave(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.LEAVE, done=Msg("pt.done.leave"))

    @app_commands.command(name="deal", description="Deal the next round (banker or opener)")
    async def deal(self, interaction: Interaction) -> None:
        click = Click(interaction, "")
        live: LiveTable | None = None
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            self.bot.presenter.remember(live, interaction)
            with member_action(click):
                await self.bot.service.deal(live.table_id, interaction.user.id)
            await answer(click, t(locale, "pt.done.deal"))
        except (ServiceError, EngineError) as exc:
            await _refuse(interaction, exc, live.table_id if live else None, click, locale)

    @app_commands.command(name="bet", description="Place your initial bet (P-DEAL-2)")
    async def bet(self, interaction: Interaction, amount: int) -> None:
        await self._do(
            interaction, ActionKind.BET, amount=amount, done=Msg("pt.done.bet", amount=amount)
        )

    @app_commands.command(name="buy", description="Buy a card face down (P-BUY-1)")
    @app_commands.describe(shoot="a shoot bet with a fourth card (P-SHOOT-4)")
    async def buy(self, interaction: Interaction, amount: int, shoot: int | None = None) -> None:
        await self._do(
            interaction,
            ActionKind.BUY,
            amount=amount,
            shoot=shoot,
            done=Msg("pt.done.buy_short", amount=amount),
        )

    @app_commands.command(name="shoot", description="Shoot bet against the kitty (0 to pass)")
    async def shoot_cmd(self, interaction: Interaction, amount: int) -> None:
        await self._do(
            interaction,
            ActionKind.SHOOT,
            amount=amount,
            done=Msg("pt.done.shoot_short") if amount else Msg("pt.done.pass"),
        )

    @app_commands.command(name="twist", description="Twist: a card face up (P-TWIST-1)")
    @app_commands.describe(shoot="a shoot bet with a fourth card (P-SHOOT-4)")
    async def twist(self, interaction: Interaction, shoot: int | None = None) -> None:
        await self._do(interaction, ActionKind.TWIST, shoot=shoot, done=Msg("pt.done.twist"))

    @app_commands.command(
        name="stick", description="Stick (15 or more, P-STICK-1); the banker stays"
    )
    async def stick(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.STICK, done=Msg("pt.done.stick"))

    @app_commands.command(name="split", description="Split a pair (P-SPLIT-1)")
    @app_commands.describe(shoot="Shoot mode: a shoot bet on the new hand (P-SHOOT-5)")
    async def split(self, interaction: Interaction, shoot: int | None = None) -> None:
        await self._do(interaction, ActionKind.SPLIT, shoot=shoot, done=Msg("pt.done.split"))

    @app_commands.command(name="declare", description="Declare your pontoon (P-TURN-DECLARE)")
    async def declare(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.DECLARE, done=Msg("pt.done.declare"))

    @app_commands.command(name="burn", description="Burn a hard 13/14 (P-VAR-8)")
    async def burn_cmd(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.BURN, done=Msg("pt.done.burn"))

    @app_commands.command(name="double", description="Banker: double all bets (P-VAR-3)")
    async def double(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.DOUBLE, done=Msg("pt.done.double"))

    @app_commands.command(
        name="no-double", description="Banker: play on without doubling (P-VAR-3)"
    )
    async def no_double(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.NO_DOUBLE, done=Msg("pt.done.no_double"))

    @app_commands.command(name="cards", description="Show your cards (only you see them)")
    async def cards(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            seat = seat_of(interaction.user.id)
            await reply(interaction, self.bot.presenter.hand_summary(live, seat, locale))
        except ServiceError as exc:
            await reply(interaction, friendly(exc, locale))

    @app_commands.command(name="rules", description="This table's rules in plain words")
    async def rules(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
            await reply(interaction, rules_text(live.engine.rules, locale))
        except ServiceError:
            await reply(
                interaction,
                rules_text(PontoonRules(), locale) + "\n" + t(locale, "pt.rules.defaults"),
            )

    @app_commands.command(
        name="end", description="Close this channel's table; stakes in play are returned"
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
            click = Click(interaction, "")
            with member_action(click):
                await self.bot.service.close(
                    live.table_id, f"ended by {display(interaction.user.display_name)}"
                )
            await answer(click, t(locale, "pt.done.end"))
        except (ServiceError, EngineError) as exc:
            await reply(interaction, friendly(exc, locale))


async def setup(bot: PontoonBot) -> None:
    await bot.add_cog(Pontoon(bot))
