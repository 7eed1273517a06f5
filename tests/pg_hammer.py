"""One of several processes hammering one member's chips on PostgreSQL at once (run by
tests/bot/test_storage_pg_processes.py; not a test itself).

``python -m tests.pg_hammer URL SEED OPS``: prints "ready" once connected, waits for a
line on stdin (so all processes start together), then makes OPS random moves between member ``member:1:7`` and the house,
and bumps the version of table ``t`` now and then, and prints one JSON line: what it
believes it did (moves that committed, refusals, writes given up after the store's
retries, table versions it wrote).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from bot.storage import (
    InsufficientChips,
    Move,
    StaleVersion,
    StorageUnavailable,
    house_account,
    member_account,
)
from bot.storage.pg import PgStore

GUILD, USER, CHANNEL = 1, 7, 10
TABLE = "t"


async def main(url: str, seed: int, ops: int) -> dict[str, object]:
    rng = random.Random(seed)
    store = await PgStore.connect(url)
    member, house = member_account(GUILD, USER), house_account(GUILD)
    net = 0  # chips this process moved into the member's account (negative: out)
    moves = refused = stale = gave_up = 0
    versions: list[int] = []
    print("ready", flush=True)  # connected: the test says "go" once every process is
    sys.stdin.readline()
    try:
        for _ in range(ops):
            roll = rng.random()
            if roll < 0.15:
                rec = await store.get_table(TABLE)
                assert rec is not None
                try:
                    await store.save_table(
                        TABLE, GUILD, CHANNEL, "pontoon", "{}", rec.version + 1, None, [], "bump"
                    )
                    versions.append(rec.version + 1)
                except StaleVersion:
                    stale += 1
                except StorageUnavailable:  # retries used up: refused, nothing written
                    gave_up += 1
                continue
            amount = rng.randint(1, 60)
            out = roll < 0.6
            src, dst = (member, house) if out else (house, member)
            try:
                await store.apply_transfers([Move(src, dst, amount, "hammer")])
            except InsufficientChips:
                refused += 1
                continue
            except StorageUnavailable:  # retries used up: refused, nothing written
                gave_up += 1
                continue
            moves += 1
            net += -amount if out else amount
    finally:
        await store.close()
    return {
        "net": net,
        "moves": moves,
        "refused": refused,
        "stale": stale,
        "gave_up": gave_up,
        "versions": versions,
        "retries": store.retries,
    }


if __name__ == "__main__":
    url, seed, ops = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(asyncio.run(main(url, seed, ops))), flush=True)
