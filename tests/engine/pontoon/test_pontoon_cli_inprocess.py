"""Pontoon's part of `python -m engine` (engine/pontoon/cli.py) in this process, where a
mutant of the module is seen: `replay` (docs/engine-cli.md "replay"), `simulate pontoon`
on a stacked shoe against a count made by hand, the options' ranges and defaults
("Limits and exit statuses"), and the bench on a fake clock. The child-process tests of
test_pontoon_cli.py and tests/engine/test_engine_cli.py stay for what only a real
process shows."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.__main__ import build_parser, main
from engine.cards import Card, RandomChance, full_pack, parse_card
from engine.errors import ConfigError, RuleError
from engine.pontoon import cli as pontoon_cli
from engine.pontoon.cli import bench, play_bench_rounds, replay_doc, simulate
from engine.pontoon.rules import PontoonRules
from engine.pontoon.table import Table
from engine.pontoon.types import Action, ActionKind, Phase

K = ActionKind


def _pack(top: Sequence[str]) -> list[Card]:
    """One pack: ``top`` first, then the rest in new-pack order."""
    given = [parse_card(c) for c in top]
    rest = full_pack(1)
    for card in given:
        rest.remove(card)
    return given + rest


# ------------------------------------------------------------------------------ replay


def _kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == kind]


@pytest.mark.rule("P-PAY-STAY")
@pytest.mark.rule("P-NEXT-1")
def test_a_house_banked_seat_alone_plays_round_after_round() -> None:
    """On a house-banked table the first seat deals (there is no banker seat), and an
    action without `seat` (`next_round`) is taken by it; the replay then deals the next
    round at once. Round 1: ann 19 against the house's 18 wins her 4 (P-PAY-STAY); the
    used cards go to the bottom and round 2 is dealt from the top (P-NEXT-1): ann 17
    against 19 loses her 2."""
    code, out = replay_doc(
        {
            "rules": {"house_bank": True},
            "seats": ["ann"],
            "balances": {"ann": 50},
            "pack": ["KS", "KD", "9S", "8D", "KH", "KC", "7H", "9C"],
            "actions": [
                {"seat": "ann", "act": "bet", "amount": 4},
                {"seat": "ann", "act": "stick"},
                {"act": "next_round"},
                {"seat": "ann", "act": "bet", "amount": 2},
                {"seat": "ann", "act": "stick"},
            ],
        }
    )
    assert code == 0, out.get("error")
    assert [r["round"] for r in out["rounds"]] == [1, 2]
    assert [r["balances"] for r in out["rounds"]] == [{"ann": 54}, {"ann": 52}]
    assert [r["results"][0]["seat"] for r in out["rounds"]] == ["ann", "ann"]
    assert out["balances"] == {"ann": 52} and out["house"] == -2
    assert out["phase"] == Phase.ROUND_OVER.value and out["round_no"] == 2
    assert out["banker"] == "@house"
    dealt = [e["cards"] for e in _kinds(out["events"], "card_dealt") if e["seat"] == "ann"]
    assert dealt == [["KS"], ["9S"], ["KH"], ["7H"]]


@pytest.mark.rule("P-TABLE-1")
def test_a_seat_that_leaves_is_not_dealt_to_and_may_sit_down_again() -> None:
    """A house-banked table of ann and bob: after round 1 ann leaves (between rounds);
    round 1 stays the one round recorded, and after `next_round` nothing is dealt while
    the replay's dealer (the first seat, ann) is away. She sits down again with 105
    chips and bob deals; the table waits for the bets."""
    code, out = replay_doc(
        {
            "rules": {"house_bank": True},
            "seats": ["ann", "bob"],
            "balances": {"ann": 100, "bob": 100},
            # ann 19, bob 17, the house 18: ann wins 5, bob loses 3
            "pack": ["KS", "KH", "KD", "9S", "7H", "8D"],
            "actions": [
                {"seat": "ann", "act": "bet", "amount": 5},
                {"seat": "bob", "act": "bet", "amount": 3},
                {"seat": "ann", "act": "stick"},
                {"seat": "bob", "act": "stick"},
                {"seat": "ann", "act": "leave"},
                {"seat": "bob", "act": "next_round"},
                {"seat": "ann", "act": "join", "amount": 105},
                {"seat": "bob", "act": "deal"},
            ],
        }
    )
    assert code == 0, out.get("error")
    (first,) = out["rounds"]
    assert first["round"] == 1 and first["balances"] == {"ann": 105, "bob": 97}
    assert [(r["seat"], r["net"]) for r in first["results"]] == [("ann", 5), ("bob", -3)]
    assert out["phase"] == Phase.BETTING.value and out["round_no"] == 2
    assert out["balances"] == {"bob": 97, "ann": 105}
    assert [e["seat"] for e in _kinds(out["events"], "left")] == ["ann"]


@pytest.mark.rule("P-BANK-1")
def test_P_BANK_1_without_a_banker_the_seats_cut_with_seed_0_unless_told() -> None:
    """P-BANK-1: without `banker` every seat cuts a card and the highest (ace high) takes
    the bank; the cut is drawn with the seeded random source of `seed`, 0 by default."""
    doc: dict[str, Any] = {"seats": ["ann", "bob", "cat"], "balances": {"ann": 9, "bob": 9}}
    ranks = "23456789TJQKA"

    def cut(extra: dict[str, Any]) -> tuple[list[tuple[str, str]], str]:
        code, out = replay_doc({**doc, **extra})
        assert code == 0
        cuts = [(e["seat"], e["cards"][0]) for e in _kinds(out["events"], "cut_card")]
        return cuts, out["banker"]

    unseeded, banker = cut({})
    assert [seat for seat, _ in unseeded] == ["ann", "bob", "cat"]  # no tie with seed 0
    highest = max(unseeded, key=lambda cut: ranks.index(cut[1].replace("10", "T")[0]))
    assert banker == highest[0]
    assert cut({"seed": 0}) == (unseeded, banker)
    assert cut({"seed": 1})[0] != unseeded


@pytest.mark.rule("P-TABLE-1")
def test_P_TABLE_1_one_seat_cannot_cut_for_the_bank() -> None:
    """P-TABLE-1: two or more people play. One seat without a house bank and without a
    banker cannot cut for the bank: the replay stops with the rule's refusal."""
    with pytest.raises(RuleError) as refused:
        replay_doc({"seats": ["ann"], "balances": {"ann": 10}})
    assert refused.value.rule == "P-TABLE-1"
    assert "two or more" in refused.value.message


