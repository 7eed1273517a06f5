#!/usr/bin/env python
"""Card pictures and charts: how long they take.

1. Drawing the 53 card pictures (52 faces and the back) with Pillow, uncached.
2. Uploading them as application emojis against the fake Discord on 127.0.0.1 on a
   first start (53 uploads), then a second start (it must find all 53: 0 uploads); the
   same code the bot runs (``cogs.card_emojis.sync_card_emojis``) through real discord.py.
3. ``/stats`` for a year of a member's history: the ledger query (``chip_history`` on a
   SQLite store holding ``--per-day`` changes a day for 365 days) and the chart
   (``cogs.stats.stats_png``, matplotlib Agg), median of ``--repeat`` renders after one
   warm-up (the first render also imports matplotlib; printed apart). Target ≤ 200 ms.

    python scripts/bench_pictures.py [--per-day 20] [--repeat 5] [--locale de]

Prints one line per measurement and a JSON summary last. Exit code 1 if the second
start uploaded anything or the first did not upload all 53.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import discord  # noqa: E402

from bot import cards_art  # noqa: E402
from bot.endpoints import configure_endpoints  # noqa: E402
from bot.storage import Store, house_account, member_account  # noqa: E402
from cogs.card_emojis import sync_card_emojis  # noqa: E402
from cogs.stats import stats_png  # noqa: E402
from localdiscord import FakeDiscord  # noqa: E402

GUILD, USER = 111, 1001


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


async def drawn(pictures: dict[str, bytes]) -> dict[str, bytes]:
    return pictures


async def bench_upload(pictures: dict[str, bytes]) -> dict[str, float | int]:
    fake = FakeDiscord()
    await fake.start()
    try:
        configure_endpoints(fake.api_base, None)
        out: dict[str, float | int] = {}
        for start in ("first", "second"):
            client = discord.Client(intents=discord.Intents.none())
            try:
                began = time.perf_counter()
                await client.login("fake-token")
                result = await sync_card_emojis(client, lambda: drawn(pictures))
                out[f"{start}_start_ms"] = ms(time.perf_counter() - began)
                out[f"{start}_start_uploads"] = len(result.uploaded)
                out[f"{start}_start_found"] = result.found
            finally:
                await client.close()
        out["fake_uploads_total"] = fake.app_emojis.uploads
        return out
    finally:
        await fake.stop()


async def fill_year(path: Path, per_day: int) -> int:
    """A store whose member has ``per_day`` chip changes a day for a year (raw rows: the
    ledger's own writes would take minutes), and the balance they add up to."""
    store = await Store.open(path)
    try:
        await store.ensure_member(GUILD, USER, 1000)
    finally:
        await store.close()
    me, house = member_account(GUILD, USER), house_account(GUILD)
    start = datetime.now(UTC) - timedelta(days=365)
    balance, rows = 1000, []
    for i in range(365 * per_day):
        delta = ((i * 7919) % 61) - 29
        if balance + delta < 0:
            delta = -delta
        balance += delta
        ts = (start + timedelta(days=i / per_day)).isoformat()
        src, dst = (house, me) if delta > 0 else (me, house)
        rows.append((ts, GUILD, "transfer", src, dst, abs(delta) or 1, "bench"))
        if delta == 0:
            balance += 1
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "INSERT OR IGNORE INTO accounts (id, kind, guild_id, balance, created_at) "
            "VALUES (?, 'house', ?, 0, ?)",
            (house, GUILD, start.isoformat()),
        )
        con.executemany(
            "INSERT INTO transfers (ts, guild_id, kind, src, dst, amount, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        con.execute("UPDATE accounts SET balance = ? WHERE id = ?", (balance, me))
        con.execute("UPDATE accounts SET balance = ? WHERE id = ?", (1000 - balance, house))
    con.close()
    return len(rows)


async def bench_chart(per_day: int, repeat: int, locale: str) -> dict[str, float | int]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        changes = await fill_year(path, per_day)
        store = await Store.open(path)
        try:
            began = time.perf_counter()
            history = await store.chip_history(member_account(GUILD, USER))
            query = time.perf_counter() - began
        finally:
            await store.close()
    began = time.perf_counter()
    stats_png(history, locale)
    first = time.perf_counter() - began
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        png = stats_png(history, locale)
        times.append(time.perf_counter() - began)
    return {
        "ledger_changes": changes,
        "points": len(history.points),
        "query_ms": ms(query),
        "first_render_ms_incl_import": ms(first),
        "render_ms_median": ms(statistics.median(times)),
        "render_ms_min": ms(min(times)),
        "png_bytes": len(png),
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-day", type=int, default=20, help="ledger changes a day")
    parser.add_argument("--repeat", type=int, default=5, help="chart renders to time")
    parser.add_argument("--locale", default="de", help="the reader's language")
    args = parser.parse_args()

    began = time.perf_counter()
    pictures = dict(cards_art.draw_all())
    draw_ms = ms(time.perf_counter() - began)
    biggest = max(len(b) for b in pictures.values())
    print(f"draw 53 card pictures: {draw_ms} ms (largest {biggest} bytes)")

    upload = await bench_upload(pictures)
    print(
        f"first start: {upload['first_start_uploads']} uploads in {upload['first_start_ms']} ms; "
        f"second start: {upload['second_start_found']} found, "
        f"{upload['second_start_uploads']} uploads in {upload['second_start_ms']} ms"
    )
    chart = await bench_chart(args.per_day, args.repeat, args.locale)
    print(
        f"/stats for a year ({chart['ledger_changes']} ledger changes): query "
        f"{chart['query_ms']} ms, chart {chart['render_ms_median']} ms median "
        f"(min {chart['render_ms_min']}, first {chart['first_render_ms_incl_import']} with "
        f"the matplotlib import), target 200 ms"
    )
    print(json.dumps({"draw_ms": draw_ms, "largest_png": biggest, **upload, **chart}))
    ok = upload["first_start_uploads"] == 53 and upload["second_start_uploads"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
