"""A restart keeps the countdown each table message shows. The store remembers, with the
version a message was confirmed to show, the moment it counts down to: after a clean
restart a Pontoon bet, a Punto Banco betting window and a Blackjack betting window run out
at the very moment their messages said, and those messages are neither read nor edited
at the restart. A countdown that ran out while the bot was down gives a fresh one, and
the message is edited to show it."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from localdiscord import FakeDiscord, FakeMember, FakeMessage
from localdiscord.models import RequestRecord
from tests.e2e.conftest import BotProcess, StartBot, World
from tests.e2e.pontoon_driver import Table, start
from tests.e2e.test_blackjack_e2e import Blackjack
from tests.e2e.test_pontoon_e2e import open_table
from tests.e2e.test_punto_banco_e2e import PuntoBanco

pytestmark = pytest.mark.e2e

# every game's window here: long enough for a stop and a start on a loaded machine
WINDOW = 40
# the moments a restarted clock may differ from the one its message showed: a fresh
# window would run out at least DOWN_BEFORE_STOP seconds (plus the restart) later
DOWN_BEFORE_STOP = 4.0
LATE_AT_MOST = 2.5


def countdown(msg: FakeMessage) -> int:
    """The moment (epoch seconds) the message counts down to: its one ``<t:...:R>``."""
    found = re.findall(r"<t:(\d+):R>", msg.text)
    assert len(found) == 1, msg.text
    return int(found[0])


def requests_to(fake: FakeDiscord, msg: FakeMessage, method: str) -> list[RequestRecord]:
    return fake.requests_to(f"/channels/{msg.channel.id}/messages/{msg.id}", method)


def on_this_clock(epoch: float) -> float:
    """``epoch`` (wall clock) as a time of this process's monotonic clock (the fake
    Discord's requests carry those)."""
    return time.monotonic() + (epoch - time.time())