@pytest.mark.rule("P-TABLE-1")
@pytest.mark.parametrize(
    ("seats", "rules", "aces", "ok"),
    [
        (8, {}, 2, True),  # 8 people: two packs
        (8, {}, 3, False),  # but not three
        (7, {}, 2, False),  # 7 people: one pack
        (8, {"packs": 1}, 2, False),  # the table option wins
        (3, {"packs": 2}, 2, True),
    ],
)
def test_P_TABLE_1_two_packs_when_eight_or_more_sit(
    seats: int, rules: dict[str, Any], aces: int, ok: bool
) -> None:
    """P-TABLE-1: one pack, two when 8 or more sit (or as the `packs` option says); a
    listed pack top may hold a card as often as the packs do, and no more often."""
    names = [f"s{i}" for i in range(seats)]
    doc = {
        "rules": rules,
        "seats": names,
        "banker": "s0",
        "balances": {n: 20 for n in names},
        "pack": ["AS"] * aces,
    }
    if ok:
        code, out = replay_doc(doc)
        assert code == 0 and out["phase"] == Phase.BETTING.value
    else:
        with pytest.raises(ConfigError, match="holds AS too often"):
            replay_doc(doc)


@pytest.mark.parametrize("banker", ["house", "@house"])
def test_a_house_banked_replay_may_name_the_house_as_banker(banker: str) -> None:
    """`house_bank`: there is no banker seat; naming the house as banker is the same
    as leaving `banker` out."""
    doc: dict[str, Any] = {
        "rules": {"house_bank": True},
        "seats": ["ann", "bob"],
        "balances": {"ann": 10, "bob": 10},
        "actions": [{"seat": "ann", "act": "bet", "amount": 2}],
    }
    assert replay_doc({**doc, "banker": banker}) == replay_doc(doc)


