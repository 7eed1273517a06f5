"""Every word the bot says to members, in their language: English (default), German,
French, Hindi and Persian.

Message catalogs are gettext ``.po`` files kept in the repo and read with Babel when
first needed, so a fresh clone needs no build step. The shared words (chips, language,
privacy, help...) are the ``messages`` domain (``bot/locales/<lang>/LC_MESSAGES/messages.po``);
each game keeps its own words in a domain of its own beside its Discord package
(``cogs/<game>/locales/<lang>/LC_MESSAGES/<game>.po``), found by looking for a ``locales``
folder in every package of ``cogs``: nothing here names a game. An id lives in exactly one
domain, and :func:`catalog` is the union of every domain of a language. Message ids are stable keys (``chips.balance.self``);
the English text lives in the ``en`` catalog like any other language. Placeholders are
``{name}`` (str.format); :func:`t` formats numbers for the locale and, for right-to-left
languages, wraps every inserted value (names, cards, numbers) in Unicode bidi isolates
(FSI ... PDI) so it stays readable inside Persian text.

Everything the bot says is named by its message id (refusals, storage errors, close
reasons, the engine's words carry theirs): English text is never read back into an id.
"""

from __future__ import annotations

import functools
import logging
import re
import string
from collections.abc import Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Final

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

log = logging.getLogger(__name__)

LOCALES_DIR: Final = Path(__file__).resolve().parents[1] / "locales"
DEFAULT_LOCALE: Final = "en"
LOCALES: Final = ("en", "de", "fr", "hi", "fa")
RTL_LOCALES: Final = frozenset({"fa"})
LOCALE_NAMES: Final = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "hi": "हिन्दी",
    "fa": "فارسی",
}
FSI: Final = "\u2068"  # FIRST STRONG ISOLATE
PDI: Final = "\u2069"  # POP DIRECTIONAL ISOLATE


def normalize(value: object) -> str | None:
    """A supported locale code for a Discord locale (``de``, ``en-GB``, ``fr``, ``hi``...),
    a language code, or a ``discord.Locale``; None if the language is not supported."""
    if value is None:
        return None
    text = str(getattr(value, "value", value)).strip().lower().replace("_", "-")
    primary = text.split("-", 1)[0]
    return primary if primary in LOCALES else None


def resolve(*candidates: object) -> str:
    """The first supported locale among ``candidates``, else English."""
    for candidate in candidates:
        found = normalize(candidate)
        if found is not None:
            return found
    return DEFAULT_LOCALE


#: the shared domain; every other domain is a game's, named after its package
SHARED_DOMAIN: Final = "messages"
#: the folder of the Discord packages; a package with a ``locales`` folder brings its own domain
PACKAGES_DIR: Final = Path(__file__).resolve().parents[2] / "cogs"


def find_domains(shared: Path, packages: Path) -> dict[str, Path]:
    """domain name -> its ``locales`` folder: ``messages`` (the ``shared`` folder), then
    one domain per package in ``packages`` that has a ``locales`` folder, named after
    the package (``cogs/pontoon/locales/<lang>/LC_MESSAGES/pontoon.po``)."""
    found = {SHARED_DOMAIN: shared}
    if packages.is_dir():
        for folder in sorted(packages.iterdir()):
            if (folder / "locales").is_dir() and (folder / "__init__.py").is_file():
                found[folder.name] = folder / "locales"
    return found


#: domains of packages outside ``cogs`` (a game registered from elsewhere: bot.games.register)
_ADDED: dict[str, Path] = {}


@functools.cache
def domains() -> Mapping[str, Path]:
    """The bot's catalog domains (:func:`find_domains` over ``bot/locales`` and ``cogs``,
    then those added with :func:`add_domain`)."""
    return {**find_domains(LOCALES_DIR, PACKAGES_DIR), **_ADDED}


def add_domain(name: str, folder: Path) -> None:
    """A catalog domain kept outside ``cogs`` (``folder/<lang>/LC_MESSAGES/<name>.po``),
    from now on part of every language's catalog."""
    if domains().get(name) == folder:
        return
    if name in domains():
        raise ValueError(f"catalog domain {name!r} is already {domains()[name]}")
    _ADDED[name] = folder
    for cached in (domains, domain_catalog, catalog):
        cached.cache_clear()


