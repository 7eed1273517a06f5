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
