"""A fresh season and a member's break through the fake Discord: /casino reset names what
it will do and waits for its button (Cancel changes nothing; a member without Manage
Server is refused), then closes the open table with the stakes returned, puts every
balance back to the start and keeps season 1's standings for /leaderboard season:1; the
audit passes. /break refuses a break of 0 minutes, starts one of 2 hours with its end as
a Discord timestamp, and then the daily, opening a table and joining one are refused."""

from __future__ import annotations

import re
from pathlib import Path

from localdiscord import FakeDiscord
from tests.e2e.conftest import SHARED, Shared, StartBot, World
from tests.e2e.pontoon_driver import Table, start
from tests.e2e.test_pontoon_e2e import balances, open_table


@SHARED
async def test_a_fresh_season_with_its_confirmation(shared: Shared) -> None:
    fake, world, db = shared.fake, shared.world, shared.db
    t = Table(fake, world)
    ch = world.channel
    await open_table(t, players=(world.alice, world.bob))
    r = await fake.slash(world.alice, ch, "chips", "grant", {"member": world.bob, "amount": 500})
    await t.answered(r)
    assert (await balances(t, [world.bob]))["bob"] == 1500

    r = await fake.slash(world.bob, ch, "casino", "reset")
    await t.answered(r)
    assert "Manage Server" in r.all_text and r.ephemeral
    ask = await fake.slash(world.alice, ch, "casino", "reset")
    await t.answered(ask)
    assert ask.ephemeral
    text = ask.all_text
    assert "Season 1 ends and season 2 begins" in text, text
    assert "1 open table closes" in text and "2 members play in this server" in text
    assert "back to **1,000** chips" in text and "season: 1" in text
    r = await fake.click(world.alice, ask, label="Cancel")
    await t.answered(r)
    assert "nothing was changed" in r.all_text
    assert (await balances(t, [world.bob]))["bob"] == 1500

    ask = await fake.slash(world.alice, ch, "casino", "reset")
    await t.answered(ask)
    r = await fake.click(world.alice, ask, label="Start season 2")
    await t.answered(r)
    await r.wait_message(timeout=10)
    await t.quiet()
    assert "season 2 has begun" in r.all_text, r.all_text
    assert await balances(t, [world.alice, world.bob]) == {"alice": 1000, "bob": 1000}
    assert "a new season began" in t.channel_text()  # the table said why it closed
    r = await fake.slash(world.bob, ch, "pontoon", "twist")
    await t.answered(r)
    assert "no open table" in r.all_text.lower()

    r = await fake.slash(world.bob, ch, "leaderboard", None, {"season": 1})
    await t.answered(r)
    assert "Season 1: final standings" in r.all_text and "1,500" in r.all_text, r.all_text
    r = await fake.slash(world.bob, ch, "leaderboard", None, {"season": 7})
    await t.answered(r)
    assert "no finished season 7" in r.all_text
    r = await fake.slash(world.alice, ch, "chips", "audit")
    await t.answered(r)
    assert "OK" in r.all_text
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_a_break_refuses_the_daily_and_the_tables(shared: Shared) -> None:
    fake, world = shared.fake, shared.world
    t = Table(fake, world)
    ch = world.channel
    await open_table(t, players=(world.alice,))

    r = await fake.slash(world.carol, ch, "break", None, {"length": 0, "unit": "minutes"})
    await t.answered(r)
    assert "1 hour to 30 days" in r.all_text and "Nothing was changed" in r.all_text
    r = await fake.slash(world.carol, ch, "break", None, {"length": 2, "unit": "hours"})
    await t.answered(r)
    assert "Your break has begun" in r.all_text and r.ephemeral
    stamps = set(re.findall(r"<t:(\d+):[FR]>", r.all_text))
    assert len(stamps) == 1, r.all_text  # one moment, shown absolute and relative

    r = await fake.slash(world.carol, ch, "daily")
    await t.answered(r)
    assert "on a break" in r.all_text and f"<t:{stamps.pop()}:F>" in r.all_text
    await t.click(world.carol, "Join")
    assert "on a break" in t.last_ephemeral(world.carol)
    assert "carol" not in t.embed_text()
    r = await fake.slash(world.carol, ch, "help")
    await t.answered(r)
    assert "</break:" in r.all_text or "`/break`" in r.all_text, r.all_text
    t.assert_all_answered()


async def test_the_confirmation_asked_before_a_restart_resets_once_after_it(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """/casino reset asked twice, the bot restarted, then the owner clicks **Start season
    2** on the first question: the button is the bot's still (answered from its custom
    id) and the season begins; the same button on the second question (for season 1,
    closed now) begins nothing."""
    fake, ch = fake_discord, world.channel
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    t = Table(fake, world)
    r = await fake.slash(world.bob, ch, "daily")
    await t.answered(r)
    ask = await fake.slash(world.alice, ch, "casino", "reset")
    await t.answered(ask)
    assert "Season 1 ends and season 2 begins" in ask.all_text, ask.all_text
    twice = await fake.slash(world.alice, ch, "casino", "reset")
    await t.answered(twice)
    assert await proc.stop(timeout=15) == 0

    await start(start_bot_process, db)
    r = await fake.click(world.alice, ask, label="Start season 2")
    await t.answered(r)
    await r.wait_message(timeout=10)
    assert "season 2 has begun" in r.all_text, r.all_text
    again = await fake.click(world.alice, twice, label="Start season 2")
    await t.answered(again)
    assert "season 2 has begun" not in again.all_text, again.all_text
    assert "already been closed" in again.all_text, again.all_text
    assert "Closing the tables" not in again.all_text  # the question left as it was
    board = await fake.slash(world.bob, ch, "leaderboard", None, {"season": 1})
    await t.answered(board)
    assert "Season 1: final standings" in board.all_text, board.all_text
    t.assert_all_answered()
