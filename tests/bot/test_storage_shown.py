"""Which table version each table message was confirmed to show (migration 012), and the
countdown it shows (013): what a restart reads back from Discord is the open tables not
confirmed, and a confirmed table resumes the countdown its message shows."""

from __future__ import annotations

from bot.storage import ShownMessage, Store

G, CH = 111, 555


async def _save(
    store: Store, table_id: str, version: int, channel: int = CH, message: int | None = None
) -> None:
    state = f'{{"v": {version}}}'
    await store.save_table(table_id, G, channel, "pontoon", state, version, message, [], "saved")


async def confirmed(store: Store) -> set[str]:
    """The open tables whose message was confirmed to show their stored version."""
    return set(await store.confirmed_shown())


async def test_a_confirmed_message_stays_confirmed_until_the_table_changes(store: Store) -> None:
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    assert await confirmed(store) == set()  # no message yet
    await store.set_table_message("t1", 10)
    await store.set_table_message("t2", 20)
    assert await confirmed(store) == set()  # posted, never confirmed
    await store.confirm_shown([("t1", 10, 1), ("t2", 20, 1)])
    assert await confirmed(store) == {"t1", "t2"}
    # a new version is saved: its message may not show it yet
    await _save(store, "t2", 2, 2, message=20)
    assert await confirmed(store) == {"t1"}
    # a confirmation of an older version confirms nothing
    await store.confirm_shown([("t2", 20, 1)])
    assert await confirmed(store) == {"t1"}
    await store.confirm_shown([("t2", 20, 2)])
    assert await confirmed(store) == {"t1", "t2"}


async def test_a_new_message_or_a_closed_table_is_not_confirmed(store: Store) -> None:
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    await store.set_table_message("t1", 10)
    await store.set_table_message("t2", 20)
    await store.confirm_shown([("t1", 10, 1), ("t2", 20, 1)])
    # the table moved to a new message: what the old one showed says nothing of it
    await store.set_table_message("t1", 11)
    assert await confirmed(store) == {"t2"}
    # a confirmation for the old message (written late) is not taken for the new one
    await store.confirm_shown([("t1", 10, 1)])
    assert await confirmed(store) == {"t2"}
    await store.close_table("t2")
    assert await confirmed(store) == set()
    await store.confirm_shown([])  # nothing to write: no error


async def test_the_countdown_a_message_shows_is_kept_with_its_version(store: Store) -> None:
    """Migration 013: with the version its message shows, the moment (epoch seconds) that
    message counts down to; a reload reads both with the table."""
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    await _save(store, "t3", 1, 3)
    for table_id, message in (("t1", 10), ("t2", 20), ("t3", 30)):
        await store.set_table_message(table_id, message)
    await store.confirm_shown(
        [
            ShownMessage("t1", 10, 1, 1_900_000_123.0),
            ShownMessage("t2", 20, 1, None),  # no countdown shown
            ("t3", 30, 1),  # said without a countdown: none
        ]
    )
    assert await store.confirmed_shown() == {"t1": 1_900_000_123.0, "t2": None, "t3": None}
    assert await confirmed(store) == {"t1", "t2", "t3"}
    loaded = {rec.table_id: rec for rec in await store.load_open_tables()}
    assert (loaded["t1"].shown_version, loaded["t1"].shown_deadline) == (1, 1_900_000_123.0)
    assert loaded["t1"].shows_its_version and loaded["t2"].shows_its_version
    assert loaded["t2"].shown_deadline is None
    # a later confirmation of the same version replaces the countdown (a new one shown)
    await store.confirm_shown([ShownMessage("t2", 20, 1, 1_900_000_456.5)])
    assert (await store.confirmed_shown())["t2"] == 1_900_000_456.5


async def test_a_countdown_goes_with_the_version_and_the_message_it_was_seen_on(
    store: Store,
) -> None:
    await _save(store, "t1", 1, 1)
    await _save(store, "t2", 1, 2)
    await store.set_table_message("t1", 10)
    await store.set_table_message("t2", 20)
    await store.confirm_shown(
        [ShownMessage("t1", 10, 1, 1_900_000_000.0), ShownMessage("t2", 20, 1, 1_900_000_001.0)]
    )
    # a new version: the table is not confirmed, whatever countdown is stored
    await _save(store, "t1", 2, 1, message=10)
    assert await store.confirmed_shown() == {"t2": 1_900_000_001.0}
    (rec,) = [r for r in await store.load_open_tables() if r.table_id == "t1"]
    assert not rec.shows_its_version
    # a new message clears both: nothing is known of what it shows
    await store.set_table_message("t2", 21)
    assert await store.confirmed_shown() == {}
    (rec,) = [r for r in await store.load_open_tables() if r.table_id == "t2"]
    assert (rec.shown_version, rec.shown_deadline) == (None, None)
    # a confirmation written late for the old message changes nothing
    await store.confirm_shown([ShownMessage("t2", 20, 1, 1_900_000_002.0)])
    assert await store.confirmed_shown() == {}
    # a table read on its own (not a reload) carries nothing of its message
    got = await store.get_table("t1")
    assert got is not None and got.shown_version is None and got.shown_deadline is None
