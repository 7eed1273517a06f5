"""Who sees what: ``observe(viewer)`` of the one game interface (engine/game.py), one test
per visibility rule, each on both sides (the card shown where the rule shows it, and
kept from everyone else where it does not). The random play of every game checks the
same at every state it reaches (tests/engine/test_conformance.py)."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest

from engine.blackjack import DEALER, BlackjackObservation, BlackjackRules, Phase
from engine.blackjack import ActionKind as BJ
from engine.cards import RandomChance, full_pack
from engine.game import PUBLIC, Game
from engine.pontoon import Observation, Table
from engine.pontoon import Phase as PPhase
from engine.punto_banco import (
    CROUPIER,
    ActionKind,
    PuntoBancoObservation,
    PuntoBancoRules,
    PuntoBancoTable,
    Shoe,
    Side,
)
from engine.punto_banco import Action as PBAction
from engine.random_play import cards_in
from tests.engine.blackjack.helpers_bj import Game as BlackjackGame
from tests.engine.pontoon.pontoon_helpers import K, act, stack, table

# ------------------------------------------------------------------ the interface


def test_observe_is_part_of_the_game_interface() -> None:
    """A state without ``observe`` is no game; with it (and the rest), it is."""

    def member(*args: object) -> None:
        return None

    members = {
        name: member
        for name in (
            "version",
            "to_act",
            "legal_actions",
            "why_not",
            "apply",
            "is_terminal",
            "returns",
            "to_json",
            "from_json",
        )
    }
    assert not isinstance(SimpleNamespace(**members), Game)
    assert isinstance(SimpleNamespace(**members, observe=member), Game)
    assert isinstance(Table(), Game)


def test_an_observation_cannot_be_changed() -> None:
    seen = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H"))).observe("ann")
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen.hands = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        seen.returns["ann"] = 5  # type: ignore[index]


# ------------------------------------------------------------------ Pontoon


def _public_hands(seen: Observation, seat: str) -> list[tuple[tuple[str, ...], int]]:
    """``seat``'s hands as ``seen`` shows them to everyone: (face-up cards, face-down)."""
    return [(h.cards, h.hidden) for sv in seen.table.seats if sv.seat == seat for h in sv.hands]


def _banker_hand(seen: Observation) -> tuple[tuple[str, ...], int]:
    hand = seen.table.banker_hand
    assert hand is not None
    return hand.cards, hand.hidden


@pytest.mark.rule("P-DEAL-1", "P-DEAL-3")
def test_pontoon_a_player_s_face_down_cards_are_their_own() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    # the first card: its holder sees it; the public and the other players do not
    assert [h.cards for h in t.observe("ann").hands] == [("10S",)]
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [((), 1)]
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    # the second card: the same
    assert [h.cards for h in t.observe("ann").hands] == [("10S", "9S")]
    assert [h.cards for h in t.observe("bob").hands] == [("JC", "7C")]
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [((), 2)]
    assert t.observe(PUBLIC).hands == ()


@pytest.mark.rule("P-DEAL-1", "P-VAR-3")
def test_pontoon_the_banker_looks_at_the_first_card_only_to_double() -> None:
    plain = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    assert [h.cards for h in plain.observe("cat").hands] == [()]  # may not look
    doubling = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), banker_doubles=True)
    act(doubling, "ann", K.BET, 5)
    act(doubling, "bob", K.BET, 5)
    assert doubling.phase is PPhase.DOUBLING
    assert [h.cards for h in doubling.observe("cat").hands] == [("10H",)]
    for viewer in (PUBLIC, "ann", "bob"):  # the banker's look is the banker's alone
        assert _banker_hand(doubling.observe(viewer)) == ((), 1)


@pytest.mark.rule("P-DEAL-3", "P-BANKER-1")
def test_pontoon_the_banker_s_cards_are_turned_up_in_the_banker_s_turn() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "6H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    # the banker looks at both cards from the second on; the players do not see them
    assert [h.cards for h in t.observe("cat").hands] == [("10H", "6H")]
    for viewer in (PUBLIC, "ann", "bob"):
        assert _banker_hand(t.observe(viewer)) == ((), 2)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    assert t.phase is PPhase.BANKER
    for viewer in (PUBLIC, "ann", "bob", "cat"):
        assert _banker_hand(t.observe(viewer)) == (("10H", "6H"), 0)
        # the players' stuck hands stay hidden (P-BANKER-1), their holders' own
        assert _public_hands(t.observe(viewer), "ann") == [((), 2)]
    assert [h.cards for h in t.observe("ann").hands] == [("10S", "9S")]


