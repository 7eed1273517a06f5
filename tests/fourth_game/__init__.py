"""A fourth game that lives only in the tests: High Card, added the way CONTRIBUTING.md
says a game is added, to prove that a game needs no edit of a shared file.

Its three folders mirror the repository's own (``engine/highcard/``, ``bot/highcard.py``,
``cogs/highcard/``) under this one; ``registry.py`` holds its registry entry, which
``registered()`` adds to the bot's registry for one test and ``python -m
tests.fourth_game.launch`` adds before it runs the bot (``python -m bot``)."""
