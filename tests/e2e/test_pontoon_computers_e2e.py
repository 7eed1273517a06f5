"""One member, the house bank and two computer players through the fake Discord: the
opener seats one computer with /pontoon start and one with the button, a round is played
to its payouts, and the chips are conserved (members + house + escrow), no face-down card
of the member's shows on the table."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from localdiscord import FakeDiscord
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, cards_in, start
from tests.e2e.test_pontoon_e2e import balances, hand_total, outside_the_cut

pytestmark = pytest.mark.e2e


def held(db: Path, guild_id: int) -> dict[str, int]:
    """Every member's, the house's and the escrows' chips of the server, by account."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT id, balance FROM accounts").fetchall()
    finally:
        con.close()
    kinds = (f"member:{guild_id}:", f"house:{guild_id}", "escrow:")
    return {a: int(b) for a, b in rows if a.startswith(kinds)}


async def test_one_member_plays_a_round_with_two_computer_players(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, PONTOON_COMPUTER_PAUSE_SECONDS="0.05")
    t = Table(fake_discord, world)
    alice, bob = world.alice, world.bob
    r = await t.slash(
        alice, "start", {"min_bet": 1, "max_bet": 10, "banker": "house", "computer_players": 1}
    )
    assert "Table open" in r.all_text
    assert "🤖 Computer 1" in t.embed_text()
    # play review P7: a computer shows no chip balance of its own (the house's chips)
    assert "🤖 Computer 1 — plays with the house's chips" in t.embed_text()
    assert not re.search(r"Computer 1 — [\d,]+ chips", t.embed_text())
    # not the opener: a private refusal, nothing changes
    shown = t.embed_text()
    await t.click(bob, "Add a computer player")
    assert "Only the member who opened the table" in t.last_ephemeral(bob)
    assert t.embed_text() == shown
    await t.click(alice, "Add a computer player")
    assert "🤖 Computer 2" in t.embed_text()
    start_chips = await balances(t, [alice])
    before = held(db, world.guild.id)

    await t.click(alice, "Deal")
    assert "Add a computer player" not in t.enabled()  # not mid-round
    await t.form(alice, "Bet", "1")
    looked = False
    for _ in range(300):
        if any("Payouts" in x for x in t.public_texts()):
            break
        if "Turn: **alice**" not in t.embed_text():
            await asyncio.sleep(0.1)  # the computers take their short pause, then move
            await t.quiet()
            continue
        mine = await t.fake.click(alice, t.message(), label="Show my cards")
        await t.answered(mine)
        if not looked:  # her face-down cards: hers alone while the round is played
            looked = True
            cards = cards_in(mine.all_text)
            assert len(cards) == 2, mine.all_text
            for text in t.public_texts():
                for card in cards:
                    assert card not in outside_the_cut(text), text
        enabled = t.enabled()
        if "Declare" in enabled:
            await t.click(alice, "Declare")
            continue
        total = hand_total(mine.all_text) or 0
        await t.click(alice, "Stick" if total >= 15 and "Stick" in enabled else "Twist")
    else:
        raise AssertionError(f"the round did not finish: {t.embed_text()}")
    await t.quiet()
    log = "\n".join(t.public_texts())
    # the computers bet the table minimum and played, in the table's log like anyone
    assert "🤖 Computer 1" in log and "🤖 Computer 2" in log
    payouts = next(x for x in reversed(t.public_texts()) if "Payouts" in x)
    balances_part = payouts.split("Balances", 1)[1].split("Next deal", 1)[0]
    assert "alice" in balances_part and "Computer" not in balances_part, payouts
    after = held(db, world.guild.id)
    assert sum(after.values()) == sum(before.values()), (before, after)
    house = f"house:{world.guild.id}"
    mine_acct = f"member:{world.guild.id}:{alice.user.id}"
    alice_now = (await balances(t, [alice]))["alice"]
    assert after[mine_acct] == alice_now
    # only alice's chips and the house's moved: the computers' results are the house's
    moved = {a for a in after if after[a] != before.get(a, 0)}
    assert moved <= {house, mine_acct} | {a for a in after if a.startswith("escrow:")}
    assert after.get(house, 0) - before.get(house, 0) == start_chips["alice"] - alice_now
    assert all(v == 0 for a, v in after.items() if a.startswith("escrow:"))
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
