"""Fault campaign: prove with figures that chips never vanish or appear and games never hang.

Runs the real bot (``python -m bot``) against the fake Discord on 127.0.0.1 and plays
random Pontoon games through it, in four phases:

* ``kill``    random games at several tables; the bot is SIGKILLed at random moments
              (often right after an interaction was sent: mid-bet, mid-buy, mid-deal,
              mid-settlement) and restarted on the same database. After every kill the
              ledger audit (``python -m bot audit --db``) must pass and the game state
              must agree with the ledger; after every restart every open table's message
              must be re-rendered at its stored version and its buttons must answer.
* ``load``    many tables at once, members clicking at random: double and triple clicks,
              wrong-turn clicks, stale buttons, random amounts; every interaction must be
              answered within Discord's 3 seconds.
* ``faults``  the fake misbehaves: 429s with retry_after, 500s on message edits, a dropped
              gateway connection (RESUME) mid-hand, closed DMs; rounds must still finish.
* ``hostile`` forged custom ids and modal/slash input; the bot must answer every one with
              an ephemeral message, change nothing, stay alive and log no traceback.

Every phase ends by finishing the rounds in play (bounded), then checks that no table is
stuck mid-round and that the audit passes. Prints a JSON report; exit 1 on any failure.

    python scripts/fault_campaign.py --kills 100 --tables 50 --minutes 3 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

REPO_ROOT = Path(__file__).resolve().parents[1]
for path in (REPO_ROOT, REPO_ROOT / "scripts"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bench_round import banker_of, enabled_ids, table_version, turn_of  # noqa: E402

from localdiscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeMessage,
    InteractionResult,
    ModalShown,
)

JSON = dict[str, Any]
TABLE_BUTTON = "Show my cards"
DEADLINE = 3.0  # Discord's limit for the first answer to an interaction
WAIT_ANSWER = 6.0  # how long the driver waits for a callback before calling it unanswered
IN_ROUND = {"betting", "doubling", "shooting", "playing", "banker", "kitty"}
FORMS = {"Bet", "Buy", "Shoot", "Kitty"}
PLACEHOLDER_RE = re.compile(r"(\d+) to (\d+)")
# the banker's buttons read as the banker's; the campaign picks them by their plain names
BANKER_LABELS = {
    "Banker: twist": "Twist",
    "Banker: stay": "Stick",
    "Banker: double": "Double",
    "Banker: no double": "No double",
}
WEIGHTS = {
    "Deal": 3.0,
    "Bet": 5.0,
    "Twist": 4.0,
    "Stick": 4.0,
    "Buy": 2.0,
    "Split": 1.5,
    "Declare": 5.0,
    "Burn": 1.0,
    "Double": 1.5,
    "No double": 2.0,
    "Join": 1.0,
    "Leave": 0.15,
    "Show my cards": 0.3,
    "Hint": 0.3,  # a private answer: changes nothing
    "Add a computer player": 0.0,  # the campaign's tables are members only
}


# ----------------------------------------------------------------------------- records


@dataclass
class Sent:
    """One interaction the campaign sent, and what became of it."""

    result: InteractionResult
    phase: str
    what: str
    sent: float  # time.monotonic()
    epoch: int  # which bot process it was sent to


@dataclass
class Figures:
    phase: str
    started: float = field(default_factory=time.monotonic)
    failures: list[str] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)
    extra: dict[str, Any] = field(default_factory=dict)

    def fail(self, text: str) -> None:
        if len(self.failures) < 200:
            self.failures.append(text)
        print(f"[{self.phase}] FAIL: {text}", file=sys.stderr, flush=True)


class Campaign:
    """Shared state: the fake, the bot process, every interaction sent."""

    def __init__(self, fake: FakeDiscord, workdir: Path, rng: random.Random) -> None:
        self.fake = fake
        self.workdir = workdir
        self.rng = rng
        self.sent: list[Sent] = []
        self.epoch = 0
        self.kill_times: dict[int, float] = {}  # epoch -> monotonic time it was killed
        self.table_msgs: dict[int, int] = {}  # channel id -> latest table message id
        self.payouts: Counter[int] = Counter()  # channel id -> payout summaries posted
        self.gate: asyncio.Event | None = None  # set while the bot is up (members may act)
        self._hook_fake()

    def _hook_fake(self) -> None:
        """Index table messages and payout posts as the fake creates them (scanning every
        message on each step would slow the fake's event loop and skew latencies)."""
        fake = self.fake
        original = fake._create_message

        def create(*args: Any, **kwargs: Any) -> FakeMessage:
            msg = original(*args, **kwargs)
            if msg.ephemeral_for is None and not msg.channel.is_dm:
                if msg.has_button(TABLE_BUTTON):
                    self.table_msgs[msg.channel.id] = msg.id
                if any(str(e.get("title", "")) == "Payouts" for e in msg.embeds):
                    self.payouts[msg.channel.id] += 1
            return msg

        fake._create_message = create  # type: ignore[method-assign]

    def table_message(self, channel: FakeChannel) -> FakeMessage | None:
        mid = self.table_msgs.get(channel.id)
        return None if mid is None else self.fake.messages.get(mid)

    async def wait_gate(self, what: str) -> None:
        """Members do not click while the bot is down or starting (on Discord those clicks
        fail at once; here they would only blur the figures)."""
        if self.gate is not None and what != "check":
            await self.gate.wait()

    def record(self, result: InteractionResult, phase: str, what: str) -> None:
        self.sent.append(Sent(result, phase, what, time.monotonic(), self.epoch))


# ----------------------------------------------------------------------------- the bot


class Bot:
    """``python -m bot`` as a subprocess pointed at the fake; restartable on one database."""

    def __init__(self, camp: Campaign, db: Path, env: dict[str, str], name: str) -> None:
        for old in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            old.unlink(missing_ok=True)  # every phase starts from an empty database
        self.camp = camp
        self.db = db
        self.env = env
        self.name = name
        self.proc: asyncio.subprocess.Process | None = None
        self.log_path: Path | None = None
        self._log: IO[bytes] | None = None
        self.starts = 0
        self.start_seconds: list[float] = []
        self.up = asyncio.Event()
        self.ready_at = 0.0
        camp.gate = self.up

    async def start(self, timeout: float = 30.0, *, open_gate: bool = True) -> None:
        fake = self.camp.fake
        self.starts += 1
        self.camp.epoch += 1
        self.log_path = self.camp.workdir / f"{self.name}-{self.starts:03d}.log"
        self._log = self.log_path.open("wb")
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p
            ),
            "PYTHONUNBUFFERED": "1",
            **fake.bot_env(),
            "DATABASE_PATH": str(self.db),
            "LOG_LEVEL": "INFO",
            **self.env,
        }
        identifies = fake.identify_count
        syncs = fake.command_syncs
        t0 = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            cwd=str(REPO_ROOT),
        )
        try:
            await fake.wait_for_bot_ready(
                timeout, commands=True, identify_count=identifies + 1, command_syncs=syncs + 1
            )
        except TimeoutError:
            await self.kill()
            raise RuntimeError(f"bot not ready in {timeout}s; log {self.log_path}") from None
        self.ready_at = time.monotonic()
        self.start_seconds.append(self.ready_at - t0)
        if open_gate:
            self.up.set()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no clean shutdown, like a crash or an OOM kill."""
        self.up.clear()
        self.camp.kill_times[self.camp.epoch] = time.monotonic()
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
        self._close_log()

    async def stop(self) -> None:
        self.up.clear()
        self.camp.kill_times.setdefault(self.camp.epoch, time.monotonic())
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 5)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None

    def log_text(self) -> str:
        if self.log_path is None:
            return ""
        if self._log is not None:
            with contextlib.suppress(OSError, ValueError):
                self._log.flush()
        return self.log_path.read_text(errors="replace")


async def run_audit(db: Path) -> tuple[bool, str]:
    """``python -m bot audit --db PATH`` as an operator would run it."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "audit",
        "--db",
        str(db),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=str(REPO_ROOT),
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        return False, "audit timed out"
    return proc.returncode == 0, out.decode(errors="replace")


