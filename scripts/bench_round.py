#!/usr/bin/env python
"""Pontoon rounds played as fast as members can click, against the fake Discord.

Starts the fake Discord on 127.0.0.1, launches the real bot (``python -m bot``) as its own
process, opens ``--tables`` tables of 4 seats (player-banked: the opener cuts for the bank)
and plays rounds: every member acts as soon as the table message shows that it is their
move (bets by **Same bet** when the table has it and they bet before, else by the Bet
form; players stick when they may, else twist, sometimes buy; the banker stays on 17 or
more). It does this twice, with Discord's rate limits enforced at their real windows and
without them, and prints JSON for each run and the ratio:

- ``channel_requests_per_round``  message creates + edits in the tables' channels (DMs not
  counted), per round;
- ``rest_requests_per_click``     every REST request the bot made (interaction callbacks,
  followups, DMs, channel posts and edits, lookups), per member interaction;
- ``rate_limited_429s``           429s the bot received from the limits;
- ``click_to_visible_ms``         from a click that changes the table to the table message
  showing it (p50/p95/max);
- ``rounds_per_minute``, ``bot_cpu_ms_per_click`` (user+system CPU of the bot process),
  ``clicks_per_bot_cpu_second`` (the saturation rate of one process on one core).

    python scripts/bench_round.py                       # 1 table, 20 rounds, limits on and off
    python scripts/bench_round.py --tables 8 --rounds 10 --only off   # saturation
    python scripts/bench_round.py --cards button        # tables opened with cards:button
    python scripts/bench_round.py --bot-dir /path/to/other/checkout  # measure other code
    git worktree add ../pontoon-old f3d7cce    # the older code to compare with, beside this one
    python scripts/bench_round.py --mode session --compare-dir ../pontoon-old --repeat 3
        # a long Join/Leave session: bot CPU per click at tables with a short history
        # ("early") and at tables with --late-after clicks behind them ("late"), the two
        # measured in alternated blocks in one process; this code and the older
        # checkout alternated in one run
    python scripts/bench_round.py --cards button --compare-dir ../pontoon-old --repeat 3
        # rounds of this code and the older checkout alternated in one run (limits off):
        # REST requests and bot CPU per click of each
    python scripts/bench_round.py --mode punto-banco --compare-dir ../pontoon-old
        # Punto Banco: REST requests per bet (form click + submit) and per /baccarat bet

Targets: <= 3 channel requests per round, <= 1.3 REST requests per click, 0
429s, p95 click-to-visible <= 500 ms under the limits, rounds/min with limits >= 0.9x
without, >= 250 clicks per bot CPU second; in ``--mode session`` bot CPU per
click <= 0.9x that of f3d7cce and late/early <= 1.1; in ``--mode punto-banco`` one
request per interaction.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from bot.cards_art import all_codes, emoji_name  # noqa: E402
from localdiscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    RateLimits,
)
from localdiscord.app_emojis import AppEmoji  # noqa: E402
from localdiscord.models import MessageVersion  # noqa: E402
from localdiscord.server import die_with_parent  # noqa: E402

TABLE_BUTTON = "Show my cards"
# the banker's buttons (labels differ between versions of the bot)
BANKER_STAY = ("Banker: stay", "Stick")
BANKER_TWIST = ("Banker: twist", "Twist")
STALL_SECONDS = 15.0
# the table message's header (a layout's first text display): whose move it is, the banker
TURN_RE = re.compile(r"Turn: \*\*([^*]+)\*\*")
BANKER_RE = re.compile(r"Banker: \*\*([^*]+)\*\*")


# Reading a Pontoon table message (a Components V2 layout: the buttons sit in action rows
# nested in its container). scripts/fault_campaign.py reads tables with these too.


def table_version(msg: FakeMessage | MessageVersion) -> int | None:
    """The table's state version, from its buttons' ``pt:<table>:<action>:<version>``
    custom ids (None when the message has no table button)."""
    for b in msg.buttons():
        if b.custom_id and b.custom_id.startswith("pt:"):
            return int(b.custom_id.rsplit(":", 1)[1])
    return None


def enabled_ids(msg: FakeMessage) -> dict[str, str]:
    """Label -> custom id of every button of the message that can be clicked."""
    return {str(b.label): b.custom_id for b in msg.buttons() if not b.disabled and b.custom_id}


def turn_of(text: str) -> str | None:
    """Whose move the table's text names ("the banker" on the banker's turn), if any."""
    m = TURN_RE.search(text)
    return m.group(1) if m else None


def banker_of(text: str) -> str | None:
    """The banker the table's text names, if any."""
    m = BANKER_RE.search(text)
    return m.group(1) if m else None


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.4999)))
    return ordered[rank - 1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class Stats:
    clicks: int = 0
    visible: list[float] = field(default_factory=list)
    rounds: int = 0
    stalls: int = 0


@dataclass
class Seat:
    fake: FakeDiscord
    channel: FakeChannel
    members: list[FakeMember]
    stats: Stats
    rng: random.Random
    bet_before: set[int] = field(default_factory=set)
    bet_this_round: set[int] = field(default_factory=set)
    # cards:button tables: a player looks with Show my cards when their turn comes and
    # after buying a card (there is no DM to read)
    look: bool = False
    looked: set[int] = field(default_factory=set)

    def message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(self.channel, TABLE_BUTTON)

    def version(self) -> int:
        version = table_version(self.message())
        return -1 if version is None else version

    def text(self) -> str:
        """The table message's texts (a layout's text displays, or an embed's)."""
        return self.message().text

    def enabled(self) -> set[str]:
        return set(enabled_ids(self.message()))

    def by_name(self, name: str) -> FakeMember | None:
        return next((m for m in self.members if m.user.name == name), None)

    async def act(self, member: FakeMember, label: str) -> InteractionResult | None:
        """Click; for a change, wait until the table message shows it. None: the button
        is not there or disabled yet (the table message is behind): look again."""
        before = self.version()
        t0 = time.perf_counter()
        try:
            r = await self.fake.click(member, self.message(), label=label, timeout=10)
        except (PermissionError, LookupError) as exc:
            if os.environ.get("BENCH_DEBUG"):
                print("CLICK", label, exc, file=sys.stderr)
            await asyncio.sleep(0.02)
            return None
        self.stats.clicks += 1
        if r.callback_type == 9 or r.ephemeral or r.callback_type == 4:
            return r
        await self._visible(before, t0)
        return r

    async def form(self, member: FakeMember, label: str, amount: int) -> bool:
        r = await self.act(member, label)
        if r is None or r.modal is None:
            return r is not None
        before = self.version()
        t0 = time.perf_counter()
        sub = await self.fake.submit_modal(
            member, None, r.modal.custom_id, {"amount": str(amount)}, timeout=10
        )
        self.stats.clicks += 1
        if os.environ.get("BENCH_DEBUG"):
            print("SUBMIT", sub.callback_type, sub.all_text[:200], file=sys.stderr)
        if sub.callback_type in (6, 7):
            await self._visible(before, t0)
        return True

    async def _visible(self, before: int, t0: float) -> None:
        try:
            await self.fake.wait_until(lambda: self.version() != before, STALL_SECONDS)
        except TimeoutError:
            self.stats.stalls += 1
            return
        self.stats.visible.append(time.perf_counter() - t0)

    async def play_round(self) -> None:
        text = self.text()
        banker_name = banker_of(text)
        dealer = self.by_name(banker_name) if banker_name else self.members[0]
        round_before = self._round_no()
        self.bet_this_round.clear()
        self.looked.clear()
        for _ in range(500):
            if await self.act(dealer or self.members[0], "Deal") is not None:
                break
        for _ in range(200):
            text = self.text()
            enabled = self.enabled()
            if self._round_no() != round_before and "Deal" in enabled:
                self.stats.rounds += 1
                return
            banker_name = banker_of(text)
            banker = self.by_name(banker_name) if banker_name else None
            turn = turn_of(text)
            if "Bet" in enabled and not self._all_bet(banker):
                await self._bets(banker)
                continue
            if turn == "the banker" and banker is not None:
                total = _banker_total(text)
                stay = next((x for x in BANKER_STAY if x in enabled), None)
                twist = next((x for x in BANKER_TWIST if x in enabled), None)
                label = stay if (total >= 17 or twist is None) else twist
                if label:
                    await self.act(banker, label)
                continue
            if turn is not None:
                member = self.by_name(turn)
                if member is None:
                    break
                if self.look and member.user.id not in self.looked:
                    if await self.act(member, TABLE_BUTTON) is not None:
                        self.looked.add(member.user.id)
                    continue
                if "Declare" in enabled:
                    await self.act(member, "Declare")
                elif "Buy" in enabled and self.rng.random() < 0.15:
                    if await self.form(member, "Buy", 1):
                        self.looked.discard(member.user.id)  # look at the bought card
                elif "Stick" in enabled:
                    await self.act(member, "Stick")
                else:
                    await self.act(member, "Twist")
                continue
            await asyncio.sleep(0.05)  # nothing to do: a result or a redraw is on its way
        self.stats.stalls += 1
        if os.environ.get("BENCH_DEBUG"):
            print("STALL", self.enabled(), self.text()[:800], file=sys.stderr)

    async def _bets(self, banker: FakeMember | None) -> None:
        for m in self.members:
            if m is banker or "Bet" not in self.enabled() or m.user.id in self.bet_this_round:
                continue
            if m.user.id in self.bet_before and "Same bet" in self.enabled():
                done = await self.act(m, "Same bet") is not None
            else:
                done = await self.form(m, "Bet", 1)
                self.bet_before.add(m.user.id)
            if done:
                self.bet_this_round.add(m.user.id)

    def _all_bet(self, banker: FakeMember | None) -> bool:
        return all(m is banker or m.user.id in self.bet_this_round for m in self.members)

    def _round_no(self) -> int:
        m = re.search(r"round (\d+)", self.text())
        return int(m.group(1)) if m else -1


async def quiet(fake: FakeDiscord, grace: float, most: float = 30.0) -> None:
    """Wait until the bot made no request for ``grace`` seconds (at most ``most`` s)."""
    seen, last = len(fake.requests), time.perf_counter()
    end = last + most
    while time.perf_counter() < end:
        await asyncio.sleep(0.05)
        if len(fake.requests) != seen:
            seen, last = len(fake.requests), time.perf_counter()
        elif time.perf_counter() - last >= grace:
            return


def _banker_total(text: str) -> int:
    part = text.split("Banker ")[-1]
    m = re.findall(r"= (\d+)", part)
    return int(m[-1]) if m else 0


async def run(args: argparse.Namespace, limits: bool) -> dict[str, Any]:
    fake = FakeDiscord(rate_limits=RateLimits(enabled=limits, scale=1.0))
    # the application already holds its card pictures, as on every start but the first:
    # the bot lists them once and uploads none (scripts/bench_pictures.py times the first)
    fake.app_emojis.emojis = [
        AppEmoji(9_000 + i, emoji_name(code), b"") for i, code in enumerate(all_codes())
    ]
    await fake.start()
    proc: asyncio.subprocess.Process | None = None
    tmp = tempfile.TemporaryDirectory(prefix="bench-round-")
    try:
        guild = fake.add_guild("Casino")
        seats: list[Seat] = []
        for i in range(args.tables):
            channel = fake.add_text_channel(guild, f"pontoon-{i}")
            members = [fake.add_member(guild, f"p{i}x{j}", manage_guild=j == 0) for j in range(4)]
            seats.append(
                Seat(
                    fake,
                    channel,
                    members,
                    Stats(),
                    random.Random(args.seed + i),
                    look=args.cards == "button",
                )
            )
        proc = await launch(fake, args, args.bot_dir, tmp.name)
        log_path = Path(tmp.name) / "bot.log"

        async def open_table(seat: Seat) -> None:
            await fake.slash(
                seat.members[0],
                seat.channel,
                "pontoon",
                "start",
                {"min_bet": 1} | ({"cards": args.cards} if args.cards != "dm" else {}),
            )
            await fake.wait_until(
                lambda: any(
                    m.buttons() for m in fake.channel_messages(seat.channel) if not m.ephemeral
                ),
                20,
            )
            for m in seat.members[1:]:
                await seat.act(m, "Join")

        await asyncio.gather(*(open_table(s) for s in seats))
        await asyncio.sleep(6 if limits else 0.5)  # let the opening's buckets refill
        for s in seats:
            s.stats = Stats()
        req0 = len(fake.requests)
        limited0 = len(fake.rate_limited)
        cpu0 = cpu_seconds(proc.pid)
        t0 = time.perf_counter()

        async def play(seat: Seat) -> None:
            for _ in range(args.rounds):
                await seat.play_round()

        await asyncio.gather(*(play(s) for s in seats))
        elapsed = time.perf_counter() - t0
        # result posts and DMs are still on their way (under the limits, at this
        # superhuman pace, one post a second per channel): count them all
        rounds_played = sum(s.stats.rounds for s in seats)
        await quiet(fake, 1.0 if not limits else 6.0, most=30.0 + 1.5 * rounds_played)
        cpu = cpu_seconds(proc.pid) - cpu0
        requests = fake.requests[req0:]
        if args.show_channel:
            for m in fake.channel_messages(seats[0].channel):
                print(f"--- {m.id} edits={m.edit_count}\n{m.text[:600]}", file=sys.stderr)
            print(log_path.read_text()[-5000:], file=sys.stderr)
        channel_ids = {s.channel.id for s in seats}
        chan_re = re.compile(r"/channels/(\d+)/messages(/\d+)?")

        def is_channel_write(method: str, path: str) -> bool:
            m = chan_re.fullmatch(path)
            return (
                m is not None
                and int(m.group(1)) in channel_ids
                and ((method == "POST" and m.group(2) is None) or (method == "PATCH"))
            )

        channel_writes = sum(1 for r in requests if is_channel_write(r.method, r.path))
        clicks = sum(s.stats.clicks for s in seats)
        rounds = sum(s.stats.rounds for s in seats)
        visible = [v for s in seats for v in s.stats.visible]
        dm_ids = {ch.id for ch in fake.dm_channels.values()}
        dms = sum(
            1
            for r in requests
            if (m := chan_re.fullmatch(r.path)) is not None
            and r.method == "POST"
            and int(m.group(1)) in dm_ids
        )
        answers = sum(1 for r in requests if r.path.endswith("/callback"))
        by_kind: dict[str, int] = {}
        for r in requests:
            key = re.sub(r"/\d+", "/{id}", r.method + " " + r.path)
            key = re.sub(r"/interactions/\{id\}/[^/]+/", "/interactions/{id}/{token}/", key)
            key = re.sub(r"/webhooks/\{id\}/[^/]+", "/webhooks/{id}/{token}", key)
            by_kind[key] = by_kind.get(key, 0) + 1
        ms = [v * 1000 for v in visible]
        return {
            "limits": "on (real windows)" if limits else "off",
            "tables": args.tables,
            "rounds": rounds,
            "clicks": clicks,
            "seconds": round(elapsed, 2),
            "channel_requests_per_round": round(channel_writes / rounds, 2) if rounds else None,
            "cards": args.cards,
            "rest_requests_per_click": round(len(requests) / clicks, 3) if clicks else None,
            "requests_per_round": {
                "click_answers": round(answers / rounds, 2) if rounds else None,
                "dms": round(dms / rounds, 2) if rounds else None,
                "other": round((len(requests) - answers - dms) / rounds, 2) if rounds else None,
            },
            "rate_limited_429s": len(fake.rate_limited) - limited0,
            "click_to_visible_ms": {
                "p50": round(percentile(ms, 50), 1) if ms else None,
                "p95": round(percentile(ms, 95), 1) if ms else None,
                "max": round(max(ms), 1) if ms else None,
                "n": len(ms),
            },
            "rounds_per_minute": round(rounds / elapsed * 60, 1) if elapsed else None,
            "clicks_per_second": round(clicks / elapsed, 1) if elapsed else None,
            "bot_cpu_ms_per_click": round(cpu / clicks * 1000, 3) if clicks else None,
            "clicks_per_bot_cpu_second": round(clicks / cpu, 1) if cpu else None,
            "stalls": sum(s.stats.stalls for s in seats),
            "requests_by_route": dict(sorted(by_kind.items(), key=lambda kv: -kv[1])),
        }
    finally:
        await stop(proc)
        await fake.stop()
        tmp.cleanup()


async def launch(
    fake: FakeDiscord,
    args: argparse.Namespace,
    bot_dir: Path,
    tmp: str,
    extra_env: dict[str, str] | None = None,
) -> asyncio.subprocess.Process:
    """Start ``python -m bot`` from ``bot_dir`` against the fake and wait until it is ready."""
    env = dict(os.environ)
    env.update(fake.bot_env())
    env.update(
        {
            "DATABASE_PATH": str(Path(tmp) / "bench.sqlite3"),
            "PONTOON_BET_SECONDS": "600",
            "PONTOON_TURN_SECONDS": "600",
            "PONTOON_IDLE_MINUTES": "60",
            "PUNTO_BANCO_BETTING_SECONDS": "3600",
            # the same timers under their old names, for an older checkout (--compare-dir)
            "BET_TIMER_SECONDS": "600",
            "TURN_TIMER_SECONDS": "600",
            "IDLE_TABLE_MINUTES": "60",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(bot_dir),
        }
    )
    env.update(extra_env or {})
    log_file = (Path(tmp) / "bot.log").open("wb")
    proc = await asyncio.create_subprocess_exec(
        *args.bot_cmd.split(),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=log_file,
        stderr=asyncio.subprocess.STDOUT,
        env=env,
        cwd=str(bot_dir),
        preexec_fn=die_with_parent,
    )
    log_file.close()
    await fake.wait_for_bot_ready(60, commands=True)
    await asyncio.sleep(2.5)  # discord.py's on_ready comes 2 s after the guilds
    return proc


async def stop(proc: asyncio.subprocess.Process | None) -> None:
    if proc is not None and proc.returncode is None:
        proc.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 5)
        if proc.returncode is None:
            proc.kill()


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class JoinLeave:
    """Join/Leave sessions in one server of the fake: tables opened by one member each,
    and one other member at each clicking Join, then Leave, then Join again."""

    def __init__(self, fake: FakeDiscord, click_timeout: float = 10) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Casino")
        self.click_timeout = click_timeout
        self.done: dict[int, int] = {}  # clicks made at each table (by channel id)
        self._opened = 0

    async def open_tables(self, n: int) -> list[tuple[FakeChannel, FakeMember]]:
        """``n`` new tables (``/pontoon start`` in a channel each): (channel, clicker)."""
        fake, out = self.fake, []
        for _ in range(n):
            i, self._opened = self._opened, self._opened + 1
            channel = fake.add_text_channel(self.guild, f"pontoon-{i}")
            opener = fake.add_member(self.guild, f"o{i}")
            member = fake.add_member(self.guild, f"c{i}")
            await fake.slash(opener, channel, "pontoon", "start", {"min_bet": 1})
            await fake.wait_until(
                lambda ch=channel: any(  # type: ignore[misc]
                    m.has_button("Join") for m in fake.channel_messages(ch) if not m.ephemeral
                ),
                20,
            )
            out.append((channel, member))
        return out

    async def click(self, tables: list[tuple[FakeChannel, FakeMember]], n: int) -> None:
        """``n`` clicks at each of ``tables``, the tables at once."""
        await asyncio.gather(*(self._clicks(ch, m, n) for ch, m in tables))

    async def _clicks(self, channel: FakeChannel, member: FakeMember, n: int) -> None:
        for _ in range(n):
            k = self.done.get(channel.id, 0)
            label = "Join" if k % 2 == 0 else "Leave"
            msg = self.fake.latest_message_with_button(channel, label)
            await self.fake.click(member, msg, label=label, timeout=self.click_timeout)
            self.done[channel.id] = k + 1


