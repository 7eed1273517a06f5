"""The Punto Banco betting message's buttons and its bet form, and what a click or a
submit does: thin adapters from Discord to the PuntoBancoService (bot/punto_banco.py).

Custom ids (kept exactly, so buttons and open forms work after a restart):
``pb:{table}:{act}:{round}`` for a button, ``pbm:{table}:{side}:{round}`` for a form.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import ServiceError, friendly, parse_amount
from bot.host import seat_of
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.punto_banco import OpenPuntoBancoTable
from cogs.common import Interaction, TableButton, bot_of, modal_values, reply, table_button_id
from cogs.punto_banco import access
from cogs.punto_banco.text import odds_text, placed, receipt_text, refused, side_label
from cogs.table_message import Click, answer, answered_in_time
from engine.errors import EngineError
from engine.punto_banco import Side

log = logging.getLogger(__name__)

BUTTON_ID = re.compile(table_button_id("pb", "[a-z]+"))
MODAL_PREFIX = "pbm:"
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

    async def on_submit(self, interaction: Interaction) -> None:
        return None


# -------------------------------------------------------- what a click or a submit does
async def handle_button(interaction: Interaction, table_id: str, act: str, round_no: int) -> None:
    """What a click on a ``pb:`` button does. Repeat bet and Withdraw are answered with
    the new table in the click's own response (one request); a refusal privately."""
    locale = await locale_of(interaction)
    click: Click | None = None
    try:
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
            side = Side(act)
            current = {b.side: b.amount for b in live.engine.bets_of(seat)}
            last = {b.side: b.amount for b in live.engine.last_bets_of(seat)}
            default = current.get(side) or last.get(side)
            await interaction.response.send_modal(
                BetModal(table_id, side, round_no, default, locale)
            )
            return
        if act not in ("repeat", "withdraw"):
            raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
        click = Click(interaction, table_id)
        with answered_in_time(click):
            # the bet comes back committed; this click is answered with it below
            if act == "repeat":
                receipt = await service.repeat(
                    table_id,
                    interaction.user.id,
                    round_no=round_no,
                    name=interaction.user.display_name,
                    answered=True,
                )
                done = Msg("pb.repeated")
            else:
                receipt = await service.withdraw(
                    table_id, interaction.user.id, round_no=round_no, answered=True
                )
                done = Msg("pb.withdrawn")
            # the new table on the click's answer; else say privately that it worked
            await access.presenter(bot_of(interaction)).respond(
                click, service.tables.get(table_id), receipt_text(receipt, done, locale)
            )
    except (ServiceError, EngineError) as exc:
        await _refuse(interaction, click, refused(exc, locale))
    except Exception as exc:
        log.exception("button %s on %s failed", act, table_id)
        await _refuse(interaction, click, friendly(exc, locale))


async def _refuse(interaction: Interaction, click: Click | None, text: str) -> None:
    if click is not None:
        await answer(click, text)
    else:
        await reply(interaction, text)


async def handle_modal(interaction: Interaction) -> None:
    """A submitted bet form: ``pbm:{table}:{side}:{round}`` plus the amount typed. A form
    opened from the table message is answered with the new table (one request)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    locale = await locale_of(interaction)
    click: Click | None = None
    try:
        parts = custom_id[len(MODAL_PREFIX) :].split(":")
        if len(parts) != 3 or parts[1] not in SIDES or not parts[2].isdigit():
            raise ServiceError("That form is not known to this bot.", key="err.unknown_form")
        table_id, side, round_text = parts
        amount = parse_amount(modal_values(data).get(AMOUNT_FIELD), "bet")
        service = access.service(bot_of(interaction))
        click = Click(interaction, table_id)
        with answered_in_time(click):
            receipt = await service.bet(
                table_id,
                interaction.user.id,
                Side(side),
                amount,
                round_no=int(round_text),
                name=interaction.user.display_name,
                answered=True,
            )
            await access.presenter(bot_of(interaction)).respond(
                click,
                service.tables.get(table_id),
                receipt_text(receipt, placed(locale, amount, Side(side)), locale),
            )
    except (ServiceError, EngineError) as exc:
        await _refuse(interaction, click, refused(exc, locale))
    except Exception as exc:
        log.exception("bet form %s failed", custom_id)
        await _refuse(interaction, click, friendly(exc, locale))
