"""Discord's rules for layout components (a message with the IS_COMPONENTS_V2 flag), as
the real API enforces them (https://discord.com/developers/docs/components/reference):

- the layout types (section, text display, thumbnail, media gallery, file, separator,
  container) are refused without the flag; with it the message has no content and no
  embeds;
- at most 40 components in all, counting every nested one (rows, their buttons, a
  section's text displays and accessory, a container's children);
- at most 4,000 characters of text across the message's text displays;
- a section holds 1 to 3 text displays and one accessory (a button or a thumbnail);
- a container holds rows, sections, text displays, galleries, files and separators;
- an action row holds 1 to 5 buttons or one select menu;
- an unknown type is refused.

Pure functions: a payload in, a list of error strings out (empty when Discord accepts it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSON = dict[str, Any]

FLAG_COMPONENTS_V2 = 1 << 15

ACTION_ROW = 1
BUTTON = 2
SELECTS = (3, 5, 6, 7, 8)
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17

LAYOUT_TYPES = frozenset(
    {SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
IN_CONTAINER = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_TOP_LEVEL = 40


def count_components(components: Sequence[JSON]) -> int:
    """Every component, nested ones included (a section's accessory counts)."""
    n = 0
    for c in components:
        n += 1
        inner = c.get("components")
        if isinstance(inner, list):
            n += count_components(inner)
        acc = c.get("accessory")
        if isinstance(acc, dict):
            n += count_components([acc])
    return n


def text_length(components: Sequence[JSON]) -> int:
    """Characters of text the message shows: its text displays' content."""
    n = 0
    for c in components:
        if c.get("type") == TEXT_DISPLAY:
            n += len(str(c.get("content") or ""))
        inner = c.get("components")
        if isinstance(inner, list):
            n += text_length(inner)
    return n


def uses_layout(components: Sequence[JSON]) -> bool:
    """Whether any component (nested ones too) is a layout type."""
    for c in components:
        if c.get("type") in LAYOUT_TYPES:
            return True
        inner = c.get("components")
        if isinstance(inner, list) and uses_layout(inner):
            return True
        acc = c.get("accessory")
        if isinstance(acc, dict) and uses_layout([acc]):
            return True
    return False


def row_errors(path: str, row: JSON, errors: list[str]) -> None:
    """An action row: 1 to 5 buttons, or one select menu alone."""
    inner = row.get("components")
    if not isinstance(inner, list) or not 1 <= len(inner) <= 5:
        errors.append(f"{path}.components: Must be between 1 and 5 in length.")
        return
    kinds = [c.get("type") for c in inner]
    if any(k in SELECTS for k in kinds) and len(inner) > 1:
        errors.append(f"{path}: a select menu must be alone in its row")
    for i, k in enumerate(kinds):
        if k != BUTTON and k not in SELECTS:
            errors.append(f"{path}.components.{i}: Component type {k} is not allowed in a row")


def _thumbnail(path: str, comp: JSON, errors: list[str]) -> None:
    media = comp.get("media")
    if not isinstance(media, dict) or not str(media.get("url") or ""):
        errors.append(f"{path}.media.url: This field is required")


def _component(path: str, comp: JSON, allowed: frozenset[int], errors: list[str]) -> None:
    kind = comp.get("type")
    if kind not in allowed:
        errors.append(f"{path}.type: Component type {kind!r} is not allowed here")
        return
    if kind == ACTION_ROW:
        row_errors(path, comp, errors)
    elif kind == TEXT_DISPLAY:
        if not str(comp.get("content") or ""):
            errors.append(f"{path}.content: This field is required")
    elif kind == SECTION:
        texts = comp.get("components")
        if not isinstance(texts, list) or not 1 <= len(texts) <= 3:
            errors.append(f"{path}.components: Must be between 1 and 3 in length.")
        else:
            for i, text in enumerate(texts):
                _component(f"{path}.components.{i}", text, frozenset({TEXT_DISPLAY}), errors)
        acc = comp.get("accessory")
        if not isinstance(acc, dict):
            errors.append(f"{path}.accessory: This field is required")
        elif acc.get("type") == THUMBNAIL:
            _thumbnail(f"{path}.accessory", acc, errors)
        elif acc.get("type") != BUTTON:
            errors.append(f"{path}.accessory.type: must be a button or a thumbnail")
    elif kind == SEPARATOR:
        if comp.get("spacing", 1) not in (1, 2):
            errors.append(f"{path}.spacing: Value must be one of (1, 2).")
    elif kind == MEDIA_GALLERY:
        items = comp.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= 10:
            errors.append(f"{path}.items: Must be between 1 and 10 in length.")
        else:
            for i, item in enumerate(items):
                _thumbnail(f"{path}.items.{i}", item if isinstance(item, dict) else {}, errors)
    elif kind == CONTAINER:
        inner = comp.get("components")
        if not isinstance(inner, list) or not inner:
            errors.append(f"{path}.components: Must be 1 or more in length.")
        else:
            for i, child in enumerate(inner):
                _component(f"{path}.components.{i}", child, IN_CONTAINER, errors)
        colour = comp.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            errors.append(f"{path}.accent_color: Not a valid colour")


def layout_errors(
    content: str, embeds: Sequence[JSON], components: Sequence[JSON], flags: int
) -> list[str]:
    """What Discord refuses in a message's layout components (empty: accepted). Without
    the IS_COMPONENTS_V2 flag only the use of layout types is checked here (the classic
    rows are checked by the caller)."""
    errors: list[str] = []
    if not flags & FLAG_COMPONENTS_V2:
        if uses_layout(components):
            errors.append("components: layout components need the IS_COMPONENTS_V2 message flag")
        return errors
    if content:
        errors.append("content: Cannot be set with the IS_COMPONENTS_V2 flag")
    if embeds:
        errors.append("embeds: Cannot be set with the IS_COMPONENTS_V2 flag")
    if len(components) > MAX_TOP_LEVEL:
        errors.append(f"components: Must be {MAX_TOP_LEVEL} or fewer in length.")
    for i, comp in enumerate(components):
        _component(f"components.{i}", comp, TOP_LEVEL, errors)
    total = count_components(components)
    if total > MAX_COMPONENTS:
        errors.append(f"components: The message has {total} components, more than {MAX_COMPONENTS}")
    chars = text_length(components)
    if chars > MAX_TEXT:
        errors.append(f"components: Text displays total {chars} characters, more than {MAX_TEXT}")
    return errors
