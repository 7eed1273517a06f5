"""Clicks discord.py itself would drop: a button from an older rendering of the table (its
custom id is no longer on the message) or a forged custom id must still be answered,
privately, and change nothing. Found by scripts/fault_campaign.py."""

from __future__ import annotations

import asyncio

import pytest

from localdiscord import FakeDiscord, FakeMember, InteractionResult
from tests.e2e.conftest import SHARED, Shared
from tests.e2e.pontoon_driver import Table

pytestmark = pytest.mark.e2e


async def raw_click(
    fake: FakeDiscord, t: Table, member: FakeMember, custom_id: str
) -> InteractionResult:
    """A click carrying ``custom_id`` on the current table message, whatever it shows."""
    result = await fake._send_interaction(
        itype=3,
        kind="component",
        data={"custom_id": custom_id, "component_type": 2},
        user=member.user,
        channel=t.world.channel,
        message=t.message(),
        timeout=5.0,
        wait=True,
    )
    if result.callback_type == 6:  # deferred: the answer comes as a followup
        await result.wait_followups(1, 5)
    await t.quiet()
    return result


@SHARED
async def test_stale_and_forged_buttons_are_answered_privately(shared: Shared) -> None:
    fake_discord, world = shared.fake, shared.world
    t = Table(fake_discord, world)
    r = await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    assert "Table open" in r.all_text
    old_deal = t.custom_id("Deal")  # the Deal button of the table's first rendering
    await t.click(world.bob, "Join")
    current = t.custom_id("Deal")
    assert current != old_deal

    r = await raw_click(fake_discord, t, world.alice, old_deal)
    assert r.answered
    # refused in the interaction's own answer, privately (no empty ack first)
    assert r.callback_type == 4 and r.ephemeral
    assert "older state" in r.all_text
    assert t.custom_id("Deal") == current  # nothing dealt

    for forged in ("pt:garbage", "bk:nonsense", "pt:DEADBEEF:deal:1"):
        r = await raw_click(fake_discord, t, world.bob, forged)
        assert r.answered, forged
        assert "no longer active" in r.all_text, (forged, r.all_text)
        assert r.ephemeral
    assert t.custom_id("Deal") == current


@SHARED
async def test_two_members_submit_the_same_bet_form(shared: Shared) -> None:
    """Members at one table share the Bet form's custom id; every submit gets its answer
    (a live Modal object per custom id used to swallow or drop some of them)."""
    fake_discord, world = shared.fake, shared.world
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    await t.click(world.carol, "Join")
    await t.click(world.alice, "Deal")
    text = t.embed_text()
    players = [
        m for m in (world.alice, world.bob, world.carol) if f"Banker: **{m.user.name}" not in text
    ]
    assert len(players) == 2
    opened = [await fake_discord.click(p, t.message(), label="Bet") for p in players]
    assert all(r.modal is not None for r in opened)
    assert opened[0].modal and opened[1].modal
    assert opened[0].modal.custom_id == opened[1].modal.custom_id
    subs = await asyncio.gather(
        *(
            fake_discord.submit_modal(p, None, r.modal.custom_id, {"amount": "3"})
            for p, r in zip(players, opened, strict=True)
            if r.modal is not None
        )
    )
    await t.quiet()
    for sub in subs:
        assert sub.answered
        # answered with the table, or told it worked when the table was busy
        assert sub.callback_type == 7 or "Bet of 3 placed" in sub.all_text, sub.all_text


@SHARED
async def test_a_variation_the_table_does_not_play_is_refused_as_such(shared: Shared) -> None:
    """At a table without Shoot, banker doubles or burning, their commands say the table
    does not play them (not "not possible now", as if they would work later), privately,
    through the one error handler; nothing changes."""
    fake_discord, world = shared.fake, shared.world
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    before = t.embed_text()
    for sub, options, command, words in (
        ("double", {}, "pontoon", "does not double"),
        ("burn", {}, "pontoon", "no hand is burned"),
        ("shoot", {"amount": 5}, "pontoon", "does not play Shoot Pontoon"),
        ("kitty", {"amount": 5}, "bank", "does not play Shoot Pontoon"),
    ):
        r = await t.slash(world.bob, sub, options, command=command)
        assert r.ephemeral and words in r.all_text, (sub, r.all_text)
        assert "not possible now" not in r.all_text
    assert t.embed_text() == before
