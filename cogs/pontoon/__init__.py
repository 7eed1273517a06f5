"""Pontoon in Discord, one package: what members of a server see, type and click.

* ``commands.py``: the ``/pontoon`` slash commands;
* ``bank.py``: the ``/bank`` slash commands (sell, kitty, auction, bid);
* ``controls.py``: the table message's buttons and the amount form, and what a click or
  a submit does;
* ``bank_offer.py``: the Accept button of a bank offer;
* ``presenter.py``: the table message (through ``cogs/table_message.py``, the answer
  path every game shares), the result posts and the private cards by DM;
* ``render.py``: the game's words and layout as plain text (no Discord);
* ``hints.py``: the hint (``/pontoon hint``, the Hint button) and the Learn lessons of
  /help in words (no Discord);
* ``access.py``: this game's service and presenter, as the package reaches them through
  the bot (the shared bot type names no game).

The rules are the engine's (``engine.pontoon``); the table's life (locks, saving,
timers) is the host's (``bot.pontoon``). Start-up builds ``Presenter`` and registers ``BUTTONS``; the
package is loaded as one extension, ``cogs.pontoon``.
"""

from __future__ import annotations

from bot.i18n import t
from cogs.common import GameBot
from cogs.help import HelpGroup, HelpSection
from cogs.pontoon import bank, commands
from cogs.pontoon.bank_offer import AcceptBank
from cogs.pontoon.controls import AmountModal, PontoonButton, refusal_text
from cogs.pontoon.hints import learn_fields
from cogs.pontoon.limits import LIMITS
from cogs.pontoon.presenter import PontoonDiscordPresenter as Presenter
from cogs.pontoon.settings import PontoonSettings as Settings

# what start-up registers (bot.app) and the router (cogs/router.py) answers: buttons
# and forms that work again after a restart
BUTTONS = (PontoonButton, AcceptBank)
FORMS = (AmountModal,)


def learn(locale: str) -> tuple[str, str, list[tuple[str, str]]]:
    """Pontoon's lessons in /help's Learn part: title, one line, (title, text) fields."""
    return t(locale, "pt.learn.title"), t(locale, "pt.learn.about"), learn_fields(locale)


# this game's part of /help (cogs/help.py): commands every table plays, then those only
# tables with a variation play (Shoot, banker doubles, burning), under a heading that says so
HELP = HelpSection(
    name="help.group.pontoon",
    about="help.about.pontoon",
    groups=(
        HelpGroup(
            "help.group.pontoon",
            tuple(
                f"pontoon {name}"
                for name in [
                    "start",
                    "join",
                    "leave",
                    "deal",
                    "bet",
                    "buy",
                    "twist",
                    "stick",
                    "split",
                    "declare",
                    "cards",
                    "hint",
                    "rules",
                    "table",
                    "end",
                ]
            ),
        ),
        HelpGroup("help.group.bank", ("bank sell",)),
        HelpGroup(
            "help.group.pontoon.variations",
            (
                "pontoon shoot",
                "bank kitty",
                "bank auction",
                "bank bid",
                "pontoon double",
                "pontoon no-double",
                "pontoon burn",
            ),
        ),
    ),
    round=("help.round.title", "help.round"),
    learn=learn,
)


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /pontoon and /bank commands."""
    await commands.setup(bot)
    await bank.setup(bot)


__all__ = ["BUTTONS", "FORMS", "HELP", "LIMITS", "Presenter", "Settings", "refusal_text", "setup"]
