"""Tables in a group DM through the fake Discord: the real bot process, three friends in a
group DM (alice and bob have the app on their own accounts, carol has not), where the bot
may only answer interactions. The command that opens a table answers with it, every
member plays by clicking, every other drawing goes through the table's interaction
tokens, face-down cards reach their player only privately (never by DM), a table nobody
touches closes with every stake back before its last token expires, and a restart goes
on at the next click. The conversation watch fails any 4xx (the bot's own posts there
would get 403), any interaction answered twice, late or never."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path

import pytest

from bot.i18n import t as t_
from bot.storage import Store
from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Phase
from engine.cards import RandomChance
from localdiscord import FakeDiscord, FakeMember, FakeMessage
from localdiscord.models import walk_components
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, cards_in, start
from tests.e2e.test_pontoon_e2e import banker_name, member_by_name, outside_the_cut, play_out

pytestmark = pytest.mark.e2e
K = ActionKind
BJ_RULES = BlackjackRules(max_bet=5000)
PERSONAL = 0  # cogs.common.PERSONAL_SCOPE: the members' own chips outside servers


def in_group_dm(fake: FakeDiscord, world: World) -> World:
    """The world, its channel a group DM of alice, bob and carol (the app installed on
    alice's and bob's accounts only: carol plays by clicking)."""
    fake.install_for_user(world.alice)
    fake.install_for_user(world.bob)
    gdm = fake.group_dm(world.alice, world.bob, world.carol, name="friends")
    return dataclasses.replace(world, channel=gdm)


async def balances(db: Path, world: World) -> dict[str, int]:
    """Each member's own chips (outside servers), read from the ledger."""
    store = await Store.open(db)
    try:
        return {
            m.user.name: await store.balance(f"member:{PERSONAL}:{m.user.id}")
            for m in (world.alice, world.bob, world.carol)
        }
    finally:
        await store.close()


def no_dm_sent(t: Table) -> None:
    for m in (t.world.alice, t.world.bob, t.world.carol):
        assert t.fake.dms(m) == [], t.dm_text(m)


# ------------------------------------------------------------------------ Blackjack
def predicted(seed: int, seats: list[str]) -> BlackjackTable:
    t = BlackjackTable(BJ_RULES)
    luck = RandomChance(random.Random(seed))
    for seat in seats:
        t.apply(Action(seat, K.JOIN))
    for bet, seat in zip((10, 20, 30), seats, strict=True):
        t.apply(Action(seat, K.BET, bet))
    t.apply(Action(DEALER, K.DEAL), luck)
    return t


def plays_in_order(t: BlackjackTable, seats: list[str]) -> bool:
    """Every seat acts once, in order, and stands; no insurance, the hole card's face
    is not among the cards shown."""
    if t.phase is not Phase.PLAYING:
        return False
    shown = [c for b in t.boxes.values() for h in b.hands for c in h.cards] + t.dealer[:1]
    if t.dealer[0].value in (1, 10) or t.dealer[1] in shown:
        return False
    for seat in seats:
        if t.to_act() != [seat]:
            return False
        t.apply(Action(seat, K.STAND))
    return t.phase is not Phase.PLAYING


class GroupDmTable(Table):
    """The group DM's table, whatever the game and the language: the newest message
    everyone sees that has buttons."""

    def message(self) -> FakeMessage:
        tables = [
            m
            for m in self.public()
            if any(c.get("type") == 2 for c in walk_components(m.components))
        ]
        assert tables, "no table message"
        return tables[-1]

    def public(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if not m.ephemeral]