async def restart_checked(bot: BotProcess, table: Table) -> None:
    """Wait until the restarted bot is ready (discord.py says so a moment after the last
    server arrived; the restart check starts then) and quiet since."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while "ready as" not in bot.output():
        assert loop.time() < end, bot.output()[-3000:]
        await asyncio.sleep(0.1)
    await table.quiet(grace=1.5, timeout=25.0)


def table_in(fake: FakeDiscord, world: World, name: str, *members: FakeMember) -> World:
    """A channel of its own for another table, with ``members`` as alice, bob, carol."""
    channel = fake.add_text_channel(world.guild, name)
    return World(world.guild, channel, *members)


async def three_tables(
    fake: FakeDiscord, world: World, *, blackjack_seconds: int
) -> tuple[Table, PuntoBanco, Blackjack]:
    """A Pontoon table mid-bet (#pontoon: alice and bob), a Punto Banco betting window
    with carol's bet on it (#baccarat) and a Blackjack betting window with dave's bet and
    erin still to bet (#blackjack): each shows a countdown."""
    dave = fake.add_member(world.guild, "dave")
    erin = fake.add_member(world.guild, "erin")
    bj = Blackjack(fake, table_in(fake, world, "blackjack", dave, erin, world.carol))
    text = await bj.bj(dave, "start", {"betting_seconds": blackjack_seconds})
    assert "Blackjack table open" in text, text
    await bj.bj(dave, "join")
    await bj.bj(erin, "join")
    await bj.bj(dave, "bet", {"amount": 10})  # erin has not bet: the window runs
    pb = PuntoBanco(fake, table_in(fake, world, "baccarat", world.carol, dave, erin))
    await pb.bac(world.carol, "start")
    await pb.bac(world.carol, "bet", {"side": "banco", "amount": 10})
    pontoon = Table(fake, world)
    await open_table(pontoon, players=(world.alice, world.bob))
    await pontoon.click(world.alice, "Deal")  # the cut for the bank, then bets are open
    for table in (pontoon, pb, bj):
        countdown(table.message())  # each shows one
    await pontoon.quiet(grace=0.5)
    return pontoon, pb, bj


async def test_a_clean_restart_keeps_every_countdown_and_edits_no_table_message(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    env = {"PONTOON_BET_SECONDS": str(WINDOW), "PUNTO_BANCO_BETTING_SECONDS": str(WINDOW)}
    proc = await start(start_bot_process, db, **env)
    tables = await three_tables(fake_discord, world, blackjack_seconds=WINDOW)
    names = ("Pontoon", "Punto Banco", "Blackjack")
    messages = [table.message() for table in tables]
    shown = [countdown(msg) for msg in messages]
    texts = [msg.text for msg in messages]
    assert all(at > time.time() + DOWN_BEFORE_STOP + 5 for at in shown), shown
    await asyncio.sleep(DOWN_BEFORE_STOP)  # a fresh window would run out this much later
    assert await proc.stop(timeout=15) == 0
    reads = [len(requests_to(fake_discord, msg, "GET")) for msg in messages]
    edits = [len(requests_to(fake_discord, msg, "PATCH")) for msg in messages]

    await restart_checked(await start(start_bot_process, db, **env), tables[0])
    assert time.time() < min(shown) - 1, "the restart took longer than the windows"
    for name, table, msg, text, at, read, edited in zip(
        names, tables, messages, texts, shown, reads, edits, strict=True
    ):
        assert table.message().id == msg.id, name  # the same message, not a new post
        assert len(requests_to(fake_discord, msg, "GET")) == read, f"{name}: read back"
        assert len(requests_to(fake_discord, msg, "PATCH")) == edited, f"{name}: edited"
        assert msg.text == text and countdown(msg) == at, name

    # each clock runs out at the moment its message shows, not a full window later
    for name, msg, at, edited in zip(names, messages, shown, edits, strict=True):
        await fake_discord.wait_until(
            lambda msg=msg, edited=edited: len(requests_to(fake_discord, msg, "PATCH")) > edited,
            timeout=max(5.0, at - time.time() + 10),
        )
        fired = requests_to(fake_discord, msg, "PATCH")[edited].at
        due = on_this_clock(at)
        assert due - 0.3 <= fired <= due + LATE_AT_MOST, (name, fired - due)
    pontoon, pb, bj = tables
    await fake_discord.wait_until(
        lambda: any(m.text.startswith("**Coup #1") for m in pb.public()), timeout=10
    )  # carol's bet was dealt
    assert countdown(bj.message()) != shown[2]  # dealt: the next clock runs
    await pontoon.quiet()
    for table in tables:
        table.assert_all_answered()
    await pontoon.assert_ledger_ok(db)


async def test_a_countdown_that_ran_out_while_the_bot_was_down_is_drawn_anew(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    short = 12  # nothing runs out while the three tables are opened
    env = {"PONTOON_BET_SECONDS": str(short), "PUNTO_BANCO_BETTING_SECONDS": str(short)}
    proc = await start(start_bot_process, db, **env)
    tables = await three_tables(fake_discord, world, blackjack_seconds=short)
    assert await proc.stop(timeout=15) == 0
    messages = [table.message() for table in tables]
    shown = [countdown(msg) for msg in messages]
    edits = [len(requests_to(fake_discord, msg, "PATCH")) for msg in messages]
    await asyncio.sleep(max(0.0, max(shown) + 1 - time.time()))  # every countdown ran out

    restarted = time.time()
    await start(start_bot_process, db, **env)
    for name, msg, at, edited in zip(
        ("Pontoon", "Punto Banco", "Blackjack"), messages, shown, edits, strict=True
    ):
        # the message is edited at the restart to show the fresh window (or turn)
        await fake_discord.wait_until(
            lambda msg=msg, edited=edited: len(requests_to(fake_discord, msg, "PATCH")) > edited,
            timeout=10,
        )
        fresh = countdown(msg)
        assert fresh > at and fresh >= restarted + short - 1, (name, fresh - restarted)
    tables[0].assert_all_answered()
