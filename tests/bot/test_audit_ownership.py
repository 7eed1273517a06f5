"""The audit sees who owns what, not only totals.

Tampering that keeps every total and every account's own ledger consistent - a payout
sent to the wrong member, a stake recorded as another member's - must still fail the
audit: every open table's stakes per seat are held against that member's escrow entries
in the ledger, and every seat's chips in the saved game against the member's ledger
balance.
"""

from __future__ import annotations

import random

from bot.audit import audit
from bot.i18n import Msg
from bot.pontoon import OpenPontoonTable, PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService, PuntoBancoTimers
from bot.storage import Store, escrow_account, member_account
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase
from engine.punto_banco import PuntoBancoRules, Side
from tests.storage_backends import raw_sql, tamper

G = 1
ANN, BOB, CAT, DAN = 100, 200, 300, 400


async def rewire(store: Store, transfer_id: int, end: str, account: str) -> None:
    """Record a transfer as going to (``end="dst"``) or coming from (``"src"``) another
    account, fixing up both cached balances so each account still agrees with its own
    ledger rows and the totals still add up."""
    assert end in ("src", "dst")
    old, amount = (
        await raw_sql(store, f"SELECT {end}, amount FROM transfers WHERE id = ?", transfer_id)
    )[0]
    sign = (
        1 if end == "src" else -1
    )  # the old source gets its chips back; the old target loses them
    await tamper(
        store,
        f"UPDATE transfers SET {end} = '{account}' WHERE id = {int(transfer_id)}",
        f"UPDATE accounts SET balance = balance + {sign * int(amount)} WHERE id = '{old}'",
        f"UPDATE accounts SET balance = balance - {sign * int(amount)} WHERE id = '{account}'",
    )


async def redirect(store: Store, transfer_id: int, new_dst: str) -> None:
    """Send a recorded transfer to another account."""
    await rewire(store, transfer_id, "dst", new_dst)


async def resource(store: Store, transfer_id: int, new_src: str) -> None:
    """Record a transfer as coming from another account."""
    await rewire(store, transfer_id, "src", new_src)


async def last_transfer(store: Store, where: str, params: tuple[object, ...]) -> int:
    found = await raw_sql(
        store, f"SELECT id FROM transfers WHERE {where} ORDER BY id DESC LIMIT 1", *params
    )
    assert found, where
    return int(found[0][0])


def dealer(live: OpenPontoonTable) -> int:
    banker = live.engine.banker
    return int(banker) if banker is not None and banker.isdigit() else ANN


async def play_a_round(svc: PontoonService, live: OpenPontoonTable) -> None:
    await svc.deal(live.table_id, dealer(live))
    for _ in range(200):
        eng = live.engine
        if eng.phase in (Phase.WAITING, Phase.ROUND_OVER):
            return
        seat = eng.to_act()[0]
        kinds = {la.kind: la for la in eng.legal_actions(seat)}
        for kind in (ActionKind.BET, ActionKind.NO_DOUBLE, ActionKind.DECLARE, ActionKind.STICK):
            if kind in kinds:
                amount = kinds[kind].min_amount if kind is ActionKind.BET else None
                await svc.act(live.table_id, int(seat), kind, amount=amount)
                break
        else:
            await svc.act(live.table_id, int(seat), ActionKind.TWIST)
    raise AssertionError("the round did not finish")


async def seated_table(store: Store) -> tuple[PontoonService, OpenPontoonTable]:
    svc = PontoonService(
        store, chance=RandomChance(random.Random(4)), timers=PontoonTimers(600, 600, 600)
    )
    live = await svc.open_table(G, 10, ANN, PontoonRules())
    for uid in (BOB, CAT):
        await svc.act(live.table_id, uid, ActionKind.JOIN)
    await store.ensure_member(G, DAN)  # a member of the server who is not at the table
    return svc, live


async def test_payout_sent_to_the_wrong_member_fails_the_audit(store: Store) -> None:
    svc, live = await seated_table(store)
    await play_a_round(svc, live)
    assert (await audit(store)).ok
    payout = await last_transfer(
        store, "dst LIKE 'member:%' AND src IS NOT NULL AND table_id = ?", (live.table_id,)
    )
    await redirect(store, payout, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    # the totals and each account's own rows still add up: only ownership is wrong
    assert all("stored balance" not in p and "granted" not in p for p in report.problems)
    assert any("ledger" in p and "seat" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_stake_recorded_as_another_members_fails_the_audit(store: Store) -> None:
    svc, live = await seated_table(store)
    await svc.deal(live.table_id, ANN)
    bettor = int(live.engine.to_act()[0])
    await svc.act(live.table_id, bettor, ActionKind.BET, amount=5)
    assert (await audit(store)).ok
    stake = await last_transfer(store, "dst = ?", (escrow_account(live.table_id),))
    await resource(store, stake, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    assert any(str(bettor) in p and "escrow" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_punto_banco_bet_owned_by_someone_else_fails_the_audit(store: Store) -> None:
    svc = PuntoBancoService(
        store,
        chance=RandomChance(random.Random(1)),
        timers=PuntoBancoTimers(betting_seconds=600),
        run_timers=False,
    )
    live = await svc.open_table(G, 20, ANN, PuntoBancoRules())
    await svc.bet(live.table_id, BOB, Side.PUNTO, 30)
    await svc.bet(live.table_id, CAT, Side.BANCO, 40)
    await store.ensure_member(G, DAN)
    assert (await audit(store)).ok
    bet = await last_transfer(store, "dst = ?", (escrow_account(live.table_id),))
    await resource(store, bet, member_account(G, DAN))
    report = await audit(store)
    assert not report.ok
    assert any(str(CAT) in p and "escrow" in p for p in report.problems), report.summary()
    await svc.shutdown()


async def test_honest_play_passes(store: Store) -> None:
    svc, live = await seated_table(store)
    for _ in range(3):
        await play_a_round(svc, live)
        assert (await audit(store)).ok
    await svc.deal(live.table_id, dealer(live))
    while live.engine.phase is Phase.BETTING and live.engine.to_act():
        await svc.act(live.table_id, int(live.engine.to_act()[0]), ActionKind.BET, amount=3)
    report = await audit(store)
    assert report.ok, report.summary()
    await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
    assert (await audit(store)).ok
    await svc.shutdown()


async def test_chips_in_play_rows_must_match_the_tables(store: Store) -> None:
    svc, live = await seated_table(store)
    assert (await audit(store)).ok
    await tamper(
        store,
        f"DELETE FROM chips_in_play WHERE user_id = {BOB}",
        "INSERT INTO chips_in_play (guild_id, user_id, table_id) "
        f"VALUES ({G}, {DAN}, '{live.table_id}')",
    )
    report = await audit(store)
    assert not report.ok
    text = report.summary()
    assert f"member {BOB} has chips in play there but no chips_in_play row" in text
    assert f"a chips_in_play row for member {DAN}" in text
    await svc.shutdown()
