"""The fake Discord is as strict as Discord's published API: a request is
checked against Discord's OpenAPI description (``localdiscord/openapi.py``, when the
description is there) and against the documented limits it does not state
(``localdiscord/limits.py``), and a refused one gets Discord's 400 50035 answer."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from localdiscord import FakeDiscord
from localdiscord.conformance import check_request, invalid_form_body, limit_problems
from localdiscord.limits import command_problems, message_problems
from localdiscord.openapi import SpecChecker, SpecMissing, in_ci, load_checker, spec_path

AUTH = {"Authorization": "Bot x"}
V2 = 1 << 15


def button(cid: str | None, label: str = "Go", **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": 2, "style": 1, "label": label, **more}
    if cid is not None:
        out["custom_id"] = cid
    return out


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(options: int, placeholder: str = "Pick") -> dict[str, Any]:
    choices = [{"label": f"o{i}", "value": str(i)} for i in range(options)]
    return {"type": 3, "custom_id": "menu", "placeholder": placeholder, "options": choices}


def command(**more: Any) -> dict[str, Any]:
    amount = {"type": 4, "name": "amount", "description": "chips to bet", "required": True}
    return {"name": "bet", "type": 1, "description": "Place a bet", "options": [amount], **more}


GOOD_MESSAGE: dict[str, Any] = {
    "content": "Table open",
    "tts": False,
    "embeds": [{"title": "Pontoon", "description": "Join in", "flags": 0}],
    "components": [row(button("a", "Join"), button(None, "Rules", style=5, url="https://x.y"))],
    "allowed_mentions": {"parse": [], "users": [123]},
}

#: (what is wrong, where: "channel" message or "commands" sync, body)
REFUSED: list[tuple[str, str, Any]] = [
    ("a button label of 81 characters", "channel", {"components": [row(button("a", "x" * 81))]}),
    ("six buttons in a row", "channel", {"components": [row(*(button(str(i)) for i in range(6)))]}),
    (
        "content beside a Components V2 layout",
        "channel",
        {"content": "hi", "flags": V2, "components": [{"type": 10, "content": "Table"}]},
    ),
    ("a select menu of 26 options", "channel", {"components": [row(select(26))]}),
    ("a select placeholder of 151", "channel", {"components": [row(select(3, "p" * 151))]}),
    (
        "an embed field value of 1,025",
        "channel",
        {"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v" * 1025}]}]},
    ),
    (
        "an embed author of 257",
        "channel",
        {"embeds": [{"title": "t", "author": {"name": "a" * 257}}]},
    ),
    (
        "a link button with a custom id",
        "channel",
        {"components": [row(button("a", style=5, url="https://x.y"))]},
    ),
    ("a button without a custom id", "channel", {"components": [row(button(None))]}),
    ("the ephemeral flag on a channel message", "channel", {"content": "psst", "flags": 64}),
    (
        "parse users beside a users list",
        "channel",
        {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
    ),
    ("an empty command description", "commands", [command(description="")]),
    ("a command description of 101", "commands", [command(description="d" * 101)]),
]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(rate_limits=False)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture(scope="module")
def checker() -> SpecChecker:
    """Discord's description; skipped without it, a failure under CI=true."""
    try:
        found = load_checker()
    except SpecMissing as exc:
        pytest.fail(str(exc))
    if found is None:
        pytest.skip(f"Discord's OpenAPI description is not at {spec_path()}")
    return found


# --------------------------------------------------------------------- the fake itself
@pytest.mark.e2e
@pytest.mark.parametrize(("wrong", "where", "body"), REFUSED, ids=[r[0] for r in REFUSED])
async def test_the_fake_refuses_what_discord_refuses(
    fake: FakeDiscord, wrong: str, where: str, body: Any
) -> None:
    channel = fake.add_text_channel(fake.add_guild("Casino"), "tables")
    if where == "channel":
        url = f"{fake.api_base}/channels/{channel.id}/messages"
        method = "POST"
    else:
        url = f"{fake.api_base}/applications/{fake.app_id}/commands"
        method = "PUT"
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, url, json=body, headers=AUTH) as resp,
    ):
        answer = await resp.json()
    assert resp.status == 400, wrong
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body", answer
    assert answer["errors"], answer
    assert fake.rejected, wrong
    assert not fake.channel_messages(channel) and not fake.global_commands  # nothing kept


