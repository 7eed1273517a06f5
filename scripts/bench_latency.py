#!/usr/bin/env python
"""Interaction-to-callback latency of a bot, measured against the fake Discord.

Starts the fake Discord on 127.0.0.1 (a guild with members player0..playerN, player0 with
Manage Server), launches the bot as its own process pointed at it,
fires a burst of slash commands (``--n`` in total, ``--concurrency`` in flight, spread over
``--members`` members) and reports, as JSON, the latency from the INTERACTION_CREATE being
written to the bot's socket to the bot's callback request arriving (p50/p90/p99/max), plus
the time until the answer was complete (for deferred answers: the "thinking" message was
replaced). Then it does the same for a baseline (by default the minimal bot's
``/demo ping``, which answers at once) in a fresh fake, so ``ratio`` shows the bot's own
overhead over the discord.py + fake floor.

    python scripts/bench_latency.py                                  # minimal bot, /demo hello
    python scripts/bench_latency.py --bot-cmd "python -m bot" --command "pontoon balance" \
        --env POSTGRES_URL=... --n 500 --concurrency 20

Exit code 1 if any interaction got no answer or answered after Discord's 3 s deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from localdiscord import FakeDiscord, FakeMember, InteractionResult  # noqa: E402
from localdiscord.server import die_with_parent  # noqa: E402

MINIMAL_BOT = f"{shlex.quote(sys.executable)} -m tests.e2e.minimal_bot"


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile of ``values`` (which must not be empty)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.4999)))
    return ordered[rank - 1]


def summarize(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None, "mean_ms": None}
    ms = [v * 1000 for v in values]
    return {
        "p50_ms": round(percentile(ms, 50), 2),
        "p90_ms": round(percentile(ms, 90), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }


async def run_one(
    *,
    bot_cmd: str,
    command: str,
    options: dict[str, Any],
    n: int,
    concurrency: int,
    members: int,
    warmup: int,
    env: dict[str, str],
    ready_timeout: float,
    answer_timeout: float,
    log_dir: Path,
    label: str,
) -> dict[str, Any]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Bench")
    channel = fake.add_text_channel(guild, "bench")
    people: list[FakeMember] = [
        fake.add_member(guild, f"player{i}", manage_guild=(i == 0)) for i in range(members)
    ]
    argv = shlex.split(bot_cmd)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    log_path = log_dir / f"{label}.log"
    pythonpath = os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p)
    full_env = {**os.environ, "PYTHONPATH": pythonpath, **fake.bot_env(), **env}
    with log_path.open("wb") as log_file:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file,
            stderr=asyncio.subprocess.STDOUT,
            env=full_env,
            cwd=str(REPO_ROOT),
            preexec_fn=die_with_parent,
        )
        try:
            try:
                await fake.wait_for_bot_ready(ready_timeout, commands=True)
            except TimeoutError:
                raise SystemExit(
                    f"{label}: bot not ready within {ready_timeout}s; log {log_path}:\n"
                    + log_path.read_text(errors="replace")[-3000:]
                ) from None

            by_name = {f"@{p.name}": p for p in people}

            async def fire(i: int) -> InteractionResult | Exception:
                member = people[i % len(people)]
                opts = {
                    k: by_name.get(v, v) if isinstance(v, str) else v for k, v in options.items()
                }
                try:
                    r = await fake.slash(
                        member, channel, command, options=opts, timeout=answer_timeout
                    )
                    if r.callback_type == 5:
                        await r.wait_message(answer_timeout)
                    return r
                except Exception as exc:
                    return exc

            for i in range(warmup):
                await fire(i)

            sem = asyncio.Semaphore(concurrency)
            done_at: dict[int, float] = {}

            async def limited(i: int) -> InteractionResult | Exception:
                async with sem:
                    r = await fire(i)
                    done_at[i] = time.perf_counter()
                    return r

            started = time.perf_counter()
            results = await asyncio.gather(*(limited(i) for i in range(n)))
            wall = time.perf_counter() - started
        finally:
            if proc.returncode is None:
                proc.terminate()
                try:
                    await asyncio.wait_for(proc.wait(), 5)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
            await fake.stop()

    ok = [r for r in results if isinstance(r, InteractionResult) and r.callback_status == 200]
    errors = [r for r in results if isinstance(r, Exception)]
    late = [r for r in results if isinstance(r, InteractionResult) and r.late]
    latencies = [r.latency for r in ok if r.latency is not None]
    complete: list[float] = []
    for i, r in enumerate(results):
        if isinstance(r, InteractionResult) and r.sent_at is not None and r in ok:
            complete.append(done_at[i] - r.sent_at)
    callback_types: dict[str, int] = {}
    for r in ok:
        callback_types[str(r.callback_type)] = callback_types.get(str(r.callback_type), 0) + 1
    return {
        "bot_cmd": bot_cmd,
        "command": command,
        "options": options,
        "n": n,
        "answered": len(ok),
        "errors": len(errors),
        "late": len(late),
        "error_samples": [repr(e)[:300] for e in errors[:3]],
        "callback_types": callback_types,
        "callback_latency": summarize(latencies),
        "complete_latency": summarize(complete),
        "throughput_per_s": round(n / wall, 1) if wall > 0 else None,
        "log": str(log_path),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return round(a / b, 2)


async def main_async(args: argparse.Namespace) -> int:
    env = dict(kv.split("=", 1) for kv in args.env)
    log_dir = Path(args.log_dir or tempfile.mkdtemp(prefix="bench-latency-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    common = {
        "n": args.n,
        "concurrency": args.concurrency,
        "members": args.members,
        "warmup": args.warmup,
        "ready_timeout": args.ready_timeout,
        "answer_timeout": args.answer_timeout,
        "log_dir": log_dir,
    }
    target = await run_one(
        bot_cmd=args.bot_cmd,
        command=args.command,
        options=json.loads(args.options),
        env=env,
        label="target",
        **common,
    )
    report: dict[str, Any] = {"n": args.n, "concurrency": args.concurrency, "target": target}
    failed = target["errors"] > 0 or target["late"] > 0
    if not args.no_baseline:
        baseline = await run_one(
            bot_cmd=args.baseline_cmd,
            command=args.baseline_command,
            options={},
            env={},
            label="baseline",
            **common,
        )
        report["baseline"] = baseline
        report["ratio"] = {
            k: ratio(target["callback_latency"][k], baseline["callback_latency"][k])
            for k in ("p50_ms", "p99_ms", "max_ms")
        }
    print(json.dumps(report, indent=2))
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot-cmd", default=MINIMAL_BOT, help="command line of the bot to measure")
    parser.add_argument(
        "--command", default="demo hello", help='slash command path, e.g. "pontoon balance"'
    )
    parser.add_argument(
        "--options",
        default="{}",
        help='slash command options as a JSON object; "@player3" means that member (user options)',
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE", help="extra env for the bot"
    )
    parser.add_argument("--baseline-cmd", default=MINIMAL_BOT)
    parser.add_argument("--baseline-command", default="demo ping")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--n", type=int, default=200, help="interactions per run")
    parser.add_argument("--concurrency", type=int, default=10, help="interactions in flight")
    parser.add_argument("--members", type=int, default=20, help="distinct members issuing them")
    parser.add_argument("--warmup", type=int, default=5, help="unmeasured interactions first")
    parser.add_argument("--ready-timeout", type=float, default=30.0)
    parser.add_argument("--answer-timeout", type=float, default=10.0)
    parser.add_argument("--log-dir", default=None, help="where bot logs go (default: a temp dir)")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main_async(args))
    return 130


if __name__ == "__main__":
    raise SystemExit(main())
