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
