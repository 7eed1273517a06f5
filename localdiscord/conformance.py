"""Every REST request the bot makes, checked as Discord checks it, before the fake
handles it: the route, path and query parameters and the body against Discord's
published OpenAPI description (``openapi.py``), then the documented limits the
description does not state that belong to the request (``limits.py``: a channel
message's flags, modals, ``allowed_mentions``, a single command's create or edit; a
message's content, embeds and components are checked as they will stand by the fake's
``_validate``, edits merged). A refused request gets Discord's answer: 400 with
``{"code": 50035, "errors": {...}, "message": "Invalid Form Body"}`` (404/405 for a
route Discord does not have), is kept in ``fake.rejected`` and logged as a warning (the
sandbox's console shows it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aiohttp import web

from .limits import (
    allowed_mentions_problems,
    channel_message_problems,
    command_problems,
    modal_problems,
)
from .openapi import Problem, SpecChecker, is_loaded, load_checker, spec_path

log = logging.getLogger("localdiscord.conformance")

JSON = dict[str, Any]

INVALID_FORM = (50035, "Invalid Form Body")
CB_MESSAGE, CB_UPDATE_MESSAGE, CB_MODAL = 4, 7, 9

#: the requests whose documented limits are checked here, told apart without the spec
_KINDS = (
    ("POST", re.compile(r"/channels/[^/]+/messages"), "channel"),
    ("PATCH", re.compile(r"/channels/[^/]+/messages/[^/]+"), "channel"),
    ("POST", re.compile(r"/interactions/[^/]+/[^/]+/callback"), "callback"),
    ("POST", re.compile(r"/webhooks/[^/]+/[^/]+"), "webhook"),
    ("PATCH", re.compile(r"/webhooks/[^/]+/[^/]+/messages/[^/]+"), "webhook"),
    ("PUT", re.compile(r"/applications/[^/]+(/guilds/[^/]+)?/commands"), "commands"),
    ("POST", re.compile(r"/applications/[^/]+(/guilds/[^/]+)?/commands"), "command"),
    ("PATCH", re.compile(r"/applications/[^/]+(/guilds/[^/]+)?/commands/[^/]+"), "command"),
)


class Checked(Protocol):
    """What the hook needs of the fake (``FakeDiscord``)."""

    validate: bool
    rejected: list[JSON]

    def _record(self, kind: str, **kw: Any) -> None: ...


@dataclass(frozen=True)
class Part:
    """One part of a multipart body."""

    name: str
    filename: str | None
    content_type: str
    data: bytes


def multipart_parts(content_type: str, raw: bytes) -> list[Part]:
    """The parts of a ``multipart/form-data`` body (``content_type``: the whole header,
    with its boundary)."""
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if match is None:
        return []
    delimiter = b"--" + match.group(1).encode()
    parts: list[Part] = []
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        name = re.search(r'(?:^|;)\s*name="([^"]*)"', disposition)
        filename = re.search(r'filename="([^"]*)"', disposition)
        parts.append(
            Part(
                name=name.group(1) if name else "",
                filename=filename.group(1) if filename else None,
                content_type=headers.get("content-type", "text/plain"),
                data=data.removesuffix(b"\r\n"),
            )
        )
    return parts


def request_body(content_type: str, raw: bytes) -> tuple[Any, str]:
    """The JSON body (or multipart ``payload_json``) and the media type it came as;
    ``(None, …)`` without one."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if mime.startswith("multipart/"):
        for part in multipart_parts(content_type, raw):
            if part.name == "payload_json":
                return json.loads(part.data), mime
        return None, mime
    if not raw:
        return None, mime
    return json.loads(raw), mime


