"""End-to-end Blackjack through the fake Discord: the real bot process (``python -m
bot``), real discord.py, members clicking Join, Bet (a form), Hit and Stand and using
/blackjack; the assertions are on what members see. The round is predicted by the engine
with the bot's seeded shuffle, so the test knows every card before it is dealt."""

from __future__ import annotations

import asyncio
import random
import re
import signal
from pathlib import Path

import pytest

from engine.blackjack import (
    DEALER,
    Action,
    ActionKind,
    BlackjackRules,
    BlackjackTable,
    Phase,
    hand_total,
)
from engine.cards import Card, RandomChance, parse_card
from localdiscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e
K = ActionKind
RULES = BlackjackRules(max_bet=5000)


def predicted(seed: int, alice: str, bob: str) -> BlackjackTable:
    """The bot's first round with ``seed``: alice and bob sit and bet 10 and 20; each
    stands."""
    t = BlackjackTable(RULES)
    luck = RandomChance(random.Random(seed))
    for seat in (alice, bob):
        t.apply(Action(seat, K.JOIN))
    t.apply(Action(alice, K.BET, 10))
    t.apply(Action(bob, K.BET, 20))
    t.apply(Action(DEALER, K.DEAL), luck)
    return t


def _simple(t: BlackjackTable, alice: str) -> bool:
    """A first round where alice plays first, nobody is asked for insurance, the dealer
    has no blackjack and the hole card's face is not among the cards shown."""
    if t.phase is not Phase.PLAYING or t.to_act() != [alice]:
        return False
    shown = [c for b in t.boxes.values() for h in b.hands for c in h.cards] + t.dealer[:1]
    return t.dealer[0].value not in (1, 10) and t.dealer[1] not in shown


def find_seed(alice: str, bob: str) -> int:
    return next(s for s in range(500) if _simple(predicted(s, alice, bob), alice))


class Blackjack(Table):
    def message(self) -> FakeMessage:
        """The table message: the newest public message headed "Blackjack · round"."""
        tables = [m for m in self.public() if "Blackjack · round" in m.text]
        assert tables, "no table message"
        return tables[-1]

    async def bj(
        self, member: FakeMember, sub: str, options: dict[str, object] | None = None
    ) -> str:
        r = await self.slash(member, sub, options, command="blackjack")
        return r.all_text

    def public(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if not m.ephemeral]

    async def balance_of(self, member: FakeMember) -> int:
        r = await self.fake.slash(member, self.world.channel, "balance")
        await self.answered(r)
        found = re.search(r"\*\*([\d,]+)\*\* chips", r.all_text)
        assert found, r.all_text
        return int(found.group(1).replace(",", ""))


def pretty(cards: list[Card]) -> list[str]:
    return [c.pretty for c in cards]


