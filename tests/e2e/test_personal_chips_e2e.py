"""A member's own chips outside servers, through the fake Discord: /balance and /daily in
a DM with the bot play with one balance of the member's own (the machine's starting and
daily chips), apart from the same member's chips in a server that installed the bot, and
answer in the member's language; outside servers another member's chips are not shown."""

from __future__ import annotations

import pytest

from bot.i18n import t
from localdiscord import FakeChannel, FakeMember
from tests.e2e.conftest import SHARED, Shared
from tests.e2e.pontoon_driver import Table

pytestmark = pytest.mark.e2e

START, DAILY = 1000, 100  # the shared bot's machine values (the .env defaults)


async def _run(
    shared: Shared,
    member: FakeMember,
    channel: FakeChannel,
    command: str,
    sub: str | None = None,
    options: dict[str, object] | None = None,
) -> str:
    r = await shared.fake.slash(member, channel, command, sub, options or {})
    await Table(shared.fake, shared.world).answered(r)
    assert r.ephemeral, r.all_text  # a member's chips are told to them alone
    return r.all_text


@SHARED
@pytest.mark.parametrize("locale", ["de", "fa"])
async def test_balance_and_daily_in_a_dm_are_the_members_own_chips(
    shared: Shared, locale: str
) -> None:
    fake, world = shared.fake, shared.world
    bob, server = world.bob, world.channel
    if locale == "fa":  # not a Discord locale: chosen with /language, in the DM itself
        dm = fake.dm_channel(bob)
        chosen = await _run(shared, bob, dm, "language", None, {"member": "fa"})
        assert t("fa", "lang.name.fa") in chosen, chosen
    else:
        fake.set_locale(bob, locale)
        dm = fake.dm_channel(bob)
    note = t(locale, "chips.personal.note")

    # the server's chips: its starting chips, and a grant by its owner
    r = await fake.slash(world.alice, server, "chips", "grant", {"member": bob, "amount": 500})
    await Table(fake, world).answered(r)
    assert r.text == t("en", "chips.grant.done", amount=500, name="bob", chips=START + 500)
    in_server = await _run(shared, bob, server, "balance")
    assert in_server == t(locale, "chips.balance.self", chips=START + 500), in_server

    # in the DM: his own chips, started afresh, the server's grant not among them
    own = await _run(shared, bob, dm, "balance")
    assert own == t(locale, "chips.balance.self", chips=START) + "\n" + note, own
    daily = await _run(shared, bob, dm, "daily")
    assert daily == t(locale, "chips.daily", chips=START + DAILY) + "\n" + note, daily
    # a second /daily waits for the cooldown: refused, nothing given
    again = await _run(shared, bob, dm, "daily")
    assert again != daily and str(START + 2 * DAILY) not in again, again
    own = await _run(shared, bob, dm, "balance")
    assert own == t(locale, "chips.balance.self", chips=START + DAILY) + "\n" + note, own

    # the server's chips are as they were, and its /daily is still his to claim there
    in_server = await _run(shared, bob, server, "balance")
    assert in_server == t(locale, "chips.balance.self", chips=START + 500), in_server
    daily_there = await _run(shared, bob, server, "daily")
    assert daily_there == t(locale, "chips.daily", chips=START + 500 + DAILY), daily_there

    # outside servers nobody else's chips are shown
    other = await _run(shared, bob, dm, "balance", None, {"member": world.alice})
    assert other == t(locale, "chips.personal.own_only"), other
