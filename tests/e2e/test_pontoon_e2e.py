"""End-to-end Pontoon through the fake Discord: the real bot process, real discord.py,
members clicking buttons and filling forms, asserting what each member saw."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from localdiscord import FakeDiscord, FakeMember
from tests.e2e.conftest import SHARED, Shared, StartBot, World
from tests.e2e.pontoon_driver import CARD_RE, Table, cards_in, start
from tests.waiting import eventually

pytestmark = pytest.mark.e2e


def member_by_name(world: World, name: str) -> FakeMember:
    return {"alice": world.alice, "bob": world.bob, "carol": world.carol}[name]


async def open_table(t: Table, *, players: tuple[FakeMember, ...], **options: object) -> None:
    opener = players[0]
    r = await t.slash(opener, "start", {"min_bet": 1, "max_bet": 10, **options})
    assert "Table open" in r.all_text
    for p in players[1:]:
        await t.click(p, "Join")
    for p in players:
        assert p.user.name in t.embed_text() or p is opener


def banker_name(t: Table) -> str:
    m = re.search(r"Banker: \*\*(\w+)\*\*", t.embed_text())
    assert m, t.embed_text()
    return m.group(1)


def turn_name(t: Table) -> str | None:
    m = re.search(r"Turn: \*\*([\w ]+)\*\*", t.embed_text())
    return m.group(1) if m else None


async def balances(t: Table, members: list[FakeMember]) -> dict[str, int]:
    out = {}
    for m in members:
        r = (
            await t.slash(m, "balance", command="balance")
            if False
            else await t.fake.slash(m, t.world.channel, "balance")
        )
        await t.answered(r)
        found = re.search(r"\*\*(\d[\d,]*)\*\* chips", r.all_text)  # 1,000: grouped
        assert found, r.all_text
        out[m.user.name] = int(found.group(1).replace(",", ""))
    return out


def hand_total(text: str) -> int | None:
    m = re.findall(r"= (\d+)", text)
    return int(m[-1]) if m else None


async def play_out(t: Table, world: World) -> None:
    """Play every turn with a simple strategy until the payouts are posted."""
    for _ in range(40):
        who = turn_name(t)
        if who is None:
            return
        if who == "the banker":
            member = member_by_name(world, banker_name(t))
            total = hand_total(t.embed_text().split("Banker")[-1]) or 0
            # the banker's buttons read as the banker's
            await t.click(member, "Banker: stay" if total >= 17 else "Banker: twist")
            continue
        member = member_by_name(world, who)
        enabled = t.enabled()
        if "Declare" in enabled:
            await t.click(member, "Declare")
            continue
        r = await t.fake.click(member, t.message(), label="Show my cards")
        total = hand_total(r.all_text) or 0
        await t.answered(r)
        await t.click(member, "Stick" if total >= 15 and "Stick" in enabled else "Twist")
    raise AssertionError("the round did not finish")


# "✂️ <who> cuts <cards>" (P-BANK-1), the line and nothing else on it
CUT_LINE = re.compile(r"(?:-# )?✂️ (?P<who>.+?) cuts (?P<cards>.+)")


def outside_the_cut(table_text: str) -> str:
    """The table's text without its cut lines. A line is left out only when it is a cut
    line whose cards part holds nothing but cards, so a face-down card shown anywhere
    else, even on a line that mentions a cut, is still seen."""
    kept = []
    for line in table_text.splitlines():
        m = CUT_LINE.fullmatch(line.strip())
        if m and cards_in(m["cards"]) and not CARD_RE.sub("", m["cards"]).strip(" ,"):
            continue
        kept.append(line)
    return "\n".join(kept)


def test_outside_the_cut_drops_only_the_cut_line() -> None:
    text = "✂️ alice cuts 7♠\n✂️ bob cuts 10♥\n**carol** 🂠 stake 5"
    assert cards_in(outside_the_cut(text)) == []
    assert "carol" in outside_the_cut(text)
    for leak in ("**carol** 7♠ stake 5", "✂️ alice cuts 7♠ — carol has 7♠ 🂠", "7♠"):
        assert "7♠" in outside_the_cut(f"✂️ alice cuts 7♠\n{leak}"), leak


@SHARED
async def test_full_round_three_players(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    everyone = [world.alice, world.bob, world.carol]
    await open_table(t, players=tuple(everyone))
    assert {"Join", "Deal", "Show my cards"} <= t.enabled()
    assert "Twist" not in t.enabled()

    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    players = [m for m in everyone if m is not banker]
    assert "cuts" in t.channel_text()  # P-BANK-1: the cut is public
    # P-DEAL-1: each player sees their own first card, privately, not by a DM
    # of its own (one DM a round, with both cards, after the second card); Show my cards
    # and the Bet form show it.
    first: dict[int, str] = {}
    for p in players:
        assert t.dm_text(p) == ""
        r = await fake_discord.click(p, t.message(), label="Show my cards")
        assert r.ephemeral and len(cards_in(r.all_text)) == 1, r.all_text
        first[p.user.id] = cards_in(r.all_text)[0]
    # and never in the table message, except on the public cut line: a card cut for the
    # bank goes back into the pack and may come back as a face-down first card
    for card in first.values():
        assert card not in outside_the_cut(t.embed_text()), t.embed_text()
    assert "Bet" in t.enabled()
    # P-DEAL-1: the banker may not look at the banker's own first card
    assert t.dm_text(banker) == ""

    # bets: one by form, one by slash command
    sub = await t.form(players[0], "Bet", "5")
    shown = [m for m in fake_discord.modals if m.user_id == players[0].user.id][-1]
    assert first[players[0].user.id] in shown.title  # the form shows the card bet on
    # The form is answered with the new table itself (UPDATE_MESSAGE), no ack + edit
    assert sub.callback_type == 7
    assert "stake 5" in t.embed_text()
    r = await t.slash(players[1], "bet", {"amount": 3})
    assert "Bet of 3 placed" in r.all_text
    # second card dealt (P-DEAL-3): now two cards in each player's DMs
    for p in players:
        assert len(cards_in(t.dm_text(p))) >= 2
    # P-DEAL-3: after the second card everyone, the banker too, looks at their two cards.
    # The banker's cards are turned face up in the banker's turn (P-BANKER-1)
    # and the banker decides nothing before it, so no DM: Show my cards shows them.
    assert t.dm_text(banker) == ""
    r = await fake_discord.click(banker, t.message(), label="Show my cards")
    assert r.ephemeral and len(set(cards_in(r.all_text))) == 2, r.all_text
    await play_out(t, world)
    assert any("Payouts" in txt for txt in t.public_texts()), t.channel_text()
    chips = await balances(t, everyone)
    assert sum(chips.values()) == 3000, chips  # no chip created or lost
    assert all(v >= 0 for v in chips.values())
    assert {"Deal", "Join"} <= t.enabled()
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_wrong_turn_double_click_and_bad_amounts(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    await start(start_bot_process, tmp_path / "db.sqlite3")
    t = Table(fake_discord, world)
    everyone = [world.alice, world.bob, world.carol]
    await open_table(t, players=tuple(everyone))
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    players = [m for m in everyone if m is not banker]
    before = t.message().edit_count
    # bad amounts: each refused with a clear message, nothing changes
    for bad, word in [
        ("abc", "not a whole number"),
        ("-5", "cannot be negative"),
        ("0", "between 1 and 10"),
        ("99999999999999", "too large"),
        ("１０", "not a whole number"),
        ("11", "between 1 and 10"),
    ]:
        await t.form(players[0], "Bet", bad)
        assert word in t.last_ephemeral(players[0]), (bad, t.last_ephemeral(players[0]))
        assert not re.search(r"\b[PB]-[A-Z]{2,}", t.last_ephemeral(players[0]))  # no rule id
        assert t.message().edit_count == before, (bad, fake_discord.debug_tail(12))
    # the banker cannot bet against themselves
    r = await t.slash(banker, "bet", {"amount": 5})
    assert r.ephemeral and "not a player in this deal" in r.all_text, r.all_text
    assert not re.search(r"\b[PB]-[A-Z]{2,}", r.all_text)  # players never see rule ids
    await t.form(players[0], "Bet", "4")
    await t.form(players[1], "Bet", "4")
    who = turn_name(t)
    assert who is not None
    current = member_by_name(world, who)
    other = next(p for p in everyone if p is not current)
    # wrong turn: refused privately, table unchanged
    msg = t.message()
    edits = msg.edit_count
    label = next(x for x in ("Twist", "Stick", "Declare") if x in t.enabled())
    await t.click(other, label)
    assert t.last_ephemeral(other), "the wrong-turn click got no answer"
    assert "turn" in t.last_ephemeral(other).lower(), t.last_ephemeral(other)
    assert t.message().edit_count == edits
    # double click on Twist: both clicks carry the same state version; one card is dealt
    if "Declare" in t.enabled():
        pytest.skip("the seed dealt a pontoon to the first player")
    msg = t.message()
    public_before = t.channel_text().count("twists")
    r1, r2 = await asyncio.gather(
        fake_discord.click(current, msg, label="Twist"),
        fake_discord.click(current, msg, label="Twist"),
    )
    await t.quiet()
    assert t.channel_text().count("twists") == public_before + 1
    assert "older state" in t.last_ephemeral(current)
    assert r1.answered and r2.answered
    t.assert_all_answered()
    await t.assert_ledger_ok(tmp_path / "db.sqlite3")


@pytest.mark.expect_http(403, r"/channels/\d+/messages")  # the closed DMs (50007)
@SHARED
async def test_closed_dms_fall_back_to_show_my_cards(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    fake_discord.close_dms(world.bob)
    fake_discord.close_dms(world.carol)
    await open_table(t, players=(world.alice, world.bob, world.carol))
    await t.click(world.alice, "Deal")
    banker = banker_name(t)
    victims = [m for m in (world.bob, world.carol) if m.user.name != banker]
    for v in victims:
        assert t.dm_text(v) == ""
        r = await fake_discord.click(v, t.message(), label="Show my cards")
        assert r.ephemeral
        assert len(cards_in(r.all_text)) == 1
        # nobody else saw it
        for other in (world.alice, world.bob, world.carol):
            if other is not v:
                assert r.message is not None and not r.message.visible_to_user(other.user.id)
    # the second card is the round's DM: it fails, they are told once, privately
    for p in (world.alice, world.bob, world.carol):
        if p.user.name != banker:
            await t.form(p, "Bet", "2")
    for v in victims:
        assert t.dm_text(v) == ""
        notes = [x for x in t.ephemeral_texts(v) if "can't send you direct messages" in x]
        assert len(notes) == 1, t.ephemeral_texts(v)
        r = await fake_discord.click(v, t.message(), label="Show my cards")
        assert r.ephemeral and len(cards_in(r.all_text)) == 2
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_restart_mid_hand_keeps_cards_stakes_and_buttons(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    player = world.bob if banker is world.alice else world.alice
    await t.form(player, "Bet", "6")
    r = await fake_discord.click(player, t.message(), label="Show my cards")
    cards_before = cards_in(r.all_text)
    await t.answered(r)
    table_before = t.embed_text()
    # kill the bot mid-hand (no clean shutdown)
    proc.proc.kill()
    await proc.proc.wait()
    await start(start_bot_process, db)
    await t.quiet(grace=0.5)
    r = await fake_discord.click(player, t.message(), label="Show my cards")
    assert cards_in(r.all_text) == cards_before
    assert "stake 6" in t.embed_text()
    assert t.embed_text().split("⏱")[0] == table_before.split("⏱")[0]
    assert "cuts" in table_before  # the round's log: the cut for the bank
    # the first move after the restart redraws the table: the round's log is still
    # whole (it is saved with the table), not just the new move
    move = "Stick" if "Stick" in t.enabled() else "Twist"
    await t.click(player, move)
    assert "cuts" in t.embed_text(), t.embed_text()
    # the buttons of the message still work: play the hand out
    await play_out(t, world)
    assert any("Payouts" in txt for txt in t.public_texts())
    chips = await balances(t, [world.alice, world.bob])
    assert sum(chips.values()) == 2000
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_restart_before_the_result_post_posts_it_then(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """The bot is killed after a round's end was saved and before its result post went
    out (Discord failing the post): the next start posts it, once, from the round's log
    saved with the table."""
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    player = world.bob if banker is world.alice else world.alice
    await t.form(player, "Bet", "6")
    # from now on Discord fails every post in the channel: the round's result post
    failing = fake_discord.inject_fault(
        f"/channels/{world.channel.id}/messages", status=500, method="POST", count=1000
    )
    await play_out(t, world)
    await eventually(lambda: failing.hits >= 1, what="the result post tried")
    assert not any("Payouts" in txt for txt in t.public_texts())
    proc.proc.kill()  # while discord.py waits to try the post again
    await proc.proc.wait()
    failing.remaining = 0
    proc = await start(start_bot_process, db)

    def payouts() -> list[str]:
        return [m.text for m in fake_discord.channel_messages(world.channel) if "Payouts" in m.text]

    # once the bot is ready (discord.py says so a moment after the servers came)
    await eventually(lambda: payouts(), what="the result posted after the restart")
    await t.quiet(grace=0.5)
    assert len(payouts()) == 1, t.channel_text()
    for member in (world.alice, world.bob):
        assert member.user.name in payouts()[0], payouts()[0]
    chips = await balances(t, [world.alice, world.bob])
    assert sum(chips.values()) == 2000
    # it went out: a clean restart does not post it again
    assert await proc.stop() == 0
    again = await start(start_bot_process, db)
    # ready, and the restart's check of its tables over
    await eventually(lambda: "ready as" in again.output(), 30, what="the bot ready")
    await t.quiet(grace=1.5, timeout=25.0)
    assert len(payouts()) == 1, t.channel_text()
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_chips_daily_grant_leaderboard(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    r = await fake_discord.slash(world.bob, world.channel, "daily")
    await t.answered(r)
    assert "Balance: **1,100**" in r.all_text and r.ephemeral
    r = await fake_discord.slash(world.bob, world.channel, "daily")
    await t.answered(r)
    assert "already claimed" in r.all_text
    assert (await balances(t, [world.bob]))["bob"] == 1100
    # granting needs Manage Server: bob has not
    r = await fake_discord.slash(
        world.bob, world.channel, "chips", "grant", {"member": world.carol, "amount": 50}
    )
    await t.answered(r)
    assert "Manage Server" in r.all_text
    assert (await balances(t, [world.carol]))["carol"] == 1000
    r = await fake_discord.slash(
        world.alice, world.channel, "chips", "grant", {"member": world.carol, "amount": 500}
    )
    await t.answered(r)
    assert "Granted **500**" in r.all_text and not r.ephemeral
    r = await fake_discord.slash(
        world.alice, world.channel, "balance", None, {"member": world.carol}
    )
    await t.answered(r)
    assert "carol has **1,500** chips" in r.all_text
    r = await fake_discord.slash(world.bob, world.channel, "leaderboard")
    await t.answered(r)
    board = r.all_text
    assert board.index(str(world.carol.user.id)) < board.index(str(world.bob.user.id))
    r = await fake_discord.slash(
        world.bob, world.channel, "chips", "settings", {"starting_chips": 5}
    )
    await t.answered(r)
    assert "Manage Server" in r.all_text
    r = await fake_discord.slash(
        world.alice, world.channel, "chips", "settings", {"starting_chips": 250}
    )
    await t.answered(r)
    assert "start with **250** chips" in r.all_text
    newcomer = fake_discord.add_member(world.guild, "dave")
    r = await fake_discord.slash(newcomer, world.channel, "balance")
    await t.answered(r)
    assert "**250** chips" in r.all_text
    r = await fake_discord.slash(world.alice, world.channel, "chips", "audit")
    await t.answered(r)
    assert "OK" in r.all_text and r.ephemeral
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_the_table_command_posts_the_table_again_at_the_bottom(shared: Shared) -> None:
    """/pontoon table: a table message scrolled away (or deleted) comes back at the bottom
    of the channel, and the old one is retired: a note pointing below, no buttons, so
    nobody deals on a copy that is no longer drawn (play review P5)."""
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice,))
    old = t.message()
    assert old.buttons()
    r = await t.slash(world.bob, "table")
    assert r.ephemeral and "posted again below" in r.all_text
    new = t.message()
    assert new.id > old.id and "alice" in t.embed_text()
    retired = fake_discord.message(old.id)
    assert retired.buttons() == []
    note = retired.text
    assert "moved below" in note and "alice" not in note
    await t.click(world.bob, "Join", new)
    assert "bob" in t.embed_text()
    assert fake_discord.message(old.id).text == note  # never drawn again
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
