"""Blackjack as the conformance test plays it at random (see ``engine.random_play``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.blackjack.actions import DEALER, Action, ActionKind, LegalAction, Phase
from engine.blackjack.rules import BlackjackRules
from engine.blackjack.table import BlackjackTable
from engine.random_play import RandomPlay, Setup, escrow_account, house_takings, probes_by

SEATS = ("ann", "bob", "cat")
# offers whose amount, or whose chips, the rules check against the member's balance
# (not stated in the offer): a sampled one may still be refused
PAID = frozenset({ActionKind.BET, ActionKind.INSURANCE, ActionKind.DOUBLE, ActionKind.SPLIT})


def _setup(rules: BlackjackRules) -> Any:
    def setup(rng: random.Random) -> Setup:
        return BlackjackTable(rules), (*SEATS, DEALER)

    return setup


SETUPS = (
    _setup(BlackjackRules(decks=1, max_bet=50)),
    # H17, 6:5, late surrender, resplit aces, doubles on 10-11 only, no double after a split
    _setup(
        BlackjackRules(
            decks=2,
            dealer="h17",
            blackjack_pays="6:5",
            surrender="late",
            double_on="10-11",
            double_after_split=False,
            resplit_aces=True,
            min_bet=2,
            max_bet=40,
        )
    ),
    # the no-hole-card game (BJ-NHC-1)
    _setup(BlackjackRules(decks=6, peek=False, surrender="late", max_bet=30)),
)


def sample(
    table: BlackjackTable,
    actor: str,
    offer: LegalAction,
    rng: random.Random,
    ledger: Mapping[str, int],
) -> Action:
    wallet = ledger.get(actor, 0)
    if offer.min_amount is not None and offer.max_amount is not None:
        low, high = offer.min_amount, offer.max_amount
        amount = rng.randint(low, max(low, min(high, wallet)))
        if offer.kind is ActionKind.DOUBLE and rng.random() < 0.5:
            return Action(actor, offer.kind, None, wallet)  # None: equal to the bet
        return Action(actor, offer.kind, amount, wallet)
    return Action(actor, offer.kind, None, wallet if actor != DEALER else None)


def exact(offer: LegalAction) -> bool:
    return offer.kind not in PAID


def probes(
    table: BlackjackTable, actors: Sequence[str], rng: random.Random, ledger: Mapping[str, int]
) -> list[Action]:
    def probe(actor: str) -> Action:
        kind = rng.choice(list(ActionKind))
        amount = rng.choice([None, -1, 0, 1, rng.randint(1, 200), 10**9])
        return Action(actor, kind, amount, rng.choice([None, 0, ledger.get(actor, 0)]))

    return probes_by(actors, rng, probe)


def leaks(table: BlackjackTable, viewer: str | None) -> list[str]:
    """Each wrong showing of the dealer's cards (BJ-DEAL-1): while a player's hand of the
    round still waits to be played (insurance asked, or a hand's turn), nobody sees more
    than the dealer's up card; and what is shown is the dealer's own cards, in order.
    Every other card is dealt face up, to everyone."""
    shown = table.visible_dealer()
    out: list[str] = []
    if shown != table.dealer[: len(shown)]:
        out.append(f"{viewer} sees dealer cards {shown} the dealer does not hold")
    players_to_play = table.phase is Phase.INSURANCE or (
        table.phase is Phase.PLAYING and table.turn is not None
    )
    if players_to_play and len(shown) > 1:
        out.append(f"{viewer} sees the hole card {shown[1].code} before the dealer's turn")
    return out


RANDOM_PLAY = RandomPlay(
    name="blackjack",
    setups=SETUPS,
    sample=sample,
    exact=exact,
    probes=probes,
    accounts=escrow_account,
    wallets=lambda actors: {a: 300 for a in actors if not a.startswith("@")},
    house_net=house_takings,  # BJ-SETTLE-1, BJ-INS-1
    leaks=leaks,
)