def test_the_house_is_no_banker_at_a_table_without_a_house_bank() -> None:
    """Without `house_bank` the banker must be one of the seats."""
    with pytest.raises(ConfigError, match="not seated"):
        replay_doc({"seats": ["ann", "bob"], "banker": "house"})


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"reshuffles": 5}, '"reshuffles" must be a list of packs'),
        ({"reshuffles": ["7S"]}, '"reshuffles" must be a list of packs'),
        ({"reshuffles": [["7S"], "KD"]}, '"reshuffles" must be a list of packs'),
        ({"seed": True}, '"seed" must be a whole number'),
        ({"seed": "1"}, '"seed" must be a whole number'),
        ({"seed": 1.5}, '"seed" must be a whole number'),
    ],
)
def test_a_malformed_replay_file_names_what_is_wrong(doc: dict[str, Any], message: str) -> None:
    """A malformed file is refused with one message naming what is wrong, before
    anything is played."""
    with pytest.raises(ConfigError) as refused:
        replay_doc({"seats": ["ann", "bob"], "banker": "ann", **doc})
    assert message in str(refused.value)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.rule("P-TABLE-2")
def test_replay_files_and_their_exit_statuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m engine replay FILE`: status 0 and the JSON result; status 2 for an
    illegal action (a bet above the table's maximum, P-TABLE-2), with the rule and the
    balances as they were before it; status 1 and one line naming the file for a file
    that is missing, not JSON or malformed."""
    game = {
        "rules": {"min_bet": 1, "max_bet": 10},
        "seats": ["ann", "bob"],
        "banker": "bob",
        "balances": {"ann": 30, "bob": 30},
        "actions": [{"seat": "ann", "act": "bet", "amount": 10}],
    }
    good = tmp_path / "good.json"
    good.write_text(json.dumps(game), encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(good))
    assert (code, err) == (0, "")
    assert json.loads(out) == replay_doc(game)[1]

    illegal = tmp_path / "illegal.json"
    three = {
        **game,
        "seats": ["ann", "bob", "cat"],
        "balances": {"ann": 30, "bob": 30, "cat": 30},
        "actions": [
            {"seat": "ann", "act": "bet", "amount": 10},
            {"seat": "cat", "act": "bet", "amount": 11},
            {"seat": "cat", "act": "bet", "amount": 1},
        ],
    }
    illegal.write_text(json.dumps(three), encoding="utf-8")
    code, out, err = _run(capsys, "replay", str(illegal))
    assert (code, err) == (2, "")
    doc = json.loads(out)
    assert doc["error"]["action"] == 1 and doc["error"]["rule"] == "P-TABLE-2"
    assert doc["balances"] == {"ann": 20, "bob": 30, "cat": 30}  # ann's 10 in escrow
    assert [e["seat"] for e in _kinds(doc["events"], "bet")] == ["ann"]

    broken = tmp_path / "broken.json"
    broken.write_text('{"seats": ["ann",', encoding="utf-8")
    for path, says in [
        (tmp_path / "missing.json", "no such file"),
        (broken, "not valid JSON"),
        (tmp_path, "cannot be read"),
    ]:
        code, out, err = _run(capsys, "replay", str(path))
        assert (code, out) == (1, "")
        assert err.startswith(f"error: {path}: {says}") and err.count("\n") == 1


# ---------------------------------------------------------------------------- simulate


class _Shoe:
    """A Chance whose shuffles hand out stacked packs, one per shuffle, and that refuses
    a shuffle more than it was given."""

    def __init__(self, tops: Sequence[Sequence[str]]) -> None:
        self.packs = [_pack(top) for top in tops]

    def shuffle(self, cards: Sequence[Card]) -> list[Card]:
        assert self.packs, "a shuffle more than the stacked packs"
        return self.packs.pop(0)

    def randbelow(self, n: int) -> int:
        raise AssertionError("simulate never cuts for the bank")


def _stack(monkeypatch: pytest.MonkeyPatch, *tops: Sequence[str]) -> _Shoe:
    """Make simulate's shuffles come from ``tops`` (whatever the seed)."""
    shoe = _Shoe(tops)
    monkeypatch.setattr(pontoon_cli, "RandomChance", lambda rng: shoe)
    return shoe


# Each round's pack top, dealt punter, house, punter, house, then the draws; the punter
# twists below 15, the house draws below 17. What each round pays the punter (stake 1):
ROUNDS: list[tuple[list[str], int]] = [
    (["KS", "KH", "9S", "8H"], 1),  # 19 beats the house's 18 (P-PAY-STAY)
    (["KS", "KH", "6S", "7H"], -1),  # 16 under 17: the house wins
    (["KS", "KH", "4S", "7H", "QD"], -1),  # 14, twists a queen: bust (P-BUST-1)
    (["AS", "9H", "KS", "8H"], 2),  # a pontoon against 17: double (P-PAY-STAY)
    (["2S", "KH", "3S", "7H", "2D", "3D", "4D"], 2),  # 2+3+2+3+4: five card trick
    (["KS", "KH", "5S", "6H", "QD"], 1),  # sticks on 15; the house draws to 26 (P-PAY-BUST)
    (["KS", "AH", "9S", "KD"], -2),  # the house's pontoon takes double (P-DEAL-4)
]


@pytest.mark.rule("P-PAY-STAY")
@pytest.mark.rule("P-PAY-BUST")
@pytest.mark.rule("P-DEAL-4")
@pytest.mark.rule("P-FIVE-1")
def test_simulate_counts_each_outcome_of_a_stacked_shoe(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--fresh-pack`: a new pack for every round, and no more. The figures are the
    shares of the rounds counted above, the EV their mean."""
    shoe = _stack(monkeypatch, *(top for top, _ in ROUNDS))
    doc = simulate(len(ROUNDS), seed=4, fresh_pack=True)
    assert shoe.packs == []
    n = len(ROUNDS)
    paid = [p for _, p in ROUNDS]
    assert doc == {
        "rounds": n,
        "seed": 4,
        "punter_stick": 15,
        "banker_stick": 17,
        "fresh_pack": True,
        "ev": sum(paid) / n,
        "outcomes": {str(k): paid.count(k) / n for k in (-2, -1, 1, 2)},
        "punter_bust": 1 / n,
        "punter_five_card_trick": 1 / n,
        "punter_pontoon": 1 / n,
        "banker_bust": 1 / n,
    }


@pytest.mark.parametrize(("round_no", "paid"), [(0, 1), (1, -1)])
def test_simulate_lists_every_outcome_even_those_that_never_came(
    round_no: int, paid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`outcomes` always holds -2, -1, 1 and 2 (in that order), 0 for those that did not
    happen; one round (the least `--rounds` takes) shows it."""
    _stack(monkeypatch, ROUNDS[round_no][0])
    doc = simulate(1, seed=0, fresh_pack=True)
    assert doc["outcomes"] == {k: float(k == str(paid)) for k in ("-2", "-1", "1", "2")}
    assert doc["ev"] == paid


