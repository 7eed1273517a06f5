"""The Blackjack table message's buttons and its forms, and what a click or a submit
does: thin adapters from Discord to the BlackjackService (bot/blackjack.py).

Custom ids (kept exactly, so buttons and open forms work after a restart):
``bj:{table}:{act}:{number}`` for a button, ``bjm:{table}:{form}:{number}`` for a form
(answered by the router, cogs/router.py, which also answers stale and orphan clicks).
The number is the round for seating, betting and insurance, and the table's version for
the moves of a hand: a second click on the same state (a double click, an old message)
is refused as stale and changes nothing. Refusals are raised, never caught here: the
router's one error handler answers them in Blackjack's words (:func:`refusal_text`).
"""

from __future__ import annotations

import logging
import re

import discord

from bot.blackjack import OpenBlackjackTable
from bot.errors import ServiceError, friendly, parse_amount
from bot.host import seat_of
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from cogs.blackjack import access, hints
from cogs.blackjack.text import refused
from cogs.common import Interaction, TableButton, bot_of, table_button_id
from cogs.router import TableForm
from cogs.table_message import Click, answered_in_time
from engine.blackjack import Action, ActionKind, Phase
from engine.errors import RuleError

log = logging.getLogger(__name__)

BUTTON_ID = re.compile(table_button_id("bj", "[a-z]+"))
AMOUNT_FIELD = "amount"
PLAY = {
    "hit": ActionKind.HIT,
    "stand": ActionKind.STAND,
    "double": ActionKind.DOUBLE,
    "split": ActionKind.SPLIT,
    "surrender": ActionKind.SURRENDER,
}


class BlackjackButton(TableButton, template=BUTTON_ID.pattern):
    """Every button of a Blackjack table message: ``bj:{table}:{act}:{number}``."""

    prefix = "bj"

    async def clicked(self, interaction: Interaction) -> None:
        await handle_button(interaction, self.table_id, self.act, self.number)


S = discord.ButtonStyle
# (act, label message id, style) in the order the message shows them, by row
ROWS: list[list[tuple[str, str, discord.ButtonStyle]]] = [
    [
        ("join", "bj.button.join", S.success),
        ("leave", "bj.button.leave", S.secondary),
        ("bet", "bj.button.bet", S.primary),
        ("same", "bj.button.same", S.secondary),
    ],
    [
        ("hit", "bj.button.hit", S.primary),
        ("stand", "bj.button.stand", S.secondary),
        ("double", "bj.button.double", S.success),
        ("split", "bj.button.split", S.success),
        ("surrender", "bj.button.surrender", S.danger),
    ],
    [
        ("insurance", "bj.button.insurance", S.primary),
        ("noinsurance", "bj.button.no_insurance", S.secondary),
        ("hint", "bj.button.hint", S.secondary),
    ],
]


def offered(live: OpenBlackjackTable) -> set[str]:
    """The buttons the rules offer to someone at the table now (only those are shown)."""
    e = live.engine
    acts: set[str] = set()
    if len(e.seats) < 7 and e.phase in (Phase.BETTING, Phase.ROUND_OVER):
        acts.add("join")
    if any(not e.in_round(s) for s in e.seats):
        acts.add("leave")
    if e.phase in (Phase.BETTING, Phase.ROUND_OVER) and e.seats:
        acts.add("bet")
        if any(s in e.last_bets for s in e.seats):
            acts.add("same")
    if e.phase is Phase.INSURANCE:
        acts.update(("insurance", "noinsurance"))
    if e.phase is Phase.PLAYING and e.turn is not None:
        kinds = {la.kind for la in e.legal_actions(e.turn[0])}
        acts.update(act for act, kind in PLAY.items() if kind in kinds)
    # Hint: while someone decides (it answers privately whoever presses it, and only
    # the member who decides gets figures)
    if e.phase is Phase.INSURANCE or (e.phase is Phase.PLAYING and e.turn is not None):
        acts.add("hint")
    return acts


