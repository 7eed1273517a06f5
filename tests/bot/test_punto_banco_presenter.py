"""The Punto Banco presenter's text builders (no Discord connection needed)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.punto_banco import OpenPuntoBancoTable, PuntoBancoService
from bot.storage import GuildSettings, Store
from cogs.punto_banco.controls import BUTTON_ID, PuntoBancoButton, betting_rows
from cogs.punto_banco.presenter import PuntoBancoPresenter, betting_parts, summary_embed
from cogs.punto_banco.text import banco_note, deal_text, odds_text
from engine.cards import RandomChance, parse_cards
from engine.punto_banco import (
    Bet,
    BetOutcome,
    BetResult,
    CoupResult,
    PuntoBancoRules,
    PuntoBancoTable,
    Settlement,
    Side,
    exact_odds,
    play_cards,
)


def table(rules: PuntoBancoRules | None = None) -> OpenPuntoBancoTable:
    return OpenPuntoBancoTable(
        table_id="abc123",
        guild_id=1,
        channel_id=2,
        opener_id=3,
        engine=PuntoBancoTable(rules or PuntoBancoRules()),
        betting_seconds=20,
        closes_at=1_800_000_000.0,
        names={"10": "alice", "11": "bob"},
    )


def coup_result(cards: str, bets: list[tuple[str, Side, int]]) -> CoupResult:
    from engine.punto_banco import settle

    coup = play_cards(parse_cards(cards.split()))
    settlement = settle([Bet(b, s, a) for b, s, a in bets], coup.winner, PuntoBancoRules())
    return CoupResult(1, False, coup, settlement)


@pytest.mark.rule("B-DEAL-1")
def test_the_coup_is_shown_card_by_card() -> None:
    # Punto 2+3=5 draws a 4 -> 9; Banco 6+K=6 stands on a Punto third card of 4 (B-BANCO-2)
    result = coup_result("2H 6S 3D KC 4S", [])
    assert [s for s, _ in result.coup.dealt] == [
        Side.PUNTO,
        Side.BANCO,
        Side.PUNTO,
        Side.BANCO,
        Side.PUNTO,
    ]
    first = deal_text(result, 1)
    assert "Punto: 2♥" in first and "Banco: —" in first and first.endswith("…")
    four = deal_text(result, 4)
    assert "Punto: 2♥  3♦   → **5**" in four and "Banco: 6♠  K♣   → **6**" in four
    assert "wins" not in four
    last = deal_text(result, 5)
    assert "Punto: 2♥  3♦  4♠   → **9**" in last
    assert "Punto draws a third card on 5." in last
    assert "Banco stands on 6." in last
    assert "**Punto wins**, 9 to 6." in last


@pytest.mark.rule("B-TIE-1")
def test_an_egalite_is_announced_with_the_returned_bets() -> None:
    result = coup_result("9H 9S KD KC", [("10", Side.PUNTO, 5)])
    text = deal_text(result, 4)
    assert "natural" in text and "**Egalité** 9–9" in text and "returned" in text


@pytest.mark.rule("B-WIN-1")
def test_banco_rounding_is_explained() -> None:
    rules = PuntoBancoRules()
    assert banco_note(rules, 20, 19) == " (5% commission: 1)"
    assert banco_note(rules, 10, 9) == " (10 × 95% = 9.5, rounded down to 9)"
    assert banco_note(rules, 1, 0) == " (1 × 95% = 0.95, rounded down to 0)"


@pytest.mark.rule("B-WIN-1")
def test_the_summary_lists_each_bettor_with_net_and_balance() -> None:
    live = table()
    # Banco 7+K=7 vs Punto 3+3=6 stands (B-PUNTO-1: 6 stands), Banco stands on 7
    result = coup_result(
        "3H 7S 3D KC", [("10", Side.BANCO, 10), ("10", Side.EGALITE, 2), ("11", Side.PUNTO, 20)]
    )
    assert result.coup.winner is Side.BANCO
    em = summary_embed(live, result, {"10": 1007, "11": 980})
    # under the coup's post, which has just shown the hands and the result: payouts only
    assert em.title == "Coup #1: payouts"
    text = em.description or ""
    assert "Banco wins" not in text and "→ 7" not in text and "Punto 3" not in text
    assert (
        "alice: Banco 10: **won +9** (10 × 95% = 9.5, rounded down to 9); Egalité 2: lost −2"
        " → net +7, balance 1,007" in text
    )
    assert "bob: Punto 20: lost −20 → net −20, balance 980" in text
    assert em.footer.text == "The house took 13 this coup."


def test_a_missed_result_after_a_restart_is_labelled() -> None:
    results = (BetResult(Bet("11", Side.PUNTO, 5), BetOutcome.PUSH, 0),)
    coup = play_cards(parse_cards(["9H", "9S", "KD", "KC"]))
    em = summary_embed(
        table(), CoupResult(4, False, coup, Settlement(results, ())), {"11": 100}, late=True
    )
    assert "Coup #4: Egalité 9–9" in (em.title or "") and "restart" in (em.title or "")
    assert "bob: Punto 5: returned on the Egalité (±0)" in (em.description or "")


def test_betting_message_shows_bets_deadline_and_buttons() -> None:
    live = table(PuntoBancoRules(packs=6, tableau="standard", min_bet=2, max_bet=50))
    live.engine.place_bet("10", Side.BANCO, 20)
    live.engine.place_bet("11", Side.EGALITE, 3)
    parts = betting_parts(live, idle_windows=2)
    assert parts.title == "Punto Banco — coup #1"
    assert "<t:1800000000:R>" in parts.status
    assert parts.bets_head == "Bets (Punto 0 · Banco 20 · Egalité 3)"
    assert "\n".join(parts.bets) == "alice: Banco 20\nbob: Egalité 3"
    assert parts.commission is not None and "multiples of 20" in parts.commission[1]
    footer = parts.footer
    assert "6 packs · casino standard drawing rules · bets 2–50" in footer
    assert "seed" not in footer and "tableau" not in footer  # no internal names
    ids = [b.item.custom_id for row in betting_rows(live) for b in row.children]
    assert ids[:3] == ["pb:abc123:punto:1", "pb:abc123:banco:1", "pb:abc123:egalite:1"]
    assert all(BUTTON_ID.fullmatch(str(i)) for i in ids)
    closed = betting_rows(live, closed=True, round_no=1)
    buttons = [c.item for row in closed for c in row.children if isinstance(c, PuntoBancoButton)]
    assert [b.label for b in buttons if not b.disabled] == ["Odds"]


def test_only_the_last_empty_window_warns_that_the_table_will_close() -> None:
    """The warning comes in the window that closes the table if nobody bets in it, not
    after every empty one (it read as if the coup before, with its bets, had none)."""
    live = table()
    live.empty_windows = 1
    last = "the table closes if this betting window ends with no bet"
    assert last in betting_parts(live, idle_windows=2).status
    assert last not in betting_parts(live, idle_windows=30).status
    live.empty_windows = 29
    assert last in betting_parts(live, idle_windows=30).status
    live.empty_windows = 0
    assert last not in betting_parts(live, idle_windows=2).status


def test_an_idle_table_lives_minutes_not_two_windows() -> None:
    from cogs.punto_banco.settings import PuntoBancoSettings

    timers = PuntoBancoSettings(_env_file=None).timers()
    assert timers.betting_seconds * timers.idle_windows >= 10 * 60  # ten minutes by default
    short = PuntoBancoSettings(_env_file=None, betting_seconds=6, idle_minutes=0.2).timers()
    assert short.idle_windows == 2


def test_odds_text_uses_the_engines_exact_figures() -> None:
    rules = PuntoBancoRules(packs=8, tableau="standard")
    odds = exact_odds(8, "standard")
    text = odds_text(rules)
    assert f"Banco wins {float(odds.banco) * 100:.2f}%" in text
    assert f"Egalité {float(odds.tie) * 100:.2f}%" in text
    edges = odds.edges(rules)
    assert f"Banco {float(edges['banco']) * 100:.3f}%" in text
    assert "1.058%" in text or "1.06" in text  # the published 8-deck Banco edge
    one_chip = odds.edges_for_stake(rules, 1)["banco"]
    assert f"1: {float(one_chip) * 100:.2f}% (a win pays 0)" in text
    assert "rounded down" in text and "multiples of 20" in text
    small = odds_text(PuntoBancoRules(min_bet=5, max_bet=10))
    assert "largest bet is below 20" in small and "multiples of 20" not in small


def test_odds_text_for_the_shoe_as_it_stands() -> None:
    t = PuntoBancoTable(PuntoBancoRules())
    t.deal(RandomChance(random.Random(5)))
    text = odds_text(t.rules, t.shoe)
    assert f"This shoe now ({len(t.shoe)} cards left)" in text
    assert "This shoe now" not in odds_text(t.rules, PuntoBancoTable().shoe)  # empty: no odds


# ------------------------------------------------------------ the presenter, stubbed
def shown(version: dict[str, object]) -> str:
    """The texts of a layout message as sent (its view's text displays)."""
    from localdiscord.models import TEXT_DISPLAY, walk_components

    view = version["view"]
    comps = view.to_components()  # type: ignore[attr-defined]
    return "\n".join(c["content"] for c in walk_components(comps) if c["type"] == TEXT_DISPLAY)


class StubMessage:
    def __init__(self, channel: StubChannel, mid: int, **kw: object) -> None:
        self.channel = channel
        self.id = mid
        self.versions: list[dict[str, object]] = [kw]

    async def edit(self, **kw: object) -> StubMessage:
        self.versions.append(kw)
        return self


class StubChannel:
    def __init__(self) -> None:
        self.messages: dict[int, StubMessage] = {}

    async def send(self, content: str | None = None, **kw: object) -> StubMessage:
        msg = StubMessage(self, 1000 + len(self.messages), content=content, **kw)
        self.messages[msg.id] = msg
        return msg

    def get_partial_message(self, mid: int) -> StubMessage:
        return self.messages[mid]


class StubBot:
    def __init__(self) -> None:
        self.channel = StubChannel()

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> StubChannel:
        return self.channel


async def test_presenter_deals_card_by_card_and_reposts_a_missed_result(
    tmp_path: Path,
) -> None:
    bot = StubBot()
    store = await Store.open(tmp_path / "p.sqlite3", defaults=GuildSettings(starting_chips=100))
    try:
        service = PuntoBancoService(store, chance=RandomChance(random.Random(0)), run_timers=False)
        presenter = PuntoBancoPresenter(bot, service, card_delay=0.001)  # type: ignore[arg-type]
        service.subscribe(presenter.on_change)  # as start-up does
        live = await service.open_table(1, 2, 10, PuntoBancoRules(), opener_name="alice")
        await service.delivered(live.table_id)
        first = live.message_id
        assert first is not None and (await store.get_table(live.table_id)).message_id == first  # type: ignore[union-attr]
        await service.bet(live.table_id, 10, "banco", 10, name="alice")
        await service.delivered(live.table_id)
        await presenter.messages.flush(live.table_id)  # no click: the writer edits
        table_msg = bot.channel.messages[first]
        assert "alice: Banco 10" in shown(table_msg.versions[-1])
        assert "embed" not in table_msg.versions[0]  # a layout: no embed
        result = await service.close_window(live.table_id)
        await service.delivered(live.table_id)
        assert result is not None and result.coup.winner is Side.BANCO
        sent = list(bot.channel.messages.values())
        deal = next(m for m in sent if str(m.versions[0].get("content", "")).startswith("**Coup"))
        # one edit per further card, then one with the payouts: the coup's one post
        assert len(deal.versions) == len(result.coup.dealt) + 1
        assert "Banco wins" in str(deal.versions[-1]["content"])
        summary = deal.versions[-1]["embed"]
        assert "Coup #1:" in str(summary.title)  # type: ignore[attr-defined]
        assert "rounded down to 9" in str(summary.description)  # type: ignore[attr-defined]
        assert not any(
            "Coup #1:" in str(getattr(m.versions[0].get("embed"), "title", "")) for m in sent
        )  # no second post for the payouts
        # the window's own message shows its bets, closed; a new message opens coup #2
        assert "coup #1" in shown(table_msg.versions[-1])
        assert "Coup #1**" not in shown(table_msg.versions[-1])  # no hands while closed
        assert live.message_id not in (None, first)
        second = shown(bot.channel.messages[live.message_id].versions[0])  # type: ignore[index]
        assert "coup #2" in second
        # the coup just shown: Punto's and Banco's hands as cards, with their totals
        assert "**Coup #1**" in second and "Punto:" in second and "Banco:" in second
        assert f"**{result.coup.banco_total}**" in second

        # a coup settled but not shown before a restart is posted late, then a new window
        live.announced = 0
        before = len(bot.channel.messages)
        await presenter.table_restored(live)
        late = list(bot.channel.messages.values())[before]
        assert "restart" in str(late.versions[0]["embed"].title)  # type: ignore[attr-defined]
        assert "balance 109" in str(late.versions[0]["embed"].description)  # type: ignore[attr-defined]
        assert live.announced == 1 and live.message_id == max(bot.channel.messages)
    finally:
        await store.close()


@pytest.mark.rule("B-TIE-1")
def test_a_persian_tie_payout_line_has_only_persian_digits_and_separators() -> None:
    # the review saw "(±۰); اگالیته ۱۰ ← خالص ±0": a Latin 0 and a Latin ";"
    live = table()
    result = coup_result("9H 9S KD KC", [("10", Side.PUNTO, 100), ("10", Side.EGALITE, 10)])
    em = summary_embed(live, result, {"10": 1180}, locale="fa")
    text = em.description or ""
    line = next(ln for ln in text.splitlines() if "alice" in ln)
    assert "؛" in line and "±۰" in line, line
    assert not re.search(r"[0-9;]", line), line


def test_a_late_summary_of_a_crowded_coup_fits_discords_embed_limits() -> None:
    """api-conformance F2: the hands line and ~40 bettors' payouts passed Discord's
    4,096-character description; the list is cut at a whole line, with "…"."""
    from localdiscord.limits import message_problems

    live = table()
    bettors = [str(100 + i) for i in range(45)]
    live.names.update({b: f"player-with-a-long-name-{b}-🂡🂱" for b in bettors})
    bets = [(b, side, 7) for b in bettors for side in (Side.BANCO, Side.EGALITE)]
    result = coup_result("3H 7S 3D KC", bets)
    balances = {b: 1_000_000 + i for i, b in enumerate(bettors)}
    for late in (False, True):
        em = summary_embed(live, result, balances, late=late)
        text = em.description or ""
        assert len(text) <= 3900 < 4096, late
        assert text.endswith("\n…") and "player-with-a-long-name-100-" in text
        assert re.search(r"balance [\d,]+$", text.split("\n")[-2])  # a whole line, then "…"
        assert message_problems("", [em.to_dict()], [], 0) == []
    small = summary_embed(live, coup_result("3H 7S 3D KC", bets[:4]), balances, late=True)
    assert not (small.description or "").endswith("…")
