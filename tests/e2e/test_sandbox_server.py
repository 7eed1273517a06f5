"""The sandbox's server without a browser: ``python -m bot`` with no token starts it, and
whatever the page could send (forged member ids, stale buttons, double submits, a tab
closed mid-round, 1 MB form values, broken JSON) is refused the way Discord or the bot
refuses it, while the server keeps serving."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import sandbox_channels
from localdiscord.models import walk_components
from localdiscord.sandbox import MAX_BODY, Sandbox
from localdiscord.server import FakeDiscord
from tests.e2e.conftest import REPO_ROOT
from tests.e2e.sandbox_browser import SandboxProcess, sandbox_process

pytestmark = pytest.mark.e2e


async def api(sb: SandboxProcess, action: str, **body: Any) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{sb.url}/sandbox/api/{action}", json=body) as resp,
    ):
        return resp.status, await resp.json()


async def raw_post(sb: SandboxProcess, action: str, data: bytes) -> int:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{sb.url}/sandbox/api/{action}",
            data=data,
            headers={"Content-Type": "application/json"},
        ) as resp,
    ):
        return resp.status


async def wait_for(sb: SandboxProcess, member: str, channel: str, predicate: Any) -> Any:
    for _ in range(100):
        view = await sb.view(member, channel)
        found = predicate(view)
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"never happened; {member} sees {json.dumps(view)[-2000:]}")


def with_button(label: str) -> Any:
    def find(view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        for m in reversed(view["messages"]):
            for c in walk_components(m["components"]):
                if c.get("label") == label and not c.get("disabled"):
                    return m, c["custom_id"]
        return None

    return find


def ephemerals(view: dict[str, Any]) -> list[str]:
    return [m["content"] for m in view["messages"] if m["ephemeral"] and not m["loading"]]


def last_ephemeral(view: dict[str, Any]) -> str:
    texts = [m["content"] for m in view["messages"] if m["ephemeral"] and not m["loading"]]
    return texts[-1] if texts else ""


async def test_python_m_bot_without_a_token_starts_the_sandbox_and_refuses_bad_input(
    tmp_path: Path,
) -> None:
    async with sandbox_process(tmp_path, args=(), PUNTO_BANCO_BETTING_SECONDS="30") as sb:
        output = sb.output()
        assert "No DISCORD_TOKEN: starting the sandbox" in output
        assert sb.url.startswith("http://127.0.0.1:")  # local only by default
        view = await sb.view("Ann")
        ann, ben = view["me"]["id"], (await sb.view("Ben"))["me"]["id"]
        pontoon = next(c["id"] for c in view["channels"] if c["name"] == "pontoon")
        baccarat = next(c["id"] for c in view["channels"] if c["name"] == "baccarat")

        # the page and its files; a page asks as a member, by name or by id
        async with aiohttp.ClientSession() as http:
            async with http.get(sb.url + "/") as resp:
                page = await resp.text()
                assert resp.status == 200 and "Local sandbox" in page
            for name in ("app.js", "style.css"):
                async with http.get(f"{sb.url}/sandbox/{name}") as resp:
                    assert resp.status == 200
            async with http.get(f"{sb.url}/sandbox/../bot/settings.py") as resp:
                assert resp.status == 404
            # the REST API wants the sandbox's token, as Discord wants the bot's
            async with http.get(f"{sb.url}/api/v10/users/@me") as resp:
                assert resp.status == 401
            async with http.get(
                f"{sb.url}/api/v10/users/@me", headers={"Authorization": "Bot guessed"}
            ) as resp:
                assert resp.status == 401

        # forged member ids: unknown, the bot's own, not a number
        for forged in ("123", view["bot"]["id"], "-1", "x" * 5000, ""):
            status, answer = await api(
                sb, "slash", channel=pontoon, path=["balance"], **{"as": forged}
            )
            assert status == 403 and answer["error"] == "Unknown member.", (forged, answer)
        async with (
            aiohttp.ClientSession() as http,
            http.get(sb.url + "/sandbox/api/view", params={"as": "99999"}) as resp,
        ):
            assert resp.status == 403

        # commands typed as registered: unknown ones, options of the wrong type
        status, answer = await api(sb, "slash", channel=pontoon, path=["nope"], **{"as": ann})
        assert status == 404
        status, answer = await api(
            sb,
            "slash",
            channel=pontoon,
            path=["pontoon", "start"],
            options={"min_bet": "lots"},
            **{"as": ann},
        )
        assert status == 400 and "number" in answer["error"]
        status, answer = await api(sb, "slash", channel="1", path=["balance"], **{"as": ann})
        assert status == 404

        # a table; Ben joins
        status, _ = await api(
            sb,
            "slash",
            channel=pontoon,
            path=["pontoon", "start"],
            options={"min_bet": 1, "max_bet": 10},
            **{"as": ann},
        )
        assert status == 200
        table, join = await wait_for(sb, "Ben", pontoon, with_button("Join"))
        status, _ = await api(sb, "click", message=table["id"], custom_id=join, **{"as": ben})
        assert status == 200
        await wait_for(sb, "Ann", pontoon, lambda v: "Ben" in json.dumps(v["messages"][-1]))

        # a button the message no longer has (the page showed an older state): refused
        # like Discord's "This interaction failed"; another member's ephemeral: unknown
        status, answer = await api(
            sb, "click", message=table["id"], custom_id="pt:gone", **{"as": ben}
        )
        assert status == 409 and "interaction failed" in answer["error"]
        opened = await sb.view("Ann", pontoon)
        private = next(m for m in opened["messages"] if m["ephemeral"])
        status, answer = await api(sb, "click", message=private["id"], custom_id="x", **{"as": ben})
        assert status == 404 and answer["error"] == "Unknown message."

        # a click on the Join button as an outdated page drew it (its custom id names an
        # older state of the table) reaches the bot, which refuses it privately
        answers = len(ephemerals(await sb.view("Ben", pontoon)))
        status, _ = await api(sb, "click", message=table["id"], custom_id=join, **{"as": ben})
        assert status == 200
        stale = await wait_for(sb, "Ben", pontoon, lambda v: ephemerals(v)[answers:])
        assert stale[0], stale

        # Ben clicks Join again (double click): the bot's own refusal, privately
        table, join = with_button("Join")(await sb.view("Ben", pontoon))
        status, _ = await api(sb, "click", message=table["id"], custom_id=join, **{"as": ben})
        assert status == 200
        refusal = (await wait_for(sb, "Ben", pontoon, lambda v: ephemerals(v)[answers + 1 :]))[0]
        assert "already" in refusal.lower(), refusal
        seated = json.dumps((await sb.view("Ann", pontoon))["messages"][-1], ensure_ascii=False)
        assert seated.count("Ben —") == 1, seated

        # Ben leaves, then Punto Banco: the bet form, a 1 MB value, a double submit
        _, leave = with_button("Leave")(await sb.view("Ben", pontoon))
        await api(sb, "click", message=table["id"], custom_id=leave, **{"as": ben})
        await api(sb, "slash", channel=pontoon, path=["pontoon", "end"], **{"as": ann})
        await api(
            sb,
            "slash",
            channel=baccarat,
            path=["baccarat", "start"],
            options={"betting_seconds": 30},
            **{"as": ann},
        )
        pb_table, punto = await wait_for(sb, "Ben", baccarat, with_button("Punto"))
        await api(sb, "click", message=pb_table["id"], custom_id=punto, **{"as": ben})
        modal = await wait_for(sb, "Ben", baccarat, lambda v: v["modal"])
        field = modal["inputs"][0]["custom_id"]

        assert await raw_post(sb, "modal", b"x" * (1024 * 1024)) == 413
        assert await raw_post(sb, "modal", b'{"as": "' + b"1" * (MAX_BODY + 10) + b'"}') == 413
        assert await raw_post(sb, "modal", b"{not json") == 400
        assert await raw_post(sb, "modal", b"[1, 2]") == 400
        status, answer = await api(
            sb, "modal", modal=modal["id"], values={field: "9" * 5000}, **{"as": ben}
        )
        assert status == 400 and "fewer in length" in answer["error"]
        status, answer = await api(
            sb, "modal", modal=modal["id"], values={"other": "1"}, **{"as": ben}
        )
        assert status == 400
        status, answer = await api(
            sb, "modal", modal=modal["id"], values={field: "5"}, **{"as": ann}
        )
        assert status == 404  # Ann submits Ben's form: she never saw it
        for _ in range(2):  # a double submit: both reach the bot, which keeps one bet of 5
            status, _ = await api(
                sb, "modal", modal=modal["id"], values={field: "5"}, **{"as": ben}
            )
            assert status == 200
        await wait_for(
            sb,
            "Ann",
            baccarat,
            lambda v: "Punto 5 ·" in json.dumps(v["messages"], ensure_ascii=False),
        )

        # a tab closed mid-round: its WebSocket goes away, the others go on
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(sb.url + "/sandbox/ws")
            first = await ws.receive_json(timeout=5)
            assert "version" in first
            await ws.close()
            ws2 = await http.ws_connect(sb.url + "/sandbox/ws")
            ws2._response.connection.transport.abort()  # type: ignore[union-attr]
        status, _ = await api(sb, "slash", channel=baccarat, path=["balance"], **{"as": ben})
        assert status == 200
        balance = await wait_for(
            sb, "Ben", baccarat, lambda v: "995" in last_ephemeral(v) and last_ephemeral(v)
        )
        assert "995" in balance

        # unknown actions, member names and locales
        assert (await api(sb, "explode", **{"as": ann}))[0] == 404
        assert (await api(sb, "add_member", name="<script>"))[0] == 400
        assert (await api(sb, "add_member", name="Ann"))[0] == 409
        status, answer = await api(sb, "add_member", name="Eve")
        assert status == 200 and answer["member"]["name"] == "Eve"
        assert (await api(sb, "locale", locale="xx", **{"as": ann}))[0] == 400
        assert (await api(sb, "locale", locale="de", **{"as": ben}))[0] == 200
        assert (await sb.view("Ben"))["me"]["locale"] == "de"

        assert sb.proc.returncode is None, sb.output()
        view = await sb.view("Eve")
        assert view["me"]["name"] == "Eve"
        # SIGTERM (like Ctrl-C) stops the bot, then the server, cleanly
        assert await sb.stop() == 0, sb.output()
        assert "Traceback" not in sb.output(), sb.output()
        # the console pairs "stopping: …" with "stopped cleanly" (newcomer N-13)
        out = sb.output()
        assert "stopping:" in out and "stopped cleanly" in out, out
        assert out.index("stopping:") < out.index("stopped cleanly")


async def test_the_fake_gateway_acknowledges_a_heartbeat_after_a_round_trip() -> None:
    """Newcomer review N-12: an ACK sent at once reached discord.py before its keep-alive
    thread noted the heartbeat as sent, and the console said "Can't keep up … 41.3s
    behind" on an idle machine. The fake answers after a round trip, as Discord does."""
    from localdiscord.server import HEARTBEAT_ACK_SECONDS

    fake = FakeDiscord()
    await fake.start()
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(fake.gateway_url)
            hello = await ws.receive_json(timeout=5)
            assert hello["op"] == 10
            sent = time.monotonic()
            await ws.send_json({"op": 1, "d": None})
            ack = await ws.receive_json(timeout=5)
            assert ack["op"] == 11
            assert time.monotonic() - sent >= HEARTBEAT_ACK_SECONDS * 0.9
            await ws.close()
    finally:
        await fake.stop()


