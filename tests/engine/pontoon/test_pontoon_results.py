"""What settlement tells the table (survivors of mutation testing): each hand's result
event with its net (stake and shoot bet together), the cards shown to everyone, and the
end-of-round events. Public API only: events of ``apply`` and ``public_view``."""

from __future__ import annotations

import pytest
from pontoon_helpers import E, K, act, stack, table

from engine.errors import RuleError, Word
from engine.pontoon import Outcome, Table


def results(out: Outcome) -> list[tuple[str | None, int | None, int | None, str | None]]:
    return [(e.seat, e.hand, e.amount, e.detail) for e in out.events if e.kind is E.HAND_RESULT]


def seat_cards(t: Table, seat: str) -> list[tuple[tuple[str, ...], int]]:
    view = next(s for s in t.public_view().seats if s.seat == seat)
    return [(h.cards, h.hidden) for h in view.hands]


@pytest.mark.rule("P-SHOOT-7")
@pytest.mark.rule("P-PAY-STAY")
def test_each_result_carries_the_net_of_stake_and_shoot_bet() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    act(t, "cat", K.KITTY, 50)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 10)
    act(t, "bob", K.SHOOT, 5)
    assert seat_cards(t, "bob") == [((), 2)]  # face down while the round is played
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)
    assert results(out) == [
        ("ann", 0, 5 + 10, "win: 19 beats banker's 18"),
        ("bob", 0, -5 - 5, "lose: 17 loses to banker's 18"),
    ]
    # every hand still in play is shown at settlement
    assert seat_cards(t, "ann") == [(("10S", "9S"), 0)]
    assert seat_cards(t, "bob") == [(("JC", "7C"), 0)]
    # nothing else happens at the end of an ordinary round
    assert not [e for e in out.events if e.kind in (E.BANK_PASSES, E.KITTY)]


@pytest.mark.rule("P-PAY-BUST")
def test_a_banker_bust_pays_every_hand_and_says_so() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "6H"), ["KD"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 3)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.TWIST)
    assert results(out) == [("ann", 0, 5, "win: banker bust"), ("bob", 0, 3, "win: banker bust")]
    assert not [e for e in out.events if e.kind is E.KITTY]  # no kitty without Shoot


@pytest.mark.rule("P-BUST-1")
def test_a_bust_hand_result_is_the_lost_stake() -> None:
    t = table(stack([("10S", "6S"), ("JC", "7C")], ("10H", "8H"), ["KD"]))
    act(t, "ann", K.BET, 4)
    act(t, "bob", K.BET, 5)
    out = act(t, "ann", K.TWIST)
    assert results(out) == [("ann", 0, -4, "lose: bust")]
    assert seat_cards(t, "ann") == [(("10S", "6S", "KD"), 0)]


@pytest.mark.rule("P-DEAL-4")
def test_a_banker_pontoon_is_shown_and_every_hand_with_it() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("AH", "KH")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 3)
    shown = next(e for e in out.events if e.kind is E.BANKER_PONTOON)
    assert (shown.seat, shown.hand, shown.cards, shown.total) == ("cat", 0, ("AH", "KH"), 21)
    banker = t.public_view().banker_hand
    assert banker is not None and banker.cards == ("AH", "KH") and banker.hidden == 0
    assert results(out) == [
        ("ann", 0, -10, "lose: banker's pontoon"),
        ("bob", 0, -6, "lose: banker's pontoon"),
    ]
    assert seat_cards(t, "bob") == [(("JC", "7C"), 0)]


@pytest.mark.rule("P-NEXT-2")
def test_the_bank_passing_is_announced_with_the_new_banker() -> None:
    t = table(stack([("10S", "9S"), ("AC", "KC")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    act(t, "bob", K.DECLARE)
    out = act(t, "cat", K.STICK)
    passes = [(e.seat, e.detail) for e in out.events if e.kind is E.BANK_PASSES]
    assert passes == [("bob", "pontoon (P-NEXT-2)")]


def ann_empties_the_kitty() -> tuple[Outcome, Outcome]:
    """A Shoot round: cat puts up a kitty of 20, ann shoots 20 on 19 and wins it all,
    bob sticks on 17, the banker (cat) on 18. The kitty's outcome and the round's last."""
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), shoot=True)
    put_up = act(t, "cat", K.KITTY, 20)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 20)
    act(t, "bob", K.SHOOT, 0)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    return put_up, act(t, "cat", K.STICK)


