"""The table message offers a move's button exactly where the rules allow the move: every
case of tests/engine/blackjack/cases_bj.py (after a hit, after a split, on a later hand,
at a table without the option, ...) drawn as the presenter draws it, its buttons read
back from the message's components, in every language (rules: the case's id)."""

from __future__ import annotations

import pytest

from bot.blackjack import OpenBlackjackTable
from bot.i18n import t
from cogs.blackjack.controls import offered
from cogs.blackjack.presenter import table_layout
from engine.blackjack import ActionKind
from localdiscord.models import BUTTON, walk_components
from tests.bot.test_pontoon_layout import LOCALES
from tests.engine.blackjack.cases_bj import ANN, BOB, CASES, MoveCase, build

K = ActionKind
# the buttons of each move (insurance is asked with two: an amount, or none)
ACTS: dict[ActionKind, tuple[str, ...]] = {
    K.HIT: ("hit",),
    K.STAND: ("stand",),
    K.DOUBLE: ("double",),
    K.SPLIT: ("split",),
    K.SURRENDER: ("surrender",),
    K.INSURANCE: ("insurance", "noinsurance"),
}
LABELS = {"noinsurance": "bj.button.no_insurance"}


def shown(c: MoveCase) -> bool | None:
    """Whether the case's state shows the move's button (None: not checked, someone
    else is to act and the button is there for them)."""
    if c.shown is not None:
        return c.shown
    table, _ = build(c)
    others = [s for s in table.to_act() if s != c.move[0]]
    return None if others else c.offered


CHECKED = [c for c in CASES if shown(c) is not None]


def live_of(c: MoveCase) -> OpenBlackjackTable:
    table, _ = build(c)
    live = OpenBlackjackTable("ab12", 1, 2, 3, table, 30.0, 45.0, closes_at=1_900_000_000.0)
    live.names.update({ANN: "ann", BOB: "bob"})
    return live


def buttons(live: OpenBlackjackTable, locale: str) -> list[str]:
    comps = table_layout(live, locale=locale).to_components()
    return [str(c["label"]) for c in walk_components(comps) if c["type"] == BUTTON]


@pytest.mark.parametrize(
    "c", [pytest.param(c, id=c.id, marks=pytest.mark.rule(c.rule)) for c in CHECKED]
)
def test_the_message_shows_a_moves_button_only_where_the_rules_allow_it(c: MoveCase) -> None:
    live = live_of(c)
    want = shown(c)
    acts = ACTS[c.move[1]]
    for act in acts:
        assert (act in offered(live)) == want, (act, sorted(offered(live)))
    labels = buttons(live, "en")
    for act in acts:
        assert (t("en", LABELS.get(act, f"bj.button.{act}")) in labels) == want, labels


@pytest.mark.parametrize("locale", LOCALES)
def test_the_buttons_follow_the_rules_in_every_language(locale: str) -> None:
    """The same states in every language: the labels differ, which buttons show does not."""
    for c in CHECKED:
        want = shown(c)
        labels = buttons(live_of(c), locale)
        for act in ACTS[c.move[1]]:
            assert (t(locale, LABELS.get(act, f"bj.button.{act}")) in labels) == want, (c.id, act)


def test_the_refused_cases_are_checked_on_the_message_too() -> None:
    """A refusal after a hit, after a split, on a later hand and at a table without the
    option hides the button (not just an out-of-turn click)."""
    hidden = {c.name for c in CHECKED if shown(c) is False}
    for name in (
        "after a hit",
        "double after a split, the table without it",
        "double on the later hand, the table without it",
        "a resplit at two hands most",
        "split aces are not split again",
        "no hit on split aces",
        "the table without it",
        "the later hand of a split",
        "after a split",
        "after the peek",
    ):
        assert name in hidden, name
