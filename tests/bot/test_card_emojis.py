"""cogs/card_emojis.py without a server: only missing pictures are uploaded, in order; a
picture another process uploaded first is found, not lost; a refusal stops the asking."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot import cards_art
from cogs.card_emojis import sync_card_emojis

PICTURES = {code: b"\x89PNG fake " + code.encode() for code in cards_art.all_codes()}
DRAWN: list[int] = []


async def pictures() -> dict[str, bytes]:
    DRAWN.append(1)
    return PICTURES


class StubClient:
    def __init__(self, have: list[str], taken_by_other: set[str] = frozenset(), status: int = 0):
        self.emojis = {name: 100 + i for i, name in enumerate(have)}
        self.taken_by_other = set(taken_by_other)
        self.status = status
        self.created: list[str] = []

    async def fetch_application_emojis(self) -> list[Any]:
        return [SimpleNamespace(name=n, id=i) for n, i in self.emojis.items()]

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        assert image == PICTURES[name.removeprefix("pc_")]
        if self.status or name in self.taken_by_other:
            if name in self.taken_by_other:
                self.emojis[name] = 9000 + len(self.emojis)
            response = SimpleNamespace(status=self.status or 400, reason="refused")
            raise discord.HTTPException(response, {"code": 50035, "message": "refused"})  # type: ignore[arg-type]
        self.emojis[name] = 5000 + len(self.emojis)
        self.created.append(name)
        return SimpleNamespace(name=name, id=self.emojis[name])


async def test_only_missing_pictures_are_uploaded_in_order() -> None:
    client = StubClient(["pc_AS", "pc_back", "party_parrot"])
    result = await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert result.found == 2 and len(result.uploaded) == 51 and not result.refused
    assert client.created == [cards_art.emoji_name(c) for c in cards_art.all_codes()][1:-1]
    assert result.markup["AS"] == "<:pc_AS:100>" and len(result.markup) == 53
    DRAWN.clear()
    again = await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert again.uploaded == [] and again.found == 53
    assert DRAWN == []  # nothing missing: nothing drawn


async def test_a_picture_another_process_uploaded_first_is_found() -> None:
    client = StubClient([], taken_by_other={"pc_QH"})
    result = await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert result.refused == ["QH"] and len(result.markup) == 53
    assert result.markup["QH"] == f"<:pc_QH:{client.emojis['pc_QH']}>"


async def test_a_forbidden_upload_stops_the_asking() -> None:
    client = StubClient([], status=403)
    result = await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert result.refused == ["AS"] and result.uploaded == [] and result.markup == {}


async def test_uploads_are_paced_under_the_global_limit(monkeypatch: Any) -> None:
    """A first start uploads 53 pictures: a pause between two uploads keeps them under
    Discord's 50 requests a second for the whole bot (no 429 and no rate-limit warning
    at a first start); a start that finds them all waits for nothing."""
    from cogs import card_emojis

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(card_emojis.asyncio, "sleep", sleep)
    client = StubClient([])
    result = await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert len(result.uploaded) == 53
    assert slept == [card_emojis.UPLOAD_PAUSE_SECONDS] * 52
    assert 1 / card_emojis.UPLOAD_PAUSE_SECONDS <= 40  # uploads a second, at most
    slept.clear()
    await sync_card_emojis(client, pictures)  # type: ignore[arg-type]
    assert slept == []
