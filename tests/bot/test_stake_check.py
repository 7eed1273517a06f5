"""A stake asks the store once: the member's break, the server's round limit and their
balance are read in one transaction (``Store.stake_check``), on SQLite and PostgreSQL;
a table's host refuses from its answer, and a move that stakes nothing asks nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.errors import ServiceError
from bot.storage import MemberOnBreak, StakeCheck, Store
from engine.blackjack import ActionKind as K
from engine.pontoon import PontoonRules
from tests.bot.test_casino_settings import NOW, OLD, OWNER, Clock, _rounds
from tests.storage_backends import open_test_store

T = TypeVar("T")
G = 1
START = 1000  # the starting chips of a new member (the default setting)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, clock: Clock
) -> AsyncIterator[Store]:
    s = await open_test_store(request.param, request, tmp_path, clock=clock)
    yield s
    await s.close()


def count_calls(store: Store) -> list[str]:
    """Every read and transaction the store runs from now on, by the name of the
    function it runs."""
    calls: list[str] = []
    read, write = store._read, store._write

    async def counted_read(fn: Callable[[Any], T]) -> T:
        calls.append(fn.__qualname__)
        return await read(fn)

    async def counted_write(fn: Callable[[Any], T], *, mode: str = "IMMEDIATE") -> T:
        calls.append(fn.__qualname__)
        return await write(fn, mode=mode)

    store._read = counted_read  # type: ignore[method-assign]
    store._write = counted_write  # type: ignore[method-assign]
    return calls


async def limit_reached(store: Store, game: str, user: int, guild: int = G) -> None:
    """The server allows one round an hour, and ``user`` has played one of ``game``."""
    await store.change_guild_setting(guild, "round_limit", 1, expected=0, by_user_id=OWNER)
    await store.change_guild_setting(
        guild, "round_period_minutes", 60, expected=1440, by_user_id=OWNER
    )
    await _rounds(store, game, user, 1, f"{game}-{user}", guild)


async def test_one_call_answers_the_break_the_round_limit_and_the_balance(
    store: Store, clock: Clock
) -> None:
    calls = count_calls(store)
    # a member never seen: nothing refuses them, their account is made with its chips
    found = await store.stake_check(G, OLD, game="blackjack", balance=True)
    assert found == StakeCheck(break_ends=None, plays_again_at=None, balance=START)
    assert await store.member_balance(G, OLD) == START
    calls.clear()
    # a member seen before: one read, in one transaction, whatever is asked
    assert await store.stake_check(G, OLD, game="blackjack", balance=True) == found
    assert len(calls) == 1
    assert await store.stake_check(G, OLD) == StakeCheck(None, None, None)  # balance not asked

    await limit_reached(store, "blackjack", OLD)
    refused = await store.stake_check(G, OLD, game="blackjack", balance=True)
    assert refused.plays_again_at == NOW + timedelta(minutes=60)
    assert refused.break_ends is None and refused.balance is None
    # the limit is asked only with a game, and per game
    assert (await store.stake_check(G, OLD, balance=True)).balance == START
    assert (await store.stake_check(G, OLD, game="pontoon")).plays_again_at is None

    ends = await store.start_break(G, OLD, timedelta(hours=2))
    on_break = await store.stake_check(G, OLD, balance=True)
    assert on_break == StakeCheck(break_ends=ends, plays_again_at=None, balance=None)
    clock.now = ends + timedelta(minutes=61)  # the break over, the round out of the hour
    assert await store.stake_check(G, OLD, game="blackjack", balance=True) == found


async def test_a_refused_newcomer_gets_no_account(store: Store) -> None:
    newcomer = OLD + 5
    ends = await store.start_break(G, newcomer, timedelta(hours=1))
    calls = count_calls(store)
    found = await store.stake_check(G, newcomer, balance=True)
    assert found == StakeCheck(break_ends=ends, plays_again_at=None, balance=None)
    assert calls == ["LedgerStore.stake_check.<locals>.read"]  # no account made for them


async def test_member_balances_reads_a_table_of_members_at_once(store: Store) -> None:
    seated = [OLD, OLD + 1, OLD + 2]
    for user in seated[:2]:
        await store.ensure_member(G, user)
    await store.grant(G, OLD, 50, "a grant", OWNER)
    calls = count_calls(store)
    # two known members in one read; the third is new: their account made with its chips
    assert await store.member_balances(G, seated) == {
        OLD: START + 50,
        OLD + 1: START,
        OLD + 2: START,
    }
    calls.clear()
    assert await store.member_balances(G, seated) == {
        OLD: START + 50,
        OLD + 1: START,
        OLD + 2: START,
    }
    assert len(calls) == 1


# ------------------------------------------------------------------- at the tables
async def test_a_blackjack_bet_asks_the_store_once_and_a_hit_never(store: Store) -> None:
    from tests.bot.test_blackjack_service import ANN, open_with_shoe, service_for

    service = service_for(store)
    try:
        live = await open_with_shoe(service, ["10S", "7D", "9C", "10D", "4C", "5H"])
        await service.join(live.table_id, ANN, name="ann")
        calls = count_calls(store)
        await service.bet(live.table_id, ANN, 10)  # the only seat: dealt at once
        stake_reads = [c for c in calls if "stake_check" in c or "ensure_member" in c]
        assert stake_reads == ["LedgerStore.stake_check.<locals>.read"], calls
        calls.clear()
        await service.play(live.table_id, ANN, K.HIT)
        assert not [c for c in calls if "stake_check" in c or "balance" in c], calls
    finally:
        await service.shutdown()


async def test_a_blackjack_bet_over_the_round_limit_is_refused_with_the_time(
    store: Store,
) -> None:
    from tests.bot.test_blackjack_service import ANN, open_with_shoe, service_for
    from tests.bot.test_blackjack_service import G as BJ_G

    service = service_for(store)
    try:
        live = await open_with_shoe(service, ["10S", "7D", "9C", "10D"])
        await service.join(live.table_id, ANN, name="ann")
        before = await store.member_balance(BJ_G, ANN)
        await limit_reached(store, "blackjack", ANN, BJ_G)
        with pytest.raises(ServiceError) as info:
            await service.bet(live.table_id, ANN, 10)
        assert info.value.key == "err.round_limit" and info.value.params["stamp"]
        assert await store.member_balance(BJ_G, ANN) == before
        assert not live.engine.bets
        await store.start_break(BJ_G, ANN, timedelta(hours=1))
        with pytest.raises(MemberOnBreak):  # the break is said first
            await service.bet(live.table_id, ANN, 10)
    finally:
        await service.shutdown()


async def test_a_pontoon_bet_asks_the_store_once_and_a_twist_never(store: Store) -> None:
    from engine.pontoon.types import ActionKind as PK
    from engine.pontoon.types import Phase
    from tests.bot.test_pontoon_service import service as pontoon_service

    service = pontoon_service(store)
    try:
        live = await service.open_table(G, 60, OLD, PontoonRules(), opener_name="a")
        for user in (OLD + 1, OLD + 2):
            await service.act(live.table_id, user, PK.JOIN, name="m")
        await service.deal(live.table_id, OLD)  # the cut for the bank, then the deal
        bettors = [s for s in live.engine.seats if s != live.engine.banker]
        calls = count_calls(store)
        await service.act(live.table_id, int(bettors[0]), PK.BET, amount=5)
        stake_reads = [c for c in calls if "stake_check" in c or "balance" in c]
        assert stake_reads == ["LedgerStore.stake_check.<locals>.read"], calls
        await service.act(live.table_id, int(bettors[1]), PK.BET, amount=5)
        assert live.engine.phase is Phase.PLAYING
        calls.clear()
        seat = live.engine.to_act()[0]
        offered = {a.kind for a in live.engine.legal_actions(seat)}
        move = next(k for k in (PK.TWIST, PK.STICK) if k in offered)
        await service.act(live.table_id, int(seat), move)
        assert not [c for c in calls if "stake_check" in c or "balance" in c], calls
    finally:
        await service.shutdown()
