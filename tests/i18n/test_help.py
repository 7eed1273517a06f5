"""/help in the member's language: what the bot does, the commands grouped as
clickable command mentions, how a round goes in five lines; the one-time join hint is
remembered per member in the store."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from babel.lists import format_list

from bot.games import GAMES
from bot.i18n import COMMAND_LOCALES, LOCALES, command_name, set_command_ids, t
from bot.pontoon import OpenPontoonTable
from bot.storage import Store
from cogs.help import (
    HELP_HINT,
    SHARED,
    first_join_hint,
    game_sections,
    help_embed,
    help_groups,
    help_text,
)
from cogs.pontoon.commands import VARIATIONS, VariationOff, check_variation
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind

IDS = {"pontoon": 11, "bank": 12, "baccarat": 13, "balance": 14, "daily": 15}
IDS |= {"leaderboard": 16, "chips": 17, "language": 18, "help": 19, "privacy": 20}
IDS |= {"stats": 21, "blackjack": 22, "give": 23, "break": 24, "casino": 25}


@pytest.fixture
def ids() -> Iterator[None]:
    set_command_ids(IDS)
    yield
    set_command_ids({})


@pytest.mark.parametrize("locale", LOCALES)
def test_help_lists_every_group_as_command_mentions(locale: str, ids: None) -> None:
    title, about, fields = help_text(locale)
    names = [t(locale, section.name) for section in game_sections()]
    assert title == t(locale, "help.title.of", games=format_list(names, locale=locale))
    assert about.split("\n")[0] == t(locale, "help.about.bot")
    for section in game_sections():  # each game names itself in the title and says what it is
        assert t(locale, section.name) in title and t(locale, section.about) in about
    heads = [h for h, _ in fields]
    for group in help_groups():
        body = dict(fields)[t(locale, group.heading)]
        for path in group.paths:
            assert f"</{path}:{IDS[path.split()[0]]}>" in body, (group, path)
    assert heads[-1] == t(locale, "help.round.title")
    round_lines = dict(fields)[heads[-1]].split("\n")
    assert len(round_lines) == 6
    # the last step says what a timeout does: the bot twists below 15 and sticks from 15
    assert "15" in round_lines[5] or "۱۵" in round_lines[5]
    em = help_embed(locale)
    assert all(len(f.value or "") <= 1024 for f in em.fields)
    assert not re.search(r"\b[PB]-[A-Z]{2,}", str(em.to_dict()))


def test_every_game_brings_its_section_and_the_shared_groups_follow() -> None:
    sections = game_sections()
    assert len(sections) == len(GAMES) and all(s.groups for s in sections)
    headings = [g.heading for g in help_groups()]
    assert headings[-len(SHARED) :] == [
        "help.group.chips",
        "help.group.settings",
        "help.group.admin",
    ]
    assert len(headings) == len(set(headings))
    paths = [p for g in help_groups() for p in g.paths]
    assert len(paths) == len(set(paths)), "a command listed twice"
    assert "stats" in paths  # it was missing


def test_variation_commands_are_listed_under_their_own_heading_only() -> None:
    groups = {g.heading: set(g.paths) for g in help_groups()}
    variations = groups["help.group.pontoon.variations"]
    only_some_tables = {"pontoon shoot", "pontoon burn", "pontoon double", "pontoon no-double"}
    assert only_some_tables | {"bank kitty", "bank auction", "bank bid"} <= variations
    for heading, paths in groups.items():
        if heading != "help.group.pontoon.variations":
            assert not paths & variations, heading


@pytest.mark.parametrize("locale", sorted(COMMAND_LOCALES))
def test_help_shows_the_names_the_readers_command_picker_shows(locale: str, ids: None) -> None:
    """A mention is written with the command's own (English) name; beside it, the name a
    German reader types in the picker (`/kontostand`, not only /balance). Discord has no
    Persian: a Persian reader's picker shows the English names, and so does /help."""
    body = "\n".join(text for _, text in help_text(locale)[2])
    named_otherwise = 0
    for group in help_groups():
        for path in group.paths:
            translated = command_name(locale, path)
            if translated != "/" + path:
                named_otherwise += 1
                assert f"`{translated}`" in body, path
    assert named_otherwise >= 10 and f"`{command_name(locale, 'balance')}`" in body
    for alone in ("en", "fa"):  # their picker shows the commands' own names
        body = "\n".join(text for _, text in help_text(alone)[2])
        assert "`/balance`" not in body and "</balance:14>" in body


