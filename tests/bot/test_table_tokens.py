"""A table where the bot may only answer interactions (a group DM, a DM, a server where
only a member installed the app): the command that opens it answers with the table,
every later drawing and post goes through the freshest interaction token its clicks gave
(kept in the store), a table nobody touches closes before its last token expires, one
whose message can no longer be edited closes, and a restart goes on with the kept token
or closes the table when it has expired. The end-to-end side, through the fake Discord,
is tests/e2e/test_group_dm_e2e.py."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import Msg
from bot.storage import Store
from bot.storage.models import TableReply
from cogs import common
from cogs.common import PERSONAL_SCOPE, open_as_answer, where_to_open
from cogs.table_message import (
    CLOSE_BEFORE_EXPIRY_SECONDS,
    TOKEN_SECONDS,
    Click,
    Drawing,
    Reply,
    TableMessages,
    answered_in_time,
)

CHANNEL = 555
TABLE_MESSAGE = 9001


@dataclass
class Live:
    table_id: str
    message_id: int | None = None
    deadline: float | None = None
    store_version: int = 3
    guild_id: int = PERSONAL_SCOPE
    channel_id: int = CHANNEL


@dataclass
class Sent:
    """What the fake webhooks saw: (token, what, message id or None)."""

    calls: list[tuple[str, str, int | None]] = field(default_factory=list)
    refuse: int | None = None  # the status the next edit answers


class FakeWebhook:
    def __init__(self, token: str, sent: Sent) -> None:
        self.token = token
        self.sent = sent

    async def edit_message(self, message_id: int, **_: Any) -> Any:
        if self.sent.refuse is not None:
            status, self.sent.refuse = self.sent.refuse, None
            response = SimpleNamespace(status=status, reason="refused")
            raise discord.HTTPException(response, {"message": "refused", "code": 0})  # type: ignore[arg-type]
        self.sent.calls.append((self.token, "edit", message_id))
        return SimpleNamespace(id=message_id)

    async def send(self, **_: Any) -> Any:
        self.sent.calls.append((self.token, "follow-up", None))
        return SimpleNamespace(id=7000 + len(self.sent.calls))


class TokenStore:
    def __init__(self, kept: dict[str, TableReply] | None = None) -> None:
        self.kept = dict(kept or {})

    async def keep_replies(self, replies: list[TableReply]) -> None:
        for reply in replies:
            self.kept[reply.table_id] = reply

    async def table_replies(self) -> dict[str, TableReply]:
        return dict(self.kept)


class Response:
    def __init__(self, kind: discord.InteractionResponseType | None = None) -> None:
        self.type = kind
        self.deferred: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.type is not None

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)
        self.type = discord.InteractionResponseType.deferred_channel_message


def interaction(
    token: str,
    *,
    age: float = 0.0,
    message_id: int | None = None,
    installed: bool = False,
    answered: discord.InteractionResponseType | None = None,
    sent: Sent | None = None,
) -> Any:
    created = dt.datetime.fromtimestamp(time.time() - age, tz=dt.UTC)

    async def edit_original_response(**_: Any) -> Any:
        assert sent is not None
        sent.calls.append((token, "answer", None))
        return SimpleNamespace(id=TABLE_MESSAGE)

    return SimpleNamespace(
        token=token,
        client=None,
        created_at=created,
        channel_id=CHANNEL,
        guild_id=77 if installed else None,
        is_guild_integration=lambda: installed,
        message=None if message_id is None else SimpleNamespace(id=message_id),
        response=Response(answered),
        edit_original_response=edit_original_response,
    )


def writer(
    sent: Sent, store: TokenStore | None = None
) -> tuple[TableMessages[Live], list[tuple[str, Msg]]]:
    closed: list[tuple[str, Msg]] = []

    def draw(live: Live, reason: Msg | None) -> Drawing:
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(f"version {live.store_version}, closed: {reason}"))
        return Drawing(view, final=reason is not None)

    async def posted(live: Live, message_id: int) -> None:
        live.message_id = message_id

    async def close(table_id: str, reason: Msg) -> None:
        closed.append((table_id, reason))

    client: Any = SimpleNamespace(store=store or TokenStore(), application_id=1)
    w: TableMessages[Live] = TableMessages(client, draw, posted, close)
    w._webhook = lambda reply: FakeWebhook(reply.token, sent)  # type: ignore[method-assign]
    return w, closed


@pytest.fixture(autouse=True)
def no_opening_left() -> Any:
    yield
    common._OPENING.clear()
    common._CLICKS_HEARD.clear()


async def opened(
    sent: Sent, store: TokenStore | None = None
) -> tuple[TableMessages[Live], Live, list[tuple[str, Msg]]]:
    """A table opened by a command in a group DM, its first message the command's answer."""
    w, closed = writer(sent, store)
    start = interaction("start", sent=sent)
    assert await open_as_answer(start, "de")
    assert start.response.deferred == [{"thinking": True}]  # public: the table is the answer
    live = Live("t1")
    assert await w.draw(live, None)
    return w, live, closed