async def test_a_blackjack_round_in_a_group_dm_of_three(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world = in_group_dm(fake_discord, world)
    seats = [str(m.user.id) for m in (world.alice, world.bob, world.carol)]
    seed = next(s for s in range(2000) if plays_in_order(predicted(s, seats), seats))
    expect = predicted(seed, seats)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    t = GroupDmTable(fake_discord, world)

    r = await t.slash(world.alice, "start", {"betting_seconds": 600}, command="blackjack")
    table = r.require_message()  # the command's answer is the table, for everyone
    assert not table.ephemeral and "Blackjack · round" in table.text, table.text
    assert t.message().id == table.id
    for member in (world.alice, world.bob, world.carol):
        assert table in fake_discord.visible_to(member)

    # every member joins and bets by clicking, each click answered with the new table in
    # its own response: one request a click, as in a server
    for member in (world.alice, world.bob, world.carol):
        sent = len(fake_discord.requests)
        r = await t.click(member, "Join")
        assert r.callback_type == 7, r.all_text
        assert len(fake_discord.requests) - sent == 1
    assert "Seats (3/7)" in t.message().text
    # bad input changes nothing: a bet above the table's largest
    drawn = t.message().text
    r = await t.form(world.carol, "Bet", "500")
    assert r.ephemeral and "Nothing was changed" in r.all_text, r.all_text
    assert t.message().text == drawn
    for member, amount in zip((world.alice, world.bob, world.carol), (10, 20, 30), strict=True):
        r = await t.form(member, "Bet", str(amount))
        assert r.callback_type == 7, r.all_text
    # dealt: the hole card is not shown
    up, hole = expect.dealer
    shown = t.message().text
    assert up.pretty in shown and hole.pretty not in shown
    for member in (world.alice, world.bob, world.carol):
        r = await t.click(member, "Stand")
        assert r.callback_type == 7, r.all_text
    await t.quiet(grace=0.5)
    result = [m.text for m in t.public() if m.id != t.message().id]
    assert any(hole.pretty in text for text in result), result  # the result post, a follow-up
    assert t.message().id == table.id  # one table message, edited all along
    # /blackjack table: the table again at the bottom (a follow-up), the old one retired
    r = await t.slash(world.bob, "table", command="blackjack")
    assert r.ephemeral, r.all_text
    moved = t.message()
    assert moved.id != table.id and "Blackjack · round 2" in moved.text, moved.text
    assert "Join" not in str(fake_discord.message(table.id).components)
    r = await t.click(world.carol, "Leave")
    assert r.callback_type == 7 and "Seats (2/7)" in t.message().text, r.all_text
    no_dm_sent(t)
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
    # the house paid or took each bet; no chip appeared or vanished on the players' side
    chips = await balances(db, world)
    assert all(v >= 0 for v in chips.values())


# -------------------------------------------------------------------------- Pontoon
async def open_pontoon(t: Table, players: tuple[FakeMember, ...]) -> FakeMessage:
    r = await t.slash(players[0], "start", {"min_bet": 1, "max_bet": 10})
    table = r.require_message()
    assert not table.ephemeral and "Show my cards" in str(table.components), table.text
    for p in players[1:]:
        r = await t.click(p, "Join")
        assert r.callback_type == 7, r.all_text
    return table


async def test_a_pontoon_round_in_a_group_dm_of_three(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = Table(fake_discord, world)
    everyone = [world.alice, world.bob, world.carol]
    table = await open_pontoon(t, (world.alice, world.bob, world.carol))
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    players = [m for m in everyone if m is not banker]
    # face-down cards only privately: Show my cards, never a DM, never the table
    first: dict[int, str] = {}
    for p in players:
        r = await fake_discord.click(p, t.message(), label="Show my cards")
        assert r.ephemeral and len(cards_in(r.all_text)) == 1, r.all_text
        await t.answered(r)
        first[p.user.id] = cards_in(r.all_text)[0]
    for card in first.values():
        assert card not in outside_the_cut(t.embed_text()), t.embed_text()
    await t.form(players[0], "Bet", "5")
    await t.form(players[1], "Bet", "3")
    hands: dict[int, list[str]] = {}
    for p in players:
        r = await fake_discord.click(p, t.message(), label="Show my cards")
        await t.answered(r)
        hands[p.user.id] = cards_in(r.all_text)
        assert len(hands[p.user.id]) == 2, r.all_text
    await play_out(t, world)
    assert any("Payouts" in text for text in t.public_texts()), t.channel_text()
    assert t.message().id == table.id
    no_dm_sent(t)
    chips = await balances(db, world)
    assert sum(chips.values()) == 3000, chips  # players bank: no chip created or lost
    assert all(v >= 0 for v in chips.values())
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_restart_mid_round_in_a_group_dm_goes_on_at_the_next_click(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    proc = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await open_pontoon(t, (world.alice, world.bob))
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    player = world.bob if banker is world.alice else world.alice
    await t.form(player, "Bet", "6")
    r = await fake_discord.click(player, t.message(), label="Show my cards")
    before = cards_in(r.all_text)
    await t.answered(r)
    await asyncio.sleep(1.5)  # the table's freshest token is written within a second
    proc.proc.kill()  # no clean shutdown
    await proc.proc.wait()
    await start(start_bot_process, db)
    await t.quiet(grace=0.5)
    r = await fake_discord.click(player, t.message(), label="Show my cards")
    assert cards_in(r.all_text) == before
    await t.answered(r)
    assert "stake 6" in t.embed_text()
    await play_out(t, world)
    assert any("Payouts" in text for text in t.public_texts()), t.channel_text()
    chips = await balances(db, world)
    assert chips["alice"] + chips["bob"] == 2000, chips
    no_dm_sent(t)
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_group_dm_table_nobody_touches_closes_with_every_stake_back(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    # tokens live 30 s here (the fake and the bot agree): the table closes a third of
    # that before its last one expires
    fake_discord.token_lifetime = 30
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, INTERACTION_TOKEN_SECONDS="30")
    t = GroupDmTable(fake_discord, world)
    r = await t.slash(world.alice, "start", {"betting_seconds": 600}, command="blackjack")
    table = r.require_message()
    await t.click(world.bob, "Join")
    await t.form(world.bob, "Bet", "40")
    assert (await balances(db, world))["bob"] == 960
    last = max(r.created_clock for r in fake_discord.interactions.values())
    await fake_discord.wait_until(
        lambda: "closed" in fake_discord.message(table.id).text.lower(), timeout=40
    )
    closed_at = fake_discord.clock()
    assert closed_at - last < 30, "closed only after its last token expired"
    await t.quiet(grace=0.5)
    closed = fake_discord.message(table.id)
    assert "idle" in closed.text, closed.text
    assert not any(  # no button left to play on
        c.get("type") == 2 and not c.get("disabled") for c in walk_components(closed.components)
    )
    assert (await balances(db, world))["bob"] == 1000  # the stake is back
    # the fake's clock moves on past every token: the bot asks nothing of it any more
    sent = len(fake_discord.requests)
    fake_discord.advance_clock(15 * 60)
    await asyncio.sleep(1.0)
    assert len(fake_discord.requests) == sent
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@pytest.mark.expect_http(404, r"/webhooks/")  # the edits of the deleted table message
async def test_a_group_dm_table_whose_message_is_gone_closes_with_every_stake_back(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = GroupDmTable(fake_discord, world)
    r = await t.slash(world.alice, "start", {"betting_seconds": 5}, command="blackjack")
    table = r.require_message()
    await t.click(world.alice, "Join")
    await t.click(world.bob, "Join")
    await t.form(world.bob, "Bet", "40")  # alice has not bet: the window stays open
    assert (await balances(db, world))["bob"] == 960
    fake_discord.delete_message(table)  # a member deleted it
    # the window closes, the round is dealt, and its drawing finds no message to edit:
    # the table closes, the stake goes back, and the members are told
    await fake_discord.wait_until(
        lambda: any("closed" in m.text.lower() for m in t.public()), timeout=20
    )
    await t.quiet(grace=0.5)
    assert (await balances(db, world))["bob"] == 1000
    told = [m.text for m in t.public() if "closed" in m.text.lower()]
    assert any("can no longer be updated" in text for text in told), told
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_group_dm_table_speaks_its_openers_language_and_answers_each_member_in_theirs(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world.alice.user.locale = "de"
    world.bob.user.locale = "fr"
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = GroupDmTable(fake_discord, world)
    r = await t.slash(world.alice, "start", {"betting_seconds": 600}, command="blackjack")
    table = r.require_message()
    assert "Blackjack · Runde 1" in table.text, table.text  # alice's German
    r = await t.click(world.bob, "Platz nehmen")  # the table's words
    assert "Blackjack · Runde 1" in fake_discord.message(table.id).text
    # bob's own answers are in his French: a refusal, privately, nothing changed
    drawn = fake_discord.message(table.id).text
    r = await t.click(world.bob, "Platz nehmen")  # the table's words
    assert r.ephemeral and "déjà une place" in r.all_text, r.all_text
    assert fake_discord.message(table.id).text == drawn
    t.assert_all_answered()


async def test_a_punto_banco_coup_in_a_group_dm(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    # the first coup of SHUFFLE_SEED=0 is won by Banco (tests/e2e/test_punto_banco_e2e.py)
    await start(start_bot_process, db, SHUFFLE_SEED="0", PUNTO_BANCO_BETTING_SECONDS="6")
    t = GroupDmTable(fake_discord, world)
    r = await t.slash(world.alice, "start", command="baccarat")
    table = r.require_message()
    assert not table.ephemeral and "Betting is open" in table.text, table.text
    r = await t.form(world.alice, "Banco", "10")
    assert r.callback_type == 7 and "alice: Banco 10" in r.all_text, r.all_text
    r = await t.form(world.carol, "Egalité", "5")
    assert r.callback_type == 7 and "carol: Egalité 5" in r.all_text, r.all_text
    # the window closes on its timer: the coup is dealt in a follow-up, card by card
    await fake_discord.wait_until(
        lambda: any("Coup #1:" in str(e.get("title", "")) for m in t.public() for e in m.embeds),
        timeout=20,
    )
    await t.quiet(grace=0.3)
    summary = next(
        m for m in t.public() if any("Coup #1:" in str(e.get("title", "")) for e in m.embeds)
    )
    assert "balance 1,009" in summary.text and "balance 995" in summary.text, summary.text
    # the next window is a new message in the group DM, and its buttons work
    fresh = fake_discord.latest_message_with_button(world.channel, "Punto")
    assert fresh.id != table.id and "coup #2" in fresh.text, fresh.text
    r = await fake_discord.click(world.bob, fresh, label="Repeat bet")
    await t.answered(r)
    assert r.ephemeral, r.all_text  # bob bet nothing last coup: told so, privately
    chips = await balances(db, world)
    assert (chips["alice"], chips["carol"]) == (1009, 995), chips
    no_dm_sent(t)
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_group_dm_table_whose_tokens_expired_while_the_bot_was_down_closes(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """Stopped mid-betting and started again after every token of the table expired: the
    table closes with the stake back, and the bot sends nothing through a dead token (the
    watch fails any 401)."""
    fake_discord.token_lifetime = 12
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    env = {"INTERACTION_TOKEN_SECONDS": "12"}
    proc = await start(start_bot_process, db, **env)
    t = GroupDmTable(fake_discord, world)
    r = await t.slash(world.alice, "start", {"betting_seconds": 600}, command="blackjack")
    table = r.require_message()
    await t.click(world.alice, "Join")
    await t.click(world.bob, "Join")
    await t.form(world.bob, "Bet", "40")
    proc.proc.kill()
    await proc.proc.wait()
    last = max(r.created_clock for r in fake_discord.interactions.values())
    await fake_discord.wait_until(lambda: fake_discord.clock() - last > 13, timeout=20)
    assert (await balances(db, world))["bob"] == 960
    await start(start_bot_process, db, **env)
    for _ in range(100):
        if (await balances(db, world))["bob"] == 1000:
            break
        await asyncio.sleep(0.1)
    assert (await balances(db, world))["bob"] == 1000  # the stake is back
    await t.quiet(grace=0.5)
    # its message still looks open (nothing could edit it): a click on it is answered
    # privately, saying plainly the table is closed and the stakes went back; nothing moves
    r = await fake_discord.click(world.bob, fake_discord.message(table.id), label="Leave")
    await t.answered(r)
    assert r.ephemeral, r.all_text
    assert "table is closed" in r.all_text, r.all_text
    assert t_("en", "err.closed.stakes_back") in r.all_text, r.all_text
    assert (await balances(db, world))["bob"] == 1000
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_click_on_a_table_closed_while_the_bot_was_down_says_the_stakes_went_back(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """A Pontoon table of a group DM of five, each reading another language, closed at
    the restart because its tokens expired while the bot was down: its message still
    looks open (nothing may edit it), and each member who clicks on it is told, privately
    and in their own language, that the table is closed and every stake went back."""
    fake = fake_discord
    fake.token_lifetime = 12
    dave, erin = fake.add_user("dave"), fake.add_user("erin")
    for person in (world.alice, erin):
        fake.install_for_user(person)
    gdm = fake.group_dm(world.alice, world.bob, world.carol, dave, erin, name="five")
    world = dataclasses.replace(world, channel=gdm)
    readers = {world.bob: "de", world.carol: "fr", dave: "hi"}
    for person, locale in readers.items():
        fake.set_locale(person, locale)
    db = tmp_path / "db.sqlite3"
    env = {"INTERACTION_TOKEN_SECONDS": "12"}
    proc = await start(start_bot_process, db, **env)
    t = Table(fake, world)
    r = await fake.slash(erin, gdm, "language", None, {"member": "fa"})
    await t.answered(r)
    r = await t.slash(world.alice, "start", {"min_bet": 1, "max_bet": 10, "banker": "house"})
    table = r.require_message()
    await t.click(world.bob, "Join")
    await t.click(world.alice, "Deal")
    await t.form(world.bob, "Bet", "5")
    await t.form(world.alice, "Bet", "3")
    staked = await balances(db, world)
    assert (staked["alice"], staked["bob"]) == (997, 995), staked
    proc.proc.kill()
    await proc.proc.wait()
    last = max(r.created_clock for r in fake.interactions.values())
    await fake.wait_until(lambda: fake.clock() - last > 13, timeout=20)
    await start(start_bot_process, db, **env)
    for _ in range(100):
        if (await balances(db, world))["bob"] == 1000:
            break
        await asyncio.sleep(0.1)
    assert (await balances(db, world))["bob"] == 1000 and (await balances(db, world))["alice"] == (
        1000
    )
    await t.quiet(grace=0.5)
    for person, locale in {world.alice: "en", **readers, erin: "fa"}.items():
        r = await fake.click(person, fake.message(table.id), label="Show my cards")
        await t.answered(r)
        assert r.ephemeral, r.all_text
        closed, back = t_(locale, "err.svc.closed"), t_(locale, "err.closed.stakes_back")
        assert closed.split("`")[0].split("<")[0] in r.all_text, (locale, r.all_text)
        assert back in r.all_text, (locale, r.all_text)
    assert (await balances(db, world))["bob"] == 1000
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_opening_a_second_table_while_seated_elsewhere_is_refused_privately(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """Alice sits at a Pontoon table in one group DM and opens another in a second group
    DM: refused to her alone (the command is answered publicly only with a table), and
    nothing is said or opened there."""
    world = in_group_dm(fake_discord, world)
    others = fake_discord.group_dm(world.alice, world.bob, name="others")
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db)
    t = Table(fake_discord, world)
    await open_pontoon(t, (world.alice, world.bob))
    r = await fake_discord.slash(world.alice, others, "pontoon", "start", {})
    await t.answered(r)
    assert r.ephemeral and "already playing" in r.all_text, r.all_text
    assert [m.text for m in fake_discord.channel_messages(others) if not m.ephemeral] == []
    r = await fake_discord.slash(world.bob, others, "blackjack", "start", {})
    await t.answered(r)  # a Blackjack table seats nobody at its opening: it opens
    assert not r.ephemeral, r.all_text
    t.assert_all_answered()
    await t.assert_ledger_ok(db)
