"""The hint and the Learn lessons in words (no Discord): what the member reads when they
press **Hint** or use ``/pontoon hint``, and Pontoon's part of /help's Learn section.

The figures are the engine's (engine/pontoon/hint.py); the house-edge figures of the
lessons are those docs/house-edge.md prints with the command that gives each.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Raw, bidi, command, pct, t
from bot.i18n import chip_figure as chips
from cogs.pontoon.render import cards_text
from engine.pontoon.hint import ActionValue, Hint
from engine.pontoon.types import ActionKind

#: the button label that names each action the hint values (the same word as on the table)
ACTION_LABEL: dict[ActionKind, str] = {
    ActionKind.STICK: "pt.button.stick",
    ActionKind.TWIST: "pt.button.twist",
    ActionKind.SPLIT: "pt.button.split",
    ActionKind.DECLARE: "pt.button.declare",
    ActionKind.BURN: "pt.button.burn",
}

#: below this many chips per chip staked two plays are said to be worth the same
SAME = 0.005


def action_name(locale: str, action: ActionValue) -> str:
    if action.kind is ActionKind.BUY:
        return t(locale, "pt.hint.buy", amount=action.amount or 0)
    return t(locale, ACTION_LABEL.get(action.kind, "pt.button.stick"))


def action_gerund(locale: str, action: ActionValue) -> str:
    """The action as the end of "… more than sticking"."""
    if action.kind is ActionKind.BUY:
        return t(locale, "pt.hint.than.buy", amount=action.amount or 0)
    return t(locale, f"pt.hint.than.{action.kind.value}")


def staked_per_chip(act: ActionValue, stake: int) -> float:
    """A play's expected chips per chip it stakes: a buy adds its price to the stake, so
    its figure is on the stake after the buy (newcomer N-05: "Buy for 5: −8.55 (−1.71 per
    chip staked)" read as losing more than the stake)."""
    if act.kind is ActionKind.BUY and act.amount:
        return act.chips / (stake + act.amount)
    return act.per_chip


def hint_text(found: Hint, cards: Sequence[str], locale: str) -> str:
    """The hint as the member reads it: the best play said in one sentence, then every
    play with its expected chips, best first, then what the figures assume."""
    lines = [t(locale, "pt.hint.head", cards=Raw(bidi(locale, cards_text(cards))))]
    acts = found.actions
    best = acts[0]
    if len(acts) < 2:
        lines.append(t(locale, "pt.hint.only", best=action_name(locale, best)))
    elif found.margin < SAME:
        lines.append(
            t(
                locale,
                "pt.hint.same",
                best=action_name(locale, best),
                other=action_name(locale, acts[1]),
            )
        )
    else:
        lines.append(
            t(
                locale,
                # when even the best play loses, said as players would (newcomer N-04)
                "pt.hint.better_loss" if best.per_chip < 0 else "pt.hint.better",
                best=action_name(locale, best),
                margin=Raw(chips(locale, found.margin, sign=False)),
                other=action_gerund(locale, acts[1]),
            )
        )
    for n, act in enumerate(acts, start=1):
        line = t(
            locale,
            "pt.hint.line",
            n=n,
            action=action_name(locale, act),
            chips=Raw(bidi(locale, chips(locale, act.chips))),
            per=Raw(bidi(locale, chips(locale, staked_per_chip(act, found.stake)))),
        )
        if not act.exact:
            line += " " + t(locale, "pt.hint.estimate")
        lines.append(line)
    if found.banker == "house":
        lines.append(t(locale, "pt.hint.house", n=found.banker_stands_on))
    else:
        lines.append(t(locale, "pt.hint.player_banker", n=found.banker_stands_on))
    lines.append(t(locale, "pt.hint.seen", unseen=found.unseen))
    lines.append(t(locale, "pt.hint.average"))
    return "\n".join(lines)


# ------------------------------------------------------------------------------- Learn
#: docs/house-edge.md's figures (each with the command that prints it there): the edge
#: against a player who follows the hint with the default options, a twist-only player
#: sticking on 15, no five card trick, every round doubled, the banker paying ties
EDGE = {
    "edge": 0.0068,
    "twist_only": 0.166,
    "no_five": 0.124,
    "doubled": 0.207,
    "ties": 0.247,
}

#: the example hands of the first lesson: a pontoon and a five card trick
PONTOON_EXAMPLE = ("AS", "KH")
FIVE_EXAMPLE = ("2C", "3D", "4H", "2S", "5C")


def learn_fields(locale: str) -> list[tuple[str, str]]:
    """The Learn lessons as (title, text): how a round goes (with the card pictures),
    what the hint means, where the house edge comes from."""
    edge = {k: Raw(pct(locale, v, 1 if k != "edge" else 2)) for k, v in EDGE.items()}
    return [
        (
            t(locale, "pt.learn.round.title"),
            t(
                locale,
                "pt.learn.round",
                pontoon=Raw(bidi(locale, cards_text(PONTOON_EXAMPLE))),
                five=Raw(bidi(locale, cards_text(FIVE_EXAMPLE))),
            ),
        ),
        (
            t(locale, "pt.learn.hint.title"),
            t(locale, "pt.learn.hint", command=Raw(command(locale, "pontoon hint"))),
        ),
        (t(locale, "pt.learn.edge.title"), t(locale, "pt.learn.edge", **edge)),
    ]
