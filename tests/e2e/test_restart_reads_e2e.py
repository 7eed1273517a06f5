"""A restart reads back only the table messages that may be stale: the store
remembers which table version each message was confirmed to show, so a clean restart
reads no table message, and a restart after a kill reads only the tables that changed
in the moments before it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from localdiscord import FakeDiscord, FakeMessage
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start
from tests.e2e.test_pontoon_e2e import open_table

# longer than cogs/table_message.py's CONFIRM_SECONDS, with room for a loaded machine
CONFIRMED_AFTER = 4.0


def reads_of(fake: FakeDiscord, msg: FakeMessage, method: str = "GET") -> int:
    """GET requests for this message so far (the restart's check reads it so); with
    ``method="PATCH"``, its edits."""
    return len(fake.requests_to(f"/channels/{msg.channel.id}/messages/{msg.id}", method))


async def test_clean_restart_reads_no_table_message(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.carol, "Join")  # the last change, answered on its click
    await t.quiet(grace=0.3)
    msg = t.message()
    assert await proc.stop(timeout=15) == 0
    before = reads_of(fake_discord, msg)
    edits_before = reads_of(fake_discord, msg, "PATCH")
    await start(start_bot_process, db)
    await t.quiet(grace=1.5)
    assert reads_of(fake_discord, msg) == before  # confirmed at the clean stop: not read
    # nor drawn again: it shows the table as it is, house edge included (the restart
    # works the edge out again, which is no reason to edit a message that shows it)
    await asyncio.sleep(1.5)
    assert reads_of(fake_discord, msg, "PATCH") == edits_before
    # the message is the table's: its buttons work as before
    await t.click(world.carol, "Leave")
    assert "carol" not in t.embed_text()
    t.assert_all_answered()


async def test_restart_after_a_kill_reads_only_the_tables_changed_just_before(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    quiet = Table(fake_discord, world)
    await open_table(quiet, players=(world.alice, world.bob))
    other = fake_discord.add_text_channel(world.guild, "second-table")
    dave = fake_discord.add_member(world.guild, "dave")
    busy = Table(fake_discord, World(world.guild, other, world.carol, dave, world.alice))
    await open_table(busy, players=(world.carol,))
    await quiet.quiet(grace=0.3)
    await asyncio.sleep(CONFIRMED_AFTER)  # both tables' messages confirmed by now
    await busy.click(dave, "Join")  # this change is the last thing before the kill
    proc.proc.kill()
    await proc.proc.wait()
    quiet_msg, busy_msg = quiet.message(), busy.message()
    quiet_before, busy_before = reads_of(fake_discord, quiet_msg), reads_of(fake_discord, busy_msg)
    await start(start_bot_process, db)
    await fake_discord.wait_until(
        lambda: reads_of(fake_discord, busy_msg) > busy_before, timeout=15
    )
    await quiet.quiet(grace=1.0)
    assert reads_of(fake_discord, quiet_msg) == quiet_before  # confirmed: not read
    assert reads_of(fake_discord, busy_msg) == busy_before + 1  # may be stale: read once
    assert "dave" in busy.embed_text()
    await busy.click(dave, "Leave")
    assert "dave" not in busy.embed_text()
    busy.assert_all_answered()
    quiet.assert_all_answered()
