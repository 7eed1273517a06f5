"""Blackjack in Discord, one package: what members of a server see, type and click.

* ``commands.py``: the ``/blackjack`` slash commands;
* ``controls.py``: the table message's buttons and forms, and what a click or a submit
  does;
* ``presenter.py``: the table message (through ``cogs/table_message.py``, the answer
  path every game shares) and each round's result post;
* ``text.py``: the game's words, as plain functions (no Discord connection);
* ``chart.py``: the basic-strategy chart of a table's rules, as a picture;
* ``access.py``: this game's service and presenter, as the package reaches them through
  the bot (the shared bot type names no game);
* ``locales/``: its words in five languages (its own catalog domain).

The rules are the engine's (``engine.blackjack``); the table's life is the host's
(``bot.blackjack``). Start-up builds ``Presenter`` and registers ``BUTTONS``; the package
is loaded as one extension, ``cogs.blackjack``.
"""

from __future__ import annotations

from cogs.blackjack import commands
from cogs.blackjack.controls import BlackjackButton
from cogs.blackjack.presenter import BlackjackPresenter as Presenter
from cogs.common import GameBot

# what start-up registers (bot.app): buttons that work again after a restart
BUTTONS = (BlackjackButton,)


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /blackjack commands."""
    await commands.setup(bot)


__all__ = ["BUTTONS", "Presenter", "setup"]
