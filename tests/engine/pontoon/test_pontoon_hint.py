"""The hint (engine/pontoon/hint.py) and the table's price (engine/pontoon/odds.py).

The exact figures are checked against a small, independent enumeration written here
(plain recursion over the pack by value, sharing no code with the engine's search), the
privacy of the hint by playing seeded rounds and reshuffling every card the member has
not seen.
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from engine.__main__ import main
from engine.cards import Card, RandomChance, full_pack, parse_card
from engine.errors import ConfigError
from engine.pontoon import hint as H
from engine.pontoon import odds
from engine.pontoon.rules import PontoonRules
from engine.pontoon.table import Table
from engine.pontoon.types import Action, ActionKind, LegalAction, Phase

K = ActionKind

# ------------------------------------------------------------------ independent enumeration

Pool = tuple[int, ...]  # counts of values 1..10 (ace .. ten-card)


def _pool_of(cards: list[Card]) -> Pool:
    counts = [0] * 10
    for c in full_pack(1):
        counts[c.value - 1] += 1
    for c in cards:
        counts[c.value - 1] -= 1
    return tuple(counts)


def _less(pool: Pool, v: int) -> Pool:
    return tuple(c - (i == v - 1) for i, c in enumerate(pool))


def _best(values: tuple[int, ...]) -> int:
    t = sum(values)
    return t + 10 if 1 in values and t <= 11 else t


def _banker(pool: Pool, hand: tuple[int, ...], stands: int) -> dict[str, float]:
    return _banker_sorted(pool, tuple(sorted(hand)), stands)


@cache
def _banker_sorted(pool: Pool, hand: tuple[int, ...], stands: int) -> dict[str, float]:
    """Final banker result (P-BANKER-2/3): 'bust', 'five' or the total, drawing below
    ``stands``."""
    total = _best(hand)
    if total > 21:
        return {"bust": 1.0}
    if len(hand) == 5:
        return {"five": 1.0}
    if total >= stands or total == 21:
        return {str(total): 1.0}
    out: dict[str, float] = {}
    size = sum(pool)
    for i, c in enumerate(pool):
        if c:
            for k, p in _banker(_less(pool, i + 1), (*hand, i + 1), stands).items():
                out[k] = out.get(k, 0.0) + p * c / size
    return out


def _result(player: tuple[int, ...], banker: dict[str, float]) -> float:
    """Chips per chip of stake (section 7 with the default payouts)."""
    total = _best(player)
    if total > 21:
        return -1.0 * sum(banker.values())
    pontoon = len(player) == 2 and total == 21
    five = len(player) == 5
    ev = 0.0
    for k, p in banker.items():
        if k == "bust":
            ev += p * (2 if pontoon or five else 1)
        elif k == "five":
            ev += p * (2 if pontoon else -2)
        elif pontoon or five:
            ev += p * 2
        else:
            ev += p * (1 if total > int(k) else -1)  # P-RANK-6: ties to the banker
    return ev


@cache
def _banker_no_pontoon(pool: Pool, stands: int) -> dict[str, float]:
    out: dict[str, float] = {}
    size = sum(pool)
    for i, a in enumerate(pool):
        for j, b in enumerate(_less(pool, i + 1)):
            if not a or not b or {i, j} == {0, 9}:
                continue
            p = a / size * b / (size - 1)
            rest = _less(_less(pool, i + 1), j + 1)
            for k, q in _banker(rest, (i + 1, j + 1), stands).items():
                out[k] = out.get(k, 0.0) + p * q
    return out


def _stand(pool: Pool, player: tuple[int, ...], stands: int = 17) -> float:
    """Per chip: the player stands, the banker (known to hold no pontoon) plays."""
    bank = _banker_no_pontoon(pool, stands)
    return _result(player, bank) / sum(bank.values())


def _heads_up(punter: int, stands: int) -> float:
    """The twist-only punter against the banker, fresh pack, by brute force."""
    full = _pool_of([])
    size = sum(full)
    ev = 0.0

    @cache
    def punter_plays(pool: Pool, hand: tuple[int, ...]) -> float:
        """The punter twists while below ``punter`` (and 15, P-STICK-1)."""
        total = _best(hand)
        if total < max(punter, 15) and len(hand) < 5:
            s = sum(pool)
            return sum(
                c / s * punter_plays(_less(pool, i + 1), tuple(sorted((*hand, i + 1))))
                for i, c in enumerate(pool)
                if c
            )
        return _result(hand, _banker_no_pontoon(pool, stands))

    for i, a in enumerate(full):
        for j, b in enumerate(_less(full, i + 1)):
            p = a / size * b / (size - 1)
            rest = _less(_less(full, i + 1), j + 1)
            # the banker's pontoon first (P-DEAL-4): everyone pays double
            s = sum(rest)
            p_bp = 2 * rest[0] * rest[9] / (s * (s - 1))
            ev += p * p_bp * -2
            if {i, j} == {0, 9}:
                bank = _banker_no_pontoon(rest, stands)
                ev += p * 2 * sum(bank.values())  # a declared pontoon is paid double
                continue
            ev += p * punter_plays(rest, tuple(sorted((i + 1, j + 1))))
    return ev


# ------------------------------------------------------------------------------ tests


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in codes)


HOUSE_RULES = PontoonRules(house_bank=True)


@pytest.mark.rule("P-PAY-STAY", "P-PAY-BUST", "P-PAY-FIVE", "P-RANK-6", "P-DEAL-4")
def test_stick_figure_is_the_exact_expectation_over_the_unseen_cards() -> None:
    hand = cards("10S", "9H")
    seen = [*hand, *cards("KD", "5C", "AS", "7H")]
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 3), seen, [LegalAction(K.STICK), LegalAction(K.TWIST)])
    stick = next(a for a in h.actions if a.kind is K.STICK)
    expected = _stand(_pool_of(seen), (10, 9))
    assert stick.per_chip == pytest.approx(expected, abs=1e-12)
    assert stick.chips == pytest.approx(3 * expected, abs=1e-12)
    assert h.actions[0] is stick  # sticking on 19 beats twisting
    assert h.margin == pytest.approx(stick.per_chip - h.actions[1].per_chip)
    assert h.unseen == 52 - len(seen)


@pytest.mark.rule("P-FIVE-1", "P-PAY-FIVE", "P-TWIST-1")
def test_twist_to_a_five_card_trick_is_exact() -> None:
    hand = cards("2S", "3H", "4D", "AC")  # 20 soft... 10 hard: any card makes five cards
    seen = list(hand)
    pool = _pool_of(seen)
    size = sum(pool)
    expected = 0.0
    for i, c in enumerate(pool):
        if c:
            rest = _less(pool, i + 1)
            bank = _banker_no_pontoon(rest, 17)
            expected += c / size * _result((2, 3, 4, 1, i + 1), bank)
    expected /= sum(_banker_no_pontoon(pool, 17).values())
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 1), seen, [LegalAction(K.TWIST), LegalAction(K.STICK)])
    twist = next(a for a in h.actions if a.kind is K.TWIST)
    assert twist.per_chip == pytest.approx(expected, abs=1e-12)
    assert h.best.kind is K.TWIST


@pytest.mark.rule("P-TURN-DECLARE", "P-RANK-1")
def test_a_pontoon_is_declared_and_paid_double() -> None:
    hand = cards("AS", "KH")
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 4), hand, [LegalAction(K.DECLARE)])
    assert [a.kind for a in h.actions] == [K.DECLARE]
    assert h.best.chips == pytest.approx(8.0)  # the banker holds no pontoon: 2 x 4


@pytest.mark.rule("P-BUY-2", "P-SPLIT-1")
def test_each_legal_action_is_valued_best_first_with_the_buy_range_ends() -> None:
    hand = cards("7S", "7H")
    legal = [
        LegalAction(K.SPLIT),
        LegalAction(K.BUY, 2, 4),
        LegalAction(K.TWIST),
        LegalAction(K.STICK),
    ]
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 2), hand, legal)
    got = {(a.kind, a.amount) for a in h.actions}
    assert got == {(K.SPLIT, None), (K.BUY, 2), (K.BUY, 4), (K.TWIST, None), (K.STICK, None)}
    chips = [a.chips for a in h.actions]
    assert chips == sorted(chips, reverse=True)
    assert next(a for a in h.actions if a.kind is K.SPLIT).exact is False
    assert all(a.exact for a in h.actions if a.kind is not K.SPLIT)


def test_the_hint_says_which_banker_it_assumed() -> None:
    hand = cards("10S", "6H")
    legal = [LegalAction(K.STICK), LegalAction(K.TWIST)]
    house = H.hint(
        PontoonRules(house_bank=True, house_stands_on=16), H.HandSeen(hand, 1), hand, legal
    )
    player = H.hint(PontoonRules(), H.HandSeen(hand, 1), hand, legal)
    assert (house.banker, house.banker_stands_on) == ("house", 16)
    assert (player.banker, player.banker_stands_on) == ("player_banker_draws_below_17", 17)
    assert house.best.chips != player.best.chips


@pytest.mark.rule("P-VAR-8")
def test_burn_is_valued_on_a_hard_13_as_an_approximation() -> None:
    rules = PontoonRules(house_bank=True, burn="13")
    hand = cards("7S", "6H")
    legal = [LegalAction(K.BURN), LegalAction(K.TWIST), LegalAction(K.BUY, 1, 2)]
    h = H.hint(rules, H.HandSeen(hand, 1), hand, legal)
    burn = next(a for a in h.actions if a.kind is K.BURN)
    assert burn.exact is False
    # two new cards for the same stake beat twisting on a hard 13
    assert burn.chips > next(a for a in h.actions if a.kind is K.TWIST).chips


# ---------------------------------------------------------------- privacy: unseen cards


def _unseen_positions(doc: dict, seat: str) -> list[tuple[list[str], int]]:
    """Every place in a stored table holding a card ``seat`` has not seen: the pack, the
    face-down cards of the other hands and of the banker."""
    places: list[tuple[list[str], int]] = [(doc["pack"], i) for i in range(len(doc["pack"]))]
    for other, hands in doc["hands"].items():
        if other == seat:
            continue
        for hand in hands:
            if hand["shown"]:
                continue
            places += [(hand["cards"], i) for i, up in enumerate(hand["up"]) if not up]
    bh = doc.get("bhand")
    if bh is not None and not bh["shown"]:
        places += [(bh["cards"], i) for i, up in enumerate(bh["up"]) if not up]
    return places


def _reshuffled(t: Table, seat: str, rng: random.Random) -> Table:
    doc = json.loads(json.dumps(t.to_json()))
    places = _unseen_positions(doc, seat)
    codes = [where[i] for where, i in places]
    rng.shuffle(codes)
    for (where, i), code in zip(places, codes, strict=True):
        where[i] = code
    return Table.from_json(doc)


def _figures(h: H.Hint) -> list[tuple[str, int | None, float]]:
    return [(a.kind.value, a.amount, round(a.chips, 12)) for a in h.actions]


@pytest.mark.parametrize("rules", [PontoonRules(house_bank=True), PontoonRules()])
def test_the_hint_never_uses_a_card_the_member_has_not_seen(rules: PontoonRules) -> None:
    """Seeded rounds; at every player decision the unseen cards (the pack and every
    face-down card of the others and the banker) are reshuffled among their places, which
    both reorders them and swaps them for other unseen cards: the figures stay the same.
    Changing one of the member's own cards does change them (the check can fail)."""
    seats = ["ann", "bob", "cat"]
    rng = random.Random(5)
    chance = RandomChance(random.Random(6))
    banker = None if rules.house_bank else "cat"
    t = Table(rules, seats, {s: 10_000 for s in seats}, banker=banker)
    checked = 0
    swapped_hidden = 0
    for _ in range(4):
        t.apply(Action(seats[0] if rules.house_bank else t.banker or "", K.DEAL), chance)
        for s in t.to_act():
            t.apply(Action(s, K.BET, rng.randint(1, 5)), chance)
        while t.phase is Phase.PLAYING:
            turn = t.turn
            assert turn is not None
            seat = turn[0]
            before = _figures(H.hint_for(t, seat))
            for k in range(3):
                other = _reshuffled(t, seat, random.Random(k))
                swapped_hidden += other.to_json()["hands"] != t.to_json()["hands"]
                assert _figures(H.hint_for(other, seat)) == before
            checked += 1
            offered = t.legal_actions(seat)
            la = rng.choice(offered)
            amount = la.min_amount if la.kind is K.BUY else None
            t.apply(Action(seat, la.kind, amount), chance)
        while t.phase is Phase.BANKER:
            t.apply(Action(t.banker or "", K.STICK), chance)
        t.apply(Action(seats[0], K.NEXT_ROUND), chance)
    assert checked >= 8 and swapped_hidden > 0


