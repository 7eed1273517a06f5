"""The settings panel of /casino settings: what an owner sees (a section for the economy
and one per game of the registry, in their language) and what picking, a form or a
select menu on it changes.

Every change goes through :func:`change`: Manage Server checked again, the value checked
against its declaration (``bot.casino``), then written by the store with the value the
owner saw (compare-and-set: if another owner changed it meanwhile, nothing changes and
the owner is told its value now) and with its line in the trail; the owner reads what
changed, from what to what.

Custom ids (every one starts ``casino:``; a value the owner saw rides along for the
compare-and-set):

* ``casino:pick:<section>``: the select of a section (``economy`` or a game's name);
  its value is a setting's key, or ``<game>.option.<name>`` for a choice of the game;
* ``casino:set:<key>:<seen>``: the form (modal) of a number;
* ``casino:range:<game>.<name>:<least>:<most>``: the form of the smallest and largest
  value a number of the game's start command may take (its pick is
  ``<game>.range.<name>``);
* ``casino:role:<game>:<seen>``, ``casino:everyone:<game>:<seen>``: who may open tables;
* ``casino:allow:<game>.allow.<option>:<seen>``, ``casino:default:<game>.default.<option>:<seen>``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.casino import (
    ECONOMY,
    GameLimits,
    NumberOption,
    Setting,
    checker,
    choice_label,
    setting_named,
)
from bot.errors import ServiceError
from bot.games import GAMES
from bot.i18n import Msg, Raw, choose, num, t
from bot.i18n.languages import locale_of
from bot.storage import SettingChangedMeanwhile
from bot.storage.base import from_iso
from bot.storage.models import GuildSettings
from cogs.common import GameBot, can_manage_guild, reply
from cogs.router import Interaction, TableForm

PREFIX = "casino:"
#: a fresh season (/casino reset) in the trail: from the season it closed to the next
SEASON_KEY = "season"
VALUE_FIELD = "value"
LEAST_FIELD, MOST_FIELD = "least", "most"  # the fields of a number option's form
ECONOMY_SECTION = "economy"
#: Discord's bounds: a select's option label and description, a modal's title
LABEL_MAX = 100
TITLE_MAX = 45


@dataclass(frozen=True)
class GameSection:
    """A game of the registry as the panel shows it: its limits and its name's id."""

    limits: GameLimits
    title: str  # message id of the game's name


def game_sections() -> list[GameSection]:
    """Every game of the registry with its ``LIMITS`` (its package's ``limits.py``)."""
    found = []
    for game in GAMES:
        package = importlib.import_module(game.package)
        found.append(GameSection(package.LIMITS, package.HELP.name))
    return found


def all_limits() -> list[GameLimits]:
    return [section.limits for section in game_sections()]


def _cut(text: str, most: int = LABEL_MAX) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


# ------------------------------------------------------------------- words of a value
def shown(setting: Setting, value: int, locale: str, limits: GameLimits | None = None) -> str:
    """A setting's value as an owner reads it."""
    if setting.off is not None and value == setting.off:
        return t(locale, "casino.value.none")
    kind = setting.kind
    if kind == "role":
        return t(locale, "casino.value.everyone") if value == 0 else f"<@&{value}>"
    if kind in ("choices", "choice") and limits is not None:
        option = limits.option(setting.key.rsplit(".", 1)[1])
        picked = [i for i in range(len(option.choices)) if value >> i & 1]
        if kind == "choice":
            picked = [value]
        return ", ".join(t(locale, choice_label(option.choices[i])) for i in picked)
    if kind == "switch":
        return t(locale, "casino.choice.on" if value else "casino.choice.off")
    if kind == "days" and value == 0:
        return t(locale, "casino.value.off")
    if kind == "number":
        return num(locale, value)
    return t(locale, f"casino.value.{kind}", amount=value)


def range_shown(number: NumberOption, least: int, most: int, locale: str) -> str:
    """The values a number option may take, as an owner reads them: "1 to 8"."""
    key = "casino.range.seconds" if number.unit == "seconds" else "casino.range"
    return t(locale, key, low=least, high=most)


