"""/privacy show, /privacy delete and /chips forget through the fake Discord (issue 21
item 4): a member seated at a table is told to leave first and nothing changes; after a
deletion their chips are the house's, the ledger audit passes, and everyone else's chips
are as they were; an admin erases a member who left by their user id."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from localdiscord import FakeDiscord
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e


async def test_privacy_show_delete_and_forget(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = Table(fake_discord, world)
    ch = world.channel

    async def run(member: object, command: str, sub: object, options: dict[str, object]) -> str:
        r = await fake_discord.slash(member, ch, command, sub, options)  # type: ignore[arg-type]
        await t.answered(r)
        assert r.ephemeral
        return r.all_text

    for m in (world.bob, world.carol):
        await run(m, "balance", None, {})
    text = await run(world.bob, "privacy", "show", {})
    assert "What this bot stores about you" in text and "1000 chips" in text
    assert "until deleted" in text

    # seated at a Pontoon table: refused, nothing changes
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    text = await run(world.bob, "privacy", "delete", {"confirm": True})
    assert "leave it" in text and "Nothing was changed" in text
    assert "1000 chips" in await run(world.bob, "privacy", "show", {})
    await t.click(world.bob, "Leave")

    # without confirm: what would happen; with it: done
    text = await run(world.bob, "privacy", "delete", {})
    assert "confirm: True" in text and "1000 chips go to the house" in text
    text = await run(world.bob, "privacy", "delete", {"confirm": True})
    assert "Done" in text and "1000 chips went to the house" in text
    text = await run(world.bob, "privacy", "show", {})
    assert "0 in all" in text and "0 chips" in text
    # nothing in the database names Bob any more: his ledger rows are anonymised, the
    # open table he sat at names him by a token
    assert str(world.bob.user.id) not in _dump(db)
    assert _erasures(db) == [("everywhere", 1, 1000)]
    # the table carries on, and its next save does not bring him back
    await t.click(world.carol, "Join")
    assert str(world.bob.user.id) not in _dump(db)
    await t.click(world.carol, "Leave")

    # an admin forgets a member who left, by user id; a plain member may not
    carol = str(world.carol.user.id)
    text = await run(world.bob, "chips", "forget", {"user_id": carol, "confirm": True})
    assert "Manage Server" in text
    text = await run(world.alice, "chips", "forget", {"user_id": carol})
    assert "confirm: True" in text
    text = await run(world.alice, "chips", "forget", {"user_id": carol, "confirm": True})
    assert f"member {carol}" in text and "1000 chips went to the house" in text
    assert carol not in _dump(db)
    assert _erasures(db) == [("everywhere", 1, 1000), ("server", 1, 1000)]
    text = await run(world.alice, "chips", "forget", {"user_id": "not an id", "confirm": True})
    assert "not a Discord user id" in text

    # the ledger adds up, alice's chips untouched
    assert "OK" in await run(world.alice, "chips", "audit", {})
    assert "1000" in await run(world.alice, "balance", None, {})
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "audit", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode == 0, cli.stdout + cli.stderr


def _dump(db: Path) -> str:
    """Every row of every table of the bot's database, as SQL text."""
    con = sqlite3.connect(db)
    try:
        return "\n".join(con.iterdump())
    finally:
        con.close()


def _erasures(db: Path) -> list[tuple[str, int, int]]:
    con = sqlite3.connect(db)
    try:
        found = con.execute("SELECT scope, accounts, chips_to_house FROM erasures ORDER BY id")
        return [(str(r[0]), int(r[1]), int(r[2])) for r in found]
    finally:
        con.close()
