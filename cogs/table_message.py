"""The one way a game's table message reaches Discord, for every game.

- A member's click (a button, a form opened from the table message) is answered by its
  own handler: the service returns the committed change and the handler answers with
  the table it left in the interaction's own response (an UPDATE_MESSAGE, through
  :meth:`TableMessages.respond`): one request a click.
- Every committed change is also published to the game's presenter (``bot.host``),
  which asks :meth:`TableMessages.show` to bring the message up to date: it waits for a
  click on that table being answered (:func:`answered_in_time` marks it), and does
  nothing when the message already shows the change (the click's answer drew it).
  Posts that follow a change (a round's result) wait the same way
  (:func:`clicks_answered`), so a member's click is answered first.
- Every other drawing goes through one coalescing writer per table: at most one edit in
  flight, and what it draws is the table as it is when the edit is sent, so a burst of
  changes costs one or two edits.
- What each message was seen to show (its table's stored version and the moment its
  countdown runs out) is written to the store; after a restart
  :meth:`TableMessages.check_restored` leaves alone the messages that still show their
  table and its clock, and reads back or draws again only the others.

Where a table's messages go: in a server that installed the bot, its channel (the bot
posts and edits its own messages there). Anywhere else (a group DM, a DM, a server where
only a member installed the app: the table is keyed by ``PERSONAL_SCOPE``) the bot may
only answer interactions, so the table is drawn through the interaction tokens its
members give: the command that opens it answers with the table (:func:`open_as_answer`),
every click on the table message leaves a fresher token (each lives 15 minutes), and the
writer edits the table message by id and posts (:meth:`TableMessages.channel`) as
follow-ups through the freshest one. That token, when it expires and the table's
language are kept with the table in the store (a restart goes on at the next click, or
closes a table whose token has expired, stakes returned). A table nobody touches closes
:data:`CLOSE_BEFORE_EXPIRY_SECONDS` before its last token expires, and one whose message
can no longer be edited (an invalid token, a deleted message) closes at once: neither is
left holding chips.

A game's presenter owns one :class:`TableMessages`, giving it how to draw a table
(:class:`Drawing`), what to do when a new table message was posted, and how to close a
table (with every stake returned) it can no longer reach.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import marshal
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast

import discord

from bot.errors import ServiceError
from bot.host import epoch_of
from bot.i18n import Msg
from bot.storage.models import ShownMessage, TableReply
from cogs.common import (
    PERSONAL_SCOPE,
    Interaction,
    clicked_on,
    hear_clicks,
    opening_here,
    opening_put_back,
    take_opening,
)

log = logging.getLogger(__name__)

ANSWER_BY_SECONDS = 2.2  # a click not answered by then is acknowledged (Discord allows 3 s)
REFRESH_RETRIES = 6  # re-draw a table message whose edit failed, after 5, 10, 15... s
REFRESH_RETRY_SECONDS = 5.0
NO_PINGS = discord.AllowedMentions.none()
# what a table message was confirmed to show is written to the store this often, in one
# batch: after a kill only the tables changed in the last such moments are read back
CONFIRM_SECONDS = 1.0
# a countdown (<t:...:R>) shows whole seconds: two moments closer than this show the same
SAME_COUNTDOWN_SECONDS = 0.5
# an interaction's token lets the bot answer it (follow-ups, edits) this long (Discord)
TOKEN_SECONDS = 15 * 60.0
# a table reached only through tokens closes this long before its freshest one expires,
# so its closing (stakes returned) is still drawn
CLOSE_BEFORE_EXPIRY_SECONDS = 60.0


# ----------------------------------------- a click whose answer may carry the new table
@dataclass
class Click:
    """A member's interaction whose answer may carry the new table (an UPDATE_MESSAGE
    callback on the table message). Exactly one of the watchdog or the code handling the
    click (a button, a form, a command) claims the answer."""

    interaction: Interaction
    table_id: str
    claimed: bool = False
    updated: bool = False  # answered with the new table
    done: asyncio.Event = field(default_factory=asyncio.Event)  # its handler has finished

    def claim(self) -> bool:
        if self.claimed or self.interaction.response.is_done():
            return False
        self.claimed = True
        return True


# table id -> the clicks on it being handled now (what a change's drawing and posts wait
# for: the member's own answer goes first)
_ANSWERING: dict[str, list[Click]] = {}


@contextlib.contextmanager
def answered_in_time(click: Click) -> Iterator[Click]:
    """The watchdog of a member's click while the code inside handles it: if it has not
    answered by ``ANSWER_BY_SECONDS`` (Discord allows 3 s), the click is acknowledged
    then, and the table is drawn by the writer. While inside, the table's published
    changes wait for this click's answer (:func:`clicks_answered`)."""
    watchdog = asyncio.get_running_loop().call_later(
        ANSWER_BY_SECONDS, lambda: asyncio.ensure_future(_late_ack(click))
    )
    _ANSWERING.setdefault(click.table_id, []).append(click)
    try:
        yield click
    finally:
        watchdog.cancel()
        _note_token(click)
        clicks = _ANSWERING.get(click.table_id)
        if clicks is not None:
            clicks.remove(click)
            if not clicks:
                del _ANSWERING[click.table_id]
        click.done.set()


