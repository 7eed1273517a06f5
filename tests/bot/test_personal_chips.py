"""A member's own chips outside servers (scope 0, ``PERSONAL_SCOPE``): one balance per
person, with the machine's starting chips, daily chips and cooldown (the store's
defaults, from the .env), never a server's settings, no join-age gate (no server was
joined), kept apart from every server's economy; erased with the member's data; the
audit's conservation holds with a personal table. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.audit import audit
from bot.i18n import t
from bot.storage import (
    PERSONAL_SCOPE,
    DailyNotReady,
    GuildSettings,
    MemberOnBreak,
    Move,
    Store,
    house_account,
    member_account,
)
from cogs.chips import Chips
from cogs.common import PERSONAL_SCOPE as COGS_PERSONAL_SCOPE
from engine.pontoon.types import ESCROW, Transfer
from tests.storage_backends import open_test_store

G = 7_100_001  # a server that installed the bot
ANN, BOB = 734_019_276_514_388_021, 912_558_370_144_602_377
#: the machine's values (the .env): what the personal chips follow
MACHINE = GuildSettings(starting_chips=700, daily_chips=40, daily_cooldown_minutes=600)
NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Store]:
    """The backend's store (tests/bot/conftest.py) with the machine's values above."""
    s = await open_test_store(backend, request, tmp_path, defaults=MACHINE)
    try:
        yield s
    finally:
        await s.close()


def test_the_storage_and_the_cogs_name_the_same_scope() -> None:
    assert PERSONAL_SCOPE == COGS_PERSONAL_SCOPE == 0


async def test_personal_settings_are_the_machines_whatever_a_server_sets(store: Store) -> None:
    await store.set_guild_setting(G, "starting_chips", 50)
    await store.set_guild_setting(G, "daily_chips", 5)
    personal = await store.guild_settings(PERSONAL_SCOPE)
    assert (personal.starting_chips, personal.daily_chips) == (700, 40)
    assert personal.daily_cooldown_minutes == 600
    assert (await store.guild_settings(G)).starting_chips == 50
    # nothing may be stored for them: refused, nothing changed, no trail
    with pytest.raises(ValueError):
        await store.set_guild_setting(PERSONAL_SCOPE, "starting_chips", 5)
    with pytest.raises(ValueError):
        await store.record_in_trail(PERSONAL_SCOPE, "season", 1, 2, by_user_id=ANN)
    assert (await store.guild_settings(PERSONAL_SCOPE)).starting_chips == 700
    assert await store.settings_log(PERSONAL_SCOPE) == []


async def test_personal_chips_are_one_balance_apart_from_the_servers(store: Store) -> None:
    await store.set_guild_setting(G, "starting_chips", 50)
    assert await store.ensure_member(PERSONAL_SCOPE, ANN) == 700  # the machine's start
    assert await store.ensure_member(G, ANN) == 50  # the server's own start
    assert await store.ensure_member(PERSONAL_SCOPE, ANN) == 700  # no second start
    # a daily in the personal scope: the machine's amount, then its cooldown
    assert await store.claim_daily(PERSONAL_SCOPE, ANN, now=NOW) == 740
    with pytest.raises(DailyNotReady) as early:
        await store.claim_daily(PERSONAL_SCOPE, ANN, now=NOW + timedelta(minutes=599))
    assert early.value.next_at == NOW + timedelta(minutes=600)
    assert await store.claim_daily(PERSONAL_SCOPE, ANN, now=NOW + timedelta(minutes=600)) == 780
    # the server's daily is its own: its amount, its cooldown, unaffected by the personal one
    await store.set_guild_setting(G, "daily_chips", 5)
    assert await store.claim_daily(G, ANN, now=NOW) == 55
    assert await store.member_balance(PERSONAL_SCOPE, ANN) == 780
    assert await store.member_balance(G, ANN) == 55
    # chips never cross between the two economies
    with pytest.raises(ValueError, match="crosses servers"):
        await store.apply_transfers([Move(member_account(0, ANN), member_account(G, ANN), 1, "x")])
    assert await store.member_balance(PERSONAL_SCOPE, ANN) == 780


async def test_no_join_age_gate_outside_servers(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """A machine whose defaults ask a week in a server: a server's new member waits for
    their starting chips; a member's own chips come at once (no server was joined)."""
    gated = GuildSettings(starting_chips=700, daily_chips=40, member_age_days=7)
    s = await open_test_store(backend, request, tmp_path, defaults=gated)
    try:
        assert await s.ensure_member(G, BOB) == 0  # held back in the server
        assert await s.held_back_until(G, BOB) is not None
        assert await s.ensure_member(PERSONAL_SCOPE, BOB) == 700
        assert await s.held_back_until(PERSONAL_SCOPE, BOB) is None
        assert await s.claim_daily(PERSONAL_SCOPE, BOB, now=NOW) == 740
    finally:
        await s.close()