@pytest.mark.e2e
async def test_the_fake_accepts_what_discord_accepts(fake: FakeDiscord) -> None:
    """discord.py's own harmless extras pass (``tts`` on a message, ``flags`` in an
    embed, ``nsfw`` on a command, integer snowflakes, ``?wait=1``)."""
    channel = fake.add_text_channel(fake.add_guild("Casino"), "tables")
    base = fake.api_base
    async with aiohttp.ClientSession() as http:
        url = f"{base}/channels/{channel.id}/messages"
        async with http.post(url, json=GOOD_MESSAGE, headers=AUTH) as resp:
            assert resp.status == 200, await resp.text()
            made = await resp.json()
        edit = {"content": "Table full", "tts": False, "components": [row(button("a", "Join"))]}
        async with http.patch(f"{url}/{made['id']}", json=edit, headers=AUTH) as resp:
            assert resp.status == 200, await resp.text()
        layout = {"flags": V2, "components": [{"type": 10, "content": "Table"}]}
        async with http.post(url, json=layout, headers=AUTH) as resp:
            assert resp.status == 200, await resp.text()
        cmds = f"{base}/applications/{fake.app_id}/commands"
        async with http.put(cmds, json=[command(nsfw=False)], headers=AUTH) as resp:
            assert resp.status == 200, await resp.text()
        async with http.get(f"{base}/users/@me", headers=AUTH) as resp:
            assert resp.status == 200
    assert fake.rejected == []
    assert next(m.text for m in fake.channel_messages(channel)).startswith("Table full")


@pytest.mark.e2e
async def test_a_refusal_has_discords_nested_error_shape(
    fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord's 50035 shape, and a warning saying what was refused (the sandbox's
    console shows it); a multipart request's ``payload_json`` is checked the same way."""
    channel = fake.add_text_channel(fake.add_guild("Casino"), "tables")
    url = f"{fake.api_base}/channels/{channel.id}/messages"
    body = {"components": [row(button("a", "x" * 81))]}
    with caplog.at_level(logging.WARNING, logger="localdiscord.conformance"):
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=body, headers=AUTH) as resp:
                answer = await resp.json()
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            form.add_field("files[0]", b"\x89PNG", filename="chart.png", content_type="image/png")
            async with http.post(url, data=form, headers=AUTH) as resp:
                assert resp.status == 400 and (await resp.json())["code"] == 50035
    label = answer["errors"]["components"]["0"]["components"]["0"]["label"]
    assert label["_errors"][0]["code"].startswith("BASE_TYPE")
    assert set(answer) == {"code", "errors", "message"}
    assert "Discord would refuse" in caplog.text
    assert "components.0.components.0.label" in caplog.text
    assert len(fake.rejected) == 2 and not fake.channel_messages(channel)


@pytest.mark.e2e
async def test_a_route_discord_does_not_have_is_a_404(
    fake: FakeDiscord, checker: SpecChecker
) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{fake.api_base}/channels/1/nonsense", headers=AUTH) as resp,
    ):
        assert resp.status == 404
        assert (await resp.json()) == {"message": "404: Not Found", "code": 0}


@pytest.mark.e2e
async def test_validation_can_be_switched_off_for_a_test_of_the_bots_errors() -> None:
    fake = FakeDiscord(rate_limits=False, validate=False)
    await fake.start()
    try:
        channel = fake.add_text_channel(fake.add_guild("Casino"), "tables")
        url = f"{fake.api_base}/channels/{channel.id}/messages"
        body = {"components": [row(button("a", "x" * 81))]}
        async with aiohttp.ClientSession() as http, http.post(url, json=body, headers=AUTH) as r:
            assert r.status == 200
    finally:
        await fake.stop()


# --------------------------------------------------------------------- the published schema
def test_the_schema_refuses_by_route_query_and_body(checker: SpecChecker) -> None:
    callback = "/interactions/1/token/callback"
    data = {"content": "hi", "components": [row(button("a", "x" * 81))]}
    status, problems = check_request(
        checker, "POST", callback, {}, "application/json", {"type": 4, "data": data}
    )
    assert status == 400
    assert [p.line() for p in problems if not isinstance(p, str)] == [
        f"data.components.0.components.0.label: {'x' * 81!r} is too long"
    ]
    # an unknown callback type, a bad query value, a route Discord does not have
    assert check_request(checker, "POST", callback, {}, "application/json", {"type": 99})[0] == 400
    assert check_request(checker, "POST", callback, {"with_response": "maybe"}, "", None)[0] == 400
    assert check_request(checker, "GET", "/channels/1/nonsense", {}, "", None)[0] == 404
    assert check_request(checker, "PUT", "/users/@me", {}, "", None)[0] == 405
    # a modal without a title (the description requires one)
    modal = {"type": 9, "data": {"custom_id": "m", "components": []}}
    assert check_request(checker, "POST", callback, {}, "application/json", modal)[0] == 400


def test_where_the_description_is_stricter_than_discord_the_docs_win(
    checker: SpecChecker,
) -> None:
    """Integer snowflakes, boolean query strings 1/0/true/False, and fields Discord
    ignores (``tts`` on an edit, ``embeds[*].flags``, ``nsfw`` on a command)."""
    ok = [
        ("POST", "/users/@me/channels", {}, {"recipient_id": 123456789012345678}),
        ("POST", "/interactions/1/t/callback", {"with_response": "1"}, {"type": 6}),
        ("POST", "/interactions/1/t/callback", {"with_response": "False"}, {"type": 6}),
        ("POST", "/webhooks/1/t", {"wait": "1", "with_components": "0"}, {"content": "x"}),
        ("PATCH", "/channels/1/messages/2", {}, {"content": "x", "tts": False}),
        ("POST", "/channels/1/messages", {}, {"embeds": [{"title": "t", "flags": 0}]}),
        ("PUT", "/applications/1/commands", {}, [command(nsfw=False)]),
        ("POST", "/webhooks/1/t", {}, {"content": "x", "attachments": [{"id": 0}]}),
    ]
    for method, path, query, body in ok:
        assert check_request(checker, method, path, query, "application/json", body) == (200, []), (
            path,
            body,
        )


