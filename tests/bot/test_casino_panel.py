"""The /casino settings panel as drawn, in every language: within Discord's bounds for
one message of layout components (40 components, 4,000 characters of text), a select per
section holding every setting of it, a form title and field within a modal's bounds."""

from __future__ import annotations

import discord
import pytest

from bot.casino import ECONOMY
from bot.i18n import LOCALES
from bot.storage import GuildSettings
from cogs.casino.panel import (
    SettingForm,
    all_limits,
    choices_view,
    panel,
    role_view,
    setting_name,
)


def _walk(items: list[discord.ui.Item[discord.ui.LayoutView]]) -> list[object]:
    found: list[object] = []
    for item in items:
        found.append(item)
        found += _walk(list(getattr(item, "children", []) or []))
    return found


def _busiest() -> GuildSettings:
    """Every game with a role set and a table limit: the longest lines the panel draws."""
    tables: dict[str, int] = {}
    for limits in all_limits():
        tables[limits.key("opener_role")] = 2**62
        tables[limits.key("max_tables")] = 1000
        tables[limits.key("max_bet_cap")] = 1_000_000
    return GuildSettings(round_limit=100_000, account_age_days=3650, tables=tables)


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_panel_fits_one_message_in_every_language(locale: str) -> None:
    view = panel(_busiest(), locale)
    items = _walk(list(view.children))
    texts = [i.content for i in items if isinstance(i, discord.ui.TextDisplay)]
    assert len(items) <= 40 and sum(len(t) for t in texts) <= 4000, sum(map(len, texts))
    selects = {i.custom_id: i for i in items if isinstance(i, discord.ui.Select)}
    assert set(selects) == {"casino:pick:economy"} | {f"casino:pick:{g.game}" for g in all_limits()}
    assert {o.value for o in selects["casino:pick:economy"].options} == {s.key for s in ECONOMY}
    for select in selects.values():
        assert 1 <= len(select.options) <= 25
        assert all(1 <= len(o.label) <= 100 for o in select.options)
    assert view.is_finished()  # never kept by discord.py: the cog answers from the ids


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_form_and_menu_of_a_setting_is_within_discords_bounds(locale: str) -> None:
    settings = GuildSettings()
    for limits in all_limits():
        for setting in limits.settings():
            if setting.kind in ("chips", "count"):
                form = SettingForm(
                    setting, setting.default, setting_name(setting, locale, limits), locale
                )
                assert len(form.title) <= 45
                field = form.children[0]
                assert isinstance(field, discord.ui.TextInput)
                assert len(field.label) <= 45 and len(field.placeholder or "") <= 100
        for option in limits.options:
            view = choices_view(limits, option.name, settings, locale)
            assert len(_walk(list(view.children))) <= 40
        assert role_view(limits, 0, locale).is_finished()
    for setting in ECONOMY:
        form = SettingForm(setting, 0, setting_name(setting, locale, None), locale)
        assert len(form.title) <= 45


async def test_a_switch_setting_is_an_on_off_menu_carrying_the_value_seen() -> None:
    from bot.casino import Setting
    from cogs.casino.panel import shown, switch_view

    switch = Setting("give_enabled", "switch", 0, 1, "casino.set.starting_chips")
    view = switch_view(switch, 0, "de")
    [menu] = [i for i in _walk(list(view.children)) if isinstance(i, discord.ui.Select)]
    assert menu.custom_id == "casino:switch:give_enabled:0"
    assert [(o.label, o.value, o.default) for o in menu.options] == [
        ("an", "1", False),
        ("aus", "0", True),
    ]
    assert (shown(switch, 1, "en"), shown(switch, 0, "fr")) == ("on", "non")


# ------------------------------------------------- the bounds of a start command's numbers
@pytest.mark.parametrize("locale", LOCALES)
async def test_every_number_options_form_is_within_discords_bounds(locale: str) -> None:
    from cogs.casino.panel import RangeForm

    for limits in all_limits():
        for number in limits.numbers:
            form = RangeForm(limits, number, (number.low, number.high), locale)
            assert len(form.title) <= 45 and len(form.custom_id) <= 100
            assert RangeForm.pattern.fullmatch(form.custom_id) is not None
            fields = [c for c in form.children if isinstance(c, discord.ui.TextInput)]
            assert [f.default for f in fields] == [str(number.low), str(number.high)]
            for field in fields:
                assert 1 <= len(field.label) <= 45 and len(field.placeholder or "") <= 100