async def session(args: argparse.Namespace, bot_dir: Path) -> dict[str, Any]:
    """A long session of Join/Leave clicks (no limits), one member clicking at each table.

    Does a click cost more on a table with a long history? ``--tables`` tables are
    filled with ``--late-after`` clicks each (their round's log as long as the bot keeps
    it); as many new tables are opened beside them; then both sets take ``--window``
    clicks each, in alternated blocks, and the bot's CPU over each block is added to
    its set. ``late_over_early`` compares the two sets at the same moment of the same
    process, so a busy machine or the process's age weighs on both alike.

    Whether the process itself grows: ``--tables`` tables opened at the start also take
    ``--window`` clicks before the filling (``process_young_cpu_ms_per_click``: compare
    it with ``early_cpu_ms_per_click``, which is measured later; these two are minutes
    apart, so a busy machine shows in them) and the bot's resident memory is read at
    the start and the end."""
    fake = FakeDiscord(rate_limits=RateLimits(enabled=False))
    await fake.start()
    proc: asyncio.subprocess.Process | None = None
    tmp = tempfile.TemporaryDirectory(prefix="bench-session-")
    try:
        members = JoinLeave(fake)
        proc = await launch(fake, args, bot_dir, tmp.name)
        pid = proc.pid

        async def block(at: list[tuple[FakeChannel, FakeMember]], n: int) -> float:
            """Bot CPU seconds over ``n`` clicks at each of the tables ``at``."""
            await quiet(fake, 0.3, most=10)
            cpu0 = cpu_seconds(pid)
            await members.click(at, n)
            await quiet(fake, 0.3, most=10)
            return cpu_seconds(pid) - cpu0

        rss_start = rss_mb(pid)
        young = await members.open_tables(args.tables)
        await block(young, 10)  # warm up
        young_cpu = await block(young, args.window)
        late_tables = await members.open_tables(args.tables)
        await block(late_tables, args.late_after)  # the round's log fills up
        early_tables = await members.open_tables(args.tables)
        await block(early_tables, 10)  # warm up, as the young tables
        size = max(1, min(args.block, args.window))
        early_cpu = late_cpu = 0.0
        left = args.window
        while left > 0:
            n = min(size, left)
            late_cpu += await block(late_tables, n)
            early_cpu += await block(early_tables, n)
            left -= n
        clicks = args.window * args.tables
        early, late = early_cpu / clicks * 1000, late_cpu / clicks * 1000
        young_ms = young_cpu / clicks * 1000
        return {
            "bot_dir": str(bot_dir),
            "tables": args.tables,
            "clicks_per_window": clicks,
            "late_table_clicks_before": args.late_after + 10,
            "early_cpu_ms_per_click": round(early, 3),
            "late_cpu_ms_per_click": round(late, 3),
            "late_over_early": round(late / early, 3),
            "process_young_cpu_ms_per_click": round(young_ms, 3),
            "bot_rss_mb_start_end": [round(rss_start, 1), round(rss_mb(pid), 1)],
        }
    finally:
        await stop(proc)
        await fake.stop()
        tmp.cleanup()