def test_a_seen_card_does_move_the_figures() -> None:
    hand = cards("10S", "5H")
    legal = [LegalAction(K.STICK), LegalAction(K.TWIST)]
    a = H.hint(HOUSE_RULES, H.HandSeen(hand, 1), [*hand, *cards("2C", "3C", "4C")], legal)
    b = H.hint(HOUSE_RULES, H.HandSeen(hand, 1), [*hand, *cards("KC", "QC", "JC")], legal)
    assert _figures(a) != _figures(b)


# ------------------------------------------------------------------------ the price


def test_heads_up_figure_agrees_with_brute_force_to_4_decimals() -> None:
    """Twist-only punter sticking on 15 against a banker sticking on 17, fresh pack."""
    brute = _heads_up(15, 17)
    exact = odds.heads_up(15, 17)
    assert exact["exact"] is True
    assert round(exact["ev"], 4) == round(brute, 4) == -0.1656
    assert sum(exact["outcomes"].values()) == pytest.approx(1.0)
    assert sum(int(k) * p for k, p in exact["outcomes"].items()) == pytest.approx(exact["ev"])


def test_odds_pontoon_command_prints_the_exact_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["odds", "pontoon", "--punter-stick", "15", "--banker-stick", "17", "--fresh-pack"])
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] is True
    assert round(doc["ev"], 4) == round(_heads_up(15, 17), 4)