def ledger_totals(text: str) -> tuple[int, int]:
    """(chips in accounts, chips granted) from an audit report."""
    m = re.search(r"all servers: ([\d,]+) chips in accounts, ([\d,]+) granted", text)
    if not m:
        return -1, -1
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def open_tables(db: Path) -> list[JSON]:
    """Every open table in the database: id, channel, message id, engine state."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        rows = con.execute(
            "SELECT id, channel_id, message_id, version, state_json FROM game_tables "
            "WHERE status = 'open' AND game = 'pontoon'"
        ).fetchall()
    finally:
        con.close()
    out = []
    for tid, channel_id, message_id, version, state in rows:
        data = json.loads(state)
        out.append(
            {
                "table_id": tid,
                "channel_id": int(channel_id),
                "message_id": message_id,
                "store_version": int(version),
                "engine": data["engine"],
                "meta": data["meta"],
            }
        )
    return out


def game_ledger_mismatches(db: Path) -> list[str]:
    """The game state of every open table must agree with the ledger: its escrow and
    kitty, and the chips each seated member holds (no grants happen during a campaign)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        balances = dict(con.execute("SELECT id, balance FROM accounts").fetchall())
        rows = con.execute(
            "SELECT id, guild_id, state_json FROM game_tables "
            "WHERE status = 'open' AND game = 'pontoon'"
        ).fetchall()
    finally:
        con.close()
    problems: list[str] = []
    for tid, guild_id, state in rows:
        eng = json.loads(state)["engine"]
        if int(eng.get("escrow", 0)) != int(balances.get(f"escrow:{tid}", 0)):
            problems.append(
                f"table {tid}: engine escrow {eng.get('escrow')} vs ledger "
                f"{balances.get(f'escrow:{tid}', 0)}"
            )
        if int(eng.get("kitty", 0)) != int(balances.get(f"kitty:{tid}", 0)):
            problems.append(f"table {tid}: engine kitty {eng.get('kitty')} vs ledger")
        for seat, chips in eng.get("balances", {}).items():
            if not str(seat).isdigit():
                continue
            ledger = balances.get(f"member:{guild_id}:{seat}")
            if ledger is not None and int(ledger) != int(chips):
                problems.append(f"table {tid}: seat {seat} holds {chips} but the ledger {ledger}")
    return problems


# ----------------------------------------------------------------------------- players


@dataclass
class Game:
    """One channel with its table and the members who play there."""

    channel: FakeChannel
    members: list[FakeMember]
    options: JSON
    by_name: dict[str, FakeMember] = field(default_factory=dict)
    in_flight: str = ""
    steps: int = 0
    opened: int = 0

    def __post_init__(self) -> None:
        self.by_name = {m.user.name: m for m in self.members}


def parse_table(msg: FakeMessage) -> tuple[dict[str, str], str | None, str | None, bool]:
    """(enabled label -> custom id, whose turn, banker name, closed) of a table message:
    a layout whose buttons sit in action rows nested in its container, read with
    scripts/bench_round.py's helpers. A closed table says so in its header's first line."""
    enabled = {BANKER_LABELS.get(k, k): v for k, v in enabled_ids(msg).items()}
    text = msg.text
    closed = "closed" in text.split("\n", 1)[0]
    return enabled, turn_of(text), banker_of(text), closed


def modal_placeholder(modal: ModalShown) -> str:
    """The placeholders of a form's text inputs (they say the allowed amounts)."""
    return " ".join(str(c.get("placeholder", "")) for c in modal.text_inputs())


async def wait_answer(result: InteractionResult, timeout: float = WAIT_ANSWER) -> bool:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(result.callback_event.wait(), timeout)
    return result.callback_type is not None


async def send_component(
    camp: Campaign, member: FakeMember, msg: FakeMessage, custom_id: str, phase: str, what: str
) -> InteractionResult:
    """A button click with any custom id (also stale or forged ones), not waiting."""
    await camp.wait_gate(what)
    result = await camp.fake._send_interaction(
        itype=3,
        kind="component",
        data={"custom_id": custom_id, "component_type": 2},
        user=member.user,
        channel=msg.channel,
        message=msg,
        timeout=5.0,
        wait=False,
    )
    camp.record(result, phase, what)
    return result