@pytest.mark.rule("P-SHOOT-8")
def test_an_emptied_kitty_is_announced_as_zero() -> None:
    _, out = ann_empties_the_kitty()
    kitty = [(e.seat, e.amount, e.detail) for e in out.events if e.kind is E.KITTY]
    assert kitty == [("cat", 0, "empty (P-SHOOT-8)")]


def banker_seen(t: Table) -> tuple[tuple[str, ...], int]:
    banker = t.public_view().banker_hand
    assert banker is not None
    return banker.cards, banker.hidden


def banker_events(out: Outcome) -> list[tuple[E, str | None, int | None, int | None]]:
    mine = (E.BANKER_REVEAL, E.BANKER_DRAW, E.BANKER_STAYS, E.BUST, E.FIVE_CARD_TRICK)
    return [
        (e.kind, e.seat, e.hand, e.total)
        for e in out.events
        if e.kind in (*mine, E.TWENTY_ONE) and e.seat == "cat"
    ]


@pytest.mark.rule("P-BANKER-1")
@pytest.mark.rule("P-BANKER-2")
def test_the_banker_turn_is_played_face_up_for_everyone() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("5H", "7H"), ["2D"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    out = act(t, "bob", K.STICK)
    assert banker_events(out) == [(E.BANKER_REVEAL, "cat", 0, 12)]
    assert banker_seen(t) == (("5H", "7H"), 0)
    out = act(t, "cat", K.TWIST)
    assert banker_events(out) == [(E.BANKER_DRAW, "cat", 0, 14)]
    assert banker_seen(t) == (("5H", "7H", "2D"), 0)
    out = act(t, "cat", K.STICK)
    assert banker_events(out)[0] == (E.BANKER_STAYS, "cat", 0, 14)


@pytest.mark.rule("P-BANKER-3")
@pytest.mark.parametrize(
    ("banker", "draws", "kind", "total"),
    [
        (("10H", "6H"), ["KD"], E.BUST, 26),
        (("10H", "5H"), ["6D"], E.TWENTY_ONE, None),
        (("2H", "3H"), ["2D", "3D", "4C"], E.FIVE_CARD_TRICK, None),
    ],
)
def test_the_banker_turn_ends_on_bust_21_or_five_cards(
    banker: tuple[str, str], draws: list[str], kind: E, total: int | None
) -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], banker, draws))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    for _ in draws:
        out = act(t, "cat", K.TWIST)
    end = [(k, s, h) for k, s, h, _ in banker_events(out) if k is not E.BANKER_DRAW]
    assert end == [(kind, "cat", 0)]
    if total is not None:
        assert [x[3] for x in banker_events(out) if x[0] is kind] == [total]


def test_the_house_plays_face_up_and_stays_where_everyone_sees() -> None:
    top = ["10S", "5H", "9S", "6H", "2C", "6C"]  # ann 19; the house 11, draws 2 and 6
    t = table(top, seats=("ann",), house_bank=True, house_stands_on=17)
    act(t, "ann", K.BET, 5)
    out = act(t, "ann", K.STICK)
    stays = [(e.hand, e.total) for e in out.events if e.kind is E.BANKER_STAYS]
    assert stays == [(0, 19)]
    assert banker_seen(t) == (("5H", "6H", "2C", "6C"), 0)


