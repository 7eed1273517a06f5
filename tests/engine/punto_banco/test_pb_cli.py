"""`python -m engine odds|simulate|bench|replay` for Punto Banco (engine/punto_banco/cli.py),
through main() in this process: the options' ranges and defaults (B-TABLE-2, B-WIN-1,
B-TIE-1), the bench's counts, and the replay's checks of a malformed file and of a
bettor's chips (B-BET-1). engine/punto_banco/API.md "CLI" and "Replay files"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.__main__ import build_parser, main
from engine.errors import ConfigError
from engine.punto_banco import ActionKind, PuntoBancoTable
from engine.punto_banco import cli as pb_cli
from engine.punto_banco.cli import bench, replay_doc


class _Clock:
    """A clock for ``time.perf_counter`` that moves 0.0123456 s on every reading."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        now = self.now
        self.now += 0.0123456
        return now


def _odds(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["odds", "punto-banco", *argv]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.rule("B-WIN-1")
@pytest.mark.rule("B-TIE-1")
def test_the_odds_command_s_defaults_are_the_table_s(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without options: one pack (B-TABLE-2), the seed's tableau, 5% commission (B-WIN-1),
    Egalité 8:1 (B-TIE-1); the time it took, to 4 places."""
    monkeypatch.setattr(pb_cli, "time", _Clock())
    doc = _odds(capsys)
    assert (doc["packs"], doc["tableau"]) == (1, "seed")
    assert (doc["banco_commission_pct"], doc["tie_pays"]) == (5, 8)
    assert doc["seconds"] == 0.0123  # one step of the clock below


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize("packs", [1, 8])
def test_B_TABLE_2_odds_for_one_to_eight_packs(
    packs: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """B-TABLE-2: `--packs` takes 1 to 8, both ends included."""
    assert _odds(capsys, "--packs", str(packs))["packs"] == packs


@pytest.mark.rule("B-TABLE-2")
@pytest.mark.parametrize("packs", ["0", "9"])
def test_B_TABLE_2_odds_for_no_pack_or_nine_are_a_usage_error(
    packs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """B-TABLE-2: a shoe of 0 or 9 packs is a usage error naming the range."""
    with pytest.raises(SystemExit) as exited:
        main(["odds", "punto-banco", "--packs", packs])
    assert exited.value.code == 2
    assert "between 1 and 8" in capsys.readouterr().err


def test_the_simulation_s_defaults() -> None:
    """`simulate punto-banco` deals 100,000 coups from seed 0 unless told."""
    args = build_parser().parse_args(["simulate", "punto-banco"])
    assert (args.coups, args.seed, args.packs) == (100_000, 0, 1)


def test_the_bench_counts_the_coups_it_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bench`: three BETs and a DEAL per coup through `apply`; the coups it reports are
    the coups dealt, and coups per second is their number over the time it took."""
    kinds: list[ActionKind] = []
    apply = PuntoBancoTable.apply

    def counting(self: PuntoBancoTable, action: Any, chance: Any = None) -> Any:
        kinds.append(action.kind)
        return apply(self, action, chance)

    monkeypatch.setattr(PuntoBancoTable, "apply", counting)
    monkeypatch.setattr(pb_cli, "time", _Clock())
    doc = bench(0.05)
    deals = kinds.count(ActionKind.DEAL)
    # the clock is read once per batch of 100 coups: 5 readings reach 0.05 s
    assert doc["coups"] == deals == 500
    assert doc["bets_per_coup"] == kinds.count(ActionKind.BET) / deals == 3
    assert doc["seconds"] == 0.062  # 5 x 0.0123456 s, to 3 places
    assert doc["coups_per_second"] == 8100.1  # 500 / 0.061728, to 1 place
    assert doc["odds_enumeration_seconds"] == {"1": 0.0123, "8": 0.0123}  # to 4 places


# ------------------------------------------------------------------ replay files
def _replay(doc: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return replay_doc({"game": "punto_banco", **doc})


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"shoe": "7S"}, '"shoe" must be a list of cards'),
        ({"shoe": ["7S", 7]}, '"shoe" must be a list of cards'),
        ({"balances": ["ann", 100]}, '"balances" must map bettor ids'),
        ({"balances": {"ann": "lots"}}, '"balances" must map bettor ids'),
        ({"balances": {"ann": True}}, '"balances" must map bettor ids'),
        ({"actions": ["deal"]}, 'action 0: missing "act"'),
        ({"actions": [{"seat": "ann"}]}, 'action 0: missing "act"'),
        ({"actions": [{"act": "bet", "seat": "ann", "side": "both"}]}, '"side" must be one of'),
    ],
)
def test_a_malformed_replay_file_names_what_is_wrong(doc: dict[str, Any], message: str) -> None:
    """A malformed file is refused with one message naming what is wrong (status 1 from
    `python -m engine replay`), before anything is played."""
    with pytest.raises(ConfigError) as refused:
        _replay(doc)
    assert message in str(refused.value)


@pytest.mark.rule("B-BET-1")
def test_B_BET_1_a_bettor_without_chips_in_the_file_cannot_bet() -> None:
    """B-BET-1: a bet is checked against the bettor's chips; a bettor the file gives no
    balance has none, so even a bet of 1 chip stops the replay (status 2)."""
    code, out = _replay(
        {
            "balances": {"ann": 10},
            "actions": [{"seat": "cat", "act": "bet", "side": "punto", "amount": 1}],
        }
    )
    assert code == 2
    assert out["error"]["action"] == 0 and out["error"]["rule"] == "B-BET-1"
    assert out["balances"] == {"ann": 10}


@pytest.mark.rule("B-TABLE-2")
def test_B_TABLE_2_a_replay_without_a_seed_shuffles_as_seed_0() -> None:
    """B-TABLE-2: without a `shoe` the new shoe is shuffled before the first coup, by a
    shuffle seeded with `seed`, 0 when the file gives none."""
    deal = {"actions": [{"act": "deal"}]}
    _, unseeded = _replay(deal)
    _, zero = _replay({**deal, "seed": 0})
    _, one = _replay({**deal, "seed": 1})
    cards = [(c["punto"], c["banco"]) for c in unseeded["coups"]]
    assert cards == [(c["punto"], c["banco"]) for c in zero["coups"]]
    assert cards != [(c["punto"], c["banco"]) for c in one["coups"]]


@pytest.mark.rule("B-WIN-1")
def test_B_WIN_1_each_coup_of_a_replay_lists_the_bettors_balances_after_it() -> None:
    """B-WIN-1: after each coup the replay shows each bettor's chips, the house's net
    apart (the escrow and the house are no bettors)."""
    code, out = _replay(
        {
            "balances": {"ann": 100},
            # Punto 9 against Banco 0: Punto wins
            "shoe": ["9S", "KH", "QS", "JH"],
            "actions": [
                {"seat": "ann", "act": "bet", "side": "punto", "amount": 10},
                {"act": "deal"},
            ],
        }
    )
    assert code == 0
    (coup,) = out["coups"]
    assert coup["winner"] == "punto"
    assert coup["balances"] == {"ann": 110}
    assert coup["house"] == -10
