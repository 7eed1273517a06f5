"""Property: any sequence of grants, transfers and table moves keeps the ledger sound.

A plain-Python model of the balances predicts every outcome (including refusals for
insufficient chips and stale versions); after each step the store must agree with the
model, and at the end the audit must pass with no member below zero.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.audit import audit
from bot.storage import (
    GuildSettings,
    InsufficientChips,
    Move,
    StaleVersion,
    Store,
    TableAlreadyOpen,
    escrow_account,
    house_account,
    kitty_account,
    member_account,
)
from bot.storage.pg import PgStore
from engine.pontoon.types import ESCROW, KITTY, Transfer
from tests.conftest import new_schema_url

START = 100
GUILDS = st.sampled_from([1, 2])
USERS = st.integers(1, 4)
AMOUNTS = st.integers(1, 160)
TABLES = st.integers(0, 2)
PARTY = st.one_of(USERS, st.just("house"))

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("member"), GUILDS, USERS, st.integers(0, 200)),
        st.tuples(st.just("grant"), GUILDS, USERS, AMOUNTS),
        st.tuples(st.just("move"), GUILDS, PARTY, PARTY, AMOUNTS),
        st.tuples(st.just("open"), GUILDS, TABLES),
        st.tuples(st.just("bet"), TABLES, USERS, AMOUNTS, st.booleans()),
        st.tuples(st.just("pay"), TABLES, USERS, AMOUNTS),
        st.tuples(st.just("stale"), TABLES),
        st.tuples(st.just("close"), TABLES, USERS),
    ),
    max_size=25,
)


@dataclass
class Model:
    bal: dict[str, int] = field(default_factory=dict)
    seen: set[tuple[int, int]] = field(default_factory=set)
    granted: dict[int, int] = field(default_factory=dict)
    # channel index -> (table id, guild, version) of the open table there
    open_tables: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    generation: int = 0

    def add(self, account: str, amount: int) -> None:
        self.bal[account] = self.bal.get(account, 0) + amount

    def see(self, g: int, u: int, chips: int) -> None:
        if (g, u) not in self.seen:
            self.seen.add((g, u))
            self.add(member_account(g, u), chips)
            self.granted[g] = self.granted.get(g, 0) + chips

    def can_pay(self, account: str, amount: int) -> bool:
        return account.startswith("house:") or self.bal.get(account, 0) >= amount


def _account(g: int, party: int | str) -> str:
    return house_account(g) if party == "house" else member_account(g, int(party))


async def _run(ops: list[tuple[object, ...]], where: Path | str) -> None:
    """``where``: a SQLite file, or a PostgreSQL URL (an empty schema)."""
    if isinstance(where, str):
        store: Store = await PgStore.connect(where, defaults=GuildSettings(START, 10))
    else:
        store = await Store.open(where, defaults=GuildSettings(START, 10), synchronous="OFF")
    m = Model()
    try:
        for op in ops:
            await _step(store, m, op)
            if m.bal:
                assert await store.balances(m.bal) == m.bal, op
        report = await audit(store)
        assert report.ok, report.summary()
        for g, granted in m.granted.items():
            assert report.guilds[g].granted == granted
            assert report.guilds[g].total == granted
        assert all(v >= 0 for k, v in m.bal.items() if not k.startswith("house:"))
    finally:
        await store.close()


async def _expect_refusal(coro: object, model_ok: bool, exc: type[Exception]) -> bool:
    """Run the store call; it must succeed exactly when the model says so."""
    try:
        await coro  # type: ignore[misc]
    except exc:
        assert not model_ok, "the store refused an affordable move"
        return False
    assert model_ok, "the store allowed a move the model says is unaffordable"
    return True


async def _step(store: Store, m: Model, op: tuple[object, ...]) -> None:
    kind = op[0]
    if kind == "member":
        _, g, u, chips = op
        assert isinstance(g, int) and isinstance(u, int) and isinstance(chips, int)
        m.see(g, u, chips)
        assert await store.ensure_member(g, u, chips) == m.bal[member_account(g, u)]
    elif kind == "grant":
        _, g, u, amount = op
        assert isinstance(g, int) and isinstance(u, int) and isinstance(amount, int)
        m.see(g, u, START)
        m.add(member_account(g, u), amount)
        m.granted[g] += amount
        assert await store.grant(g, u, amount, "gift", by_user_id=0) == m.bal[member_account(g, u)]
    elif kind == "move":
        _, g, x, y, amount = op
        assert isinstance(g, int) and isinstance(amount, int)
        src, dst = _account(g, x), _account(g, y)  # type: ignore[arg-type]
        if src == dst:
            return
        ok = m.can_pay(src, amount)
        if await _expect_refusal(
            store.apply_transfers([Move(src, dst, amount, "move")]), ok, InsufficientChips
        ):
            m.add(src, -amount)
            m.add(dst, amount)
    elif kind == "open":
        _, g, idx = op
        assert isinstance(g, int) and isinstance(idx, int)
        m.generation += 1
        table_id = f"t{idx}n{m.generation}"
        free = idx not in m.open_tables
        if await _expect_refusal(
            store.save_table(table_id, g, idx, "pontoon", "{}", 1, None, [], "open"),
            free,
            TableAlreadyOpen,
        ):
            m.open_tables[idx] = (table_id, g, 1)
    elif kind in ("bet", "pay", "stale", "close"):
        idx = op[1]
        assert isinstance(idx, int)
        if idx not in m.open_tables:
            return
        table_id, g, version = m.open_tables[idx]
        if kind == "stale":
            try:
                await store.save_table(table_id, g, idx, "pontoon", "x", version, None, [], "x")
            except StaleVersion:
                return
            raise AssertionError("a stale version was accepted")
        if kind == "close":
            u = op[2]
            assert isinstance(u, int)
            refunds = [
                Transfer(name, str(u), m.bal[acct], "refund")
                for name, acct in (
                    (ESCROW, escrow_account(table_id)),
                    (KITTY, kitty_account(table_id)),
                )
                if m.bal.get(acct, 0) > 0
            ]
            await store.close_table(table_id, refunds)
            for t in refunds:
                acct = escrow_account(table_id) if t.src == ESCROW else kitty_account(table_id)
                m.add(acct, -t.amount)
                m.add(member_account(g, u), t.amount)
            del m.open_tables[idx]
            return
        _, _, u, amount, *rest = op
        assert isinstance(u, int) and isinstance(amount, int)
        pot_name = KITTY if rest and rest[0] else ESCROW
        pot = kitty_account(table_id) if pot_name == KITTY else escrow_account(table_id)
        member = member_account(g, u)
        if kind == "bet":
            transfer, src, dst = Transfer(str(u), pot_name, amount, "bet"), member, pot
        else:
            transfer, src, dst = (
                Transfer(ESCROW, str(u), amount, "pay"),
                escrow_account(table_id),
                member,
            )
        ok = m.can_pay(src, amount)
        if await _expect_refusal(
            store.save_table(
                table_id, g, idx, "pontoon", "{}", version + 1, None, [transfer], kind
            ),
            ok,
            InsufficientChips,
        ):
            m.add(src, -amount)
            m.add(dst, amount)
            m.open_tables[idx] = (table_id, g, version + 1)
        else:
            rec = await store.get_table(table_id)
            assert rec is not None and rec.version == version  # refused: snapshot untouched


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=OPS)
def test_random_ledger_activity_keeps_the_audit_clean(
    ops: list[tuple[object, ...]], backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql":
        asyncio.run(_run(ops, new_schema_url(request.getfixturevalue("pg_database"))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_run(ops, Path(tmp) / "bank.sqlite3"))
