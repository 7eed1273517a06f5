"""Application emojis (``GET/POST /applications/{id}/emojis``) as Discord keeps them:
names of 2–32 characters ``[A-Za-z0-9_]``, unique in the application; the image a data
URI of a PNG, JPEG, GIF or WebP of at most 256 KB; at most 2000 per application.
Anything else is refused with Discord's codes (50035 Invalid Form Body, 30018 Maximum
number of emojis reached)."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.*)$", re.S)
MAX_BYTES = 256 * 1024
MAX_EMOJIS = 2000
MAGIC = {
    "png": b"\x89PNG\r\n\x1a\n",
    "jpeg": b"\xff\xd8\xff",
    "gif": b"GIF8",
    "webp": b"RIFF",
}


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes

    def payload(self, owner: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
            "user": owner,
        }


@dataclass
class AppEmojiStore:
    emojis: list[AppEmoji] = field(default_factory=list)
    #: POSTs that created an emoji
    uploads: int = 0
    #: the driver makes every upload fail with (status, code, message)
    refuse: tuple[int, int, str] | None = None

    def problems(self, body: Any) -> tuple[int, int, str, list[str]] | None:
        """Why Discord would refuse this POST body, or None."""
        if self.refuse is not None:
            return (*self.refuse, [])
        errors: list[str] = []
        name = body.get("name") if isinstance(body, dict) else None
        image = body.get("image") if isinstance(body, dict) else None
        if not isinstance(name, str) or not NAME.match(name):
            errors.append("name: Must be between 2 and 32 in length and [A-Za-z0-9_].")
        elif any(e.name == name for e in self.emojis):
            errors.append("name: APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
        match = DATA_URI.match(image) if isinstance(image, str) else None
        if match is None:
            errors.append("image: Invalid image data")
        else:
            try:
                data = base64.b64decode(match.group(2), validate=True)
            except (binascii.Error, ValueError):
                data = b""
            if not data.startswith(MAGIC[match.group(1)]):
                errors.append("image: Invalid image data")
            elif len(data) > MAX_BYTES:
                errors.append("image: File cannot be larger than 256.0 kb.")
        if errors:
            return (400, 50035, "Invalid Form Body", errors)
        if len(self.emojis) >= MAX_EMOJIS:
            return (400, 30018, "Maximum number of emojis reached (2000)", [])
        return None

    def add(self, emoji_id: int, body: dict[str, Any]) -> AppEmoji:
        data = base64.b64decode(DATA_URI.match(body["image"]).group(2))  # type: ignore[union-attr]
        emoji = AppEmoji(emoji_id, body["name"], data)
        self.emojis.append(emoji)
        self.uploads += 1
        return emoji
