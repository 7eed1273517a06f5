"""Punto Banco in Discord, one package: what members of a server see, type and click.

* ``commands.py``: the ``/baccarat`` slash commands;
* ``controls.py``: the betting message's buttons and the bet form, and what a click or
  a submit does;
* ``presenter.py``: the betting message (through ``cogs/table_message.py``, the answer
  path every game shares), the coup dealt card by card ending with the payouts;
* ``text.py``: the game's words, as plain functions (no Discord connection);
* ``access.py``: this game's service and presenter, as the package reaches them through
  the bot (the shared bot type names no game).

The rules are the engine's (``engine.punto_banco``); the table's life is the host's
(``bot.punto_banco``). Start-up builds ``Presenter`` and registers ``BUTTONS``; the
package is loaded as one extension, ``cogs.punto_banco``.
"""

from __future__ import annotations

from cogs.common import GameBot
from cogs.help import HelpGroup, HelpSection
from cogs.punto_banco import commands
from cogs.punto_banco.controls import BetModal, PuntoBancoButton, refusal_text
from cogs.punto_banco.limits import LIMITS
from cogs.punto_banco.presenter import PuntoBancoPresenter as Presenter
from cogs.punto_banco.settings import PuntoBancoSettings as Settings
from cogs.punto_banco.text import learn

# what start-up registers (bot.app) and the router (cogs/router.py) answers: buttons
# and forms that work again after a restart
BUTTONS = (PuntoBancoButton,)
FORMS = (BetModal,)

# this game's part of /help (cogs/help.py); its slash group is /baccarat
HELP = HelpSection(
    name="help.group.punto_banco",
    about="help.about.punto_banco",
    groups=(
        HelpGroup(
            "help.group.punto_banco",
            tuple(
                f"baccarat {name}"
                for name in ["start", "bet", "repeat", "withdraw", "table", "odds", "end"]
            ),
        ),
    ),
    learn=learn,
)


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /baccarat commands."""
    await commands.setup(bot)


__all__ = ["BUTTONS", "FORMS", "HELP", "LIMITS", "Presenter", "Settings", "refusal_text", "setup"]
