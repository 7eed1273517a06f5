"""Helpers for Pontoon end-to-end tests: drive the real bot through the fake Discord the way
members do (slash commands, button clicks, modal forms) and read what each one saw."""

from __future__ import annotations

import asyncio
import random
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon import Table as EngineTable
from engine.pontoon.types import Action, ActionKind, Phase
from localdiscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from localdiscord.models import walk_components
from tests.e2e.conftest import LIVE_BOTS, BotProcess, StartBot, World

BOT_ARGS = [sys.executable, "-m", "bot"]
TABLE_FOOTER = "Show my cards"


def bot_env(db: Path, **extra: str) -> dict[str, str]:
    env = {
        "DATABASE_PATH": str(db),
        "SHUFFLE_SEED": "7",
        "LOG_LEVEL": "INFO",
        "PONTOON_BET_SECONDS": "600",
        "PONTOON_TURN_SECONDS": "600",
        "PONTOON_IDLE_MINUTES": "60",
    }
    env.update(extra)
    return env


@dataclass
class Table:
    fake: FakeDiscord
    world: World

    async def quiet(self, grace: float = 0.15, timeout: float = 10.0) -> None:
        """Wait until the bot has made no request for ``grace`` seconds, no bot process
        is running or writing (a bot still working after its answer, e.g. sending DMs or
        saving, counts as talking) and no rate-limit bucket of the fake is dry (discord.py
        waits for its reset before the next request to it)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        seen = len(self.fake.requests)
        last_change = loop.time()
        while loop.time() < end:
            await asyncio.sleep(0.03)
            now = len(self.fake.requests)
            if now != seen or any(bot.busy() for bot in LIVE_BOTS) or self._bucket_dry():
                seen, last_change = now, loop.time()
            elif loop.time() - last_change >= grace:
                return
        raise TimeoutError("the bot kept talking")

    def _bucket_dry(self) -> bool:
        limiter = self.fake.rate_limiter
        if not limiter.limits.enabled:
            return False
        now = time.monotonic()
        return any(
            b.used >= b.limit and b.reset_at > now
            for b in (limiter.global_bucket, *limiter.buckets.values())
        )

    def assert_all_answered(self) -> None:
        """Every interaction got its callback within Discord's 3 seconds: none would show
        "This interaction failed". Only this table's server (and DMs) counts: on the shared
        bot other tests' servers are theirs."""
        here = (self.world.guild.id, None)
        bad = [
            (r.kind, r.data.get("name") or r.data.get("custom_id"), r.callback_error)
            for r in self.fake.interactions.values()
            if r.channel.guild_id in here and (not r.answered or r.late)
        ]
        assert not bad, bad

    async def assert_ledger_ok(self, db: Path) -> None:
        """The chip ledger balances to the chip (python -m bot audit's checks)."""
        from bot.audit import audit
        from bot.storage import Store

        store = await Store.open(db)
        try:
            report = await audit(store)
        finally:
            await store.close()
        assert report.ok, report.summary()

    def message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(self.world.channel, TABLE_FOOTER)

    def embed_text(self) -> str:
        """What the table message says: its layout's texts (or an embed's)."""
        msg = self.message()
        parts: list[str] = [msg.text] if not msg.embeds else []
        for em in msg.embeds:
            parts.append(str(em.get("title", "")))
            parts.append(str(em.get("description", "")))
            for f in em.get("fields", []):
                parts.append(f"{f.get('name')}: {f.get('value')}")
        return "\n".join(parts)

    def enabled(self) -> set[str]:
        out = set()
        for c in walk_components(self.message().components):
            if c.get("type") == 2 and not c.get("disabled"):
                out.add(str(c.get("label")))
        return out

    def custom_id(self, label: str, msg: FakeMessage | None = None) -> str:
        msg = msg or self.message()
        for c in walk_components(msg.components):
            if c.get("type") == 2 and c.get("label") == label:
                return str(c["custom_id"])
        raise LookupError(label)

    async def slash(
        self,
        member: FakeMember,
        sub: str,
        options: Mapping[str, object] | None = None,
        command: str = "pontoon",
    ) -> InteractionResult:
        r = await self.fake.slash(member, self.world.channel, command, sub, dict(options or {}))
        await self.answered(r)
        return r

    async def answered(self, r: InteractionResult) -> None:
        """Wait for the bot to finish with ``r``: a deferred answer filled in, then quiet."""
        if r.callback_type == 5:
            await r.wait_message(timeout=10)
        await self.quiet()

    async def click(
        self, member: FakeMember, label: str, msg: FakeMessage | None = None
    ) -> InteractionResult:
        r = await self.fake.click(member, msg or self.message(), label=label)
        await self.answered(r)
        return r

    async def form(
        self, member: FakeMember, label: str, amount: str, shoot: str | None = None
    ) -> InteractionResult:
        """Click a button that opens an amount form, fill it in and submit it."""
        r = await self.fake.click(member, self.message(), label=label)
        assert r.callback_type == 9, f"{label} did not open a form: {r.all_text}"
        assert r.modal is not None
        values = {"amount": amount}
        if shoot is not None:
            values["shoot"] = shoot
        sub = await self.fake.submit_modal(member, None, r.modal.custom_id, values)
        await self.answered(sub)
        return sub

    def ephemeral_texts(self, member: FakeMember) -> list[str]:
        return [m.text for m in self.fake.ephemerals(member)]

    def last_ephemeral(self, member: FakeMember) -> str:
        texts = self.ephemeral_texts(member)
        return texts[-1] if texts else ""

    def dm_text(self, member: FakeMember) -> str:
        return "\n".join(m.text for m in self.fake.dms(member))

    def channel_text(self) -> str:
        return "\n".join(m.text for m in self.fake.channel_messages(self.world.channel))

    def public_texts(self) -> list[str]:
        """Text of every non-ephemeral channel message, every version of each."""
        out: list[str] = []
        for m in self.fake.channel_messages(self.world.channel):
            if m.ephemeral:
                continue
            out.append(m.text)
            for v in getattr(m, "history", []):
                out.append(
                    str(getattr(v, "content", ""))
                    + " "
                    + str(getattr(v, "embeds", ""))
                    + " "
                    + str(getattr(v, "text", ""))
                )
        return out


