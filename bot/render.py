"""Words and layout for what the bot posts. Pure functions: engine views and events in,
plain text out (the presenter wraps them in discord embeds and buttons)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.cards import parse_card
from engine.pontoon import HandView, PontoonRules, TableView
from engine.pontoon.types import Event, EventKind, Phase
from engine.records import HOUSE

Namer = Callable[[str], str]

PHASE_TEXT: dict[Phase, str] = {
    Phase.WAITING: "Waiting for the deal — press **Join** to sit in, the banker presses **Deal**",
    Phase.KITTY: "The banker puts up or adds to the kitty: **Kitty** or `/bank kitty amount` "
    "(amount 0 adds nothing and deals)",
    Phase.BETTING: "Place your bets on your first card: **Bet** shows your card "
    "(**Same bet** repeats your last stake)",
    Phase.DOUBLING: "The banker may double all bets",
    Phase.SHOOTING: "Shoot bets against the kitty (**Shoot**, amount 0 to pass)",
    Phase.PLAYING: "Players' turns",
    Phase.BANKER: "The banker's turn",
    Phase.ROUND_OVER: "Round over",
}


def card_text(code: str) -> str:
    return parse_card(code).pretty


def cards_text(codes: Iterable[str], hidden: int = 0) -> str:
    shown = [card_text(c) for c in codes]
    shown.extend(["🂠"] * hidden)
    return " ".join(shown) if shown else "—"


def hand_line(hand: HandView, *, show_total: bool = True) -> str:
    """One hand of a HandView: cards, face-down count, stake, status."""
    cards: Sequence[str] = hand.cards
    hidden = hand.hidden
    stake = hand.stake
    shoot = hand.shoot or 0
    status = hand.status
    total = hand.total
    parts = [cards_text(cards, hidden)]
    if show_total and total is not None and hidden == 0 and cards:
        parts.append(f"= {total}")
    if stake:
        parts.append(f"stake {stake}")
    if shoot:
        parts.append(f"shoot {shoot}")
    label = status.value
    if label and label != "open":
        parts.append(f"[{label.replace('_', ' ')}]")
    return " · ".join(parts)


# Discord's message limits (https://discord.com/developers/docs/resources/message)
CONTENT_MAX = 2000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
NAME_MAX = 32  # a display name as shown (Discord's own nickname limit)
LOG_TITLE = "This round"
LOG_LINES_MAX = 12


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


@dataclass(frozen=True)
class TableText:
    title: str
    description: str
    fields: list[tuple[str, str]]
    footer: str

    def fitted(self) -> TableText:
        """The same table within Discord's embed limits whatever the names: 25 fields,
        256/1024 per field, 4096 description, 6000 in all. Shortened, never failing."""
        fields = [
            (shorten(h, FIELD_NAME_MAX), shorten(b or "—", FIELD_VALUE_MAX)) for h, b in self.fields
        ]
        if len(fields) > EMBED_FIELDS_MAX:
            extra = fields[EMBED_FIELDS_MAX - 1 :]
            fields = fields[: EMBED_FIELDS_MAX - 1]
            fields.append(
                (
                    f"…and {len(extra)} more",
                    shorten(", ".join(h for h, _ in extra), FIELD_VALUE_MAX),
                )
            )
        title = shorten(self.title, EMBED_TITLE_MAX)
        desc = shorten(self.description, EMBED_DESCRIPTION_MAX)
        footer = shorten(self.footer, FOOTER_MAX)

        def total() -> int:
            return len(title) + len(desc) + len(footer) + sum(len(h) + len(b) for h, b in fields)

        # over 6000: shorten the longest field values, then the description
        while total() > EMBED_TOTAL_MAX:
            over = total() - EMBED_TOTAL_MAX
            i = max(range(len(fields)), key=lambda j: len(fields[j][1]), default=None)
            if i is None or len(fields[i][1]) <= 40:
                desc = shorten(desc, max(40, len(desc) - over))
                if total() > EMBED_TOTAL_MAX:
                    fields = fields[:-1]
                continue
            head, body = fields[i]
            fields[i] = (head, shorten(body, max(40, len(body) - over)))
        return TableText(title, desc, fields, footer)


def whose_move(
    phase: Phase,
    name: Namer,
    *,
    banker: str | None,
    turn: tuple[str, int] | None,
    waiting_on: Sequence[str],
    dealer: str | None,
) -> str:
    """Who must act now, in every phase, by name."""

    def names(seats: Sequence[str]) -> str:
        shown = [f"**{name(s)}**" for s in seats[:8]]
        more = len(seats) - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")

    banker_name = "the house" if banker == HOUSE else f"**{name(banker)}**" if banker else "?"
    if phase in (Phase.WAITING, Phase.ROUND_OVER):
        who = f"**{name(dealer)}**" if dealer and dealer != HOUSE else "any player"
        return f"▶ Next: {who} presses **Deal** (others may **Join** or **Leave**)"
    if phase is Phase.KITTY:
        return f"▶ Waiting for the banker {banker_name} to put up the kitty (**Kitty**)"
    if phase is Phase.BETTING:
        if not waiting_on:
            return "▶ Bets are in"
        return f"▶ Waiting for {names(waiting_on)} to bet (**Bet** or **Same bet**)"
    if phase is Phase.DOUBLING:
        return f"▶ The banker {banker_name} chooses: **Banker: double** or **Banker: no double**"
    if phase is Phase.SHOOTING:
        return f"▶ {names(waiting_on)} to shoot or pass (**Shoot**, 0 to pass)"
    if phase is Phase.PLAYING and turn is not None:
        seat, hand_index = turn
        hand_note = f" (hand {hand_index + 1})" if hand_index else ""
        return f"▶ Turn: **{name(seat)}**{hand_note} — their move"
    if phase is Phase.BANKER:
        return f"▶ Turn: **the banker** ({banker_name}) — **Banker: twist** or **Banker: stay**"
    return f"▶ {names(waiting_on)} to act" if waiting_on else ""


def table_text(
    view: TableView,
    rules: PontoonRules,
    name: Namer,
    *,
    seconds_left: float | None = None,
    deadline_epoch: int | None = None,
    closed_reason: str | None = None,
    waiting_on: Sequence[str] = (),
    dealer: str | None = None,
    log: Sequence[str] = (),
) -> TableText:
    """The public table message: whose move it is, the countdown, seats, stakes, face-up
    cards, and the round's moves so far."""
    phase = view.phase
    banker = view.banker
    turn = view.turn
    kitty = view.kitty
    round_no = view.round_no
    title = "Pontoon table" + (" (Shoot Pontoon)" if rules.shoot else "")
    if closed_reason is not None:
        return TableText(
            title + " — closed", shorten(f"This table is closed: {closed_reason}.", 4000), [], ""
        ).fitted()
    lines = [PHASE_TEXT.get(phase, phase.value)]
    move = whose_move(phase, name, banker=banker, turn=turn, waiting_on=waiting_on, dealer=dealer)
    if move:
        lines.append(move)
    if deadline_epoch is not None:
        lines.append(f"⏱ Time runs out <t:{deadline_epoch}:R>")
    elif seconds_left is not None:
        lines.append(f"⏱ {int(seconds_left)} s to act")
    if banker == HOUSE:
        lines.append("🏦 The house banks this table.")
    elif banker is not None:
        lines.append(f"🏦 Banker: **{name(banker)}**")
    else:
        lines.append("🏦 No banker yet: the first deal cuts for the bank (P-BANK-1).")
    if rules.shoot:
        lines.append(f"💰 Kitty: {kitty}")
    lines.append(f"Bets {rules.min_bet}–{rules.max_bet} · round {round_no}")
    if view.needs_shuffle and phase is Phase.WAITING:
        lines.append("🔀 The pack will be shuffled before the next deal (P-NEXT-1).")
    fields: list[tuple[str, str]] = []
    for seat_view in view.seats:
        seat = seat_view.seat
        if seat == banker:
            continue
        hands = seat_view.hands
        balance = seat_view.balance
        head = f"{name(seat)} — {balance} chips"
        if seat_view.sitting_out:
            body = "no bet in time — sits this round out"
        elif hands:
            body = "\n".join(
                (f"Hand {i + 1}: " if len(hands) > 1 else "") + hand_line(h)
                for i, h in enumerate(hands)
            )
        else:
            body = "seated"
        fields.append((head, body))
    banker_hand = view.banker_hand
    if banker is not None:
        banker_chips = next((s.balance for s in view.seats if s.seat == banker), None)
        head = "Banker (the house)" if banker == HOUSE else f"Banker {name(banker)}"
        if banker_chips is not None:
            head += f" — {banker_chips} chips"
        body = hand_line(banker_hand) if banker_hand is not None else "—"
        fields.append((head, body))
    if log:
        fields.append((LOG_TITLE, log_text(log)))
    footer = "Face-down cards come by DM — or press Show my cards."
    return TableText(title, "\n".join(lines), fields, footer).fitted()


