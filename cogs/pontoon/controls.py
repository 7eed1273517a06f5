"""The Pontoon table message's buttons and its amount form, and what a click or a
submit does: thin adapters from Discord to the PontoonService.

Custom ids (kept exactly, so buttons and open forms work after a restart):
``pt:{table}:{act}:{version}`` for a button, ``ptm:{table}:{act}:{version}`` for a form
(answered by the router, cogs/router.py, which also answers stale and orphan clicks).
"""

from __future__ import annotations

import logging
import re

import discord

from bot.errors import NotSeated, ServiceError, StaleButton, friendly, parse_amount
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.pontoon import MOST_COMPUTERS, OpenPontoonTable, computers_at, seat_of
from cogs.common import GameBot, Interaction, TableButton, bot_of, table_button_id
from cogs.help import HELP_HINT
from cogs.pontoon import access, hints, render
from cogs.router import TableForm
from cogs.table_message import Click, answered_in_time
from engine.errors import EngineError
from engine.pontoon.types import Action, ActionKind, Phase
from engine.pontoon.views import Observation
from engine.records import computer_seat

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------ buttons
class PontoonButton(TableButton, template=table_button_id("pt")):
    """Every button on a Pontoon table message: ``pt:{table}:{act}:{version}`` (the
    engine's version the table was drawn at: an older one is refused as stale)."""

    prefix = "pt"
    inactive = "err.pt.inactive_button"

    async def clicked(self, interaction: Interaction) -> None:
        await handle_button(interaction, self.table_id, self.act, self.number)


# (action, label message id, style, row) of every button a table message may carry, in order.
BUTTONS: list[tuple[str, str, discord.ButtonStyle, int]] = [
    ("join", "pt.button.join", discord.ButtonStyle.success, 0),
    ("leave", "pt.button.leave", discord.ButtonStyle.secondary, 0),
    ("deal", "pt.button.deal", discord.ButtonStyle.primary, 0),
    ("kitty", "pt.button.kitty", discord.ButtonStyle.secondary, 0),
    ("cards", "pt.button.cards", discord.ButtonStyle.secondary, 0),
    ("bet", "pt.button.bet", discord.ButtonStyle.primary, 1),
    ("same_bet", "pt.button.same_bet", discord.ButtonStyle.primary, 1),
    ("double", "pt.button.double", discord.ButtonStyle.danger, 1),
    ("no_double", "pt.button.no_double", discord.ButtonStyle.secondary, 1),
    ("shoot", "pt.button.shoot", discord.ButtonStyle.primary, 1),
    ("buy", "pt.button.buy", discord.ButtonStyle.primary, 2),
    ("twist", "pt.button.twist", discord.ButtonStyle.primary, 2),
    ("stick", "pt.button.stick", discord.ButtonStyle.success, 2),
    ("split", "pt.button.split", discord.ButtonStyle.secondary, 3),
    ("declare", "pt.button.declare", discord.ButtonStyle.success, 3),
    ("burn", "pt.button.burn", discord.ButtonStyle.danger, 3),
    ("hint", "pt.button.hint", discord.ButtonStyle.secondary, 3),
    ("computer", "pt.button.computer", discord.ButtonStyle.secondary, 3),
]

# In the banker's turn the play buttons are the banker's, and say so.
BANKER_LABELS = {"twist": "pt.button.banker_twist", "stick": "pt.button.banker_stay"}

ACT_KIND: dict[str, ActionKind] = {
    "join": ActionKind.JOIN,
    "leave": ActionKind.LEAVE,
    "bet": ActionKind.BET,
    "same_bet": ActionKind.BET,
    "double": ActionKind.DOUBLE,
    "no_double": ActionKind.NO_DOUBLE,
    "shoot": ActionKind.SHOOT,
    "buy": ActionKind.BUY,
    "twist": ActionKind.TWIST,
    "stick": ActionKind.STICK,
    "split": ActionKind.SPLIT,
    "declare": ActionKind.DECLARE,
    "burn": ActionKind.BURN,
    "kitty": ActionKind.KITTY,
}


#: a seat id no member has (Discord ids are never 0): asked for what a newcomer may do
NEWCOMER = "0"


