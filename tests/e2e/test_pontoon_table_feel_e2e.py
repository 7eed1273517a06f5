"""How a table feels, end to end, with Discord's rate limits on: a click is answered with the new
table, the round's moves are a log on the table, one result post a round, no lookups
before DMs, no 429s, names (escaped, never ids) and whose move it is at every moment."""

from __future__ import annotations

import re
from pathlib import Path

from localdiscord import FakeDiscord, FakeMember
from tests.e2e.conftest import SHARED, Shared, StartBot, World
from tests.e2e.pontoon_driver import Table, cards_in, start


def who(t: Table, people: dict[str, FakeMember], pattern: str) -> FakeMember | None:
    m = re.search(pattern, t.embed_text())
    return people.get(m.group(1)) if m else None


def results_posted(t: Table, posts_before: int) -> int:
    """Round results ("Payouts") posted in the table's channel since ``posts_before``."""
    new = t.fake.channel_messages(t.world.channel)[posts_before:]
    return sum(1 for m in new if not m.ephemeral and "Payouts" in m.text)


async def play_round(
    t: Table, people: dict[str, FakeMember], same_bet: bool, look_first: bool = False
) -> int:
    """Deal, bet, play every turn (stick when allowed), until the next deal is possible.
    ``look_first``: a player looks with Show my cards at the start of their turn (and
    must see at least their two cards). Returns the number of clicks and form submits."""
    clicks = 0
    banker = who(t, people, r"Banker: \*\*(.+?)\*\*")
    dealer = banker or who(t, people, r"Next: \*\*(.+?)\*\* presses")
    assert dealer is not None, t.embed_text()
    r = await t.click(dealer, "Deal")
    clicks += 1
    assert r.callback_type == 7, r.all_text
    banker = who(t, people, r"Banker: \*\*(.+?)\*\*")
    for m in people.values():
        if m is banker:
            continue
        assert "Waiting for" in t.embed_text() and "to bet" in t.embed_text()
        if same_bet:
            r = await t.click(m, "Same bet")
            clicks += 1
            if "no earlier bet" in r.all_text:
                # last round's banker (the bank passes on a pontoon, and the shared bot's
                # deals depend on the other tests) has no stake to repeat: refused
                # privately, then the form
                assert r.ephemeral, r.all_text
                r = await t.form(m, "Bet", "2")
                clicks += 2
        else:
            r = await t.form(m, "Bet", "2")
            clicks += 2
        assert r.callback_type == 7, r.all_text
    looked: set[str] = set()
    for _ in range(40):
        text = t.embed_text()
        if "presses **Deal**" in text:
            return clicks
        turn = re.search(r"Turn: \*\*(.+?)\*\*", text)
        assert turn, text  # the table always says whose move it is
        enabled = t.enabled()
        if turn.group(1) == "the banker":
            assert banker is not None
            r = await t.click(banker, "Banker: stay")
        else:
            member = people[turn.group(1)]
            if look_first and turn.group(1) not in looked:
                looked.add(turn.group(1))
                r = await t.click(member, "Show my cards")
                clicks += 1
                assert r.ephemeral and len(cards_in(r.all_text)) >= 2, r.all_text
            label = next(x for x in ("Declare", "Stick", "Twist") if x in enabled)
            r = await t.click(member, label)
        clicks += 1
        assert r.callback_type == 7, r.all_text
    raise AssertionError("the round did not finish")