def log_text(lines: Sequence[str], limit: int = FIELD_VALUE_MAX) -> str:
    """The newest lines of a round's log that fit in one embed field."""
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


def timed_out_line(ev: Event, name: Namer, banker: str | None) -> str | None:
    """A move the timer made for someone, said so."""
    who = "The banker" if ev.seat is not None and ev.seat == banker else name(ev.seat or "?")
    k = ev.kind
    if k is EventKind.STUCK:
        return f"⏱ {who}: timed out — stuck for you"
    if k is EventKind.TWISTED:
        return f"⏱ {who}: timed out — twisted for you {cards_text(ev.cards)}" + (
            f" — {ev.total}" if ev.total else ""
        )
    if k is EventKind.BANKER_STAYS:
        return f"⏱ The banker timed out — stays on {ev.total}"
    if k is EventKind.DECLARED:
        return f"⏱ {who}: timed out — pontoon declared for you {cards_text(ev.cards)}"
    if k is EventKind.SHOOT and not ev.amount:
        return f"⏱ {who}: timed out — no shoot bet for you"
    return None


def event_line(ev: Event, name: Namer, banker: str | None) -> str | None:
    """A public event as one line of the play log, or None for events not worth a post."""
    who = "The banker" if ev.seat is not None and ev.seat == banker else name(ev.seat or "?")
    hand = f" (hand {ev.hand + 1})" if ev.hand else ""
    k = ev.kind
    cards = cards_text(ev.cards) if ev.cards else ""
    if k is EventKind.CUT_CARD:
        return f"✂️ {name(ev.seat or '?')} cuts {cards}"
    if k is EventKind.BANKER_CHOSEN:
        return f"🏦 {name(ev.seat or '?')} takes the bank (P-BANK-1)."
    if k is EventKind.SHUFFLED:
        return "🔀 The pack is shuffled and cut."
    if k is EventKind.BANKER_PONTOON:
        return f"💥 The banker has a **pontoon** {cards}! Everyone pays double (P-DEAL-4)."
    if k is EventKind.DECLARED:
        return f"🃏 {who} declares a **pontoon** {cards}{hand}"
    if k is EventKind.SPLIT:
        return f"✌️ {who} splits {cards}"
    if k is EventKind.BOUGHT:
        return f"💵 {who} buys a card for {ev.amount}{hand}"
    if k is EventKind.TWISTED:
        return f"🔄 {who} twists {cards}{hand}" + (f" — {ev.total}" if ev.total else "")
    if k is EventKind.BURNED:
        return f"🔥 {who} burns {cards}{hand}"
    if k is EventKind.STUCK:
        return f"✋ {who} sticks{hand}"
    if k is EventKind.BUST:
        return f"💀 {who} is **bust** {cards}{hand}" + (f" ({ev.total})" if ev.total else "")
    if k is EventKind.FIVE_CARD_TRICK:
        return f"🖐 {who} has a **five card trick**{hand}"
    if k is EventKind.TWENTY_ONE:
        return f"🎯 {who} has **21**{hand}"
    if k is EventKind.BANKER_REVEAL:
        return f"🏦 The banker turns over {cards}" + (f" — {ev.total}" if ev.total else "")
    if k is EventKind.BANKER_DRAW:
        return f"🏦 The banker draws {cards}" + (f" — {ev.total}" if ev.total else "")
    if k is EventKind.BANKER_STAYS:
        return f"🏦 The banker stays on {ev.total} — paying {int(ev.total or 0) + 1}"
    if k is EventKind.DOUBLED:
        return "✖️2 The banker doubles all bets (P-VAR-3)."
    if k is EventKind.SHOOT and ev.amount:
        return f"🎯 {who} shoots {ev.amount} against the kitty{hand}"
    if k is EventKind.KITTY:
        return f"💰 Kitty: {ev.detail or ''} {ev.amount or ''}".rstrip()
    if k is EventKind.BANK_PASSES:
        return f"🏦 The bank passes to **{name(ev.seat or '?')}** {ev.detail}".rstrip()
    if k is EventKind.BANK_SOLD:
        return f"🤝 **{name(ev.seat or '?')}** buys the bank for {ev.amount}."
    return None


