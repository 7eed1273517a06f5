"""The sandbox in a real browser plays a round of Blackjack: ``python -m bot sandbox``,
two members in two Chromium tabs on the ``#blackjack`` channel, every move a click on
the page. The round is predicted by the engine with the bot's seeded shuffle, so the test
knows the dealer's hole card and checks that no page receives it before the dealer's
turn.

Needs Debian's chromium at /usr/bin/chromium; skipped without it, failed instead under
CI=true (tests/conftest.py)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from engine.blackjack import DEALER, Action, ActionKind, BlackjackRules, BlackjackTable, Phase
from engine.cards import RandomChance
from tests.e2e.conftest import REPO_ROOT
from tests.e2e.sandbox_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    Member,
    cards_in,
    chromium_or_skip,
    sandbox_process,
)
from tests.e2e.test_sandbox_browser import everything_seen_by

pytestmark = pytest.mark.e2e
SEED = 7
ARTIFACTS = REPO_ROOT / "artifacts"
K = ActionKind


def first_round(ann: str, ben: str) -> BlackjackTable:
    t = BlackjackTable(BlackjackRules())
    for seat in (ann, ben):
        t.apply(Action(seat, K.JOIN))
        t.apply(Action(seat, K.BET, 10))
    t.apply(Action(DEALER, K.DEAL), RandomChance(random.Random(SEED)))
    return t


def table_of(member: Member):  # type: ignore[no-untyped-def]
    return member.page.locator(".msg", has_text="Blackjack · round").last


async def test_a_blackjack_round_played_in_the_browser(tmp_path: Path) -> None:
    chromium_or_skip()
    from playwright.async_api import async_playwright, expect

    async with (
        sandbox_process(tmp_path, SHUFFLE_SEED=str(SEED)) as sb,
        async_playwright() as pw,
    ):
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        errors: list[str] = []
        people: dict[str, Member] = {}
        for name in ("Ann", "Ben"):
            context = await browser.new_context(viewport={"width": 1100, "height": 760})
            page = await context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            await page.goto(f"{sb.url}/?as={name}")
            await page.locator("#status.ok").wait_for()
            people[name] = Member(name, page)
            await people[name].open_channel("blackjack")
        ann, ben = people["Ann"], people["Ben"]
        ids = {n: str((await sb.view(n))["me"]["id"]) for n in people}
        expect_round = first_round(ids["Ann"], ids["Ben"])

        await ann.slash("blackjack start", betting_seconds=120)
        await expect(table_of(ann)).to_be_visible()
        for member in (ann, ben):
            await member.click("Join", table_of(member))
            await expect(table_of(member)).to_contain_text(member.name)
        await ann.click_form("Bet", 10, table_of(ann))
        await expect(table_of(ann)).to_contain_text("Ann: bet 10")
        await ben.click_form("Bet", 10, table_of(ben))  # every seat has bet: dealt at once
        await expect(table_of(ann)).to_contain_text("Dealer")

        # the hole card reaches no page before the dealer's turn
        shown = {c.pretty for b in expect_round.boxes.values() for h in b.hands for c in h.cards}
        shown.add(expect_round.dealer[0].pretty)
        hole = expect_round.dealer[1].pretty
        if expect_round.phase is not Phase.ROUND_OVER and hole not in shown:
            for name in people:
                seen = await everything_seen_by(sb, name)
                assert hole not in cards_in(seen), f"{name}'s page received the hole card {hole}"

        ARTIFACTS.mkdir(exist_ok=True)  # the table mid-round, the hole card face down
        await ann.page.screenshot(path=str(ARTIFACTS / "sandbox-blackjack.png"))

        # play: decline insurance, then each member stands when it is their turn
        end = time.monotonic() + 60
        while time.monotonic() < end:
            text = await ann.text()
            if "Round 1" in text:
                break
            for member in people.values():
                table = table_of(member)
                labels = await member.enabled(table)
                body = await table.inner_text()
                if "No insurance" in labels:
                    await member.click("No insurance", table)
                elif "Stand" in labels and f"{member.name} to play" in body:
                    await member.click("Stand", table)
            await ann.page.wait_for_timeout(300)
        text = await ann.text()
        assert "Round 1" in text, text
        assert hole in cards_in(await ann.everything_shown())  # turned at the dealer's turn
        await expect(table_of(ben)).to_contain_text("Same bet")
        assert not errors, errors
        await browser.close()