async def test_a_round_of_blackjack_from_join_to_the_result_post(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    alice, bob = str(world.alice.id), str(world.bob.id)
    seed = find_seed(alice, bob)
    expect = predicted(seed, alice, bob)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    t = Blackjack(fake_discord, world)
    text = await t.bj(world.alice, "start", {"max_bet": 5000, "betting_seconds": 600})
    assert "Blackjack table open" in text, text
    opened = fake_discord.latest_message_with_button(world.channel, "Join")
    assert "House edge of this table's rules" in opened.text and "0.40%" in opened.text

    # Join and Bet answer with the new table in the click's own response: one request
    sent = len(fake_discord.requests)
    r = await fake_discord.click(world.alice, opened, label="Join")
    await t.answered(r)
    assert r.callback_type == 7 and "alice: no bet yet" in r.all_text, r.all_text
    assert len(fake_discord.requests) - sent == 1
    await t.click(world.bob, "Join")
    assert "Seats (2/7)" in t.message().text
    # bad input: a bet above the balance and a move before the deal change nothing
    refused = await t.bj(world.bob, "bet", {"amount": 2000})
    assert "only 1,000 chips" in refused, refused
    refused = await t.bj(world.bob, "hit")
    assert "No hand is being played now" in refused, refused
    r = await t.form(world.alice, "Bet", "10")
    assert r.callback_type == 7 and "alice: bet 10" in r.all_text, r.all_text
    assert {"Join", "Leave", "Bet"} <= t.enabled() and "Hit" not in t.enabled()
    # every seated member has bet: the round is dealt at once
    r = await t.form(world.bob, "Bet", "20")
    assert r.callback_type == 7, r.all_text
    table = t.message().text
    up, hole = expect.dealer
    assert up.pretty in table and hole.pretty not in table  # the hole card stays hidden
    assert "🂠" in table or "back" in table
    for box in expect.boxes.values():
        for card in box.hands[0].cards:
            assert card.pretty in table
    assert {"Hit", "Stand", "Double"} <= t.enabled() and "Join" not in t.enabled()
    assert "Insurance" not in t.enabled()
    # not bob's turn: a private refusal, nothing changes
    r = await t.click(world.bob, "Hit")
    assert "It is not your turn" in t.last_ephemeral(world.bob), t.last_ephemeral(world.bob)
    # the Hint: alice's figures, privately, never the hole card; bob is told it is not
    # his turn; the table does not change
    drawn = t.message().text
    r = await t.click(world.alice, "Hint")
    hinted = r.all_text
    assert r.ephemeral and hinted.startswith("💡 **Hint** for your hand"), hinted
    assert "Stand" in hinted and "per chip staked" in hinted and "BJ-" not in hinted
    assert hole.pretty not in hinted
    assert await t.bj(world.alice, "hint") == hinted
    r = await t.click(world.bob, "Hint")
    assert r.ephemeral and "when it is your turn" in r.all_text, r.all_text
    assert t.message().text == drawn
    sent = len(fake_discord.requests)
    r = await t.click(world.alice, "Stand")
    assert r.callback_type == 7 and len(fake_discord.requests) - sent == 1
    await t.click(world.bob, "Stand")
    await fake_discord.wait_until(
        lambda: any(m.text.startswith("**Round 1**") for m in t.public()), timeout=20
    )
    await t.quiet()

    # the engine, given the same seed and moves, says how the round ends
    expect.apply(Action(alice, K.STAND), RandomChance(random.Random(0)))
    expect.apply(Action(bob, K.STAND), RandomChance(random.Random(0)))
    result = expect.last_result
    assert result is not None
    post = next(m for m in t.public() if m.text.startswith("**Round 1**"))
    dealer_cards = [c for c in result.dealer]
    for code in dealer_cards:
        assert parse_card(code).pretty in post.text, post.text
    nets = result.net_by_seat()
    for seat, name in ((alice, "alice"), (bob, "bob")):
        net = nets[seat]
        shown = f"+{net}" if net > 0 else ("±0" if net == 0 else f"−{-net}")
        assert f"{name}: {shown} this round" in post.text, post.text
        assert f"(now {1000 + net:,})" in post.text
    total = hand_total([parse_card(c) for c in result.dealer])[0]
    assert str(total) in post.text
    # the table is ready for the next round: Same bet is offered
    assert {"Bet", "Same bet", "Join"} <= t.enabled()
    # /blackjack table: the table comes back below and the old copy is retired (no
    # buttons, no stale "Bets are open"), play review P5
    before = t.message().id
    assert "posted again below" in await t.bj(world.bob, "table")
    assert t.message().id != before and {"Bet", "Same bet"} <= t.enabled()
    retired = fake_discord.message(before)
    assert retired.buttons() == [] and "moved below" in retired.text
    assert "Blackjack · round" not in retired.text
    text = await t.bj(world.bob, "odds", {"chart": True})
    assert "0.40%" in text and "H hit" in text
    odds_msg = t.fake.ephemerals(world.bob)[-1]
    assert any(str(a.get("filename")) == "strategy.png" for a in odds_msg.attachments)
    # /end by alice returns what is on the table (a bet for round 2)
    await t.click(world.bob, "Same bet")
    assert "only the table's opener" in (await t.bj(world.bob, "end")).lower()
    text = await t.bj(world.alice, "end")
    assert "20 chips went back" in text, text
    assert any("The Blackjack table is closed" in m.text for m in t.public())
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_round_resumes_after_a_restart(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    alice, bob = str(world.alice.id), str(world.bob.id)
    seed = find_seed(alice, bob)
    expect = predicted(seed, alice, bob)
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    t = Blackjack(fake_discord, world)
    await t.bj(world.alice, "start", {"max_bet": 5000, "betting_seconds": 600})
    await t.bj(world.alice, "join")
    await t.bj(world.bob, "join")
    await t.form(world.alice, "Bet", "10")
    await t.form(world.bob, "Bet", "20")  # dealt: alice to play
    assert "Hit" in t.enabled()
    deadline = re.findall(r"<t:(\d+):R>", t.message().text)
    assert len(deadline) == 1
    await asyncio.sleep(0.2)  # killed right after the deal, maybe before the message was confirmed
    bot.proc.send_signal(signal.SIGKILL)
    await bot.stop()
    await asyncio.sleep(2)

    await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    await t.quiet()
    table = t.message().text
    # the turn's deadline is the one the message showed before (play review P2)
    assert re.findall(r"<t:(\d+):R>", table) == deadline, table
    up, hole = expect.dealer
    assert up.pretty in table and hole.pretty not in table
    assert await t.balance_of(world.bob) == 980  # the bet is still on the table
    await t.click(world.alice, "Stand")
    await t.click(world.bob, "Stand")
    await fake_discord.wait_until(
        lambda: any(m.text.startswith("**Round 1**") for m in t.public()), timeout=20
    )
    post = next(m for m in t.public() if m.text.startswith("**Round 1**"))
    assert hole.pretty in post.text
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
