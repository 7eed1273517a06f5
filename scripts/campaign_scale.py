"""Scale campaign: several bot processes x several shards on one PostgreSQL ledger, one
process SIGKILLed mid-round and restarted; chips conserved, the audit passes.

Runs the real bot (``python -m bot``) against the fake Discord on 127.0.0.1 with
``--shards`` shards split between ``--processes`` processes (default: 2 x 2, the
end-to-end test this campaign grew out of): a guild per shard, each with a Pontoon round
(three players) and a Punto Banco coup (two bets). A further process asking for shards
the running ones hold must be refused; then the last process is SIGKILLed with its
rounds dealt and bet, the others play theirs out, it is restarted (it waits out its dead
predecessor's shard leases and reloads only its own tables) and its rounds are played
out. Then every coup must be dealt, ``bot.audit`` must pass and every guild must hold
exactly its five members' starting chips. Repeats ``--runs`` times, each on a new
database of its own (created on ``--postgres`` and dropped afterwards).

Prints a JSON report; exit 1 on any failure. ``tests/e2e/test_scale_e2e.py`` runs the
same scenario shorter (2 processes x 1 shard) in the test suite.

    python scripts/campaign_scale.py                      # 2 processes x 2 shards, once
    python scripts/campaign_scale.py --shards 6 --processes 3 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import sys
import tempfile
import time
import traceback
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from localdiscord import FakeDiscord, RateLimits  # noqa: E402
from tests.e2e.conftest import BOT_ARGS, BotProcess, launch  # noqa: E402
from tests.e2e.scale_scenario import play_scale, split_shards  # noqa: E402

DEFAULT_PG = os.environ.get("PONTOON_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@contextlib.asynccontextmanager
async def scratch_database(server: str) -> AsyncIterator[str]:
    """A new empty database on the server for one run; dropped afterwards."""
    import asyncpg

    name = f"pontoon_scale_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield urlunsplit(urlsplit(server)._replace(path="/" + name))
    finally:
        admin = await asyncpg.connect(server, timeout=10)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def one_run(args: argparse.Namespace, run: int, workdir: Path) -> dict[str, Any]:
    where = workdir / f"run-{run}"
    where.mkdir(parents=True, exist_ok=True)
    layout = split_shards(args.shards, args.processes)
    fake = FakeDiscord(shard_count=args.shards, rate_limits=RateLimits(scale=args.rate_scale))
    await fake.start()
    started: list[BotProcess] = []

    async def start(env: dict[str, str], shards: Sequence[int]) -> BotProcess:
        log = where / f"bot-{len(started)}-shards-{'-'.join(map(str, shards))}.log"
        handle = await launch(
            fake, BOT_ARGS, env, log, shards=shards, ready_timeout=60, hard_timeout=3600
        )
        started.append(handle)
        return handle

    began = time.monotonic()
    out: dict[str, Any] = {"run": run, "layout": [list(ids) for ids in layout], "ok": False}
    try:
        async with scratch_database(args.postgres) as url:
            report = await play_scale(
                fake,
                start,
                url,
                where,
                layout,
                betting_seconds=args.betting_seconds,
                lease_seconds=args.lease_seconds,
            )
        out.update(report.as_json(), ok=True)
    except BaseException as exc:  # pytest.fail raises an OutcomeException
        if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
            raise
        out["error"] = f"{type(exc).__name__}: {exc}"[:4000]
        out["traceback"] = traceback.format_exc()[-4000:]
        out["logs"] = [str(h.log_path) for h in started]
    finally:
        for handle in started:
            await handle.stop()
        await fake.stop()
        out["wall_seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps({"run": run, "ok": out["ok"], "seconds": out["wall_seconds"]}), flush=True)
    return out


async def main_async(args: argparse.Namespace) -> int:
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="campaign-scale-"))
    runs = [await one_run(args, i, workdir) for i in range(args.runs)]
    failed = [r for r in runs if not r["ok"]]
    print(
        json.dumps(
            {
                "shards": args.shards,
                "processes": args.processes,
                "runs": len(runs),
                "failed": len(failed),
                "workdir": str(workdir),
                "results": runs,
            },
            indent=2,
        )
    )
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--postgres", default=DEFAULT_PG, help="PostgreSQL server URL")
    parser.add_argument("--shards", type=int, default=4, help="shards (one guild each)")
    parser.add_argument("--processes", type=int, default=2, help="bot processes sharing them")
    parser.add_argument("--runs", type=int, default=1, help="times to play the scenario")
    parser.add_argument("--betting-seconds", type=int, default=12, help="Punto Banco window")
    parser.add_argument("--lease-seconds", type=int, default=3, help="SHARD_LEASE_SECONDS")
    parser.add_argument(
        "--rate-scale",
        type=float,
        default=1.0,
        help="the fake's rate-limit windows (1: Discord's real 5 s / 1 s windows)",
    )
    parser.add_argument("--workdir", default=None, help="bot logs (default: a temporary dir)")
    args = parser.parse_args(argv)
    if args.processes < 2 or args.shards < args.processes:
        parser.error("need --processes >= 2 and --shards >= --processes")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
