"""Words and layout for what the bot posts. Pure functions: engine views and events in,
plain text out (the presenter lays them out as Discord components with buttons)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.card_faces import faces, faces_read
from bot.errors import word_msg
from bot.i18n import DEFAULT_LOCALE, Msg, Raw, bidi, num, t
from bot.text import shorten
from cogs.pontoon.edge import edge_footer, edge_line
from engine.cards import parse_card
from engine.errors import Word
from engine.pontoon import HandView, PontoonRules, TableView
from engine.pontoon.types import Event, EventKind, Phase
from engine.pontoon.views import HandStatus
from engine.records import HOUSE, is_computer_seat

Namer = Callable[[str], str]

#: message id of each phase's line on the table message
PHASE_TEXT: dict[Phase, str] = {phase: f"pt.phase.{phase.value}" for phase in Phase}


def cards_text(codes: Iterable[str], hidden: int = 0) -> str:
    return faces(codes, hidden)


def hand_line(hand: HandView, *, show_total: bool = True, locale: str = DEFAULT_LOCALE) -> str:
    """One hand of a HandView: cards, face-down count, stake, status."""
    cards: Sequence[str] = hand.cards
    hidden = hand.hidden
    stake = hand.stake
    shoot = hand.shoot or 0
    status = hand.status
    total = hand.total
    parts = [bidi(locale, cards_text(cards, hidden))]
    if show_total and total is not None and hidden == 0 and cards:
        parts[0] += " " + t(locale, "pt.total", total=total)  # "7♣ 3♥ = 10", no "·" before "="
    if stake:
        parts.append(t(locale, "pt.stake", stake=stake))
    if shoot:
        parts.append(t(locale, "pt.shoot_stake", shoot=shoot))
    label = status.value
    if label and label != "open":
        parts.append(t(locale, "pt.status", status=t(locale, f"pt.status.{label}")))
    return " · ".join(parts)


#: the newest moves of the round the table message lists
LOG_LINES_MAX = 12


def whose_move(
    phase: Phase,
    name: Namer,
    *,
    banker: str | None,
    turn: tuple[str, int] | None,
    waiting_on: Sequence[str],
    dealer: str | None,
    locale: str = DEFAULT_LOCALE,
    seated: int = 2,
) -> str:
    """Who must act now, in every phase, by name. ``seated``: how many sit at the table
    (one alone cannot be dealt to unless the house banks, P-TABLE-1: said, so a greyed-out
    Deal has its reason)."""
    L = locale

    def bold(seat: str) -> str:
        return t(L, "pt.bold", name=name(seat))

    def names(seats: Sequence[str]) -> str:
        shown = t(L, "perm.separator").join(bold(s) for s in seats[:8])
        more = len(seats) - len(seats[:8])
        return t(L, "pt.names.more", names=Raw(shown), more=more) if more > 0 else shown

    banker_name = t(L, "pt.house") if banker == HOUSE else bold(banker) if banker else "?"
    if phase in (Phase.WAITING, Phase.ROUND_OVER):
        who = bold(dealer) if dealer and dealer != HOUSE else t(L, "pt.move.dealer.any")
        if phase is Phase.WAITING and seated < 2 and banker != HOUSE:
            return t(L, "pt.move.need_two", who=Raw(who))
        return t(L, "pt.move.deal", who=Raw(who))
    if phase is Phase.KITTY:
        return t(L, "pt.move.kitty", banker=Raw(banker_name))
    if phase is Phase.BETTING:
        if not waiting_on:
            return t(L, "pt.move.bets_in")
        return t(L, "pt.move.bet", names=Raw(names(waiting_on)))
    if phase is Phase.DOUBLING:
        return t(L, "pt.move.double", banker=Raw(banker_name))
    if phase is Phase.SHOOTING:
        return t(L, "pt.move.shoot", names=Raw(names(waiting_on)))
    if phase is Phase.PLAYING and turn is not None:
        seat, hand_index = turn
        hand_note = t(L, "pt.hand_note", hand=hand_index + 1) if hand_index else ""
        return t(L, "pt.move.turn", name=name(seat), hand=Raw(hand_note))
    if phase is Phase.BANKER:
        return t(L, "pt.move.banker", banker=Raw(banker_name))
    return t(L, "pt.move.act", names=Raw(names(waiting_on))) if waiting_on else ""


@dataclass(frozen=True)
class TableParts:
    """The table message's pieces, before they are laid out as components (see
    :func:`table_blocks`): the title, the lines saying the phase and whose move it is, one
    (head, body) per seat, the banker's, the round's log and the footer."""

    title: str
    lines: list[str]
    seats: list[tuple[str, str]]
    banker: tuple[str, str] | None
    log: list[str]
    footer: str
    closed: bool = False
    deadline: int | None = None  # the moment (epoch seconds) its countdown shows, if any


def table_parts(
    view: TableView,
    rules: PontoonRules,
    name: Namer,
    *,
    seconds_left: float | None = None,
    deadline_epoch: int | None = None,
    closed_reason: Msg | None = None,
    waiting_on: Sequence[str] = (),
    dealer: str | None = None,
    log: Sequence[str] = (),
    cards_by_dm: bool = True,
    locale: str = DEFAULT_LOCALE,
    cover: int | None = None,
) -> TableParts:
    """What the public table message says: whose move it is, the countdown, seats,
    stakes, face-up cards, and the round's moves so far (in the server's language). The
    footer says where members see their face-down cards (by DM, or only with Show my
    cards). ``cover``: the most new stake the banker can still cover, said when it is
    below the table's maximum."""
    L = locale
    phase = view.phase
    banker = view.banker
    turn = view.turn
    kitty = view.kitty
    round_no = view.round_no
    title = t(L, "pt.title") + (t(L, "pt.title.shoot") if rules.shoot else "")
    if closed_reason is not None:
        reason = closed_reason
        return TableParts(
            title + t(L, "pt.title.closed"),
            [shorten(t(L, "pt.closed", reason=reason), 2000)],
            [],
            None,
            [],
            "",
            closed=True,
        )
    # at a house-banked table any player deals: no "the banker presses Deal" (N-06)
    house_waits = phase is Phase.WAITING and banker == HOUSE
    lines = [t(L, "pt.phase.waiting.house" if house_waits else PHASE_TEXT[phase])]
    move = whose_move(
        phase,
        name,
        banker=banker,
        turn=turn,
        waiting_on=waiting_on,
        dealer=dealer,
        locale=L,
        seated=len(view.seats),
    )
    if move:
        lines.append(move)
    if deadline_epoch is not None:
        lines.append(t(L, "pt.deadline", ts=Raw(str(deadline_epoch))))
    elif seconds_left is not None:
        lines.append(t(L, "pt.seconds", seconds=int(seconds_left)))
    if banker == HOUSE:
        lines.append(t(L, "pt.house_banks"))
    elif banker is not None:
        lines.append(t(L, "pt.banker_is", name=name(banker)))
    else:
        lines.append(t(L, "pt.no_banker"))
    if rules.shoot:
        lines.append(t(L, "pt.kitty_is", kitty=kitty))
    if round_no:
        lines.append(t(L, "pt.bets_round", min=rules.min_bet, max=rules.max_bet, round=round_no))
    else:  # no round dealt yet: no "round 0" (newcomer N-07)
        lines.append(t(L, "pt.bets_only", min=rules.min_bet, max=rules.max_bet))
    if cover is not None and cover < rules.max_bet and phase in (Phase.BETTING, Phase.PLAYING):
        # the banker's chips limit new stakes and buys: say so, so a lower maximum or a
        # greyed-out Buy has a reason (P-PAY-LIMIT)
        if cover > 0:
            lines.append(t(L, "pt.cover_limit", cover=cover))
        else:
            lines.append(t(L, "pt.cover_none"))
    if view.needs_shuffle and phase is Phase.WAITING:
        lines.append(t(L, "pt.shuffle_next"))
    seats: list[tuple[str, str]] = []
    for seat_view in view.seats:
        seat = seat_view.seat
        if seat == banker:
            continue
        hands = seat_view.hands
        balance = seat_view.balance
        if is_computer_seat(seat):  # it plays with the house's chips: no balance of its own
            head = t(L, "pt.seat_head.computer", name=name(seat))
        else:
            head = t(L, "pt.seat_head", name=name(seat), chips=balance)
        if seat_view.sitting_out:
            body = t(L, "pt.sitting_out")
        elif hands:
            body = "\n".join(
                (t(L, "pt.hand_n", n=i + 1) if len(hands) > 1 else "") + hand_line(h, locale=L)
                for i, h in enumerate(hands)
            )
        else:
            body = t(L, "pt.seated")
        seats.append((head, body))
    banker_hand = view.banker_hand
    banker_part: tuple[str, str] | None = None
    if banker is not None:
        banker_chips = next((s.balance for s in view.seats if s.seat == banker), None)
        head = (
            t(L, "pt.banker_head.house")
            if banker == HOUSE
            else t(L, "pt.banker_head", name=name(banker))
        )
        if banker_chips is not None:
            head += t(L, "pt.banker_chips", chips=banker_chips)
        body = hand_line(banker_hand, locale=L) if banker_hand is not None else "—"
        banker_part = (head, body)
    footer = t(L, "pt.footer" if cards_by_dm else "pt.footer.button")
    edge = edge_footer(rules, L)  # "" until it is computed (drawing never waits)
    if edge:
        footer += " · " + edge
    return TableParts(title, lines, seats, banker_part, list(log), footer, deadline=deadline_epoch)


