"""Punto Banco in Discord.

* ``presenter.py``: the betting message, the coup dealt card by card, the payouts (the
  BaccaratService's Presenter).
* ``controls.py``: the betting message's buttons and the bet form, and what a click or a
  submit does.
* ``text.py``: the words, as plain functions (no Discord).

The slash commands are in ``cogs/baccarat.py``.
"""