def table_with(rules: PontoonRules) -> OpenPontoonTable:
    return SimpleNamespace(engine=SimpleNamespace(rules=rules))  # type: ignore[return-value]


@pytest.mark.parametrize("kind", list(VARIATIONS))
def test_a_variation_the_table_does_not_play_is_refused_as_such(kind: ActionKind) -> None:
    plain = table_with(PontoonRules())
    with pytest.raises(VariationOff) as refused:
        check_variation(plain, kind)
    for locale in LOCALES:
        text = refused.value.localized(locale)
        assert text == t(locale, refused.value.key) and "</pontoon rules>" not in text
    assert "not possible now" not in refused.value.localized("en")
    playing = table_with(PontoonRules(shoot=True, banker_doubles=True, burn="13"))
    check_variation(playing, kind)  # the table plays it: no refusal here


def test_the_other_commands_are_never_refused_as_a_variation() -> None:
    for kind in set(ActionKind) - set(VARIATIONS):
        check_variation(table_with(PontoonRules()), kind)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "bank.sqlite3")
    yield s
    await s.close()


async def test_the_join_hint_is_shown_once_per_member_across_restarts(
    store: Store, tmp_path: Path
) -> None:
    sent: list[str] = []

    async def send(text: str, *, ephemeral: bool) -> None:
        assert ephemeral
        sent.append(text)

    def interaction(user: int) -> Any:
        return SimpleNamespace(
            client=SimpleNamespace(store=store),
            user=SimpleNamespace(id=user),
            followup=SimpleNamespace(send=send),
        )

    await first_join_hint(interaction(5), "de")
    await first_join_hint(interaction(5), "de")
    await first_join_hint(interaction(6), "fa")
    assert sent == [t("de", "help.hint"), t("fa", "help.hint")]
    again = await Store.open(tmp_path / "bank.sqlite3")
    try:
        assert await again.hint_shown(5, HELP_HINT)
        assert not await again.hint_shown(7, HELP_HINT)
        assert not await again.mark_hint_shown(5, HELP_HINT)
    finally:
        await again.close()


async def test_the_hint_store_on_postgresql(pg_url: str) -> None:
    from bot.storage.pg import PgStore

    user = 10**18 + 11
    store = await PgStore.connect(pg_url)
    try:
        assert await store.mark_hint_shown(user, HELP_HINT)
        assert not await store.mark_hint_shown(user, HELP_HINT)
        assert await store.hint_shown(user, HELP_HINT)
    finally:
        await store.close()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_learn_part_teaches_in_the_members_language(locale: str, ids: None) -> None:
    """/help's Learn part (each game's ``learn``; shared code names no game): a round with
    the card pictures, what the hint means (with its command), the house edge's figures
    (docs/house-edge.md), each lesson within an embed field and the whole within one
    message; no rule id; every language its own words."""
    from cogs.help import learn_embeds
    from cogs.pontoon.hints import EDGE

    embeds = learn_embeds(locale)
    assert embeds and len(embeds) <= 10
    assert sum(len(e) for e in embeds) <= 6000
    pontoon = embeds[0]
    assert pontoon.title == t(locale, "pt.learn.title")
    fields = {f.name: f.value or "" for f in pontoon.fields}
    assert list(fields) == [
        t(locale, "pt.learn.round.title"),
        t(locale, "pt.learn.hint.title"),
        t(locale, "pt.learn.edge.title"),
    ]
    for body in fields.values():
        assert 0 < len(body) <= 1024 and not re.search(r"\bP-[A-Z]", body)
    lesson, hint, edge = fields.values()
    assert "{" not in lesson + hint + edge
    assert f"</pontoon {command_name('en', 'pontoon hint').split()[-1]}:11>" in hint
    from bot.i18n import pct

    assert pct(locale, EDGE["edge"], 2) in edge and pct(locale, EDGE["no_five"], 1) in edge
    if locale != "en":
        assert lesson != t("en", "pt.learn.round", pontoon="", five="")


