"""Helpers for the sandbox tests: start ``python -m bot sandbox``, find Chromium, and act
on the page the way a person does (Playwright, Debian's chromium)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest

from bot.cards_art import EMOJI_PREFIX
from engine.cards import parse_card
from tests.e2e import conversation
from tests.e2e.conftest import REPO_ROOT

if TYPE_CHECKING:
    from playwright.async_api import Locator, Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
NO_BROWSER = "no browser for the sandbox test"
URL_LINE = re.compile(r"Sandbox: open (http://[0-9.]+:\d+)/")
#: a card as text (``A♠``), or as its picture: the application emoji ``<:pc_AS:123>`` in a
#: message's JSON, ``:pc_AS:`` as the page's image alt text (CARD_STYLE=emoji, the default)
CARD = re.compile(rf"\b(?:(10|[2-9AJQK])[♠♥♦♣]|{EMOJI_PREFIX}((?:10|[2-9AJQK])[SHDC])(?=:))")


def cards_in(text: str) -> list[str]:
    """Every card in ``text``, in either form, as text (``A♠``)."""
    return [
        parse_card(m.group(2)).pretty if m.group(2) else m.group(0) for m in CARD.finditer(text)
    ]


def chromium_or_skip() -> None:
    """Skip without Chromium or Playwright; under CI=true fail instead (CI must run the
    browser test, as it must run the PostgreSQL tests: see tests/conftest.py)."""
    missing = None
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing = "Playwright is not installed (pip install -e '.[test]')"
    if missing is None and not os.access(CHROMIUM, os.X_OK):
        missing = f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does it)"
    if missing is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{NO_BROWSER}: {missing}, but CI=true requires it", pytrace=False)
    pytest.skip(f"{NO_BROWSER}: {missing}")


@dataclass
class SandboxProcess:
    proc: asyncio.subprocess.Process
    url: str
    log_path: Path

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def view(self, member: str, channel: str = "") -> dict[str, Any]:
        """What the page of ``member`` receives (the JSON the page draws)."""
        query = {"as": member, **({"channel": channel} if channel else {})}
        async with (
            aiohttp.ClientSession() as http,
            http.get(self.url + "/sandbox/api/view", params=query) as resp,
        ):
            data: dict[str, Any] = await resp.json()
            return data

    async def stop(self) -> int:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        return int(self.proc.returncode or 0)


@contextlib.asynccontextmanager
async def sandbox_process(
    tmp_path: Path, args: tuple[str, ...] = ("sandbox",), *, module: str = "bot", **env: str
) -> AsyncIterator[SandboxProcess]:
    """``python -m bot sandbox`` (``module``: another entry point, such as the tests'
    launcher of their fourth game) on a free port with its database in ``tmp_path``;
    yields once the page answers and the bot has connected and registered its commands."""
    log_path = tmp_path / "sandbox.log"
    full_env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "PYTHONUNBUFFERED": "1",
        "SANDBOX_PORT": "0",
        "SANDBOX_DATABASE_PATH": str(tmp_path / "sandbox.sqlite3"),
        "DATABASE_PATH": str(tmp_path / "real.sqlite3"),
        "DISCORD_TOKEN": "",
        "DATABASE_URL": "",
        **env,
    }
    with log_path.open("wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            module,
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
            env=full_env,
            cwd=str(tmp_path),
        )
    handle = SandboxProcess(proc, "", log_path)
    watch = conversation.current()
    if watch is not None:  # its fake runs in its own process: its log is watched
        watch.watch_log("the sandbox (python -m bot sandbox)", handle.output)
    try:
        deadline = time.monotonic() + 40
        while not handle.url:
            found = URL_LINE.search(handle.output())
            if found:
                handle.url = found.group(1)
            elif proc.returncode is not None or time.monotonic() > deadline:
                pytest.fail(f"the sandbox did not start:\n{handle.output()[-4000:]}")
            await asyncio.sleep(0.1)
        while True:
            with contextlib.suppress(aiohttp.ClientError, ValueError):
                view = await handle.view("Ann")
                if view["bot"]["ready"] and {c["name"] for c in view["commands"]} >= {
                    "pontoon",
                    "baccarat",
                    "balance",
                }:
                    break
            if proc.returncode is not None or time.monotonic() > deadline:
                pytest.fail(f"the bot did not connect to the sandbox:\n{handle.output()[-4000:]}")
            await asyncio.sleep(0.2)
        yield handle
    finally:
        await handle.stop()


# ---------------------------------------------------------------------- the page
class Member:
    """One member's browser tab (``?as=Name``)."""

    def __init__(self, name: str, page: Page) -> None:
        self.name = name
        self.page = page
        self.sent: list[str] = []  # what the page asked the sandbox to do (for failures)
        page.on(
            "request",
            lambda r: (
                self.sent.append(f"{r.url.rsplit('/', 1)[-1]} {r.post_data}")
                if r.method == "POST"
                else None
            ),
        )

    async def open_channel(self, name: str) -> None:
        await self.page.locator(f'#side button[data-channel="{name}"]').click()
        title = f"#{name}" if name != "dm" else "your DMs"
        await self.page.locator("#channel-title", has_text=title).wait_for()

    async def slash(self, path: str, **options: object) -> None:
        """Type the command as on Discord: "/" and its name, pick it from the list, fill
        in the options, press Enter."""
        page = self.page
        await page.locator("#input").fill("/" + path.split()[0])
        await page.locator(f'#suggestions li[data-command="{path}"]').click()
        for name, value in options.items():
            control = page.locator(f'#options [data-option="{name}"]')
            if await control.evaluate("e => e.tagName") == "SELECT":
                await control.select_option(str(value))
            else:
                await control.fill(str(value))
        await page.locator("#options").press("Enter")

    def table(self) -> Locator:
        """The latest message with the table's buttons."""
        return self.page.locator(
            ".msg", has=self.page.get_by_role("button", name="Show my cards", exact=True)
        ).last

    async def table_text(self) -> str:
        """The table's texts: its layout's container (or an embed, for other messages)."""
        return await self.table().locator(".container, .embed").first.inner_text()

    async def click(self, label: str, where: Locator | None = None) -> None:
        button = (where or self.table()).get_by_role("button", name=label, exact=True)
        await button.wait_for()
        await button.click()

    async def enabled(self, where: Locator | None = None) -> set[str]:
        buttons = (where or self.table()).locator("button.btn:not([disabled])")
        return {t.strip() for t in await buttons.all_inner_texts()}

    async def click_form(self, label: str, amount: int | str, where: Locator | None = None) -> str:
        """Click a button that opens a form, fill it in, submit it; returns the form's text.

        A click can reach the bot from a page that had not drawn the table's newest state
        yet (as on Discord); the bot refuses such a stale button, and a person clicks
        again: so does this, up to three times."""
        for attempt in range(3):
            await self.click(label, where)
            try:
                return await self.form(amount, timeout=3_000 if attempt < 2 else 10_000)
            except AssertionError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def form(self, amount: int | str, timeout: float = 10_000) -> str:
        """Fill in the form (modal) the bot showed and submit it; returns its text."""
        modal = self.page.locator("#modal-backdrop:not([hidden])")
        try:
            await modal.wait_for(timeout=timeout)
        except Exception:
            raise AssertionError(
                f"no form on {self.name}'s page; it sent {self.sent[-3:]}:\n"
                f"{await self.page.locator('body').inner_text()}"
            ) from None
        text = await modal.inner_text()
        await modal.locator("#modal-fields input").first.fill(str(amount))
        await modal.locator("#modal-submit").click()
        await self.page.locator("#modal-backdrop[hidden]").wait_for(state="attached")
        return text

    async def ephemerals(self) -> list[str]:
        return await self.page.locator(".msg.ephemeral").all_inner_texts()

    async def last_ephemeral_after(self, count: int, timeout: float = 10) -> str:
        """The text of the first ephemeral answer beyond ``count`` (waits for it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            texts = await self.ephemerals()
            if len(texts) > count and "is thinking" not in texts[-1]:
                return texts[-1]
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.name} got no answer")

    async def balance(self) -> int:
        before = len(await self.ephemerals())
        await self.slash("balance")
        text = await self.last_ephemeral_after(before)
        found = re.search(r"You have ([\d,.  ]+) chips", text)
        assert found, text
        return int(re.sub(r"\D", "", found.group(1)))

    async def text(self) -> str:
        return await self.page.locator("#messages").inner_text()

    async def everything_shown(self) -> str:
        """The whole page's text, with the alt text of every emoji picture on it (a card
        drawn as a picture is in no inner text)."""
        text = await self.page.locator("body").inner_text()
        alts: list[str] = await self.page.locator("img.emoji").evaluate_all(
            "nodes => nodes.map((n) => n.alt)"
        )
        return "\n".join([text, *alts])
