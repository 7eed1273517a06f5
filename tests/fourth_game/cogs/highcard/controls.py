"""The High Card table message's buttons (Join, Bet, Draw) and its bet form, and what a
click or a submit does. Custom ids: ``hc:{table}:{act}:{version}`` for a button,
``hcm:{table}:{version}`` for the form (answered by the router, cogs/router.py)."""

from __future__ import annotations

import re

import discord

from bot.errors import friendly, parse_amount, rule_text
from bot.host import seat_of
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import locale_of
from cogs.common import Interaction, TableButton, bot_of, table_button_id
from cogs.router import TableForm
from cogs.table_message import Click, answered_in_time
from engine.errors import RuleError
from tests.fourth_game.bot.highcard import OpenHighCardTable
from tests.fourth_game.cogs.highcard import access
from tests.fourth_game.engine.highcard import MAX_SEATS, Action, ActionKind

AMOUNT_FIELD = "amount"
# (act, label id, style) of the table message's buttons, in order
ACTS = (
    (ActionKind.JOIN, "hc.button.join", discord.ButtonStyle.secondary),
    (ActionKind.BET, "hc.button.bet", discord.ButtonStyle.primary),
    (ActionKind.DRAW, "hc.button.draw", discord.ButtonStyle.success),
)


class HighCardButton(TableButton, template=table_button_id("hc", "join|bet|draw")):
    prefix = "hc"

    async def clicked(self, interaction: Interaction) -> None:
        await handle_button(interaction, self.table_id, ActionKind(self.act), self.number)


class BetForm(TableForm, template=r"hcm:(?P<table>[0-9a-f]+):(?P<version>[0-9]+)"):
    """Asks for the stake."""

    def __init__(
        self, table_id: str, version: int, limits: tuple[int, int], locale: str = DEFAULT_LOCALE
    ) -> None:
        super().__init__(title=t(locale, "hc.form.title"), custom_id=f"hcm:{table_id}:{version}")
        self.add_item(
            discord.ui.TextInput(
                label=t(locale, "form.chips.range", min=limits[0], max=limits[1]),
                custom_id=AMOUNT_FIELD,
                required=True,
                max_length=12,
            )
        )

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        amount = parse_amount(values.get(AMOUNT_FIELD), "bet")
        await _play(interaction, match["table"], ActionKind.BET, int(match["version"]), amount)


def table_rows(
    live: OpenHighCardTable, locale: str, *, closed: bool = False
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The buttons, each offered only when someone may use it now (a join while a seat
    is free, a stake, a draw once someone has staked); all off on a closed table."""
    engine = live.engine
    open_seat = len(engine.seats) < MAX_SEATS
    anyone_staked = any(engine.seats.values())
    offered = {
        ActionKind.JOIN: open_seat,
        ActionKind.BET: bool(engine.seats),
        ActionKind.DRAW: anyone_staked,
    }
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    for act, label, style in ACTS:
        row.add_item(
            HighCardButton(
                live.table_id,
                act.value,
                engine.version,
                label=t(locale, label),
                style=style,
                disabled=closed or not offered[act],
            )
        )
    return [row]


async def handle_button(
    interaction: Interaction, table_id: str, act: ActionKind, version: int
) -> None:
    service = access.service(bot_of(interaction))
    live = service.get(table_id)
    if act is ActionKind.BET:
        # the form opens only for a member who may stake now (else the rule's refusal)
        stake = Action(seat_of(interaction.user.id), ActionKind.BET, live.engine.rules.min_bet)
        refusal = live.engine.why_not(stake)
        if refusal is not None:
            raise refusal
        service.check_member_free(live.guild_id, interaction.user.id, at=live)
        rules = live.engine.rules
        locale = await locale_of(interaction)
        await interaction.response.send_modal(
            BetForm(table_id, version, (rules.min_bet, rules.max_bet), locale)
        )
        return
    await _play(interaction, table_id, act, version, None)


async def _play(
    interaction: Interaction, table_id: str, act: ActionKind, version: int, amount: int | None
) -> None:
    """A Join, a stake or a Draw, answered with the table it left (one request)."""
    bot = bot_of(interaction)
    click = Click(interaction, table_id)
    with answered_in_time(click):
        change = await access.service(bot).play(
            table_id,
            interaction.user.id,
            act,
            amount=amount,
            version=version if act is not ActionKind.BET else None,
            name=interaction.user.display_name,
        )
        await access.presenter(bot).respond(click, change)


def refusal_text(interaction: Interaction, exc: BaseException, locale: str) -> str:
    """A refusal in High Card's words (cogs/router.py asks it)."""
    if isinstance(exc, RuleError):
        return t(locale, "hc.refused", text=rule_text(locale, exc))
    return friendly(exc, locale)


__all__ = ["BetForm", "HighCardButton", "handle_button", "refusal_text", "table_rows"]