async def test_privacy_counts_and_erases_the_personal_chips(store: Store) -> None:
    await store.ensure_member(G, ANN)
    await store.ensure_member(PERSONAL_SCOPE, ANN)
    await store.claim_daily(PERSONAL_SCOPE, ANN, now=NOW)
    await store.ensure_member(PERSONAL_SCOPE, BOB)
    data = await store.member_data(ANN)
    assert (data.servers, data.personal_chips, data.chips) == (1, 740, 700 + 740)
    assert (await store.member_data(BOB)).servers == 0
    # an admin's /chips forget in a server leaves the personal chips alone
    assert (await store.forget_member(ANN, G)).servers == 1
    assert await store.member_balance(PERSONAL_SCOPE, ANN) == 740
    # /privacy delete erases them: to the personal house, by a recorded move
    done = await store.forget_member(ANN)
    assert (done.servers, done.personal, done.chips_to_house) == (0, True, 740)
    assert await store.member_balance(PERSONAL_SCOPE, ANN) == 0
    assert (await store.member_data(ANN)).personal_chips is None
    assert await store.balance(house_account(PERSONAL_SCOPE)) == 740
    assert await store.member_balance(PERSONAL_SCOPE, BOB) == 700  # Bob's are his
    report = await audit(store)
    assert report.ok, report.summary()
    # back again: they start afresh with the machine's starting chips
    assert await store.ensure_member(PERSONAL_SCOPE, ANN) == 700


async def test_the_audit_adds_up_with_a_personal_table(store: Store) -> None:
    a, b = str(ANN), str(BOB)
    await store.ensure_member(PERSONAL_SCOPE, ANN)
    await store.ensure_member(PERSONAL_SCOPE, BOB)
    await store.ensure_member(G, ANN)
    await store.save_table("gdm1", PERSONAL_SCOPE, 55, "pontoon", "{}", 1, None, [], "open")
    await store.save_table(
        "gdm1", PERSONAL_SCOPE, 55, "pontoon", "{}", 2, None, [Transfer(a, ESCROW, 30, "bet")], "b"
    )
    await store.close_table(
        "gdm1", [Transfer(ESCROW, "@house", 30, "lost"), Transfer("@house", b, 10, "won")]
    )
    report = await audit(store)
    assert report.ok, report.summary()
    personal = report.guilds[PERSONAL_SCOPE]
    assert (personal.member_chips, personal.house, personal.granted) == (1380, 20, 1400)
    assert report.guilds[G].total == report.guilds[G].granted == 700
    text = report.summary()
    assert "personal chips (outside servers): 2 members hold 1,380" in text, text
    assert f"server {G}: 1 member holds 700" in text, text


def _interaction(store: Store, guild_id: int | None, guild_install: bool, said: list[str]) -> Any:
    """A /balance or /daily as discord.py hands it to the cog: from a server that
    installed the bot (``guild_install``), or from one where only the member did."""

    async def send_message(text: str, **kwargs: Any) -> None:
        said.append(text)

    bot = SimpleNamespace(store=store, games={})
    return SimpleNamespace(
        client=bot,
        user=SimpleNamespace(id=ANN, bot=False, display_name="Ann"),
        guild_id=guild_id,
        is_guild_integration=lambda: guild_install,
        locale="en-US",
        response=SimpleNamespace(is_done=lambda: False, send_message=send_message),
    )


@pytest.mark.parametrize("guild_install", [True, False])
async def test_a_server_where_only_the_member_installed_the_app_uses_their_own_chips(
    store: Store, guild_install: bool
) -> None:
    """/daily and /balance in a server: the server's chips where the server installed
    the bot, the member's own where only they did (the same as in their DMs)."""
    await store.set_guild_setting(G, "starting_chips", 50)
    said: list[str] = []
    cog = Chips(cast(Any, SimpleNamespace(store=store, games={})))
    await cog.daily.callback(cog, _interaction(store, G, guild_install, said))
    await cog.balance.callback(cog, _interaction(store, G, guild_install, said), None)
    scope, chips = (G, 50 + 40) if guild_install else (PERSONAL_SCOPE, 700 + 40)
    note = "" if guild_install else "\n" + t("en", "chips.personal.note")
    assert said == [
        t("en", "chips.daily", chips=chips) + note,
        t("en", "chips.balance.self", chips=chips) + note,
    ]
    assert await store.member_balance(scope, ANN) == chips
    other = PERSONAL_SCOPE if guild_install else G
    assert await store.member_balance(other, ANN) == 0  # the other economy untouched


async def test_a_break_outside_servers_is_from_the_members_own_chips(store: Store) -> None:
    """/break in a DM or a group DM: no personal /daily until it ends; a server's chips
    are that server's business (its own /break)."""
    await store.ensure_member(G, ANN)
    ends = await store.start_break(PERSONAL_SCOPE, ANN, timedelta(hours=2), now=NOW)
    assert ends == NOW + timedelta(hours=2)
    with pytest.raises(MemberOnBreak):
        await store.claim_daily(PERSONAL_SCOPE, ANN, now=NOW + timedelta(hours=1))
    assert await store.member_balance(PERSONAL_SCOPE, ANN) == 700  # nothing given
    assert await store.claim_daily(G, ANN, now=NOW + timedelta(hours=1)) == 740
    after = NOW + timedelta(hours=2, minutes=1)
    assert await store.claim_daily(PERSONAL_SCOPE, ANN, now=after) == 740
    # erased with the member's data: a running break goes too
    await store.start_break(PERSONAL_SCOPE, ANN, timedelta(days=1), now=after)
    await store.forget_member(ANN)
    assert await store.ensure_member(PERSONAL_SCOPE, ANN) == 700
    later = after + timedelta(minutes=1)
    assert await store.claim_daily(PERSONAL_SCOPE, ANN, now=later) == 740
