"""The Blackjack words: plain text builders (no Discord connection needed; names go
through :func:`cogs.common.display`), used by the presenter, the buttons and forms, and
the commands alike. The table is drawn from its public observation
(``BlackjackTable.observe()``, what everyone in the channel may see): the dealer's hole
card is not in it while it is face down (BJ-DEAL-1), so it cannot be written here. A
function given no observation (``seen``) asks the table for one."""

from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from bot.blackjack import OpenBlackjackTable
from bot.card_faces import faces, faces_read
from bot.errors import friendly, rule_text
from bot.i18n import DEFAULT_LOCALE, Raw, choose, num, t
from cogs.common import display
from engine.blackjack import (
    BlackjackObservation,
    BlackjackRules,
    HandOutcome,
    HandResult,
    HandSeen,
    Phase,
    RoundResult,
    hand_total,
)
from engine.blackjack.odds import house_edge, known_house_edge, rule_alternatives
from engine.cards import Card, Rank, parse_cards
from engine.errors import RuleError

L = str  # a locale


def seat_name(live: OpenBlackjackTable, seat: str) -> str:
    raw = live.names.get(seat)
    return display(raw) if raw else f"<@{seat}>"


def pct(value: float, locale: L = DEFAULT_LOCALE) -> str:
    return i18n.pct(locale, value, 2)


def signed(n: int, locale: L = DEFAULT_LOCALE) -> str:
    return i18n.signed(locale, n)


def total_text(cards: Sequence[Card], locale: L = DEFAULT_LOCALE) -> str:
    """A hand's total as players say it: "soft 17", "20", "bust (24)"."""
    total, soft = hand_total(cards)
    if total > 21:
        return t(locale, "bj.total.bust", total=total)
    if soft and total < 21:
        return t(locale, "bj.total.soft", total=total)
    return num(locale, total)  # in the locale's digits (Persian ۲۰), like every other figure


def hand_total_text(
    cards: Sequence[Card], outcome: HandOutcome | None, locale: L = DEFAULT_LOCALE
) -> str:
    """A player's hand's total beside its outcome: a bust hand's total is said once, the
    outcome says the bust ("24 · bust", not "bust (24) · bust")."""
    if outcome is HandOutcome.BUST:
        return num(locale, hand_total(cards)[0])
    return total_text(cards, locale)


def decks_text(decks: int, locale: L = DEFAULT_LOCALE) -> str:
    return t(locale, choose(decks, "bj.rules.deck", "bj.rules.decks"), decks=decks)


def pays_text(pays: str, locale: L = DEFAULT_LOCALE) -> str:
    """A payout such as 3:2, in the reader's digits."""
    high, low = pays.split(":")
    return t(
        locale,
        "bj.rules.pays",
        pays=Raw(f"{i18n.num(locale, int(high))}:{i18n.num(locale, int(low))}"),
    )


def rules_line(rules: BlackjackRules, locale: L = DEFAULT_LOCALE) -> str:
    """The table's rules in one line (the table message's footer, /blackjack odds)."""
    parts = [
        decks_text(rules.decks, locale),
        t(locale, f"bj.rules.{rules.dealer}"),
        pays_text(rules.blackjack_pays, locale),
        t(locale, "bj.rules.double", on=t(locale, f"bj.double_on.{rules.double_on}")),
        t(locale, "bj.rules.das" if rules.double_after_split else "bj.rules.no_das"),
        t(locale, "bj.rules.hands", hands=rules.max_hands),
    ]
    if rules.resplit_aces:
        parts.append(t(locale, "bj.rules.rsa"))
    if rules.surrender == "late":
        parts.append(t(locale, "bj.rules.surrender"))
    parts.append(t(locale, "bj.rules.peek" if rules.peek else "bj.rules.no_peek"))
    if not rules.insurance:
        parts.append(t(locale, "bj.rules.no_insurance"))
    parts.append(t(locale, "bj.rules.bets", min=rules.min_bet, max=rules.max_bet))
    return " · ".join(parts)


def _public(live: OpenBlackjackTable, seen: BlackjackObservation | None) -> BlackjackObservation:
    """The table as everyone sees it: ``seen``, or the table's public observation now."""
    return live.engine.observe() if seen is None else seen


def dealer_line(
    live: OpenBlackjackTable,
    locale: L = DEFAULT_LOCALE,
    *,
    seen: BlackjackObservation | None = None,
) -> str:
    """The dealer's cards as anyone may see them: the hole card face down until the
    dealer's turn (BJ-DEAL-1)."""
    obs = _public(live, seen)
    shown = obs.dealer
    hidden = obs.dealer_hidden
    if not shown and not hidden:
        return t(locale, "bj.dealer.waiting")
    cards = faces(shown, hidden=hidden, sep="  ")
    if hidden:
        # one card up: an ace is said as one ("shows an ace", not "shows soft 11")
        up = t(locale, "bj.total.ace") if [c.rank for c in shown] == [Rank.ACE] else None
        return t(locale, "bj.dealer.hidden", cards=cards, total=up or total_text(shown, locale))
    return t(locale, "bj.dealer.line", cards=cards, total=total_text(shown, locale))