def result_line(ev: Event, name: Namer) -> str:
    """A HAND_RESULT event: cards, result, chips won or lost."""
    hand = f" (hand {ev.hand + 1})" if ev.hand else ""
    net = ev.amount or 0
    sign = f"+{net}" if net > 0 else str(net)
    total = f" = {ev.total}" if ev.total is not None else ""
    return f"{name(ev.seat or '?')}{hand}: {cards_text(ev.cards)}{total} — {ev.detail} ({sign})"


def private_card_line(ev: Event) -> str | None:
    """A private CARD_DEALT event for its holder, or None when it shows no card (the
    banker's own first card stays unseen, P-DEAL-1)."""
    if not ev.cards:
        return None
    hand = f" (hand {ev.hand + 1})" if ev.hand else ""
    plural = "s" if len(ev.cards) > 1 else ""
    return f"Your face-down card{plural}{hand}: **{cards_text(ev.cards)}**"


PONTOON_PAYS_TEXT = {
    "double": "double (a banker's pontoon collects double)",
    "single": "single, even money (a banker's pontoon collects single)",
    "triple": "triple (a banker's pontoon collects triple)",
    "players_double_banker_single": "double to players; the banker's pontoon collects single",
}


def form_title(title: str, hands: Sequence[HandView]) -> str:
    """A form's title with the member's own cards, when they fit (45 characters)."""
    if not hands or not hands[0].cards:
        return title
    cards = " ".join(cards_text(h.cards) for h in hands)
    full = f"{title} — your cards: {cards}"
    return full if len(full) <= 45 else title


