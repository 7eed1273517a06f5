"""Blackjack as the conformance test plays it at random (see ``engine.random_play``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.blackjack.actions import DEALER, Action, ActionKind, LegalAction, Phase
from engine.blackjack.rules import BlackjackRules
from engine.blackjack.table import BlackjackTable
from engine.random_play import (
    RandomPlay,
    Setup,
    cards_in,
    escrow_account,
    house_takings,
    probes_by,
)

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
    """Each wrong showing in ``table.observe(viewer)``: while a player's hand of the round
    still waits to be played (insurance asked, or a hand's turn), nobody (the dealer
    included) sees more than the dealer's up card, and the hole card is nowhere in the
    observation (BJ-DEAL-1, BJ-PEEK-1); then the dealer's cards are shown in order
    (BJ-DEALER-1). Every player's card is dealt face up (BJ-DEAL-1): each seat's hands
    are public whole, and a seat's observation holds its own hands."""
    obs = table.observe(viewer)
    shown = list(obs.dealer)
    out: list[str] = []
    if shown != table.dealer[: len(shown)]:
        out.append(f"{viewer} sees dealer cards {shown} the dealer does not hold")
    if len(shown) + obs.dealer_hidden != len(table.dealer):
        out.append(f"{viewer} is shown {shown} and {obs.dealer_hidden} down of {table.dealer}")
    players_to_play = table.phase is Phase.INSURANCE or (
        table.phase is Phase.PLAYING and table.turn is not None
    )
    if players_to_play and len(table.dealer) == 2:
        hole = table.dealer[1]
        if len(shown) > 1 or obs.dealer_hidden != 1:
            out.append(f"{viewer} sees the hole card {hole.code} before the dealer's turn")
        # the hole card may be in the observation only as a player's face-up card of the
        # same code (a shoe of several decks), never more often than the players hold it
        players = [c for box in table.boxes.values() for h in box.hands for c in h.cards]
        dealt_up = players.count(hole) + shown.count(hole)
        # (each seat's own hands appear twice: in the boxes and as its own hands)
        own = [c for h in obs.hands for c in h.cards]
        if cards_in(obs).count(hole) > dealt_up + own.count(hole):
            out.append(f"{viewer}'s observation holds the hole card {hole.code}")
        last = obs.last_result
        if last is not None and last.round_no >= table.round_no:
            out.append(f"{viewer} sees this round's result before it is settled")
    for seat, box in table.boxes.items():
        seen = obs.box(seat)
        cards = [[c.code for c in h.cards] for h in box.hands]
        if seen is None or [[c.code for c in h.cards] for h in seen.hands] != cards:
            out.append(f"{viewer} does not see {seat}'s face-up hands {cards}")
    mine = table.boxes.get(viewer) if viewer is not None else None
    if [h.cards for h in obs.hands] != ([tuple(h.cards) for h in mine.hands] if mine else []):
        out.append(f"{viewer} is not shown their own hands")
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
