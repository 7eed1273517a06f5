"""End-to-end rounds that need particular cards: a seeded shuffle found by replaying the
bot's own first round in the engine (tests.e2e.pontoon_driver.find_seed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.pontoon import Table as EngineTable
from engine.pontoon.hands import best_total
from engine.pontoon.types import ActionKind, Phase
from localdiscord import FakeDiscord
from tests.e2e.conftest import SHARED, Shared, StartBot, World
from tests.e2e.pontoon_driver import Table, cards_in, find_seed, start
from tests.e2e.test_pontoon_e2e import balances, banker_name, member_by_name, open_table, play_out

pytestmark = pytest.mark.e2e


def _players_with(t: EngineTable, names: list[str], kind: ActionKind) -> list[str]:
    return [s for s in names if s != t.banker and any(a.kind is kind for a in t.legal_actions(s))]


async def test_split_and_buy(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    def first_can_split(t: EngineTable, names: list[str]) -> bool:
        return (
            t.phase is Phase.PLAYING
            and t.turn is not None
            and any(a.kind is ActionKind.SPLIT for a in t.legal_actions(t.turn[0]))
        )

    seed, sim = find_seed(3, first_can_split)
    assert sim.turn is not None
    splitter = member_by_name(world, sim.turn[0])
    await start(start_bot_process, tmp_path / "db.sqlite3", SHUFFLE_SEED=str(seed))
    t = Table(fake_discord, world)
    everyone = [world.alice, world.bob, world.carol]
    await open_table(t, players=tuple(everyone))
    await t.click(world.alice, "Deal")
    assert banker_name(t) == sim.banker
    for name in ("alice", "bob", "carol"):
        if name != sim.banker:
            await t.form(member_by_name(world, name), "Bet", "2")
    assert "Split" in t.enabled()
    await t.click(splitter, "Split")
    assert "splits" in t.channel_text()  # P-SPLIT-1: the split cards are public
    assert "Hand 2" in t.embed_text()
    # buy a card on the first hand: 2..4 for an original stake of 2 (P-BUY-2)
    dm_before = len(cards_in(t.dm_text(splitter)))
    assert "Buy" in t.enabled()
    if True:
        await t.form(splitter, "Buy", "5")  # too much: refused, nothing changes
        assert "at most twice the original stake" in t.last_ephemeral(splitter)
        sub = await t.form(splitter, "Buy", "3")
        assert sub.callback_type == 7  # answered with the table
        assert len(cards_in(t.dm_text(splitter))) > dm_before  # the bought card came by DM
        assert "buys a card for 3" in t.channel_text()
    await play_out(t, world)
    assert any("Payouts" in x for x in t.public_texts())
    chips = await balances(t, everyone)
    assert sum(chips.values()) == 3000
    t.assert_all_answered()
    await t.assert_ledger_ok(tmp_path / "db.sqlite3")


async def test_pontoon_passes_the_bank_then_bank_sale(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    def player_pontoon(t: EngineTable, names: list[str]) -> bool:
        return t.phase is Phase.PLAYING and len(_players_with(t, names, ActionKind.DECLARE)) == 1

    seed, sim = find_seed(2, player_pontoon)
    holder = _players_with(sim, ["alice", "bob"], ActionKind.DECLARE)[0]
    await start(start_bot_process, tmp_path / "db.sqlite3", SHUFFLE_SEED=str(seed))
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.alice, "Deal")
    old_banker = banker_name(t)
    assert old_banker == sim.banker and holder != old_banker
    await t.form(member_by_name(world, holder), "Bet", "2")
    assert t.enabled() & {"Declare"} == {"Declare"}
    await t.click(member_by_name(world, holder), "Declare")
    assert "declares a **pontoon**" in t.channel_text()
    await play_out(t, world)
    # P-NEXT-2: the player's pontoon takes the bank; P-NEXT-1: the pack is shuffled
    text = t.channel_text()
    assert re.search(rf"\*\*{holder}\*\* made a pontoon and takes the bank", text), text
    # the payouts' banker line is the round's banker, with the cards they played
    assert re.search(rf"Banker {old_banker}: \S+ \S+", text) and f"Banker {holder}:" not in text
    assert banker_name(t) == holder
    assert "shuffled" in t.embed_text()
    # P-SELL-1: the new banker sells the bank back for 5
    seller = member_by_name(world, holder)
    buyer = member_by_name(world, old_banker)
    chips_before = await balances(t, [world.alice, world.bob])
    r = await fake_discord.slash(
        seller, world.channel, "bank", "sell", {"member": buyer, "price": 5}
    )
    await t.quiet()
    offer = r.message
    assert offer is not None and offer.has_button("Accept: buy the bank for 5")
    wrong = await fake_discord.click(seller, offer, label="Accept: buy the bank for 5")
    await t.quiet()
    assert "someone else" in "\n".join(m.text for m in wrong.followups) + wrong.all_text
    accepted = await fake_discord.click(buyer, offer, label="Accept: buy the bank for 5")
    await t.quiet()
    # each click answered once (play review P1: a second answer was tried, refused by
    # Discord, and the buyer told "Something went wrong" after the sale went through)
    for click in (wrong, accepted):
        calls = [
            r
            for r in fake_discord.requests
            if r.path.startswith(f"/interactions/{click.interaction_id}/")
        ]
        assert [r.status for r in calls] == [200], calls
    told = "\n".join(m.text for m in accepted.followups) + accepted.all_text
    assert "went wrong" not in told, told
    assert banker_name(t) == old_banker
    assert "buys the bank for 5" in t.channel_text()
    chips_after = await balances(t, [world.alice, world.bob])
    assert chips_after[holder] == chips_before[holder] + 5
    assert chips_after[old_banker] == chips_before[old_banker] - 5
    assert sum(chips_after.values()) == 2000
    t.assert_all_answered()
    await t.assert_ledger_ok(tmp_path / "db.sqlite3")


@SHARED
async def test_shoot_round_and_end_returns_the_kitty(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob), shoot=True, kitty_min=10, kitty_max=50)
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    player = world.bob if banker is world.alice else world.alice
    assert "kitty" in t.embed_text().lower()
    r = await t.slash(player, "kitty", {"amount": 20}, command="bank")
    assert "Only the banker puts up the kitty" in r.all_text  # P-SHOOT-1
    r = await t.slash(banker, "kitty", {"amount": 20}, command="bank")
    assert "Kitty: 20" in r.all_text
    await t.form(player, "Bet", "2")
    # P-SHOOT-2: a shoot bet against the kitty
    if "Shoot" in t.enabled():
        await t.form(player, "Shoot", "30")  # more than the kitty: refused
        assert "may not exceed the kitty" in t.last_ephemeral(player)  # P-SHOOT-2
        await t.form(player, "Shoot", "5")
    await play_out(t, world)
    chips = await balances(t, [world.alice, world.bob])
    kitty_m = re.search(r"Kitty: (\d+)", t.embed_text())
    assert kitty_m
    assert sum(chips.values()) + int(kitty_m.group(1)) == 2000
    # /pontoon end: the opener closes the table, the kitty goes back to the banker
    r = await t.slash(world.alice, "end")
    assert "Table closed" in r.all_text
    chips = await balances(t, [world.alice, world.bob])
    assert sum(chips.values()) == 2000
    assert "closed" in t.channel_text()
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_house_banked_lone_player_and_end_mid_round(shared: Shared) -> None:
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    r = await t.slash(world.carol, "start", {"banker": "house", "min_bet": 2, "max_bet": 20})
    assert "Table open" in r.all_text
    assert "house banks" in t.embed_text()
    await t.click(world.carol, "Deal")
    await t.form(world.carol, "Bet", "10")
    assert (await balances(t, [world.carol]))["carol"] == 990  # the stake is in escrow
    r = await fake_discord.slash(world.carol, world.channel, "balance")
    await t.quiet()
    assert "10 in play" in r.all_text
    # someone else ends it: refused; the opener ends it mid-round: the stake comes back
    r = await t.slash(world.bob, "end")
    assert "Only the table's opener" in r.all_text
    r = await t.slash(world.carol, "end")
    assert "Table closed" in r.all_text
    assert (await balances(t, [world.carol]))["carol"] == 1000
    r = await fake_discord.slash(world.carol, world.channel, "pontoon", "twist")
    await t.quiet()
    assert "no open table" in r.all_text.lower()
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


@SHARED
async def test_a_house_banked_round_shows_the_house_hand_in_the_payouts(shared: Shared) -> None:
    """Play review P6: the result post of a house-banked round ends with the house's line
    (its cards and total, or that it was not needed), as a player-banker's post does."""
    fake_discord, world, db = shared.fake, shared.world, shared.db
    t = Table(fake_discord, world)
    r = await t.slash(world.carol, "start", {"banker": "house", "min_bet": 2, "max_bet": 20})
    assert "Table open" in r.all_text
    await t.click(world.carol, "Deal")
    await t.form(world.carol, "Bet", "4")
    await play_out(t, world)
    await fake_discord.wait_until(lambda: any("Payouts" in x for x in t.public_texts()))
    payouts = next(x for x in reversed(t.public_texts()) if "Payouts" in x)
    house = [line for line in payouts.splitlines() if line.startswith("🏦 The house:")]
    assert len(house) == 1, payouts
    assert cards_in(house[0]) or "did not need to play" in house[0], house
    await t.slash(world.carol, "end")
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_twist_bust_is_public_and_the_stake_goes_at_once(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    def first_busts_on_twist(t: EngineTable, names: list[str]) -> bool:
        if t.phase is not Phase.PLAYING or t.turn is None:
            return False
        seat = t.turn[0]
        cards = t.hands[seat][0].cards
        kinds = {a.kind for a in t.legal_actions(seat)}
        return ActionKind.TWIST in kinds and best_total([*cards, t.pack.peek()[0]]) > 21

    seed, sim = find_seed(2, first_busts_on_twist)
    assert sim.turn is not None
    victim = member_by_name(world, sim.turn[0])
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, SHUFFLE_SEED=str(seed))
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.alice, "Deal")
    await t.form(victim, "Bet", "2")
    hidden_before = cards_in(t.dm_text(victim))
    await t.click(victim, "Twist")
    # P-BUST-1: the bust is shown at once, all the hand's cards public
    log = t.channel_text()
    assert "is **bust**" in log
    bust_line = next(line for line in log.splitlines() if "is **bust**" in line)
    for card in hidden_before[:2]:
        assert card in bust_line
    banker = member_by_name(world, banker_name(t))
    await play_out(t, world)
    chips = await balances(t, [victim, banker])
    assert chips[victim.user.name] == 998
    assert chips[banker.user.name] == 1002
    t.assert_all_answered()
    await t.assert_ledger_ok(db)