@SHARED
async def test_a_round_on_real_discord_limits(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    fake = fake_discord
    dave = fake.add_member(world.guild, "dave", nick="*dave* @everyone")
    t = Table(fake, world)
    people = {"alice": world.alice, "bob": world.bob, "carol": world.carol}
    people["\\*dave\\* @\u200beveryone"] = dave
    r = await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    assert "Table open" in r.all_text
    for m in (world.bob, world.carol, dave):
        r = await t.click(m, "Join")
        assert r.callback_type == 7  # the join is answered with the new table itself
    table_msg = t.message()
    posts_before = len(fake.channel_messages(world.channel))
    await play_round(t, people, same_bet=False)
    # the result post goes out after the last click: wait for it, then for silence
    await fake.wait_until(lambda: results_posted(t, posts_before) >= 1, 10)
    await t.quiet()
    # one public post in the round: its result (no post per move, no mid-round payouts)
    new_posts = [m for m in fake.channel_messages(world.channel)[posts_before:] if not m.ephemeral]
    assert [m.embeds[0].get("title") for m in new_posts] == ["Payouts"], [m.text for m in new_posts]
    # the moves are in the table message's log
    assert "This round" in t.embed_text()
    assert re.search(r"sticks|stays", t.embed_text())
    # round two: Same bet repeats each player's stake
    await play_round(t, people, same_bet=True)
    await fake.wait_until(lambda: results_posted(t, posts_before) >= 2, 10)
    await t.quiet()
    assert t.message().id == table_msg.id  # one table message, edited in place
    # no table edits from the channel side: every change rode on its click
    edits = fake.requests_to(f"/channels/{world.channel.id}/messages/*", "PATCH")
    assert edits == []
    assert shared.requests_to("re:/users/[0-9]+", "GET") == []  # no lookup before a DM
    assert shared.rate_limited() == []  # 0 429s under Discord's limits
    assert all(r.callback_type != 6 for r in shared.interactions())  # no empty acks
    # names, never ids; markdown escaped; nobody pinged
    ids = [str(m.user.id) for m in (world.alice, world.bob, world.carol, dave)]
    for person in (world.alice, dave):
        for msg in fake.visible_to(person):
            for version in msg.history:
                assert not any(i in version.text for i in ids), version.text
    assert "\\*dave\\*" in t.embed_text()
    for msg in fake.channel_messages(world.channel):
        assert "@everyone" not in msg.text.replace("@\u200beveryone", "")
    # one DM a round per seat with cards, both cards in it
    assert len(cards_in(t.dm_text(world.bob) + t.dm_text(world.carol))) >= 2
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_a_table_without_dms_shows_cards_by_button(shared: Shared) -> None:
    """``/pontoon start cards:button`` sends no DM at all; the table says so and
    each member looks with Show my cards, so every request of a round is the answer to a
    click, plus the round's one result post."""
    fake_discord, world, db = shared.fake, shared.world, shared.db
    fake = fake_discord
    t = Table(fake, world)
    people = {"alice": world.alice, "bob": world.bob, "carol": world.carol}
    r = await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10, "cards": "button"})
    assert "Table open" in r.all_text
    for m in (world.bob, world.carol):
        await t.click(m, "Join")
    assert "No DMs at this table" in t.message().text
    requests_before = len(fake.requests)
    posts_before = len(fake.channel_messages(world.channel))
    clicks = await play_round(t, people, same_bet=False, look_first=True)
    clicks += await play_round(t, people, same_bet=True, look_first=True)
    await fake.wait_until(lambda: results_posted(t, posts_before) >= 2, 10)
    await t.quiet()
    for m in people.values():
        assert fake.dms(m) == [], [d.text for d in fake.dms(m)]
    assert shared.requests_to("/users/@me/channels", "POST") == []
    # this test's requests: the shared bot may still be editing an earlier test's table
    # in its own channel (a timer running out there), which is not this table's cost
    mine = f"/channels/{world.channel.id}/"
    requests = [
        r
        for r in fake.requests[requests_before:]
        if not r.path.startswith("/channels/") or r.path.startswith(mine)
    ]
    posts = [
        r
        for r in requests
        if r.method == "POST" and r.path == f"/channels/{world.channel.id}/messages"
    ]
    assert len(posts) == 2  # the two rounds' results
    # every other request answered a click: one request per click
    others = [(r.method, r.path) for r in requests if not r.path.endswith("/callback")]
    assert len(requests) == clicks + len(posts), others
    assert shared.rate_limited() == []
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_double_and_no_double_commands_exist(shared: Shared) -> None:
    fake_discord, world = shared.fake, shared.world
    cmd = next(c for c in fake_discord.commands() if c["name"] == "pontoon")
    subs = {o["name"] for o in cmd.get("options", [])}
    assert {"double", "no-double", "twist", "stick", "bet", "deal"} <= subs
    t = Table(fake_discord, world)
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10, "banker_doubles": True})
    await t.click(world.bob, "Join")
    r = await t.slash(world.bob, "double")
    assert r.ephemeral and "not possible now" in r.all_text  # refused, nothing changed


async def test_a_timer_move_says_so_on_the_table(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """Nobody clicks: the turn timer plays for the player and the banker; the table (edited
    by the writer, within the limits) says each move was the timer's."""
    fake = fake_discord
    await start(start_bot_process, tmp_path / "db.sqlite3", PONTOON_TURN_SECONDS="2")
    t = Table(fake, world)
    people = {"alice": world.alice, "bob": world.bob}
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10})
    await t.click(world.bob, "Join")
    await t.click(world.alice, "Deal")
    banker = who(t, people, r"Banker: \*\*(.+?)\*\*")
    player = next(m for m in people.values() if m is not banker)
    await t.form(player, "Bet", "2")
    assert "<t:" in t.embed_text()  # a live countdown, not frozen text
    await fake.wait_until(lambda: "presses **Deal**" in t.embed_text(), 30)
    text = t.embed_text()
    assert "ran out of time" in text, text
    # said in the third person: the line is public
    assert re.search(
        r"ran out of time( and sticks|: a card was twisted for them|: their pontoon)", text
    ), text
    assert "for you" not in text, text
    assert fake.rate_limited == []
    t.assert_all_answered()


@SHARED
async def test_the_banker_doubles_with_the_bankers_button(shared: Shared) -> None:
    """P-VAR-3: after the bets the banker looks at the first card (by DM) and the table
    names the banker and the banker's buttons."""
    fake_discord, world = shared.fake, shared.world
    t = Table(fake_discord, world)
    people = {"alice": world.alice, "bob": world.bob}
    await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10, "banker_doubles": True})
    await t.click(world.bob, "Join")
    await t.click(world.alice, "Deal")
    banker = who(t, people, r"Banker: \*\*(.+?)\*\*")
    assert banker is not None
    player = next(m for m in people.values() if m is not banker)
    await t.form(player, "Bet", "2")
    text = t.embed_text()
    assert f"The banker **{banker.user.name}** chooses" in text, text
    assert {"Banker: double", "Banker: no double"} <= t.enabled()
    assert len(set(cards_in(t.dm_text(banker)))) == 1  # the banker's first card, privately
    r = await t.click(banker, "Banker: double")
    assert r.callback_type == 7
    assert "doubles all bets" in t.embed_text()
