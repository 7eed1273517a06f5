"""The watcher of every end-to-end test's whole conversation with the bot.

A :class:`Conversation` is given the fake Discords a test uses (each narrowed, for the
shared bots, to the test's own guild and its own requests) and the bots' logs. When the
test is over it reports, as a list of problems:

* an interaction answered twice (a second initial callback: Discord refuses it, 40060),
* an interaction answered late (the initial callback over :data:`DEADLINE` seconds after
  the interaction was sent: Discord has forgotten it, and the member saw "This
  interaction failed"),
* an interaction never answered,
* a 4xx the fake returned to the bot (a request Discord would refuse), other than a 429
  (a rate limit, which discord.py waits out and retries) or an injected fault,
* an ERROR or CRITICAL line, or a traceback, in a bot's log,

unless the test declared it expected: :meth:`Conversation.expect_error` (or the marker
``@pytest.mark.expect_error(r"regex")``), :meth:`Conversation.expect_unanswered`,
:meth:`Conversation.expect_late`, :meth:`Conversation.expect_double` and
:meth:`Conversation.expect_http`. ``tests/e2e/conftest.py`` applies one to every
end-to-end test (the ``conversation`` fixture, autouse).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from localdiscord import FakeDiscord, InteractionResult, RequestRecord

#: Discord's time for an interaction's initial response
DEADLINE = 3.0
#: what the watcher waits past the deadline for a callback on its way before it says none came
GRACE = 0.5

CALLBACK = re.compile(r"/interactions/(?P<iid>[0-9]+)/[^/]+/callback")
# the start of a log record: the bot's text format and discord.py's coloured one, its
# plain one, JSON
_TEXT_HEAD = re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d+)? +(?P<level>[A-Z]+) ")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_DPY_HEAD = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[(?P<level>[A-Z]+) *\] ")
_BAD_LEVELS = ("ERROR", "CRITICAL")
TRACEBACK = "Traceback (most recent call last)"

Which = Callable[[InteractionResult], bool]


def _head(line: str) -> tuple[bool, str | None, str]:
    """Whether ``line`` starts a log record, its level, and its text (a JSON line's
    traceback included)."""
    head = _TEXT_HEAD.match(line) or _DPY_HEAD.match(line)
    if head is not None:
        return True, head["level"], line
    if line.startswith("{"):
        try:
            parsed = json.loads(line)
        except ValueError:
            return False, None, line
        if isinstance(parsed, dict) and "level" in parsed:
            return True, str(parsed["level"]), f"{line}\n{parsed.get('traceback', '')}"
    return False, None, line


def log_records(text: str) -> list[tuple[str | None, str]]:
    """``text`` (a bot's output) as records: (level, the record's text with its
    continuation lines, such as a traceback). Lines before the first record form a
    record of level None."""
    records: list[tuple[str | None, list[str]]] = []
    for line in _ANSI.sub("", text).splitlines():
        starts, level, body = _head(line)
        if starts or not records:
            records.append((level, [body]))
        else:
            records[-1][1].append(body)
    return [(level, "\n".join(lines)) for level, lines in records]


def bad_records(text: str) -> list[str]:
    """The records of ``text`` that are an ERROR (or worse) or carry a traceback."""
    return [body for level, body in log_records(text) if level in _BAD_LEVELS or TRACEBACK in body]


@dataclass
class _Fake:
    fake: FakeDiscord
    guild_id: int | None  # only this guild's interactions (a shared fake)
    requests_from: int
    interactions_before: frozenset[int]

    def interactions(self) -> list[InteractionResult]:
        return [
            r
            for iid, r in list(self.fake.interactions.items())
            if iid not in self.interactions_before and self._mine(r)
        ]

    def _mine(self, r: InteractionResult) -> bool:
        """In the watched guild, or outside servers (a DM, a group DM) by one of its members."""
        if self.guild_id is None or r.channel.guild_id == self.guild_id:
            return True
        guild = self.fake.guilds.get(self.guild_id)
        return r.channel.guild_id is None and guild is not None and r.user.id in guild.members

    def requests(self) -> list[RequestRecord]:
        return list(self.fake.requests[self.requests_from :])


@dataclass
class _Log:
    name: str
    read: Callable[[], str]
    start: int

    def text(self) -> str:
        return self.read()[self.start :]


@dataclass
class Conversation:
    """What one test said to the bots and how they answered; see the module's doc."""

    deadline: float = DEADLINE
    fakes: list[_Fake] = field(default_factory=list)
    logs: list[_Log] = field(default_factory=list)
    expected_errors: list[re.Pattern[str]] = field(default_factory=list)
    expected_http: list[tuple[int, re.Pattern[str]]] = field(default_factory=list)
    _unanswered: list[Which] = field(default_factory=list)
    _late: list[Which] = field(default_factory=list)
    _double: list[Which] = field(default_factory=list)

    # ------------------------------------------------------------- what is watched
    def watch_fake(
        self, fake: FakeDiscord, *, guild_id: int | None = None, from_now: bool = False
    ) -> None:
        """Watch ``fake``: its interactions (those in ``guild_id`` only, when given) and
        the requests the bot made to it (from now on with ``from_now``, else all)."""
        if any(w.fake is fake and w.guild_id == guild_id for w in self.fakes):
            return
        self.fakes.append(
            _Fake(
                fake,
                guild_id,
                len(fake.requests) if from_now else 0,
                frozenset(fake.interactions) if from_now else frozenset(),
            )
        )

    def watch_log(self, name: str, read: Callable[[], str], *, from_now: bool = False) -> None:
        """Watch a bot's output (``read()`` returns all of it so far); from its current end
        with ``from_now``."""
        self.logs.append(_Log(name, read, len(read()) if from_now else 0))

    # ------------------------------------------------------- what the test expects
    def expect_error(self, pattern: str) -> None:
        """A log record (an ERROR line with its traceback) that matches ``pattern`` (a
        regular expression, searched) is expected: not a problem."""
        self.expected_errors.append(re.compile(pattern))

    def expect_http(self, status: int, route: str = "") -> None:
        """The fake answering ``status`` to a request whose path contains a match of
        ``route`` (a regular expression; any path when empty) is expected."""
        self.expected_http.append((status, re.compile(route)))

    def expect_unanswered(self, *results: InteractionResult, where: Which | None = None) -> None:
        """These interactions (or those ``where`` says; every one when given neither) may
        go unanswered: sent to a bot that was down, say."""
        self._unanswered.append(_which(results, where))

    def expect_late(self, *results: InteractionResult, where: Which | None = None) -> None:
        """These interactions (or those ``where`` says; every one when given neither) may
        be answered after the deadline."""
        self._late.append(_which(results, where))

    def expect_double(self, *results: InteractionResult, where: Which | None = None) -> None:
        """These interactions (or those ``where`` says) may get a second initial answer."""
        self._double.append(_which(results, where))

    # ------------------------------------------------------------------ the check
    def pending(self) -> list[InteractionResult]:
        """Interactions with no initial callback yet, still inside their deadline (+ grace)."""
        now = time.perf_counter()
        return [
            r
            for w in self.fakes
            for r in w.interactions()
            if not _attempted(r, w)
            and r.sent_at is not None
            and now - r.sent_at < self.deadline + GRACE
        ]

    async def settle(self) -> None:
        """Wait (at most the deadline and its grace) until every interaction sent has had
        its initial callback. Call it while the bots still run and the fakes still serve."""
        end = time.perf_counter() + self.deadline + GRACE
        while self.pending() and time.perf_counter() < end:
            await asyncio.sleep(0.05)

    def problems(self) -> list[str]:
        """Everything wrong in the conversation that the test did not declare expected."""
        found: list[str] = []
        for w in self.fakes:
            requests = w.requests()
            attempts: dict[int, int] = {}
            for req in requests:
                m = CALLBACK.fullmatch(req.path)
                if m is not None and _counts(req):
                    attempts[int(m["iid"])] = attempts.get(int(m["iid"]), 0) + 1
            for r in w.interactions():
                what = _describe(r)
                n = attempts.get(r.interaction_id, 0)
                if n > 1 and not _declared(self._double, r):
                    found.append(f"answered {n} times (Discord takes one answer): {what}")
                if n == 0 and r.callback_type is None and not r.late:
                    if not _declared(self._unanswered, r):
                        found.append(f"never answered: {what}")
                    continue
                latency = r.latency
                limit = min(self.deadline, w.fake.interaction_deadline)
                late = r.late or (latency is not None and latency > limit)
                if late and not _declared(self._late, r):
                    took = f"{latency:.2f} s" if latency is not None else "?"
                    found.append(
                        f"answered late ({took}, over {limit:g} s; Discord has "
                        f"forgotten it by then): {what}"
                    )
            for req in requests:
                if (
                    400 <= req.status < 500
                    and req.status != 429
                    and not req.fault
                    and not any(
                        status == req.status and route.search(req.path)
                        for status, route in self.expected_http
                    )
                ):
                    found.append(f"the fake answered {req.status} to {req.method} {req.path}")
        for source in self.logs:
            for body in bad_records(source.text()):
                if not any(p.search(body) for p in self.expected_errors):
                    found.append(f"{source.name} logged:\n{_indent(body)}")
        return found


