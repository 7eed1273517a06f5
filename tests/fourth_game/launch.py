"""``python -m tests.fourth_game.launch [ARGS]``: ``python -m bot [ARGS]`` with High Card
registered first (as discord.py's advanced_startup.py hands its bot what it runs): the
bot process of the fourth game's end-to-end test."""

from __future__ import annotations

import sys

from bot.games import register
from tests.fourth_game.registry import HIGHCARD


def main() -> int:
    register(HIGHCARD)
    from bot.__main__ import main as bot_main

    return bot_main(sys.argv[1:])


if __name__ == "__main__":
    from bot.__main__ import exit_process

    exit_process(main())
