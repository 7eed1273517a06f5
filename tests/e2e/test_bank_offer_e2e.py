"""A bank offer's Accept (P-SELL-1, P-SELL-2) is answered once per click, by the buyer
and by anyone else, whether the offer was posted by this run of the bot or by the one
before a restart: discord.py never answers a game's button besides the router
(cogs/router.py, ``NO_CUSTOM_ID``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from localdiscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.e2e.conftest import BotProcess, StartBot, World
from tests.e2e.conversation import CALLBACK, bad_records
from tests.e2e.pontoon_driver import Table, start
from tests.e2e.test_pontoon_e2e import banker_name, member_by_name, open_table, play_out

pytestmark = [pytest.mark.e2e, pytest.mark.rule("P-SELL-1", "P-SELL-2")]

WENT_WRONG = "Something went wrong"


def callbacks(fake: FakeDiscord, r: InteractionResult) -> int:
    """How many initial answers the bot sent to ``r`` (Discord takes one)."""
    return sum(
        1
        for req in fake.requests
        if (m := CALLBACK.fullmatch(req.path)) and int(m["iid"]) == r.interaction_id
    )


async def accept(t: Table, member: FakeMember, offer: FakeMessage, price: int) -> InteractionResult:
    """``member`` clicks Accept on ``offer``; the click got exactly one answer, and no
    "something went wrong" after it."""
    r = await t.fake.click(member, offer, label=f"Accept: buy the bank for {price}")
    await t.answered(r)
    assert callbacks(t.fake, r) == 1, f"{callbacks(t.fake, r)} answers to one click"
    assert r.callback_status == 200
    assert not any(WENT_WRONG in m.text for m in r.messages), r.all_text
    return r


async def sell(t: Table, seller: FakeMember, buyer: FakeMember, price: int) -> FakeMessage:
    r = await t.fake.slash(
        seller, t.world.channel, "bank", "sell", {"member": buyer, "price": price}
    )
    await t.answered(r)
    offer = r.require_message()
    assert offer.has_button(f"Accept: buy the bank for {price}")
    return offer


def no_errors(bot: BotProcess) -> None:
    assert bad_records(bot.output()) == [], bot.output()[-4000:]


async def test_accept_is_answered_once_before_and_after_a_restart(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    bot = await start(start_bot_process, db)
    t = Table(fake_discord, world)
    everyone = (world.alice, world.bob, world.carol)
    await open_table(t, players=everyone)
    await t.click(world.alice, "Deal")
    banker = member_by_name(world, banker_name(t))
    for m in everyone:
        if m is not banker:
            await t.form(m, "Bet", "2")
    await play_out(t, world)

    # an offer posted and accepted by this run of the bot
    buyer, stranger = (m for m in everyone if m is not banker)
    offer = await sell(t, banker, buyer, 5)
    wrong = await accept(t, stranger, offer, 5)
    assert "someone else" in wrong.all_text
    await accept(t, buyer, offer, 5)
    assert banker_name(t) == buyer.user.name
    assert "Accepted" in fake_discord.message(offer.id).text
    # the new banker offers it on, and the bot restarts before anyone clicks
    pending = await sell(t, buyer, stranger, 3)
    no_errors(bot)
    await bot.stop()
    bot = await start(start_bot_process, db)

    # the offer posted before the restart
    wrong = await accept(t, banker, pending, 3)
    assert "someone else" in wrong.all_text
    await accept(t, stranger, pending, 3)
    assert banker_name(t) == stranger.user.name
    # and one posted after it
    offer = await sell(t, stranger, banker, 4)
    wrong = await accept(t, buyer, offer, 4)
    assert "someone else" in wrong.all_text
    await accept(t, banker, offer, 4)
    assert banker_name(t) == banker.user.name
    await t.quiet()
    no_errors(bot)
    await t.assert_ledger_ok(db)
