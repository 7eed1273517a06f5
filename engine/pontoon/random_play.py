"""Pontoon as the conformance test plays it at random (see ``engine.random_play``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.pontoon.hands import Hand
from engine.pontoon.rules import PontoonRules
from engine.pontoon.table import Table
from engine.pontoon.types import ESCROW, HOUSE, KITTY, Action, ActionKind, LegalAction, Transfer
from engine.random_play import RandomPlay, Setup

SEATS = ("ann", "bob", "cat", "dan")
NEWCOMERS = ("eve", "fay")  # not seated at first: they may join between rounds


def _setup(rules: PontoonRules, banker: str | None) -> Any:
    def setup(rng: random.Random) -> Setup:
        seats = SEATS[: rng.randint(2, len(SEATS))]
        balances = {
            s: rng.randint(0, 40) if rng.random() < 0.2 else rng.randint(40, 400) for s in seats
        }
        table = Table(rules, seats, balances, banker=banker if banker in seats else None)
        return table, (*SEATS, *NEWCOMERS)

    return setup


SETUPS = (
    _setup(PontoonRules(), None),
    _setup(PontoonRules(min_bet=2, max_bet=40, banker_doubles=True, burn="13"), "ann"),
    _setup(PontoonRules(shoot=True, kitty_min=5, kitty_max=60, royal_pontoon=True), "ann"),
    _setup(PontoonRules(house_bank=True, split_aces_only=True, stick_on_16=True), None),
)


def _amount(rng: random.Random, least: int | None, most: int | None) -> int | None:
    if least is None:
        return None
    return rng.randint(least, most if most is not None else least + 300)


def sample(
    table: Table, actor: str, offer: LegalAction, rng: random.Random, _ledger: Mapping[str, int]
) -> Action:
    amount = _amount(rng, offer.min_amount, offer.max_amount)
    shoot = None
    if offer.shoot_max is not None and offer.shoot_max > 0 and rng.random() < 0.5:
        shoot = rng.randint(0, offer.shoot_max)
    target = None
    if offer.kind is ActionKind.SELL_BANK:
        others = [s for s in table.seats if s != actor]
        target = rng.choice(others) if others else None
        amount = rng.randint(0, 60)
    return Action(actor, offer.kind, amount, shoot, target)


def exact(offer: LegalAction) -> bool:
    return offer.kind not in (ActionKind.SELL_BANK, ActionKind.JOIN)


def probes(
    table: Table, actors: Sequence[str], rng: random.Random, _ledger: Mapping[str, int]
) -> list[Action]:
    out = []
    for _ in range(2):
        kind = rng.choice(list(ActionKind))
        actor = rng.choice([*actors, HOUSE])
        amount = rng.choice([None, -5, 0, 1, rng.randint(1, 500), 10**9])
        shoot = rng.choice([None, None, 0, rng.randint(1, 80)])
        target = rng.choice([None, *actors])
        out.append(Action(actor, kind, amount, shoot, target))
    return out


def accounts(table: Table) -> dict[str, int]:
    return {**table.balances, ESCROW: table.escrow, KITTY: table.kitty}


def _wrong(shown: Sequence[str], hand: Hand, everything: bool) -> list[str]:
    """What is wrong with showing ``shown`` of ``hand``: every card of it may be shown
    when ``everything``, else exactly the cards dealt face up."""
    if everything:
        allowed = list(hand.codes())
    else:
        allowed = [c.code for c, up in zip(hand.cards, hand.face_up, strict=True) if up]
    return [] if list(shown) == allowed else [f"{list(shown)} where {allowed} may be seen"]


def leaks(table: Table, viewer: str | None) -> list[str]:
    """Each wrong showing of a hand in ``table.observe(viewer)``: in the public part
    (everyone's, the same in every viewer's observation), any face-down card of a
    player's (P-DEAL-1, P-DEAL-3) or of the banker's before the banker's turn
    (P-BANKER-1); a shown hand (split, twisted, declared, bust, settled: P-SPLIT-1,
    P-TWIST-1, P-TURN-DECLARE, P-BUST-1, P-DEAL-4) is public whole. In the viewer's own
    hands: a player's every card (P-DEAL-1, P-DEAL-3), the banker's own only once the
    banker may look (P-DEAL-1, P-VAR-3, P-BANKER-1); the public none."""
    obs = table.observe(viewer)
    public = obs.table
    hands = table.hands
    banker_hand = table.banker_hand
    out: list[str] = []
    if viewer is not None and public != table.observe(None).table:
        out.append(f"{viewer}'s view of the table is not the public one")
    for seat_view in public.seats:
        held = hands.get(seat_view.seat, [])
        if len(seat_view.hands) != len(held):
            out.append(f"{viewer} sees {len(seat_view.hands)} hands of {seat_view.seat}")
        for hv in seat_view.hands:
            hand = held[hv.index]
            out += [
                f"{viewer} sees {seat_view.seat}: {w}" for w in _wrong(hv.cards, hand, hand.shown)
            ]
    if public.banker_hand is not None and banker_hand is not None:
        shown = public.banker_hand.cards
        out += [
            f"{viewer} sees the banker: {w}" for w in _wrong(shown, banker_hand, banker_hand.shown)
        ]
    if viewer is None:
        return out + [f"the public holds a hand {hv}" for hv in obs.hands]
    if viewer == table.banker:
        own = [banker_hand] if banker_hand is not None else []
    else:
        own = list(hands.get(viewer, []))
    if len(obs.hands) != len(own):
        out.append(f"{viewer} is shown {len(obs.hands)} of their {len(own)} hands")
    for hv, hand in zip(obs.hands, own, strict=False):
        if viewer == table.banker:
            may = hand.shown or table.banker_sees
            out += [f"banker {viewer}: {w}" for w in _wrong(hv.cards, hand, may)]
        else:
            out += [f"{viewer} own hand: {w}" for w in _wrong(hv.cards, hand, True)]
    return out


def house_net(transfers: Sequence[Transfer]) -> int:
    """What play moved into the house's bank and the kitty, the pot shoot bets are played
    against (P-SHOOT-7); the banker putting up or taking back the kitty is not play."""
    net = 0
    for t in transfers:
        if t.reason.startswith(("kitty (", "kitty returned")):
            continue
        net += t.amount * ((t.dst in POTS) - (t.src in POTS))
    return net


POTS = frozenset({HOUSE, KITTY})

RANDOM_PLAY = RandomPlay(
    name="pontoon",
    setups=SETUPS,
    sample=sample,
    exact=exact,
    probes=probes,
    accounts=accounts,
    wallets=lambda actors: {},
    house_net=house_net,
    leaks=leaks,
)