def table_rows(
    live: OpenBlackjackTable, *, closed: bool = False, locale: str = DEFAULT_LOCALE
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The buttons of the table message, labelled in the server's language: only those
    offered to someone now; none once the table is closed."""
    if closed:
        return []
    shown = offered(live)
    rows: list[discord.ui.ActionRow[discord.ui.LayoutView]] = []
    for spec in ROWS:
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for act, label, style in spec:
            if act not in shown:
                continue
            number = live.engine.version if act in PLAY or act == "hint" else live.round
            row.add_item(
                BlackjackButton(live.table_id, act, number, label=t(locale, label), style=style)
            )
        if row.children:
            rows.append(row)
    return rows


class AmountForm(
    TableForm,
    template=r"bjm:(?P<table>[0-9a-f]+):(?P<form>bet|insurance):(?P<number>[0-9]+)",
):
    """Asks for an amount (a bet, insurance). Its submit is answered by the router
    (cogs/router.py) from the custom id and the amount typed alone (the same path before
    and after a restart): :func:`handle_modal`."""

    def __init__(
        self,
        table_id: str,
        form: str,
        number: int,
        default: int | None,
        most: int | None,
        locale: str = DEFAULT_LOCALE,
        least: int | None = None,
    ) -> None:
        super().__init__(
            title=t(locale, f"bj.modal.{form}", round=number),
            custom_id=f"bjm:{table_id}:{form}:{number}",
        )
        if form == "bet" and most:
            label = t(locale, "form.chips.range", min=least or 1, max=most)
        elif most:
            label = t(locale, "form.chips.most", most=most)
        else:
            label = t(locale, "bj.modal.label")
        self.add_item(
            discord.ui.TextInput(
                label=label,  # the allowed range, shown even over the default amount
                custom_id=AMOUNT_FIELD,
                placeholder=t(locale, "bj.modal.most", most=most) if most else None,
                default=str(default) if default else None,
                required=True,
                max_length=12,
            )
        )

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        await handle_modal(interaction, match["table"], match["form"], int(match["number"]), values)


async def handle_button(interaction: Interaction, table_id: str, act: str, number: int) -> None:
    """What a click on a ``bj:`` button does: one request (the new table in the click's
    own response, or a form); a refusal is raised (the router answers it privately)."""
    locale = await locale_of(interaction)
    service = access.service(bot_of(interaction))
    live = service.get(table_id)
    user = interaction.user
    seat = seat_of(user.id)
    if act == "bet":
        rules = live.engine.rules
        # refused now, not after the form: no seat here, bets closed, or a seat or bets
        # at another table of the server
        refusal = live.engine.why_not(Action(seat, ActionKind.BET, rules.min_bet))
        if refusal is not None:
            raise refusal
        service.check_member_free(live.guild_id, user.id, at=live)
        default = live.engine.bets.get(seat) or live.engine.last_bets.get(seat)
        await interaction.response.send_modal(
            AmountForm(
                table_id,
                "bet",
                number,
                default or rules.min_bet,
                rules.max_bet,
                locale,
                least=rules.min_bet,
            )
        )
        return
    if act == "insurance":
        box = live.engine.boxes.get(seat)
        most = box.hands[0].bet // 2 if box is not None else None
        await interaction.response.send_modal(
            AmountForm(table_id, "insurance", number, most, most, locale)
        )
        return
    if act == "hint":
        # private, changes nothing: the figures for the member's own decision now
        found = service.hint(table_id, user.id)
        await interaction.response.send_message(hints.hint_text(found, locale), ephemeral=True)
        return
    if act not in ("join", "leave", "same", "noinsurance", *PLAY):
        raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
    click = Click(interaction, table_id)
    with answered_in_time(click):
        # the move comes back committed; this click is answered from it
        if act == "join":
            change = await service.join(table_id, user.id, name=user.display_name)
            done = Msg("bj.joined")
        elif act == "leave":
            change = await service.leave(table_id, user.id)
            done = Msg("bj.left")
        elif act == "same":
            amount = service.same_bet_amount(live, user.id)
            change = await service.bet(
                table_id, user.id, amount, round_no=number, name=user.display_name
            )
            done = Msg("bj.bet_placed", amount=amount)
        elif act == "noinsurance":
            change = await service.insure(table_id, user.id, 0, round_no=number)
            done = Msg("bj.insurance_declined")
        else:
            change = await service.play(table_id, user.id, PLAY[act], version=number)
            done = Msg("bj.done")
        # the table the change left on the click's answer; else say privately it worked
        await access.presenter(bot_of(interaction)).respond(
            click, change, t(locale, "bj.answer", done=done)
        )


async def handle_modal(
    interaction: Interaction, table_id: str, form: str, number: int, values: dict[str, str]
) -> None:
    """A submitted form: ``bjm:{table}:{form}:{number}`` plus the amount typed. A form
    opened from the table message is answered with the new table (one request)."""
    locale = await locale_of(interaction)
    amount = parse_amount(values.get(AMOUNT_FIELD), "bet" if form == "bet" else "insurance")
    service = access.service(bot_of(interaction))
    user = interaction.user
    click = Click(interaction, table_id)
    with answered_in_time(click):
        if form == "bet":
            change = await service.bet(
                table_id, user.id, amount, round_no=number, name=user.display_name
            )
            done = Msg("bj.bet_placed", amount=amount)
        else:
            change = await service.insure(table_id, user.id, amount, round_no=number)
            done = Msg("bj.insured", amount=amount)
        await access.presenter(bot_of(interaction)).respond(
            click, change, t(locale, "bj.answer", done=done)
        )


def refusal_text(interaction: Interaction, exc: BaseException, locale: str) -> str:
    """A refusal in Blackjack's words (cogs/router.py asks it): an engine rule's refusal
    says the move was refused and why."""
    if isinstance(exc, RuleError):
        return refused(exc, locale)
    return friendly(exc, locale, me=seat_of(interaction.user.id))
