"""The fake Discord's rules for layout components (IS_COMPONENTS_V2), as Discord refuses
them: the pure checker, and the fake's REST routes (create, edit) using it."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from localdiscord import FakeDiscord
from localdiscord.layout import (
    FLAG_COMPONENTS_V2,
    count_components,
    layout_errors,
    text_length,
)

V2 = FLAG_COMPONENTS_V2


def text(s: str) -> dict[str, Any]:
    return {"type": 10, "content": s}


def button(cid: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


def test_a_table_shaped_layout_is_accepted() -> None:
    layout = [
        container(
            text("## Pontoon"),
            {"type": 14, "divider": True, "spacing": 1},
            {
                "type": 9,
                "components": [text("**Banker**"), text("🂠 🂠")],
                "accessory": {"type": 11, "media": {"url": "https://x/y.png"}},
            },
            row(*(button(f"b{i}") for i in range(5))),
        )
    ]
    assert layout_errors("", [], layout, V2) == []
    assert count_components(layout) == 1 + 1 + 1 + 4 + 1 + 5
    assert text_length(layout) == len("## Pontoon") + len("**Banker**") + len("🂠 🂠")


def test_layout_types_need_the_flag_and_exclude_content_and_embeds() -> None:
    layout = [container(text("hi"))]
    assert any("IS_COMPONENTS_V2" in e for e in layout_errors("", [], layout, 0))
    # classic rows alone need no flag
    assert layout_errors("hi", [], [row(button("a"))], 0) == []
    errs = layout_errors("hello", [{"title": "x"}], layout, V2)
    assert any(e.startswith("content") for e in errs)
    assert any(e.startswith("embeds") for e in errs)


def test_forty_components_counting_nested_ones() -> None:
    # 1 container + 39 text displays = 40: accepted; one more is refused
    ok = [container(*(text(str(i)) for i in range(39)))]
    assert count_components(ok) == 40
    assert layout_errors("", [], ok, V2) == []
    over = [container(*(text(str(i)) for i in range(40)))]
    assert any("more than 40" in e for e in layout_errors("", [], over, V2))
    # buttons inside rows count too: 1 + 7 rows * (1 + 5 buttons) = 43
    rows = [container(*(row(*(button(f"{r}.{i}") for i in range(5))) for r in range(7)))]
    assert count_components(rows) == 43
    assert any("more than 40" in e for e in layout_errors("", [], rows, V2))


def test_four_thousand_characters_of_text() -> None:
    assert layout_errors("", [], [container(text("x" * 2000), text("y" * 2000))], V2) == []
    errs = layout_errors("", [], [container(text("x" * 2000), text("y" * 2001))], V2)
    assert any("4000" in e for e in errs)


def test_section_rules() -> None:
    thumb = {"type": 11, "media": {"url": "https://x/y.png"}}
    no_accessory = [{"type": 9, "components": [text("a")]}]
    assert any("accessory" in e for e in layout_errors("", [], no_accessory, V2))
    four = [{"type": 9, "components": [text(c) for c in "abcd"], "accessory": thumb}]
    assert any("between 1 and 3" in e for e in layout_errors("", [], four, V2))
    bad_child = [{"type": 9, "components": [row(button("a"))], "accessory": thumb}]
    assert layout_errors("", [], bad_child, V2)
    bad_acc = [{"type": 9, "components": [text("a")], "accessory": text("b")}]
    assert any("accessory" in e for e in layout_errors("", [], bad_acc, V2))
    no_url = [{"type": 9, "components": [text("a")], "accessory": {"type": 11, "media": {}}}]
    assert any("url" in e for e in layout_errors("", [], no_url, V2))


def test_rows_containers_and_unknown_types() -> None:
    six = [row(*(button(str(i)) for i in range(6)))]
    assert any("between 1 and 5" in e for e in layout_errors("", [], six, V2))
    assert layout_errors("", [], [row()], V2)
    assert layout_errors("", [], [{"type": 99}], V2)
    assert layout_errors("", [], [container({"type": 99})], V2)
    # a container in a container, a text display in a row: refused
    assert layout_errors("", [], [container(container(text("a")))], V2)
    assert layout_errors("", [], [row(text("a"))], V2)
    assert layout_errors("", [], [container()], V2)
    assert layout_errors("", [], [{"type": 10, "content": ""}], V2)
    assert layout_errors("", [], [{"type": 14, "spacing": 3}], V2)


@pytest.mark.e2e
async def test_fake_refuses_bad_layouts_on_create_and_edit() -> None:
    fake = FakeDiscord(rate_limits=False)
    await fake.start()
    try:
        guild = fake.add_guild("Casino")
        channel = fake.add_text_channel(guild, "tables")
        await _create_and_edit(fake, channel.id)
    finally:
        await fake.stop()


async def _create_and_edit(fake: FakeDiscord, channel_id: int) -> None:
    auth = {"Authorization": "Bot x"}
    url = fake.api_base + f"/channels/{channel_id}/messages"
    good = {"components": [container(text("**Table**"), row(button("a")))], "flags": V2}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"components": good["components"]}, headers=auth) as r:
            assert r.status == 400 and (await r.json())["code"] == 50035
        async with http.post(url, json={**good, "content": "x"}, headers=auth) as r:
            assert r.status == 400
        async with http.post(url, json=good, headers=auth) as r:
            assert r.status == 200
            made = await r.json()
        assert made["flags"] & V2
        msg = fake.message(int(made["id"]))
        assert "**Table**" in msg.text
        too_many = [container(*(text(str(i)) for i in range(45)))]
        async with http.patch(
            f"{url}/{made['id']}", json={"components": too_many}, headers=auth
        ) as r:
            assert r.status == 400
        assert "**Table**" in fake.message(msg.id).text  # unchanged
        # the flag cannot be taken away
        async with http.patch(f"{url}/{made['id']}", json={"flags": 0}, headers=auth) as r:
            assert r.status == 400
        # a classic message becomes a layout one only with its content and embeds cleared
        async with http.post(
            url, json={"content": "old", "embeds": [{"title": "t"}]}, headers=auth
        ) as r:
            old = await r.json()
            assert r.status == 200, old
        async with http.patch(f"{url}/{old['id']}", json=good, headers=auth) as r:
            assert r.status == 400
        async with http.patch(
            f"{url}/{old['id']}", json={**good, "content": None, "embeds": []}, headers=auth
        ) as r:
            assert r.status == 200
        upgraded = fake.message(int(old["id"]))
        assert upgraded.flags & V2 and upgraded.text == "**Table**"


@pytest.mark.e2e
async def test_uploaded_files_are_served_like_discords_cdn() -> None:
    """A chart sent as a file is kept and served at its attachment URL (the sandbox page
    draws an embed's attachment://name image from there); an unknown one is a 404."""
    fake = FakeDiscord(rate_limits=False)
    await fake.start()
    try:
        guild = fake.add_guild("Casino")
        channel = fake.add_text_channel(guild, "tables")
        url = fake.api_base + f"/channels/{channel.id}/messages"
        png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
        form = aiohttp.FormData()
        form.add_field(
            "payload_json",
            '{"embeds": [{"title": "Chart", "image": {"url": "attachment://chart.png"}}]}',
            content_type="application/json",
        )
        form.add_field("files[0]", png, filename="chart.png", content_type="image/png")
        async with aiohttp.ClientSession() as http:
            async with http.post(url, data=form, headers={"Authorization": "Bot x"}) as resp:
                assert resp.status == 200
                sent = await resp.json()
            [attachment] = sent["attachments"]
            assert attachment["filename"] == "chart.png"
            async with http.get(attachment["url"]) as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"] == "image/png"
                assert await resp.read() == png
            async with http.get(fake.base_url + "/attachments/1/none.png") as resp:
                assert resp.status == 404
    finally:
        await fake.stop()