def legal_union(live: OpenPontoonTable) -> set[str]:
    """Names of the buttons someone at the table may use right now."""
    eng = live.engine
    kinds: set[ActionKind] = set()
    for seat in eng.seats:
        kinds.update(la.kind for la in eng.legal_actions(seat))
    # Join: whether the engine would seat someone new now (the phase, the seat limit)
    kinds.update(la.kind for la in eng.legal_actions(NEWCOMER))
    names = {name for name, kind in ACT_KIND.items() if kind in kinds}
    # Deal: the next round (after the last one's close, NEXT_ROUND) may be dealt now
    if kinds & {ActionKind.DEAL, ActionKind.NEXT_ROUND}:
        names.add("deal")
    # Same bet: only with a stake to repeat (not in a table's first round)
    if "bet" in names and any(s in live.last_bets for s in eng.seats):
        names.add("same_bet")
    else:
        names.discard("same_bet")
    names.add("cards")
    # Hint: while a player's hand is being played (it answers privately whoever presses
    # it, and only the member whose turn it is gets figures)
    if eng.phase is Phase.PLAYING and eng.turn is not None:
        names.add("hint")
    if computer_may_sit(live):
        names.add("computer")
    return names


def computer_may_sit(live: OpenPontoonTable) -> bool:
    """Whether a computer player may be added now (the opener's button): between
    rounds, fewer than the most, and a seat free (the engine's seat limit)."""
    eng = live.engine
    taken = computers_at(eng)
    if eng.phase not in (Phase.WAITING, Phase.ROUND_OVER) or len(taken) >= MOST_COMPUTERS:
        return False
    free = next(
        computer_seat(n) for n in range(1, MOST_COMPUTERS + 1) if computer_seat(n) not in taken
    )
    return eng.why_not(Action(free, ActionKind.JOIN)) is None


def shown_buttons(live: OpenPontoonTable) -> list[str]:
    rules = live.engine.rules
    hide = set()
    if not rules.shoot:
        hide.update({"kitty", "shoot"})
    if not rules.banker_doubles:
        hide.update({"double", "no_double"})
    if rules.burn == "off":
        hide.add("burn")
    if not computer_may_sit(live):  # shown while the opener may add one
        hide.add("computer")
    return [b[0] for b in BUTTONS if b[0] not in hide]


def _table_buttons(
    live: OpenPontoonTable, closed: bool, locale: str
) -> list[tuple[int, PontoonButton]]:
    """(row, button) of every button the table message shows now, in order."""
    enabled = set() if closed else legal_union(live)
    shown = shown_buttons(live)
    banker_turn = live.engine.phase is Phase.BANKER
    out: list[tuple[int, PontoonButton]] = []
    for name, label, style, row in BUTTONS:
        if name not in shown:
            continue
        key = BANKER_LABELS.get(name, label) if banker_turn else label
        button = PontoonButton(
            live.table_id,
            name,
            live.engine.version,
            label=t(locale, key),
            style=style,
            disabled=name not in enabled,
        )
        out.append((row, button))
    return out


