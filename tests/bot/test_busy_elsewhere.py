"""A member seated at a Pontoon table (nothing staked yet) who bets at Punto Banco is
refused with the Pontoon table's channel named and in words that say a seat counts,
before the bet form opens."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.errors import BusyElsewhere
from bot.host import together
from bot.i18n import LOCALES, t
from bot.pontoon import PontoonService, PontoonTimers
from bot.punto_banco import PuntoBancoService
from bot.storage import Store
from cogs.punto_banco import controls
from cogs.router import refuse
from engine.cards import RandomChance
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from engine.punto_banco import PuntoBancoRules

G, CH_PONTOON, CH_PB = 1, 10, 20
ANN, BOB = 100, 200


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "busy.sqlite3")
    yield s
    await s.close()


async def test_a_seat_at_pontoon_is_named_before_the_punto_banco_form(store: Store) -> None:
    pontoon = PontoonService(
        store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
    )
    bacc = PuntoBancoService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    untie = together(pontoon, bacc)
    try:
        table = await pontoon.open_table(G, CH_PONTOON, ANN, PontoonRules())
        await pontoon.act(table.table_id, BOB, ActionKind.JOIN)
        live = await bacc.open_table(G, CH_PB, ANN, PuntoBancoRules())
        with pytest.raises(BusyElsewhere) as refused:
            await bacc.bet(live.table_id, BOB, "punto", 10)
        assert refused.value.key == "err.busy_elsewhere.at"
        for locale in LOCALES:
            said = refused.value.localized(locale)
            assert f"<#{CH_PONTOON}>" in said, (locale, said)
            assert said != t(locale, "err.busy_elsewhere")

        # the Punto button: refused at the click, no form
        answers: list[str] = []
        modals: list[Any] = []

        async def send_message(text: str, **kwargs: Any) -> None:
            answers.append(text)

        async def send_modal(modal: Any) -> None:
            modals.append(modal)

        bot: Any = SimpleNamespace(games={"punto_banco": bacc}, languages=None)
        interaction: Any = SimpleNamespace(
            client=bot,
            user=SimpleNamespace(id=BOB, display_name="bob"),
            locale="en-US",
            guild_locale="en-US",
            guild_id=G,
            response=SimpleNamespace(
                is_done=lambda: False, send_message=send_message, send_modal=send_modal
            ),
        )
        try:  # as the button's callback does: a refusal goes to the one error handler
            await controls.handle_button(interaction, live.table_id, "punto", live.round)
        except Exception as exc:
            await refuse(interaction, exc, by=controls.PuntoBancoButton)
        assert modals == []
        assert answers and f"<#{CH_PONTOON}>" in answers[-1], answers
        assert live.engine.bets == []
    finally:
        untie()
        await pontoon.shutdown()
        await bacc.shutdown()


def _interaction(games: dict[str, Any], user_id: int) -> tuple[Any, list[str], list[Any]]:
    """A click's interaction whose private answers and forms are recorded."""
    answers: list[str] = []
    modals: list[Any] = []

    async def send_message(text: str, **kwargs: Any) -> None:
        answers.append(text)

    async def send_modal(modal: Any) -> None:
        modals.append(modal)

    bot: Any = SimpleNamespace(games=games, languages=None)
    interaction: Any = SimpleNamespace(
        client=bot,
        user=SimpleNamespace(id=user_id, display_name=str(user_id)),
        locale="en-US",
        guild_locale="en-US",
        guild_id=G,
        response=SimpleNamespace(
            is_done=lambda: False, send_message=send_message, send_modal=send_modal
        ),
    )
    return interaction, answers, modals


async def test_one_seat_per_server_whatever_the_game(store: Store) -> None:
    """Newcomer review N-10: one rule for every game. A seat counts, with or without a
    bet: a Blackjack seat blocks a Pontoon seat and a Punto Banco bet, as a Pontoon seat
    blocks the others; leaving frees the member at once."""
    from bot.blackjack import BlackjackService
    from engine.blackjack import BlackjackRules

    pontoon = PontoonService(
        store, chance=RandomChance(random.Random(1)), timers=PontoonTimers(600, 600, 600)
    )
    bacc = PuntoBancoService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    bj = BlackjackService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    untie = together(pontoon, bacc, bj)
    CH_BJ = 30
    try:
        bj_live = await bj.open_table(G, CH_BJ, ANN, BlackjackRules())
        await bj.join(bj_live.table_id, BOB)  # seated, nothing staked
        pt_live = await pontoon.open_table(G, CH_PONTOON, ANN, PontoonRules())
        pb_live = await bacc.open_table(G, CH_PB, ANN, PuntoBancoRules())
        with pytest.raises(BusyElsewhere) as refused:
            await pontoon.act(pt_live.table_id, BOB, ActionKind.JOIN)
        assert f"<#{CH_BJ}>" in refused.value.localized("en")
        with pytest.raises(BusyElsewhere):
            await bacc.bet(pb_live.table_id, BOB, "punto", 10)
        assert str(BOB) not in pt_live.engine.seats and pb_live.engine.bets == []
        # a Pontoon seat blocks a Blackjack seat the same way
        await pontoon.act(pt_live.table_id, 300, ActionKind.JOIN)
        with pytest.raises(BusyElsewhere):
            await bj.join(bj_live.table_id, 300)
        # leaving the Blackjack seat frees bob for another table
        await bj.leave(bj_live.table_id, BOB)
        await pontoon.act(pt_live.table_id, BOB, ActionKind.JOIN)
        assert str(BOB) in pt_live.engine.seats
    finally:
        untie()
        await pontoon.shutdown()
        await bacc.shutdown()
        await bj.shutdown()


async def test_the_blackjack_bet_button_refuses_at_the_click_not_after_the_form(
    store: Store,
) -> None:
    """The Bet button opens its form only for a member who may bet here: seated, with no
    bet at another table; anyone else is refused at the click (N-10)."""
    from bot.blackjack import BlackjackService
    from cogs.blackjack import controls as bj_controls
    from engine.blackjack import BlackjackRules

    bacc = PuntoBancoService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    bj = BlackjackService(store, chance=RandomChance(random.Random(1)), run_timers=False)
    untie = together(bacc, bj)
    games = {"punto_banco": bacc, "blackjack": bj}
    try:
        bj_live = await bj.open_table(G, 30, ANN, BlackjackRules())
        pb_live = await bacc.open_table(G, CH_PB, ANN, PuntoBancoRules())

        async def press(user_id: int) -> tuple[list[str], list[Any]]:
            interaction, answers, modals = _interaction(games, user_id)
            try:
                await bj_controls.handle_button(interaction, bj_live.table_id, "bet", 1)
            except Exception as exc:
                await refuse(interaction, exc, by=bj_controls.BlackjackButton)
            return answers, modals

        answers, modals = await press(BOB)  # not seated
        assert modals == [] and "not seated" in answers[-1], answers
        await bj.join(bj_live.table_id, ANN)
        answers, modals = await press(ANN)  # seated, free: the form opens
        assert answers == [] and len(modals) == 1
        # a seat here makes a Punto Banco bet impossible; a bet there, a seat here
        await bacc.bet(pb_live.table_id, BOB, "punto", 10)
        with pytest.raises(BusyElsewhere):
            await bj.join(bj_live.table_id, BOB)
        assert bj_live.engine.bets == {}
    finally:
        untie()
        await bacc.shutdown()
        await bj.shutdown()
