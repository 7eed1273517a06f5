"""The one router of every game's buttons and forms, and the one error handler.

* **Buttons**: every button a game puts on a message is a :class:`RoutedButton` (a
  ``DynamicItem`` whose custom id pattern is public, as :attr:`RoutedButton.pattern`).
  :class:`Router` answers every click on one from its custom id alone, like a form: the
  id one of the registered games' buttons reads goes to that button, whether it is on
  the message or from an older rendering (its game then says why nothing happened:
  stale, closed); any other id of a game's prefix gets that game's "no longer active"
  message (:attr:`RoutedButton.inactive`), and the rest the bot's "not known". They are
  not registered with discord.py (``add_dynamic_items``): its dispatch builds the whole
  message's layout again from the interaction (``View.from_message``) to find the item
  clicked, about a fifth of a click's CPU at a table, and would still leave the stale
  and forged ids to the router. Nor does a message that carries one make discord.py
  keep its view (:meth:`RoutedButton.is_dispatchable`). Some of discord.py's ways to
  send a view (``InteractionResponse.send_message`` in 2.7) keep it anyway and register
  every ``DynamicItem``'s template, whatever ``is_dispatchable`` says, so discord.py is
  never given a game's pattern at all: its template for every routed button is
  :data:`NO_CUSTOM_ID`, which matches nothing, and however a message with game buttons
  is sent (a response, a followup, a channel message, an edit), discord.py answers none
  of its clicks; the router alone does. A click on a live view's own button (on the
  message, read by no game) is left to discord.py.
* **Forms** (modals) are never kept live: members at one table share a form's custom id,
  and a form opened before a restart must still work. Each game's forms are
  :class:`TableForm` subclasses with a custom id pattern; the router reads a submit's
  custom id and its fields and hands them to the form class that matches.
* **Refusals**: cogs, buttons and forms raise domain errors (``bot.errors.ServiceError``,
  the engine's ``EngineError``, storage errors). :func:`refuse` is the one place that
  turns them into the member's private answer in their language, for slash commands
  (the command tree's error handler, set by start-up), buttons and forms alike. A game
  words its own refusals through its package's ``refusal_text`` (seat ids said as
  names, say); an unexpected exception is logged and answered with the generic line.

The games are found through the registry (``bot.games``): nothing here names a game.
"""

from __future__ import annotations

import abc
import importlib
import logging
import re
from collections.abc import Iterator
from typing import Any, ClassVar, Protocol, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError, TableClosed, friendly
from bot.games import GAMES
from bot.host import seat_of
from bot.i18n import DEFAULT_LOCALE, t
from bot.i18n.languages import locale_of
from bot.storage.errors import StorageError
from cogs.permissions import in_installed_server
from engine.errors import EngineError

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]

#: what a member's action may be refused with: answered privately, not logged as a fault
DOMAIN_ERRORS: tuple[type[Exception], ...] = (ServiceError, EngineError, StorageError)