def test_the_learn_parts_figures_are_the_engines() -> None:
    """The Learn part's house-edge figures are written in the code (working them out
    takes seconds of CPU); they must be what the engine works out for the usual options
    (docs/house-edge.md), to the precision shown: 0.68%, then one decimal."""
    from cogs.pontoon.hints import EDGE
    from engine.pontoon import PontoonRules
    from engine.pontoon.odds import heads_up, option_effects

    effects = {k: v["edge"] for k, v in option_effects(PontoonRules()).items()}
    worked_out = {
        "edge": round(effects["as_given"], 4),
        "twist_only": round(-heads_up(15, 17)["ev"], 3),
        "no_five": round(effects["no_five_card_trick"], 3),
        "doubled": round(effects["doubled_round"], 3),
        "ties": round(-effects["banker_pays_ties"], 3),  # said as what the player wins
    }
    assert worked_out == EDGE


def test_the_shared_help_names_no_game() -> None:
    source = Path(__file__).resolve().parents[2].joinpath("cogs", "help.py").read_text()
    code = re.sub(r'""".*?"""|#.*', "", source, flags=re.S)
    assert not re.search(r"pontoon|punto|baccarat|blackjack", code, re.I)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_game_has_a_learn_part(locale: str, ids: None) -> None:
    """Newcomer review N-14: a Learn part for Blackjack and Punto Banco too, not only
    Pontoon: a round (or coup) step by step with the card pictures, what the hint means
    (Blackjack), and what a table costs, with the command that shows the table's own
    figures; each lesson within an embed field, the whole within one message."""
    from cogs.help import game_sections, learn_embeds

    embeds = learn_embeds(locale)
    assert len(embeds) == len(game_sections()) == 3
    assert sum(len(e) for e in embeds) <= 6000
    titles = [e.title for e in embeds]
    for key in ("pt.learn.title", "bj.learn.title", "pb.learn.title"):
        assert t(locale, key) in titles
    for em in embeds:
        for f in em.fields:
            body = f.value or ""
            assert 0 < len(body) <= 1024 and "{" not in body, (f.name, body)
            assert not re.search(r"\b(?:P|B|BJ)-[A-Z]", body)
    blackjack = next(e for e in embeds if e.title == t(locale, "bj.learn.title"))
    text = "\n".join(f.value or "" for f in blackjack.fields)
    assert "A♠" in text and "K♥" in text  # the example blackjack
    assert f"</blackjack {command_name('en', 'blackjack hint').split()[-1]}:" in text
    baccarat = next(e for e in embeds if e.title == t(locale, "pb.learn.title"))
    text = "\n".join(f.value or "" for f in baccarat.fields)
    assert f"</baccarat {command_name('en', 'baccarat odds').split()[-1]}:" in text


def test_the_blackjack_learn_figures_are_the_engines() -> None:
    """The Blackjack lesson's figures are written in the code (BJ-EDGE-1 takes about a
    second); they must be the engine's for the usual table, to the two decimals shown."""
    from cogs.blackjack.hints import EDGE
    from engine.blackjack import BlackjackRules
    from engine.blackjack.odds import house_edge

    usual = house_edge(BlackjackRules()).edge
    six_five = house_edge(BlackjackRules(blackjack_pays="6:5")).edge
    assert round(usual, 4) == EDGE["edge"]
    assert round(six_five - usual, 4) == EDGE["six_five"]


@pytest.mark.parametrize("locale", ["en", "de", "fr", "hi", "fa"])
def test_help_is_sent_within_discords_embed_limits(locale: str) -> None:
    """Every message /help sends holds at most 10 embeds and 6,000 characters in all
    (the German and French help once passed 6,000 and Discord refused it), and nothing
    of the help is dropped on the way."""
    from cogs.help import help_embed, help_messages, learn_embeds

    messages = help_messages(locale)
    for embeds in messages:
        assert len(embeds) <= 10
        assert sum(len(e) for e in embeds) <= 6000
        for e in embeds:
            assert len(e.fields) <= 25
    sent = [f.value for embeds in messages for e in embeds for f in e.fields]
    wanted = [f.value for e in [help_embed(locale), *learn_embeds(locale)] for f in e.fields]
    assert sent == wanted


def test_an_embed_over_the_limit_is_split_by_its_fields() -> None:
    import discord

    from cogs.help import as_messages

    big = discord.Embed(title="T", description="D")
    for i in range(8):
        big.add_field(name=f"f{i}", value="x" * 1000)
    messages = as_messages([big])
    assert len(messages) == 2
    assert [len(m) for m in messages] == [1, 1]
    assert messages[0][0].title == "T" and messages[1][0].title is None
    assert sum(len(m[0].fields) for m in messages) == 8
