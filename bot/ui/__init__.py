"""The Discord-facing code: what members see and click (presenters, buttons, forms).

It sits between the Discord-free services and storage in ``bot/`` (which it uses) and
the cogs' slash commands and the start-up code (which use it); ``lint-imports`` keeps
the imports going that one way.
"""