class _Owner:
    id = 7
    guild_permissions = discord.Permissions(manage_guild=True)


class _Answers:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.done = True
        self.said.append(text)

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        self.said.append(text)


def _submitted(store: object, least: str, most: str, seen: tuple[int, int]) -> object:
    from types import SimpleNamespace

    answers = _Answers()
    return SimpleNamespace(
        client=SimpleNamespace(store=store),
        user=_Owner(),
        guild_id=1,
        locale="en-US",
        id=5,
        response=answers,
        followup=answers,
        type=discord.InteractionType.modal_submit,
        data={
            "custom_id": f"casino:range:blackjack.decks:{seen[0]}:{seen[1]}",
            "components": [
                {"type": 1, "components": [{"custom_id": "least", "value": least}]},
                {"type": 1, "components": [{"custom_id": "most", "value": most}]},
            ],
        },
        is_guild_integration=lambda: True,
    )


@pytest.mark.parametrize(
    ("least", "most", "key"),
    [
        ("0", "4", "casino.err.range"),  # zero
        ("-2", "4", "casino.err.range"),  # negative
        ("2", "99999999999", "casino.err.range"),  # huge
        ("two", "4", "casino.err.number"),  # not a number
        ("", "4", "casino.err.number"),  # empty
        ("5", "3", "casino.err.number_order"),  # the smallest above the largest
    ],
)
async def test_a_bad_range_gets_a_clear_message_and_changes_nothing(
    tmp_path: object, least: str, most: str, key: str
) -> None:
    from pathlib import Path

    from bot.i18n import t
    from bot.storage import Store
    from cogs import router

    store = await Store.open(Path(str(tmp_path)) / "bank.sqlite3")
    try:
        routes = router.Router([], list(router.registered_forms()))
        asked = _submitted(store, least, most, (1, 8))
        await routes.on_interaction(asked)  # type: ignore[arg-type]
        (said,) = asked.response.said  # type: ignore[attr-defined]
        words = {
            "casino.err.range": "must be from 1 to 8",
            "casino.err.number": t("en", "casino.err.number"),
            "casino.err.number_order": "cannot be above",
        }[key]
        assert words in said, said
        assert await store.settings_log(1) == []
        assert (await store.guild_settings(1)).tables == {}
    finally:
        await store.close()


async def test_a_range_is_changed_in_the_order_that_keeps_it_whole_and_trailed(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from bot.storage import Store
    from cogs import router
    from cogs.blackjack.limits import LIMITS as BJ

    store = await Store.open(Path(str(tmp_path)) / "bank.sqlite3")
    try:
        routes = router.Router([], list(router.registered_forms()))
        first = _submitted(store, "1", "2", (1, 8))
        await routes.on_interaction(first)  # type: ignore[arg-type]
        assert BJ.bounds(await store.guild_settings(1), "decks") == (1, 2)
        # 1..2 to 6..8: the largest first (6 above the largest seen, 2)
        moved = _submitted(store, "6", "8", (1, 2))
        await routes.on_interaction(moved)  # type: ignore[arg-type]
        (said,) = moved.response.said  # type: ignore[attr-defined]
        assert "Decks in the shoe: largest allowed" in said and "smallest allowed" in said, said
        assert BJ.bounds(await store.guild_settings(1), "decks") == (6, 8)
        trail = [(e.key, e.old_value, e.new_value) for e in await store.settings_log(1)]
        assert trail == [
            ("blackjack.least.decks", 1, 6),
            ("blackjack.most.decks", 2, 8),
            ("blackjack.most.decks", 8, 2),
        ]
        # a form from before another owner's change: nothing changes, they are told
        stale = _submitted(store, "3", "8", (1, 2))
        await routes.on_interaction(stale)  # type: ignore[arg-type]
        assert "Nothing was changed" in stale.response.said[0]  # type: ignore[attr-defined]
        assert BJ.bounds(await store.guild_settings(1), "decks") == (6, 8)
        # the panel shows the range
        text = "\n".join(
            i.content
            for i in _walk(list(panel(await store.guild_settings(1), "en").children))
            if isinstance(i, discord.ui.TextDisplay)
        )
        assert "Decks in the shoe: **6 to 8**" in text, text
    finally:
        await store.close()