async def test_the_opening_command_answers_with_the_table_and_its_token_reaches_it() -> None:
    sent = Sent()
    store = TokenStore()
    w, live, _ = await opened(sent, store)
    assert sent.calls == [("start", "answer", None)]
    assert live.message_id == TABLE_MESSAGE
    assert w.locale(live) == "de"  # the opener's language
    await w._flush_confirmed()
    kept = store.kept["t1"]
    assert kept.token == "start" and kept.locale == "de"
    assert abs(kept.expires - (time.time() + TOKEN_SECONDS)) < 5
    # the next drawing edits the table message by id through that token
    live.store_version += 1
    w.request(live)
    await w.flush("t1")
    assert sent.calls[-1] == ("start", "edit", TABLE_MESSAGE)
    await w.close()


async def test_in_a_server_that_installed_the_bot_the_command_is_answered_as_before() -> None:
    start = interaction("start", installed=True)
    assert not await open_as_answer(start, "en")
    assert start.response.deferred == []
    assert common._OPENING == {}


async def test_a_click_on_the_table_message_gives_the_fresher_token_others_do_not() -> None:
    sent = Sent()
    w, live, _ = await opened(sent)
    # a private command, a click on another message and a form's opening are not kept
    for other in (
        interaction("private", answered=discord.InteractionResponseType.channel_message),
        interaction(
            "elsewhere", message_id=1, answered=discord.InteractionResponseType.message_update
        ),
        interaction(
            "form", message_id=TABLE_MESSAGE, answered=discord.InteractionResponseType.modal
        ),
    ):
        with answered_in_time(Click(other, "t1")):
            pass
    live.store_version += 1
    w.request(live)
    await w.flush("t1")
    assert sent.calls[-1] == ("start", "edit", TABLE_MESSAGE)
    # a click answered on the table message: its token draws from now on
    click = interaction(
        "click", message_id=TABLE_MESSAGE, answered=discord.InteractionResponseType.message_update
    )
    with answered_in_time(Click(click, "t1")):
        pass
    live.store_version += 1
    w.request(live)
    await w.flush("t1")
    assert sent.calls[-1] == ("click", "edit", TABLE_MESSAGE)
    # posts after a change are follow-ups through it
    assert await w.channel(live).send("result") is not None
    assert sent.calls[-1] == ("click", "follow-up", None)
    await w.close()


async def test_a_table_nobody_touches_closes_before_its_last_token_expires() -> None:
    sent = Sent()
    w, live, closed = await opened(sent)
    # a token about to run out: the table closes shortly before it does
    soon = Reply("late", time.time() + CLOSE_BEFORE_EXPIRY_SECONDS + 0.2, "de")
    w._replies.pop("t1")
    w.reach(live, soon)
    await asyncio.sleep(0.05)
    assert closed == []  # not yet
    await asyncio.sleep(0.4)
    assert [(tid, reason.key) for tid, reason in closed] == [("t1", "reason.idle")]
    await w.close()


async def test_a_fresher_token_puts_the_idle_close_off() -> None:
    sent = Sent()
    w, live, closed = await opened(sent)
    w._replies.pop("t1")
    w.reach(live, Reply("late", time.time() + CLOSE_BEFORE_EXPIRY_SECONDS + 0.2, "de"))
    click = interaction(
        "click", message_id=TABLE_MESSAGE, answered=discord.InteractionResponseType.message_update
    )
    with answered_in_time(Click(click, "t1")):
        pass
    await asyncio.sleep(0.5)
    assert closed == []
    await w.close()