async def punto_banco(args: argparse.Namespace, bot_dir: Path) -> dict[str, Any]:
    """Punto Banco bets (no limits): REST requests per bet made with the table's buttons
    (the side's button opens the form, the form is submitted: two interactions) and per
    ``/baccarat bet``, counted until the bot has been quiet for a second (so the table
    edits a bet causes are counted with it)."""
    fake = FakeDiscord(rate_limits=RateLimits(enabled=False))
    await fake.start()
    proc: asyncio.subprocess.Process | None = None
    tmp = tempfile.TemporaryDirectory(prefix="bench-pb-")
    try:
        guild = fake.add_guild("Casino")
        channel = fake.add_text_channel(guild, "baccarat")
        members = [fake.add_member(guild, f"b{j}") for j in range(args.bettors)]
        proc = await launch(fake, args, bot_dir, tmp.name)
        await fake.slash(
            members[0], channel, "baccarat", "start", {"max_bet": 1000, "betting_seconds": 3600}
        )
        await fake.wait_until(
            lambda: any(m.has_button("Punto") for m in fake.channel_messages(channel)), 20
        )
        await quiet(fake, 1.0)
        sides = ["Punto", "Banco", "Egalité"]

        async def form_bets(member: FakeMember, n: int) -> int:
            done = 0
            for k in range(n):
                msg = fake.latest_message_with_button(channel, "Punto")
                r = await fake.click(member, msg, label=sides[k % 3], timeout=10)
                if r.modal is None:
                    continue
                await fake.submit_modal(
                    member, None, r.modal.custom_id, {"amount": str(1 + k % 5)}, timeout=10
                )
                done += 2
            return done

        req0 = len(fake.requests)
        interactions = sum(await asyncio.gather(*(form_bets(m, args.bets) for m in members)))
        await quiet(fake, 1.0)
        form_requests = len(fake.requests) - req0
        req1 = len(fake.requests)
        slash = 0
        for k in range(args.bets):
            for m in members:
                await fake.slash(
                    m, channel, "baccarat", "bet", {"side": "punto", "amount": 2 + k % 5}
                )
                slash += 1
        await quiet(fake, 1.0)
        slash_requests = len(fake.requests) - req1
        return {
            "bot_dir": str(bot_dir),
            "bettors": args.bettors,
            "bets_by_form": interactions // 2,
            "requests_per_form_bet": round(form_requests / (interactions // 2), 3),
            "requests_per_interaction": round(form_requests / interactions, 3),
            "bets_by_slash": slash,
            "requests_per_slash_bet": round(slash_requests / slash, 3),
        }
    finally:
        await stop(proc)
        await fake.stop()
        tmp.cleanup()


async def alternated(args: argparse.Namespace) -> dict[str, Any]:
    """``--mode session`` or ``punto-banco``: this code and ``--compare-dir`` alternated."""
    measure = session if args.mode == "session" else punto_banco
    dirs = [("new", args.bot_dir)]
    if args.compare_dir is not None:
        dirs.append(("old", args.compare_dir))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in dirs}
    for _ in range(args.repeat):
        for name, bot_dir in dirs:
            result = await measure(args, bot_dir)
            runs[name].append(result)
            print(name, json.dumps(result), file=sys.stderr, flush=True)
    out: dict[str, Any] = {"mode": args.mode, "runs": runs}
    if args.mode == "session":
        summary: dict[str, Any] = {}
        for name in runs:
            summary[name] = {
                key: [r[key] for r in runs[name]]
                for key in (
                    "early_cpu_ms_per_click",
                    "late_cpu_ms_per_click",
                    "late_over_early",
                    "process_young_cpu_ms_per_click",
                )
            }
        if "old" in runs:
            pairs = list(zip(runs["new"], runs["old"], strict=True))
            summary["new_over_old"] = {
                "early": [
                    round(n["early_cpu_ms_per_click"] / o["early_cpu_ms_per_click"], 3)
                    for n, o in pairs
                ],
                "late": [
                    round(n["late_cpu_ms_per_click"] / o["late_cpu_ms_per_click"], 3)
                    for n, o in pairs
                ],
            }
        summary["targets"] = "new/old <= 0.9 (f3d7cce as old); late/early <= 1.1"
        out["summary"] = summary
    return out


async def rounds_alternated(args: argparse.Namespace) -> dict[str, Any]:
    """``--mode rounds`` with ``--compare-dir``: rounds played by this code and by the older
    checkout, alternated ``--repeat`` times in one run (limits off unless ``--only on``), so
    both meet the same load; REST requests and bot CPU per click of each, and new/old."""
    limits = args.only == "on"
    runs: dict[str, list[dict[str, Any]]] = {"new": [], "old": []}
    for _ in range(args.repeat):
        for name, bot_dir in (("new", args.bot_dir), ("old", args.compare_dir)):
            result = await run(argparse.Namespace(**{**vars(args), "bot_dir": bot_dir}), limits)
            result.pop("requests_by_route", None)
            runs[name].append(result)
            print(name, json.dumps(result), file=sys.stderr, flush=True)
    keys = ("rest_requests_per_click", "bot_cpu_ms_per_click", "clicks")
    summary: dict[str, Any] = {
        name: {key: [r[key] for r in runs[name]] for key in keys} for name in runs
    }
    summary["cpu_new_over_old"] = [
        round(n["bot_cpu_ms_per_click"] / o["bot_cpu_ms_per_click"], 3)
        for n, o in zip(runs["new"], runs["old"], strict=True)
        if n["bot_cpu_ms_per_click"] and o["bot_cpu_ms_per_click"]
    ]
    summary["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return {"mode": "rounds", "cards": args.cards, "runs": runs, "summary": summary}


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=20, help="rounds per table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show-channel", action="store_true", help="print table 0's channel")
    ap.add_argument("--only", choices=["on", "off"], help="run with the limits only on or off")
    ap.add_argument(
        "--cards",
        choices=["dm", "button"],
        default="dm",
        help="the tables' cards option: face-down cards by DM (default) or Show my cards only",
    )
    ap.add_argument("--bot-cmd", default=f"{sys.executable} -m bot")
    ap.add_argument("--bot-dir", type=Path, default=REPO_ROOT, help="checkout the bot runs from")
    ap.add_argument(
        "--mode",
        choices=["rounds", "session", "punto-banco"],
        default="rounds",
        help="rounds: Pontoon rounds (default); session: a long Join/Leave session, CPU per "
        "click early and late; punto-banco: requests per Punto Banco bet",
    )
    ap.add_argument(
        "--compare-dir", type=Path, help="an older checkout, run alternated with --bot-dir"
    )
    ap.add_argument("--repeat", type=int, default=1, help="alternated runs of each checkout")
    ap.add_argument("--window", type=int, default=60, help="session: clicks per table measured")
    ap.add_argument(
        "--late-after", type=int, default=300, help="session: clicks per table before 'late'"
    )
    ap.add_argument(
        "--block", type=int, default=50, help="session: clicks per table in each alternated block"
    )
    ap.add_argument("--bettors", type=int, default=3, help="punto-banco: members betting")
    ap.add_argument("--bets", type=int, default=10, help="punto-banco: bets per member")
    args = ap.parse_args()
    if args.mode != "rounds":
        print(json.dumps(await alternated(args), indent=2))
        return 0
    if args.compare_dir is not None:
        print(json.dumps(await rounds_alternated(args), indent=2))
        return 0
    out: dict[str, Any] = {}
    if args.only in (None, "on"):
        out["with_limits"] = await run(args, True)
    if args.only in (None, "off"):
        out["without_limits"] = await run(args, False)
    if "with_limits" in out and "without_limits" in out:
        on, off = (
            out["with_limits"]["rounds_per_minute"],
            out["without_limits"]["rounds_per_minute"],
        )
        out["rounds_per_minute_ratio"] = round(on / off, 3) if on and off else None
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
