"""The tests' fourth game, High Card (tests/fourth_game/), registered without an edit of
a shared file and played end to end: the bot process is ``python -m bot`` with the game
registered first (``python -m tests.fourth_game.launch``); members open a table, join,
stake through the form and draw, through the router and the fake Discord. The
conversation watcher (tests/e2e/conftest.py) fails the test for any click answered
twice, late or never."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from engine.cards import RandomChance, parse_card
from engine.records import HOUSE
from localdiscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, bot_env
from tests.fourth_game.engine.highcard import Action, ActionKind, HighCardTable

pytestmark = pytest.mark.e2e

LAUNCH = [sys.executable, "-m", "tests.fourth_game.launch"]
SEED = 0  # with SHUFFLE_SEED=0 the first draw: alice's 40 lose, bob's 25 win


class HighCard(Table):
    def message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(self.world.channel, "Draw")

    async def hc(self, member: FakeMember, sub: str) -> str:
        r = await self.slash(member, sub, command="highcard")
        return r.all_text

    async def balance(self, member: FakeMember) -> int:
        r = await self.fake.slash(member, self.world.channel, "balance")
        await self.answered(r)
        found = re.search(r"\*\*([\d,]+)\*\* chips", r.all_text)
        assert found, r.all_text
        return int(found.group(1).replace(",", ""))


def expected_draw(stakes: dict[str, int]) -> HighCardTable:
    """The draw the bot makes with SHUFFLE_SEED=SEED: the same engine, the same chance."""
    table = HighCardTable()
    chance = RandomChance(random.Random(SEED))
    for seat, stake in stakes.items():
        table.apply(Action(seat, ActionKind.JOIN), chance)
        table.apply(Action(seat, ActionKind.BET, stake, 1000), chance)
    table.apply(Action(next(iter(stakes)), ActionKind.DRAW), chance)
    return table


async def test_a_high_card_round_through_the_bot(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    seats = {str(world.alice.id): 40, str(world.bob.id): 25}
    drawn = {d.seat: d for d in expected_draw(seats).last}
    assert sorted(d.net for d in drawn.values() if d.seat != HOUSE) == [-40, 25]
    await start_bot_process(LAUNCH, bot_env(db, SHUFFLE_SEED=str(SEED)), wait_commands=True)
    t = HighCard(fake_discord, world)
    alice, bob = world.alice, world.bob
    before = {m: await t.balance(m) for m in (alice, bob)}

    assert "High Card table open" in await t.hc(alice, "start")
    assert "High Card, round 1" in t.embed_text()
    assert t.enabled() == {"Join"}  # nobody to stake or draw yet

    r = await t.click(alice, "Join")
    assert r.callback_type == 7 and "alice: no stake yet" in r.all_text, r.all_text
    await t.click(bob, "Join")
    assert {"Join", "Bet"} <= t.enabled() and "Draw" not in t.enabled()

    # HC-BET both sides: a stake above the table's maximum is refused, nothing moves
    refused = await t.form(alice, "Bet", "5000")
    assert "Not done" in refused.all_text and "1 to 100 chips" in refused.all_text
    assert "alice: no stake yet" in t.embed_text()
    r = await t.form(alice, "Bet", "40")
    assert r.callback_type == 7 and "alice: stake 40" in r.all_text, r.all_text
    r = await t.form(bob, "Bet", "25")
    assert "bob: stake 25" in r.all_text and "Draw" in t.enabled()
    assert await t.balance(alice) == before[alice] - 40

    # HC-DRAW: only a member with a stake calls it; carol has none
    refused_click = await t.fake.click(world.carol, t.message(), label="Draw")
    await t.answered(refused_click)
    assert "Only a member with a stake" in refused_click.all_text

    await t.click(bob, "Draw")
    await fake_discord.wait_until(
        lambda: any(
            "Draw of round 1" in m.text for m in fake_discord.channel_messages(world.channel)
        ),
        timeout=10,
    )
    await t.quiet()
    post = next(
        m.text for m in fake_discord.channel_messages(world.channel) if "Draw of round 1" in m.text
    )
    assert f"House: {parse_card(drawn[HOUSE].card).pretty}" in post, post
    for member in (alice, bob):
        d = drawn[str(member.id)]
        word = "won" if d.net > 0 else "lost" if d.net < 0 else "back (a push)"
        assert f"{member.name}: {parse_card(d.card).pretty}" in post and word in post, post
        # chips conserved: each member's balance moved by exactly the draw's result
        assert await t.balance(member) == before[member] + d.net
    assert "High Card, round 2" in t.embed_text() and "Draw" not in t.enabled()

    assert "no stake was on it" in await t.hc(alice, "end")
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_the_launchers_sandbox_has_the_fourth_games_channel_and_commands(
    tmp_path: Path,
) -> None:
    """``python -m tests.fourth_game.launch sandbox``: the sandbox names a channel per
    game of the registry, High Card's among them, and starts its bot as it was started
    itself (High Card registered), so /highcard is there to type."""
    from tests.e2e.sandbox_browser import sandbox_process

    async with sandbox_process(tmp_path, module="tests.fourth_game.launch") as sb:
        view = await sb.view("Ann")
        assert "highcard" in {c["name"] for c in view["channels"]}
        assert "highcard" in {c["name"] for c in view["commands"]}
        assert await sb.stop() == 0, sb.output()