def _state(obs: BlackjackObservation, hand: HandSeen, locale: L) -> str:
    if hand.outcome is not None:
        return t(locale, f"bj.outcome.{hand.outcome.value}")
    if obs.turn == (hand.seat, hand.index):
        return t(locale, "bj.state.to_play")
    if hand.doubled:
        return t(locale, "bj.state.doubled")
    if hand.done:
        return t(locale, "bj.state.stands")
    return ""


def seat_lines(
    live: OpenBlackjackTable,
    locale: L = DEFAULT_LOCALE,
    *,
    seen: BlackjackObservation | None = None,
) -> list[str]:
    """Each seat: its bet for the next round, or its hands in the round being played."""
    obs = _public(live, seen)
    lines: list[str] = []
    in_round = obs.phase in (Phase.INSURANCE, Phase.PLAYING)
    for seat in obs.seats:
        name = seat_name(live, seat)
        box = obs.box(seat) if in_round else None
        if box is None:
            bet = obs.bets.get(seat)
            key = "bj.seat.bet" if bet else "bj.seat.no_bet"
            lines.append(t(locale, key, name=name, amount=bet or 0))
            continue
        many = len(box.hands) > 1
        for index, hand in enumerate(box.hands):
            state = _state(obs, hand, locale)
            lines.append(
                t(
                    locale,
                    "bj.seat.hand",
                    name=name,
                    hand=t(locale, "bj.hand_no", n=index + 1) if many else "",
                    cards=faces(hand.cards, sep="  "),
                    total=hand_total_text(hand.cards, hand.outcome, locale),
                    bet=hand.staked,
                    state=(" · " + state) if state else "",
                )
            )
        if box.insurance:
            lines.append(t(locale, "bj.seat.insured", name=name, amount=box.insurance))
    return lines


def countdown(live: OpenBlackjackTable) -> int | None:
    """The moment (epoch seconds) the table message counts down to: the end of the
    betting window or of the turn (None: no clock)."""
    return int(live.closes_at) if live.closes_at else None


def status_line(
    live: OpenBlackjackTable,
    locale: L = DEFAULT_LOCALE,
    *,
    seen: BlackjackObservation | None = None,
) -> str:
    obs = _public(live, seen)
    closes = Raw(str(countdown(live) or 0))
    if obs.phase is Phase.INSURANCE:
        return t(locale, "bj.status.insurance", closes=closes)
    box = obs.box(obs.turn[0]) if obs.turn is not None else None
    if obs.phase is Phase.PLAYING and obs.turn is not None and box is not None:
        seat, index = obs.turn
        many = len(box.hands) > 1
        return t(
            locale,
            "bj.status.turn",
            name=seat_name(live, seat),
            hand=t(locale, "bj.hand_no", n=index + 1) if many else "",
            closes=closes,
        )
    return t(locale, "bj.status.betting", closes=closes)


def notes_lines(live: OpenBlackjackTable, locale: L = DEFAULT_LOCALE) -> list[str]:
    """What the table says publicly about the round: a reshuffle, a timed-out player."""
    out: list[str] = []
    for note in live.notes:
        kind = note.get("kind")
        if kind == "timed_out":
            hits = int(note.get("hits") or 0)
            key = {0: "bj.note.timed_out_stood", 1: "bj.note.timed_out.one"}.get(
                hits, "bj.note.timed_out"
            )
            out.append(t(locale, key, name=seat_name(live, str(note["seat"])), hits=hits))
        elif kind == "shuffled":
            out.append(t(locale, "bj.note.shuffled"))
        elif kind == "reshuffled_discards":
            out.append(t(locale, "bj.note.discards"))
        elif kind == "insurance_declined":
            out.append(t(locale, "bj.note.insurance_declined"))
    return out


def edge_line(rules: BlackjackRules, locale: L = DEFAULT_LOCALE) -> str:
    """The table's house edge (BJ-EDGE-1) once it is computed; drawing never waits. When
    the rules favour a basic-strategy player (a negative edge) it is said as the
    player's advantage, without a minus sign."""
    known = known_house_edge(rules)
    if known is None:
        return t(locale, "bj.edge.pending")
    if known.edge < 0:
        return t(locale, "bj.edge.player", edge=pct(-known.edge, locale))
    return t(locale, "bj.edge", edge=pct(known.edge, locale))


def _hand_result(live: OpenBlackjackTable, h: HandResult, many: bool, locale: L) -> str:
    cards = parse_cards(h.cards)
    return t(
        locale,
        "bj.result.hand",
        name=seat_name(live, h.seat),
        hand=t(locale, "bj.hand_no", n=h.hand + 1) if many else "",
        cards=faces_read(cards, sep="  "),
        total=hand_total_text(cards, h.outcome, locale),
        outcome=t(locale, f"bj.outcome.{h.outcome.value}"),
        net=signed(h.net, locale),
    )