async def clicks_answered(table_id: str) -> None:
    """Wait until the clicks on the table being handled now are answered (at most
    ``ANSWER_BY_SECONDS`` more: by then the watchdog has acknowledged them)."""
    clicks = _ANSWERING.get(table_id)
    if not clicks:
        return
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(ANSWER_BY_SECONDS + 0.5):
            for click in list(clicks):
                await click.done.wait()


async def _late_ack(click: Click) -> None:
    """The change took too long to answer with: acknowledge now (the writer edits)."""
    if click.claim():
        interaction = click.interaction
        with contextlib.suppress(discord.HTTPException):
            if interaction.message is None:  # a slash command: its answer comes privately
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
                _note_token(click)


async def answer(click: Click, text: str) -> None:
    """The member's private answer: the interaction's own response when still free, else
    a followup (after the watchdog acknowledged or the table update answered)."""
    interaction = click.interaction
    try:
        if click.claim():
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


async def acknowledge(click: Click) -> None:
    """Nothing to show on this click's message (the writer draws it): an empty ack."""
    if click.claim():
        with contextlib.suppress(discord.HTTPException):
            if click.interaction.message is None:
                await click.interaction.response.defer(ephemeral=True)
            else:
                await click.interaction.response.defer()


# ------------------------------------------------- tables reached only through answers
def answers_only(live: OpenTable) -> bool:
    """The table is outside the servers that installed the bot: the bot may only answer
    its members' interactions there (no post or edit of a channel message of its own)."""
    return live.guild_id == PERSONAL_SCOPE


@dataclass(frozen=True, slots=True)
class Reply:
    """An interaction token through which the bot reaches a table (see the module's
    docstring), with the moment it expires (epoch seconds) and the language of the
    table's messages (the opener's)."""

    token: str
    expires: float
    locale: str

    @classmethod
    def of(cls, interaction: Interaction, locale: str) -> Reply:
        created = interaction.created_at.timestamp()
        return cls(interaction.token, created + token_seconds(interaction.client), locale)

    def usable(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) < self.expires - 1.0


def token_seconds(client: object) -> float:
    """How long an interaction's token lives: Discord's 15 minutes, unless the settings
    say less (tests, with a fake Discord that says the same)."""
    settings = getattr(client, "settings", None)
    seconds = getattr(settings, "interaction_token_seconds", TOKEN_SECONDS)
    return float(seconds) if isinstance(seconds, int | float) else TOKEN_SECONDS


def close_before_expiry(client: object) -> float:
    """How long before its last token expires a table nobody touches closes: a minute,
    or a third of a shorter token's life."""
    return min(CLOSE_BEFORE_EXPIRY_SECONDS, token_seconds(client) / 3)


def _note_token(click: Click) -> None:
    """A click on a table reached through tokens was answered: its token (fresher than
    the ones before) now reaches the table (see :func:`cogs.common.clicked_on`; a
    button's click is heard there too, whatever its handler)."""
    clicked_on(click.table_id, click.interaction)


#: a message a game posted (a follow-up is a webhook's message), as it edits it afterwards
Posted = discord.Message


class Poster:
    """Where a game posts what follows a change (a round's result, a close): the
    table's channel, or follow-ups through the table's freshest interaction token."""

    def __init__(self, post: Callable[[dict[str, Any]], Awaitable[Posted | None]]) -> None:
        self._post = post

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        allowed_mentions: discord.AllowedMentions = NO_PINGS,
    ) -> Posted | None:
        """Post; None when the table can no longer be reached (no token left)."""
        kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions}
        if content is not None:
            kwargs["content"] = content
        if embed is not None:
            kwargs["embed"] = embed
        return await self._post(kwargs)


# ------------------------------------------------------------------ the table message
class OpenTable(Protocol):
    """What the writer needs of an open table, whatever the game."""

    table_id: str
    guild_id: int
    channel_id: int
    message_id: int | None
    deadline: float | None  # monotonic time its clock runs out (None: no clock runs)


T = TypeVar("T", bound=OpenTable)