CARD_RE = re.compile(r"\b(10|[2-9AJQK])[♠♥♦♣]")


def cards_in(text: str) -> list[str]:
    return [m.group(0) for m in CARD_RE.finditer(text)]


async def start(start_bot_process: StartBot, db: Path, **env: str) -> BotProcess:
    return await start_bot_process(BOT_ARGS, bot_env(db, **env), wait_commands=True)


def find_seed(
    n_players: int,
    predicate: Callable[[EngineTable, list[str]], bool],
    *,
    bet: int = 2,
    rules: PontoonRules | None = None,
    tries: int = 5000,
) -> tuple[int, EngineTable]:
    """A SHUFFLE_SEED (and the engine table it leads to) for which the bot's first round satisfies ``predicate``.

    Replays what the bot does with its seeded chance: seats join in order, the opener cuts
    for the bank (P-BANK-1), the banker deals, every player bets ``bet``. The predicate
    sees the engine table after the second card and the seat names in join order."""
    names = ["alice", "bob", "carol"][:n_players]
    for seed in range(tries):
        t = EngineTable(rules or PontoonRules(min_bet=1, max_bet=10))
        chance = RandomChance(random.Random(seed))
        for name in names:
            t.apply(Action(name, ActionKind.JOIN, amount=1000), chance)
        t.apply(Action(names[0], ActionKind.CUT), chance)
        assert t.banker is not None
        t.apply(Action(t.banker, ActionKind.DEAL), chance)
        if t.phase is not Phase.BETTING:
            continue
        for name in names:
            if name != t.banker:
                t.apply(Action(name, ActionKind.BET, amount=bet), chance)
        if predicate(t, names):
            return seed, t
    raise LookupError("no seed found")