def setting_name(setting: Setting, locale: str, limits: GameLimits | None) -> str:
    """A setting's name, with its game's (and, for a choice, whether it is the allowed
    choices or the default) so a line of the trail stands alone."""
    name = t(locale, setting.label)
    if setting.kind == "choices":
        name = t(locale, "casino.allowed_of", option=name)
    elif setting.kind == "choice":
        name = t(locale, "casino.default_of", option=name)
    elif ".least." in setting.key:
        name = t(locale, "casino.least_of", option=name)
    elif ".most." in setting.key:
        name = t(locale, "casino.most_of", option=name)
    if limits is None:
        return name
    section = next(s for s in game_sections() if s.limits is limits)
    return f"{t(locale, section.title)} · {name}"


# ------------------------------------------------------------------------ the panel
def panel(settings: GuildSettings, locale: str, on_break: int = 0) -> discord.ui.LayoutView:
    """The whole panel: a note on open tables and how many members are on a break (never
    who), the economy, then each game."""
    view = discord.ui.LayoutView(timeout=None)
    head = t(locale, "casino.panel.head")
    breaks = choose(on_break, "casino.panel.breaks.one", "casino.panel.breaks.other")
    head += "\n" + t(locale, breaks, members=on_break)
    view.add_item(discord.ui.TextDisplay(head))
    economy = [
        f"{t(locale, s.label)}: **{shown(s, settings.value(s.key), locale)}**" for s in ECONOMY
    ]
    view.add_item(
        _section(
            t(locale, "casino.section.economy"),
            economy,
            ECONOMY_SECTION,
            [(s.key, t(locale, s.label)) for s in ECONOMY],
            locale,
        )
    )
    for section in game_sections():
        limits = section.limits
        lines, picks = [], []
        # the bets, who opens, how many tables; then each choice of the start command
        for s in limits.settings():
            if s.kind in ("choices", "choice") or s.label in number_labels(limits):
                continue
            value = settings.value(s.key, s.default)
            lines.append(f"{t(locale, s.label)}: **{shown(s, value, locale, limits)}**")
            picks.append((s.key, t(locale, s.label)))
        for option in limits.options:
            allowed = settings.value(limits.key(f"allow.{option.name}"), option.every)
            default = settings.value(limits.key(f"default.{option.name}"), option.default)
            words = [
                t(locale, choice_label(c)) for i, c in enumerate(option.choices) if allowed >> i & 1
            ]
            chosen = t(
                locale, "casino.default_is", choice=t(locale, choice_label(option.choices[default]))
            )
            lines.append(f"{t(locale, option.label)}: {', '.join(words)} ({chosen})")
            picks.append((limits.key(f"option.{option.name}"), t(locale, option.label)))
        for number in limits.numbers:
            least, most = limits.bounds(settings, number.name)
            lines.append(
                f"{t(locale, number.label)}: **{range_shown(number, least, most, locale)}**"
            )
            picks.append((limits.key(f"range.{number.name}"), t(locale, number.label)))
        view.add_item(_section(t(locale, section.title), lines, limits.game, picks, locale))
    view.stop()  # never kept: the cog answers its selects from their custom ids
    return view


def number_labels(limits: GameLimits) -> set[str]:
    """The names of the game's number options (their bounds are one line, one form)."""
    return {n.label for n in limits.numbers}


def _section(
    title: str,
    lines: Sequence[str],
    section: str,
    picks: Sequence[tuple[str, str]],
    locale: str,
) -> discord.ui.Container[discord.ui.LayoutView]:
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container()
    box.add_item(discord.ui.TextDisplay(f"### {title}\n" + "\n".join(lines)))
    select: discord.ui.Select[discord.ui.LayoutView] = discord.ui.Select(
        custom_id=f"{PREFIX}pick:{section}",
        placeholder=t(locale, "casino.panel.pick"),
        options=[discord.SelectOption(label=_cut(label), value=key) for key, label in picks],
    )
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(select)
    box.add_item(row)
    return box


