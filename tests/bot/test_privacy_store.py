"""/privacy delete and /chips forget at the storage level, on both backends: the member's
chips go to the house by a recorded transfer, their members row, language and hints go,
the ledger's old rows stay, the audit passes, other members are untouched, and a member
with chips in play is refused with nothing changed."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import asyncpg
import pytest

from bot.audit import audit
from bot.storage import Store
from bot.storage.accounts import house_account, member_account
from bot.storage.models import Move
from bot.storage.privacy import FORGET_REASON
from tests.storage_backends import REFUSED_BY_DATABASE, raw_sql

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


# --------------------------------------------------------------------- anonymisation
# Discord-like ids (18-19 digits), so searching a dump for one cannot hit a count,
# an amount, a timestamp or a random token by chance.
CAROL = 734_019_276_514_388_021
DAVE = 912_558_370_144_602_377
TABLE_LOG = "{carol} stand; {dave} hit"


def _snapshot(seated: dict[int, int], opener: int) -> str:
    engine = {"seats": {str(u): {"stake": s} for u, s in seated.items()}}
    names = {str(CAROL): "Carol the Bold", str(DAVE): "Dave"}
    return json.dumps({"engine": engine, "meta": {"opener_id": opener, "names": names}})


async def _everything(store: Store) -> str:
    """Every row of every table of the database, as text."""
    from bot.storage.pg import PgStore

    if isinstance(store, PgStore):
        conn = await asyncpg.connect(store.url)
        try:
            names = await conn.fetch(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            )
            found = []
            for n in names:
                found.extend(repr(tuple(r)) for r in await conn.fetch(f'SELECT * FROM "{n[0]}"'))
            return "\n".join(found)
        finally:
            await conn.close()
    con = sqlite3.connect(store.path)
    try:
        return "\n".join(con.iterdump())
    finally:
        con.close()


async def _carol_played(store: Store) -> None:
    """Carol and Dave in two servers; Carol granted Dave chips as an admin, changed a
    setting and the server's language, played a table that closed and opened one that
    is still open (without a seat there)."""
    for g in (G, G2):
        await store.ensure_member(g, CAROL)
        await store.ensure_member(g, DAVE)
    await store.grant(G, DAVE, 50, "admin grant", CAROL)
    await store.set_guild_setting(G, "daily_chips", 120, CAROL)
    await store.set_guild_language(G, "de", CAROL)
    await store.set_member_language(CAROL, "fa")
    await store.mark_hint_shown(CAROL, "help")
    stakes = [
        Move(member_account(G, CAROL), "@escrow", 100, "stake"),
        Move(member_account(G, DAVE), "@escrow", 100, "stake"),
    ]
    await store.save_table(
        "t1",
        G,
        555,
        "pontoon",
        _snapshot({CAROL: 100, DAVE: 100}, CAROL),
        1,
        None,
        stakes,
        TABLE_LOG.format(carol=CAROL, dave=DAVE),
        in_play=[CAROL, DAVE],
    )
    await store.close_table("t1", [Move("@escrow", member_account(G, DAVE), 200, "win")])
    open_state = json.dumps({"meta": {"opener_id": CAROL, "note": f"opened by <@{CAROL}>"}})
    await store.save_table("t2", G, 556, "pontoon", open_state, 1, None, in_play=[])


async def test_privacy_delete_leaves_no_trace_of_the_id(store: Store) -> None:
    await _carol_played(store)
    assert str(CAROL) in await _everything(store)
    transfers = (await raw_sql(store, "SELECT COUNT(*) FROM transfers"))[0][0]

    result = await store.forget_member(CAROL)

    assert not result.refused
    assert (result.servers, result.chips_to_house) == (2, 900 + 1000)
    dump = await _everything(store)
    assert str(CAROL) not in dump
    assert "Carol the Bold" not in dump
    assert str(DAVE) in dump and "Dave" in dump  # nobody else's data is touched
    # every ledger row kept, plus the two moves of her chips to the houses
    assert (await raw_sql(store, "SELECT COUNT(*) FROM transfers"))[0][0] == transfers + 2
    anon = await raw_sql(store, "SELECT id, guild_id, balance FROM accounts WHERE kind = 'anon'")
    assert sorted((g, b) for _, g, b in anon) == [(G, 0), (G2, 0)]
    assert len({a for a, _, _ in anon}) == 2 and all(a.startswith("anon:") for a, _, _ in anon)
    # her rows now name the anonymous accounts: in G her grant, her stake and her
    # chips to the house; in G2 her grant and her chips to the house
    for account, guild, _ in anon:
        n = await raw_sql(
            store, "SELECT COUNT(*) FROM transfers WHERE src = ? OR dst = ?", account, account
        )
        assert n == [(3 if guild == G else 2,)]
    # the erasure is recorded, without an id
    assert await raw_sql(
        store, "SELECT scope, accounts, ledger_rows, chips_to_house FROM erasures"
    ) == [("everywhere", 2, 5, 1900)]
    assert await store.member_balance(G, DAVE) == 1000 + 50 - 100 + 200
    assert await store.balance(house_account(G)) == 900
    report = await audit(store)
    assert report.ok, report.summary()
    assert await store.member_language(CAROL) is None
    assert await store.guild_language(G) == "de"  # the server's choice stays, not who made it
    # the open table's snapshot still reads, its opener now nobody
    state = await store.get_table("t2")
    assert state is not None and json.loads(state.state_json)["meta"]["opener_id"] == 0


async def test_a_zero_balance_member_is_recorded_and_anonymised(store: Store) -> None:
    await store.ensure_member(G, CAROL)
    await store.ensure_member(G, DAVE)
    await store.apply_transfers([_move(member_account(G, CAROL), member_account(G, DAVE), 1000)])
    before = (await raw_sql(store, "SELECT COUNT(*) FROM transfers"))[0][0]

    result = await store.forget_member(CAROL, G)

    assert (result.servers, result.chips_to_house, result.ledger_rows) == (1, 0, 2)
    assert (await raw_sql(store, "SELECT COUNT(*) FROM transfers"))[0][0] == before
    assert await raw_sql(
        store, "SELECT scope, accounts, ledger_rows, chips_to_house FROM erasures"
    ) == [("server", 1, 2, 0)]
    assert str(CAROL) not in await _everything(store)
    assert await store.member_balance(G, DAVE) == 2000
    report = await audit(store)
    assert report.ok, report.summary()


async def test_each_erasure_draws_a_fresh_token(store: Store) -> None:
    tokens = []
    for _ in range(2):
        await store.ensure_member(G, CAROL)
        await store.forget_member(CAROL, G)
        found = await raw_sql(store, "SELECT id FROM accounts WHERE kind = 'anon' ORDER BY id")
        tokens = [r[0] for r in found]
    assert len(tokens) == 2 and tokens[0] != tokens[1]
    assert not any(str(CAROL) in t for t in tokens)
    assert len(await raw_sql(store, "SELECT id FROM erasures")) == 2
    report = await audit(store)
    assert report.ok, report.summary()


async def test_the_ledger_stays_append_only_after_an_erasure(store: Store) -> None:
    await store.ensure_member(G, CAROL)
    await store.ensure_member(G, DAVE)
    await store.ensure_member(G2, DAVE)
    await store.forget_member(CAROL)
    anon = (await raw_sql(store, "SELECT id FROM accounts WHERE kind = 'anon'"))[0][0]
    dave, dave2 = member_account(G, DAVE), member_account(G2, DAVE)
    await store.forget_member(DAVE, G2)
    anon2 = (
        await raw_sql(store, "SELECT id FROM accounts WHERE kind = 'anon' AND guild_id = ?", G2)
    )[0][0]
    ledger = await raw_sql(store, "SELECT * FROM transfers ORDER BY id")
    refused = [
        "UPDATE transfers SET amount = 1",
        "DELETE FROM transfers",
        f"DELETE FROM transfers WHERE dst = '{anon}'",
        # a member's rows moved to another member, or an anonymous row given back a name
        f"UPDATE transfers SET dst = '{member_account(G, DAVE + 1)}' WHERE dst = '{dave}'",
        f"UPDATE transfers SET dst = '{dave}' WHERE dst = '{anon}'",
        # an anonymous account of another server
        f"UPDATE transfers SET dst = '{anon2}' WHERE dst = '{dave}'",
        # the one allowed rewrite, but another column changed with it
        f"UPDATE transfers SET dst = '{anon}', reason = 'x' WHERE dst = '{dave}'",
        f"UPDATE transfers SET dst = '{anon}', amount = 5 WHERE dst = '{dave}'",
        # an anonymous account never holds chips
        f"UPDATE accounts SET balance = 5 WHERE id = '{anon}'",
    ]
    for sql in refused:
        with pytest.raises(REFUSED_BY_DATABASE):
            await raw_sql(store, sql)
    assert await raw_sql(store, "SELECT * FROM transfers ORDER BY id") == ledger
    assert await store.member_balance(G, DAVE) == 1000
    assert await store.balance(dave2) == 0
    with pytest.raises(REFUSED_BY_DATABASE):
        await raw_sql(store, "DELETE FROM erasures")
    report = await audit(store)
    assert report.ok, report.summary()


async def test_forgetting_the_last_server_takes_the_language_too(store: Store) -> None:
    await store.ensure_member(G, CAROL)
    await store.set_member_language(CAROL, "hi")
    await store.mark_hint_shown(CAROL, "help")
    result = await store.forget_member(CAROL, G)
    assert result.settings_erased
    assert await store.member_language(CAROL) is None
    assert not await store.hint_shown(CAROL, "help")
    assert str(CAROL) not in await _everything(store)
    # the process remembered the hint as shown; once erased it is shown again
    assert await store.mark_hint_shown(CAROL, "help")


async def test_a_hint_known_shown_costs_no_write(store: Store) -> None:
    assert await store.mark_hint_shown(CAROL, "help")
    writes: list[object] = []
    real = store._write

    async def counted(work: Any) -> Any:
        writes.append(work)
        return await real(work)

    store._write = counted  # type: ignore[method-assign]
    assert not await store.mark_hint_shown(CAROL, "help")
    assert await store.mark_hint_shown(CAROL, "other")
    assert len(writes) == 1  # only the new hint was written


async def test_a_member_never_seen_leaves_no_erasure_record(store: Store) -> None:
    for guild in (None, G):
        result = await store.forget_member(CAROL, guild)
        assert not result.refused and result.servers == 0
    assert await raw_sql(store, "SELECT COUNT(*) FROM erasures") == [(0,)]


async def test_another_process_forgets_the_language_within_its_ttl(store: Store) -> None:
    """Two bot processes' language caches (one per process): the erasure runs in one;
    the other stops using the erased choice once its cache is ``ttl`` old."""
    from bot.i18n.languages import Languages

    now = [0.0]
    here = Languages(store, ttl=30.0, clock=lambda: now[0])
    there = Languages(store, ttl=30.0, clock=lambda: now[0])
    await here.load()
    await here.choose_member(CAROL, "fa")
    await here.choose_member(DAVE, "de")
    await there.load()
    assert await there.member(CAROL) == "fa"
    await store.ensure_member(G, CAROL)
    assert not (await store.forget_member(CAROL)).refused
    here.forgotten(CAROL)
    assert await here.member(CAROL) == "en"
    now[0] = 29.0
    assert await there.member(CAROL) == "fa"  # still within its ttl
    now[0] = 31.0
    assert await there.member(CAROL) == "en"
    assert there.member_now(CAROL) == "en"
    assert await there.member(DAVE) == "de"  # everyone else's choice stays
    # a choice made in a process is kept by its own next reload
    await there.choose_member(DAVE, "hi")
    now[0] = 70.0
    assert await there.member(DAVE) == "hi" and await here.member(DAVE) == "hi"