@pytest.mark.rule("P-TURN-DECLARE")
def test_a_declared_pontoon_is_shown_to_everyone() -> None:
    t = table(stack([("AS", "KS"), ("JC", "7C")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    assert seat_cards(t, "ann") == [((), 2)]
    act(t, "ann", K.DECLARE)
    assert seat_cards(t, "ann") == [(("AS", "KS"), 0)]


@pytest.mark.rule("P-SPLIT-1")
def test_a_split_does_not_announce_the_turn_again() -> None:
    t = table(stack([("8S", "8D"), ("JC", "7C")], ("10H", "8H"), ["9C", "10C"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    out = act(t, "ann", K.SPLIT)  # still ann's first hand: no new TURN event
    assert E.TURN not in [e.kind for e in out.events]
    out = act(t, "ann", K.STICK)
    assert [(e.seat, e.hand) for e in out.events if e.kind is E.TURN] == [("ann", 1)]


@pytest.mark.rule("P-SHOOT-4")
@pytest.mark.rule("P-PAY-LIMIT")
def test_a_fourth_card_shoot_may_use_every_chip_the_player_can_spare() -> None:
    # ann holds 30: stake 5 and a buy of 5 leave 20, of which 10 must cover the doubled
    # stakes (P-PAY-LIMIT): 10 may go on a shoot bet with the fourth card, not 11.
    t = table(
        stack([("2S", "3S"), ("JC", "7C")], ("10H", "8H"), ["2C", "3C"]),
        shoot=True,
        balances={"ann": 30, "bob": 100, "cat": 100},
    )
    act(t, "cat", K.KITTY, 50)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.SHOOT, 0)
    act(t, "bob", K.SHOOT, 0)
    act(t, "ann", K.BUY, 5)
    twist = {x.kind: x for x in t.legal_actions("ann")}[K.TWIST]
    assert twist.shoot_max == 10
    before = t.to_json()
    with pytest.raises(RuleError) as ei:
        act(t, "ann", K.TWIST, shoot=11)
    assert ei.value.rule == "P-PAY-LIMIT" and t.to_json() == before
    act(t, "ann", K.TWIST, shoot=10)
    assert t.private_view("ann")[0].shoot == 10


@pytest.mark.rule("P-VAR-3")
def test_a_hand_losing_in_a_doubled_round_shows_the_doubled_loss() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "8H")), banker_doubles=True)
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 3)
    act(t, "cat", K.DOUBLE)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    out = act(t, "cat", K.STICK)
    assert results(out) == [
        ("ann", 0, 10, "win: 19 beats banker's 18"),
        ("bob", 0, -6, "lose: 17 loses to banker's 18"),
    ]


# ------------------------------------------------ the same results in the bot's words
def says(out: Outcome, kind: E = E.HAND_RESULT) -> list[tuple[str | None, Word | None]]:
    return [(e.seat, e.says) for e in out.events if e.kind is kind]


def win(why: Word) -> Word:
    return Word.of("engine.result.win", why=why)


def lose(why: Word) -> Word:
    return Word.of("engine.result.lose", why=why)


def banker_total(total: int) -> Word:
    return Word.of("engine.label.banker_total", total=total)


@pytest.mark.rule("P-PAY-STAY")
@pytest.mark.rule("P-SHOOT-8")
def test_results_say_who_beat_whom_in_catalog_words() -> None:
    put_up, out = ann_empties_the_kitty()
    assert says(put_up, E.KITTY) == [("cat", Word("engine.kitty.added"))]
    assert says(out) == [
        ("ann", win(Word.of("engine.why.beats", label=19, blabel=banker_total(18)))),
        ("bob", lose(Word.of("engine.why.loses_to", label=17, blabel=banker_total(18)))),
    ]
    assert says(out, E.KITTY) == [("cat", Word("engine.kitty.empty"))]


@pytest.mark.rule("P-PAY-BUST")
@pytest.mark.rule("P-BUST-1")
def test_a_bust_on_either_side_is_said_as_such() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("10H", "6H"), ["KD"]))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 3)
    act(t, "ann", K.STICK)
    act(t, "bob", K.STICK)
    bust = win(Word("engine.why.banker_bust"))
    assert says(act(t, "cat", K.TWIST)) == [("ann", bust), ("bob", bust)]
    t = table(stack([("10S", "6S"), ("JC", "7C")], ("10H", "8H"), ["KD"]))
    act(t, "ann", K.BET, 4)
    act(t, "bob", K.BET, 5)
    assert says(act(t, "ann", K.TWIST)) == [("ann", lose(Word("engine.why.bust")))]


@pytest.mark.rule("P-DEAL-4")
@pytest.mark.rule("P-NEXT-2")
def test_pontoons_and_the_bank_passing_are_said_in_words() -> None:
    t = table(stack([("10S", "9S"), ("JC", "7C")], ("AH", "KH")))
    act(t, "ann", K.BET, 5)
    out = act(t, "bob", K.BET, 3)
    banker_pontoon = lose(Word("engine.why.banker_pontoon"))
    assert says(out) == [("ann", banker_pontoon), ("bob", banker_pontoon)]
    t = table(stack([("10S", "9S"), ("AC", "KC")], ("10H", "8H")))
    act(t, "ann", K.BET, 5)
    act(t, "bob", K.BET, 5)
    act(t, "ann", K.STICK)
    act(t, "bob", K.DECLARE)
    out = act(t, "cat", K.STICK)
    assert (
        "bob",
        win(
            Word.of("engine.why.beats", label=Word("engine.label.pontoon"), blabel=banker_total(18))
        ),
    ) in says(out)
    assert says(out, E.BANK_PASSES) == [("bob", Word("engine.bank_passes.pontoon"))]
