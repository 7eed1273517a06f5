"""The Pontoon table message's buttons and its amount form, and what a click or a
submit does: thin adapters from Discord to the PontoonService.

Custom ids (kept exactly, so buttons and open forms work after a restart):
``pt:{table}:{act}:{version}`` for a button, ``ptm:{table}:{act}:{version}`` for a form.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.errors import NotSeated, ServiceError, StaleButton, friendly, parse_amount
from bot.i18n import DEFAULT_LOCALE, Msg, t
from bot.i18n.languages import locale_of
from bot.pontoon import OpenPontoonTable, seat_of
from cogs.common import Interaction, TableButton, bot_of, modal_values, reply, table_button_id
from cogs.help import first_join_hint
from cogs.pontoon import access, render
from cogs.table_message import Click, answer, answered_in_time
from engine.errors import EngineError
from engine.pontoon.types import Action, ActionKind, Phase

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------ buttons
class PontoonButton(TableButton, template=table_button_id("pt")):
    """Every button on a Pontoon table message: ``pt:{table}:{act}:{version}`` (the
    engine's version the table was drawn at: an older one is refused as stale)."""

    prefix = "pt"

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
    if "bet" in names:
        names.add("same_bet")
    names.add("cards")
    return names


def shown_buttons(live: OpenPontoonTable) -> list[str]:
    rules = live.engine.rules
    hide = set()
    if not rules.shoot:
        hide.update({"kitty", "shoot"})
    if not rules.banker_doubles:
        hide.update({"double", "no_double"})
    if rules.burn == "off":
        hide.add("burn")
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
MODAL_PREFIX = "ptm:"
# Modal submits are handled from the custom id alone, so an open modal still works after a
# restart: ptm:{table}:{act}:{version}
AMOUNT_FIELD = "amount"
SHOOT_FIELD = "shoot"


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

    async def on_submit(self, interaction: Interaction) -> None:
        await handle_modal(interaction)


def _range_hint(
    live: OpenPontoonTable, seat: str, kind: ActionKind, locale: str = DEFAULT_LOCALE
) -> tuple[str, bool]:
    for la in live.engine.legal_actions(seat):
        if la.kind is kind:
            hint = ""
            if la.min_amount is not None and la.max_amount is not None:
                hint = t(locale, "pt.modal.hint", min=la.min_amount, max=la.max_amount)
                cap = getattr(live.engine, "_banker_cap", None)
                capped = callable(cap) and la.max_amount == cap()
                if kind is ActionKind.BET and capped and la.max_amount < live.engine.rules.max_bet:
                    # the banker's chips, not the table, set this maximum: say so
                    hint = t(locale, "pt.modal.hint.cover", min=la.min_amount, max=la.max_amount)
            return hint, bool(la.shoot_max)
    return "", False


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
    click: Click | None = None
    locale = await locale_of(interaction)
    try:
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
        with answered_in_time(click):
            # the move comes back committed; this click is answered with it below
            if act == "deal":
                await service.deal(table_id, interaction.user.id, version=version, answered=True)
            elif act == "join":  # the seat limit is the engine's, checked under the lock
                await service.act(
                    table_id,
                    interaction.user.id,
                    ActionKind.JOIN,
                    name=interaction.user.display_name,
                    answered=True,
                )
            elif act == "leave":
                await service.act(table_id, interaction.user.id, ActionKind.LEAVE, answered=True)
            elif act == "same_bet":
                await service.act(
                    table_id,
                    interaction.user.id,
                    ActionKind.BET,
                    amount=_last_bet(live, seat),
                    answered=True,
                )
            elif act in ACT_KIND:
                await service.act(
                    table_id, interaction.user.id, ACT_KIND[act], version=version, answered=True
                )
            else:
                raise ServiceError(
                    "That button is not known to this bot.", key="err.unknown_button"
                )
            await access.presenter(bot).respond(click, service.tables.get(table_id))
        if act == "join":
            await first_join_hint(interaction, locale)
    except (ServiceError, EngineError) as exc:
        await refuse(interaction, exc, table_id, click, locale)
    except Exception as exc:
        log.exception("button %s on %s failed", act, table_id)
        await refuse(interaction, exc, table_id, click, locale)


def _last_bet(live: OpenPontoonTable, seat: str) -> int:
    amount = live.last_bets.get(seat)
    if amount is None:
        raise ServiceError(
            "You have no earlier bet at this table to repeat: press **Bet** and type an amount.",
            key="err.pt.no_last_bet",
        )
    return amount


async def refuse(
    interaction: Interaction,
    exc: BaseException,
    table_id: str | None,
    click: Click | None = None,
    locale: str = DEFAULT_LOCALE,
) -> None:
    """The member's private "no" in their language: the friendly message, seat ids said
    as names."""
    bot = bot_of(interaction)
    text = friendly(exc, locale, me=seat_of(interaction.user.id))
    live = access.service(bot).tables.get(table_id) if table_id else None
    if live is not None:
        text = access.presenter(bot).name_ids(live, text, locale)
    if click is not None:
        await answer(click, text)
    else:
        await reply(interaction, text)


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


async def handle_modal(interaction: Interaction) -> None:
    bot = bot_of(interaction)
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
        live = access.service(bot).get(table_id)
        access.presenter(bot).remember(live, interaction)
        version = None if act == "bet" else int(version_text)
        click = Click(interaction, table_id)
        with answered_in_time(click):
            service = access.service(bot)
            await service.act(
                table_id,
                interaction.user.id,
                ACT_KIND[act],
                amount=amount,
                shoot=shoot,
                version=version,
                answered=True,
            )
            # the new table on the form's answer; else say privately that it worked
            await access.presenter(bot).respond(
                click, service.tables.get(table_id), _done_text(act, amount).render(locale)
            )
    except (ServiceError, EngineError) as exc:
        await refuse(interaction, exc, table_id, click, locale)
    except Exception as exc:
        log.exception("modal %s failed", custom_id)
        await refuse(interaction, exc, table_id, click, locale)


def custom_ids(components: object) -> set[str]:
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
    if msg is not None and custom_id in custom_ids(msg.components):
        return  # discord.py dispatches it to its item
    # Every button of this bot is a DynamicItem, which discord.py dispatches only from
    # the message the click carries; no View is registered for a custom id, so nothing
    # else answers this click.
    match = PontoonButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is not None:
        # a Pontoon button from an older rendering: the usual path says why (stale, closed)
        await handle_button(interaction, match["table"], match["act"], int(match["number"]))
        return
    await reply(interaction, t(await locale_of(interaction), "err.pt.inactive_button"))


def _done_text(act: str, amount: int) -> Msg:
    return {
        "bet": Msg("pt.done.bet", amount=amount),
        "buy": Msg("pt.done.buy", amount=amount),
        "shoot": Msg("pt.done.shoot", amount=amount) if amount else Msg("pt.done.shoot_pass"),
        "kitty": Msg("pt.done.kitty", amount=amount),
    }.get(act, Msg("pt.done"))
