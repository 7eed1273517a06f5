"""Two OS processes hammer one member's chips on PostgreSQL at the same moment: every
chip is accounted for (nothing lost or doubled), no balance goes below zero, and each
table version is written exactly once."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from bot.audit import audit
from bot.storage import member_account
from bot.storage.pg import PgStore
from tests.pg_hammer import CHANNEL, GUILD, TABLE, USER
from tests.storage_backends import raw_sql

REPO = Path(__file__).resolve().parents[2]
START = 300
OPS = 300


async def test_two_processes_hammering_one_member_lose_and_double_nothing(pg_url: str) -> None:
    store = await PgStore.connect(pg_url)
    try:
        assert await store.ensure_member(GUILD, USER, START) == START
        await store.save_table(TABLE, GUILD, CHANNEL, "pontoon", "{}", 1, None, [], "open")
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        procs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.pg_hammer",
                pg_url,
                str(seed),
                str(OPS),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd=str(REPO),
            )
            for seed in (1, 2)
        ]
        for p in procs:  # each connected and waiting for "go"
            assert p.stdout is not None
            assert await asyncio.wait_for(p.stdout.readline(), 60) == b"ready\n"
        for p in procs:
            assert p.stdin is not None
            p.stdin.write(b"go\n")
            await p.stdin.drain()
        outputs = [await asyncio.wait_for(p.communicate(), 120) for p in procs]
        for p, (_out, err) in zip(procs, outputs, strict=True):
            assert p.returncode == 0, err.decode()[-3000:]
        results = [json.loads(out.decode().strip().splitlines()[-1]) for out, _ in outputs]

        balance = await store.member_balance(GUILD, USER)
        assert balance == START + sum(r["net"] for r in results), results
        assert balance >= 0
        # The member ran dry sometimes, so the refusals were exercised too.
        assert sum(r["refused"] for r in results) > 0, results
        # A write that used up its serialization retries is refused (the member is told to
        # try again) and wrote nothing: the ledger and version checks below prove it. It
        # must stay rare, or the retries are not doing their job.
        assert sum(r["gave_up"] for r in results) <= 2 * OPS // 20, results
        ledger_rows = await raw_sql(store, "SELECT COUNT(*) FROM transfers WHERE reason = 'hammer'")
        assert ledger_rows[0][0] == sum(r["moves"] for r in results)

        written = sorted(v for r in results for v in r["versions"])
        rec = await store.get_table(TABLE)
        assert rec is not None
        assert written == list(range(2, rec.version + 1)), "a version written twice or lost"
        report = await audit(store)
        assert report.ok, report.summary()
        assert report.guilds[GUILD].total == report.guilds[GUILD].granted == START
        assert await store.balance(member_account(GUILD, USER)) == balance
    finally:
        await store.close()