#: the conversation of the test running now (set by the ``conversation`` fixture), for
#: helpers that start a bot of their own (the sandbox's process)
RUNNING: list[Conversation] = []


def current() -> Conversation | None:
    """The running test's conversation, if any."""
    return RUNNING[-1] if RUNNING else None


def _which(results: Iterable[InteractionResult], where: Which | None) -> Which:
    ids = {r.interaction_id for r in results}
    if where is not None:
        return lambda r: r.interaction_id in ids or where(r)
    if ids:
        return lambda r: r.interaction_id in ids
    return lambda r: True


def _declared(which: list[Which], r: InteractionResult) -> bool:
    return any(w(r) for w in which)


def _counts(req: RequestRecord) -> bool:
    """A callback request that was an answer (not refused before it was read: a rate
    limit, an injected fault or a server error, which discord.py may retry)."""
    return not req.fault and req.status != 429 and req.status < 500


def _attempted(r: InteractionResult, w: _Fake) -> bool:
    if r.callback_type is not None or r.late or r.callback_status is not None:
        return True
    return any(
        (m := CALLBACK.fullmatch(req.path)) is not None and int(m["iid"]) == r.interaction_id
        for req in w.requests()
    )


def _describe(r: InteractionResult) -> str:
    data = r.data or {}
    what = data.get("custom_id") or data.get("name") or ""
    options = data.get("options") or []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        what = f"{what} {options[0].get('name')}"
        options = options[0].get("options") or []
    return f"{r.kind} {what!s} by {r.user.name} (interaction {r.interaction_id})"


def _indent(text: str, limit: int = 3000) -> str:
    if len(text) > limit:
        text = text[:limit] + " …"
    return "\n".join("    " + line for line in text.splitlines())