def limit_problems(method: str, path: str, body: Any) -> list[str]:
    """The documented limits of this request that the description does not state."""
    kind = next((k for m, rx, k in _KINDS if m == method and rx.fullmatch(path)), None)
    if kind == "commands" and isinstance(body, list):
        return [p for cmd in body if isinstance(cmd, dict) for p in command_problems(cmd)]
    if not isinstance(body, dict):
        return []
    if kind == "channel":
        return channel_message_problems(body) + allowed_mentions_problems(
            body.get("allowed_mentions")
        )
    if kind == "webhook":
        return allowed_mentions_problems(body.get("allowed_mentions"))
    if kind == "callback":
        data = body.get("data")
        if not isinstance(data, dict):
            return []
        if body.get("type") == CB_MODAL:
            return modal_problems(data)
        if body.get("type") in (CB_MESSAGE, CB_UPDATE_MESSAGE):
            return allowed_mentions_problems(data.get("allowed_mentions"), "data.allowed_mentions")
    if kind == "command":
        return command_problems(body)
    return []


def check_request(
    checker: SpecChecker | None,
    method: str,
    path: str,
    query: Mapping[str, str],
    content_type: str,
    body: Any,
) -> tuple[int, list[Problem | str]]:
    """(status, problems): 200 and no problems when Discord would accept the request;
    404/405 for a route Discord does not have; 400 with what it refuses."""
    problems: list[Problem | str] = []
    if checker is not None:
        op, known = checker.route(method, path)
        if op is None:
            return (405 if known else 404), [f"_base: {method} {path} is not in Discord's API"]
        problems.extend(checker.parameter_problems(op, path, query))
        if body is not None:
            problems.extend(checker.body_problems(op, content_type, body))
    problems.extend(limit_problems(method, path, body))
    return (400 if problems else 200), problems


def _line(problem: Problem | str) -> str:
    return problem.line() if isinstance(problem, Problem) else problem


def form_errors(problems: Sequence[Problem | str]) -> JSON:
    """Discord's nested 50035 shape: ``{"data": {"components": {"0": {"_errors":
    [{"code", "message"}]}}}}``."""
    out: JSON = {}
    for problem in problems:
        if isinstance(problem, Problem):
            where, code, message = [str(p) for p in problem.where], problem.code, problem.message
        else:
            head, sep, message = problem.partition(": ")
            where = head.split(".") if sep and " " not in head else []
            message = message if where else problem
            code = "BASE_TYPE_INVALID"
        node = out
        for key in where or ["_base"]:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return out


def invalid_form_body(problems: Sequence[Problem | str]) -> JSON:
    return {"code": INVALID_FORM[0], "errors": form_errors(problems), "message": INVALID_FORM[1]}


def note_refusal(fake: Checked, what: str, problems: Sequence[Problem | str]) -> None:
    """Keep and log what was refused (``what``: the request, or "a message"; the tests
    read ``fake.rejected``, the sandbox's console shows the warning)."""
    lines = [_line(p) for p in problems]
    fake.rejected.append({"request": what, "errors": lines})
    fake._record("rejected", detail="; ".join(lines))
    log.warning("Discord would refuse %s: %s", what, "; ".join(lines))


def _response(status: int, body: JSON) -> web.Response:
    resp = web.Response(body=json.dumps(body).encode(), status=status)
    resp.headers["Content-Type"] = "application/json"  # exactly, as discord.py wants
    return resp


async def _checker() -> SpecChecker | None:
    """The description's checker; its first load (about a second of parsing) runs in a
    thread, so the fake's other requests and its gateway are not held up meanwhile."""
    where = spec_path()
    if is_loaded(where):
        return load_checker(where)
    return await asyncio.to_thread(load_checker, where)


async def refusal(fake: Checked, request: web.Request, path: str) -> web.Response | None:
    """Discord's refusal of this request (``path`` without ``/api/v10``), or None when
    Discord would accept it. The body is read here and stays readable by the handler
    (``await request.read()`` keeps it)."""
    if not fake.validate:
        return None
    raw = await request.read()
    try:
        body, mime = request_body(request.headers.get("Content-Type", ""), raw)
    except ValueError:
        return None  # the handler answers 50109 (invalid JSON) as Discord does
    status, problems = check_request(
        await _checker(), request.method, path, request.query, mime, body
    )
    if not problems:
        return None
    note_refusal(fake, f"{request.method} {path}", problems)
    if status != 400:
        reason = "Not Found" if status == 404 else "Method Not Allowed"
        return _response(status, {"message": f"{status}: {reason}", "code": 0})
    return _response(400, invalid_form_body(problems))