def po_path(locale: str, domain: str = SHARED_DOMAIN) -> Path:
    """The ``.po`` file of one domain in one language."""
    return domains()[domain] / locale / "LC_MESSAGES" / f"{domain}.po"


def catalog_files(locale: str | None = None) -> list[Path]:
    """Every catalog file of ``locale`` (every language when None) that exists."""
    wanted = LOCALES if locale is None else (locale,)
    paths = [po_path(lang, domain) for domain in domains() for lang in wanted]
    return [path for path in paths if path.is_file()]


@functools.cache
def domain_catalog(locale: str, domain: str) -> Mapping[str, str]:
    """message id -> text of one domain in one language (empty translations left out;
    an empty mapping when the domain has no file for that language). An entry marked
    ``#, fuzzy`` is left out too, as gettext's ``msgfmt`` leaves it out: it is not yet
    translated (a contributor who writes only English copies the English text there and
    marks it fuzzy), so a reader in that language gets the English text until a
    translator writes it and removes the mark (:func:`untranslated` lists them)."""
    path = po_path(locale, domain)
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        po = read_po(fh, locale=locale)
    return {
        str(m.id): str(m.string)
        for m in po
        if m.id and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def untranslated(locale: str) -> list[str]:
    """The message ids of ``locale`` marked ``#, fuzzy`` (not yet translated: said in
    English), over every domain."""
    found: list[str] = []
    for domain in domains():
        path = po_path(locale, domain)
        if path.is_file():
            with path.open("rb") as fh:
                found += [str(m.id) for m in read_po(fh, locale=locale) if m.id and m.fuzzy]
    return sorted(found)


@functools.cache
def catalog(locale: str) -> Mapping[str, str]:
    """message id -> text of one language, over every domain (empty translations left
    out). An id found in two domains is an error: each word has one home."""
    merged: dict[str, str] = {}
    home: dict[str, str] = {}
    for domain in domains():
        for key, text in domain_catalog(locale, domain).items():
            if key in merged:
                raise ValueError(f"message id {key!r} is in two domains: {home[key]} and {domain}")
            merged[key] = text
            home[key] = domain
    return merged


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a catalog text."""
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(text) if name is not None and name
    )


def isolate(text: str) -> str:
    """``text`` wrapped in Unicode bidi isolates (FSI ... PDI)."""
    return f"{FSI}{text}{PDI}"


def bidi(locale: str, text: str) -> str:
    """``text`` isolated when ``locale`` is written right to left (for cards, names and
    numbers put together outside :func:`t`), else unchanged."""
    return isolate(text) if locale in RTL_LOCALES and text else text


#: Persian writes its own digits and separators (Babel gives Latin ones for ``fa``)
PERSIAN_DIGITS: Final = str.maketrans("0123456789,.%", "۰۱۲۳۴۵۶۷۸۹٬٫٪")
#: locales whose numbers are written in their own digits
NATIVE_DIGITS: Final = {"fa": PERSIAN_DIGITS}


def _digits(locale: str, text: str) -> str:
    table = NATIVE_DIGITS.get(locale)
    return text.translate(table) if table is not None else text


@functools.lru_cache(maxsize=8192)
def num(locale: str, value: int | float | Decimal) -> str:
    """A number punctuated for the locale, in the locale's digits (Persian: ۱۲٬۳۴۵). Every
    number from 1000 on is grouped the same way (1,000 · 12,345 · 1.000 · 100.000 ·
    1 000 · 12,34,567 in Hindi), so a range never reads ``1000–100.000``. Remembered: the
    same chip counts are written on every redraw of a table, and Babel takes some 40 µs a
    number."""
    return _digits(locale, format_decimal(value, locale=_babel(locale)))


def chip_figure(locale: str, value: float, *, sign: bool = True) -> str:
    """A chip figure with two decimals in the locale's way (+0.12 · −1,05 · ۰٫۱۲), signed
    unless ``sign`` is False (a hint's expected chips)."""
    rounded = Decimal(repr(abs(value))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = num(locale, rounded)
    if not sign:
        return text
    if rounded == 0:
        return "±" + text
    return ("+" if value > 0 else "−") + text


def signed(locale: str, value: int) -> str:
    """+9, −20 or ±0 with the locale's digits grouping."""
    if value > 0:
        return "+" + num(locale, value)
    if value < 0:
        return "−" + num(locale, -value)
    return "±" + num(locale, 0)


@functools.lru_cache(maxsize=4096)
def pct(locale: str, value: Fraction | float, digits: int = 2) -> str:
    """A probability as a percentage with ``digits`` decimals (45.86% · 45,86 %);
    remembered (a table's footer says its house edge at every redraw)."""
    # the locale's own pattern (45,86 % in German and French), with ``digits`` decimals
    pattern = _percent_pattern(_babel(locale))
    if digits:
        pattern = pattern.replace("0%", "0." + "0" * digits + "%").replace(
            "0\xa0%", "0." + "0" * digits + "\xa0%"
        )
    return _digits(locale, format_percent(Decimal(float(value)), pattern, locale=_babel(locale)))


@functools.cache
def _percent_pattern(locale: str) -> str:
    found = Locale.parse(locale).percent_formats[None].pattern
    return str(found) if found else "#,##0%"


class Raw(str):
    """A placeholder value put in exactly as it is: no number formatting, no bidi
    isolates. For Discord markup parts such as ids in ``<#{channel}>`` or ``<t:{ts}:R>``."""

    __slots__ = ()


class Msg:
    """A catalog message not yet rendered: put it into another message as a placeholder
    value and it is rendered in that message's language."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, locale: str) -> str:
        return t(locale, self.key, **self.params)

    def __str__(self) -> str:
        return self.render(DEFAULT_LOCALE)

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash(self.key)


def _babel(locale: str) -> str:
    return locale if locale in LOCALES else DEFAULT_LOCALE


def _value(locale: str, value: object) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, Msg):
        text = value.render(locale)
    elif isinstance(value, bool):
        text = str(value)
    elif isinstance(value, int | Decimal):
        text = num(locale, value)
    elif isinstance(value, float):
        text = num(locale, Decimal(repr(value)))
    else:
        text = str(value)
    return isolate(text) if locale in RTL_LOCALES and text else text


def has(key: str) -> bool:
    return key in catalog(DEFAULT_LOCALE)


#: Discord markup whose inside must stay exactly as Discord wants it: timestamps
#: ``<t:…>``, user/role/channel mentions ``<@…>`` ``<@&…>`` ``<#…>``, command mentions
#: ``</name:id>`` and custom emoji ``<:name:id>`` ``<a:name:id>``.
MARKUP: Final = re.compile(
    r"</[^<>\n]+:[^<>\n]*>|<t:[^<>\n]+>|<@[!&]?[^<>\n]+>|<#[^<>\n]+>|<a?:[^<>\n]+>"
)


@functools.lru_cache(maxsize=4096)
def markup_fields(text: str) -> frozenset[str]:
    """The placeholders of ``text`` that sit inside Discord markup (``<t:{ts}:R>``,
    ``<#{channel}>``...): they are put in as they are, never formatted as numbers nor
    isolated, whatever type the caller passes."""
    found: set[str] = set()
    for match in MARKUP.finditer(text):
        found |= placeholders(match.group(0))
    return frozenset(found)


# ------------------------------------------------------------------ command mentions
#: ``</pontoon start>`` in a catalog text: a command the reader may click
COMMAND_REF: Final = re.compile(r"</([a-z_]+(?: [a-z_]+){0,2})>")
#: top-level slash command name -> its Discord id, filled after the commands are synced
_command_ids: dict[str, int] = {}
#: Discord locales the command names are translated into (Discord has no Persian)
COMMAND_LOCALES: Final = frozenset({"de", "fr", "hi"})


def set_command_ids(ids: Mapping[str, int]) -> None:
    """Remember the synced commands' ids (``{"pontoon": 123...}``): from then on a
    ``</pontoon start>`` in a text becomes the mention ``</pontoon start:123...>``, which
    Discord shows clickable, in each reader's own client language."""
    _command_ids.clear()
    _command_ids.update({str(name): int(cid) for name, cid in ids.items()})


def command_name(locale: str, path: str) -> str:
    """``/pontoon start`` as a reader in ``locale`` sees it in the command picker."""
    words = path.split()
    if locale in COMMAND_LOCALES:
        names = catalog(locale)
        words = [
            names.get("cmd." + ".".join(path.split()[: i + 1]) + ".name", word)
            for i, word in enumerate(words)
        ]
    return "/" + " ".join(words)


def command(locale: str, path: str) -> str:
    """A command reference: the clickable mention ``</pontoon start:ID>`` once the id is
    known, else the command's name in the reader's language in code style."""
    found = _command_ids.get(path.split()[0])
    if found is not None:
        return f"</{path}:{found}>"
    return f"`{command_name(locale, path)}`"


def _commands(locale: str, text: str) -> str:
    if "</" not in text:
        return text
    return COMMAND_REF.sub(lambda m: command(locale, m.group(1)), text)


#: the ending of a message's form for a chip count of exactly one ("1 chip")
ONE = ".one"
#: the placeholders that carry a count of chips, in the order that says which one a
#: message's word for chips agrees with: the first of them the message is given
#: ("Granted {amount} chips to {name}; they now have {chips}" agrees with ``amount``)
CHIP_COUNTS: Final = ("amount", "chips", "balance", "price", "starting")


def one_form(key: str, params: Mapping[str, object]) -> str:
    """``key``'s ``.one`` form when its chip count (the first of :data:`CHIP_COUNTS`
    among ``params``) is the int 1 and the catalogs have that form, else ``key``. A
    figure passed as text (a hint's "0.50") never takes it."""
    for name in CHIP_COUNTS:
        if name in params:
            count = params[name]
            if type(count) is int and count == 1 and key + ONE in catalog(DEFAULT_LOCALE):
                return key + ONE
            return key
    return key


def t(locale: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``locale`` (English if that language lacks it), with
    ``params`` put in. Numbers are formatted for the locale; in right-to-left languages
    every inserted value is isolated. A placeholder inside Discord markup (``<t:{ts}:R>``)
    is put in as it is: number formatting never reaches inside markup. A message whose
    chip count (``amount``, ``chips``, ``balance``... :data:`CHIP_COUNTS`) is exactly 1
    is said in its ``.one`` form where the catalogs have one ("1 chip", not "1 chips");
    every catalog then has it (a test checks)."""
    locale = _babel(locale)
    key = one_form(key, params)
    text = catalog(locale).get(key)
    if text is None:
        text = catalog(DEFAULT_LOCALE).get(key)
        if text is None:
            log.error("message id %r is in no catalog", key)
            return key
        if locale != DEFAULT_LOCALE:
            log.warning("message id %r has no %s text", key, locale)
            locale = DEFAULT_LOCALE
    text = _commands(locale, text)
    raw = markup_fields(text)
    values = {
        name: str(value) if name in raw else _value(locale, value) for name, value in params.items()
    }
    try:
        return text.format_map(values)
    except (KeyError, IndexError, ValueError):
        log.exception("message %r (%s) could not be formatted with %s", key, locale, list(params))
        return catalog(DEFAULT_LOCALE).get(key, key)


def choose(n: int, one: str, other: str) -> str:
    """``one`` when ``n`` is 1, else ``other`` (the catalogs keep both forms as ids)."""
    return one if n == 1 else other


def all_keys() -> Iterable[str]:
    return catalog(DEFAULT_LOCALE).keys()


__all__ = [
    "CHIP_COUNTS",
    "DEFAULT_LOCALE",
    "FSI",
    "LOCALES",
    "LOCALE_NAMES",
    "ONE",
    "PDI",
    "RTL_LOCALES",
    "SHARED_DOMAIN",
    "Msg",
    "Raw",
    "add_domain",
    "all_keys",
    "bidi",
    "catalog",
    "catalog_files",
    "chip_figure",
    "choose",
    "command",
    "command_name",
    "domain_catalog",
    "domains",
    "find_domains",
    "has",
    "isolate",
    "normalize",
    "num",
    "one_form",
    "pct",
    "placeholders",
    "po_path",
    "resolve",
    "set_command_ids",
    "signed",
    "t",
    "untranslated",
]