# Discord's limits for a message of layout components (IS_COMPONENTS_V2)
LAYOUT_TEXT_MAX = 4000
LAYOUT_COMPONENTS_MAX = 40


@dataclass(frozen=True)
class TableBlocks:
    """The table message's texts as the layout shows them: a header (title, phase, whose
    move, countdown), the banker's block, the seats' blocks grouped into at most
    ``groups`` texts, the log and the footer; within Discord's 4,000 characters."""

    header: str
    banker: str
    seats: list[str]
    log: str
    footer: str

    def texts(self) -> list[str]:
        return [x for x in (self.header, self.banker, *self.seats, self.log, self.footer) if x]

    def length(self) -> int:
        return sum(len(x) for x in self.texts())


def _seat_block(head: str, body: str) -> str:
    return f"{head}\n{body}" if body else head


def _group(blocks: list[str], groups: int) -> list[str]:
    """``blocks`` joined into at most ``groups`` texts, in order, evenly."""
    if not blocks:
        return []
    groups = max(1, min(groups, len(blocks)))
    size = -(-len(blocks) // groups)
    return ["\n".join(blocks[i : i + size]) for i in range(0, len(blocks), size)]


def table_blocks(
    parts: TableParts, *, groups: int, locale: str = DEFAULT_LOCALE, limit: int = LAYOUT_TEXT_MAX
) -> TableBlocks:
    """``parts`` as the layout's texts, in at most ``limit`` characters whatever the names
    and the language: the header and the banker first, then the seats (each seat's name
    shortened first, then its cards, never cutting a card's picture), then as much of the
    log as is left."""
    header = shorten("## " + parts.title + "\n" + "\n".join(parts.lines), 1200)
    if parts.closed:
        return TableBlocks(header, "", [], "", "")
    banker = shorten(_seat_block(*parts.banker), 600) if parts.banker else ""
    footer = shorten("-# " + parts.footer, 300) if parts.footer else ""
    room = limit - len(header) - len(banker) - len(footer)
    seats = [_seat_block(h, b) for h, b in parts.seats]
    need = sum(len(s) + 1 for s in seats)
    log_title = "**" + t(locale, "pt.log_title") + "**\n"
    log = ""
    if parts.log:
        log_room = min(1000, room - need) if room - need > 200 else min(200, room // 5)
        if log_room > len(log_title) + 20:
            log = log_title + log_text(parts.log, log_room - len(log_title))
    room -= len(log)
    if need > room and seats:
        share = room // len(seats) - 1
        fitted = []
        for h, b in parts.seats:
            head = shorten(h, max(24, min(len(h), share - len(b) - 1)))
            fitted.append(shorten(_seat_block(head, b), max(8, share)))
        seats = fitted
    return TableBlocks(header, banker, _group(seats, groups), log, footer)


def log_text(lines: Sequence[str], limit: int) -> str:
    """The newest lines of a round's log that fit in ``limit`` characters."""
    out: list[str] = []
    size = 0
    for line in reversed(lines[-LOG_LINES_MAX:]):
        line = shorten(line, 200)
        if size + len(line) + 1 > limit - 2:
            break
        out.append(line)
        size += len(line) + 1
    skipped = len(lines) - len(out)
    text = "\n".join(reversed(out))
    return ("…\n" + text if skipped > 0 else text) or "—"


def _who(ev: Event, name: Namer, banker: str | None, L: str) -> str:
    if ev.seat is not None and ev.seat == banker:
        return t(L, "pt.who.banker")
    return name(ev.seat or "?")


def _tail(L: str, total: int | None) -> str:
    return t(L, "pt.total_tail", total=total) if total else ""


def timed_out_line(
    ev: Event, name: Namer, banker: str | None, locale: str = DEFAULT_LOCALE
) -> str | None:
    """A move the timer made for someone, said so in the third person (the line is
    public: "you" would read as addressed to whoever looks)."""
    L = locale
    who = _who(ev, name, banker, L)
    k = ev.kind
    if k is EventKind.STUCK:
        return t(L, "pt.timeout.they_stick", who=who)
    if k is EventKind.TWISTED:
        line = t(L, "pt.timeout.they_twist", who=who, cards=cards_text(ev.cards))
        return line + _tail(L, ev.total)
    if k is EventKind.BANKER_STAYS:
        return t(L, "pt.timeout.banker_stays", total=ev.total)
    if k is EventKind.DECLARED:
        return t(L, "pt.timeout.they_declare", who=who, cards=cards_text(ev.cards))
    if k is EventKind.SHOOT and not ev.amount:
        return t(L, "pt.timeout.they_skip_shoot", who=who)
    return None


def event_line(
    ev: Event, name: Namer, banker: str | None, locale: str = DEFAULT_LOCALE
) -> str | None:
    """A public event as one line of the play log, or None for events not worth a post."""
    L = locale
    who = _who(ev, name, banker, L)
    hand = Raw(t(L, "pt.hand_note", hand=ev.hand + 1) if ev.hand else "")
    k = ev.kind
    cards = cards_text(ev.cards) if ev.cards else ""
    if k is EventKind.CUT_CARD:
        return t(L, "pt.ev.cut", name=name(ev.seat or "?"), cards=cards)
    if k is EventKind.BANKER_CHOSEN:
        return t(L, "pt.ev.banker_chosen", name=name(ev.seat or "?"))
    if k is EventKind.SHUFFLED:
        return t(L, "pt.ev.shuffled")
    if k is EventKind.BANKER_PONTOON:
        return t(L, "pt.ev.banker_pontoon", cards=cards)
    if k is EventKind.DECLARED:
        return t(L, "pt.ev.declared", who=who, cards=cards, hand=hand)
    if k is EventKind.SPLIT:
        return t(L, "pt.ev.split", who=who, cards=cards)
    if k is EventKind.BOUGHT:
        return t(L, "pt.ev.bought", who=who, amount=ev.amount, hand=hand)
    if k is EventKind.TWISTED:
        return t(L, "pt.ev.twisted", who=who, cards=cards, hand=hand) + _tail(L, ev.total)
    if k is EventKind.BURNED:
        return t(L, "pt.ev.burned", who=who, cards=cards, hand=hand)
    if k is EventKind.STUCK:
        return t(L, "pt.ev.stuck", who=who, hand=hand)
    if k is EventKind.BUST:
        return t(L, "pt.ev.bust", who=who, cards=cards, hand=hand) + (
            t(L, "pt.ev.bust_total", total=ev.total) if ev.total else ""
        )
    if k is EventKind.FIVE_CARD_TRICK:
        return t(L, "pt.ev.five", who=who, hand=hand)
    if k is EventKind.TWENTY_ONE:
        return t(L, "pt.ev.twenty_one", who=who, hand=hand)
    if k is EventKind.BANKER_REVEAL:
        return t(L, "pt.ev.banker_reveal", cards=cards) + _tail(L, ev.total)
    if k is EventKind.BANKER_DRAW:
        return t(L, "pt.ev.banker_draw", cards=cards) + _tail(L, ev.total)
    if k is EventKind.BANKER_STAYS:
        return t(L, "pt.ev.banker_stays", total=ev.total, paying=int(ev.total or 0) + 1)
    if k is EventKind.DOUBLED:
        return t(L, "pt.ev.doubled")
    if k is EventKind.SHOOT and ev.amount:
        return t(L, "pt.ev.shoot", who=who, amount=ev.amount, hand=hand)
    if k is EventKind.KITTY:
        detail = word_msg(ev.says) if ev.says is not None else ""
        # the amount comes first ("Kitty: 30 added"); an emptied kitty has none
        line = t(L, "pt.ev.kitty", detail=detail, amount=ev.amount or "")
        return line.replace("  ", " ").strip()
    if k is EventKind.BANK_PASSES:
        taker = name(ev.seat or "?")
        says = dict(ev.says.params) if ev.says is not None else {}
        if ev.says is not None and ev.says.key == "engine.bank_passes.from":
            return t(L, ev.says.key, name=taker, old=name(str(says.get("old", "?"))))
        # the bank passes for a pontoon (P-NEXT-2): the engine's only reason
        return t(L, "engine.bank_passes.pontoon", name=taker)
    if k is EventKind.BANK_SOLD:
        return t(L, "pt.ev.bank_sold", name=name(ev.seat or "?"), amount=ev.amount)
    return None


#: a hand won because the banker went bust (said more fully for a five card trick or a
#: pontoon)
BANKER_BUST_WIN = Word.of("engine.result.win", why=Word("engine.why.banker_bust"))


def result_lines(
    results: Sequence[Event], seats: Sequence[str], name: Namer, locale: str = DEFAULT_LOCALE
) -> list[str]:
    """A round's HAND_RESULT events as the payout lines: each player's hands together and
    in order (a bust hand is settled before the others), in the order of the seats; after
    a split every hand is numbered, the first one too."""
    order = {seat: i for i, seat in enumerate(seats)}
    hands = Counter(ev.seat for ev in results)
    ranked = sorted(results, key=lambda ev: (order.get(ev.seat or "", len(order)), ev.hand or 0))
    return [result_line(ev, name, locale, numbered=hands[ev.seat] > 1) for ev in ranked]


def result_line(
    ev: Event, name: Namer, locale: str = DEFAULT_LOCALE, *, numbered: bool = False
) -> str:
    """A HAND_RESULT event: cards, result (with the reason it was paid), chips won or lost
    (``numbered``: the hand's number even for the first, after a split)."""
    L = locale
    hand = Raw(t(L, "pt.hand_note", hand=(ev.hand or 0) + 1) if ev.hand or numbered else "")
    net = ev.amount or 0
    sign = f"+{num(L, net)}" if net > 0 else num(L, net)
    total = Raw(t(L, "pt.result_total", total=ev.total) if ev.total is not None else "")
    says = ev.says
    if says == BANKER_BUST_WIN and len(ev.cards) == 5:
        detail = t(L, "engine.result.win", why=Msg("engine.why.five_banker_bust"))
    elif says == BANKER_BUST_WIN and len(ev.cards) == 2 and ev.total == 21:
        detail = t(L, "engine.result.win", why=Msg("engine.why.pontoon_banker_bust"))
    else:  # every result of the engine says why (an old saved one: bot.pontoon maps it)
        detail = word_msg(says).render(L) if says is not None else ""
    return t(
        L,
        "pt.result",
        name=name(ev.seat or "?"),
        hand=hand,
        cards=faces_read(ev.cards),
        total=total,
        detail=detail,
        net=sign,
    )


def round_banker_hand(events: Iterable[Event]) -> HandView | None:
    """The banker's hand of a round as its public events showed it (turned over, drawn
    to, or a pontoon), so the payouts name the round's banker even after the bank has
    passed. None when the banker never played a hand (a house bank, every hand bust)."""
    seat: str | None = None
    cards: list[str] = []
    total: int | None = None
    status = HandStatus.STUCK
    for ev in events:
        if ev.kind in (EventKind.BANKER_REVEAL, EventKind.BANKER_PONTOON):
            seat, cards, total = ev.seat, list(ev.cards), ev.total
            if ev.kind is EventKind.BANKER_PONTOON:
                status = HandStatus.PONTOON
        elif ev.kind is EventKind.BANKER_DRAW and seat is not None:
            cards.extend(ev.cards)
            total = ev.total
        elif ev.kind is EventKind.BANKER_STAYS and ev.total is not None:
            total = ev.total
    if seat is None:
        return None
    if total is not None and total > 21:
        status = HandStatus.BUST
    elif len(cards) >= 5 and status is not HandStatus.PONTOON:
        status = HandStatus.FIVE_CARD_TRICK
    return HandView(seat, 0, tuple(cards), 0, 0, 0, status, total)


def banker_result_line(
    name: str,
    banker_hand: HandView | None,
    net: int,
    locale: str = DEFAULT_LOCALE,
    *,
    house: bool = False,
) -> str:
    """The banker's own line in the payouts: cards, total and the round's net result
    (``house``: the house banks, and the line names it so)."""
    L = locale
    # a banker who never turned their cards over (every player bust) says why, not "—"
    cards = (
        faces_read(banker_hand.cards) if banker_hand is not None else t(L, "pt.banker_not_needed")
    )
    total = banker_hand.total if banker_hand is not None else None
    shown = t(L, "pt.result_total", total=total) if total is not None else ""
    label = banker_hand.status.value if banker_hand is not None else ""
    if label in ("bust", "five_card_trick", "pontoon") and total is not None:
        shown += " · " + t(L, "pt.status", status=t(L, f"pt.status.{label}"))
    sign = f"+{num(L, net)}" if net > 0 else num(L, net)
    if house:
        return t(L, "pt.house_result", cards=cards, total=Raw(shown), net=sign)
    return t(L, "pt.banker_result", name=name, cards=cards, total=Raw(shown), net=sign)


def private_card_line(ev: Event, locale: str = DEFAULT_LOCALE) -> str | None:
    """A private CARD_DEALT event for its holder, or None when it shows no card (the
    banker's own first card stays unseen, P-DEAL-1)."""
    if not ev.cards:
        return None
    L = locale
    hand = Raw(t(L, "pt.hand_note", hand=ev.hand + 1) if ev.hand else "")
    key = "pt.private.other" if len(ev.cards) > 1 else "pt.private.one"
    return t(L, key, hand=hand, cards=cards_text(ev.cards))


#: message id of how pontoons pay, by ``PontoonRules.pontoon_pays``
PONTOON_PAYS_TEXT = {
    pays: f"pt.pays.{pays}"
    for pays in ("double", "single", "triple", "players_double_banker_single")
}


def form_title(title: str, hands: Sequence[HandView], locale: str = DEFAULT_LOCALE) -> str:
    """A form's title with the member's own cards, when they fit (45 characters)."""
    if not hands or not hands[0].cards:
        return title
    # a form's title is plain text: no pictures there
    cards = " ".join(" ".join(parse_card(c).pretty for c in h.cards) for h in hands)
    one = sum(len(h.cards) for h in hands) == 1
    full = t(locale, "pt.form_title.one" if one else "pt.form_title", title=Raw(title), cards=cards)
    return full if len(full) <= 45 else title


def rules_text(rules: PontoonRules, locale: str = DEFAULT_LOCALE) -> str:
    """The table's rules in plain words (for /pontoon rules)."""
    L = locale
    pays = PONTOON_PAYS_TEXT.get(rules.pontoon_pays)
    lines = [
        t(
            L,
            "pt.rules.bets",
            min=rules.min_bet,
            max=rules.max_bet,
            packs=Raw(
                t(L, "pb.packs.one" if rules.packs == 1 else "pb.packs.other", packs=rules.packs)
                if rules.packs
                else t(L, "pt.rules.packs_auto")
            ),
        ),
        t(L, "pt.rules.rank"),
        t(
            L,
            "pt.rules.play",
            stick=16 if rules.stick_on_16 else 15,
        ),
        t(L, "pt.rules.split_aces" if rules.split_aces_only else "pt.rules.split"),
        t(L, "pt.rules.pays_both", pays=t(L, pays) if pays else rules.pontoon_pays),
        t(L, "pt.rules.next"),
        t(L, "pt.rules.timeout", stick=16 if rules.stick_on_16 else 15),
    ]
    if rules.banker_doubles:
        lines.append(t(L, "pt.rules.doubles"))
    if rules.no_buy_five_on_eleven:
        lines.append(t(L, "pt.rules.no_buy_five"))
    if rules.royal_pontoon:
        lines.append(t(L, "pt.rules.royal"))
    if rules.pontoon_strength != "standard":
        lines.append(
            t(L, "pt.rules.strength", strength=t(L, f"pt.strength.{rules.pontoon_strength}"))
        )
    if rules.burn != "off":
        lines.append(t(L, "pt.rules.burn", burn=rules.burn))
    if rules.shoot:
        lines.append(t(L, "pt.rules.shoot", min=rules.kitty_min, max=rules.kitty_max))
    if rules.house_bank:
        lines.append(t(L, "pt.rules.house", stands=rules.house_stands_on))
    lines.append(edge_line(rules, L))
    lines.append(t(L, "pt.rules.ids", ids=RULE_IDS))
    return "\n".join(lines)


#: the rule numbers of the rules text, for members who look a rule up (the only place
#: players meet rule ids)
RULE_IDS = "P-TABLE-1/2 · P-RANK-1..6 · P-STICK-1 · P-BUY-2/3 · P-TWIST-2 · P-SPLIT-1/2 · P-NEXT-1/2 · P-VAR-1..8 · P-SHOOT-1..9"
