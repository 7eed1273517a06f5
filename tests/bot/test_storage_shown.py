"""Which table version each table message was confirmed to show (migration 012): what a
restart reads back from Discord is the open tables not confirmed."""

from __future__ import annotations

from bot.storage import Store

G, CH = 111, 555


async def _save(
    store: Store, table_id: str, version: int, channel: int = CH, message: int | None = None
) -> None:
    state = f'{{"v": {version}}}'
    await store.save_table(table_id, G, channel, "pontoon", state, version, message, [], "saved")


async def test_a_confirmed_message_stays_confirmed_until_the_table_changes(store: Store) -> None:
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    assert await store.confirmed_tables() == set()  # no message yet
    await store.set_table_message("t1", 10)
    await store.set_table_message("t2", 20)
    assert await store.confirmed_tables() == set()  # posted, never confirmed
    await store.confirm_shown([("t1", 10, 1), ("t2", 20, 1)])
    assert await store.confirmed_tables() == {"t1", "t2"}
    # a new version is saved: its message may not show it yet
    await _save(store, "t2", 2, 2, message=20)
    assert await store.confirmed_tables() == {"t1"}
    # a confirmation of an older version confirms nothing
    await store.confirm_shown([("t2", 20, 1)])
    assert await store.confirmed_tables() == {"t1"}
    await store.confirm_shown([("t2", 20, 2)])
    assert await store.confirmed_tables() == {"t1", "t2"}


async def test_a_new_message_or_a_closed_table_is_not_confirmed(store: Store) -> None:
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    await store.set_table_message("t1", 10)
    await store.set_table_message("t2", 20)
    await store.confirm_shown([("t1", 10, 1), ("t2", 20, 1)])
    # the table moved to a new message: what the old one showed says nothing of it
    await store.set_table_message("t1", 11)
    assert await store.confirmed_tables() == {"t2"}
    # a confirmation for the old message (written late) is not taken for the new one
    await store.confirm_shown([("t1", 10, 1)])
    assert await store.confirmed_tables() == {"t2"}
    await store.close_table("t2")
    assert await store.confirmed_tables() == set()
    await store.confirm_shown([])  # nothing to write: no error
