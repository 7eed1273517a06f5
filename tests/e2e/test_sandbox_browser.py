"""The sandbox in a real browser: ``python -m bot sandbox``, four members in four tabs
(Chromium driven by Playwright), a full Pontoon round and a Punto Banco coup played by
clicking the page. Checks what each member sees: their own cards privately, never
another's face-down card, the table updated for everyone, and chips conserved.

Needs Debian's chromium at /usr/bin/chromium (.ci/run installs it); skipped without it,
failed instead under CI=true (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.__main__ import sandbox_channels
from tests.e2e.conftest import REPO_ROOT
from tests.e2e.sandbox_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Member,
    SandboxProcess,
    cards_in,
    chromium_or_skip,
    sandbox_process,
)

if TYPE_CHECKING:
    from playwright.async_api import Locator

pytestmark = pytest.mark.e2e

NAMES = ("Ann", "Ben", "Cat", "Dev")
ARTIFACTS = REPO_ROOT / "artifacts"
BET = 4


def hand_total(text: str) -> int:
    found = re.findall(r"= (\d+)", text)
    return int(found[-1]) if found else 0


async def wait_text(member: Member, pattern: str, timeout: float = 15) -> re.Match[str]:
    end = time.monotonic() + timeout
    text = ""
    while time.monotonic() < end:
        text = await member.table_text()
        found = re.search(pattern, text)
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"{pattern!r} never showed on {member.name}'s page:\n{text}")


async def private_cards(sb: SandboxProcess, name: str) -> list[str]:
    """The cards in this member's DMs (what their page gets for the DM channel)."""
    view = await sb.view(name, "dm")
    return cards_in(json.dumps([m for m in view["messages"]], ensure_ascii=False))


async def everything_seen_by(sb: SandboxProcess, name: str) -> str:
    """Every message the member's page receives, in every channel and their DMs."""
    view = await sb.view(name)
    texts = []
    for channel in [*(c["id"] for c in view["channels"]), "dm"]:
        v = await sb.view(name, channel)
        texts.append(json.dumps(v["messages"], ensure_ascii=False))
    return "\n".join(texts)


async def play_pontoon_round(sb: SandboxProcess, people: dict[str, Member]) -> dict[str, object]:
    """From the open table to the payouts, every move by clicking a member's page."""
    ann = people["Ann"]
    seen: dict[str, object] = {"moves": []}
    moves: list[str] = seen["moves"]  # type: ignore[assignment]
    first_cards: dict[str, str] = {}
    bet_in = False
    for _ in range(80):
        text = await ann.table_text()
        if bet_in and ("presses Deal" in text or "Next:" in text) and "Turn:" not in text:
            break  # the round was paid out; the table waits for the next deal
        dealer = re.search(r"Next: (\w+) presses", text)
        waiting = re.search(r"Waiting for (.+) to bet", text)
        banker_turn = "Turn: the banker" in text
        turn = re.search(r"Turn: (\w+)", text)
        if dealer:
            member = people[dealer.group(1)]
            await wait_text(member, rf"Next: {member.name} presses")
            moves.append(f"{member.name}: Deal")
            await member.click("Deal")
        elif waiting:
            for name in NAMES:
                if name in waiting.group(1) and name not in first_cards:
                    member = people[name]
                    await wait_text(member, rf"Waiting for .*{name}")
                    form = await member.click_form("Bet", BET)
                    found = cards_in(form)
                    assert found, f"the bet form shows {name}'s first card: {form}"
                    first_cards[name] = found[0]
                    moves.append(f"{name}: Bet {BET}")
            bet_in = True
            if not seen.get("privacy_checked"):
                await wait_text(ann, r"Turn: ")
                seen["privacy_checked"] = await check_privacy(sb, people, first_cards)
        elif banker_turn:
            banker = re.search(r"Turn: the banker \((\w+)\)", text)
            assert banker, text
            member = people[banker.group(1)]
            await wait_text(member, r"Turn: the banker")
            total = hand_total(text.split("Banker")[-1])
            move = (
                "Banker: stay"
                if total >= 17 or "Banker: twist" not in await member.enabled()
                else "Banker: twist"
            )
            moves.append(f"{member.name}: {move}")
            await member.click(move)
        elif turn:
            member = people[turn.group(1)]
            await wait_text(member, rf"Turn: {member.name}\b")
            before = len(await member.ephemerals())
            await member.click("Show my cards")
            total = hand_total(await member.last_ephemeral_after(before))
            enabled = await member.enabled()
            if "screenshot" not in seen:  # the table mid-round, and the hand only they see
                seen["screenshot"] = await screenshot(member)
            if "Declare" in enabled:
                move = "Declare"
            elif "Buy" in enabled and not any("Buy" in m for m in moves) and total <= 11:
                move = "Buy"
            elif (
                "Twist" in enabled
                and (total < 15 or not any("Twist" in m for m in moves))
                and total <= 16
            ):
                move = "Twist"
            elif "Stick" in enabled:
                move = "Stick"
            else:
                move = "Twist" if "Twist" in enabled else "Buy"
            moves.append(f"{member.name}: {move} ({total})")
            if move == "Buy":
                await member.click_form("Buy", BET)
            else:
                await member.click(move)
        else:
            await asyncio.sleep(0.1)
            continue
        await asyncio.sleep(0.3)
    else:
        raise AssertionError(f"the round did not finish: {moves}\n{await ann.table_text()}")
    seen["first_cards"] = first_cards
    return seen


