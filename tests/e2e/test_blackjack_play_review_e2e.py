"""What the Blackjack play review of 2026-11-28 found, through the real bot and the fake
Discord, read as the members read it: the table message names no internal table id; a
refused move ends in a full stop and says nothing changed (and a one-chip minimum is
"1 chip"); a bust hand's total is said once; the table of the next round does not repeat
the last round's notes (they are in its result post)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.blackjack import Action, ActionKind, BlackjackTable, HandOutcome
from engine.cards import RandomChance
from localdiscord import FakeDiscord
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import start
from tests.e2e.test_blackjack_e2e import Blackjack, _simple, predicted

pytestmark = pytest.mark.e2e
K = ActionKind


def _alice_busts_on_a_hit(t: BlackjackTable, alice: str) -> bool:
    if not _simple(t, alice):
        return False
    after = BlackjackTable.from_json(t.to_json())
    after.apply(Action(alice, K.HIT), RandomChance(random.Random(0)))
    return after.boxes[alice].hands[0].outcome is HandOutcome.BUST


@pytest.mark.rule("BJ-HIT-1")
async def test_the_table_and_its_refusals_read_as_a_player_expects(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    alice, bob = str(world.alice.id), str(world.bob.id)
    seed = next(s for s in range(2000) if _alice_busts_on_a_hit(predicted(s, alice, bob), alice))
    expect = predicted(seed, alice, bob)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    t = Blackjack(fake_discord, world)
    await t.bj(world.alice, "start", {"max_bet": 5000, "betting_seconds": 600})
    opened = fake_discord.latest_message_with_button(world.channel, "Join")
    table_id = t.custom_id("Join", opened).split(":")[1]
    await t.click(world.alice, "Join", opened)
    await t.click(world.bob, "Join")

    refused = await t.form(world.bob, "Bet", "0")
    assert refused.all_text == "The smallest bet at this table is 1 chip. Nothing was changed."
    await t.form(world.alice, "Bet", "10")
    await t.form(world.bob, "Bet", "20")  # dealt
    await t.click(world.bob, "Hit")
    assert t.last_ephemeral(world.bob) == "It is not your turn. Nothing was changed."

    await t.click(world.alice, "Hit")
    expect.apply(Action(alice, K.HIT), RandomChance(random.Random(0)))
    busted = expect.boxes[alice].hands[0].total
    table = t.message().text
    assert f"→ {busted} · bet 10 · bust" in table and "bust (" not in table, table
    await t.click(world.bob, "Stand")
    await fake_discord.wait_until(
        lambda: any(m.text.startswith("**Round 1**") for m in t.public()), timeout=20
    )
    await t.quiet()
    post = next(m for m in t.public() if m.text.startswith("**Round 1**")).text
    assert f"({busted}) — bust −10" in post and "bust (" not in post, post
    assert "shuffled before this round" in post  # the round's note, in its result post
    after = t.message().text  # round 2's betting: not the last round's note again
    assert "round 2" in after and "shuffled" not in after, after

    seen = [v.text for m in fake_discord.visible_to(world.bob) for v in m.history]
    assert seen and not [text for text in seen if table_id in text]
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
