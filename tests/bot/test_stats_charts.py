"""/stats and the charts: the ledger's history of a member, the charts
as PNGs, and the words beside them in every language."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from bot import charts
from bot.i18n import LOCALES
from bot.storage import Store, member_account
from bot.storage.history import BalancePoint, ChipHistory, GameNet
from cogs.punto_banco.odds_chart import odds_png
from cogs.stats import date_text, leaderboard_png, stats_caption, stats_png
from engine.pontoon.types import ESCROW, HOUSE, Transfer
from engine.punto_banco import PuntoBancoRules

G, CH = 111, 555
ALICE, BOB = 1001, 1002
A, B = str(ALICE), str(BOB)


async def test_chip_history_rebuilds_the_balance_and_each_games_net(store: Store) -> None:
    await store.ensure_member(G, ALICE, 1000)
    await store.ensure_member(G, BOB, 1000)
    # a Pontoon table: alice stakes 10 and wins 10 from bob the banker
    await store.save_table("t1", G, CH, "pontoon", "{}", 1, None, [Transfer(A, ESCROW, 10, "bet")])
    await store.save_table(
        "t1",
        G,
        CH,
        "pontoon",
        "{}",
        2,
        None,
        [Transfer(ESCROW, A, 10, "stake returned"), Transfer(B, A, 10, "win")],
    )
    await store.close_table("t1")
    # a Punto Banco table: alice loses 25 to the house
    await store.save_table(
        "t2", G, CH + 1, "punto_banco", "{}", 1, None, [Transfer(A, ESCROW, 25, "banco bet")]
    )
    await store.save_table(
        "t2", G, CH + 1, "punto_banco", "{}", 2, None, [Transfer(ESCROW, HOUSE, 25, "lost")]
    )
    history = await store.chip_history(member_account(G, ALICE))
    balances = [p.balance for p in history.points]
    assert balances == [1000, 990, 1010, 985], balances
    assert balances[-1] == await store.member_balance(G, ALICE) == 985
    assert [p.ts for p in history.points] == sorted(p.ts for p in history.points)
    assert {(g.game, g.net, g.tables) for g in history.games} == {
        ("pontoon", 10, 1),
        ("punto_banco", -25, 1),
    }
    bob = await store.chip_history(member_account(G, BOB))
    assert [p.balance for p in bob.points][-1] == 990
    empty = await store.chip_history(member_account(G, 4242))
    assert empty.points == [] and empty.games == []


def year(n: int = 7300) -> ChipHistory:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    points = [
        BalancePoint(start + timedelta(hours=1.2 * i), 1000 + (i * 37) % 500) for i in range(n)
    ]
    return ChipHistory(points, [GameNet("pontoon", -120, 4), GameNet("punto_banco", 80, 2)])


def is_png(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data)).size


@pytest.mark.parametrize("locale", LOCALES)
def test_the_charts_are_pngs_in_every_language(locale: str) -> None:
    assert is_png(stats_png(year(), locale)) == (800, 360)
    assert is_png(stats_png(ChipHistory(year(1).points, []), locale))
    assert is_png(leaderboard_png([5000, 1200, 3], locale))
    assert is_png(odds_png(PuntoBancoRules(), locale))
    # the same chart twice is the same picture
    assert odds_png(PuntoBancoRules(), locale) == odds_png(PuntoBancoRules(), locale)


def test_thinning_keeps_the_extremes_and_the_last_point() -> None:
    pts = [(datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=i), i % 97) for i in range(10_000)]
    thin = charts.thin(pts)
    assert len(thin) <= 820 and thin[-1] == pts[-1]
    assert min(v for _, v in thin) == 0 and max(v for _, v in thin) == 96
    assert [t for t, _ in thin] == sorted(t for t, _ in thin)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_words_beside_the_chart_are_translated_and_name_no_rules(locale: str) -> None:
    text = stats_caption(locale, "alice", year(), 1234)
    assert "alice" in text and "Pontoon" in text and "Punto Banco" in text
    assert not re.search(r"\b[PB]-[A-Z]+-\d", text)  # no rule ids for players
    if locale != "en":
        assert text != stats_caption("en", "alice", year(), 1234)
    assert re.fullmatch(r"[\d./-]+", date_text(locale, datetime(2026, 3, 5).date()))


def test_a_short_history_gets_one_date_tick_per_day() -> None:
    # a one-day /stats chart wrote "11/28/2026" under four hourly ticks
    day = datetime(2026, 11, 28, tzinfo=UTC).timestamp() / 86_400
    hours = [day + h / 24 for h in (9, 11, 14, 20)]
    ticks = charts.day_ticks(hours)
    assert ticks is not None and len(ticks) == 1 and hours[0] <= ticks[0] <= hours[-1]
    two = charts.day_ticks([day + 0.9, day + 1.2])
    assert two is not None and len(two) == 2 and int(two[0]) != int(two[1])
    assert charts.day_ticks([day, day + 30]) is None  # a month: matplotlib's own ticks
