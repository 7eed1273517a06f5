"""High Card as the conformance test plays it at random (see ``engine.random_play``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.random_play import RandomPlay, Setup, escrow_account, house_takings, probes_by
from tests.fourth_game.engine.highcard.table import (
    Action,
    ActionKind,
    HighCardRules,
    HighCardTable,
    Offer,
)

PLAYERS = ("ann", "bob", "cat", "dev", "eve", "fay")  # one more than the seats


def _setup(rules: HighCardRules) -> Setup:
    return HighCardTable(rules), PLAYERS


def sample(
    table: HighCardTable,
    actor: str,
    offer: Offer,
    rng: random.Random,
    ledger: Mapping[str, int],
) -> Action:
    if offer.kind is ActionKind.BET:
        assert offer.min_amount is not None and offer.max_amount is not None
        wallet = ledger.get(actor, 0)
        amount = rng.randint(offer.min_amount, max(offer.min_amount, min(offer.max_amount, wallet)))
        return Action(actor, offer.kind, amount, wallet)
    return Action(actor, offer.kind)


def probes(
    table: HighCardTable, actors: Sequence[str], rng: random.Random, ledger: Mapping[str, int]
) -> list[Action]:
    def probe(actor: str) -> Action:
        amount = rng.choice([None, -1, 0, 1, rng.randint(1, 300), 10**9])
        return Action(actor, rng.choice(list(ActionKind)), amount, ledger.get(actor, 0))

    return probes_by(actors, rng, probe)


def leaks(table: HighCardTable, viewer: str | None) -> list[str]:
    """What ``table.observe(viewer)`` gets wrong: every card is drawn face up and every
    stake lies on the table (HC-BET, HC-DRAW), so all of them are everyone's."""
    seen = table.observe(viewer)
    out: list[str] = []
    if seen.last != table.last:
        out.append(f"{viewer} is shown the draw {seen.last}, not {table.last}")
    if dict(seen.stakes) != table.seats:
        out.append(f"{viewer} is shown the stakes {seen.stakes}, not {table.seats}")
    if viewer is not None and seen.own_stake != table.seats.get(viewer, 0):
        out.append(f"{viewer} is not shown their own stake")
    return out


RANDOM_PLAY = RandomPlay(
    name="highcard",
    setups=(
        lambda rng: _setup(HighCardRules()),
        lambda rng: _setup(HighCardRules(min_bet=5, max_bet=20)),
    ),
    sample=sample,
    exact=lambda offer: offer.kind is not ActionKind.BET,  # a stake is checked against chips held
    probes=probes,
    accounts=escrow_account,
    wallets=lambda actors: {a: 300 for a in actors},
    house_net=house_takings,  # HC-DRAW
    leaks=leaks,
)

__all__ = ["RANDOM_PLAY"]
