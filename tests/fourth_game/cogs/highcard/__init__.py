"""High Card in Discord (the tests' fourth game), one package: ``commands.py`` (the
``/highcard`` commands), ``controls.py`` (Join, Bet, Draw and the bet form),
``presenter.py`` (the table message and the draw's post), ``access.py``, ``limits.py``,
``settings.py`` and its words in ``locales/`` (English only: the other languages fall
back to it, as the i18n layer does for any id a language lacks)."""

from __future__ import annotations

from cogs.common import GameBot
from cogs.help import HelpGroup, HelpSection
from tests.fourth_game.cogs.highcard import commands
from tests.fourth_game.cogs.highcard.controls import BetForm, HighCardButton, refusal_text
from tests.fourth_game.cogs.highcard.limits import LIMITS
from tests.fourth_game.cogs.highcard.presenter import HighCardPresenter as Presenter
from tests.fourth_game.cogs.highcard.settings import HighCardSettings as Settings

BUTTONS = (HighCardButton,)
FORMS = (BetForm,)
HELP = HelpSection(
    name="help.group.highcard",
    about="help.about.highcard",
    groups=(HelpGroup("help.group.highcard", ("highcard start", "highcard end")),),
)


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /highcard commands."""
    await commands.setup(bot)


__all__ = ["BUTTONS", "FORMS", "HELP", "LIMITS", "Presenter", "Settings", "refusal_text", "setup"]
