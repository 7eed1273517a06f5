"""The Blackjack hint in words (no Discord): what the member reads when they press
**Hint** or use ``/blackjack hint``. The figures are the engine's
(engine/blackjack/hint.py): never the dealer's face-down card."""

from __future__ import annotations

from bot.card_faces import faces
from bot.i18n import Raw, bidi, command, pct, t
from bot.i18n import chip_figure as chips
from engine.blackjack import ActionKind
from engine.blackjack.hint import ActionValue, BlackjackHint

K = ActionKind

#: the button label that names each hand action the hint values (the table's own word)
ACTION_LABEL: dict[ActionKind, str] = {
    K.HIT: "bj.button.hit",
    K.STAND: "bj.button.stand",
    K.DOUBLE: "bj.button.double",
    K.SPLIT: "bj.button.split",
    K.SURRENDER: "bj.button.surrender",
}

#: below this many chips per chip staked two plays are said to be worth the same
SAME = 0.005


def action_name(locale: str, action: ActionValue) -> str:
    if action.kind is K.INSURANCE:
        if action.amount:
            return t(locale, "bj.hint.insure", amount=action.amount)
        return t(locale, "bj.hint.no_insure")
    return t(locale, ACTION_LABEL.get(action.kind, "bj.button.stand"))


def action_gerund(locale: str, action: ActionValue) -> str:
    """The action as the end of "… more than standing"."""
    if action.kind is K.INSURANCE:
        return t(locale, "bj.hint.than.insure" if action.amount else "bj.hint.than.no_insure")
    return t(locale, f"bj.hint.than.{action.kind.value}")


def staked_per_chip(act: ActionValue, stake: int) -> float:
    """A play's expected chips per chip it stakes: a double or a split adds its amount to
    the hand's bet, so its figure is on the chips it puts on the table (newcomer N-05: a
    figure on the bet before the play read as losing more than the stake)."""
    if act.kind in (K.DOUBLE, K.SPLIT) and act.amount:
        return act.chips / (stake + act.amount)
    return act.per_chip


def hint_text(found: BlackjackHint, locale: str) -> str:
    """The hint as the member reads it: the best play in one sentence, then every play
    with its expected chips, best first, then what the figures count."""
    up = Raw(bidi(locale, faces([found.up_card])))
    acts = found.actions
    if acts[0].kind is K.INSURANCE:
        lines = [t(locale, "bj.hint.insurance_head", up=up)]
    else:
        cards = Raw(bidi(locale, faces(found.cards)))
        lines = [t(locale, "bj.hint.head", cards=cards, up=up)]
    best = acts[0]
    if len(acts) < 2:
        lines.append(t(locale, "bj.hint.only", best=action_name(locale, best)))
    elif found.margin < SAME:
        other = action_name(locale, acts[1])
        lines.append(t(locale, "bj.hint.same", best=action_name(locale, best), other=other))
    else:
        lines.append(
            t(
                locale,
                # when even the best play loses, said as players would (newcomer N-04)
                "bj.hint.better_loss" if best.per_chip < 0 else "bj.hint.better",
                best=action_name(locale, best),
                margin=Raw(chips(locale, found.margin, sign=False)),
                other=action_gerund(locale, acts[1]),
            )
        )
    for n, act in enumerate(acts, start=1):
        lines.append(
            t(
                locale,
                "bj.hint.line",
                n=n,
                action=action_name(locale, act),
                chips=Raw(bidi(locale, chips(locale, act.chips))),
                per=Raw(bidi(locale, chips(locale, staked_per_chip(act, found.stake)))),
            )
        )
    lines.append(t(locale, "bj.hint.seen", unseen=found.unseen))
    lines.append(t(locale, "bj.hint.average"))
    return "\n".join(lines)


# ------------------------------------------------------------------------------- Learn
#: the usual table's figures (engine/blackjack/odds.py, BJ-EDGE-1; tests check them):
#: its house edge for a basic-strategy player, and what a blackjack paid 6:5 adds
EDGE = {"edge": 0.0040, "six_five": 0.0136}

#: the example blackjack of the first lesson
BLACKJACK_EXAMPLE = ("AS", "KH")


def learn_fields(locale: str) -> list[tuple[str, str]]:
    """/help's Learn lessons for Blackjack as (title, text): how a round goes (with the
    card pictures), what the hint means, where the house edge comes from."""
    edge = {k: Raw(pct(locale, v, 2)) for k, v in EDGE.items()}
    return [
        (
            t(locale, "bj.learn.round.title"),
            t(
                locale,
                "bj.learn.round",
                blackjack=Raw(bidi(locale, faces(BLACKJACK_EXAMPLE))),
            ),
        ),
        (
            t(locale, "bj.learn.hint.title"),
            t(locale, "bj.learn.hint", command=Raw(command(locale, "blackjack hint"))),
        ),
        (
            t(locale, "bj.learn.edge.title"),
            t(locale, "bj.learn.edge", command=Raw(command(locale, "blackjack odds")), **edge),
        ),
    ]


def learn(locale: str) -> tuple[str, str, list[tuple[str, str]]]:
    """Blackjack's part of /help's Learn: title, one line, (title, text) fields."""
    return t(locale, "bj.learn.title"), t(locale, "bj.learn.about"), learn_fields(locale)
