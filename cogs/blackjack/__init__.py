"""Blackjack in Discord, one package: what members of a server see, type and click.

* ``commands.py``: the ``/blackjack`` slash commands;
* ``controls.py``: the table message's buttons and forms, and what a click or a submit
  does;
* ``presenter.py``: the table message (through ``cogs/table_message.py``, the answer
  path every game shares) and each round's result post;
* ``text.py``: the game's words, as plain functions (no Discord connection);
* ``hints.py``: the hint (``/blackjack hint``, the Hint button) in words;
* ``chart.py``: the basic-strategy chart of a table's rules, as a picture;
* ``access.py``: this game's service and presenter, as the package reaches them through
  the bot (the shared bot type names no game);
* ``settings.py``: its own section of the settings (``BLACKJACK_…``);
* ``locales/``: its words in five languages (its own catalog domain).

The rules are the engine's (``engine.blackjack``); the table's life is the host's
(``bot.blackjack``). Start-up builds ``Presenter`` and registers ``BUTTONS``; the router
answers ``FORMS``; /help shows ``HELP``; the package is loaded as one extension,
``cogs.blackjack``.
"""

from __future__ import annotations

from cogs.blackjack import commands
from cogs.blackjack.controls import AmountForm, BlackjackButton, refusal_text
from cogs.blackjack.hints import learn
from cogs.blackjack.limits import LIMITS
from cogs.blackjack.presenter import BlackjackPresenter as Presenter
from cogs.blackjack.settings import BlackjackSettings as Settings
from cogs.common import GameBot
from cogs.help import HelpGroup, HelpSection

# what start-up registers (bot.app) and the router (cogs/router.py) answers: buttons
# and forms that work again after a restart
BUTTONS = (BlackjackButton,)
FORMS = (AmountForm,)

# this game's part of /help (cogs/help.py); its slash group is /blackjack
HELP = HelpSection(
    name="help.group.blackjack",
    about="help.about.blackjack",
    groups=(
        HelpGroup(
            "help.group.blackjack",
            tuple(
                f"blackjack {name}"
                for name in [
                    "start",
                    "join",
                    "bet",
                    "hit",
                    "stand",
                    "double",
                    "split",
                    "surrender",
                    "insurance",
                    "hint",
                    "leave",
                    "table",
                    "odds",
                    "end",
                ]
            ),
        ),
    ),
    learn=learn,
)


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /blackjack commands."""
    await commands.setup(bot)


__all__ = ["BUTTONS", "FORMS", "HELP", "LIMITS", "Presenter", "Settings", "refusal_text", "setup"]
