"""Rounds won, lost and pushed per game for /stats: each settled round
or coup writes one ``round_results`` row per member (migration 010), in the transaction
that settles it, from the engine's ``returns()`` (the one game interface, engine/game.py).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host import settled_returns
from bot.pontoon import PontoonService, PontoonTimers
from bot.storage import Store, member_account
from cogs.stats import stats_caption
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ESCROW, ActionKind, Phase, Transfer
from tests.bot.test_punto_banco_service import (
    ALICE,
    BOB,
    CAROL,
    SEED_BANCO,
    SEED_TIE,
    make_service,
    open_table,
)
from tests.bot.test_punto_banco_service import G as G_PB
from tests.waiting import eventually

G, CH = 1, 10
ANN, BEN = 100, 200


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


async def result_rows(store: Store) -> list[tuple[str, str, int]]:
    def read(con: object) -> list[tuple[str, str, int]]:
        cur = con.execute(  # type: ignore[attr-defined]
            "SELECT table_id, account, net FROM round_results ORDER BY id"
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in cur.fetchall()]

    return await store._read(read)


async def test_save_table_writes_one_row_per_member_and_skips_the_house(store: Store) -> None:
    await store.ensure_member(G, ANN, 100)
    await store.save_table(
        "t1", G, CH, "pontoon", "{}", 1, None, [Transfer(str(ANN), ESCROW, 5, "bet")]
    )
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        "{}",
        2,
        None,
        [Transfer(ESCROW, str(ANN), 5, "stake back")],
        results={str(ANN): 0, "@house": 0},
    )
    assert await result_rows(store) == [("t1", member_account(G, ANN), 0)]
    with pytest.raises(ValueError):  # a result that is not a whole number writes nothing
        await store.save_table("t1", G, CH, "pontoon", "{}", 3, None, [], results={str(ANN): 1.5})  # type: ignore[dict-item]
    assert len(await result_rows(store)) == 1
    record = await store.get_table("t1")
    assert record is not None and record.version == 2


def test_settled_returns_only_when_the_round_ends() -> None:
    class State:
        def __init__(self, terminal: bool) -> None:
            self.terminal = terminal

        def is_terminal(self) -> bool:
            return self.terminal

        def returns(self) -> dict[str, int]:
            return {"1": 4, "2": -4}

    assert settled_returns(State(True), was_terminal=False) == {"1": 4, "2": -4}
    assert settled_returns(State(True), was_terminal=True) is None  # a join between rounds
    assert settled_returns(State(False), was_terminal=False) is None  # mid-round


@pytest.mark.rule("P-PAY-1")
async def test_a_pontoon_round_records_each_members_net_and_they_add_up(store: Store) -> None:
    """Play rounds through the service (the turn timer plays the hands): every settled
    round writes one row per member whose nets are the engine's returns; player and
    banker nets of a round cancel out (no house, no kitty: chips only change hands)."""
    svc = PontoonService(
        store, chance=RandomChance(random.Random(5)), timers=PontoonTimers(600, 0.05, 600)
    )
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    await svc.act(live.table_id, BEN, ActionKind.JOIN)
    for n in range(3):
        await svc.deal(live.table_id, int(live.engine.banker or ANN) if n else ANN)
        player = next(s for s in live.engine.seats if s != live.engine.banker)
        await svc.act(live.table_id, int(player), ActionKind.BET, amount=2)
        await eventually(lambda: live.engine.phase is Phase.WAITING, timeout=10, what="round over")
        rows = await result_rows(store)
        assert len(rows) == 2 * (n + 1), rows
        last = rows[-2:]
        assert {acc for _, acc, _ in last} == {member_account(G, ANN), member_account(G, BEN)}
        assert sum(net for *_, net in last) == 0
    history = await store.chip_history(member_account(G, ANN))
    (pontoon,) = history.rounds
    assert pontoon.game == "pontoon" and pontoon.won + pontoon.lost + pontoon.pushed == 3
    ann_nets = [net for _, acc, net in await result_rows(store) if acc == member_account(G, ANN)]
    assert pontoon.won == sum(1 for v in ann_nets if v > 0)
    assert pontoon.lost == sum(1 for v in ann_nets if v < 0)
    # joining, leaving or a deal between rounds writes no result
    before = len(await result_rows(store))
    leaver = next(s for s in live.engine.seats if s != live.engine.next_banker)
    await svc.act(live.table_id, int(leaver), ActionKind.LEAVE)
    assert len(await result_rows(store)) == before
    await svc.shutdown()


@pytest.mark.rule("B-WIN-1")
async def test_a_punto_banco_coup_records_each_bettors_net(store: Store) -> None:
    service = make_service(store, SEED_BANCO)
    live = await open_table(service)
    await service.bet(live.table_id, ALICE, "banco", 10)
    await service.bet(live.table_id, BOB, "punto", 15)
    result = await service.close_window(live.table_id)
    assert result is not None
    rows = await result_rows(store)
    assert {(acc, net) for _, acc, net in rows} == {
        (member_account(G_PB, ALICE), 9),
        (member_account(G_PB, BOB), -15),
    }
    await service.shutdown()


@pytest.mark.rule("B-TIE-1")
async def test_an_egalite_is_a_push_in_the_stats(store: Store) -> None:
    service = make_service(store, SEED_TIE)
    live = await open_table(service)
    await service.bet(live.table_id, CAROL, "punto", 30)
    assert await service.close_window(live.table_id) is not None
    history = await store.chip_history(member_account(G_PB, CAROL))
    assert [(r.game, r.won, r.lost, r.pushed) for r in history.rounds] == [("punto_banco", 0, 0, 1)]
    caption = stats_caption("de", "carol", history, 1000)
    assert "Punto Banco-Runden – gewonnen: 0, verloren: 0, unentschieden: 1" in caption
    await service.shutdown()


async def test_rounds_before_a_data_erasure_are_not_counted(store: Store) -> None:
    """/privacy delete: a member who comes back starts afresh, their rounds too."""
    acc = member_account(G, ANN)
    await store.ensure_member(G, ANN, 100)
    await store.save_table("t1", G, CH, "pontoon", "{}", 1, None, [], results={str(ANN): 3})
    assert [r.won for r in (await store.chip_history(acc)).rounds] == [1]
    await store.close_table("t1")
    await store.forget_member(ANN, G)
    assert (await store.chip_history(acc)).rounds == []
    assert [r for r in await result_rows(store) if str(ANN) in r[1]] == []  # nothing names them
