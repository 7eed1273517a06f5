"""An attack replayed with other parameters: TWO packs and as many seats as they allow, house-banked or not, Shoot or not, and a random mix of bets, twists,
buys, splits and out-of-turn or out-of-range moves until the pack runs dry mid-round
(split and buy draw cards too). Every refused move changes nothing; chips are never
created or lost; the table always closes with every chip back to its owner.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.audit import audit
from bot.errors import ServiceError
from bot.i18n import Msg
from bot.pontoon import PontoonService, PontoonTimers
from bot.storage import Store, escrow_account
from bot.storage.accounts import house_account, kitty_account
from engine.cards import RandomChance
from engine.errors import EngineError
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind, Phase

G, CH = 1, 10
HOST = 100
EAGER = (ActionKind.SPLIT, ActionKind.BUY, ActionKind.TWIST)
# The attack plays the cards: the auction of the bank (P-SHOOT-8, engine actions) is
# tested on its own (tests/engine/test_game.py, tests/bot/test_pontoon_service.py);
# leaving it out keeps this attack's random walk the one that runs the pack dry.
AUCTION = (ActionKind.AUCTION, ActionKind.BID, ActionKind.END_AUCTION)
CARD_KINDS = [k for k in ActionKind if k not in AUCTION]


async def total_chips(store: Store, table_id: str, members: list[int]) -> int:
    held = [await store.member_balance(G, uid) for uid in members]
    held += [
        await store.balance(account)
        for account in (escrow_account(table_id), kitty_account(table_id), house_account(G))
    ]
    return sum(held)


@pytest.mark.parametrize(
    ("house_bank", "shoot", "seed"),
    [(False, False, 11), (True, False, 12), (False, True, 13)],
    ids=["player-bank", "house-bank", "shoot"],
)
async def test_two_packs_most_seats_random_moves_never_lose_a_chip(
    tmp_path: Path, house_bank: bool, shoot: bool, seed: int
) -> None:
    rng = random.Random(seed)
    store = await Store.open(tmp_path / "packs.sqlite3")
    svc = PontoonService(
        store, chance=RandomChance(random.Random(seed)), timers=PontoonTimers(600, 600, 600)
    )
    try:
        # the bot's own tables seat what a message shows (20 on two packs); this attack
        # goes to what the cards allow (52), so that the pack runs dry mid-round
        rules = PontoonRules(packs=2, house_bank=house_bank, shoot=shoot, max_bet=50, max_seats=52)
        live = await svc.open_table(G, CH, HOST, rules)
        members = [HOST]
        for uid in range(1000, 1100):  # until the engine refuses: the seat limit of 2 packs
            try:
                await svc.act(live.table_id, uid, ActionKind.JOIN)
            except (ServiceError, EngineError):
                break
            members.append(uid)
        assert len(members) >= 50, len(members)
        granted = await total_chips(store, live.table_id, members)
        refused = rounds = 0
        driest = 2 * 52
        for step in range(1500):
            engine = live.engine
            if engine.phase in (Phase.PLAYING, Phase.BANKER):
                driest = min(driest, len(engine.pack))
            rounds = engine.round_no
            to_act = [s for s in engine.to_act() if s.isdigit()]
            before = engine.to_json()
            try:
                if not to_act:  # between rounds: whoever may deal deals
                    dealer = engine.banker if engine.banker and engine.banker.isdigit() else None
                    await svc.deal(live.table_id, int(dealer or HOST))
                    continue
                seat = to_act[0]
                legal = [a for a in engine.legal_actions(seat) if a.kind not in AUCTION]
                if rng.random() < 0.15 or not legal:  # anything, by anyone
                    kind = rng.choice(CARD_KINDS)
                    who = int(rng.choice([seat, str(rng.choice(members))]))
                    amount = rng.choice([None, -1, 0, 1, 7, 10**9])
                    await svc.act(live.table_id, who, kind, amount=amount)
                    continue
                bet = [a for a in legal if a.kind is ActionKind.BET]
                eager = bet or [a for a in legal if a.kind in EAGER]
                pick = rng.choice(eager if eager and rng.random() < 0.9 else legal)
                amount = None
                if pick.min_amount is not None:
                    top = pick.max_amount if pick.max_amount is not None else pick.min_amount + 5
                    amount = rng.randint(pick.min_amount, max(pick.min_amount, top))
                shoot_amount = 0 if pick.shoot_max is not None else None
                await svc.act(
                    live.table_id, int(seat), pick.kind, amount=amount, shoot=shoot_amount
                )
            except (ServiceError, EngineError):
                refused += 1
                assert live.engine.to_json() == before, f"step {step}: a refusal changed the table"
            if step % 50 == 0:
                assert await total_chips(store, live.table_id, members) == granted, step
            if rounds >= 12:
                break
        assert rounds >= 3, (rounds, refused)
        # played hands go back under the pack, so the pack runs dry only while most seats
        # still hold cards: the attack is meant to get there
        assert driest <= 2, f"the pack never ran dry mid-round ({driest} cards left at least)"
        report = await audit(store)
        assert report.ok, report.summary()
        await svc.close(live.table_id, Msg("reason.ended_by", name="alice"))
        assert await store.balance(escrow_account(live.table_id)) == 0
        assert await total_chips(store, live.table_id, members) == granted
        report = await audit(store)
        assert report.ok, report.summary()
    finally:
        await svc.shutdown()
        await store.close()