# ------------------------------------------------------------- forms and select menus
class SettingForm(
    TableForm, template=r"casino:set:(?P<key>[a-z0-9_.]{1,80}):(?P<seen>[0-9]{1,20})"
):
    """The form of a number: one field, its value now filled in. Answered by the router
    from its custom id (the key and the value the owner saw)."""

    def __init__(self, setting: Setting, seen: int, title: str, locale: str) -> None:
        super().__init__(
            title=_cut(title, TITLE_MAX), custom_id=f"{PREFIX}set:{setting.key}:{seen}"
        )
        hint = t(locale, "casino.form.bounds", low=setting.low, high=setting.high)
        if setting.off is not None:
            hint = t(locale, "casino.form.bounds_off", low=setting.low, high=setting.high)
        self.add_item(
            discord.ui.TextInput(
                label=_cut(t(locale, "casino.form.label"), TITLE_MAX),
                custom_id=VALUE_FIELD,
                placeholder=_cut(hint),
                default=None if seen == setting.off else str(seen),
                required=setting.off is None,
                max_length=20,
            )
        )

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        setting, _limits = setting_named(match["key"], all_limits())
        typed = values.get(VALUE_FIELD, "").strip().replace(",", "").replace("_", "")
        if not typed and setting.off is not None:
            value = setting.off
        else:
            try:
                value = int(typed)
            except ValueError:
                raise ServiceError("Type a whole number.", key="casino.err.number") from None
            setting.check(value, typed=True)
        await change(interaction, setting.key, value, int(match["seen"]))


class RangeForm(
    TableForm,
    template=(
        r"casino:range:(?P<game>[a-z0-9_]{1,32})\.(?P<name>[a-z0-9_]{1,32})"
        r":(?P<least>[0-9]{1,20}):(?P<most>[0-9]{1,20})"
    ),
):
    """The form of a number of a game's start command: the smallest and the largest value
    members may choose, both filled in. Answered by the router from its custom id (the
    game, the option and the two values the owner saw)."""

    def __init__(
        self, limits: GameLimits, number: NumberOption, seen: tuple[int, int], locale: str
    ) -> None:
        section = next(s for s in game_sections() if s.limits is limits)
        title = f"{t(locale, section.title)} · {t(locale, number.label)}"
        super().__init__(
            title=_cut(title, TITLE_MAX),
            custom_id=f"{PREFIX}range:{limits.key(number.name)}:{seen[0]}:{seen[1]}",
        )
        hint = _cut(t(locale, "casino.form.bounds", low=number.low, high=number.high))
        for field, label, value in (
            (LEAST_FIELD, "casino.form.least", seen[0]),
            (MOST_FIELD, "casino.form.most", seen[1]),
        ):
            self.add_item(
                discord.ui.TextInput(
                    label=_cut(t(locale, label), TITLE_MAX),
                    custom_id=field,
                    placeholder=hint,
                    default=str(value),
                    max_length=20,
                )
            )

    @classmethod
    async def submitted(
        cls, interaction: Interaction, match: re.Match[str], values: dict[str, str]
    ) -> None:
        limits = _limits_of(match["game"])
        if match["name"] not in {n.name for n in limits.numbers}:
            raise ServiceError("Unknown setting.", key="casino.err.unknown")
        number = limits.number(match["name"])
        least_key, most_key = limits.key(f"least.{number.name}"), limits.key(f"most.{number.name}")
        least = _typed(values.get(LEAST_FIELD, ""), setting_named(least_key, [limits])[0])
        most = _typed(values.get(MOST_FIELD, ""), setting_named(most_key, [limits])[0])
        if least > most:
            raise ServiceError(
                "The smallest allowed is above the largest.",
                key="casino.err.number_order",
                setting=Msg(number.label),
                low=least,
                high=most,
            )
        seen_least, seen_most = int(match["least"]), int(match["most"])
        # one change at a time, in the order that keeps the smallest within the largest
        steps = [(least_key, least, seen_least), (most_key, most, seen_most)]
        if least > seen_most:
            steps.reverse()
        lines = [
            await write(interaction, key, value, seen)
            for key, value, seen in steps
            if value != seen
        ]
        locale = await locale_of(interaction)
        if not lines:
            now = range_shown(number, least, most, locale)
            await reply(interaction, t(locale, "casino.range.same", range=Raw(now)))
            return
        await reply(interaction, "\n".join([*lines, t(locale, "casino.changed.tables")]))