async def check_privacy(
    sb: SandboxProcess, people: dict[str, Member], first_cards: dict[str, str]
) -> bool:
    """After the deal: each player's face-down cards are in their own DMs (and the bet
    form), on no other member's page, and not on the public table."""
    await asyncio.sleep(1.0)  # the DMs of the second card
    hidden: dict[str, set[str]] = {}
    for name in first_cards:
        mine = set(await private_cards(sb, name))
        assert first_cards[name] in mine, f"{name}'s DMs: {mine}"
        hidden[name] = mine
    for viewer in NAMES:
        seen = await everything_seen_by(sb, viewer)
        page_text = await people[viewer].everything_shown()
        # cards as text or as pictures (the emoji in the JSON, the image's alt on the page)
        seen_cards, page_cards = set(cards_in(seen)), set(cards_in(page_text))
        for owner, cards in hidden.items():
            if owner == viewer:
                continue
            for card in cards:
                assert card not in seen, f"{viewer}'s page received {owner}'s card {card}"
                assert card not in seen_cards, f"{viewer}'s page received {owner}'s card {card}"
                assert card not in page_text, f"{viewer}'s page shows {owner}'s card {card}"
                assert card not in page_cards, f"{viewer}'s page shows {owner}'s card {card}"
    return True


# Discord markup the page must render, never show raw: mentions of a member, a channel,
# a slash command, a time; a custom emoji
RAW_MARKUP = re.compile(r"<(@!?\d+|#\d+|/[^<>:]+:\d+|t:-?\d+(:[tTdDfFR])?|a?:\w+:\d+)>")


async def screenshot(member: Member) -> str:
    """The table mid-round as ``member`` sees it, every bit of Discord markup on the page
    rendered (the README shows this picture)."""
    raw = RAW_MARKUP.findall(await member.everything_shown())
    assert not raw, f"{member.name}'s page shows raw markup: {raw}"
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "sandbox-table.png"
    await member.page.screenshot(path=str(path))
    return str(path)