@pytest.mark.rule("P-NEXT-1")
def test_P_NEXT_1_without_fresh_pack_the_next_round_is_dealt_from_the_same_pack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """P-NEXT-1: with nobody on a pontoon the next round is dealt on from the same pack,
    unshuffled; this is the default (no `--fresh-pack`). Round 1: 19 against 18; round 2
    from the cards below: 16 against 17."""
    _stack(monkeypatch, ["KS", "KH", "9S", "8H", "QD", "QC", "6S", "7H"])
    doc = simulate(2, seed=0)
    assert doc["fresh_pack"] is False
    assert doc["outcomes"] == {"-2": 0.0, "-1": 0.5, "1": 0.5, "2": 0.0}


@pytest.mark.rule("P-STICK-1")
def test_simulate_twists_below_the_punter_stick_and_the_house_draws_below_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--punter-stick 17`: 16 twists (a 5: 21); `--banker-stick 19`: the house draws
    on 18 (a 3: 21) and wins the tie of 21 (P-RANK-6)."""
    _stack(monkeypatch, ["KS", "KH", "6S", "8H", "5D", "3D"])
    doc = simulate(1, seed=0, punter_stick=17, banker_stick=19, fresh_pack=True)
    assert (doc["punter_stick"], doc["banker_stick"]) == (17, 19)
    assert doc["outcomes"]["-1"] == 1.0 and doc["punter_bust"] == 0


def test_simulate_takes_1_to_the_most_rounds_both_included(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--rounds` from 1 to the limit (10,000,000; lowered to 3 here), both included."""
    monkeypatch.setattr(pontoon_cli, "MAX_ROUNDS", 3)
    _stack(monkeypatch, *(top for top, _ in ROUNDS[:4]))
    assert simulate(1, seed=0, fresh_pack=True)["rounds"] == 1
    assert simulate(3, seed=0, fresh_pack=True)["rounds"] == 3
    for rounds in (0, 4):
        with pytest.raises(ConfigError, match="between 1 and 3"):
            simulate(rounds, seed=0)


def test_the_simulate_command_prints_the_simulation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m engine simulate pontoon --rounds 7 --seed 4 --fresh-pack`: status 0 and
    the simulation as JSON."""
    _stack(monkeypatch, *(top for top, _ in ROUNDS))
    code, out, err = _run(
        capsys, "simulate", "pontoon", "--rounds", "7", "--seed", "4", "--fresh-pack"
    )
    assert (code, err) == (0, "")
    _stack(monkeypatch, *(top for top, _ in ROUNDS))
    assert json.loads(out) == simulate(7, 4, fresh_pack=True)