def _typed(text: str, setting: Setting) -> int:
    """A whole number typed into a form, within its setting's bounds (else refused)."""
    typed = text.strip().replace(",", "").replace("_", "")
    try:
        value = int(typed)
    except ValueError:
        raise ServiceError("Type a whole number.", key="casino.err.number") from None
    setting.check(value, typed=True)
    return value


FORMS: tuple[type[TableForm], ...] = (SettingForm, RangeForm)


async def picked(interaction: Interaction, custom_id: str, values: list[str]) -> None:
    """A select of the panel, or of a role's or a choice's own message, was used. The
    latter two are drawn again after a change (their select menus carry the value seen)."""
    parts = custom_id.removeprefix(PREFIX).split(":")
    what = parts[0]
    if not can_manage_guild(interaction):
        raise ServiceError("Only members with Manage Server.", key="casino.denied")
    if what == "pick" and values:
        await _pick(interaction, values[0])
        return
    if len(parts) != 3 or not parts[2].isdigit():
        raise ServiceError("Unknown setting.", key="casino.err.unknown")
    locale = await locale_of(interaction)
    seen = int(parts[2])
    if what in ("role", "everyone"):
        limits = _limits_of(parts[1])
        value = int(values[0]) if what == "role" and values and values[0].isdigit() else 0

        def role_again(after: GuildSettings) -> discord.ui.LayoutView:
            return role_view(limits, after.value(limits.key("opener_role")), locale)

        await change(interaction, limits.key("opener_role"), value, seen, redraw=role_again)
        return
    if what == "switch":
        setting, _limits = setting_named(parts[1], all_limits())
        if setting.kind != "switch" or values[:1] not in (["0"], ["1"]):
            raise ServiceError("Unknown setting.", key="casino.err.unknown")

        def switch_again(after: GuildSettings) -> discord.ui.LayoutView:
            return switch_view(setting, after.value(setting.key, setting.default), locale)

        await change(interaction, setting.key, int(values[0]), seen, redraw=switch_again)
        return
    key = parts[1]
    game, _, rest = key.partition(".")
    kind, _, name = rest.partition(".")
    limits = _limits_of(game)
    if kind not in ("allow", "default") or kind != what or name not in _option_names(limits):
        raise ServiceError("Unknown setting.", key="casino.err.unknown")
    numbers = [int(v) for v in values if v.isdigit() and int(v) < len(limits.option(name).choices)]
    value = sum(1 << n for n in set(numbers)) if kind == "allow" else (numbers or [-1])[0]

    def choices_again(after: GuildSettings) -> discord.ui.LayoutView:
        return choices_view(limits, name, after, locale)

    await change(interaction, key, value, seen, redraw=choices_again)


def _limits_of(game: str) -> GameLimits:
    found = next((g for g in all_limits() if g.game == game), None)
    if found is None:
        raise ServiceError("Unknown setting.", key="casino.err.unknown")
    return found


def _option_names(limits: GameLimits) -> set[str]:
    return {o.name for o in limits.options}


