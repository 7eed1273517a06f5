"""A table's save writes its chips-in-play rows only when the members with chips in play
there changed: a bet or a twist leaves them as they are (three statements fewer a click),
a Join or a Leave writes them, and the rows always match the table."""

from __future__ import annotations

from typing import Any

from bot.storage import Store
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind
from tests.bot.test_pontoon_service import ANN, BOB, CAT, CH, G, service


async def rows_in_play(store: Store, table_id: str) -> set[int]:
    found = await store._read(
        lambda con: con.execute(
            "SELECT user_id FROM chips_in_play WHERE table_id = ?", (table_id,)
        ).fetchall()
    )
    return {int(r[0]) for r in found}


async def test_chips_in_play_rows_are_written_when_the_members_change(store: Store) -> None:
    svc = service(store)
    written: list[Any] = []
    save = store.save_table

    async def saving(*args: Any, **kwargs: Any) -> None:
        written.append(kwargs.get("in_play"))
        await save(*args, **kwargs)

    store.save_table = saving  # type: ignore[method-assign]
    try:
        live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
        assert written == [{ANN}]
        await svc.act(live.table_id, BOB, ActionKind.JOIN)
        await svc.act(live.table_id, CAT, ActionKind.JOIN)
        assert written[1:] == [{ANN, BOB}, {ANN, BOB, CAT}]
        assert await rows_in_play(store, live.table_id) == {ANN, BOB, CAT}
        written.clear()
        await svc.act(live.table_id, CAT, ActionKind.LEAVE)
        assert written == [{ANN, BOB}]
        assert await rows_in_play(store, live.table_id) == {ANN, BOB}
        written.clear()
        await svc.deal(live.table_id, ANN)  # nobody comes or goes
        player = next(s for s in live.engine.to_act())
        await svc.act(live.table_id, int(player), ActionKind.BET, amount=5)
        assert len(written) >= 2 and all(w is None for w in written), written
        assert await rows_in_play(store, live.table_id) == {ANN, BOB}
    finally:
        await svc.shutdown()
