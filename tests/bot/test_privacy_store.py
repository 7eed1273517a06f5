"""/privacy delete and /chips forget at the storage level, on both backends: the member's
chips go to the house by a recorded transfer, their members row, language and hints go,
the ledger's old rows stay, the audit passes, other members are untouched, and a member
with chips in play is refused with nothing changed."""

from __future__ import annotations

from bot.audit import audit
from bot.storage import Store
from bot.storage.accounts import house_account, member_account
from bot.storage.privacy import FORGET_REASON
from tests.storage_backends import raw_sql

G, G2 = 10, 20
ALICE, BOB = 101, 102


async def _setup(store: Store) -> None:
    for g in (G, G2):
        await store.ensure_member(g, ALICE)
        await store.ensure_member(g, BOB)
    await store.apply_transfers([_move(member_account(G, ALICE), member_account(G, BOB), 250)])
    await store.set_member_language(ALICE, "fr")
    await store.mark_hint_shown(ALICE, "help")
    await store.set_member_language(BOB, "de")


def _move(src: str, dst: str, amount: int) -> object:
    from bot.storage.models import Move

    return Move(src, dst, amount, "gift")


async def test_forget_everywhere_anonymises_and_audit_passes(store: Store) -> None:
    await _setup(store)
    before = await store.member_data(ALICE)
    assert (before.servers, before.chips, before.language, before.hints) == (2, 1750, "fr", 1)
    rows_before = await raw_sql(store, "SELECT COUNT(*) FROM transfers")

    result = await store.forget_member(ALICE)

    assert not result.refused
    assert (result.servers, result.chips_to_house, result.guilds) == (2, 1750, [G, G2])
    after = await store.member_data(ALICE)
    assert (after.servers, after.chips, after.language, after.hints) == (0, 0, None, 0)
    assert await store.member_balance(G, ALICE) == 0
    assert await store.balance(house_account(G)) == 750
    assert await store.balance(house_account(G2)) == 1000
    # other members untouched, their language too
    assert await store.member_balance(G, BOB) == 1250
    assert await store.member_balance(G2, BOB) == 1000
    assert await store.member_language(BOB) == "de"
    # no members row names Alice; the ledger kept every old row and added two
    assert await raw_sql(store, "SELECT COUNT(*) FROM members WHERE user_id = ?", ALICE) == [(0,)]
    rows_after = await raw_sql(store, "SELECT COUNT(*) FROM transfers")
    assert rows_after[0][0] == rows_before[0][0] + 2
    reasons = await raw_sql(store, "SELECT COUNT(*) FROM transfers WHERE reason = ?", FORGET_REASON)
    assert reasons == [(2,)]
    report = await audit(store)
    assert report.ok, report.summary()
    board = await store.leaderboard(G)
    assert [e.user_id for e in board] == [BOB]


async def test_a_returning_member_starts_fresh(store: Store) -> None:
    await _setup(store)
    await store.forget_member(ALICE)
    assert await store.ensure_member(G, ALICE) == 1000
    history = await store.chip_history(member_account(G, ALICE))
    assert [p.balance for p in history.points] == [1000]
    report = await audit(store)
    assert report.ok, report.summary()


async def test_forget_in_one_server_keeps_the_rest(store: Store) -> None:
    await _setup(store)
    result = await store.forget_member(ALICE, G)
    assert (result.servers, result.chips_to_house) == (1, 750)
    assert await store.member_balance(G2, ALICE) == 1000
    assert await store.member_language(ALICE) == "fr"
    assert await store.hint_shown(ALICE, "help")
    assert await store.member_balance(G, BOB) == 1250
    report = await audit(store)
    assert report.ok, report.summary()


async def test_chips_in_play_refuse_with_nothing_changed(store: Store) -> None:
    await _setup(store)
    await store.save_table("t1", G, 555, "pontoon", "{}", 1, None, in_play=[ALICE])
    before = await store.member_data(ALICE)
    count = await raw_sql(store, "SELECT COUNT(*) FROM transfers")

    for guild in (None, G):
        result = await store.forget_member(ALICE, guild)
        assert result.refused and result.in_play == (G, "t1")

    assert await store.member_data(ALICE) == before
    assert await raw_sql(store, "SELECT COUNT(*) FROM transfers") == count
    # in another server she has nothing in play: an admin there may forget her
    assert not (await store.forget_member(ALICE, G2)).refused


async def test_the_language_cache_forgets_too(store: Store) -> None:
    from bot.i18n.languages import Languages

    langs = Languages(store)
    await langs.load()
    await langs.choose_member(ALICE, "fa")
    assert await langs.member(ALICE) == "fa"
    assert not (await store.forget_member(ALICE)).refused
    langs.forgotten(ALICE)
    assert await langs.member_choice(ALICE) is None
    fresh = Languages(store)
    await fresh.load()
    assert await fresh.member_choice(ALICE) is None