@pytest.mark.rule("P-TWIST-1", "P-BUY-1")
def test_pontoon_a_twisted_card_is_public_a_bought_one_is_not() -> None:
    t = table(stack([("5S", "4S"), ("5C", "6C")], ("10H", "8H"), ["3C", "2D"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.TWIST)  # 3C face up
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [(("3C",), 2)]
    assert [h.cards for h in t.observe("ann").hands] == [("5S", "4S", "3C")]
    t2 = table(stack([("5S", "4S"), ("5C", "6C")], ("10H", "8H"), ["3C", "2D"]))
    act(t2, "ann", K.BET, 5)
    act(t2, "bob", K.BET, 5)
    act(t2, "ann", K.BUY, 5)  # 3C face down
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t2.observe(viewer), "ann") == [((), 3)]
    assert [h.cards for h in t2.observe("ann").hands] == [("5S", "4S", "3C")]


@pytest.mark.rule("P-BUST-1")
def test_pontoon_a_bust_hand_is_shown_at_once() -> None:
    t = table(stack([("10S", "5S"), ("JC", "7C")], ("10H", "8H"), ["9C"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert _public_hands(t.observe(PUBLIC), "bob") == [((), 2)]  # not bust: hidden
    act(t, "ann", K.BUY, 5)  # 24: bust
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [(("10S", "5S", "9C"), 0)]
    assert _public_hands(t.observe(PUBLIC), "bob") == [((), 2)]


@pytest.mark.rule("P-TURN-DECLARE")
def test_pontoon_a_declared_pontoon_is_shown() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert _public_hands(t.observe(PUBLIC), "ann") == [((), 2)]  # not declared yet
    act(t, "ann", K.DECLARE)
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [(("AS", "KS"), 0)]


@pytest.mark.rule("P-SPLIT-1")
def test_pontoon_split_cards_are_turned_up_the_new_ones_dealt_down() -> None:
    t = table(stack([("8S", "8D"), ("JC", "7C")], ("10H", "8H"), ["2C", "3C"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SPLIT)
    for viewer in (PUBLIC, "bob", "cat"):
        assert _public_hands(t.observe(viewer), "ann") == [(("8S",), 1), (("8D",), 1)]
    assert [h.cards for h in t.observe("ann").hands] == [("8S", "2C"), ("8D", "3C")]


@pytest.mark.rule("P-DEAL-4")
def test_pontoon_a_banker_s_pontoon_is_shown_at_once() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("AH", "KH")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert t.phase is PPhase.ROUND_OVER
    for viewer in (PUBLIC, "ann", "bob"):
        assert _banker_hand(t.observe(viewer)) == (("AH", "KH"), 0)
    no_pontoon = table(stack([("10S", "9S"), ("JC", "7C")], ("AH", "9H")))
    act(no_pontoon, "ann", K.BET, 5)
    act(no_pontoon, "bob", K.BET, 5)
    assert _banker_hand(no_pontoon.observe(PUBLIC)) == ((), 2)


@pytest.mark.rule("P-PAY-STAY")
def test_pontoon_settlement_shows_every_hand_still_in_play() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    assert _public_hands(t.observe(PUBLIC), "ann") == [((), 2)]  # stuck: still hidden
    act(t, "bob", K.STICK)
    act(t, "cat", K.STICK)
    assert t.phase is PPhase.ROUND_OVER
    seen = t.observe(PUBLIC)
    assert _public_hands(seen, "ann") == [(("10S", "9S"), 0)]
    assert _public_hands(seen, "bob") == [(("JC", "7C"), 0)]


# ------------------------------------------------------------------ Blackjack


def _bj(peek: bool, top: list[str]) -> BlackjackGame:
    rules = BlackjackRules(decks=1, peek=peek, insurance=False)
    game = BlackjackGame(rules, top, seats=("ann", "bob"))
    game.round({"ann": 10, "bob": 10})
    return game


@pytest.mark.rule("BJ-DEAL-1", "BJ-DEALER-1")
def test_blackjack_the_hole_card_is_hidden_from_everyone_until_the_dealer_s_turn() -> None:
    # ann 10S 7S, bob 9C 8C, the dealer 6H up and KD in the hole, then 5D for the dealer
    game = _bj(True, ["10S", "9C", "6H", "7S", "8C", "KD", "5D"])
    t = game.table
    assert t.phase is Phase.PLAYING
    for viewer in (PUBLIC, "ann", "bob", DEALER):
        seen = t.observe(viewer)
        assert [c.code for c in seen.dealer] == ["6H"] and seen.dealer_hidden == 1
        assert "KD" not in [c.code for c in cards_in(seen)]
        # every player's card is face up, to everyone
        ann = seen.box("ann")
        assert ann is not None and [c.code for c in ann.hands[0].cards] == ["10S", "7S"]
    assert [c.code for c in t.observe("ann").hands[0].cards] == ["10S", "7S"]
    assert t.observe(PUBLIC).hands == ()
    game.act("ann", BJ.STAND)
    game.act("bob", BJ.STAND)
    assert t.phase is Phase.ROUND_OVER
    for viewer in (PUBLIC, "ann", "bob"):
        seen = t.observe(viewer)
        assert [c.code for c in seen.dealer][:2] == ["6H", "KD"] and seen.dealer_hidden == 0


@pytest.mark.rule("BJ-PEEK-1")
def test_blackjack_a_peek_turns_up_only_a_dealer_blackjack() -> None:
    blackjack = _bj(True, ["10S", "9C", "KH", "7S", "8C", "AD"])
    assert blackjack.table.phase is Phase.ROUND_OVER
    seen = blackjack.table.observe(PUBLIC)
    assert [c.code for c in seen.dealer] == ["KH", "AD"] and seen.dealer_hidden == 0
    none = _bj(True, ["10S", "9C", "KH", "7S", "8C", "5D"])
    assert none.table.phase is Phase.PLAYING  # looked at, and kept face down
    seen = none.table.observe(PUBLIC)
    assert [c.code for c in seen.dealer] == ["KH"] and seen.dealer_hidden == 1


@pytest.mark.rule("BJ-NHC-1")
def test_blackjack_without_a_peek_the_second_card_comes_face_up_after_the_players() -> None:
    game = _bj(False, ["10S", "9C", "6H", "7S", "8C", "KD", "5D"])
    t = game.table
    assert t.phase is Phase.PLAYING
    seen = t.observe(PUBLIC)
    assert [c.code for c in seen.dealer] == ["6H"] and seen.dealer_hidden == 0  # none held
    game.act("ann", BJ.STAND)
    game.act("bob", BJ.STAND)
    seen = t.observe(PUBLIC)
    assert [c.code for c in seen.dealer][:2] == ["6H", "KD"]
    assert isinstance(seen, BlackjackObservation) and seen.last_result is not None


# ------------------------------------------------------------------ Punto Banco


def _pb(order_seed: int) -> PuntoBancoTable:
    """A table with ann's bet on Punto, whose shoe beyond its top six cards is in an
    order of ``order_seed``'s."""
    top = full_pack(1)[:6]
    rest = full_pack(1)[6:]
    random.Random(order_seed).shuffle(rest)
    table = PuntoBancoTable(PuntoBancoRules(), Shoe(1, top + rest, shuffles=1))
    table.apply(PBAction("ann", ActionKind.BET, Side.PUNTO, 10, balance=100))
    return table


@pytest.mark.rule("B-DEAL-1")
def test_punto_banco_every_card_of_a_coup_is_everyone_s_once_dealt() -> None:
    t = _pb(1)
    for viewer in (PUBLIC, "ann", "bob"):  # nothing dealt: no card shown
        assert t.observe(viewer).last_coup is None and cards_in(t.observe(viewer)) == []
    t.apply(PBAction(CROUPIER, ActionKind.DEAL), RandomChance(random.Random(0)))
    assert t.last_coup is not None
    dealt = [c for _, c in t.last_coup.dealt]
    for viewer in (PUBLIC, "ann", "bob"):
        seen = t.observe(viewer)
        assert isinstance(seen, PuntoBancoObservation)
        assert seen.last_coup == t.last_coup and sorted(map(str, cards_in(seen))) == sorted(
            map(str, dealt)
        )


@pytest.mark.rule("B-TABLE-1", "B-TABLE-2")
def test_punto_banco_nobody_sees_the_shoe_only_how_many_cards_it_deals_from() -> None:
    one, other = _pb(1), _pb(2)
    assert one.shoe.pack.codes() != other.shoe.pack.codes()
    for viewer in (PUBLIC, "ann"):  # two shoes in other orders look the same
        assert one.observe(viewer) == other.observe(viewer)
    chance = RandomChance(random.Random(0))
    one.apply(PBAction(CROUPIER, ActionKind.DEAL), chance)
    other.apply(PBAction(CROUPIER, ActionKind.DEAL), chance)
    assert one.observe(PUBLIC) == other.observe(PUBLIC)  # the same six top cards dealt
    assert one.observe(PUBLIC).cards_for_next_coup == len(one.shoe)
    # the count is seen: a shoe of another size is seen otherwise
    shorter = PuntoBancoTable(PuntoBancoRules(), Shoe(1, full_pack(1)[:20], shuffles=1))
    assert (
        shorter.observe(PUBLIC).cards_for_next_coup
        == 20
        != _pb(1).observe(PUBLIC).cards_for_next_coup
    )


@pytest.mark.rule("B-BET-1")
def test_punto_banco_the_bets_lie_on_the_table_for_everyone() -> None:
    t = _pb(1)
    t.apply(PBAction("bob", ActionKind.BET, Side.BANCO, 20, balance=100))
    for viewer in (PUBLIC, "ann", "bob", "cat"):
        seen = t.observe(viewer)
        assert [(b.bettor, b.side, b.amount) for b in seen.bets] == [
            ("ann", Side.PUNTO, 10),
            ("bob", Side.BANCO, 20),
        ]
    assert [b.bettor for b in t.observe("ann").own_bets] == ["ann"]
    assert t.observe(PUBLIC).own_bets == () and t.observe("cat").own_bets == ()
