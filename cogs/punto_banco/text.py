"""The Punto Banco words: plain text builders (no Discord connection needed; names go
through :func:`cogs.common.display`), so they can be tested on their own and used by the presenter, the buttons and forms, and the commands alike."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from bot import i18n
from bot.card_faces import faces_read
from bot.i18n import DEFAULT_LOCALE, Msg, Raw, bidi, command, t
from bot.punto_banco import BetReceipt, OpenPuntoBancoTable
from cogs.common import display
from engine.cards import Card, parse_card
from engine.punto_banco import (
    Bet,
    CoupResult,
    PuntoBancoRules,
    Shoe,
    Side,
    exact_odds_for_counts,
    hand_total,
    odds_for,
)

SIDE_EMOJI = {Side.PUNTO: "🔵", Side.BANCO: "🔴", Side.EGALITE: "🟢"}


def bettor_name(live: OpenPuntoBancoTable, seat: str) -> str:
    """A bettor as the table's texts name them: their display name through
    :func:`cogs.common.display` (a member the table has no name for: their mention,
    which pings no one, every message being sent with no mentions allowed)."""
    raw = live.names.get(seat)
    return display(raw) if raw else f"<@{seat}>"


def side_label(locale: str, side: Side) -> str:
    return t(locale, f"pb.side.{side.value}")


def pct(value: Fraction | float, digits: int = 2, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.pct(locale, value, digits)


def chips(n: int, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.num(locale, n)


def signed(n: int, locale: str = DEFAULT_LOCALE) -> str:
    return i18n.signed(locale, n)


def _packs(locale: str, packs: int) -> str:
    return t(locale, "pb.packs.one" if packs == 1 else "pb.packs.other", packs=packs)


def rules_line(rules: PuntoBancoRules, locale: str = DEFAULT_LOCALE) -> str:
    return t(
        locale,
        "pb.rules",
        packs=_packs(locale, rules.packs),
        tableau=t(locale, f"pb.tableau.{rules.tableau}"),
        min=rules.min_bet,
        max=rules.max_bet,
        commission=rules.banco_commission_pct,
        tie=rules.tie_pays,
    )


def bet_text(locale: str, side: Side, amount: int) -> str:
    return t(locale, "pb.bet", side=side_label(locale, side), amount=amount)


def bets_lines(
    live: OpenPuntoBancoTable, bets: Sequence[Bet], locale: str = DEFAULT_LOCALE
) -> list[str]:
    by_bettor: dict[str, list[str]] = {}
    for bet in bets:
        by_bettor.setdefault(bet.bettor, []).append(bet_text(locale, bet.side, bet.amount))
    return [
        t(
            locale,
            "pb.bets.line",
            name=bettor_name(live, seat),
            bets=t(locale, "perm.separator").join(parts),
        )
        for seat, parts in by_bettor.items()
    ]


def side_totals(bets: Sequence[Bet], locale: str = DEFAULT_LOCALE) -> str:
    totals = dict.fromkeys(Side, 0)
    for bet in bets:
        totals[bet.side] += bet.amount
    return " · ".join(bet_text(locale, s, totals[s]) for s in Side)


def hand_text(cards: Sequence[Card]) -> str:
    """A side's cards: the pictures, then the same cards in text (newcomer N-03)."""
    return faces_read(cards, sep="  ")


def total_of(cards: Sequence[Card]) -> int:
    """A hand's total as the engine counts it (B-VAL-1): the words never count anew."""
    return hand_total(cards)


def hand_line(side: Side, cards: Sequence[Card], locale: str = DEFAULT_LOCALE) -> str:
    """One side's hand as the coup's post and the table show it: "🔵 Punto: cards → 7"."""
    return t(
        locale,
        "pb.deal.hand",
        emoji=SIDE_EMOJI[side],
        side=side_label(locale, side),
        cards=hand_text(cards),
        total=total_of(cards),
    )


def deal_text(result: CoupResult, shown: int, locale: str = DEFAULT_LOCALE) -> str:
    """The coup message after ``shown`` cards have been turned (B-DEAL-1 order)."""
    coup = result.coup
    dealt = coup.dealt[:shown]
    punto = [c for s, c in dealt if s is Side.PUNTO]
    banco = [c for s, c in dealt if s is Side.BANCO]
    lines = [
        t(locale, "pb.deal.head", coup=result.coup_no)
        + (t(locale, "pb.deal.reshuffled") if result.shuffled else "")
    ]
    lines += [hand_line(Side.PUNTO, punto, locale), hand_line(Side.BANCO, banco, locale)]
    p2, b2 = total_of(coup.punto[:2]), total_of(coup.banco[:2])
    finished = shown >= len(coup.dealt)
    if coup.punto_third is not None and shown >= 5:
        lines.append(t(locale, "pb.deal.punto_draws", total=p2))
    if finished:
        if coup.natural:
            lines.append(t(locale, "pb.deal.natural"))
        else:
            if coup.punto_third is None:
                lines.append(t(locale, "pb.deal.punto_stands", total=p2))
            key = "pb.deal.banco_draws" if coup.banco_third is not None else "pb.deal.banco_stands"
            lines.append(t(locale, key, total=b2))
        if coup.winner is Side.EGALITE:
            lines.append(t(locale, "pb.deal.tie", punto=coup.punto_total, banco=coup.banco_total))
        else:
            lose = coup.banco_total if coup.winner is Side.PUNTO else coup.punto_total
            win = coup.punto_total if coup.winner is Side.PUNTO else coup.banco_total
            lines.append(
                t(
                    locale,
                    "pb.deal.wins",
                    side=side_label(locale, coup.winner),
                    win=win,
                    lose=lose,
                )
            )
    else:
        lines.append("…")
    return "\n".join(lines)