def test_odds_pontoon_without_a_fresh_pack_is_a_simulation_with_its_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "pontoon", "--rounds", "4000", "--seed", "3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exact"] is False
    lo, hi = doc["interval"]
    assert lo < doc["ev"] < hi and hi - lo < 0.1


def test_odds_pontoon_refuses_unknown_table_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "pontoon", "--fresh-pack", "--rules", '{"no_such": 1}']) == 1
    assert "bad table options" in capsys.readouterr().err


@pytest.mark.rule("P-VAR-4")
def test_a_banker_collecting_single_for_its_pontoon_helps_the_punter() -> None:
    rules = PontoonRules(house_bank=True, pontoon_pays="players_double_banker_single")
    base = odds.heads_up(15, 17)
    single = odds.heads_up(15, 17, rules)
    # the banker's pontoon (P-DEAL-4) comes with the same chance and costs 1 instead of 2
    banker_pontoon = 2 * 4 * 16 / (52 * 51)
    assert single["ev"] - base["ev"] == pytest.approx(banker_pontoon, abs=1e-12)


def test_a_player_following_the_hint_does_better_than_the_twist_only_punter() -> None:
    edges = odds.table_edges(PontoonRules(house_bank=True))
    assert edges["house_bank"]["player_ev"] > odds.heads_up(15, 17)["ev"]
    assert edges["house_bank"]["edge"] == -edges["house_bank"]["player_ev"]
    # every deal is enumerated, but a split's value is the hint's estimate: not "exact"
    assert edges["exact"] is False and edges["split"] == "approximated"
    assert "split" in edges["method"] and "estimate" in edges["method"]


