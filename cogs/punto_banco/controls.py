"""The Punto Banco betting message's buttons and its bet form, and what a click or a
submit does: thin adapters from Discord to the PuntoBancoService (bot/punto_banco.py).

Custom ids (kept exactly, so buttons and open forms work after a restart):
``pb:{table}:{act}:{round}`` for a button, ``pbm:{table}:{side}:{round}`` for a form
(answered by the router, cogs/router.py, which also answers stale and orphan clicks).
"""

from __future__ import annotations

import logging
import re

import discord

from bot.errors import ServiceError, friendly, parse_amount, rule_text
from bot.host import seat_of
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.punto_banco import OpenPuntoBancoTable
from cogs.common import Interaction, TableButton, bot_of, reply, table_button_id
from cogs.punto_banco import access
from cogs.punto_banco.text import odds_text, placed, receipt_text, side_label
from cogs.router import TableForm
from cogs.table_message import Click, answered_in_time
from engine.errors import RuleError
from engine.punto_banco import Side

log = logging.getLogger(__name__)

BUTTON_ID = re.compile(table_button_id("pb", "[a-z]+"))
AMOUNT_FIELD = "amount"
SIDES = ("punto", "banco", "egalite")


# ------------------------------------------------------------------------------ buttons
class PuntoBancoButton(TableButton, template=BUTTON_ID.pattern):
    """Every button of a betting message: ``pb:{table}:{act}:{round}``. The id carries the
    table and the coup being bet on, so a button of an earlier betting window is refused
    politely."""

    prefix = "pb"

    async def clicked(self, interaction: Interaction) -> None:
        await handle_button(interaction, self.table_id, self.act, self.number)


# (act, label message id, style, emoji) of the betting message's buttons, in order.
BUTTONS: list[tuple[str, str, discord.ButtonStyle, str | None]] = [
    ("punto", "pb.side.punto", discord.ButtonStyle.primary, None),
    ("banco", "pb.side.banco", discord.ButtonStyle.danger, None),
    ("egalite", "pb.side.egalite", discord.ButtonStyle.success, None),
    ("repeat", "pb.button.repeat", discord.ButtonStyle.secondary, "🔁"),
    ("withdraw", "pb.button.withdraw", discord.ButtonStyle.secondary, None),
    ("odds", "pb.button.odds", discord.ButtonStyle.secondary, None),
]


def betting_rows(
    live: OpenPuntoBancoTable,
    *,
    closed: bool = False,
    round_no: int | None = None,
    locale: str = DEFAULT_LOCALE,
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The buttons of a betting message (``round_no``: the coup it was for, default the
    coup being bet on now), labelled in the server's language, as the action rows of a
    layout: the three sides, then repeat, withdraw and the odds."""
    rows: list[discord.ui.ActionRow[discord.ui.LayoutView]] = [
        discord.ui.ActionRow(),
        discord.ui.ActionRow(),
    ]
    for act, label, style, emoji in BUTTONS:
        rows[0 if act in SIDES else 1].add_item(
            PuntoBancoButton(
                live.table_id,
                act,
                live.round if round_no is None else round_no,
                label=t(locale, label),
                style=style,
                emoji=emoji,
                disabled=closed and act != "odds",
            )
        )
    return rows


# ------------------------------------------------------------------------- the bet form
class BetModal(
    TableForm,
    template=r"pbm:(?P<table>[0-9a-f]+):(?P<side>punto|banco|egalite):(?P<round>[0-9]+)",
):
    """Asks for the stake. Its submit is answered by the router (cogs/router.py) from the
    custom id alone (the same path before and after a restart): :func:`handle_modal`."""

    def __init__(
        self,
        table_id: str,
        side: Side,
        round_no: int,
        default: int | None,
        locale: str = DEFAULT_LOCALE,
        limits: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(
            title=t(locale, "pb.modal.title", side=side_label(locale, side), coup=round_no),
            custom_id=f"pbm:{table_id}:{side.value}:{round_no}",
        )
        self.add_item(
            discord.ui.TextInput(
                # the table's range, shown even over the default amount (newcomer N-09)
                label=t(locale, "form.chips.range", min=limits[0], max=limits[1])
                if limits
                else t(locale, "pb.modal.label"),
                custom_id=AMOUNT_FIELD,
                placeholder=t(locale, "pb.modal.placeholder"),
                default=str(default) if default else None,
                required=True,
                max_length=12,
            )
        )

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        await handle_modal(
            interaction, match["table"], Side(match["side"]), int(match["round"]), values
        )


# -------------------------------------------------------- what a click or a submit does
async def handle_button(interaction: Interaction, table_id: str, act: str, round_no: int) -> None:
    """What a click on a ``pb:`` button does. Repeat bet and Withdraw are answered with
    the new table in the click's own response (one request); a refusal privately."""
    locale = await locale_of(interaction)
    click: Click | None = None
    service = access.service(bot_of(interaction))
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
        # chips in play (or a seat) at another table: refused now, not after the form
        service.check_member_free(live.guild_id, interaction.user.id, at=live)
        side = Side(act)
        seen = live.engine.observe(seat)  # the member's own bets, now and last coup
        current = {b.side: b.amount for b in seen.own_bets}
        last = {b.side: b.amount for b in seen.own_last_bets}
        default = current.get(side) or last.get(side)
        rules = live.engine.rules
        await interaction.response.send_modal(
            BetModal(
                table_id, side, round_no, default, locale, limits=(rules.min_bet, rules.max_bet)
            )
        )
        return
    if act not in ("repeat", "withdraw"):
        raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
    click = Click(interaction, table_id)
    with answered_in_time(click):
        # the bet comes back committed; this click is answered from it below
        if act == "repeat":
            receipt = await service.repeat(
                table_id,
                interaction.user.id,
                round_no=round_no,
                name=interaction.user.display_name,
            )
            done = Msg("pb.repeated")
        else:
            receipt = await service.withdraw(table_id, interaction.user.id, round_no=round_no)
            done = Msg("pb.withdrawn")
        # the table the change left on the click's answer; else say privately it worked
        await access.presenter(bot_of(interaction)).respond(
            click, receipt.change, receipt_text(receipt, done, locale)
        )


def refusal_text(interaction: Interaction, exc: BaseException, locale: str) -> str:
    """A refusal in Punto Banco's words (cogs/router.py asks it): an engine rule's
    refusal says the bet was refused."""
    if isinstance(exc, RuleError):
        return t(locale, "pb.refused", text=rule_text(locale, exc))
    return friendly(exc, locale)


async def handle_modal(
    interaction: Interaction, table_id: str, side: Side, round_no: int, values: dict[str, str]
) -> None:
    """A submitted bet form: ``pbm:{table}:{side}:{round}`` plus the amount typed. A form
    opened from the table message is answered with the new table (one request)."""
    locale = await locale_of(interaction)
    amount = parse_amount(values.get(AMOUNT_FIELD), "bet")
    service = access.service(bot_of(interaction))
    click = Click(interaction, table_id)
    with answered_in_time(click):
        receipt = await service.bet(
            table_id,
            interaction.user.id,
            side,
            amount,
            round_no=round_no,
            name=interaction.user.display_name,
        )
        await access.presenter(bot_of(interaction)).respond(
            click, receipt.change, receipt_text(receipt, placed(locale, amount, side), locale)
        )