@pytest.mark.parametrize("status", [401, 404])
async def test_a_table_message_that_can_no_longer_be_edited_closes_the_table(status: int) -> None:
    sent = Sent()
    w, live, closed = await opened(sent)
    sent.refuse = status
    live.store_version += 1
    assert await w.draw(live, None)  # not retried: the table closes instead
    await asyncio.sleep(0.05)
    assert [(tid, reason.key) for tid, reason in closed] == [("t1", "reason.message_lost")]
    # the closed table's drawing failing again does not close it twice
    sent.refuse = status
    assert await w.draw(live, Msg("reason.message_lost"))
    await asyncio.sleep(0.05)
    assert len(closed) == 1
    await w.close()


async def test_a_restart_goes_on_with_the_kept_token_or_closes_when_it_expired() -> None:
    sent = Sent()
    now = time.time()
    store = TokenStore(
        {
            "fresh": TableReply("fresh", "kept", now + 600, "fr"),
            "expired": TableReply("expired", "old", now - 5, "fr"),
            "expiring": TableReply("expiring", "old2", now + CLOSE_BEFORE_EXPIRY_SECONDS / 2, "fr"),
        }
    )
    w, closed = writer(sent, store)
    tables = [
        Live("fresh", message_id=TABLE_MESSAGE),
        Live("expired", message_id=TABLE_MESSAGE + 1),
        Live("expiring", message_id=TABLE_MESSAGE + 2),
        Live("untracked", message_id=TABLE_MESSAGE + 3),
    ]
    await w.check_restored(tables)
    await w.flush("fresh")
    await asyncio.sleep(0.05)
    assert sorted(tid for tid, _ in closed) == ["expired", "expiring", "untracked"]
    # the one still reachable is drawn through its kept token, in its kept language
    assert sent.calls == [("kept", "edit", TABLE_MESSAGE)]
    assert w.locale(tables[0]) == "fr"
    # nothing is sent through an expired token
    assert await w.channel(tables[1]).send("closed") is None
    assert sent.calls == [("kept", "edit", TABLE_MESSAGE)]
    await w.close()


async def test_the_store_keeps_the_freshest_token_of_an_open_table_only(store: Store) -> None:
    state = '{"x": 1}'
    await store.save_table("t1", PERSONAL_SCOPE, CHANNEL, "pontoon", state, 1, None, [], "saved")
    await store.keep_replies([TableReply("t1", "new", 2000.0, "hi")])
    await store.keep_replies([TableReply("t1", "older", 1000.0, "hi")])  # not written
    assert await store.table_replies() == {"t1": TableReply("t1", "new", 2000.0, "hi")}
    await store.close_table("t1")
    assert await store.table_replies() == {}  # a closed table keeps no token


async def test_a_table_opens_outside_servers_with_no_permission_checked() -> None:
    refusal = Exception("no channel")
    gdm = SimpleNamespace(channel_id=CHANNEL, guild_id=None, is_guild_integration=lambda: False)
    assert await where_to_open(gdm, "en", dm=refusal, min_bet=1, max_bet=10) == (  # type: ignore[arg-type]
        PERSONAL_SCOPE,
        CHANNEL,
    )
    # a server where only the member installed the app: its tables are personal too
    user_installed = SimpleNamespace(
        channel_id=CHANNEL, guild_id=77, is_guild_integration=lambda: False
    )
    assert await where_to_open(user_installed, "en", dm=refusal, min_bet=1, max_bet=10) == (  # type: ignore[arg-type]
        PERSONAL_SCOPE,
        CHANNEL,
    )
    # bad limits are refused there too
    from bot.errors import ServiceError

    with pytest.raises(ServiceError):
        await where_to_open(gdm, "en", dm=refusal, min_bet=11, max_bet=10)  # type: ignore[arg-type]


async def test_every_answered_button_click_on_a_reached_table_is_heard() -> None:
    """A button whose handler answers on its own (Show my cards, Hint) still hands its
    token to the table's writer; a table nobody listens for costs nothing."""
    from cogs.common import TableButton, clicked_on, hear_clicks, table_button_id

    answered: list[Any] = []

    class Look(TableButton, template=table_button_id("zz")):
        prefix = "zz"

        async def clicked(self, interaction: Any) -> None:
            answered.append(interaction)

    heard: list[Any] = []
    hear_clicks("a1", heard.append)
    click: Any = SimpleNamespace(token="look")
    await Look("a1", "cards", 1).callback(click)
    await Look("b2", "cards", 1).callback(click)  # another table: not heard
    assert answered == [click, click] and heard == [click]
    hear_clicks("a1", None)
    clicked_on("a1", click)
    assert heard == [click]
