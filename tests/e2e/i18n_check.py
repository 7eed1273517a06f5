"""Does English reach members who read another language? What they saw is checked in
two independent ways:

1. Catalog phrases: every English catalog text that differs from the target language's
   is cut at its placeholders into literal fragments; a fragment of two or more words
   (that the target catalog does not itself use, e.g. "Punto Banco") must not appear in
   what members saw. This catches every message the bot has an id for.
2. English words: for German and French, English function words ("the", "you", "is",
   "and"...) must not appear; for Hindi and Persian no Latin-script word of three or more
   letters may appear at all. This catches English the catalogs do not know.

Names, Discord markup (<@..>, <#..>, <t:..>), `code` (slash commands), card codes, rule
ids, table ids and numbers are removed first.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable, Sequence

from bot.i18n import FSI, PDI, catalog, untranslated
from localdiscord import FakeDiscord, FakeMessage, InteractionResult

# Discord markup (a command mention </pontoon start:ID> shows in the reader's language)
_MARKUP = re.compile(r"</[^<>\n]+:\d+>|<[@#:!&a-zA-Z/][^<>\s]*>|`[^`]*`")
_CARD = re.compile(r"(?<!\w)(10|[2-9AJQK])[♠♥♦♣]")
_RULE = re.compile(r"\b[PB](?:-[A-Z0-9]+)+\b")
_HEX = re.compile(r"\b[0-9a-f]{8,}\b")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_LATIN = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
_BREAK = re.compile(r"[\n.:;·()—–!?,•→←|\[\]{}]+")

#: English words that are not also German or French words
ENGLISH_WORDS = frozenset(
    [
        "the",
        "you",
        "your",
        "yours",
        "is",
        "are",
        "has",
        "have",
        "and",
        "of",
        "with",
        "not",
        "this",
        "that",
        "there",
        "their",
        "been",
        "cannot",
        "can't",
        "won't",
        "don't",
        "placed",
        "wins",
        "won",
        "lost",
        "betting",
        "bets",
        "nobody",
        "already",
        "only",
        "which",
        "when",
        "would",
        "should",
        "must",
        "they",
        "them",
        "its",
        "table's",
        "banker's",
        "seat's",
        "chips'",
        "twist",
        "stick",
        "buy",
        "shoot",
        "kitty",
        "deal",
        "bust",
        "stands",
        "draws",
        "pays",
        "paid",
        "returned",
        "taken",
        "back",
    ]
)


def sanitize(text: str, names: Iterable[str] = ()) -> str:
    text = text.replace(FSI, "").replace(PDI, "")
    text = _MARKUP.sub(" ", text)
    text = _CARD.sub(" ", text)
    text = _RULE.sub(" ", text)
    text = _HEX.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return text


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("**", " "))]


@functools.cache
def english_fragments(locale: str) -> tuple[str, ...]:
    """Word sequences of the English catalog that the ``locale`` catalog never uses. A
    message not yet translated (``#, fuzzy``: said in English on purpose, see
    CONTRIBUTING) is no leak."""
    en, other = catalog("en"), catalog(locale)
    target = " " + " ".join(" ".join(words(sanitize(v))) for v in other.values()) + " "
    pending = set(untranslated(locale))
    out: set[str] = set()
    for key, text in en.items():
        if other.get(key) == text or key in pending:
            continue
        for literal, *_ in string.Formatter().parse(text):
            for part in _BREAK.split(sanitize(literal)):
                seq = words(part)
                if len(seq) < 2 or sum(map(len, seq)) < 7:
                    continue
                phrase = " ".join(seq)
                if f" {phrase} " not in target:
                    out.add(phrase)
    return tuple(sorted(out))


def english_leaks(texts: Sequence[str], locale: str, names: Iterable[str] = ()) -> list[str]:
    """What looks English in ``texts`` (each leak with the text it was found in)."""
    names = list(names)
    leaks: list[str] = []
    fragments = english_fragments(locale)
    for text in texts:
        clean = sanitize(text, names)
        segments = [" " + " ".join(words(part)) + " " for part in _BREAK.split(clean)]
        for phrase in fragments:
            if any(f" {phrase} " in seg for seg in segments):
                leaks.append(f"catalog phrase {phrase!r} in {text[:160]!r}")
        if locale in ("de", "fr"):
            found = sorted({w for w in words(clean) if w in ENGLISH_WORDS})
            if found:
                leaks.append(f"English words {found} in {text[:160]!r}")
        else:
            latin = sorted(set(_LATIN.findall(clean)))
            if latin:
                leaks.append(f"Latin-script words {latin} in {text[:160]!r}")
    return leaks


def message_texts(msg: FakeMessage) -> list[str]:
    """Every version of a message: text, button labels and select options."""
    out: list[str] = []
    for version in msg.history or []:
        out.append(version.text)
        out.extend(b.label or "" for b in version.buttons())
    out.append(msg.text)
    out.extend(b.label or "" for b in msg.buttons())
    return [t for t in out if t]


def seen_by(fake: FakeDiscord, people: Iterable[object]) -> list[str]:
    """Everything these members could see: public messages of their servers, their own
    ephemeral answers and DMs, every version of each, with button labels."""
    seen: dict[int, FakeMessage] = {}
    for person in people:
        for msg in fake.visible_to(person):  # type: ignore[arg-type]
            seen[msg.id] = msg
    return [text for msg in seen.values() for text in message_texts(msg)]


def modal_texts(results: Iterable[InteractionResult]) -> list[str]:
    """Titles, labels and placeholders of the forms the bot opened."""
    out: list[str] = []
    for r in results:
        if r.modal is None:
            continue
        out.append(r.modal.title)
        for field in r.modal.text_inputs():
            out.extend(str(field.get(k, "")) for k in ("label", "placeholder"))
    return [t for t in out if t]