def banco_note(rules: PuntoBancoRules, stake: int, won: int, locale: str = DEFAULT_LOCALE) -> str:
    exact = Fraction(stake * (100 - rules.banco_commission_pct), 100)
    if exact.denominator == 1:
        return t(locale, "pb.note.exact", commission=rules.banco_commission_pct, amount=stake - won)
    return t(
        locale,
        "pb.note.rounded",
        stake=stake,
        paid=100 - rules.banco_commission_pct,
        exact=Decimal(exact.numerator) / Decimal(exact.denominator),
        won=won,
    )


def odds_text(
    rules: PuntoBancoRules, shoe: Shoe | None = None, locale: str = DEFAULT_LOCALE
) -> str:
    """The table's exact probabilities and house edge per bet, and the real Banco edge
    of small whole-chip stakes (winnings rounded down)."""
    odds = odds_for(rules)
    edges = odds.edges(rules)
    no_tie = 1 - odds.tie
    L = locale

    def p(value: Fraction | float, digits: int = 2) -> str:
        return pct(value, digits, L)

    lines = [
        t(
            L,
            "pb.odds.head",
            packs=_packs(L, rules.packs),
            tableau=t(L, f"pb.tableau.{rules.tableau}"),
        ),
        t(
            L,
            "pb.odds.chances",
            banco=p(odds.banco),
            punto=p(odds.punto),
            tie=p(odds.tie),
            natural=p(odds.natural),
        ),
        t(L, "pb.odds.edge_head"),
        t(
            L,
            "pb.odds.banco",
            edge=p(edges["banco"], 3),
            commission=rules.banco_commission_pct,
            decided=p(edges["banco"] / no_tie, 3),
        ),
        t(L, "pb.odds.punto", edge=p(edges["punto"], 3), decided=p(edges["punto"] / no_tie, 3)),
        t(L, "pb.odds.tie", edge=p(edges["tie"], 3), tie=rules.tie_pays),
    ]
    if rules.banco_commission_pct:
        multiple = rules.exact_banco_stake_multiple
        candidates = {rules.min_bet, 1, 5, 10, 15, 19, multiple, 2 * multiple - 1, 100}
        stakes = sorted(s for s in candidates if rules.min_bet <= s <= rules.max_bet)[:8]
        parts = [
            t(L, "pb.odds.stake", stake=s, edge=p(odds.edges_for_stake(rules, s)["banco"], 2))
            + (t(L, "pb.odds.stake_pays", won=rules.banco_winnings(s)) if s < multiple else "")
            for s in stakes
        ]
        advice = t(
            L,
            "pb.odds.advice.ok" if rules.max_bet >= multiple else "pb.odds.advice.small",
            multiple=multiple,
        )
        lines += [
            t(L, "pb.odds.stakes_head"),
            " · ".join(parts),
            t(L, "pb.odds.warning", edge=p(edges["banco"], 2), advice=advice),
        ]
    if shoe is not None and not shoe.needs_shuffle:
        now = exact_odds_for_counts(shoe.value_counts(), rules.tableau)
        lines.append(
            t(
                L,
                "pb.odds.shoe",
                cards=len(shoe),
                banco=p(now.banco),
                punto=p(now.punto),
                tie=p(now.tie),
            )
        )
    return "\n".join(lines)


def receipt_text(receipt: BetReceipt, done: Msg, locale: str = DEFAULT_LOCALE) -> str:
    bets = t(locale, "perm.separator").join(
        t(locale, "pb.bet", side=side_label(locale, b.side), amount=b.amount) for b in receipt.bets
    ) or t(locale, "pb.receipt.none")
    return t(locale, "pb.receipt", done=done, bets=bets, balance=receipt.balance)


def placed(locale: str, amount: int, side: Side) -> Msg:
    return Msg("pb.placed", amount=amount, side=side_label(locale, side))


# ------------------------------------------------------------------------------- Learn
#: the example hand of the first lesson: 7 and 8 make 15, which counts 5 (B-VAL-1)
HAND_EXAMPLE = ("7S", "8H")


def learn_fields(locale: str) -> list[tuple[str, str]]:
    """/help's Learn lessons for Punto Banco as (title, text): how a coup goes, and what
    each bet costs (the house edges of the usual table, exact: engine/punto_banco/odds.py)."""
    rules = PuntoBancoRules()
    edges = odds_for(rules).edges(rules)
    figures = {side: Raw(pct(edges[side], 2, locale)) for side in ("banco", "punto", "tie")}
    return [
        (
            t(locale, "pb.learn.coup.title"),
            t(locale, "pb.learn.coup", hand=Raw(bidi(locale, hand_text(_cards(HAND_EXAMPLE))))),
        ),
        (
            t(locale, "pb.learn.edge.title"),
            t(locale, "pb.learn.edge", command=Raw(command(locale, "baccarat odds")), **figures),
        ),
    ]


def _cards(codes: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in codes]


def learn(locale: str) -> tuple[str, str, list[tuple[str, str]]]:
    """Punto Banco's part of /help's Learn: title, one line, (title, text) fields."""
    return t(locale, "pb.learn.title"), t(locale, "pb.learn.about"), learn_fields(locale)
