"""/casino settings end to end through the fake Discord: the panel for Manage
Server only, a change through its select menu and form with its confirmation and its line
in /casino log, a stale form refused with the value now, a cap below the floor refused; a
start above the cap refused naming it while an open table keeps its rules; a daily refused
by the join-age gate with the date; a round limit with the time to play again."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from localdiscord import FakeChannel, FakeDiscord, FakeMember
from localdiscord.models import InteractionResult
from tests.e2e.conftest import SHARED, Shared

pytestmark = [pytest.mark.e2e, SHARED]


async def slash(
    fake: FakeDiscord, member: FakeMember, channel: FakeChannel, *command: str, **options: object
) -> InteractionResult:
    """A slash command, waiting for a deferred answer to be filled in."""
    r = await fake.slash(member, channel, command[0], list(command[1:]) or None, options or None)
    if r.callback_type == 5:
        await r.wait_message(timeout=10)
    return r


async def change(
    fake: FakeDiscord,
    owner: FakeMember,
    panel: InteractionResult,
    section: str,
    key: str,
    typed: str,
) -> tuple[str, str]:
    """Pick ``key`` in ``section``'s select of the panel and submit its form with
    ``typed``: (the form's custom id, what the owner is told)."""
    picked = await fake.select(owner, panel, f"casino:pick:{section}", [key])
    assert picked.modal is not None, picked.all_text
    done = await fake.submit_modal(owner, None, picked.modal.custom_id, {"value": typed})
    return picked.modal.custom_id, done.all_text


async def test_the_panel_changes_a_cap_with_a_trail_and_a_start_above_it_is_refused(
    shared: Shared,
) -> None:
    fake, world = shared.fake, shared.world
    alice, bob, channel = world.alice, world.bob, world.channel

    # a member without Manage Server sees nothing of it
    refused = await fake.slash(bob, channel, "casino", "settings")
    assert refused.ephemeral and "Manage Server" in refused.all_text
    assert not refused.require_message().selects()

    # carol takes a break: the panel counts her, never names her
    rest = await fake.slash(world.carol, channel, "break", None, {"length": 1, "unit": "hours"})
    assert rest.ephemeral, rest.all_text
    panel = await fake.slash(alice, channel, "casino", "settings")
    assert panel.ephemeral, panel.all_text
    text = panel.all_text
    assert "1 member of this server is on a break" in text and "carol" not in text, text
    for words in ("Casino settings", "Chips and play", "Pontoon", "Punto Banco", "Blackjack"):
        assert words in text, text
    assert "keeps the rules it opened with" in text
    selects = {s.custom_id for s in panel.require_message().selects()}
    assert {"casino:pick:economy", "casino:pick:blackjack"} <= selects

    # bob opens a table now (bets up to 100), before the owner caps bets
    opened = await slash(fake, bob, channel, "blackjack", "start", min_bet=10)
    assert "open" in opened.all_text.lower(), opened.all_text

    form, said = await change(fake, alice, panel, "blackjack", "blackjack.max_bet_cap", "abc")
    assert "whole number" in said, said
    form, said = await change(fake, alice, panel, "blackjack", "blackjack.max_bet_cap", "50")
    assert "1,000,000 chips → 50 chips" in said and "keeps its rules" in said, said
    # the same form, sent again from the old value, is told the value now
    late = await fake.submit_modal(alice, None, form, {"value": "70"})
    assert "it is now 50 chips" in late.all_text and "Nothing was changed" in late.all_text
    # a floor above the cap is refused
    _form, said = await change(fake, alice, panel, "blackjack", "blackjack.min_bet_floor", "60")
    assert "(50)" in said and "(60)" in said and "Nothing was changed" in said, said

    log = await fake.slash(alice, channel, "casino", "log")
    lines = [ln for ln in log.all_text.splitlines() if "→" in ln]
    assert len(lines) == 1 and "Blackjack" in lines[0] and f"<@{alice.id}>" in lines[0], lines

    # the open table keeps its rules: a bet of 100 (over the new cap) is taken there
    await slash(fake, bob, channel, "blackjack", "join")
    bet = await slash(fake, bob, channel, "blackjack", "bet", amount=100)
    assert "100" in bet.all_text and "capped" not in bet.all_text, bet.all_text

    # a new table above the cap is refused, naming the cap, and opens nothing
    other = fake.add_text_channel(world.guild, "high-rollers")
    capped = await slash(fake, bob, other, "blackjack", "start", max_bet=1_000_000)
    assert "caps bets" in capped.all_text and "50 chips" in capped.all_text, capped.all_text
    assert not [m for m in fake.channel_messages(other) if not m.ephemeral]

    # a choice: only 3:2 allowed, from the choice's own select menus
    picked = await fake.select(
        alice, panel, "casino:pick:blackjack", ["blackjack.option.blackjack_pays"]
    )
    menus = picked.require_message()
    allow = next(s for s in menus.selects() if s.custom_id.startswith("casino:allow:"))
    done = await fake.select(alice, menus, allow.custom_id, ["0"])
    await fake.wait_until(lambda: done.followups)  # the menus redrawn, then the confirmation
    redrawn = next(s for s in menus.selects() if s.custom_id.startswith("casino:allow:"))
    assert redrawn.custom_id.endswith(":1"), redrawn  # the value now, for the next change
    assert "3:2, 6:5 → 3:2" in done.all_text, done.all_text
    six_five = await slash(fake, bob, other, "blackjack", "start", blackjack_pays="6:5")
    assert "does not allow" in six_five.all_text and "3:2" in six_five.all_text
    # without max_bet the server's limits shape it: the game's 100 brought down to 50
    fine = await slash(fake, bob, other, "blackjack", "start")
    assert "open" in fine.all_text.lower(), fine.all_text


async def test_a_join_age_gate_refuses_the_daily_and_a_round_limit_says_when(
    shared: Shared,
) -> None:
    fake, world = shared.fake, shared.world
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    panel = await fake.slash(alice, channel, "casino", "settings")
    _f, said = await change(fake, alice, panel, "economy", "member_age_days", "1")
    assert "off → 1 day" in said, said
    daily = await fake.slash(carol, channel, "daily")
    assert "too new" in daily.all_text and "<t:" in daily.all_text, daily.all_text
    balance = await fake.slash(carol, channel, "balance")
    assert "**0** chips" in balance.all_text and "held back" in balance.all_text

    _f, said = await change(fake, alice, panel, "economy", "member_age_days", "0")
    _f, said = await change(fake, alice, panel, "economy", "round_limit", "1")
    assert "no limit → 1 round" in said, said
    # bob plays one round of Blackjack, then may bet on no other in the period
    await slash(fake, bob, channel, "blackjack", "start")
    await slash(fake, bob, channel, "blackjack", "join")
    first = await slash(fake, bob, channel, "blackjack", "bet", amount=5)
    assert "5" in first.all_text, first.all_text
    deadline = time.monotonic() + 20
    while not _rounds_of(shared, bob):
        assert time.monotonic() < deadline, "the round did not end"
        await slash(fake, bob, channel, "blackjack", "insurance", amount=0)
        await slash(fake, bob, channel, "blackjack", "stand")
        await asyncio.sleep(0.3)
    again = await slash(fake, bob, channel, "blackjack", "bet", amount=5)
    assert "play again <t:" in again.all_text, again.all_text


def _rounds_of(shared: Shared, member: FakeMember) -> int:
    con = sqlite3.connect(f"file:{shared.db}?mode=ro", uri=True)
    try:
        row = con.execute(
            "SELECT count(*) FROM round_results WHERE account = ?",
            (f"member:{shared.world.guild.id}:{member.id}",),
        ).fetchone()
        return int(row[0])
    finally:
        con.close()


async def test_the_owner_bounds_a_start_commands_number_and_a_start_outside_is_refused(
    shared: Shared,
) -> None:
    """The packs of /baccarat start bounded to 2..4 from the panel's form (bad input told,
    nothing changed); a start with 1 or 5 packs is refused naming the bounds, one with 4
    opens."""
    fake, world = shared.fake, shared.world
    alice, bob, channel = world.alice, world.bob, world.channel
    panel = await fake.slash(alice, channel, "casino", "settings")
    assert "Packs of cards: **1 to 8**" in panel.all_text, panel.all_text
    picked = await fake.select(alice, panel, "casino:pick:punto_banco", ["punto_banco.range.packs"])
    assert picked.modal is not None, picked.all_text
    form = picked.modal.custom_id
    bad = await fake.submit_modal(alice, None, form, {"least": "0", "most": "4"})
    assert "from 1 to 8" in bad.all_text and "Nothing was changed" in bad.all_text, bad.all_text
    upside = await fake.submit_modal(alice, None, form, {"least": "5", "most": "2"})
    assert "cannot be above" in upside.all_text, upside.all_text
    done = await fake.submit_modal(alice, None, form, {"least": "2", "most": "4"})
    assert "smallest allowed" in done.all_text and "1 → 2" in done.all_text, done.all_text
    assert "largest allowed" in done.all_text and "8 → 4" in done.all_text, done.all_text
    log = await fake.slash(alice, channel, "casino", "log")
    assert len([ln for ln in log.all_text.splitlines() if "→" in ln]) == 2, log.all_text

    tables = fake.add_text_channel(world.guild, "bounded-shoe")
    for packs in (1, 5):
        refused = await slash(fake, bob, tables, "baccarat", "start", packs=packs)
        assert "2 to 4" in refused.all_text and "Packs of cards" in refused.all_text, (
            refused.all_text
        )
    assert not [m for m in fake.channel_messages(tables) if not m.ephemeral]
    opened = await slash(fake, bob, tables, "baccarat", "start", packs=4)
    assert "open" in opened.all_text.lower(), opened.all_text
