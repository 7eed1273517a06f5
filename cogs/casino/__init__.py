"""/casino: a server's owners run their casino (settings panel, its trail).

* ``commands.py``: the ``/casino`` group (``settings``, ``log``), for Manage Server;
* ``panel.py``: the panel (a section for the economy and one per game of the registry),
  its form and select menus, and a change of a setting.

What may be set, and how a new table and a round obey it, is ``bot.casino`` (no
Discord); the router (cogs/router.py) answers the panel's form through ``FORMS``.
"""

from __future__ import annotations

from cogs.casino import commands
from cogs.casino.panel import FORMS
from cogs.common import GameBot


async def setup(bot: GameBot) -> None:
    """discord.py extension entry point: the /casino commands."""
    await commands.setup(bot)


__all__ = ["FORMS", "setup"]