async def test_the_world_keeps_its_ids_from_one_start_to_the_next() -> None:
    """The sandbox's database names channels and members by id: the same at every start."""
    worlds = []
    for _ in range(2):
        sandbox = Sandbox(FakeDiscord(), channels=sandbox_channels())
        worlds.append(
            (
                sandbox.guild.id,
                [c.id for c in sandbox.guild.channels],
                sorted(m.id for m in sandbox.people()),
            )
        )
    assert worlds[0] == worlds[1]
    assert len(worlds[0][2]) == 4


def test_the_sandbox_has_a_channel_per_registered_game_and_a_game_added_moves_no_id() -> None:
    """The bot names the channels (one per game of its registry, after its slash group:
    the sandbox names no game); a game registered later gets a channel of its own and
    every id the world had stays the same."""
    games = sandbox_channels()
    assert "baccarat" in games and len(games) >= 3
    before = Sandbox(FakeDiscord(), channels=games)
    after = Sandbox(FakeDiscord(), channels=[*games, "newgame"])
    names = {c.name: c.id for c in before.guild.channels}
    assert set(names) == {*games, "lobby"}
    assert {c.name: c.id for c in after.guild.channels if c.name != "newgame"} == names
    assert sorted(m.id for m in after.people()) == sorted(m.id for m in before.people())
    assert after.friends.id == before.friends.id  # the group DM's too