def table_rows(
    live: OpenPontoonTable, *, closed: bool = False, locale: str = DEFAULT_LOCALE
) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The table message's buttons as action rows of a layout (at most 5 a row), with
    the same custom ids as ever: restarts and stale clicks work the same."""
    rows: dict[int, discord.ui.ActionRow[discord.ui.LayoutView]] = {}
    for row, button in _table_buttons(live, closed, locale):
        action_row = rows.setdefault(row, discord.ui.ActionRow())
        action_row.add_item(button)
    return [rows[k] for k in sorted(rows)]


def row_components(rows: list[discord.ui.ActionRow[discord.ui.LayoutView]]) -> int:
    """How many components these rows are (each row and each of its buttons)."""
    return sum(1 + len(r.children) for r in rows)


# ---------------------------------------------------------------------- the amount form
# Forms are answered by the router (cogs/router.py) from the custom id alone, so an open
# form still works after a restart: ptm:{table}:{act}:{version}
AMOUNT_FIELD = "amount"
SHOOT_FIELD = "shoot"


class AmountModal(
    TableForm, template=r"ptm:(?P<table>[0-9a-f]+):(?P<act>bet|buy|shoot|kitty):(?P<version>[0-9]+)"
):
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
        label: str | None = None,
    ) -> None:
        super().__init__(title=title, custom_id=f"ptm:{table_id}:{act}:{version}")
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            # the allowed range in the label, where it shows even over a default
            label=label or t(locale, "pt.modal.amount"),
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

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        await handle_modal(interaction, match["table"], match["act"], int(match["version"]), values)


def _range_hint(
    live: OpenPontoonTable,
    seat: str,
    kind: ActionKind,
    locale: str = DEFAULT_LOCALE,
    seen: Observation | None = None,
) -> tuple[str, bool]:
    for la in live.engine.legal_actions(seat):
        if la.kind is kind:
            hint = ""
            if la.min_amount is not None and la.max_amount is not None:
                hint = t(locale, "pt.modal.hint", min=la.min_amount, max=la.max_amount)
                if seen is None:
                    seen = live.engine.observe(seat)
                capped = la.max_amount == seen.cover_room
                if kind is ActionKind.BET and capped and la.max_amount < live.engine.rules.max_bet:
                    # the banker's chips, not the table, set this maximum: say so
                    hint = t(locale, "pt.modal.hint.cover", min=la.min_amount, max=la.max_amount)
            return hint, bool(la.shoot_max)
    return "", False


def _range_label(
    live: OpenPontoonTable, seat: str, kind: ActionKind, locale: str = DEFAULT_LOCALE
) -> str | None:
    """The amount field's label with the allowed range ("Chips: 1 to 10"), or None when
    the move has no range (newcomer N-09: a form said "Amount (chips)" alone)."""
    for la in live.engine.legal_actions(seat):
        if la.kind is kind and la.min_amount is not None and la.max_amount is not None:
            return t(locale, "form.chips.range", min=la.min_amount, max=la.max_amount)
    return None


#: message id of each amount form's title
MODAL_TITLES = {
    "bet": "pt.modal.bet",
    "buy": "pt.modal.buy",
    "shoot": "pt.modal.shoot_title",
    "kitty": "pt.modal.kitty",
}


# -------------------------------------------------------- what a click or a submit does
async def handle_button(interaction: Interaction, table_id: str, act: str, version: int) -> None:
    bot = bot_of(interaction)
    service = access.service(bot)
    locale = await locale_of(interaction)
    live = service.get(table_id)
    access.presenter(bot).remember(live, interaction)
    seat = seat_of(interaction.user.id)
    if act == "cards":
        await interaction.response.send_message(
            access.presenter(bot).hand_summary(live, seat, locale)
            if seat in live.engine.seats
            else t(locale, "pt.not_seated_here"),
            ephemeral=True,
        )
        return
    if act == "hint":
        await interaction.response.send_message(
            await hint_answer(bot, table_id, interaction.user.id, locale), ephemeral=True
        )
        return
    if act in MODAL_TITLES:
        kind = ACT_KIND[act]
        if seat not in live.engine.seats:
            raise NotSeated()
        if act != "bet" and version != live.engine.version:
            raise StaleButton()
        seen = live.engine.observe(seat)  # the member's own view: the form's cards and limit
        hint, with_shoot = _range_hint(live, seat, kind, locale, seen)
        if not hint and kind is not ActionKind.SHOOT and kind is not ActionKind.KITTY:
            # Not legal for this seat now: say why; nothing changes.
            raise _why_not(live, seat, kind)
        modal = AmountModal(
            table_id,
            act,
            version,
            render.form_title(t(locale, MODAL_TITLES[act]), seen.hands, locale),
            with_shoot=with_shoot,
            hint=hint or t(locale, "amount.what.amount"),
            locale=locale,
            label=_range_label(live, seat, kind, locale),
        )
        # Not kept as a live Modal (TableForm): members at one table share the custom
        # id; every submit is answered from its custom id alone (cogs/router.py).
        await interaction.response.send_modal(modal)
        return
    click = Click(interaction, table_id)
    with answered_in_time(click):
        if act == "deal":
            change = await service.deal(table_id, interaction.user.id, version=version)
        elif act == "join":  # the seat limit is the engine's, checked under the lock
            change = await service.act(
                table_id,
                interaction.user.id,
                ActionKind.JOIN,
                name=interaction.user.display_name,
            )
        elif act == "leave":
            change = await service.act(table_id, interaction.user.id, ActionKind.LEAVE)
        elif act == "computer":  # the opener's, between rounds (the service checks)
            change = await service.add_computer(table_id, interaction.user.id)
        elif act == "same_bet":
            change = await service.act(
                table_id, interaction.user.id, ActionKind.BET, amount=_last_bet(live, seat)
            )
        elif act in ACT_KIND:
            change = await service.act(
                table_id, interaction.user.id, ACT_KIND[act], version=version
            )
        else:
            raise ServiceError("That button is not known to this bot.", key="err.unknown_button")
        # the move came back committed: this click is answered from it
        await access.presenter(bot).respond(click, change)
    if act == "join":
        await seated(interaction, locale)


async def hint_answer(bot: GameBot, table_id: str, user_id: int, locale: str) -> str:
    """The hint for the member's hand being played, in their words (the service refuses,
    changing nothing, when it is not their hand's turn at this table)."""
    found, cards = await access.service(bot).hint(table_id, user_id)
    return hints.hint_text(found, cards, locale)