async def test_a_pontoon_round_and_a_coup_played_in_the_browser(tmp_path: Path) -> None:
    chromium_or_skip()
    from playwright.async_api import async_playwright, expect

    started = time.monotonic()
    async with (
        sandbox_process(
            tmp_path,
            SHUFFLE_SEED="7",
            PONTOON_BET_SECONDS="60",
            PONTOON_TURN_SECONDS="60",
            PUNTO_BANCO_BETTING_SECONDS="3",
            CARD_STYLE="emoji",  # the default: cards as the application emojis' pictures
        ) as sb,
        async_playwright() as pw,
    ):
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        errors: list[str] = []
        toasts: list[str] = []
        people: dict[str, Member] = {}
        for name in NAMES:  # one tab per member, as four people on one machine would
            context = await browser.new_context(viewport={"width": 1100, "height": 760})
            page = await context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg, who=name: toasts.append(f"{who}: {msg.text}"))
            await page.goto(f"{sb.url}/?as={name}")
            await page.locator("#status.ok").wait_for()
            people[name] = Member(name, page)
        ann, ben, cat, dev = (people[n] for n in NAMES)
        assert "Local sandbox" in await ann.page.locator("#banner").inner_text()
        assert await ben.page.locator("#me-name").inner_text() == "Ben"

        before = {n: await m.balance() for n, m in people.items()}
        assert set(before.values()) == {1000}, before

        # the group DM of every member is listed under Direct messages, and opens
        friends = dev.page.locator('#dms button[data-channel="friends"]')
        await expect(friends).to_contain_text("4 members")
        await friends.click()
        await expect(dev.page.locator("#channel-title")).to_have_text(
            "friends (group DM: Ann, Ben, Cat, Dev)"
        )
        await expect(friends).to_have_class("current")
        # an empty channel names every game's start command, as the bot registered them
        await dev.open_channel("lobby")
        starts = sorted(f"/{group} start" for group in sandbox_channels())
        await expect(dev.page.locator("#messages")).to_contain_text(
            "Nothing here yet. Type " + ", ".join(starts[:-1]) + " or " + starts[-1] + " below."
        )
        await dev.open_channel("pontoon")

        # ---------------------------------------------------------------- Pontoon
        await ann.slash("pontoon start", min_bet=1, max_bet=10)
        await expect(ann.table()).to_be_visible()
        for member in (ben, cat, dev):
            await member.click("Join")
            await expect(member.table()).to_contain_text(member.name)
        for member in people.values():  # the same table, updated for everyone
            for name in NAMES:
                await expect(member.table().locator(".container")).to_contain_text(name)
        # the table is laid out as Discord draws a layout message: one container with an
        # accent bar, a heading, text blocks between separators, the buttons in rows inside
        box = ann.table().locator(".components.v2 > .container")
        await expect(box).to_have_count(1)
        await expect(box.locator(".md-h2")).to_contain_text("Pontoon")
        assert await box.locator(".v2-text").count() >= 3  # header, seats, footer
        assert await box.locator(".separator.divider").count() >= 1
        assert await box.locator(".row button.btn").count() >= 3
        assert "border-inline-start-color" in (await box.get_attribute("style") or "")
        assert await ann.table().locator(".embed").count() == 0

        seen = await play_pontoon_round(sb, people)
        moves = " | ".join(seen["moves"])  # type: ignore[arg-type]
        assert seen.get("privacy_checked"), moves
        for kind in ("Bet", "Buy", "Twist", "Stick", "Banker:"):
            assert kind in moves, f"no {kind} in the round: {moves}"
        # the round's result is posted in the channel, seen by everyone
        for member in people.values():
            await expect(member.page.locator("#messages")).to_contain_text("Payouts")
        # the cards are drawn as the pictures the bot uploaded (as Discord would show them)
        pictures = ann.page.locator("#messages img.emoji")
        await expect(pictures.first).to_be_visible()
        loaded = await pictures.evaluate_all(
            "nodes => nodes.map((n) => [n.alt, n.complete && n.naturalWidth > 0])"
        )
        assert loaded and all(ok for _, ok in loaded), loaded
        assert cards_in(" ".join(alt for alt, _ in loaded)), loaded
        # ... inside the table's layout too: the cards of the round just played
        table_pictures = ann.table().locator(".container img.emoji")
        assert await table_pictures.count() > 0

        print(f"pontoon round done at {time.monotonic() - started:.1f} s")
        # /stats: the chart its caption describes is on the page (a plain attachment,
        # drawn under the text as Discord draws it)
        await ann.slash("stats")
        chart = ann.page.locator("#messages .msg.ephemeral img.attachment-image").last
        await expect(chart).to_be_visible(timeout=15_000)
        assert await chart.get_attribute("alt") == "stats.png"
        assert await chart.evaluate("n => n.complete && n.naturalWidth > 200"), "chart not loaded"
        # the opener closes the table, so the players may sit at the Punto Banco table
        await ann.slash("pontoon end")
        await expect(ann.table().get_by_role("button", name="Join", exact=True)).to_be_disabled()
        after = {n: await m.balance() for n, m in people.items()}
        assert sum(after.values()) == sum(before.values()), (before, after, moves)
        assert after != before, "chips moved in the round"

        # ------------------------------------------------- Blackjack in the group DM
        # a newcomer's table outside the server: the command's answer is the table, a
        # Join updates it on every page, and a round is played through the clicks
        await play_blackjack_in_the_group_dm(ann, ben)
        print(f"group DM round done at {time.monotonic() - started:.1f} s")

        # ---------------------------------------------------------------- Punto Banco
        for member in people.values():
            await member.open_channel("baccarat")
        await ann.slash("baccarat start", min_bet=1, max_bet=100, betting_seconds=8)
        bets = {"Ben": ("Punto", 20), "Cat": ("Banco", 20), "Dev": ("Egalité", 10)}
        for name, (side, amount) in bets.items():
            member = people[name]
            table = member.page.locator(
                ".msg", has=member.page.get_by_role("button", name="Punto", exact=True)
            ).last
            await member.click_form(side, amount, table)
        for member in people.values():
            try:
                await expect(member.page.locator("#messages")).to_contain_text(
                    "Coup #1: payouts", timeout=20_000
                )
            except AssertionError:
                said = {n: await m.ephemerals() for n, m in people.items()}
                raise AssertionError(f"no coup; the pages said: {toasts} {said}") from None
        summary = await ann.page.locator("#messages").inner_text()
        # the betting message is a layout too: the bets, the odds, the buttons in rows
        pb_table = ann.page.locator(
            ".msg", has=ann.page.get_by_role("button", name="Odds", exact=True)
        ).first
        await expect(pb_table.locator(".components.v2 > .container")).to_have_count(1)
        await expect(pb_table.locator(".container")).to_contain_text("Ben")
        coup = await balances_after_coup(people, after)
        check_coup(summary, bets, coup)
        ARTIFACTS.mkdir(exist_ok=True)  # the coup's post and the next betting window
        await ann.page.screenshot(path=str(ARTIFACTS / "sandbox-baccarat.png"))

        # the ledger balances (Manage Server: Ann), through the page too
        before_audit = len(await ann.ephemerals())
        await ann.slash("chips audit")
        audit = await ann.last_ephemeral_after(before_audit)
        # the server's 4,000 chips, and Ben's own 1,000 outside servers (the group DM)
        assert "Ledger audit: OK" in audit and "total 4,000 vs granted 4,000" in audit, audit
        assert "5,000 chips in accounts, 5,000 granted" in audit, audit

        # a chart (an embed's attachment://… image) is drawn as a picture, as on Discord
        await ann.slash("leaderboard", chart="true")
        chart = ann.page.locator("img.embed-image").last
        await chart.wait_for()
        await ann.page.wait_for_function(
            "() => [...document.querySelectorAll('img.embed-image')]"
            ".some((i) => i.complete && i.naturalWidth > 100)"
        )

        # every page, its baccarat channel as it now stands: no raw Discord markup
        for member in people.values():
            raw = RAW_MARKUP.findall(await member.everything_shown())
            assert not raw, f"{member.name}'s page shows raw markup: {raw}"

        assert not errors, errors
        await browser.close()
    # the sandbox's database, never the real one
    assert (tmp_path / "sandbox.sqlite3").exists()
    assert not (tmp_path / "real.sqlite3").exists()
    print(f"sandbox browser test: {time.monotonic() - started:.1f} s; moves: {moves}")