class ShownStore(Protocol):
    """What the store keeps of the table messages: which version of its table each one
    was confirmed to show, and the moment it counts down to (so a restart reads back
    only the others, and a table resumes the countdown its message shows)."""

    async def confirm_shown(self, shown: Sequence[ShownMessage]) -> None: ...

    async def confirmed_shown(self) -> dict[str, float | None]: ...


class ReplyStore(Protocol):
    """What the store keeps of the tables reached through interaction tokens."""

    async def keep_replies(self, replies: Sequence[TableReply]) -> None: ...

    async def table_replies(self) -> dict[str, TableReply]: ...


class Drawing(NamedTuple):
    """A table message as a game draws it: a layout of components (Discord's
    IS_COMPONENTS_V2 message, no content, no embed). ``final``: a state that is not drawn
    again when its edit fails (a closed table, a betting window that has closed).
    ``awaiting``: drawn before a figure it shows was known (a house edge still being
    worked out); :meth:`TableMessages.redraw_awaiting` draws such messages again.
    ``deadline``: the moment (epoch seconds) the drawing counts down to, exactly as its
    ``<t:...:R>`` says; None when it shows no countdown. The writer records it with the
    version the message was confirmed to show: after a restart the table's clock
    resumes to it, and the message stays as it is."""

    view: discord.ui.LayoutView
    final: bool = False
    awaiting: bool = False
    deadline: float | None = None

    def key(self) -> bytes:
        """What the message shows, as bytes to compare (the components as Discord gets
        them: JSON's types, which marshal writes several times faster than ``str``)."""
        return marshal.dumps(self.view.to_components())  # type: ignore[no-untyped-call]

    def edit_kwargs(self) -> dict[str, Any]:
        """What an edit (or an UPDATE_MESSAGE answer) sends. It clears the content and the
        embeds: Discord turns a classic message into a layout one only so."""
        return {"content": None, "embed": None, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """What a new message sends."""
        return {"view": self.view}


class TableMessages(Generic[T]):
    """The table messages of one game: answers clicks with the new table and edits the
    rest through one coalescing writer per table."""

    def __init__(
        self,
        client: discord.Client,
        draw: Callable[[T, Msg | None], Drawing],
        posted: Callable[[T, int], Awaitable[None]],
        close: Callable[[str, Msg], Awaitable[object]] | None = None,
    ) -> None:
        self.client = client
        self._draw = draw  # the table (closed with this reason) as its message shows it
        self._posted = posted  # a new table message was posted: remember its id
        # close a table, every stake returned (one the bot can no longer reach)
        self._close_table = close
        # the tables reached through interaction tokens: each one's freshest token, the
        # table itself, its idle close, and the tokens not yet written to the store
        self._replies: dict[str, Reply] = {}
        self._reached: dict[str, T] = {}
        self._idle: dict[str, asyncio.TimerHandle] = {}
        self._to_keep: dict[str, Reply] = {}
        self._stored_replies: dict[str, TableReply] | None = None  # read once, lazily
        self._closing: set[asyncio.Task[None]] = set()
        self._closing_ids: set[str] = set()  # tables being closed (closed once)
        self._pending: dict[str, tuple[T, Msg | None]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        # table id -> (message id, a hash of what it shows, the table's stored version it
        # shows): compared only when the writer draws or a change comes (the drawing
        # itself is rebuilt from the table, never kept)
        self._shown: dict[str, tuple[int, int, int]] = {}
        # the tables whose message was drawn ``awaiting`` a figure (drawn again once known)
        self._awaiting: dict[str, T] = {}
        self._clicked_during: set[str] = set()  # a click updated the message mid-edit
        self._restart_check: asyncio.Task[None] | None = None
        # table id -> what its message was seen to show, not yet written to the store
        self._confirmed: dict[str, ShownMessage] = {}
        self._confirm_task: asyncio.Task[None] | None = None

    def after_restart(self, check: Coroutine[Any, Any, None], name: str) -> None:
        """Run the game's re-check of its reloaded tables' messages in the background;
        :meth:`close` cancels it (before the HTTP session closes)."""
        self._restart_check = asyncio.create_task(check, name=name, context=contextvars.Context())

    # ------------------------------------------------- what each message was seen to show
    def _store(self) -> ShownStore | None:
        store = getattr(self.client, "store", None)
        return store if hasattr(store, "confirm_shown") else None

    def confirm(
        self,
        live: T,
        message_id: int | None = None,
        *,
        version: int | None = None,
        deadline: float | None = None,
    ) -> None:
        """The table's message shows ``live`` at its stored ``version`` (by default the
        table's now), counting down to ``deadline`` (what its drawing showed, epoch
        seconds; None: no countdown): remember it, and write it to the store with the
        others within :data:`CONFIRM_SECONDS`."""
        mid = live.message_id if message_id is None else message_id
        if version is None:
            version = _version_of(live)
        if mid is None or version is None or self._store() is None:
            return
        self._confirmed[live.table_id] = ShownMessage(live.table_id, mid, version, deadline)
        self._write_soon()

    def _write_soon(self) -> None:
        if self._confirm_task is None:
            self._confirm_task = asyncio.create_task(
                self._write_confirmed(),
                name="table-messages-confirm",
                context=contextvars.Context(),
            )

    async def _write_confirmed(self) -> None:
        try:
            while self._confirmed or self._to_keep:
                await asyncio.sleep(CONFIRM_SECONDS)
                await self._flush_confirmed()
        finally:
            self._confirm_task = None

    async def _flush_confirmed(self) -> None:
        await self._flush_replies()
        batch, self._confirmed = self._confirmed, {}
        store = self._store()
        if not batch or store is None:
            return
        try:
            await store.confirm_shown(list(batch.values()))
        except Exception as exc:  # only costs a read of these messages at the next start
            log.warning("could not record %d table message(s) as shown: %r", len(batch), exc)

    # ------------------------------------------- the tables reached through tokens
    def _reply_store(self) -> ReplyStore | None:
        store = getattr(self.client, "store", None)
        return store if hasattr(store, "keep_replies") else None

    async def _flush_replies(self) -> None:
        batch, self._to_keep = self._to_keep, {}
        store = self._reply_store()
        if not batch or store is None:
            return
        try:
            await store.keep_replies(
                [TableReply(tid, r.token, r.expires, r.locale) for tid, r in batch.items()]
            )
        except Exception as exc:  # a restart then finds an older token (or none)
            log.warning("could not keep the tokens of %d table(s): %r", len(batch), exc)

    async def _reply_of(self, live: T) -> Reply | None:
        """The freshest token that reaches ``live`` and is still usable (None: none is);
        after a restart, the one kept in the store (read once)."""
        reply = self._replies.get(live.table_id)
        if reply is None:
            stored = await self._stored()
            kept = stored.pop(live.table_id, None)
            if kept is not None:
                reply = Reply(kept.token, kept.expires, kept.locale)
                self.reach(live, reply, keep=False)
        return reply if reply is not None and reply.usable() else None

    async def _stored(self) -> dict[str, TableReply]:
        if self._stored_replies is None:
            store = self._reply_store()
            try:
                self._stored_replies = {} if store is None else await store.table_replies()
            except Exception as exc:
                log.warning("could not read the tables' interaction tokens: %r", exc)
                return {}
        return self._stored_replies

    def reach(self, live: T, reply: Reply, *, keep: bool = True) -> None:
        """``reply`` reaches ``live`` from now on, unless a token that lives longer does;
        the table closes, nobody having touched it, shortly before its token expires."""
        held = self._replies.get(live.table_id)
        if held is not None and held.expires >= reply.expires:
            return
        self._replies[live.table_id] = reply
        self._reached[live.table_id] = live
        hear_clicks(live.table_id, functools.partial(self.note, live.table_id))
        if keep:
            self._to_keep[live.table_id] = reply
            self._write_soon()
        self._cancel_idle(live.table_id)
        delay = max(0.0, reply.expires - close_before_expiry(self.client) - time.time())
        self._idle[live.table_id] = asyncio.get_running_loop().call_later(
            delay, self._close_soon, live.table_id, Msg("reason.idle")
        )

    def note(self, table_id: str, interaction: Interaction) -> None:
        """A member's interaction on the table's message was answered: its token now
        reaches the table (a modal's opening or a private command's is not kept: the
        table message is not that interaction's)."""
        live = self._reached.get(table_id)
        held = self._replies.get(table_id)
        message = interaction.message
        if (
            live is None
            or held is None
            or message is None
            or message.id != live.message_id
            or not interaction.response.is_done()
            or interaction.response.type is discord.InteractionResponseType.modal
        ):
            return
        self.reach(live, Reply.of(interaction, held.locale))

    def locale(self, live: T) -> str | None:
        """The language of a table reached through tokens (the opener's); None for a
        table in a server (its server's language applies)."""
        reply = self._replies.get(live.table_id)
        if reply is not None:
            return reply.locale
        opening = opening_here(live.channel_id)
        if opening is not None and answers_only(live):
            return opening[1]
        return None

    def _cancel_idle(self, table_id: str) -> None:
        """The table's idle close, if one is set, no longer runs."""
        handle = self._idle.pop(table_id, None)
        if handle is not None:
            handle.cancel()

    def _close_soon(self, table_id: str, reason: Msg) -> None:
        """Close the table in the background, every stake returned (it can no longer be
        reached, or soon cannot)."""
        self._cancel_idle(table_id)
        if self._close_table is None or table_id in self._closing_ids:
            return
        self._closing_ids.add(table_id)

        async def close() -> None:
            assert self._close_table is not None
            try:
                await self._close_table(table_id, reason)
            except ServiceError as exc:  # closed meanwhile: nothing to return
                log.info("table %s did not close (%s)", table_id, exc)
            except Exception:
                log.exception("could not close table %s", table_id)
            finally:
                self._closing_ids.discard(table_id)

        task = asyncio.create_task(close(), name=f"table-close-{table_id}")
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _closed(self, table_id: str) -> None:
        """The table closed: no idle close any more; its token goes once the closing's
        drawing and post had time to use it."""
        self._cancel_idle(table_id)
        if table_id in self._replies:
            asyncio.get_running_loop().call_later(
                close_before_expiry(self.client), self._forget_reply, table_id
            )

    def _forget_reply(self, table_id: str) -> None:
        self._closing_ids.discard(table_id)
        self._replies.pop(table_id, None)
        self._reached.pop(table_id, None)
        self._to_keep.pop(table_id, None)
        hear_clicks(table_id, None)

    def _webhook(self, reply: Reply) -> discord.Webhook:
        """The interaction webhook of ``reply``'s token (follow-ups, edits by id)."""
        data = {"id": self.client.application_id, "type": 3, "token": reply.token}
        return discord.Webhook.from_state(
            data=cast(Any, data),
            state=self.client._connection,
        )

    def channel(self, live: T) -> Poster:
        """Where the game posts what follows a change of ``live``: its channel, or, for
        a table reached through tokens, follow-ups through the freshest one."""
        if not answers_only(live):
            channel = self.client.get_partial_messageable(live.channel_id, guild_id=live.guild_id)

            async def in_channel(kwargs: dict[str, Any]) -> Posted | None:
                return await channel.send(**kwargs)

            return Poster(in_channel)

        async def follow_up(kwargs: dict[str, Any]) -> Posted | None:
            reply = await self._reply_of(live)
            if reply is None:
                log.info("table %s can no longer be reached: nothing posted", live.table_id)
                return None
            return await self._webhook(reply).send(**kwargs, wait=True)

        return Poster(follow_up)

    async def _check_reached(self, tables: Sequence[T]) -> list[T]:
        """After a restart: the tables reached through tokens take theirs from the
        store; one whose token has expired, or expires too soon to be drawn, closes
        with every stake returned. Returns the tables left to check."""
        left: list[T] = []
        for live in tables:
            if not answers_only(live):
                left.append(live)
                continue
            reply = await self._reply_of(live)
            if reply is None or reply.expires - close_before_expiry(self.client) <= time.time():
                log.info("table %s: its interaction token has expired; closing", live.table_id)
                self._close_soon(live.table_id, Msg("reason.idle"))
                continue
            left.append(live)
        return left

    # ------------------------------------------------------------ after a restart
    async def check_restored(
        self,
        tables: Sequence[T],
        *,
        missed: Callable[[T], Awaitable[bool]] | None = None,
        read_back: Callable[[T], Awaitable[None]] | None = None,
        pause: float = 0.0,
    ) -> None:
        """After a restart (run by :meth:`after_restart`): bring each reloaded table's
        message up to date with as few requests as it takes.

        - ``missed(live)`` first: the game posts what was settled but not shown before
          the stop; True when it also posted the table anew (nothing more to do here).
        - A message confirmed to show the table at its stored version and counting down
          to the moment the table's clock runs out now (the game resumed it: see
          ``bot.host.StoredTable.resumed_deadline``), or showing no countdown while
          none runs, is right as it is: not read, not edited.
        - One confirmed at that version whose countdown is not the table's any more (it
          ran out while the bot was down, and the game gave a fresh one) is drawn again.
        - Any other may be stale. ``read_back(live)``, when the game can tell from the
          message itself, reads it and draws it only if it is (``pause`` seconds after
          each read); a table whose clock runs is drawn without reading: its clock
          started at this restart, and no message shows it yet. Without ``read_back``
          each is drawn again."""
        shown = await self._shown_before()
        for live in await self._check_reached(tables):
            try:
                if missed is not None and await missed(live):
                    continue
                if shown is not None and live.table_id in shown:
                    if _shows_clock_of(live, shown[live.table_id]):
                        continue  # right as it is
                elif read_back is not None and live.deadline is None and not answers_only(live):
                    await read_back(live)
                    await asyncio.sleep(pause)
                    continue
                self.request(live)
            except Exception:
                log.exception("could not check the table message of %s", live.table_id)

    async def _shown_before(self) -> dict[str, float | None] | None:
        """The tables whose message was confirmed to show their stored version, each with
        the moment it counts down to; None when the store cannot say."""
        store = self._store()
        if store is None:
            return None
        try:
            return await store.confirmed_shown()
        except Exception as exc:
            log.warning("could not read which table messages are up to date: %r", exc)
            return None

    def _now_shows(
        self, live: T, message_id: int, drawing: Drawing, key: int, version: int | None
    ) -> None:
        """The table's message now shows ``drawing`` (the table at stored ``version``)."""
        self._shown[live.table_id] = (message_id, key, -1 if version is None else version)
        if drawing.awaiting:
            self._awaiting[live.table_id] = live
        else:
            self._awaiting.pop(live.table_id, None)

    def redraw_awaiting(self) -> None:
        """A figure came in: draw again the messages drawn before it was known (only
        those: a restart's tables, drawn with it before the stop, are not touched)."""
        waiting, self._awaiting = self._awaiting, {}
        for live in waiting.values():
            self.request(live)

    # ----------------------------------------------------------------- clicks
    async def respond(self, click: Click, live: T | None, otherwise: str | None = None) -> None:
        """Answer a member's click on the change it made (``live``: the table the
        committed change left, as the service returned it): with that table in the
        interaction's own response (UPDATE_MESSAGE, one request) when the click was on
        the table's message and is still unanswered; otherwise the click gets
        ``otherwise`` privately, or an empty acknowledgement (a followup once the
        watchdog acknowledged it), and the published change draws the table through the
        writer. ``live`` None: nothing to draw on the click."""
        if live is not None and answers_only(live):
            await self._reply_of(live)  # after a restart: its token and language, read once
        if live is not None and await self._update_on(click, live):
            return
        if otherwise is not None:
            await answer(click, otherwise)
        else:
            await acknowledge(click)

    async def _update_on(self, click: Click, live: T) -> bool:
        """The new table as the click's own answer; False when it cannot ride on it."""
        if click.table_id != live.table_id:
            return False
        interaction = click.interaction
        msg = interaction.message
        if msg is None or live.message_id is None or msg.id != live.message_id:
            return False
        if not click.claim():
            return False
        drawing = self._draw(live, None)
        version = _version_of(live)
        try:
            await interaction.response.edit_message(
                **drawing.edit_kwargs(), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            log.warning("update of %s on its click failed: %s", live.table_id, exc)
            return False
        click.updated = True
        self._now_shows(live, live.message_id, drawing, hash(drawing.key()), version)
        self.confirm(live, version=version, deadline=drawing.deadline)
        if live.table_id in self._tasks:
            self._clicked_during.add(live.table_id)
        return True

    # ------------------------------------------------------------ a published change
    async def show(self, live: T, version: int) -> None:
        """A change committed at stored ``version`` was published: once a click on the
        table being handled now is answered, draw the table through the writer, unless
        its message already shows that version or a later one (the click's answer drew
        it) and no drawing is pending."""
        await clicks_answered(live.table_id)
        shown = self._shown.get(live.table_id)
        if (
            shown is not None
            and live.message_id is not None
            and shown[0] == live.message_id
            and shown[2] >= version
            and live.table_id not in self._pending
        ):
            return
        self.request(live)

    # ----------------------------------------------------------------- the writer
    def request(self, live: T, closed_reason: Msg | None = None) -> None:
        """Draw ``live`` on its message soon (post one if it has none)."""
        prev = self._pending.get(live.table_id)
        if prev is not None and prev[1] is not None and closed_reason is None:
            closed_reason = prev[1]  # a closed table stays closed
        if closed_reason is not None:
            self._closed(live.table_id)
        self._pending[live.table_id] = (live, closed_reason)
        if live.table_id not in self._tasks:
            # a fresh context: the writer must not keep the click that asked for it
            self._tasks[live.table_id] = asyncio.create_task(
                self._run(live.table_id),
                name=f"table-writer-{live.table_id}",
                context=contextvars.Context(),
            )

    def busy(self, table_id: str) -> bool:
        return table_id in self._tasks

    async def repost(self, live: T, moved: str | None = None) -> None:
        """Post the table message anew at the bottom of the channel and wait until it is
        there (its id remembered through ``posted``). ``moved``: the old message is
        retired, edited (one request) to this short note with no buttons, so nobody
        plays on a copy that is no longer drawn; None leaves it as it is (a betting
        window's message that keeps its bets)."""
        old = live.message_id
        live.message_id = None
        self.request(live)
        await self.flush(live.table_id)
        if moved is not None and old is not None and live.message_id not in (None, old):
            await self.retire(live, old, moved)

    async def retire(self, live: T, message_id: int, note: str) -> None:
        """Edit an old table message to ``note`` alone: no buttons, no stale state."""
        view = discord.ui.LayoutView()
        view.add_item(discord.ui.TextDisplay(note))
        try:
            if answers_only(live):
                reply = await self._reply_of(live)
                if reply is not None:
                    await self._webhook(reply).edit_message(
                        message_id, view=view, allowed_mentions=NO_PINGS
                    )
                return
            channel = self.client.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
            await channel.get_partial_message(message_id).edit(
                content=None, embed=None, view=view, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:  # deleted, or no access: nothing left to retire
            log.info("could not retire the old table message of %s: %s", live.table_id, exc)

    async def flush(self, table_id: str) -> None:
        """Wait until the table's message shows what was last asked for."""
        task = self._tasks.get(table_id)
        if task is not None:
            await asyncio.shield(task)

    async def _run(self, table_id: str) -> None:
        try:
            failures = 0
            while table_id in self._pending:
                live, closed_reason = self._pending.pop(table_id)
                self._clicked_during.discard(table_id)
                ok = await self._draw_once(live, closed_reason, failures)
                if not ok:
                    failures += 1
                    if failures > REFRESH_RETRIES:
                        log.warning(
                            "gave up drawing the table message of %s for now; the next "
                            "change or restart draws it",
                            table_id,
                        )
                        return
                    self._pending.setdefault(table_id, (live, closed_reason))
                    await asyncio.sleep(REFRESH_RETRY_SECONDS * failures)
                    continue
                failures = 0
                if table_id in self._clicked_during:
                    # a click's answer and this edit crossed: draw once more, latest wins
                    self._clicked_during.discard(table_id)
                    self._pending.setdefault(table_id, (live, closed_reason))
        finally:
            self._tasks.pop(table_id, None)

    async def _draw_once(self, live: T, closed_reason: Msg | None, failures: int) -> bool:
        """One draw; any exception (a network error that is no discord.HTTPException, a
        timeout, a closed session) is a failed draw to retry, logged once per streak."""
        try:
            return await self.draw(live, closed_reason)
        except Exception as exc:
            if failures == 0:
                log.warning(
                    "could not draw the table message of %s (%s: %s); retrying",
                    live.table_id,
                    type(exc).__name__,
                    exc,
                )
            else:
                log.debug("table message of %s still failing: %r", live.table_id, exc)
            return False

    async def close(self) -> None:
        """Stop every edit in flight (at shutdown, before the HTTP session closes): the
        tables are saved, and the next start redraws what its messages do not show.
        The restart re-check goes first."""
        check, self._restart_check = self._restart_check, None
        if check is not None:
            check.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await check
        for handle in self._idle.values():
            handle.cancel()
        self._idle.clear()
        tasks = list(self._tasks.values()) + list(self._closing)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._pending.clear()
        confirming, self._confirm_task = self._confirm_task, None
        if confirming is not None:
            confirming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await confirming
        await self._flush_confirmed()  # a clean stop leaves nothing to read back

    async def draw(self, live: T, closed_reason: Msg | None) -> bool:
        """Edit (or post) the table message with the table as it is now. False: try later."""
        if answers_only(live):
            await self._reply_of(live)  # after a restart: its token and language, read once
            if live.table_id in self._reached:
                self._reached[live.table_id] = live  # the table as the game holds it now
        drawing = self._draw(live, closed_reason)
        version = _version_of(live)  # what the drawing shows (the table may move on)
        key = hash(drawing.key())
        shown = self._shown.get(live.table_id)
        if (
            live.message_id is not None
            and shown is not None
            and shown[0] == live.message_id
            and shown[1] == key
        ):
            self.confirm(live, version=version, deadline=drawing.deadline)
            return True  # the message already shows this
        if answers_only(live):
            return await self._draw_answering(live, drawing, closed_reason, key, version)
        channel = self.client.get_partial_messageable(live.channel_id, guild_id=live.guild_id)
        if live.message_id is not None:
            message_id = live.message_id
            try:
                await channel.get_partial_message(message_id).edit(
                    **drawing.edit_kwargs(), allowed_mentions=NO_PINGS
                )
                self._now_shows(live, message_id, drawing, key, version)
                if closed_reason is None:
                    self.confirm(live, version=version, deadline=drawing.deadline)
                return True
            except discord.NotFound:
                log.info("table message of %s is gone; posting a new one", live.table_id)
            except discord.HTTPException as exc:
                if exc.status == 400 and not drawing.final:
                    # a message Discord will not turn into a layout (one posted as an
                    # embed before an upgrade): the table moves to a new message
                    log.warning(
                        "table message of %s refused the layout (%s); posting anew",
                        live.table_id,
                        exc,
                    )
                    return await self._post(live, channel, drawing, closed_reason, version)
                log.warning("could not edit the table message of %s: %s", live.table_id, exc)
                return closed_reason is not None or drawing.final
        return await self._post(live, channel, drawing, closed_reason, version)

    async def _post(
        self,
        live: T,
        channel: discord.PartialMessageable,
        drawing: Drawing,
        closed_reason: Msg | None,
        version: int | None,
    ) -> bool:
        """Post the table as a new message (the old one is gone or refused the edit)."""
        if closed_reason is not None or drawing.final:
            return True
        try:
            msg = await channel.send(**drawing.send_kwargs(), allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.warning("could not post the table message of %s: %s", live.table_id, exc)
            return False
        self._now_shows(live, msg.id, drawing, hash(drawing.key()), version)
        await self._posted(live, msg.id)
        self.confirm(live, msg.id, version=version, deadline=drawing.deadline)
        return True

    async def _draw_answering(
        self, live: T, drawing: Drawing, closed_reason: Msg | None, key: int, version: int | None
    ) -> bool:
        """Draw a table reached through tokens: its first message is the answer of the
        command that opened it; later ones edit it by id through the freshest token. A
        message that can no longer be edited (an invalid token, a deleted message)
        closes the table, every stake returned: it is never left holding chips."""
        if live.message_id is None:
            return await self._post_answer(live, drawing, closed_reason, version)
        reply = await self._reply_of(live)
        if reply is None:
            log.info("table message of %s can no longer be drawn: no token left", live.table_id)
            return True
        try:
            await self._webhook(reply).edit_message(
                live.message_id, **drawing.edit_kwargs(), allowed_mentions=NO_PINGS
            )
        except discord.HTTPException as exc:
            if exc.status in (401, 404):
                log.warning("table message of %s can no longer be edited: %s", live.table_id, exc)
                if closed_reason is None:
                    self._close_soon(live.table_id, Msg("reason.message_lost"))
                return True
            log.warning("could not edit the table message of %s: %s", live.table_id, exc)
            return closed_reason is not None or drawing.final
        self._now_shows(live, live.message_id, drawing, key, version)
        if closed_reason is None:
            self.confirm(live, version=version, deadline=drawing.deadline)
        return True

    async def _post_answer(
        self, live: T, drawing: Drawing, closed_reason: Msg | None, version: int | None
    ) -> bool:
        """The table's first message: the answer of the command that opened it (or, when
        that is gone, a follow-up through the freshest token)."""
        if closed_reason is not None or drawing.final:
            return True
        opening = take_opening(live.channel_id)
        try:
            if opening is not None:
                interaction, locale = opening
                msg: Posted = await interaction.edit_original_response(
                    **drawing.edit_kwargs(), allowed_mentions=NO_PINGS
                )
                self.reach(live, Reply.of(interaction, locale))
            else:
                reply = await self._reply_of(live)
                if reply is None:
                    log.info("table %s can no longer be reached: not drawn", live.table_id)
                    return True
                msg = await self._webhook(reply).send(
                    **drawing.send_kwargs(), allowed_mentions=NO_PINGS, wait=True
                )
        except discord.HTTPException as exc:
            log.warning("could not post the table message of %s: %s", live.table_id, exc)
            if opening is not None:  # the next try answers it
                opening_put_back(live.channel_id, opening)
            return False
        self._now_shows(live, msg.id, drawing, hash(drawing.key()), version)
        await self._posted(live, msg.id)
        self.confirm(live, msg.id, version=version, deadline=drawing.deadline)
        return True

    def forget(self, table_id: str) -> None:
        """The table is gone: drop what is remembered of its message."""
        self._shown.pop(table_id, None)
        self._awaiting.pop(table_id, None)
        self._confirmed.pop(table_id, None)


def _version_of(live: OpenTable) -> int | None:
    """The stored version of ``live`` (None: a table the store does not version)."""
    version = getattr(live, "store_version", None)
    return version if isinstance(version, int) else None


def _shows_clock_of(live: OpenTable, shown: float | None) -> bool:
    """Whether a message counting down to ``shown`` (epoch seconds; None: no countdown)
    shows the clock the table runs now, to the second its countdown shows."""
    if live.deadline is None or shown is None:
        return live.deadline is None and shown is None
    return abs(epoch_of(live.deadline) - shown) < SAME_COUNTDOWN_SECONDS
