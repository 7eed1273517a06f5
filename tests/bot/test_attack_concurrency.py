"""Attacks on concurrency, replayed with other parameters, on both storage backends:

* one roaming member joins THREE Pontoon tables and bets at a Punto Banco table at the
  same moment, while a banker's buyer accepts a bank sale and also tries to join and bet
  elsewhere: exactly one of the roamer's moves wins, the sale goes through, every other
  move is refused, and each member has chips in play at one table at most;
* the same member double-submits the Bet form and then the Buy form concurrently:
  one stake each, never two;
* the audit passes after a bank sale and after a Shoot (P-SHOOT) kitty round.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.audit import audit
from bot.errors import friendly
from bot.i18n import Msg
from bot.pontoon import OpenPontoonTable, PontoonService
from bot.storage import Store, escrow_account
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from engine.punto_banco import PuntoBancoRules, Side
from tests.bot.test_chips_in_play import in_play_rows, services

G = 1
HOSTS = (100, 200, 300)
SELLER_SIDE, OTHER, ROAMER, PB_HOST = 400, 500, 600, 700


async def play_round_out(
    svc: PontoonService, live: OpenPontoonTable, bet: int = 2, dealer: int | None = None
) -> None:
    """Deal (as ``dealer``, by default the banker or the first seat) and play one round
    to its end (bets, then each seat's timeout move)."""
    await svc.deal(live.table_id, dealer or int(live.engine.banker or live.engine.seats[0]))
    for _ in range(200):
        eng = live.engine
        if eng.phase is Phase.KITTY:
            low = eng.legal_actions(eng.to_act()[0])[0].min_amount
            await svc.act(live.table_id, int(eng.to_act()[0]), ActionKind.KITTY, amount=low)
            continue
        if eng.phase is Phase.BETTING:
            await svc.act(live.table_id, int(eng.to_act()[0]), ActionKind.BET, amount=bet)
            continue
        if eng.phase is Phase.WAITING or not eng.to_act():
            return
        seat = eng.to_act()[0]
        action = eng.timeout_action(seat)
        assert action is not None, eng.phase
        await svc.act(live.table_id, int(seat), action.kind, amount=action.amount)
    raise AssertionError("the round did not end")


async def chips_total(store: Store, members: list[int], tables: list[str]) -> int:
    return sum([await store.member_balance(G, m) for m in members]) + sum(
        [await store.balance(escrow_account(t)) for t in tables]
    )


@pytest.mark.parametrize("wired", [True, False], ids=["wired", "db-only"])
async def test_joins_at_three_tables_a_pb_bet_and_a_bank_sale_at_once(
    store: Store, wired: bool
) -> None:
    pontoon, bacc = services(store, wired=wired)
    t1, t2, t3 = [
        await pontoon.open_table(G, 10 + i, h, PontoonRules()) for i, h in enumerate(HOSTS)
    ]
    b1 = await bacc.open_table(G, 20, PB_HOST, PuntoBancoRules())
    sale = await pontoon.open_table(G, 30, SELLER_SIDE, PontoonRules())
    await pontoon.act(sale.table_id, OTHER, ActionKind.JOIN)
    await play_round_out(pontoon, sale)
    seller = int(sale.engine.banker or 0)
    buyer = OTHER if seller == SELLER_SIDE else SELLER_SIDE
    await pontoon.offer_bank(sale.table_id, seller, buyer, 5)
    await store.ensure_member(G, ROAMER)
    members = [*HOSTS, SELLER_SIDE, OTHER, ROAMER, PB_HOST]
    tables = [t.table_id for t in (t1, t2, t3, b1, sale)]
    before = await chips_total(store, members, tables)

    moves: list[tuple[str, Any]] = [
        ("roamer", pontoon.act(t1.table_id, ROAMER, ActionKind.JOIN)),
        ("roamer", pontoon.act(t2.table_id, ROAMER, ActionKind.JOIN)),
        ("roamer", pontoon.act(t3.table_id, ROAMER, ActionKind.JOIN)),
        ("roamer", bacc.bet(b1.table_id, ROAMER, Side.BANCO, 40)),
        ("accept", pontoon.accept_bank(sale.table_id, buyer)),
        ("buyer", pontoon.act(t1.table_id, buyer, ActionKind.JOIN)),
        ("buyer", bacc.bet(b1.table_id, buyer, Side.PUNTO, 30)),
        ("seller", pontoon.act(t3.table_id, seller, ActionKind.JOIN)),
    ]
    results = await asyncio.gather(*(m for _, m in moves), return_exceptions=True)
    outcome = {
        who: [r for (w, _), r in zip(moves, results, strict=True) if w == who] for who, _ in moves
    }
    roamer_wins = [r for r in outcome["roamer"] if not isinstance(r, BaseException)]
    assert len(roamer_wins) == 1, outcome["roamer"]
    for refused in [*outcome["buyer"], *outcome["seller"]] + [
        r for r in outcome["roamer"] if isinstance(r, BaseException)
    ]:
        assert isinstance(refused, BaseException), refused
        said = friendly(refused)
        # the ledger's refusal, or the table's, which names where the chips are
        assert "another table" in said or "already playing at the table in <#" in said, refused
    assert not isinstance(outcome["accept"][0], BaseException), outcome["accept"]
    assert sale.engine.banker == str(buyer)

    rows = await in_play_rows(store)
    per_member: dict[int, set[str]] = {}
    for _, user, table in rows:
        per_member.setdefault(user, set()).add(table)
    assert all(len(t) == 1 for t in per_member.values()), rows
    assert per_member[buyer] == per_member[seller] == {sale.table_id}
    assert len(per_member[ROAMER]) == 1
    seated_at = [t.table_id for t in (t1, t2, t3) if str(ROAMER) in t.engine.seats]
    seated_at += [b1.table_id] if b1.engine.bets_of(str(ROAMER)) else []
    assert seated_at == list(per_member[ROAMER])
    assert await chips_total(store, members, tables) == before
    report = await audit(store)  # after a bank sale
    assert report.ok, report.summary()
    for t in (t1, t2, t3, sale):
        await pontoon.close(t.table_id, Msg("reason.ended_by", name="alice"))
    await bacc.close(b1.table_id, Msg("reason.ended_by", name="alice"))
    assert await in_play_rows(store) == []
    assert await chips_total(store, members, tables) == before
    report = await audit(store)
    assert report.ok, report.summary()
    await pontoon.shutdown()
    await bacc.shutdown()


async def test_double_submitted_bet_and_buy_forms_stake_once(store: Store) -> None:
    pontoon, _ = services(store)
    live = await pontoon.open_table(G, 10, HOSTS[0], PontoonRules(max_bet=50))
    await pontoon.act(live.table_id, OTHER, ActionKind.JOIN)
    await pontoon.deal(live.table_id, HOSTS[0])
    player = int(next(s for s in live.engine.seats if s != live.engine.banker))
    version = live.engine.version
    results = await asyncio.gather(
        *(
            pontoon.act(live.table_id, player, ActionKind.BET, amount=a, version=version)
            for a in (20, 20, 30)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1, results
    stake = await store.balance(escrow_account(live.table_id))
    assert stake in (20, 30)
    assert await store.member_balance(G, player) == 1000 - stake
    if live.engine.phase is Phase.PLAYING and live.engine.to_act() == [str(player)]:
        legal = {a.kind: a for a in live.engine.legal_actions(str(player))}
        if ActionKind.BUY in legal:
            buy = legal[ActionKind.BUY]
            amount = buy.min_amount or 1
            version = live.engine.version
            results = await asyncio.gather(
                *(
                    pontoon.act(
                        live.table_id, player, ActionKind.BUY, amount=amount, version=version
                    )
                    for _ in range(3)
                ),
                return_exceptions=True,
            )
            assert sum(not isinstance(r, BaseException) for r in results) == 1, results
            assert await store.balance(escrow_account(live.table_id)) == stake + amount
    report = await audit(store)
    assert report.ok, report.summary()
    await pontoon.close(live.table_id, Msg("reason.ended_by", name="alice"))
    assert await store.member_balance(G, player) == 1000
    await pontoon.shutdown()


async def test_audit_after_a_shoot_kitty_round(store: Store) -> None:
    pontoon, _ = services(store)
    rules = PontoonRules(shoot=True, kitty_min=10, kitty_max=60)
    live = await pontoon.open_table(G, 10, HOSTS[0], rules)
    for uid in (HOSTS[1], HOSTS[2]):
        await pontoon.act(live.table_id, uid, ActionKind.JOIN)
    for _ in range(2):
        await play_round_out(pontoon, live, bet=5)
        report = await audit(store)
        assert report.ok, report.summary()
    await pontoon.close(live.table_id, Msg("reason.ended_by", name="alice"))
    report = await audit(store)
    assert report.ok, report.summary()
    total = sum([await store.member_balance(G, u) for u in HOSTS])
    assert total == 3000
    await pontoon.shutdown()