async def test_a_bankers_pontoon_sends_no_card_dm_that_contradicts_itself(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    """Play review P11: the banker's pontoon settles the round when the second card is
    dealt; the players' cards are in the Payouts then, so no DM says "Your face-down card:
    5♠" and then "You hold no cards right now"."""

    def bankers_pontoon(t: EngineTable, names: list[str]) -> bool:
        return t.phase is Phase.ROUND_OVER

    seed, sim = find_seed(2, bankers_pontoon)
    await start(start_bot_process, tmp_path / "db.sqlite3", SHUFFLE_SEED=str(seed))
    t = Table(fake_discord, world)
    await open_table(t, players=(world.alice, world.bob))
    await t.click(world.alice, "Deal")
    assert banker_name(t) == sim.banker
    player = member_by_name(world, next(n for n in ("alice", "bob") if n != sim.banker))
    dms_before = len(fake_discord.dms(player))
    await t.form(player, "Bet", "2")
    await fake_discord.wait_until(lambda: any("Payouts" in x for x in t.public_texts()))
    await t.quiet()
    assert "banker's pontoon" in "\n".join(t.public_texts())
    after = [m.text for m in fake_discord.dms(player)[dms_before:]]
    assert not any("You hold no cards" in text for text in after), after
    t.assert_all_answered()
    await t.assert_ledger_ok(tmp_path / "db.sqlite3")