async def _pick(interaction: Interaction, key: str) -> None:
    """Open what changes ``key``: a form for a number, select menus for the rest."""
    locale = await locale_of(interaction)
    settings = await _store(interaction).guild_settings(_guild(interaction))
    if ".range." in key:
        game, _, name = key.partition(".range.")
        of_game = _limits_of(game)
        if name not in {n.name for n in of_game.numbers}:
            raise ServiceError("Unknown setting.", key="casino.err.unknown")
        seen_range = of_game.bounds(settings, name)
        form = RangeForm(of_game, of_game.number(name), seen_range, locale)
        await interaction.response.send_modal(form)
        return
    if ".option." in key:
        game, _, name = key.partition(".option.")
        of_game = _limits_of(game)
        if name not in _option_names(of_game):
            raise ServiceError("Unknown setting.", key="casino.err.unknown")
        view = choices_view(of_game, name, settings, locale)
        await interaction.response.send_message(view=view, ephemeral=True)
        return
    setting, limits = setting_named(key, all_limits())
    seen = settings.value(setting.key, setting.default)
    if setting.kind == "switch":
        await interaction.response.send_message(
            view=switch_view(setting, seen, locale), ephemeral=True
        )
        return
    if setting.kind == "role" and limits is not None:
        view = role_view(limits, seen, locale)
        await interaction.response.send_message(view=view, ephemeral=True)
        return
    title = setting_name(setting, locale, limits)
    await interaction.response.send_modal(SettingForm(setting, seen, title, locale))


def switch_view(setting: Setting, seen: int, locale: str) -> discord.ui.LayoutView:
    """A setting that is on or off: one menu."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(f"### {t(locale, setting.label)}"))
    menu: discord.ui.Select[discord.ui.LayoutView] = discord.ui.Select(
        custom_id=f"{PREFIX}switch:{setting.key}:{seen}",
        options=[
            discord.SelectOption(
                label=t(locale, f"casino.choice.{word}"), value=str(value), default=value == seen
            )
            for word, value in (("on", 1), ("off", 0))
        ],
    )
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(menu)
    view.add_item(row)
    view.stop()
    return view


def role_view(limits: GameLimits, seen: int, locale: str) -> discord.ui.LayoutView:
    """Who may open the game's tables: a role, or everyone."""
    role_setting = next(s for s in limits.settings() if s.kind == "role")
    view = discord.ui.LayoutView(timeout=None)
    now = Raw(shown(role_setting, seen, locale))
    view.add_item(discord.ui.TextDisplay(t(locale, "casino.role.ask", now=now)))
    roles: discord.ui.RoleSelect[discord.ui.LayoutView] = discord.ui.RoleSelect(
        custom_id=f"{PREFIX}role:{limits.game}:{seen}", placeholder=t(locale, "casino.role.pick")
    )
    everyone: discord.ui.Select[discord.ui.LayoutView] = discord.ui.Select(
        custom_id=f"{PREFIX}everyone:{limits.game}:{seen}",
        placeholder=t(locale, "casino.role.everyone"),
        options=[discord.SelectOption(label=_cut(t(locale, "casino.role.everyone")), value="0")],
    )
    for select in (roles, everyone):
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        row.add_item(select)
        view.add_item(row)
    view.stop()
    return view


def choices_view(
    limits: GameLimits, name: str, settings: GuildSettings, locale: str
) -> discord.ui.LayoutView:
    """A choice of the game: which its members may pick, and the default of a table."""
    option = limits.option(name)
    allow_key, default_key = limits.key(f"allow.{name}"), limits.key(f"default.{name}")
    allowed = settings.value(allow_key, option.every)
    default = settings.value(default_key, option.default)
    labels = [_cut(t(locale, choice_label(c))) for c in option.choices]
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(f"### {t(locale, option.label)}"))
    allow: discord.ui.Select[discord.ui.LayoutView] = discord.ui.Select(
        custom_id=f"{PREFIX}allow:{allow_key}:{allowed}",
        placeholder=t(locale, "casino.choice.allowed"),
        min_values=1,
        max_values=len(option.choices),
        options=[
            discord.SelectOption(label=label, value=str(i), default=bool(allowed >> i & 1))
            for i, label in enumerate(labels)
        ],
    )
    pick: discord.ui.Select[discord.ui.LayoutView] = discord.ui.Select(
        custom_id=f"{PREFIX}default:{default_key}:{default}",
        placeholder=t(locale, "casino.choice.default"),
        options=[
            discord.SelectOption(label=label, value=str(i), default=i == default)
            for i, label in enumerate(labels)
        ],
    )
    for text, select in (
        (t(locale, "casino.choice.allowed"), allow),
        (t(locale, "casino.choice.default"), pick),
    ):
        view.add_item(discord.ui.TextDisplay(text))
        row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        row.add_item(select)
        view.add_item(row)
    view.stop()
    return view