@pytest.mark.rule("P-NEXT-1", "P-TABLE-1")
def test_cards_come_round_again_without_a_shuffle() -> None:
    """Seen more often than the pack holds (used cards go to the bottom, P-NEXT-1): each
    counts once, and at least MIN_POOL cards always stay unknown."""
    hand = cards("10S", "5H")
    legal = [LegalAction(K.STICK), LegalAction(K.TWIST)]
    everything = full_pack(1)
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 1), [*everything, *everything, *hand], legal)
    assert h.unseen == H.MIN_POOL
    two = H.hint(HOUSE_RULES, H.HandSeen(hand, 1), [*hand, *hand], legal, packs=2)
    assert two.unseen == 104 - 4  # two packs: both copies seen


def test_hint_for_refuses_a_seat_whose_turn_it_is_not() -> None:
    t = Table(HOUSE_RULES, ["ann", "bob"], {"ann": 50, "bob": 50})
    chance = RandomChance(random.Random(2))
    t.apply(Action("ann", K.DEAL), chance)
    with pytest.raises(ConfigError):
        H.hint_for(t, "ann")  # betting, nobody plays a hand yet


@pytest.mark.rule("P-BUY-1", "P-BUY-3", "P-FIVE-1")
def test_buying_the_fifth_card_scales_the_twist_by_the_new_stake() -> None:
    """The fifth card ends the hand, so a buy of a is worth (stake + a) times the twist's
    figure per chip; and the exact twist figure is the independent enumeration's."""
    hand = cards("2S", "3H", "4D", "AC")
    legal = [LegalAction(K.TWIST), LegalAction(K.BUY, 2, 3), LegalAction(K.STICK)]
    h = H.hint(HOUSE_RULES, H.HandSeen(hand, 5), hand, legal)
    twist = next(a for a in h.actions if a.kind is K.TWIST)
    buys = {a.amount: a for a in h.actions if a.kind is K.BUY}
    assert set(buys) == {2, 3}
    for amount, buy in buys.items():
        assert buy.chips == pytest.approx((5 + amount) * twist.per_chip, abs=1e-12)
    assert h.best.kind is K.BUY and h.best.amount == 3  # twisting here is worth more than 0


@pytest.mark.rule("P-RANK-2", "P-RANK-6", "P-VAR-3", "P-SHOOT-7")
def test_each_option_moves_the_edge_the_way_docs_say() -> None:
    """docs/house-edge.md: the five card trick is the player's, ties are the banker's, a
    doubled round and an even-money shoot bet cost the player."""
    effects = odds.option_effects(PontoonRules())
    e = {k: v["edge"] for k, v in effects.items()}
    # only the shoot bet, which has no split, is exact
    assert {k for k, v in effects.items() if v["exact"]} == {"shoot_bet"}
    assert e["banker_pays_ties"] < 0 < e["as_given"] < 0.02
    assert e["as_given"] < e["no_five_card_trick"]
    assert e["as_given"] < e["doubled_round"]
    assert 0 < e["shoot_bet"] < 1