def test_a_table_message_is_checked_quickly(checker: SpecChecker) -> None:
    """Validators are compiled once per operation: a 40-component table edit takes
    milliseconds, not the 0.6 s a plain union-by-union validation took."""
    import time

    texts = [{"type": 10, "content": "x" * 90} for _ in range(14)]
    rows = [row(*(button(f"{r}.{i}") for i in range(5))) for r in range(4)]
    body = {
        "type": 7,
        "data": {"flags": V2, "components": [{"type": 17, "components": texts + rows}]},
    }
    path = "/interactions/1/t/callback"
    assert check_request(checker, "POST", path, {}, "application/json", body) == (200, [])
    start = time.perf_counter()
    for _ in range(10):
        check_request(checker, "POST", path, {}, "application/json", body)
    assert (time.perf_counter() - start) / 10 < 0.1


# --------------------------------------------------------------------- documented limits
def test_the_documented_limits_on_their_own() -> None:
    assert message_problems("", [], [row(select(25))], 0) == []
    assert message_problems("", [], [row(select(26))], 0)
    assert message_problems("x" * 2000, [], [], 0) == []
    assert message_problems("x" * 2001, [], [], 0)
    embed = {"title": "t" * 256, "description": "d" * 4096, "footer": {"text": "f" * 1000}}
    assert message_problems("", [embed], [], 0) == []
    # the author counts towards the 6,000 of a message's embeds
    author = {"author": {"name": "a" * 256}, "description": "d" * 2000}
    assert message_problems("", [embed, author], [], 0)
    # a modal: title 1-45, 1-5 components; a text input's label 1-45
    text_input = {"type": 4, "custom_id": "amount", "style": 1, "label": "Amount"}
    modal = {"title": "t" * 45, "custom_id": "m", "components": [row(text_input)]}
    assert limit_problems("POST", "/interactions/1/t/callback", {"type": 9, "data": modal}) == []
    for bad in (
        {"title": "t" * 46},
        {"components": [row(text_input)] * 6},
        {"custom_id": "c" * 101},
    ):
        body = {"type": 9, "data": {**modal, **bad}}
        assert limit_problems("POST", "/interactions/1/t/callback", body), bad


def test_command_sync_rules() -> None:
    assert command_problems(command()) == []
    opt = command()["options"][0]
    optional = {**opt, "name": "shoot", "required": False}
    wrong = [
        command(name="Bet"),
        command(options=[optional, opt]),  # required after optional
        command(options=[opt, opt]),  # the same name twice
        command(options=[{**opt, "name": f"o{i}"} for i in range(26)]),
        command(options=[{**opt, "description": "x" * 101}]),
        command(options=[{**opt, "description": ""}]),
        command(options=[{**opt, "type": 3, "choices": [{"name": "a", "value": "v" * 101}]}]),
        command(
            options=[
                {
                    **opt,
                    "type": 3,
                    "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                }
            ]
        ),
        command(description_localizations={"fa": "شرط"}),  # not a Discord locale
        command(description_localizations={"de": "x" * 101}),
        # two options named alike in German only
        command(
            options=[
                {**opt, "name_localizations": {"de": "betrag"}},
                {**optional, "name_localizations": {"de": "betrag"}},
            ]
        ),
    ]
    for cmd in wrong:
        assert command_problems(cmd), cmd
    assert invalid_form_body(command_problems(command(name="Bet")))["code"] == 50035


# --------------------------------------------------------------------- the description's place
def test_a_missing_description_is_skipped_with_the_reason_or_fails_under_ci(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    missing = tmp_path / "nowhere" / "openapi.json"
    monkeypatch.setenv("DISCORD_API_SPEC", str(missing))
    assert spec_path() == missing
    monkeypatch.setenv("CI", "false")
    with caplog.at_level(logging.WARNING, logger="localdiscord.openapi"):
        assert load_checker() is None
    assert str(missing) in caplog.text and "DISCORD_API_SPEC" in caplog.text
    # requests are still held to the documented limits without it
    assert (
        check_request(None, "POST", "/channels/1/messages", {}, "application/json", {"flags": 64})[
            0
        ]
        == 400
    )
    other = tmp_path / "elsewhere.json"
    monkeypatch.setenv("DISCORD_API_SPEC", str(other))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(SpecMissing, match=r"elsewhere\.json"):
        load_checker()


def test_ci_has_the_published_description() -> None:
    """Under CI=true the description must be found (``DISCORD_API_SPEC``, or the shared
    folder beside the checkout); elsewhere its absence is a skip with the reason."""
    if not spec_path().is_file():
        if in_ci():
            pytest.fail(f"Discord's OpenAPI description is not at {spec_path()}")
        pytest.skip(f"Discord's OpenAPI description is not at {spec_path()}")
    assert load_checker() is not None