def rules_text(rules: PontoonRules) -> str:
    """The table's rules in plain words (for /pontoon rules)."""
    lines = [
        f"• Bets {rules.min_bet}–{rules.max_bet} chips (P-TABLE-2); "
        f"{rules.packs or 'one (two with 8+ players)'} pack(s) (P-TABLE-1).",
        "• Pontoon (ace + ten-card) beats a five card trick, which beats 21, then totals; "
        "the banker wins ties (P-RANK-1..6).",
        f"• Stick on {16 if rules.stick_on_16 else 15} or more "
        f"({'P-VAR-2' if rules.stick_on_16 else 'P-STICK-1'}); buy a card for 1–2× your "
        "stake, then no more than the last buy (P-BUY-2/3); after a twist only twists (P-TWIST-2).",
        "• Split a pair of the same rank, up to four hands (P-SPLIT-1/2)"
        + (" — aces only (P-VAR-1)." if rules.split_aces_only else "."),
        f"• Pontoons are paid {PONTOON_PAYS_TEXT.get(rules.pontoon_pays, rules.pontoon_pays)} "
        "(P-VAR-4); five card tricks are always paid double (P-PAY-STAY).",
        "• A player's pontoon (not from a split) takes the bank (P-NEXT-2); a pontoon means "
        "a shuffle, otherwise used cards go to the bottom (P-NEXT-1).",
    ]
    if rules.banker_doubles:
        lines.append("• The banker may double all bets after seeing the first card (P-VAR-3).")
    if rules.no_buy_five_on_eleven:
        lines.append(
            "• With four cards totalling 11 or less, the fifth may only be twisted (P-VAR-5)."
        )
    if rules.royal_pontoon:
        lines.append("• Three sevens are a royal pontoon, paid triple (P-VAR-6).")
    if rules.pontoon_strength != "standard":
        lines.append(f"• Pontoon strength: {rules.pontoon_strength.replace('_', ' ')} (P-VAR-7).")
    if rules.burn != "off":
        lines.append(f"• A hard {rules.burn} may be burned for two new cards (P-VAR-8).")
    if rules.shoot:
        lines.append(
            f"• Shoot Pontoon: kitty {rules.kitty_min}–{rules.kitty_max}; shoot bets before the "
            "second and fourth cards (P-SHOOT-1..9)."
        )
    if rules.house_bank:
        lines.append(f"• The house banks and draws below {rules.house_stands_on}.")
    return "\n".join(lines)