async def send_modal(
    camp: Campaign,
    member: FakeMember,
    channel: FakeChannel,
    custom_id: str,
    values: dict[str, str],
    phase: str,
    what: str,
) -> InteractionResult:
    components = [
        {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
        for k, v in values.items()
    ]
    await camp.wait_gate(what)
    result = await camp.fake._send_interaction(
        itype=5,
        kind="modal",
        data={"custom_id": custom_id, "components": components},
        user=member.user,
        channel=channel,
        timeout=5.0,
        wait=False,
    )
    camp.record(result, phase, what)
    return result


async def send_slash(
    camp: Campaign,
    member: FakeMember,
    channel: FakeChannel,
    command: str,
    sub: str | None,
    options: list[JSON],
    phase: str,
    what: str,
) -> InteractionResult:
    """A slash command with raw options (the fake's own slash() refuses unknown ones)."""
    cmd, guild_id = camp.fake._find_command(channel, command)
    if cmd is None:
        raise LookupError(command)
    opts = [{"name": sub, "type": 1, "options": options}] if sub else options
    data: JSON = {"id": str(cmd["id"]), "name": command, "type": 1, "options": opts}
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    await camp.wait_gate(what)
    result = await camp.fake._send_interaction(
        itype=2,
        kind="slash",
        data=data,
        user=member.user,
        channel=channel,
        timeout=5.0,
        wait=False,
    )
    camp.record(result, phase, what)
    return result


def random_amount(rng: random.Random, placeholder: str, hostile: float) -> str:
    m = PLACEHOLDER_RE.search(placeholder)
    if m and rng.random() >= hostile:
        low, high = int(m.group(1)), int(m.group(2))
        return str(rng.randint(low, min(high, low + 8)))
    return rng.choice(
        ["0", "-3", "abc", "999999999999", "１０", "٣", "2.5", " 7 ", "1e3", "100000", "", "🂡"]
    )


async def open_table(camp: Campaign, game: Game, phase: str) -> None:
    opener = game.members[0]
    opts = [{"name": k, "type": t, "value": v} for k, (t, v) in game.options.items()]
    r = await send_slash(camp, opener, game.channel, "pontoon", "start", opts, phase, "start")
    game.opened += 1
    if not await wait_answer(r):
        return
    with contextlib.suppress(TimeoutError):
        await r.wait_followups(1, 5)
    await asyncio.sleep(0.2)


async def play_step(
    camp: Campaign,
    game: Game,
    rng: random.Random,
    phase: str,
    *,
    chaos: float = 0.0,
    hostile_amounts: float = 0.1,
    end_rate: float = 0.0,
    leave_weight: float = 1.0,
    fire_and_return: bool = False,
) -> Awaitable[None] | None:
    """One random member does one random thing the table message enables.

    With ``fire_and_return`` the interaction is sent and an awaitable finishing the step
    is returned at once (so the kill campaign can kill the bot right after sending)."""
    game.steps += 1
    msg = camp.table_message(game.channel)
    if msg is None or parse_table(msg)[3]:
        if rng.random() < 0.5 or msg is None:
            await open_table(camp, game, phase)
        return None
    enabled, turn, banker, _ = parse_table(msg)
    if not enabled:
        return None
    if rng.random() < end_rate:
        # the opener ends the table, maybe mid-round: every stake must go back
        game.in_flight = "end table"
        r = await send_slash(
            camp, game.members[0], game.channel, "pontoon", "end", [], phase, "end table"
        )

        async def finish_end() -> None:
            await wait_answer(r)
            game.in_flight = ""

        if fire_and_return:
            return finish_end()
        await finish_end()
        return None
    # who acts: mostly the member whose turn it is
    member = rng.choice(game.members)
    if turn is not None and rng.random() < 0.75:
        name = banker if turn == "the banker" else turn
        member = game.by_name.get(name or "", member)
    elif "Deal" in enabled and banker and rng.random() < 0.5:
        member = game.by_name.get(banker, member)
    labels = list(enabled)
    weights = [WEIGHTS.get(x, 1.0) * (leave_weight if x == "Leave" else 1.0) for x in labels]
    label = rng.choices(labels, weights)[0]
    if label == "Deal" and banker is None and rng.random() < 0.7:
        member = game.members[0]  # the opener deals first (cut for the bank)
    custom_id = enabled[label]
    roll = rng.random()
    if roll < chaos * 0.25:
        # a stale button from an older snapshot of the message
        old = [v for v in msg.history[:-1] if v.components]
        if old:
            version = rng.choice(old)
            ids = [b.custom_id for b in version.buttons() if b.custom_id]
            if ids:
                custom_id = rng.choice(ids)
                label = "stale " + custom_id.split(":")[2]
    elif roll < chaos * 0.5:
        member = rng.choice(game.members)  # whoever, whatever the turn
    clicks = 1
    if rng.random() < chaos * 0.4:
        clicks = rng.choice([2, 3])  # double / triple click
    game.in_flight = f"banker {label}" if turn == "the banker" else label
    results = [
        await send_component(camp, member, msg, custom_id, phase, label) for _ in range(clicks)
    ]

    async def finish() -> None:
        answered = await asyncio.gather(*(wait_answer(r) for r in results))
        for r, ok in zip(results, answered, strict=True):
            if ok and r.modal is not None:
                placeholder = modal_placeholder(r.modal)
                values = {"amount": random_amount(rng, placeholder, hostile_amounts)}
                game.in_flight = f"{label} form"
                sub = await send_modal(
                    camp, member, game.channel, r.modal.custom_id, values, phase, f"{label} form"
                )
                await wait_answer(sub)
        game.in_flight = ""

    if fire_and_return and label in FORMS:
        # kill mid-bet / mid-buy: open the form, then return right after submitting it
        if not await wait_answer(results[0]) or results[0].modal is None:
            return None
        modal = results[0].modal
        placeholder = modal_placeholder(modal)
        game.in_flight = f"{label} form"
        sub = await send_modal(
            camp,
            member,
            game.channel,
            modal.custom_id,
            {"amount": random_amount(rng, placeholder, 0.0)},
            phase,
            f"{label} form",
        )

        async def finish_form() -> None:
            await wait_answer(sub)
            game.in_flight = ""

        return finish_form()
    if fire_and_return:
        return finish()
    await finish()
    return None


async def finish_rounds(
    camp: Campaign, games: list[Game], db: Path, fig: Figures, limit: float = 120.0
) -> None:
    """Play every round in progress to its end (members whose turn it is act sensibly;
    the turn timers cover the rest), then check that no table is left mid-round."""
    rng = random.Random(camp.rng.random())
    end = time.monotonic() + limit

    async def settle() -> None:
        # clicks are answered (deferred) before the bot acts on them: let it finish first
        with contextlib.suppress(TimeoutError):
            await camp.fake.settle(quiet=1.0, timeout=20)

    async def finish(game: Game) -> None:
        while time.monotonic() < end:
            state = next((t for t in open_tables(db) if t["channel_id"] == game.channel.id), None)
            if state is None or state["engine"]["phase"] not in IN_ROUND:
                return
            msg = camp.table_message(game.channel)
            if msg is None:
                await asyncio.sleep(0.5)
                continue
            enabled, turn, banker, _ = parse_table(msg)
            choice = None
            for label in ("Declare", "No double", "Bet", "Stick", "Twist"):
                if label in enabled:
                    choice = label
                    break
            if choice is None:
                await asyncio.sleep(0.5)
                continue
            if turn is not None:
                name = banker if turn == "the banker" else turn
                members = [game.by_name[name]] if name in game.by_name else game.members
            else:
                members = game.members
            if choice == "Stick" and "Twist" in enabled and rng.random() < 0.3:
                choice = "Twist"
            for m in members:
                r = await send_component(camp, m, msg, enabled[choice], fig.phase, "finish")
                if await wait_answer(r) and r.modal is not None:
                    placeholder = modal_placeholder(r.modal)
                    sub = await send_modal(
                        camp,
                        m,
                        game.channel,
                        r.modal.custom_id,
                        {"amount": random_amount(rng, placeholder, 0.0)},
                        fig.phase,
                        "finish form",
                    )
                    await wait_answer(sub)
            await asyncio.sleep(0.1)

    for _ in range(3):
        await settle()
        await asyncio.gather(*(finish(g) for g in games))
    await settle()
    stuck = [
        f"{t['table_id']} in {t['engine']['phase']}"
        for t in open_tables(db)
        if t["engine"]["phase"] in IN_ROUND
    ]
    fig.extra["tables_left_mid_round"] = len(stuck)
    for s in stuck:
        fig.fail(f"table did not finish its round within {limit:.0f}s: {s}")


async def check_tables_after_restart(
    camp: Campaign, bot: Bot, db: Path, games: list[Game], fig: Figures
) -> None:
    """Every open table is back: its message shows the version the database holds
    (redrawn after the restart when it was behind), and a button on it answers. (Members wait meanwhile; only the turn
    timers may move a table on, so the version is compared with the database each time.)"""
    by_channel = {g.channel.id: g for g in games}
    pending = {t["table_id"] for t in open_tables(db) if t["channel_id"] in by_channel}
    end = time.monotonic() + 12.0
    while pending and time.monotonic() < end:
        await asyncio.sleep(0.1)
        for t in open_tables(db):
            if t["table_id"] not in pending:
                continue
            game = by_channel[t["channel_id"]]
            msg = camp.table_message(game.channel)
            # (only a message left at an older version is redrawn after a
            # restart; one already at the stored version is kept as it is)
            if msg is None or table_version(msg) != int(t["engine"]["version"]):
                continue
            pending.discard(t["table_id"])
            seats = [s for s in t["engine"]["seats"] if s.isdigit()]
            member = next((m for m in game.members if str(m.user.id) in seats), game.members[0])
            enabled, *_ = parse_table(msg)
            r = await send_component(
                camp, member, msg, enabled.get(TABLE_BUTTON, ""), fig.phase, "check"
            )
            if not await wait_answer(r):
                fig.fail(f"table {t['table_id']}: Show my cards unanswered after restart")
            else:
                fig.notes["tables checked after restart"] += 1
        still_open = {t["table_id"] for t in open_tables(db)}
        pending &= still_open  # closed meanwhile (idle): its stakes went back; audit checks
    for tid in pending:
        fig.fail(f"table {tid} not re-rendered at its stored version after the restart")


def make_games(
    camp: Campaign, guild: FakeGuild, count: int, players: int, prefix: str, rng: random.Random
) -> list[Game]:
    games = []
    for i in range(count):
        channel = camp.fake.add_text_channel(guild, f"{prefix}-{i}")
        members = [
            camp.fake.add_member(guild, f"{prefix}{i}p{j}", manage_guild=(j == 0))
            for j in range(players)
        ]
        options: JSON = {"min_bet": (4, 1), "max_bet": (4, rng.choice([10, 25, 50]))}
        if rng.random() < 0.2:
            options["banker"] = (3, "house")
        if rng.random() < 0.3:
            options["banker_doubles"] = (5, True)
        if rng.random() < 0.2:
            options["burn"] = (3, rng.choice(["13", "14"]))
        if rng.random() < 0.2:
            options["split_aces_only"] = (5, True)
        if rng.random() < 0.2:
            options["royal_pontoon"] = (5, True)
        games.append(Game(channel, members, options))
    return games


async def seat_everyone(camp: Campaign, games: list[Game], phase: str) -> None:
    async def seat(game: Game) -> None:
        await open_table(camp, game, phase)
        msg = camp.table_message(game.channel)
        if msg is None:
            return
        for m in game.members[1:]:
            msg = camp.table_message(game.channel)
            enabled, *_ = parse_table(msg) if msg else ({}, None, None, False)
            if msg is not None and "Join" in enabled:
                r = await send_component(camp, m, msg, enabled["Join"], phase, "Join")
                await wait_answer(r)
                await asyncio.sleep(0.15)

    await asyncio.gather(*(seat(g) for g in games))


# ----------------------------------------------------------------------------- phases


async def phase_kill(
    camp: Campaign, guild: FakeGuild, args: argparse.Namespace, report: JSON
) -> None:
    fig = Figures("kill")
    rng = random.Random(camp.rng.random())
    db = camp.workdir / "kill.sqlite3"
    bot = Bot(
        camp,
        db,
        {
            "SHUFFLE_SEED": "",
            "PONTOON_BET_SECONDS": "4",
            "PONTOON_TURN_SECONDS": "4",
            "PONTOON_IDLE_MINUTES": "30",
        },
        "kill",
    )
    games = make_games(camp, guild, args.kill_tables, 3, "k", rng)
    kills = 0
    audits_ok = 0
    mismatch_checks = 0
    killed_during: Counter[str] = Counter()
    stop = asyncio.Event()
    try:
        await bot.start()
        await seat_everyone(camp, games, "kill")
        _, first = await run_audit(db)
        chips_before = ledger_totals(first)

        async def player(game: Game) -> None:
            while not stop.is_set():
                await bot.up.wait()
                if stop.is_set():
                    return
                try:
                    await play_step(camp, game, rng, "kill", chaos=0.1, end_rate=0.004)
                except (LookupError, PermissionError, ValueError):
                    fig.notes["skipped clicks"] += 1
                await asyncio.sleep(rng.uniform(0.0, 0.15))

        players = [asyncio.create_task(player(g)) for g in games]
        deadline = time.monotonic() + args.kill_minutes * 60
        try:
            while kills < args.kills and time.monotonic() < deadline:
                await asyncio.sleep(rng.uniform(0.2, 1.5))
                # kill right after sending an interaction (or at a random moment)
                game = rng.choice(games)
                pending: Awaitable[None] | None = None
                if rng.random() < 0.7:
                    with contextlib.suppress(LookupError, PermissionError, ValueError):
                        pending = await play_step(
                            camp, game, rng, "kill", end_rate=0.05, fire_and_return=True
                        )
                    await asyncio.sleep(rng.choice([0.0, 0.001, 0.003, 0.008, 0.02, 0.05, 0.2]))
                flights = [g.in_flight for g in games if g.in_flight]
                killed_during.update(flights or ["idle"])
                await bot.kill()
                kills += 1
                if pending is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pending, 0.5)  # lost with the process
                ok, text = await run_audit(db)
                if ok:
                    audits_ok += 1
                else:
                    fig.fail(f"audit failed after kill {kills}:\n{text}")
                problems = game_ledger_mismatches(db)
                mismatch_checks += 1
                for p in problems:
                    fig.fail(f"after kill {kills}: {p}")
                await bot.start(open_gate=False)
                await check_tables_after_restart(camp, bot, db, games, fig)
                bot.up.set()
                if kills % 10 == 0:
                    print(
                        f"[kill] {kills} kills, {sum(camp.payouts.values())} rounds so far",
                        file=sys.stderr,
                        flush=True,
                    )
        finally:
            stop.set()
            bot.up.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        await asyncio.sleep(1.0)
        await finish_rounds(camp, games, db, fig)
        await bot.stop()
        ok, text = await run_audit(db)
        if not ok:
            fig.fail(f"final audit failed:\n{text}")
        for p in game_ledger_mismatches(db):
            fig.fail(f"final: {p}")
        chips_after = ledger_totals(text)
        report["kill"] = {
            "kills_survived": kills,
            "restarts": bot.starts - 1,
            "audits_passed": audits_ok + (1 if ok else 0),
            "audits_run": kills + 1,
            "game_vs_ledger_checks": mismatch_checks + 1,
            "killed_while_in_flight": dict(killed_during.most_common()),
            "rounds_played": sum(camp.payouts[g.channel.id] for g in games),
            "restart_seconds_p50": round(statistics.median(bot.start_seconds), 2),
            "chips_before": {"in_accounts": chips_before[0], "granted": chips_before[1]},
            "chips_after": {"in_accounts": chips_after[0], "granted": chips_after[1]},
            "final_audit": text.strip().splitlines()[1:3],
            **fig.extra,
            **dict(fig.notes),
            "failures": fig.failures,
        }
    finally:
        stop.set()
        await bot.stop()


