"""A member's own chips outside servers, through the fake Discord: /balance and /daily in
a DM with the bot play with one balance of the member's own (the machine's starting and
daily chips), apart from the same member's chips in a server that installed the bot, and
answer in the member's language; outside servers another member's chips are not shown."""

from __future__ import annotations

import pytest

from bot.i18n import t
from localdiscord import CommandUnavailable, FakeChannel, FakeMember
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


@SHARED
async def test_group_dms_share_the_members_own_chips_apart_from_the_server(
    shared: Shared,
) -> None:
    """Bob and Carol installed the app on their accounts; Alice did not. In two group
    DMs and a DM Bob has one balance of his own (one /daily for all of them), Carol hers
    in French; the server's chips are apart. Where Discord offers what: the player
    commands in a group DM to those who installed the app, the server's administration
    never outside the server."""
    fake, world = shared.fake, shared.world
    alice, bob, carol, server = world.alice, world.bob, world.carol, world.channel
    fake.install_for_user(bob)
    fake.install_for_user(carol)
    fake.set_locale(carol, "fr")
    friends = fake.group_dm(bob, carol, alice, name="friends")
    others = fake.group_dm(carol, bob, name="others")
    note_en, note_fr = t("en", "chips.personal.note"), t("fr", "chips.personal.note")

    daily = await _run(shared, bob, friends, "daily")
    assert daily == t("en", "chips.daily", chips=START + DAILY) + "\n" + note_en, daily
    # the same chips in the other group DM and in the DM: one /daily for all of them
    again = await _run(shared, bob, others, "daily")
    assert again != daily and str(START + 2 * DAILY) not in again, again
    for place in (others, fake.dm_channel(bob)):
        own = await _run(shared, bob, place, "balance")
        assert own == t("en", "chips.balance.self", chips=START + DAILY) + "\n" + note_en, own
    # the server's chips: untouched, its own starting chips
    in_server = await _run(shared, bob, server, "balance")
    assert in_server == t("en", "chips.balance.self", chips=START), in_server

    # Carol's own chips, in her language; Bob's are not hers to see
    hers = await _run(shared, carol, friends, "balance")
    assert hers == t("fr", "chips.balance.self", chips=START) + "\n" + note_fr, hers
    other = await _run(shared, carol, friends, "balance", None, {"member": bob})
    assert other == t("fr", "chips.personal.own_only"), other

    # offered where declared, and only there
    for command, sub in (("chips", "grant"), ("leaderboard", None), ("casino", "settings")):
        with pytest.raises(CommandUnavailable):
            await shared.fake.slash(bob, friends, command, sub, {})
        with pytest.raises(CommandUnavailable):
            await shared.fake.slash(bob, fake.dm_channel(bob), command, sub, {})
    with pytest.raises(CommandUnavailable):  # Alice has not installed the app
        await shared.fake.slash(alice, friends, "balance")
    stats = await _run(shared, bob, friends, "stats")
    assert t("en", "stats.title", name="bob") in stats, stats