def run_sandbox_cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "DISCORD_TOKEN": "",
        "DATABASE_URL": "",
        "DATABASE_PATH": str(tmp_path / "real.sqlite3"),
        "SANDBOX_DATABASE_PATH": str(tmp_path / "sandbox.sqlite3"),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=full_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_sandbox_cli(tmp_path, "sandbox", SANDBOX_PORT=str(port))
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "SANDBOX_PORT" in errors[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "sandbox.sqlite3").exists()


def test_the_sandbox_never_uses_the_real_database(tmp_path: Path) -> None:
    done = run_sandbox_cli(
        tmp_path, "sandbox", SANDBOX_DATABASE_PATH=str(tmp_path / "real.sqlite3")
    )
    assert done.returncode == 2
    assert "SANDBOX_DATABASE_PATH must not be the bot's DATABASE_PATH" in done.stderr
    assert run_sandbox_cli(tmp_path, "sandbox", "extra").returncode == 2


def _with_select(prefix: str) -> Any:
    def find(view: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
        for m in reversed(view["messages"]):
            for c in walk_components(m["components"]):
                if str(c.get("custom_id", "")).startswith(prefix):
                    return m, str(c["custom_id"])
        return None

    return find


async def test_the_sandboxs_admin_runs_the_casino_panel_and_others_are_refused(
    tmp_path: Path,
) -> None:
    async with sandbox_process(tmp_path, args=()) as sb:
        view = await sb.view("Ann")
        ann, ben = view["me"]["id"], (await sb.view("Ben"))["me"]["id"]
        pontoon = next(c["id"] for c in view["channels"] if c["name"] == "pontoon")
        manager = next(r["id"] for r in view["roles"] if r["name"] == "Manager")

        await api(sb, "slash", channel=pontoon, path=["casino", "settings"], **{"as": ben})
        refusal = await wait_for(sb, "Ben", pontoon, last_ephemeral)
        assert "Manage Server" in refusal, refusal
        assert not _with_select("casino:")(await sb.view("Ben", pontoon))

        await api(sb, "slash", channel=pontoon, path=["casino", "settings"], **{"as": ann})
        panel, _ = await wait_for(sb, "Ann", pontoon, _with_select("casino:pick:blackjack"))
        status, _ = await api(
            sb,
            "select",
            message=panel["id"],
            custom_id="casino:pick:blackjack",
            values=["blackjack.opener_role"],
            **{"as": ann},
        )
        assert status == 200
        roles, role_select = await wait_for(sb, "Ann", pontoon, _with_select("casino:role:"))
        status, _ = await api(
            sb, "select", message=roles["id"], custom_id=role_select, values=["1"], **{"as": ann}
        )
        assert status == 400  # not a role of the server
        status, _ = await api(
            sb,
            "select",
            message=roles["id"],
            custom_id=role_select,
            values=[manager],
            **{"as": ann},
        )
        assert status == 200
        said = await wait_for(
            sb, "Ann", pontoon, lambda v: "→" in last_ephemeral(v) and last_ephemeral(v)
        )
        assert f"everyone → <@&{manager}>" in said, said
        # Ben lacks the role: he may not open a Blackjack table now
        await api(sb, "slash", channel=pontoon, path=["blackjack", "start"], **{"as": ben})
        refused = await wait_for(
            sb, "Ben", pontoon, lambda v: "role" in last_ephemeral(v) and last_ephemeral(v)
        )
        assert f"<@&{manager}>" in refused, refused
        assert await sb.stop() == 0, sb.output()


def test_an_empty_channel_names_every_games_start() -> None:
    """Newcomer review N-02: an empty #blackjack said "Type /pontoon start or /baccarat
    start below": the page names every game's start command, from the commands the bot
    registered (the page names no game, so a game added needs no edit of it)."""
    from bot.games import GAMES

    page = (REPO_ROOT / "localdiscord" / "web" / "app.js").read_text()
    line = next(x for x in page.splitlines() if "Nothing here yet" in x)
    assert "startCommands()" in line, line
    for game in GAMES:
        assert f"/{game.group} " not in page, game.group