def test_the_simulate_options_defaults() -> None:
    """Without options: 100,000 rounds from seed 0, twist below 15, the house below 17,
    the pack kept between rounds."""
    args = build_parser().parse_args(["simulate", "pontoon"])
    assert (args.rounds, args.seed, args.punter_stick, args.banker_stick) == (100_000, 0, 15, 17)
    assert args.fresh_pack is False


@pytest.mark.parametrize(
    ("option", "least", "most"), [("--punter-stick", 2, 22), ("--banker-stick", 2, 21)]
)
def test_the_stick_options_take_their_range_both_ends_included(
    option: str, least: int, most: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--punter-stick` 2-22, `--banker-stick` 2-21, both ends included; one less or one
    more is a usage error (status 2) naming the range."""
    parser = build_parser()
    attr = option[2:].replace("-", "_")
    for value in (least, most):
        args = parser.parse_args(["simulate", "pontoon", option, str(value)])
        assert getattr(args, attr) == value
    for value in (least - 1, most + 1):
        with pytest.raises(SystemExit) as exited:
            main(["simulate", "pontoon", option, str(value)])
        assert exited.value.code == 2
        assert f"between {least} and {most}" in capsys.readouterr().err


# ------------------------------------------------------------------------------- bench


class _Clock:
    """``time`` for the bench: ``perf_counter`` returns the given readings, then goes on
    by 1 s a reading; ``process_time`` returns its own readings."""

    def __init__(self, wall: Sequence[float], cpu: Sequence[float]) -> None:
        self.wall = list(wall)
        self.cpu = list(cpu)
        self.last = 0.0

    def perf_counter(self) -> float:
        self.last = self.wall.pop(0) if self.wall else self.last + 1.0
        return self.last

    def process_time(self) -> float:
        return self.cpu.pop(0)


def _batches(monkeypatch: pytest.MonkeyPatch, splits: Iterator[int]) -> list[int]:
    """Replace the bench's rounds by a stub that records how many it was asked for and
    answers how many of them were split."""
    asked: list[int] = []

    def stub(table: Table, chance: RandomChance, rounds: int, rng: random.Random) -> int:
        asked.append(rounds)
        return next(splits)

    monkeypatch.setattr(pontoon_cli, "play_bench_rounds", stub)
    return asked


def test_the_bench_times_its_batches_until_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench warms up with 200 rounds it does not count, then plays batches of 500,
    reading the clock after each, and stops at the first reading at or past the
    deadline (here exactly on it, after the second batch). It reports the rounds timed,
    the rounds split among them, the wall and CPU seconds (3 places) and the rates
    (1 place)."""
    asked = _batches(monkeypatch, iter([7, 2, 3]))
    start, seconds = 100.0, 0.1234567
    monkeypatch.setattr(
        pontoon_cli, "time", _Clock([start, start + 0.05, start + seconds], [5.0, 5.0654321])
    )
    doc = bench(seconds)
    assert asked == [200, 500, 500]
    assert (doc["rounds"], doc["rounds_with_splits"], doc["seats"]) == (1000, 5, 4)
    assert doc["seconds"] == 0.123  # 0.1234567 s
    assert doc["cpu_seconds"] == 0.065  # 0.0654321 s
    assert doc["rounds_per_second"] == 8100.0  # 1000 / 0.1234567 = 8100.006
    assert doc["rounds_per_cpu_second"] == 15283.0  # 1000 / 0.0654321 = 15283.019


def test_the_bench_without_cpu_time_gives_no_cpu_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process clock that did not move gives no rounds per CPU second (null), not a
    division by zero; one batch past the deadline is enough."""
    _batches(monkeypatch, iter([0, 0]))
    monkeypatch.setattr(pontoon_cli, "time", _Clock([10.0, 12.0], [3.0, 3.0]))
    doc = bench(1.0)
    assert doc["rounds"] == 500 and doc["seconds"] == 2.0
    assert doc["cpu_seconds"] == 0 and doc["rounds_per_cpu_second"] is None
    assert doc["rounds_per_second"] == 250.0


@pytest.mark.parametrize("seconds", [0.0, -1.0, 3600.5])
def test_the_bench_refuses_no_time_and_more_than_an_hour(
    seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bench` needs more than 0 seconds and at most 3600, and plays nothing otherwise."""
    _batches(monkeypatch, iter([]))  # a round played would end the iterator: an error
    with pytest.raises(ConfigError, match="more than 0 and at most 3600"):
        bench(seconds)


def test_the_bench_takes_an_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    """3600 seconds, the most, is taken (on a clock that runs an hour a batch)."""
    _batches(monkeypatch, iter([0, 0]))
    monkeypatch.setattr(pontoon_cli, "time", _Clock([0.0, 3600.0], [0.0, 1.0]))
    assert bench(3600.0)["rounds"] == 500


def _strategy_check(
    decisions: list[tuple[bool, int, int, set[ActionKind], ActionKind]],
) -> Callable[[Table, Action, Any], Any]:
    """A Table.apply that notes each move made in a turn: (banker?, total, cards,
    offered, move)."""
    apply = Table.apply

    def noting(self: Table, action: Action, chance: Any = None) -> Any:
        turn = self.turn
        if turn is not None and turn[0] == action.seat:
            seat, i = turn
            hand = self.private_view(seat)[i]
            offered = {la.kind for la in self.legal_actions(seat)}
            assert hand.total is not None
            decisions.append(
                (seat == self.banker, hand.total, len(hand.cards), offered, action.kind)
            )
        return apply(self, action, chance)

    return noting


@pytest.mark.rule("P-BUY-1")
@pytest.mark.rule("P-SPLIT-1")
@pytest.mark.rule("P-STICK-1")
@pytest.mark.rule("P-TURN-DECLARE")
def test_the_bench_plays_its_documented_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's players declare a pontoon, split a pair, buy on 11 or less with fewer
    than four cards, twist below 15 and stick on 15 or more; its banker draws below 17.
    It returns how many rounds were split at least once."""
    decisions: list[tuple[bool, int, int, set[ActionKind], ActionKind]] = []
    seats = ["a", "b", "c", "d"]
    table = Table(PontoonRules(min_bet=1, max_bet=10), seats, {s: 10**9 for s in seats}, banker="a")
    chance = RandomChance(random.Random(7))
    table.apply(Action("a", K.DEAL), chance)
    split_rounds: set[int] = set()
    apply_noting = _strategy_check(decisions)

    def spy(self: Table, action: Action, chance: Any = None) -> Any:
        if action.kind is K.SPLIT:
            split_rounds.add(self.round_no)
        return apply_noting(self, action, chance)

    monkeypatch.setattr(Table, "apply", spy)
    splits = play_bench_rounds(table, chance, 400, random.Random(3))
    assert splits == len(split_rounds) and 0 < splits < 400
    seen: set[str] = set()
    for banker, total, cards, offered, move in decisions:
        if banker:
            assert move is (K.TWIST if total < 17 else K.STICK), (total, move)
            seen.add(f"banker {min(max(total, 16), 17)}")
        elif K.DECLARE in offered:
            assert move is K.DECLARE
        elif K.SPLIT in offered:
            assert move is K.SPLIT
        elif K.BUY in offered and total <= 11 and cards < 4:
            assert move is K.BUY
            seen.add(f"buy {total}")
        else:
            wants = total < 15 and K.TWIST in offered
            assert move is (K.TWIST if wants else K.STICK), (total, cards, offered, move)
            if K.BUY in offered and total in (12, 14, 15):
                seen.add(f"{'twist' if wants else 'stick'} {total} with {cards} cards")
    # the edges of each choice were met: 11 buys, 12 and 14 twist, 15 sticks, the
    # banker on 16 and 17
    assert {"buy 11", "twist 12 with 2 cards", "twist 14 with 2 cards"} <= seen
    assert {"stick 15 with 2 cards", "stick 15 with 3 cards"} <= seen
    assert {"banker 16", "banker 17"} <= seen


@pytest.mark.rule("P-BUY-3")
@pytest.mark.rule("P-FIVE-1")
@pytest.mark.rule("P-BUST-1")
def test_the_bench_s_strategy_at_its_edges_on_a_stacked_pack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One bench round on a stacked pack (b, c, d play; a banks): b buys on 5 and 7 and
    twists on 11 with four cards (though a fifth may be bought, P-BUY-3) into a five
    card trick of 21; c buys on 11 and sticks on 15; d twists on 12 and busts; the
    banker draws on 16 and stays on 17."""
    seats = ["a", "b", "c", "d"]
    top = ["2S", "5S", "KD", "KH", "3S", "6S", "2C", "6H", "2H", "4H", "KS", "4D", "QC", "AC"]
    table = Table(PontoonRules(), seats, {s: 1000 for s in seats}, banker="a", pack=_pack(top))
    chance = RandomChance(random.Random(0))
    table.apply(Action("a", K.DEAL), chance)
    moves: list[tuple[str, ActionKind]] = []
    apply = Table.apply

    def noting(self: Table, action: Action, chance: Any = None) -> Any:
        moves.append((action.seat, action.kind))
        return apply(self, action, chance)

    monkeypatch.setattr(Table, "apply", noting)
    assert play_bench_rounds(table, chance, 1, random.Random(0)) == 0
    played = [m for m in moves if m[1] is not K.BET]
    assert played == [
        ("b", K.BUY),
        ("b", K.BUY),
        ("b", K.TWIST),
        ("c", K.BUY),
        ("c", K.STICK),
        ("d", K.TWIST),
        ("a", K.TWIST),
        ("a", K.STICK),
    ]
    assert table.phase is Phase.ROUND_OVER
    totals = {r["seat"]: (r["score"], len(r["cards"])) for r in table.results}
    assert totals["c"] == (15, 3)
