"""Every member name in any text goes through ``cogs.common.display``.

Members with hostile names (markdown, a masked link, mentions, 2,000 characters,
right-to-left override, zero-width characters) use every slash command the bot registers
(each leaf, its required options filled, member options naming another hostile member)
and every button (a Pontoon round, the bank offer's Accept, the Punto Banco buttons and
bet form). Every answer must be within Discord's limits (the fake refuses with 400 what
Discord would) and every text the bot wrote, in every version, must carry the names inert.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from cogs.common import display
from localdiscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e

HOSTILE = {
    "md": "**x** __y__ `z`",
    "link": "[a](http://evil.example)",
    "ping": "@everyone <@1> @here",
    "long": "W" * 2000,
    "rtl": "\u202eevil\u202c",
    "zw": "a\u200bb\u2060c\ufeff",
}
#: what must never reach a member as written (each would render, ping or hide)
RAW = [
    "**x**",
    "__y__",
    "`z`",
    "http://evil",
    "W" * 40,
    "\u202e",
    "\u2060",
    "\ufeff",
    "a\u200bb",
]
MENTION = re.compile(r"@(everyone|here)")
#: a masked link or a mention whose bracket is not escaped
UNESCAPED = re.compile(r"(?<!\\)\[a\]\(|(?<!\\)<@1>")


def leaves(commands: list[dict[str, Any]]) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """Every runnable command path with its options."""
    out: list[tuple[list[str], list[dict[str, Any]]]] = []

    def walk(path: list[str], options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o.get("type") in (1, 2)]
        if not subs:
            out.append((path, options))
        for sub in subs:
            walk([*path, sub["name"]], sub.get("options") or [])

    for cmd in commands:
        if cmd.get("type", 1) == 1:
            walk([cmd["name"]], cmd.get("options") or [])
    return out


def fill(options: list[dict[str, Any]], others: itertools.cycle[FakeMember]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for opt in options:
        kind = opt.get("type")
        if kind == 6:  # a member: always one with a hostile name
            values[opt["name"]] = next(others)
        elif not opt.get("required"):
            continue
        elif opt.get("choices"):
            values[opt["name"]] = opt["choices"][0]["value"]
        elif kind == 4 or kind == 10:
            values[opt["name"]] = max(int(opt.get("min_value", 1)), 1)
        elif kind == 5:
            values[opt["name"]] = True
        elif kind == 3:
            values[opt["name"]] = "1"
    return values


class Pb(Table):
    def message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(self.world.channel, "Punto")


async def play_a_round(t: Table, people: dict[str, FakeMember]) -> None:
    """Deal and play one Pontoon round through the buttons, finding each actor by the
    name the table shows (``display`` of their name)."""

    def who(prefix: str) -> FakeMember | None:
        text = t.embed_text()
        return next((m for d, m in people.items() if f"{prefix}**{d}**" in text), None)

    dealer = who("Banker: ") or who("Next: ")
    assert dealer is not None, t.embed_text()
    await t.click(dealer, "Deal")
    banker = who("Banker: ")
    for m in people.values():
        if m is not banker:
            r = await t.form(m, "Bet", "2")
            assert r.callback_type == 7, r.all_text
    for _ in range(60):
        text = t.embed_text()
        if "presses **Deal**" in text:
            return
        if "Turn: **the banker**" in text:
            assert banker is not None
            await t.click(banker, "Banker: stay")
            continue
        member = who("Turn: ")
        assert member is not None, text
        await t.click(member, "Show my cards")
        enabled = t.enabled()
        move = next((b for b in ("Declare", "Stick", "Twist", "Burn") if b in enabled), None)
        assert move is not None, (enabled, t.embed_text())
        await t.click(member, move)
    raise AssertionError("the round did not end")


async def test_hostile_names_are_inert_in_every_answer(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    fake = fake_discord
    members = {
        k: fake.add_member(world.guild, name, manage_guild=k == "md") for k, name in HOSTILE.items()
    }
    people = {display(m.user.name): m for m in members.values()}
    assert len(people) == len(members)
    await start(start_bot_process, tmp_path / "db.sqlite3", PUNTO_BANCO_BETTING_SECONDS="300")
    t = Table(fake, world)

    # ---- Pontoon through its buttons: a round, then the bank offered and accepted
    r = await t.slash(members["md"], "start", {"min_bet": 1})
    for m in list(members.values())[1:]:
        await t.click(m, "Join")
    await play_a_round(t, people)
    await play_a_round(t, people)
    seller = next(
        (m for d, m in people.items() if f"Next: **{d}**" in t.embed_text()), members["md"]
    )
    buyer = next(m for m in members.values() if m is not seller)
    await fake.slash(seller, world.channel, "bank", "sell", {"member": buyer, "price": 1})
    await t.quiet()
    offers = [m for m in fake.channel_messages(world.channel) if m.has_button("Accept")]
    if offers:
        await fake.click(buyer, offers[-1], label=offers[-1].buttons()[0].label)
        await t.quiet()
    await t.slash(members["md"], "end")  # chips are in play at one table of a server

    # ---- Punto Banco through its buttons and form, in another channel
    lounge = fake.add_text_channel(world.guild, "lounge")
    pb = Pb(fake, World(world.guild, lounge, world.alice, world.bob, world.carol))
    await pb.slash(members["rtl"], "start", {"max_bet": 100}, command="baccarat")
    for side, m in zip(["Punto", "Banco", "Egalité"] * 2, members.values(), strict=False):
        r = await pb.form(m, side, "3")
        assert r.callback_type == 7, r.all_text
    await pb.click(members["link"], "Take back my bets")
    await pb.click(members["ping"], "Repeat bet")
    await pb.click(members["zw"], "Odds")

    # ---- every slash command, each by a hostile member, member options naming another
    others = itertools.cycle(list(members.values()))
    walk = fake.add_text_channel(world.guild, "walk")
    walked = 0
    for channel in (world.channel, lounge, walk):
        for path, options in leaves(fake.commands(world.guild) or fake.commands()):
            if path[-1] in ("end", "leave"):
                continue  # kept for last: the tables stay open for the other commands
            # by the server manager (every path open to them) and by another member
            for member in (members["md"], next(others)):
                await fake.slash(member, channel, path[0], path[1:] or None, fill(options, others))
                walked += 1
        await t.quiet()
    assert walked > 40
    for channel in (world.channel, lounge, walk):
        for command in ("pontoon", "baccarat"):
            for m in members.values():
                sub = "leave" if command == "pontoon" else "end"
                await fake.slash(m, channel, command, sub, {})
            await fake.slash(members["md"], channel, command, "end", {})
        await t.quiet()
    assert any("closed" in m.text for m in fake.channel_messages(lounge))

    # ---- every interaction answered, nothing refused as too long or malformed
    t.assert_all_answered()
    refused = [(r.method, r.path, r.status) for r in fake.requests if r.status == 400]
    assert not refused, refused
    # ---- every text the bot wrote, in every version, carries the names inert
    texts = [m.all_versions_text for m in fake.messages.values()]
    assert any(display(HOSTILE["long"]) in x for x in texts)
    assert any(display(HOSTILE["md"]) in x for x in texts)
    for text in texts:
        for raw in RAW:
            assert raw not in text, (raw, text[:500])
        assert not MENTION.search(text), text[:500]
        assert not UNESCAPED.search(text), text[:500]