# ------------------------------------------------------------ the one way to answer
async def reply(interaction: Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer ``interaction`` (ephemerally by default) by its response, or by a followup
    when it was already answered or deferred. A failure to answer is logged, never raised."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


def note_member(interaction: Interaction) -> None:
    """Tell the store when the member joined the server (Discord sends it with every
    interaction in a server): a server's join-age gate reads it when chips are granted
    (``Store.join_dates``, bot.storage.base). Only in a server that installed the bot:
    elsewhere the member plays with their own chips, which no server's gate governs."""
    store = getattr(interaction.client, "store", None)
    if store is not None and in_installed_server(interaction):
        joined = getattr(interaction.user, "joined_at", None)
        store.join_dates.note(interaction.guild_id, interaction.user.id, joined)


# ------------------------------------------------------------ the one error handler
class RefusalWords(Protocol):
    """A game's own wording of a refusal (its package's ``refusal_text``)."""

    def __call__(self, interaction: Interaction, exc: BaseException, locale: str) -> str: ...


def game_package(owner: object) -> Any | None:
    """The game package (``cogs.<game>`` of a registry entry) whose code ``owner`` (a cog,
    a button or form class, an instance of one) belongs to; None for shared code."""
    cls = owner if isinstance(owner, type) else type(owner)
    module = cls.__module__
    for game in GAMES:
        if module == game.package or module.startswith(game.package + "."):
            return importlib.import_module(game.package)
    return None


async def refuse(interaction: Interaction, exc: BaseException, *, by: object = None) -> None:
    """THE error handler: ``exc``, raised while answering ``interaction`` by the code of
    ``by`` (a cog, a button, a form), becomes the member's private answer in their
    language, in the words of ``by``'s game when it is a game's. Nothing was changed (a
    refused action changes nothing). An unexpected exception is logged with its trace."""
    if not isinstance(exc, DOMAIN_ERRORS):
        log.error("answering interaction %s failed", interaction.id, exc_info=exc)
    else:
        log.info("refused: %s: %s", type(exc).__name__, exc)
    locale = await locale_of(interaction)
    package = game_package(by) if by is not None else None
    words = cast(RefusalWords | None, getattr(package, "refusal_text", None))
    if words is not None:
        text = words(interaction, exc, locale)
    else:
        text = friendly(exc, locale, me=seat_of(interaction.user.id))
    if isinstance(exc, TableClosed) and not in_installed_server(interaction):
        # outside a server that installed the bot a closed table's message may still look
        # open (nothing may edit it once its tokens expired): say the stakes are safe
        text += "\n" + t(locale, "err.closed.stakes_back")
    await reply(interaction, text)


async def on_app_command_error(
    interaction: Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler (start-up sets it): a slash command's refusal or
    failure, answered by :func:`refuse` in the words of the command's game."""
    if isinstance(error, app_commands.CheckFailure):
        log.warning("command check failed: %s", error)
        locale = await locale_of(interaction)
        await reply(
            interaction,
            t(locale, "err.generic.refused") if locale != DEFAULT_LOCALE else str(error),
        )
        return
    original = getattr(error, "original", error)
    command = interaction.command
    binding = getattr(command, "binding", None) if command is not None else None
    await refuse(interaction, original, by=binding)


# ------------------------------------------------------------------- buttons
#: the template discord.py is given for every routed button: it matches no custom id, so
#: a view discord.py keeps (whichever way it was sent) never has a game's click dispatched
NO_CUSTOM_ID: re.Pattern[str] = re.compile(r"(?!)")


class RoutedButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=NO_CUSTOM_ID,
):
    """A button the router knows: its custom id pattern is :attr:`pattern` (public), its
    custom ids start with ``prefix:``, and a click's refusal goes to :func:`refuse`.
    Subclasses say in :meth:`clicked` what a click does."""

    prefix: ClassVar[str] = ""
    #: the message id a click on an id of this prefix that no button reads is answered with
    inactive: ClassVar[str] = "err.unknown_button"
    pattern: ClassVar[re.Pattern[str]] = re.compile(r"(?!)")

    def __init_subclass__(cls, *, template: str | None = None, **kwargs: Any) -> None:
        if template is None:  # an abstract layer between (TableButton): no pattern of its own
            template = cls.pattern.pattern
        cls.pattern = re.compile(template)
        # discord.py registers the template of a view's dynamic items whenever it keeps
        # the view; given one that matches nothing, it can never answer a click the
        # router answers (each click would be answered twice)
        super().__init_subclass__(template=NO_CUSTOM_ID, **kwargs)

    @property
    def template(self) -> re.Pattern[str]:
        """The custom id pattern (:attr:`pattern`) the button's id is checked against."""
        return self.pattern

    def is_dispatchable(self) -> bool:
        """False: not for discord.py's dispatch. The router answers every click on it
        from its custom id, so discord.py keeps no view for a message that carries it
        where it asks (and where it does not, it holds only :data:`NO_CUSTOM_ID`)."""
        return False

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self.clicked(interaction)
        except Exception as exc:
            await refuse(interaction, exc, by=self)

    @abc.abstractmethod
    async def clicked(self, interaction: Interaction) -> None:
        """What a click on this button does (each game's button says it)."""


# --------------------------------------------------------------------- forms
class TableForm(discord.ui.Modal):
    """A game's form (modal), answered by the router from its custom id and fields alone,
    never kept live (so several members' forms, and forms opened before a restart, all
    work). A subclass gives ``template=`` (its custom id pattern) and :meth:`submitted`."""

    pattern: ClassVar[re.Pattern[str]] = re.compile(r"(?!)")

    def __init_subclass__(cls, *, template: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if template is not None:
            cls.pattern = re.compile(template)

    def __init__(self, *, title: str, custom_id: str) -> None:
        super().__init__(title=title, custom_id=custom_id, timeout=600)
        self.stop()  # not kept: the router answers its submit from the custom id

    @classmethod
    @abc.abstractmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        """What a submit of this form does (``values``: the text of each field by id)."""


def form_values(data: Any) -> dict[str, str]:
    """The text typed into each field of a submitted form, by field custom id, from the
    raw interaction data (so a form opened before a restart can still be read)."""
    out: dict[str, str] = {}
    stack = list(data.get("components", [])) if isinstance(data, dict) else []
    while stack:
        comp = stack.pop()
        if not isinstance(comp, dict):
            continue
        if "components" in comp:
            stack.extend(comp["components"])
        if "component" in comp:
            stack.append(comp["component"])
        if "custom_id" in comp and "value" in comp:
            out[str(comp["custom_id"])] = str(comp["value"] or "")
    return out


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


# -------------------------------------------------------------------- the router
#: modules beside the games whose buttons the router answers too (their ``BUTTONS``)
SHARED_BUTTON_PACKAGES = ("cogs.economy",)


def registered_buttons() -> Iterator[type[RoutedButton]]:
    """Every game's buttons (its package's ``BUTTONS``), found through the registry, and
    those of :data:`SHARED_BUTTON_PACKAGES` (a fresh season's confirmation)."""
    for game in GAMES:
        yield from importlib.import_module(game.package).BUTTONS
    for package in SHARED_BUTTON_PACKAGES:
        yield from importlib.import_module(package).BUTTONS


#: packages beside the games whose forms the router answers too (their ``FORMS``)
SHARED_FORM_PACKAGES = ("cogs.casino",)


def registered_forms() -> Iterator[type[TableForm]]:
    """Every game's forms (its package's ``FORMS``), found through the registry, and
    those of :data:`SHARED_FORM_PACKAGES`."""
    for game in GAMES:
        yield from importlib.import_module(game.package).FORMS
    for package in SHARED_FORM_PACKAGES:
        yield from importlib.import_module(package).FORMS


class Router(commands.Cog):
    """Answers every click on a registered game's button (current, stale or forged) and
    every form's submit, for every registered game."""

    def __init__(self, buttons: list[type[RoutedButton]], forms: list[type[TableForm]]) -> None:
        self.buttons = buttons
        self.forms = forms

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        note_member(interaction)
        if interaction.type is discord.InteractionType.modal_submit:
            await self.submit(interaction, custom_id, data)
        elif (
            interaction.type is discord.InteractionType.component
            and int(data.get("component_type", 2) or 2) == discord.ComponentType.button.value
        ):
            await self.click(interaction, custom_id)

    async def submit(self, interaction: Interaction, custom_id: str, data: dict[str, Any]) -> None:
        for form in self.forms:
            match = form.pattern.fullmatch(custom_id)
            if match is not None:
                try:
                    await form.submitted(interaction, match, form_values(data))
                except Exception as exc:
                    await refuse(interaction, exc, by=form)
                return
        await reply(interaction, t(await locale_of(interaction), "err.unknown_form"))

    async def click(self, interaction: Interaction, custom_id: str) -> None:
        for button in self.buttons:
            match = button.pattern.fullmatch(custom_id)
            if match is not None:  # the button's own answer (its game says if it is stale)
                item = await button.from_custom_id(interaction, cast(Any, None), match)
                await item.callback(interaction)
                return
        msg = interaction.message
        if msg is not None and custom_id in custom_ids(msg.components):
            return  # a live view's own button: discord.py dispatches it to its item
        # no game reads this id and no live view has it: nothing else answers this click
        prefix = custom_id.split(":", 1)[0]
        inactive = next((b.inactive for b in self.buttons if b.prefix == prefix), None)
        locale = await locale_of(interaction)
        await reply(interaction, t(locale, inactive or "err.unknown_button"))


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: the router, with every registered game's
    buttons and forms."""
    await bot.add_cog(Router(list(registered_buttons()), list(registered_forms())))
