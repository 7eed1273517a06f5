"""Discord's documented limits that its OpenAPI description does not state (or states
differently), one place per rule. Pure functions: a payload in, a list of
``"field.path: message"`` strings out (empty when Discord accepts it).

Sources (Discord's developer docs, which win over the OpenAPI description where they
disagree):

- messages and embeds: https://discord.com/developers/docs/resources/message
  (content 2,000; ≤ 10 embeds; embed title 256, description 4,096, ≤ 25 fields, field
  name 256 and value 1,024, footer 2,048, author name 256, and 6,000 characters in all
  the embeds of a message, author names included; a channel message cannot carry the
  EPHEMERAL flag, only an interaction's answer can);
- allowed mentions: ``parse`` holds only ``roles``, ``users``, ``everyone``; ``parse``
  with ``users`` and a ``users`` list (or ``roles`` and ``roles``) is refused; ≤ 100 ids;
- components: https://discord.com/developers/docs/components/reference (custom ids
  1–100 and unique in a message; a button label ≤ 80; ≤ 5 buttons a row; a link button
  has a url and no custom id, a premium button a sku id, every other button a custom id
  and no url; a select menu 1–25 options, placeholder ≤ 150, option label/value/
  description ≤ 100, ``min_values`` ≤ ``max_values`` ≤ the options; layout components:
  ``localdiscord/layout.py``);
- modals: title 1–45, custom id 1–100, 1–5 components; a text input's custom id 1–100,
  label ≤ 45, placeholder ≤ 100, value and lengths ≤ 4,000;
- application commands:
  https://discord.com/developers/docs/interactions/application-commands (names
  ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and lowercase; chat-input
  descriptions 1–100; ≤ 25 options and ≤ 25 choices; required options before optional
  ones; option names unique among siblings, in every locale; choice names 1–100 and
  string values ≤ 100; localizations only in Discord's locales; ≤ 8,000 characters of
  names, descriptions and values per command, the longest localization counted).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from .layout import ACTION_ROW, BUTTON, FLAG_COMPONENTS_V2, SELECTS, layout_errors, row_errors

JSON = dict[str, Any]

FLAG_EPHEMERAL = 1 << 6
STRING_SELECT = 3
TEXT_INPUT = 4
LABEL = 18
LINK_STYLE = 5
PREMIUM_STYLE = 6

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_TEXT_LIMITS = (("title", 256), ("description", 4096))
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_PLACEHOLDER = 150
MAX_OPTION_TEXT = 100
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_INPUT_LABEL = 45
MAX_INPUT_PLACEHOLDER = 100
MAX_INPUT_TEXT = 4000
MAX_MENTION_IDS = 100
MENTION_KINDS = frozenset({"roles", "users", "everyone"})
MAX_COMMAND_OPTIONS = 25
MAX_CHOICES = 25
MAX_DESCRIPTION = 100
MAX_CHOICE_VALUE = 100
MAX_COMMAND_SIZE = 8000
CHAT_INPUT = 1
SUB_COMMAND_TYPES = (1, 2)  # an option of type 1/2 is a subcommand (group)
STRING_OPTION = 3

#: Discord's locales (https://discord.com/developers/docs/reference#locales)
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _too_long(path: str, value: object, limit: int, errors: list[str]) -> None:
    if len(_text(value)) > limit:
        errors.append(f"{path}: Must be {limit} or fewer in length.")


# ------------------------------------------------------------------------ messages
def embed_problems(embeds: Sequence[JSON]) -> list[str]:
    """Discord's limits on a message's embeds."""
    errors: list[str] = []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT_LIMITS:
            total += len(_text(embed.get(key)))
            _too_long(f"embeds.{i}.{key}", embed.get(key), limit, errors)
        fields = embed.get("fields") or []
        if len(fields) > MAX_FIELDS:
            errors.append(f"embeds.{i}.fields: Must be {MAX_FIELDS} or fewer in length.")
        for j, fld in enumerate(fields):
            name, value = _text(fld.get("name")), _text(fld.get("value"))
            total += len(name) + len(value)
            if not name or not value:
                errors.append(f"embeds.{i}.fields.{j}: name and value are required.")
            _too_long(f"embeds.{i}.fields.{j}.name", name, MAX_FIELD_NAME, errors)
            _too_long(f"embeds.{i}.fields.{j}.value", value, MAX_FIELD_VALUE, errors)
        footer = _text((embed.get("footer") or {}).get("text"))
        author = _text((embed.get("author") or {}).get("name"))
        total += len(footer) + len(author)
        _too_long(f"embeds.{i}.footer.text", footer, MAX_FOOTER, errors)
        _too_long(f"embeds.{i}.author.name", author, MAX_AUTHOR, errors)
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds: Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")
    return errors


def _walk(components: Sequence[JSON], path: str) -> list[tuple[str, JSON]]:
    """Every component with its path, nested ones (rows, sections, containers) too."""
    out: list[tuple[str, JSON]] = []
    for i, comp in enumerate(components):
        if isinstance(comp, dict):
            _visit(comp, f"{path}.{i}", out)
    return out


def _visit(comp: JSON, here: str, out: list[tuple[str, JSON]]) -> None:
    out.append((here, comp))
    inner = comp.get("components")
    if isinstance(inner, list):
        out.extend(_walk(inner, f"{here}.components"))
    for key in ("accessory", "component"):
        child = comp.get(key)
        if isinstance(child, dict):
            _visit(child, f"{here}.{key}", out)


def _button(path: str, button: JSON, errors: list[str]) -> None:
    _too_long(f"{path}.label", button.get("label"), MAX_BUTTON_LABEL, errors)
    if not button.get("label") and not button.get("emoji"):
        errors.append(f"{path}: A button needs a label or an emoji.")
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.append(f"{path}.url: A link button requires a url.")
        if button.get("custom_id") is not None:
            errors.append(f"{path}.custom_id: A link button cannot have a custom id.")
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            errors.append(f"{path}.sku_id: A premium button requires a sku id.")
        if button.get("custom_id") is not None or button.get("url") is not None:
            errors.append(f"{path}: A premium button has no custom id and no url.")
    else:
        if not button.get("custom_id"):
            errors.append(f"{path}.custom_id: This button requires a custom id.")
        if button.get("url") is not None:
            errors.append(f"{path}.url: Only a link button can have a url.")


def _select(path: str, select: JSON, errors: list[str]) -> None:
    _too_long(f"{path}.placeholder", select.get("placeholder"), MAX_PLACEHOLDER, errors)
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        errors.append(f"{path}.options: Must be between 1 and {MAX_SELECT_OPTIONS} in length.")
        options = options if isinstance(options, list) else []
    for j, option in enumerate(options):
        for key in ("label", "value", "description"):
            _too_long(f"{path}.options.{j}.{key}", option.get(key), MAX_OPTION_TEXT, errors)
    low = select.get("min_values")
    high = select.get("max_values")
    low = 1 if low is None else low
    high = 1 if high is None else high
    if isinstance(low, int) and isinstance(high, int) and not low <= high <= max(len(options), 1):
        errors.append(f"{path}.max_values: Must be between min_values and the number of options.")


def component_problems(components: Sequence[JSON], flags: int) -> list[str]:
    """Discord's limits on a message's components: rows, buttons, selects, custom ids,
    and (with IS_COMPONENTS_V2) the layout rules of ``layout.py``."""
    errors: list[str] = []
    if not flags & FLAG_COMPONENTS_V2:
        if len(components) > MAX_ROW:
            errors.append(f"components: Must be {MAX_ROW} or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                errors.append(f"components.{i}: top-level components must be action rows")
            else:  # with the flag, layout_errors checks every row, nested ones too
                row_errors(f"components.{i}", row, errors)
    seen: set[str] = set()
    for path, comp in _walk(components, "components"):
        kind = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            if not 1 <= len(_text(cid)) <= MAX_CUSTOM_ID:
                errors.append(f"{path}.custom_id: Must be between 1 and {MAX_CUSTOM_ID} in length.")
            if cid in seen:
                errors.append(f"{path}.custom_id: Component custom id cannot be duplicated")
            seen.add(cid)
        if kind == BUTTON:
            _button(path, comp, errors)
        elif kind in SELECTS:
            if cid is None:
                errors.append(f"{path}.custom_id: This field is required")
            _select(path, comp, errors)
    return errors


def message_problems(
    content: str, embeds: Sequence[JSON], components: Sequence[JSON], flags: int
) -> list[str]:
    """Everything Discord refuses in a message as it will stand (content, embeds,
    components and flags, after an edit is merged)."""
    errors: list[str] = []
    if len(content) > MAX_CONTENT:
        errors.append(f"content: Must be {MAX_CONTENT} or fewer in length.")
    errors.extend(embed_problems(embeds))
    errors.extend(layout_errors(content, embeds, components, flags))
    errors.extend(component_problems(components, flags))
    return errors


def channel_message_problems(body: JSON) -> list[str]:
    """A message the bot posts or edits in a channel (not an interaction's answer)."""
    flags = body.get("flags")
    if isinstance(flags, int) and flags & FLAG_EPHEMERAL:
        return ["flags: Only an interaction's answer can be ephemeral (flag 64)."]
    return []


def allowed_mentions_problems(mentions: object, path: str = "allowed_mentions") -> list[str]:
    """The documented shape of ``allowed_mentions`` beyond its types."""
    if not isinstance(mentions, dict):
        return []
    errors: list[str] = []
    parse = mentions.get("parse") or []
    for kind in parse:
        if kind not in MENTION_KINDS:
            errors.append(f"{path}.parse: {kind!r} is not one of roles, users, everyone.")
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        if ids and kind in parse:
            errors.append(f"{path}.{kind}: Cannot be set together with parse:[{kind!r}].")
        if len(ids) > MAX_MENTION_IDS:
            errors.append(f"{path}.{kind}: Must be {MAX_MENTION_IDS} or fewer in length.")
    return errors


# ------------------------------------------------------------------------ modals
def _text_input(path: str, comp: JSON, *, labelled: bool, errors: list[str]) -> None:
    cid = _text(comp.get("custom_id"))
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        errors.append(f"{path}.custom_id: Must be between 1 and {MAX_CUSTOM_ID} in length.")
    if not labelled:
        label = _text(comp.get("label"))
        if not 1 <= len(label) <= MAX_INPUT_LABEL:
            errors.append(f"{path}.label: Must be between 1 and {MAX_INPUT_LABEL} in length.")
    _too_long(f"{path}.placeholder", comp.get("placeholder"), MAX_INPUT_PLACEHOLDER, errors)
    _too_long(f"{path}.value", comp.get("value"), MAX_INPUT_TEXT, errors)
    low, high = comp.get("min_length"), comp.get("max_length")
    if low is not None and not (isinstance(low, int) and 0 <= low <= MAX_INPUT_TEXT):
        errors.append(f"{path}.min_length: Must be between 0 and {MAX_INPUT_TEXT}.")
    if high is not None and not (isinstance(high, int) and 1 <= high <= MAX_INPUT_TEXT):
        errors.append(f"{path}.max_length: Must be between 1 and {MAX_INPUT_TEXT}.")


def modal_problems(data: JSON, path: str = "data") -> list[str]:
    """A modal (interaction callback type 9)."""
    errors: list[str] = []
    title = _text(data.get("title"))
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        errors.append(f"{path}.title: Must be between 1 and {MAX_MODAL_TITLE} in length.")
    cid = _text(data.get("custom_id"))
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        errors.append(f"{path}.custom_id: Must be between 1 and {MAX_CUSTOM_ID} in length.")
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= MAX_MODAL_COMPONENTS:
        errors.append(f"{path}.components: Must be between 1 and {MAX_MODAL_COMPONENTS} in length.")
        return errors
    for i, comp in enumerate(components):
        here = f"{path}.components.{i}"
        kind = comp.get("type")
        if kind == ACTION_ROW:
            inner = comp.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != TEXT_INPUT:
                errors.append(f"{here}.components: A modal's row holds one text input.")
            for j, child in enumerate(inner):
                if child.get("type") == TEXT_INPUT:
                    _text_input(f"{here}.components.{j}", child, labelled=False, errors=errors)
        elif kind == LABEL:
            label = _text(comp.get("label"))
            if not 1 <= len(label) <= MAX_INPUT_LABEL:
                errors.append(f"{here}.label: Must be between 1 and {MAX_INPUT_LABEL} in length.")
            child = comp.get("component")
            if isinstance(child, dict) and child.get("type") == TEXT_INPUT:
                _text_input(f"{here}.component", child, labelled=True, errors=errors)
            elif not isinstance(child, dict):
                errors.append(f"{here}.component: This field is required")
    return errors


# ------------------------------------------------------------------------ commands
def command_name_ok(name: object) -> bool:
    """Discord's rule for chat-input command and option names (and their
    localizations): ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where
    the letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for ch in name:
        cat = unicodedata.category(ch)
        if (
            ch in "-_"
            or cat[0] in "LN"
            or 0x0900 <= ord(ch) <= 0x097F
            or 0x0E00 <= ord(ch) <= 0x0E7F
        ):
            continue
        return False
    return True


def _longest(base: object, localized: object) -> int:
    texts = [_text(base)]
    if isinstance(localized, dict):
        texts.extend(_text(t) for t in localized.values())
    return max(len(t) for t in texts)


def command_size(cmd: JSON) -> int:
    """Characters Discord counts towards a command's 8,000: names, descriptions and
    choice values of the command, its options and choices (the longest localization)."""
    n = _longest(cmd.get("name"), cmd.get("name_localizations"))
    n += _longest(cmd.get("description"), cmd.get("description_localizations"))
    for choice in cmd.get("choices") or []:
        n += _longest(choice.get("name"), choice.get("name_localizations"))
        n += len(_text(choice.get("value")))
    for opt in cmd.get("options") or []:
        n += command_size(opt)
    return n


def _options_problems(where: str, options: Sequence[JSON]) -> list[str]:
    out: list[str] = []
    if len(options) > MAX_COMMAND_OPTIONS:
        out.append(f"{where}.options: Must be {MAX_COMMAND_OPTIONS} or fewer in length.")
    optional_seen = False
    for opt in options:
        if opt.get("type") in SUB_COMMAND_TYPES:
            continue
        if opt.get("required"):
            if optional_seen:
                out.append(
                    f"{where}.options.{opt.get('name')}: Required options must be placed "
                    "before non-required options"
                )
        else:
            optional_seen = True
    locales = {loc for opt in options for loc in opt.get("name_localizations") or {}}
    for loc in sorted({"", *locales}):
        seen: set[str] = set()
        for opt in options:
            name = str((opt.get("name_localizations") or {}).get(loc) or opt.get("name"))
            if name in seen:
                out.append(f"{where}.options: Duplicate option name {name!r} ({loc or 'default'})")
            seen.add(name)
    return out


def command_problems(cmd: JSON, path: str = "") -> list[str]:
    """What Discord would refuse (50035) in a command's (or option's) names,
    descriptions, options, choices and their localizations."""
    out: list[str] = []
    where = f"{path}{cmd.get('name')}"
    chat = cmd.get("type", CHAT_INPUT) in (CHAT_INPUT, None) or bool(path)
    for key in ("name_localizations", "description_localizations"):
        for loc, text in (cmd.get(key) or {}).items():
            if loc not in DISCORD_LOCALES:
                out.append(f"{where}.{key}: unknown locale {loc!r}")
            elif key == "name_localizations" and chat and not command_name_ok(text):
                out.append(f"{where}.{key}.{loc}: invalid name {text!r}")
            elif key == "description_localizations" and not 1 <= len(str(text)) <= 100:
                out.append(f"{where}.{key}.{loc}: description must be 1-100 characters")
    if chat and not command_name_ok(cmd.get("name")):
        out.append(f"{where}.name: invalid name {cmd.get('name')!r}")
    if chat and not 1 <= len(_text(cmd.get("description"))) <= MAX_DESCRIPTION:
        out.append(f"{where}.description: description must be 1-100 characters")
    choices = cmd.get("choices") or []
    if len(choices) > MAX_CHOICES:
        out.append(f"{where}.choices: Must be {MAX_CHOICES} or fewer in length.")
    for choice in choices:
        label = choice.get("name")
        if not 1 <= len(_text(label)) <= MAX_DESCRIPTION:
            out.append(f"{where}.choices.{label}: name must be 1-100 characters")
        value = choice.get("value")
        if cmd.get("type") == STRING_OPTION and len(_text(value)) > MAX_CHOICE_VALUE:
            out.append(f"{where}.choices.{label}.value: Must be {MAX_CHOICE_VALUE} or fewer.")
        for loc, text in (choice.get("name_localizations") or {}).items():
            if loc not in DISCORD_LOCALES or not 1 <= len(str(text)) <= 100:
                out.append(f"{where}.choices.{label}: bad localization {loc!r}")
    options = cmd.get("options") or []
    out.extend(_options_problems(where, options))
    for opt in options:
        out.extend(command_problems(opt, where + "."))
    if not path and command_size(cmd) > MAX_COMMAND_SIZE:
        out.append(f"{where}: Command exceeds maximum size ({MAX_COMMAND_SIZE})")
    return out