# ------------------------------------------------------------------------ a change
async def change(
    interaction: Interaction,
    key: str,
    value: int,
    seen: int,
    *,
    redraw: Callable[[GuildSettings], discord.ui.LayoutView] | None = None,
) -> None:
    """Change one setting from ``seen`` (the value the owner saw) to ``value``, and say
    so; refused, nothing changed, when they may not, when the value is out of bounds or
    contradicts another setting, or when another owner changed it meanwhile. ``redraw``:
    the message used is drawn again from the settings after the change (its select menus
    then carry the new value), and the confirmation follows it."""
    locale = await locale_of(interaction)
    text = await write(interaction, key, value, seen, redraw=redraw)
    await reply(interaction, text + "\n" + t(locale, "casino.changed.tables"))


async def write(
    interaction: Interaction,
    key: str,
    value: int,
    seen: int,
    *,
    redraw: Callable[[GuildSettings], discord.ui.LayoutView] | None = None,
) -> str:
    """The change of :func:`change` without its answer: the line that says it."""
    if not can_manage_guild(interaction):
        raise ServiceError("Only members with Manage Server.", key="casino.denied")
    locale = await locale_of(interaction)
    setting, limits = setting_named(key, all_limits())
    setting.check(value)
    try:
        after = await _store(interaction).change_guild_setting(
            _guild(interaction),
            key,
            value,
            expected=seen,
            by_user_id=interaction.user.id,
            default=setting.default,
            check=checker(limits),
        )
    except SettingChangedMeanwhile as exc:  # said with the setting's words, not its key
        raise ServiceError(
            "Another owner changed this setting meanwhile.",
            key="casino.err.meanwhile",
            setting=Raw(setting_name(setting, locale, limits)),
            value=Raw(shown(setting, exc.current, locale, limits)),
        ) from exc
    text = t(
        locale,
        "casino.changed",
        setting=Raw(setting_name(setting, locale, limits)),
        old=Raw(shown(setting, seen, locale, limits)),
        new=Raw(shown(setting, value, locale, limits)),
    )
    if redraw is not None:
        await interaction.response.edit_message(view=redraw(after))
    return text


def _store(interaction: Interaction) -> Any:
    return cast(GameBot, interaction.client).store


def _guild(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("Use this in a server.", key="casino.server_only")
    return interaction.guild_id


def log_line(entry: Any, locale: str) -> str:
    """One change of the trail: when, who, which setting, from what to what."""
    if entry.key == SEASON_KEY:
        return t(
            locale,
            "casino.log.line",
            stamp=Raw(_stamp(entry.ts)),
            who=Raw(_who(entry.by_user_id, locale)),
            setting=Raw(t(locale, "casino.log.season")),
            old=Raw(num(locale, entry.old_value)),
            new=Raw(num(locale, entry.new_value)),
        )
    try:
        setting, limits = setting_named(entry.key, all_limits())
    except ServiceError:  # a setting no longer offered: its key, for the owner
        return t(
            locale,
            "casino.log.line",
            stamp=Raw(_stamp(entry.ts)),
            who=Raw(_who(entry.by_user_id, locale)),
            setting=Raw(entry.key),
            old=Raw(num(locale, entry.old_value)),
            new=Raw(num(locale, entry.new_value)),
        )
    return t(
        locale,
        "casino.log.line",
        stamp=Raw(_stamp(entry.ts)),
        who=Raw(_who(entry.by_user_id, locale)),
        setting=Raw(setting_name(setting, locale, limits)),
        old=Raw(shown(setting, entry.old_value, locale, limits)),
        new=Raw(shown(setting, entry.new_value, locale, limits)),
    )


def _stamp(ts: str) -> str:
    return str(int(from_iso(ts).timestamp()))


def _who(user_id: int | None, locale: str) -> str:
    return t(locale, "casino.log.someone") if user_id is None else f"<@{user_id}>"


__all__ = ["FORMS", "PREFIX", "SEASON_KEY", "change", "log_line", "panel", "picked"]