async def seated(interaction: Interaction, locale: str) -> None:
    """After a Join by button: the seat confirmed privately (the redrawn table shows it
    to everyone, but says nothing to the one who clicked), and the first time a member
    joins any table, the pointer to /help with it (remembered in the store)."""
    text = t(locale, "pt.done.join")
    store = getattr(interaction.client, "store", None)
    try:
        if store is not None and await store.mark_hint_shown(interaction.user.id, HELP_HINT):
            text += " " + t(locale, "help.hint")
    except Exception:
        log.exception("could not remember the help hint for %s", interaction.user.id)
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("the seat confirmation for %s was not sent", interaction.user.id)


def _last_bet(live: OpenPontoonTable, seat: str) -> int:
    amount = live.last_bets.get(seat)
    if amount is None:
        raise ServiceError(
            "You have no earlier bet at this table to repeat: press **Bet** and type an amount.",
            key="err.pt.no_last_bet",
        )
    return amount


def refusal_text(interaction: Interaction, exc: BaseException, locale: str) -> str:
    """A refusal in Pontoon's words (cogs/router.py asks it): the friendly message, seat
    ids said as the names of this channel's table."""
    bot = bot_of(interaction)
    text = friendly(exc, locale, me=seat_of(interaction.user.id))
    service = access.service(bot)
    table_id = service.by_channel.get(interaction.channel_id or 0)
    live = service.tables.get(table_id) if table_id else None
    if live is not None:
        text = access.presenter(bot).name_ids(live, text, locale)
    return text


def _why_not(live: OpenPontoonTable, seat: str, kind: ActionKind) -> EngineError | ServiceError:
    """Why the engine does not offer ``kind`` to ``seat`` now: its own refusal (tried
    with the smallest amount), or a plain "not now"."""
    refusal = live.engine.why_not(Action(seat, kind, amount=1))
    if refusal is not None:
        return refusal
    return ServiceError(
        f"You cannot {kind.value} right now.",
        key="err.pt.cannot_now",
        kind=Msg(f"engine.word.{kind.value}"),
    )


async def handle_modal(
    interaction: Interaction, table_id: str, act: str, version_drawn: int, values: dict[str, str]
) -> None:
    bot = bot_of(interaction)
    locale = await locale_of(interaction)
    amount = parse_amount(values.get(AMOUNT_FIELD), "amount")
    shoot_text = values.get(SHOOT_FIELD, "").strip()
    shoot = parse_amount(shoot_text, "shoot bet") if shoot_text else None
    live = access.service(bot).get(table_id)
    access.presenter(bot).remember(live, interaction)
    version = None if act == "bet" else version_drawn
    click = Click(interaction, table_id)
    service = access.service(bot)
    with answered_in_time(click):
        change = await service.act(
            table_id,
            interaction.user.id,
            ACT_KIND[act],
            amount=amount,
            shoot=shoot,
            version=version,
        )
        # the table the change left on the form's answer; else say privately it worked
        await access.presenter(bot).respond(click, change, _done_text(act, amount).render(locale))


def _done_text(act: str, amount: int) -> Msg:
    return {
        "bet": Msg("pt.done.bet", amount=amount),
        "buy": Msg("pt.done.buy", amount=amount),
        "shoot": Msg("pt.done.shoot", amount=amount) if amount else Msg("pt.done.shoot_pass"),
        "kitty": Msg("pt.done.kitty", amount=amount),
    }.get(act, Msg("pt.done"))