class LoopLag:
    """How late this process's own event loop runs (the fake Discord shares it with the
    simulated members): a late fake stamps callbacks late, so this bounds what part of a
    measured latency is the driver's, not the bot's."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.05)
            self.lags.append(max(0.0, loop.time() - t - 0.05))

    def __enter__(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()

    def figures(self) -> JSON:
        lags = sorted(self.lags) or [0.0]
        return {
            "p50": round(lags[len(lags) // 2] * 1000, 1),
            "p99": round(lags[min(len(lags) - 1, int(0.99 * len(lags)))] * 1000, 1),
            "max": round(lags[-1] * 1000, 1),
        }


async def phase_load(
    camp: Campaign, guild: FakeGuild, args: argparse.Namespace, report: JSON
) -> None:
    fig = Figures("load")
    rng = random.Random(camp.rng.random())
    db = camp.workdir / "load.sqlite3"
    bot = Bot(
        camp,
        db,
        {"PONTOON_BET_SECONDS": "20", "PONTOON_TURN_SECONDS": "20", "PONTOON_IDLE_MINUTES": "30"},
        "load",
    )
    games = make_games(camp, guild, args.tables, 4, "l", rng)
    stop = asyncio.Event()
    try:
        await bot.start()
        await seat_everyone(camp, games, "load")
        _, first = await run_audit(db)
        chips_before = ledger_totals(first)
        first_sent = len(camp.sent)

        async def player(game: Game) -> None:
            while not stop.is_set():
                try:
                    await play_step(
                        camp,
                        game,
                        rng,
                        "load",
                        chaos=0.35,
                        hostile_amounts=0.15,
                        end_rate=0.0005,
                        leave_weight=0.2,  # Join/Leave ignore versions: churn starves Deal
                    )
                except (LookupError, PermissionError, ValueError):
                    fig.notes["skipped clicks"] += 1
                await asyncio.sleep(rng.uniform(0.0, 0.3))

        with LoopLag() as lag:
            tasks = [asyncio.create_task(player(g)) for g in games]
            await asyncio.sleep(args.minutes * 60)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        played = len(camp.sent) - first_sent
        if not bot.alive:
            fig.fail("the bot died under load")
        await finish_rounds(camp, games, db, fig)
        ok, text = await run_audit(db)
        if not ok:
            fig.fail(f"audit failed:\n{text}")
        for p in game_ledger_mismatches(db):
            fig.fail(p)
        chips_after = ledger_totals(text)
        if chips_after[0] != chips_after[1]:
            fig.fail(f"chips in accounts {chips_after[0]} != granted {chips_after[1]}")
        tracebacks = bot.log_text().count("Traceback")
        report["load"] = {
            "tables": len(games),
            "members": sum(len(g.members) for g in games),
            "minutes": args.minutes,
            "interactions_per_second": round(played / (args.minutes * 60), 1),
            "top_private_answers": Counter(
                re.sub(r"\d+", "N", m.text[:70])
                for m in camp.fake.messages.values()
                if m.ephemeral_for is not None and m.channel.id in {g.channel.id for g in games}
            ).most_common(8),
            "driver_loop_lag_ms": lag.figures(),
            "rounds_played": sum(camp.payouts[g.channel.id] for g in games),
            "chips_before": {"in_accounts": chips_before[0], "granted": chips_before[1]},
            "chips_after": {"in_accounts": chips_after[0], "granted": chips_after[1]},
            "audit_ok": ok,
            "tracebacks_in_log": tracebacks,
            **fig.extra,
            **dict(fig.notes),
            "failures": fig.failures,
        }
    finally:
        stop.set()
        await bot.stop()


async def phase_faults(
    camp: Campaign, guild: FakeGuild, args: argparse.Namespace, report: JSON
) -> None:
    fig = Figures("faults")
    rng = random.Random(camp.rng.random())
    db = camp.workdir / "faults.sqlite3"
    bot = Bot(
        camp,
        db,
        {"PONTOON_BET_SECONDS": "8", "PONTOON_TURN_SECONDS": "8", "PONTOON_IDLE_MINUTES": "30"},
        "faults",
    )
    fake = camp.fake
    games = make_games(camp, guild, 4, 3, "f", rng)
    for g in games:
        fake.close_dms(g.members[-1])
    stop = asyncio.Event()
    injected: Counter[str] = Counter()
    try:
        await bot.start()
        await seat_everyone(camp, games, "faults")
        rounds_before = sum(camp.payouts[g.channel.id] for g in games)

        async def player(game: Game) -> None:
            while not stop.is_set():
                await bot.up.wait()
                try:
                    await play_step(camp, game, rng, "faults", chaos=0.1)
                except (LookupError, PermissionError, ValueError):
                    fig.notes["skipped clicks"] += 1
                await asyncio.sleep(rng.uniform(0.05, 0.3))

        tasks = [asyncio.create_task(player(g)) for g in games]
        faults = []
        end = time.monotonic() + args.fault_seconds
        while time.monotonic() < end:
            await asyncio.sleep(rng.uniform(1.0, 3.0))
            kind = rng.choice(["429-edit", "429-post", "429-callback", "500-edit", "drop", "abort"])
            injected[kind] += 1
            if kind == "429-edit":
                faults.append(
                    fake.rate_limit_next(
                        "/channels/*/messages/*", method="PATCH", count=2, retry_after=0.4
                    )
                )
            elif kind == "429-post":
                faults.append(
                    fake.rate_limit_next(
                        "/channels/*/messages", method="POST", count=2, retry_after=0.3
                    )
                )
            elif kind == "429-callback":
                faults.append(
                    fake.rate_limit_next(
                        "/interactions/*/*/callback", method="POST", count=1, retry_after=0.2
                    )
                )
            elif kind == "500-edit":
                faults.append(fake.fail_message_edits(count=rng.choice([1, 2, 6])))
            else:
                with contextlib.suppress(RuntimeError):
                    resumes = fake.resume_count
                    await fake.drop_gateway(abort=kind == "abort")
                    try:
                        await fake.wait_for_resume(resumes + 1, timeout=15)
                    except TimeoutError:
                        fig.fail("the bot did not RESUME after a dropped gateway")
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for f in faults:
            f.remaining = 0
        await asyncio.sleep(2.0)
        await finish_rounds(camp, games, db, fig)
        # an edit of the table message that fails for good (500s beyond discord.py's own
        # retries): the message must still catch up with the table, not keep stale buttons
        game = games[0]
        newcomer = fake.add_member(guild, "f-newcomer")
        msg = camp.table_message(game.channel)
        enabled = parse_table(msg)[0] if msg is not None else {}
        if msg is not None and "Join" in enabled:
            hard = fake.fail_message_edits(count=10_000)
            r = await send_component(camp, newcomer, msg, enabled["Join"], "faults", "Join")
            await wait_answer(r)
            await asyncio.sleep(20.0)  # discord.py retries a 500 four times over ~16 s
            hard.remaining = 0
            injected["500-edit-for-good"] += 1
            faults.append(hard)
        await asyncio.sleep(15.0)
        # every table message must show the table as it stands (no stale buttons left)
        for t in open_tables(db):
            game = next(g for g in games if g.channel.id == t["channel_id"])
            msg = camp.table_message(game.channel)
            if msg is None or table_version(msg) != int(t["engine"]["version"]):
                fig.fail(
                    f"table {t['table_id']}: message shows v{table_version(msg) if msg else None}, "
                    f"table is at v{t['engine']['version']} (stale buttons after faults)"
                )
        ok, text = await run_audit(db)
        if not ok:
            fig.fail(f"audit failed:\n{text}")
        for p in game_ledger_mismatches(db):
            fig.fail(p)
        rounds = sum(camp.payouts[g.channel.id] for g in games) - rounds_before
        if rounds < 1:
            fig.fail("no round finished under faults")
        report["faults"] = {
            "injected": dict(injected),
            "fault_hits": sum(f.hits for f in faults),
            "resumes": fake.resume_count,
            "rounds_played": rounds,
            "closed_dm_notices": sum(
                1
                for m in fake.messages.values()
                if "can't send you direct messages" in m.text or "DMs are closed" in m.text
            ),
            "audit_ok": ok,
            **fig.extra,
            **dict(fig.notes),
            "failures": fig.failures,
        }
    finally:
        stop.set()
        await bot.stop()


async def phase_hostile(
    camp: Campaign, guild: FakeGuild, args: argparse.Namespace, report: JSON
) -> None:
    fig = Figures("hostile")
    rng = random.Random(camp.rng.random())
    db = camp.workdir / "hostile.sqlite3"
    bot = Bot(
        camp,
        db,
        {"PONTOON_BET_SECONDS": "600", "PONTOON_TURN_SECONDS": "600", "SHUFFLE_SEED": "3"},
        "hostile",
    )
    games = make_games(camp, guild, 1, 3, "h", rng)
    game = games[0]
    ch = game.channel
    outsider = camp.fake.add_member(guild, "h-outsider")
    try:
        await bot.start()
        await seat_everyone(camp, games, "hostile")
        # get a round going: deal, so bets are open
        for _ in range(30):
            msg = camp.table_message(ch)
            assert msg is not None
            enabled, *_ = parse_table(msg)
            if "Bet" in enabled:
                break
            await play_step(camp, game, rng, "hostile-setup")
        msg = camp.table_message(ch)
        assert msg is not None
        # the outsider has an account already, so refusals grant nothing new
        r = await send_slash(camp, outsider, ch, "balance", None, [], "hostile-setup", "balance")
        await wait_answer(r)
        tables = open_tables(db)
        tid = tables[0]["table_id"]
        version = int(tables[0]["engine"]["version"])
        before = (tables[0]["store_version"], *ledger_totals((await run_audit(db))[1]))
        log_before = len(bot.log_text())
        cases: list[tuple[str, Callable[[], Awaitable[InteractionResult]]]] = []
        p0, p1 = game.members[0], game.members[1]

        def click(cid: str, who: FakeMember = p1) -> Callable[[], Awaitable[InteractionResult]]:
            return lambda: send_component(camp, who, msg, cid, "hostile", f"click {cid[:40]}")

        for cid in [
            "pt:garbage",
            "pt:",
            "pt:::",
            f"pt:{tid}:nonsense:1",
            f"pt:{tid}:twist:99999999999999999999999999",
            f"pt:{tid}:bet:-1",
            f"pt:{tid}:twist:١",
            f"pt:{tid}:join:{version}:extra",
            "pt:deadbeef:twist:1",
            f"pt:{tid.upper()}:twist:{version}",
            "ptm:" + tid + ":bet:1",
            "bk:garbage",
            f"bk:{tid}:{p1.user.id}:5",
            "x" * 100,
            "",
        ]:
            cases.append((f"custom id {cid[:50]!r}", click(cid)))
        for label in ("Twist", "Stick", "Deal", "Leave", "Join"):
            cid = f"pt:{tid}:{label.lower()}:{version}"
            cases.append((f"outsider clicks {label}", click(cid, outsider)))

        def modal(
            cid: str, values: dict[str, str], who: FakeMember = p1
        ) -> Callable[[], Awaitable[InteractionResult]]:
            return lambda: send_modal(camp, who, ch, cid, values, "hostile", f"modal {cid[:30]}")

        bet_id = f"ptm:{tid}:bet:{version}"
        for text in [
            "abc",
            "-5",
            "0",
            "99999999999999",
            "１０",
            "٣",
            "",
            "   ",
            "5.5",
            "1e3",
            "0x10",
            "∞",
            "9" * 200,
            "💰",
            "5; DROP TABLE accounts",
            "1_000_000_000_000",
            "-0",
            "100000",
        ]:
            cases.append((f"bet amount {text[:30]!r}", modal(bet_id, {"amount": text})))
        cases += [
            ("modal ptm:garbage", modal("ptm:garbage", {"amount": "5"})),
            ("modal unknown act", modal(f"ptm:{tid}:nonsense:1", {"amount": "5"})),
            ("modal huge version", modal(f"ptm:{tid}:buy:{'9' * 40}", {"amount": "5"})),
            ("modal unknown table", modal("ptm:deadbeef:bet:1", {"amount": "5"})),
            ("modal unknown field", modal(bet_id, {"foo": "5"})),
            ("modal bad shoot", modal(bet_id, {"amount": "5x", "shoot": "-3"})),
            ("modal by outsider", modal(bet_id, {"amount": "5"}, outsider)),
            ("modal buy out of turn", modal(f"ptm:{tid}:buy:{version}", {"amount": "3"})),
        ]

        def slash(
            command: str, sub: str | None, options: list[JSON], who: FakeMember = p1
        ) -> Callable[[], Awaitable[InteractionResult]]:
            return lambda: send_slash(
                camp, who, ch, command, sub, options, "hostile", f"/{command} {sub}"
            )

        cases += [
            (
                "/pontoon bet -5",
                slash("pontoon", "bet", [{"name": "amount", "type": 4, "value": -5}]),
            ),
            (
                "/pontoon bet 0",
                slash("pontoon", "bet", [{"name": "amount", "type": 4, "value": 0}]),
            ),
            (
                "/pontoon bet 10^15",
                slash("pontoon", "bet", [{"name": "amount", "type": 4, "value": 10**15}]),
            ),
            (
                "/pontoon buy -1 shoot -1",
                slash(
                    "pontoon",
                    "buy",
                    [
                        {"name": "amount", "type": 4, "value": -1},
                        {"name": "shoot", "type": 4, "value": -1},
                    ],
                ),
            ),
            (
                "/pontoon start min_bet 0 (table exists)",
                slash("pontoon", "start", [{"name": "min_bet", "type": 4, "value": 0}], p0),
            ),
            (
                "/pontoon start banker robot",
                slash("pontoon", "start", [{"name": "banker", "type": 3, "value": "robot"}], p0),
            ),
            (
                "/pontoon twist unknown option",
                slash("pontoon", "twist", [{"name": "foo", "type": 3, "value": "bar"}]),
            ),
            ("/pontoon fly (unknown sub)", slash("pontoon", "fly", [])),
            ("/pontoon end by non-opener", slash("pontoon", "end", [])),
            (
                "/bank sell price -1",
                slash(
                    "bank",
                    "sell",
                    [
                        {"name": "member", "type": 6, "value": str(p0.user.id)},
                        {"name": "price", "type": 4, "value": -1},
                    ],
                ),
            ),
            ("/bank kitty 0", slash("bank", "kitty", [{"name": "amount", "type": 4, "value": 0}])),
            (
                "/chips grant by non-manager",
                slash(
                    "chips",
                    "grant",
                    [
                        {"name": "member", "type": 6, "value": str(p1.user.id)},
                        {"name": "amount", "type": 4, "value": 10**9},
                    ],
                ),
            ),
            (
                "/chips grant -5",
                slash(
                    "chips",
                    "grant",
                    [
                        {"name": "member", "type": 6, "value": str(p1.user.id)},
                        {"name": "amount", "type": 4, "value": -5},
                    ],
                    p0,
                ),
            ),
        ]
        answered = 0
        outcomes: list[JSON] = []
        for name, make in cases:
            try:
                r = await make()
            except (LookupError, ValueError) as exc:
                fig.fail(f"{name}: could not send ({exc})")
                continue
            ok = await wait_answer(r)
            text = ""
            ephemeral = False
            if ok:
                if r.callback_type == 6:
                    with contextlib.suppress(TimeoutError):
                        await r.wait_followups(1, 5)
                elif r.callback_type == 5:
                    with contextlib.suppress(TimeoutError):
                        await r.wait_message(5)
                msgs = r.messages if r.callback_type != 6 else r.followups
                text = "\n".join(m.text for m in msgs if m.text)
                ephemeral = any(m.ephemeral and m.text for m in msgs)
            if ok and ephemeral and text.strip():
                answered += 1
            else:
                fig.fail(
                    f"{name}: answered={ok} cb={r.callback_type} ephemeral={ephemeral} "
                    f"text={text[:120]!r}"
                )
            outcomes.append({"case": name, "answer": text[:160]})
        await asyncio.sleep(1.0)
        tables = open_tables(db)
        after = (tables[0]["store_version"], *ledger_totals((await run_audit(db))[1]))
        if after != before:
            fig.fail(f"hostile input changed the table or ledger: {before} -> {after}")
        if not bot.alive:
            fig.fail("the bot process died")
        new_log = bot.log_text()[log_before:]
        tracebacks = new_log.count("Traceback")
        if tracebacks:
            fig.fail(f"{tracebacks} traceback(s) in the bot log for hostile input")
            (camp.workdir / "hostile-tracebacks.log").write_text(new_log)
        ok, text = await run_audit(db)
        if not ok:
            fig.fail(f"audit failed:\n{text}")
        report["hostile"] = {
            "cases": len(cases),
            "answered_ephemerally": answered,
            "process_alive": bot.alive,
            "tracebacks_in_log": tracebacks,
            "state_unchanged": after == before,
            "audit_ok": ok,
            "samples": outcomes[:: max(1, len(outcomes) // 8)],
            "failures": fig.failures,
        }
    finally:
        await bot.stop()


# ----------------------------------------------------------------------------- report


def interaction_figures(camp: Campaign, phase: str | None = None) -> JSON:
    answered = late = unanswered = excused = 0
    latencies: list[float] = []
    samples: list[str] = []
    for s in camp.sent:
        if phase is not None and s.phase != phase:
            continue
        r = s.result
        if r.callback_type is not None:
            answered += 1
            if r.latency is not None:
                latencies.append(r.latency)
                if r.latency > DEADLINE:
                    late += 1
            continue
        if r.late:
            late += 1
            continue
        killed = camp.kill_times.get(s.epoch)
        if killed is not None and killed <= s.sent + DEADLINE + 0.5:
            excused += 1  # the bot was killed before it could answer: expected
        else:
            unanswered += 1
            if len(samples) < 10:
                samples.append(
                    f"{s.phase} {s.what} {r.data.get('custom_id') or r.data.get('name')} "
                    f"status={r.callback_status} err={(r.callback_error or '')[:80]}"
                    + "".join(
                        f" {e.kind}{e.at - s.sent:+.2f}s"
                        for e in camp.fake.log
                        if e.kind.startswith("gateway") and abs(e.at - s.sent) < 5
                    )
                    + "".join(
                        f" {q.method}->{q.status}{q.at - s.sent:+.2f}s"
                        for q in camp.fake.requests
                        if str(r.interaction_id) in q.path
                    )
                )
    latencies.sort()

    def pct(p: float) -> float | None:
        if not latencies:
            return None
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 1)

    total = answered + late + unanswered + excused
    return {
        "sent": total,
        "answered": answered,
        "late_over_3s": late,
        "unanswered": unanswered,
        "lost_to_kill": excused,
        "unanswered_samples": samples,
        "latency_ms": {
            "p50": pct(0.50),
            "p99": pct(0.99),
            "max": round(latencies[-1] * 1000, 1) if latencies else None,
        },
    }


async def main_async(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="campaign-"))
    workdir.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord()
    await fake.start()
    camp = Campaign(fake, workdir, rng)
    guild = fake.add_guild("Casino")
    report: JSON = {"seed": args.seed, "workdir": str(workdir)}
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    runners = {
        "kill": phase_kill,
        "load": phase_load,
        "faults": phase_faults,
        "hostile": phase_hostile,
    }
    t0 = time.monotonic()
    try:
        for name in phases:
            print(f"[campaign] phase {name}", file=sys.stderr, flush=True)
            gc.collect()
            gc.freeze()  # what the fake recorded so far is never garbage: skip it in GC
            t = time.monotonic()
            try:
                await runners[name](camp, guild, args, report)
            except Exception as exc:  # a crash of the campaign itself is a failure too
                report.setdefault(name, {}).setdefault("failures", []).append(
                    f"campaign error: {type(exc).__name__}: {exc}"
                )
            report.setdefault(name, {})["interactions"] = interaction_figures(camp, name)
            report[name]["seconds"] = round(time.monotonic() - t, 1)
    finally:
        await fake.stop()
    report["all_interactions"] = interaction_figures(camp)
    report["seconds"] = round(time.monotonic() - t0, 1)
    failures = [f for name in phases for f in report.get(name, {}).get("failures", [])]
    figs = report["all_interactions"]
    if figs["late_over_3s"] or figs["unanswered"]:
        failures.append(f"{figs['late_over_3s']} late and {figs['unanswered']} unanswered")
    report["ok"] = not failures
    print(json.dumps(report, indent=2, ensure_ascii=False))
    print(
        f"\n{'PASS' if not failures else 'FAIL'}: kills survived "
        f"{report.get('kill', {}).get('kills_survived', 0)}, rounds "
        f"{sum(report.get(p, {}).get('rounds_played', 0) for p in phases)}, "
        f"interactions {figs['sent']} (answered {figs['answered']}, late {figs['late_over_3s']}, "
        f"unanswered {figs['unanswered']}, lost to kills {figs['lost_to_kill']}), latency "
        f"p50/p99/max {figs['latency_ms']['p50']}/{figs['latency_ms']['p99']}/"
        f"{figs['latency_ms']['max']} ms",
        file=sys.stderr,
    )
    return 0 if not failures else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100, help="SIGKILLs in the kill phase")
    parser.add_argument("--kill-tables", type=int, default=6, help="games played between kills")
    parser.add_argument(
        "--kill-minutes", type=float, default=20, help="upper bound on the kill phase"
    )
    parser.add_argument("--tables", type=int, default=50, help="tables in the load phase")
    parser.add_argument("--minutes", type=float, default=3, help="length of the load phase")
    parser.add_argument("--fault-seconds", type=float, default=40, help="length of faults")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phases", default="hostile,faults,kill,load")
    parser.add_argument("--workdir", default=None, help="databases and bot logs (default: tmp)")
    parser.add_argument(
        "--timeout", type=float, default=3600, help="hard limit on the whole campaign (s)"
    )
    args = parser.parse_args(argv)

    async def bounded() -> int:
        return await asyncio.wait_for(main_async(args), args.timeout)

    try:
        return asyncio.run(bounded())
    except TimeoutError:
        print(f"campaign exceeded its hard limit of {args.timeout}s", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
