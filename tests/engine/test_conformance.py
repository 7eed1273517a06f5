"""The test every game gets (as open_spiel's ``random_sim_test``): each game
``engine.games`` finds (and the tests' fourth game) is played at random, legal moves and refused ones mixed, with seeded
chance, and after every action:

- ``why_not`` agrees with ``apply``: an action with no refusal is applied; a refused one
  raises the same rule and leaves the state's JSON exactly as it was; an offer of
  ``legal_actions`` whose amounts lie in its stated range is never refused;
- ``to_json`` round trips exactly, and the restored state plays on exactly as the
  original (same events, transfers and JSON under the same chance);
- chips are conserved: every account the state holds changes by exactly the transfers
  into and out of it, transfers are positive moves between two accounts, and no account
  inside the state goes below zero;
- when a hand (round, coup) ends, the members' ``returns()`` sum to what the hand moved
  out of the house (and Pontoon's kitty; zero when a player banks and no kitty plays);
- what each viewer may see, ``observe(viewer)`` for the public (None) and every actor:
  an immutable record (frozen dataclasses, tuples, read-only mappings), the same when
  asked twice and when asked of the state restored from JSON, that shows nobody a card
  the rules keep from them (a player's face-down cards, the dealer's hole card, the
  shoe), and shows a player their own cards (the game's own ``leaks``; the rules cited
  there).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from engine.cards import RandomChance
from engine.games import GAMES as ENGINE_GAMES
from engine.random_play import RandomPlay
from engine.records import HOUSE
from tests.fourth_game.engine.highcard.random_play import RANDOM_PLAY as HIGH_CARD

#: every game the engine finds (``engine.games``), and the tests' own fourth game, whose
#: engine package lives under tests/ (tests/bot/test_games_conformance.py checks that
#: these are the games of the bot's registry)
GAMES = (*ENGINE_GAMES, HIGH_CARD)

ACTIONS_PER_TABLE = 1200  # per set of rules: a few thousand actions per game


def _json(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _immutable(observation: object) -> list[str]:
    """What in an observation could be changed after it was made: a record that is not
    a frozen dataclass or a tuple, a list, a set or a plain dict."""
    wrong: list[str] = []
    stack: list[object] = [observation]
    while stack:
        item = stack.pop()
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            if not type(item).__dataclass_params__.frozen:  # type: ignore[attr-defined]
                wrong.append(f"{type(item).__name__} is not frozen")
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, list | set | dict | bytearray):
            wrong.append(f"a {type(item).__name__}: {item!r}")
        elif isinstance(item, MappingProxyType):
            stack.extend(item.values())
        elif isinstance(item, Mapping):
            wrong.append(f"a changeable mapping {type(item).__name__}")
        elif isinstance(item, tuple | frozenset):
            stack.extend(item)
    return wrong


def _chance_pair(rng: random.Random) -> tuple[RandomChance, RandomChance]:
    seed = rng.getrandbits(64)
    return RandomChance(random.Random(seed)), RandomChance(random.Random(seed))


class Play:
    """One table played at random, with its own ledger of every transfer."""

    def __init__(self, game: RandomPlay, setup_no: int, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.state, self.actors = game.setups[setup_no](self.rng)
        self.ledger: Counter[str] = Counter(game.wallets(self.actors))
        self.hand_house = 0  # chips moved into the house's accounts since the hand began
        self.applied = Counter[str]()
        self.refused = Counter[str]()
        self.hands_ended = 0
        self.last_returns: dict[str, int] = dict(self.state.returns())

    def step(self, action: Any, must_pass: bool) -> None:
        game, state = self.game, self.state
        before = _json(state)
        held = dict(game.accounts(state))
        was_terminal = state.is_terminal()
        version = state.version
        refusal = state.why_not(action)
        assert _json(state) == before, "why_not changed the state"
        if must_pass:
            assert refusal is None, f"{action} was offered but refused: {refusal}"
        twin = None
        if self.rng.random() < 0.1:  # (restored from JSON in its own key order, as stored)
            twin = type(state).from_json(json.loads(json.dumps(state.to_json())))
        chance, twin_chance = _chance_pair(self.rng)
        try:
            out = state.apply(action, chance)
        except Exception as exc:
            assert refusal is not None, f"why_not allowed {action}, apply raised {exc!r}"
            assert getattr(exc, "rule", None) == refusal.rule, (exc, refusal)
            assert _json(state) == before, f"refused {action} changed the state"
            assert state.version == version
            self.refused[str(action.kind)] += 1
            return
        assert refusal is None, f"why_not refused {action} ({refusal}) but apply did it"
        assert state.version == version + 1
        self.applied[str(action.kind)] += 1
        after = _json(state)
        if twin is not None:  # the restored state plays on exactly like the original
            twin_out = twin.apply(copy.copy(action), twin_chance)
            assert _json(twin) == after
            assert list(twin_out.events) == list(out.events)
            assert list(twin_out.transfers) == list(out.transfers)
        # the JSON round trip is exact
        assert _json(type(state).from_json(json.loads(after))) == after
        self._check_chips(held, out.transfers)
        self._check_returns(was_terminal, out.transfers)
        # (restored from JSON in its own key order, as the bot stores it)
        self._check_observations(
            action, type(state).from_json(json.loads(json.dumps(state.to_json())))
        )

    def _check_observations(self, action: Any, restored: Any) -> None:
        state = self.state
        # the public, every actor, and the house (Pontoon's house bank holds a hand)
        for viewer in dict.fromkeys([None, *self.actors, HOUSE]):
            seen = state.observe(viewer)
            assert seen.viewer == viewer
            assert seen == state.observe(viewer), "observe is not deterministic"
            assert seen == restored.observe(viewer), "the restored state is seen otherwise"
            assert _immutable(seen) == [], (action, viewer)
            assert self.game.leaks(state, viewer) == [], (action, viewer)

    def _check_chips(self, held: dict[str, int], transfers: Any) -> None:
        moved: Counter[str] = Counter()
        for t in transfers:
            assert t.amount > 0 and t.src != t.dst, t
            moved[t.src] -= t.amount
            moved[t.dst] += t.amount
            self.ledger[t.src] -= t.amount
            self.ledger[t.dst] += t.amount
        now = self.game.accounts(self.state)
        for account, chips in now.items():
            assert chips >= 0, (account, chips)
            if account in held:  # (a seat joining or leaving brings or takes its chips)
                assert chips - held[account] == moved[account], (account, held, now, moved)
        for account in self.ledger:  # an outside wallet is never overdrawn
            if account in self.game.wallets(self.actors):
                assert self.ledger[account] >= 0, (account, self.ledger)
        self.hand_house += self.game.house_net(transfers)

    def _check_returns(self, was_terminal: bool, transfers: Any) -> None:
        returns = self.state.returns()
        settled = returns != self.last_returns or self.hand_house != 0
        if self.state.is_terminal() and not was_terminal and settled:
            # (Punto Banco is terminal again when the next coup's bets are all taken back)
            self.hands_ended += 1
            self.last_returns = returns
            # members' nets (special accounts, "@...", are the house's side)
            members = sum(net for actor, net in returns.items() if not actor.startswith("@"))
            assert members == -self.hand_house, (returns, self.hand_house)
        if self.state.is_terminal():
            self.hand_house = 0

    def run(self, actions: int) -> None:
        game, state, rng = self.game, self.state, self.rng
        for _ in range(actions):
            waiting = state.to_act()
            actor = (
                rng.choice(waiting) if waiting and rng.random() < 0.8 else rng.choice(self.actors)
            )
            offers = state.legal_actions(actor)
            if offers and rng.random() < 0.85:
                offer = rng.choice(offers)
                action = game.sample(state, actor, offer, rng, self.ledger)
                self.step(action, must_pass=game.exact(offer))
            else:
                for probe in game.probes(state, self.actors, rng, self.ledger):
                    self.step(probe, must_pass=False)


@pytest.mark.parametrize(
    ("game", "setup_no"),
    [pytest.param(g, i, id=f"{g.name}-{i}") for g in GAMES for i in range(len(g.setups))],
)
def test_random_play_keeps_the_rules(game: RandomPlay, setup_no: int) -> None:
    play = Play(game, setup_no, seed=1000 + setup_no)
    play.run(ACTIONS_PER_TABLE)
    # the play really went through hands and refusals (else nothing above was checked)
    assert play.hands_ended >= 3, play.applied
    assert sum(play.refused.values()) >= 50, play.refused
    assert len(play.applied) >= 3, play.applied


def test_every_game_is_listed() -> None:
    """``engine.games`` names every game once; the bot's registry is checked against it in
    tests/bot/test_games_registry_conformance.py."""
    names = [g.name for g in GAMES]
    assert len(names) == len(set(names)) and names