async def play_blackjack_in_the_group_dm(ann: Member, ben: Member) -> None:
    """Ann opens a Blackjack table in the "friends" group DM, Ben joins (the table updated
    on both pages), bets and plays his hand; the next round opens on the same table."""
    from playwright.async_api import expect

    def table(member: Member) -> Locator:
        return member.page.locator(".msg", has_text="Blackjack · round").last

    for member in (ann, ben):
        await member.page.locator('#side button[data-channel="friends"]').click()
        await expect(member.page.locator("#channel-title")).to_contain_text("friends (group DM")
    await ann.slash("blackjack start", betting_seconds=600)
    await expect(table(ben)).to_contain_text("Seats (0/7)")
    await ben.click("Join", table(ben))
    for member in (ann, ben):  # one click, the table updated for everyone
        await expect(table(member)).to_contain_text("Seats (1/7)")
        await expect(table(member)).to_contain_text("Ben")
    await ben.click_form("Bet", 10, table(ben))
    for _ in range(60):
        if "round 2" in await table(ben).inner_text():
            break
        enabled = await ben.enabled(table(ben))
        for move in ("No insurance", "Stand"):
            if move in enabled:
                await ben.click(move, table(ben))
                break
        await asyncio.sleep(0.25)
    for member in (ann, ben):  # the round was paid: the table takes the next one's bets
        await expect(table(member)).to_contain_text("round 2")
    await ann.slash("blackjack end")
    await expect(table(ben)).to_contain_text("closed")


async def balances_after_coup(people: dict[str, Member], before: dict[str, int]) -> dict[str, int]:
    return {n: await m.balance() - before[n] for n, m in people.items()}


def check_coup(summary: str, bets: dict[str, tuple[str, int]], change: dict[str, int]) -> None:
    """Each bettor's balance moved as the coup's result says (Banco pays 19:20, rounded
    down; Egalité 8:1; Punto and Banco returned on a tie); Ann did not bet."""
    assert change["Ann"] == 0, change
    # the coup's post says the result once (its payouts under it say no more)
    tie = re.search(r"Egalité \d–\d: Egalité bets win", summary) is not None
    winner = None
    found = re.search(r"(Punto|Banco) wins, \d to \d", summary)
    if found:
        winner = found.group(1)
    assert tie or winner, summary
    for name, (side, amount) in bets.items():
        if side == "Egalité":
            expected = 8 * amount if tie else -amount
        elif tie:
            expected = 0
        elif side == winner:
            expected = amount * 95 // 100 if side == "Banco" else amount
        else:
            expected = -amount
        assert change[name] == expected, (name, side, change, summary[-600:])
