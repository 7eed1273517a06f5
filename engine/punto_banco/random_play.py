"""Punto Banco as the conformance test plays it at random (see ``engine.random_play``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.punto_banco.actions import CROUPIER, Action, ActionKind, LegalAction
from engine.punto_banco.coup import Side
from engine.punto_banco.rules import PuntoBancoRules
from engine.punto_banco.table import PuntoBancoTable
from engine.random_play import (
    RandomPlay,
    Setup,
    cards_in,
    escrow_account,
    house_takings,
    probes_by,
)

BETTORS = ("ann", "bob", "cat")


def _setup(rules: PuntoBancoRules) -> Any:
    def setup(rng: random.Random) -> Setup:
        return PuntoBancoTable(rules), (*BETTORS, CROUPIER)

    return setup


SETUPS = (
    _setup(PuntoBancoRules()),
    _setup(PuntoBancoRules(packs=8, tableau="standard", banco_commission_pct=0, min_bet=5)),
)


def _wallet(ledger: Mapping[str, int], bettor: str) -> int:
    return ledger.get(bettor, 0)


def sample(
    table: PuntoBancoTable,
    actor: str,
    offer: LegalAction,
    rng: random.Random,
    ledger: Mapping[str, int],
) -> Action:
    wallet = _wallet(ledger, actor)
    if offer.kind is ActionKind.BET:
        assert offer.min_amount is not None and offer.max_amount is not None
        assert offer.side is not None
        held = sum(b.amount for b in table.bets_of(actor) if b.side is offer.side)
        most = min(offer.max_amount, wallet + held)
        amount = rng.randint(offer.min_amount, max(offer.min_amount, most))
        return Action(actor, offer.kind, offer.side, amount, balance=wallet)
    if offer.kind is ActionKind.REPEAT:
        return Action(actor, offer.kind, balance=wallet)
    return Action(actor, offer.kind, offer.side)


def exact(offer: LegalAction) -> bool:
    # what a bettor can afford is checked against the action's balance, not offered
    return offer.kind not in (ActionKind.BET, ActionKind.REPEAT)


def probes(
    table: PuntoBancoTable, actors: Sequence[str], rng: random.Random, ledger: Mapping[str, int]
) -> list[Action]:
    def probe(actor: str) -> Action:
        kind, side = rng.choice(list(ActionKind)), rng.choice([None, *Side])
        amount = rng.choice([None, -1, 0, 1, rng.randint(1, 300), 10**9])
        balance = rng.choice([0, _wallet(ledger, actor)])  # the balance the bot says is true
        return Action(actor, kind, side, amount, balance)

    return probes_by(actors, rng, probe)


def leaks(table: PuntoBancoTable, viewer: str | None) -> list[str]:
    """Each wrong showing in ``table.observe(viewer)``: the cards it holds are exactly
    the last coup's, every one dealt face up to everyone (B-DEAL-1), and no card of the
    shoe (B-TABLE-1: the croupier alone touches the cards); every bet on the table is
    shown (B-BET-1), and a bettor's observation holds its own bets."""
    obs = table.observe(viewer)
    out: list[str] = []
    dealt = [] if table.last_coup is None else [c for _, c in table.last_coup.dealt]
    held = sorted(c.code for c in cards_in(obs))
    if held != sorted(c.code for c in dealt):
        out.append(f"{viewer} is shown {held}, the last coup dealt {[c.code for c in dealt]}")
    if list(obs.bets) != table.bets:
        out.append(f"{viewer} is shown bets {obs.bets}, the table holds {table.bets}")
    mine = table.bets_of(viewer) if viewer is not None else []
    if list(obs.own_bets) != mine:
        out.append(f"{viewer} is not shown their own bets {mine}")
    return out


RANDOM_PLAY = RandomPlay(
    name="punto_banco",
    setups=SETUPS,
    sample=sample,
    exact=exact,
    probes=probes,
    accounts=escrow_account,
    wallets=lambda actors: {a: 500 for a in actors if not a.startswith("@")},
    house_net=house_takings,  # B-WIN-1, B-TIE-1
    leaks=leaks,
)
