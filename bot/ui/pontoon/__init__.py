"""Pontoon in Discord.

* ``presenter.py``: the table message, public posts, private cards by DM (the
  TableService's Presenter), drawn through one writer per table.
* ``controls.py``: the table message's buttons and the amount form, and what a click or
  a submit does.
* ``bank.py``: the Accept button of a bank offer.

The slash commands are in ``cogs/pontoon.py`` and ``cogs/bank.py``.
"""
