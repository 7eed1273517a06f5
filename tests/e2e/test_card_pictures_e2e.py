"""Card pictures as application emojis and charts, end to end:
the fake Discord keeps application emojis with Discord's limits; the bot uploads the 53
pictures on its first start, finds and reuses them on the next (0 uploads), shows the
cards as pictures, falls back to text when Discord refuses; /stats answers with a PNG."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import aiohttp
import pytest

from bot import cards_art
from localdiscord import FakeDiscord
from localdiscord.app_emojis import AppEmoji
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import BOT_ARGS, bot_env
from tests.e2e.test_punto_banco_e2e import PuntoBanco

pytestmark = pytest.mark.e2e

PNG = cards_art.draw("AS")


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode()


@pytest.mark.expect_http(400, "/emojis")  # the test's own uploads
async def test_the_fake_keeps_application_emojis_within_discords_limits(
    fake_discord: FakeDiscord,
) -> None:
    url = f"{fake_discord.api_base}/applications/{fake_discord.app_id}/emojis"
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession(headers=headers) as http:

        async def post(name: str, image: str) -> tuple[int, dict[str, object]]:
            async with http.post(url, json={"name": name, "image": image}) as r:
                return r.status, await r.json()

        status, body = await post("pc_AS", data_uri(PNG))
        assert status == 201 and body["name"] == "pc_AS"
        async with http.get(url) as r:
            listed = await r.json()
        assert [e["name"] for e in listed["items"]] == ["pc_AS"]
        refused = [
            await post("pc_AS", data_uri(PNG)),  # name taken
            await post("x", data_uri(PNG)),  # too short
            await post("a" * 33, data_uri(PNG)),  # too long
            await post("pc-AS", data_uri(PNG)),  # not [A-Za-z0-9_]
            await post("pc_big", data_uri(b"\x89PNG\r\n\x1a\n" + b"0" * 256 * 1024)),
            await post("pc_txt", data_uri(b"hello", "text/plain")),
            await post("pc_lie", data_uri(b"not a png")),
        ]
        assert all(s == 400 and b["code"] == 50035 for s, b in refused), refused
        fake_discord.app_emojis.emojis += [
            AppEmoji(i, f"e{i}", b"") for i in range(1, 2000)
        ]  # 2000 in all
        status, body = await post("pc_2001", data_uri(PNG))
        assert status == 400 and body["code"] == 30018
        assert fake_discord.app_emojis.uploads == 1


async def test_pictures_upload_once_are_reused_after_a_restart_and_show_on_the_table(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    env = bot_env(
        tmp_path / "db.sqlite3",
        CARD_STYLE="emoji",
        DATA_DIR=str(tmp_path),
        SHUFFLE_SEED="0",
        PUNTO_BANCO_BETTING_SECONDS="3",
    )
    bot = await start_bot_process(BOT_ARGS, env, wait_commands=True)
    await fake_discord.wait_until(lambda: fake_discord.app_emojis.uploads == 53, timeout=60)
    assert sorted(e.name for e in fake_discord.app_emojis.emojis) == sorted(
        cards_art.emoji_name(c) for c in cards_art.all_codes()
    )
    assert len(list((tmp_path / "cards").glob("*.png"))) == 53
    await fake_discord.wait_until(lambda: "53 uploaded" in bot.output(), timeout=10)

    t = PuntoBanco(fake_discord, world)
    assert "Punto Banco table open" in await t.bac(world.alice, "start", {"max_bet": 100})
    # the bet is answered with the table, which shows the bettor's line as the receipt
    assert "alice: Banco 10" in await t.bet_form(world.alice, "Banco", "10")
    await fake_discord.wait_until(
        lambda: any("Coup #1" in str(m.embeds) for m in t.public()), timeout=20
    )
    await t.quiet()
    shown = " ".join(m.text + str(m.embeds) for m in t.public())
    assert "<:pc_" in shown and "♥" not in shown and "♠" not in shown, shown

    # a restart finds the 53 and uploads none
    await bot.stop()
    bot = await start_bot_process(BOT_ARGS, env, wait_commands=True)
    await fake_discord.wait_until(lambda: "card emojis: 53 found" in bot.output(), timeout=30)
    assert "53 found, 0 uploaded, 0 refused" in bot.output()
    assert fake_discord.app_emojis.uploads == 53

    # /stats answers with a chart of alice's chips
    r = await fake_discord.slash(world.alice, world.channel, "stats", timeout=20)
    await fake_discord.wait_until(lambda: any(m.attachments for m in r.messages), timeout=30)
    files = [a for m in r.messages for a in m.attachments]
    assert files[0]["filename"] == "stats.png" and files[0]["size"] > 1000
    assert "Chips of alice" in r.all_text and "Punto Banco" in r.all_text
    # alice's one coup is counted, won, lost or pushed (round_results, migration 010)
    counts = re.search(r"Punto Banco rounds — won: (\d+), lost: (\d+), pushed: (\d+)", r.all_text)
    assert counts is not None and sum(map(int, counts.groups())) == 1, r.all_text

    # /leaderboard and /baccarat odds draw theirs when asked
    r = await fake_discord.slash(
        world.bob, world.channel, "leaderboard", options={"chart": True}, timeout=20
    )
    await fake_discord.wait_until(lambda: any(m.attachments for m in r.messages), timeout=30)
    board = next(m for m in r.messages if m.attachments)
    assert board.attachments[0]["filename"] == "leaderboard.png"
    assert board.embeds[0]["image"]["url"] == "attachment://leaderboard.png"
    r = await fake_discord.slash(
        world.bob, world.channel, "baccarat odds", options={"chart": True}, timeout=20
    )
    await fake_discord.wait_until(lambda: any(m.attachments for m in r.messages), timeout=30)
    odds = next(m for m in r.messages if m.attachments)
    assert odds.attachments[0]["filename"] == "odds.png" and "house edge" in odds.text


@pytest.mark.expect_http(403, "/emojis")
async def test_a_refused_upload_leaves_text_cards(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    fake_discord.app_emojis.refuse = (403, 50013, "Missing Permissions")
    env = bot_env(tmp_path / "db.sqlite3", CARD_STYLE="emoji", DATA_DIR=str(tmp_path))
    bot = await start_bot_process(BOT_ARGS, env, wait_commands=True)
    await fake_discord.wait_until(lambda: "cards show as text" in bot.output(), timeout=60)
    assert fake_discord.app_emojis.uploads == 0
    assert "0 uploaded, 1 refused" in bot.output()  # stopped asking after a 403