def result_text(
    live: OpenBlackjackTable,
    result: RoundResult,
    balances: dict[str, int],
    locale: L = DEFAULT_LOCALE,
    *,
    late: bool = False,
) -> str:
    """The round's one result post: the dealer's cards, each hand's result, each
    seat's net and balance."""
    dealer = parse_cards(result.dealer)
    if result.dealer_blackjack:
        head = t(locale, "bj.result.dealer_blackjack")
    elif result.dealer_total > 21:
        head = t(locale, "bj.result.dealer_bust", total=result.dealer_total)
    else:
        head = t(locale, "bj.result.dealer_total", total=result.dealer_total)
    lines = [
        t(locale, "bj.result.title", round=result.round_no)
        + (t(locale, "bj.result.late") if late else ""),
        t(locale, "bj.result.dealer", cards=faces_read(dealer, sep="  "), head=head),
    ]
    lines += notes_lines(live, locale)
    counts: dict[str, int] = {}
    for h in result.hands:
        counts[h.seat] = counts.get(h.seat, 0) + 1
    for h in result.hands:
        lines.append(_hand_result(live, h, counts[h.seat] > 1, locale))
    for seat, net in result.insurance:
        lines.append(
            t(locale, "bj.result.insurance", name=seat_name(live, seat), net=signed(net, locale))
        )
    for seat, net in result.net_by_seat().items():
        bal = balances.get(seat)
        lines.append(
            t(locale, "bj.result.net", name=seat_name(live, seat), net=signed(net, locale))
            + (t(locale, "bj.result.balance", balance=bal) if bal is not None else "")
        )
    house = -sum(result.net_by_seat().values())
    lines.append(
        t(
            locale,
            "bj.result.house_took" if house >= 0 else "bj.result.house_paid",
            amount=abs(house),
        )
    )
    return "\n".join(lines)


_OPTION_VALUE = {
    "dealer": lambda r, L: t(L, f"bj.rules.{r.dealer}"),
    "blackjack_pays": lambda r, L: pays_text(r.blackjack_pays, L),
    "surrender": lambda r, L: t(
        L, "bj.rules.surrender" if r.surrender == "late" else "bj.rules.no_surrender"
    ),
    "double_on": lambda r, L: t(L, "bj.rules.double", on=t(L, f"bj.double_on.{r.double_on}")),
    "double_after_split": lambda r, L: t(
        L, "bj.rules.das" if r.double_after_split else "bj.rules.no_das"
    ),
    "resplit_aces": lambda r, L: t(L, "bj.rules.rsa" if r.resplit_aces else "bj.rules.no_rsa"),
    "max_hands": lambda r, L: t(L, "bj.rules.hands", hands=r.max_hands),
    "decks": lambda r, L: decks_text(r.decks, L),
    "peek": lambda r, L: t(L, "bj.rules.peek" if r.peek else "bj.rules.no_peek"),
}


def odds_text(rules: BlackjackRules, locale: L = DEFAULT_LOCALE) -> str:
    """/blackjack odds: the house edge of the table's rules for a basic-strategy
    player (BJ-EDGE-1), or the player's advantage when the rules favour such a player,
    and what each rule that differs from the usual table adds or takes away."""
    edge = house_edge(rules).edge
    base = house_edge(BlackjackRules()).edge
    head = (
        t(locale, "bj.odds.head.player", edge=pct(-edge, locale))
        if edge < 0
        else t(locale, "bj.odds.head", edge=pct(edge, locale))
    )
    lines = [
        head,
        t(locale, "bj.odds.rules", rules=rules_line(rules, locale)),
        t(locale, "bj.odds.base", edge=pct(base, locale)),
    ]
    lines.append(t(locale, "bj.odds.effects"))
    for name, other, change in rule_alternatives(rules):
        lines.append(
            t(
                locale,
                "bj.odds.effect",
                rule=_OPTION_VALUE[name](rules, locale),
                other=_OPTION_VALUE[name](rules.model_copy(update={name: other}), locale),
                change=("+" if change >= 0 else "−") + pct(abs(change), locale),
            )
        )
    lines.append(t(locale, "bj.odds.method"))
    return "\n".join(lines)


def refused(exc: BaseException, locale: L = DEFAULT_LOCALE) -> str:
    if isinstance(exc, RuleError):
        return t(locale, "bj.refused", text=rule_text(locale, exc))
    return friendly(exc, locale)


def outcome_word(outcome: HandOutcome, locale: L = DEFAULT_LOCALE) -> str:
    return t(locale, f"bj.outcome.{outcome.value}")


__all__ = [
    "dealer_line",
    "edge_line",
    "notes_lines",
    "odds_text",
    "outcome_word",
    "refused",
    "result_text",
    "rules_line",
    "seat_lines",
    "seat_name",
    "status_line",
    "total_text",
]
