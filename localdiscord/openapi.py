"""Discord's published OpenAPI 3.1 description of its HTTP API as a request check.

Discord publishes the description (MIT, repository discord/discord-api-spec, file
``specs/openapi.json``); it is not part of this repository. :func:`load_checker` finds
it through ``DISCORD_API_SPEC`` or, by default, :func:`default_spec_path`. Without it the
schema check is skipped with a logged reason, except under ``CI=true`` where a missing
description is an error (:class:`SpecMissing`).

A :class:`SpecChecker` matches a request to its operation (method and path template),
checks the path and query parameters and validates the JSON body (or a multipart
request's ``payload_json``) against the operation's request schema with jsonschema
(Draft 2020-12, every ``$ref`` resolved inside the description). Validators are
compiled once per operation and kept.

Where the description is stricter than Discord (its docs win, and discord.py relies on
them), the check follows the docs; each such case is said where it is decided:

- snowflakes: the description types them as strings; Discord accepts integers in
  request bodies (docs, reference "Snowflakes": ids are *returned* as strings), and
  discord.py sends ``recipient_id``, ``attachments[*].id`` and ``allowed_mentions.users``
  as integers. :data:`SNOWFLAKE` accepts both.
- boolean query strings: the description says ``type: boolean``; the docs (reference,
  "Boolean Query Strings") accept ``True``/``true``/``1`` and ``False``/``false``/``0``,
  and discord.py sends ``with_response=1``, ``wait=1``, ``with_components=0``.
- unknown fields (``tts`` on an edit, ``nsfw`` on a command, ``embeds[*].flags``, all
  sent by discord.py): the description's schemas do not forbid extra properties
  (no ``additionalProperties: false``) and Discord ignores them, so they pass.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

log = logging.getLogger("localdiscord.openapi")

JSON = dict[str, Any]

SPEC_ENV = "DISCORD_API_SPEC"
SPEC_URI = "urn:discord-api-spec"
METHODS = ("get", "put", "post", "patch", "delete")

#: Discord's snowflake: the description's string, or (docs) the integer discord.py sends
SNOWFLAKE: JSON = {
    "anyOf": [
        {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        {"type": "integer", "minimum": 0},
    ]
}
#: Discord's boolean query strings (docs, reference "Boolean Query Strings")
QUERY_TRUE = frozenset({"True", "true", "1"})
QUERY_FALSE = frozenset({"False", "false", "0"})


class SpecMissing(RuntimeError):
    """The description is not where it was looked for, and CI requires it."""


def default_spec_path() -> Path:
    """``<repository>/../shared/discord-api-spec/openapi.json``: the folder CI keeps
    beside the checkout. The only place the repository computes a path outside itself;
    ``DISCORD_API_SPEC`` overrides it."""
    return Path(__file__).resolve().parents[2] / "shared" / "discord-api-spec" / "openapi.json"


def spec_path() -> Path:
    return Path(os.environ.get(SPEC_ENV) or default_spec_path())


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@dataclass(frozen=True)
class Problem:
    """One refusal: where (a path into the request) and why."""

    where: tuple[str | int, ...]
    code: str
    message: str

    def line(self) -> str:
        return f"{'.'.join(map(str, self.where)) or '_base'}: {self.message}"


@dataclass
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    literals: int
    #: "path:name"/"query:name" -> the JSON pointer of its schema in the description
    parameters: dict[str, str] = field(default_factory=dict)
    required_query: tuple[str, ...] = ()
    bodies: dict[str, str] = field(default_factory=dict)  # content type -> JSON pointer


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class SpecChecker:
    """Requests checked against one OpenAPI description (see the module's docstring)."""

    def __init__(self, spec: JSON) -> None:
        schemas = spec.get("components", {}).get("schemas", {})
        if "SnowflakeType" in schemas:
            schemas["SnowflakeType"] = SNOWFLAKE  # docs win: see the module docstring
        self.spec = spec
        _discriminate(spec, spec)
        self.registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, DRAFT202012.create_resource(spec)
        )
        self._by_segments: dict[int, list[Operation]] = {}
        self._validators: dict[str, Any] = {}
        for template, item in spec.get("paths", {}).items():
            shared = item.get("parameters", [])
            for method in METHODS:
                op = item.get(method)
                if op is None:
                    continue
                self._add(template, method, op, shared)
        for ops in self._by_segments.values():
            ops.sort(key=lambda o: -o.literals)  # "/users/@me" before "/users/{user_id}"

    def _add(self, template: str, method: str, op: JSON, shared: Sequence[JSON]) -> None:
        regex = "".join(
            "/[^/]+" if seg.startswith("{") else "/" + re.escape(seg)
            for seg in template.strip("/").split("/")
        )
        segments = template.strip("/").split("/")
        operation = Operation(
            method=method.upper(),
            template=template,
            operation_id=str(op.get("operationId", "")),
            pattern=re.compile(regex),
            literals=sum(not s.startswith("{") for s in segments),
        )
        for prefix, params in (
            (("paths", template, "parameters"), shared),
            (("paths", template, method, "parameters"), op.get("parameters", [])),
        ):
            for i, param in enumerate(params):
                where = param.get("in")
                if where in ("path", "query") and "schema" in param:
                    pointer = _pointer(*prefix, str(i), "schema")[2:]
                    operation.parameters[f"{where}:{param['name']}"] = pointer
        operation.required_query = tuple(
            p["name"]
            for p in op.get("parameters", [])
            if p.get("in") == "query" and p.get("required")
        )
        path_item = _pointer("paths", template, method, "requestBody", "content")
        for ctype in op.get("requestBody", {}).get("content", {}):
            operation.bodies[ctype] = f"{path_item[2:]}/{ctype.replace('/', '~1')}/schema"
        self._by_segments.setdefault(len(segments), []).append(operation)

    # ------------------------------------------------------------------ routing
    def route(self, method: str, path: str) -> tuple[Operation | None, bool]:
        """The operation for ``method path`` (path without ``/api/v10``), and whether the
        path exists at all (False: 404; True with None: 405)."""
        known = False
        for op in self._by_segments.get(len(path.strip("/").split("/")), []):
            if op.pattern.fullmatch(path):
                known = True
                if op.method == method:
                    return op, True
        return None, known

    # ------------------------------------------------------------------ validators
    def _validator(self, pointer: str) -> Any:
        validator = self._validators.get(pointer)
        if validator is None:
            validator = Validator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self.registry)
            self._validators[pointer] = validator
        return validator

    def _at(self, pointer: str) -> Any:
        """The description's node at a JSON pointer (without its leading ``#/``)."""
        node: Any = self.spec
        for part in pointer.split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node

    def _resolve(self, schema: JSON) -> JSON:
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            return self._resolve(self._at(ref[2:]))
        return schema

    def _errors(self, pointer: str, instance: Any, where: tuple[str | int, ...]) -> list[Problem]:
        validator = self._validator(pointer)
        if validator.is_valid(instance):
            return []
        error = best_match(validator.iter_errors(instance))
        assert error is not None
        return [_problem(error, where)]

    # ------------------------------------------------------------------ checks
    def parameter_problems(
        self, op: Operation, path: str, query: Mapping[str, str]
    ) -> list[Problem]:
        problems: list[Problem] = []
        values = dict(zip(_names(op.template), path.strip("/").split("/"), strict=False))
        for name, value in values.items():
            pointer = op.parameters.get(f"path:{name}")
            if pointer is not None:
                problems.extend(self._param(name, value, pointer))
        for name in op.required_query:
            if name not in query:
                problems.append(Problem((name,), "BASE_TYPE_REQUIRED", "This field is required"))
        for name, value in query.items():
            pointer = op.parameters.get(f"query:{name}")
            if pointer is not None:  # Discord ignores a query parameter it does not know
                problems.extend(self._param(name, value, pointer))
        return problems

    def _param(self, name: str, value: str, pointer: str) -> list[Problem]:
        validator = self._validator(pointer)
        kinds = self._resolve(self._at(pointer)).get("type", [])
        kinds = [kinds] if isinstance(kinds, str) else kinds
        typed: Any = value
        if "boolean" in kinds:  # docs win: see the module docstring
            typed = True if value in QUERY_TRUE else False if value in QUERY_FALSE else value
        elif "integer" in kinds:
            try:
                typed = int(value)
            except ValueError:
                typed = value
        if validator.is_valid(typed):
            return []
        return [Problem((name,), "PARAM_INVALID", f"Value {value!r} is not valid.")]

    def body_problems(self, op: Operation, content_type: str, body: Any) -> list[Problem]:
        """``body``: the JSON body, or the multipart request's ``payload_json``."""
        pointer = op.bodies.get(content_type) or op.bodies.get("application/json")
        if pointer is None:
            return []  # Discord reads no body there
        return self._errors(pointer, body, ())


# ------------------------------------------------------------------ tagged unions
BY_TYPE = "x-localdiscord-by-type"


def _by_type(validator: Any, value: JSON, instance: Any, schema: JSON) -> Iterator[ValidationError]:
    """The ``oneOf``/``anyOf`` of objects told apart by a constant ``type`` (components,
    interaction callbacks), validated against the one branch whose ``type`` the instance
    names. The same answer as the union (no ``type`` value belongs to two branches, so
    at most one branch can match), without validating every branch for every component:
    a table message went from 0.6 s to a few milliseconds."""
    if instance is None and value["null"]:
        return
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not of type 'object'", validator="type")
        return
    ref = value["branches"].get(str(instance.get("type")))
    if ref is None:
        yield ValidationError(
            f"{instance.get('type')!r} is not one of {sorted(value['branches'])}",
            validator="enum",
            path=["type"],
        )
        return
    yield from validator.descend(instance, {"$ref": ref})


Validator = validators.extend(Draft202012Validator, {BY_TYPE: _by_type})  # type: ignore[no-untyped-call]


def _tags(spec: JSON, ref: object) -> list[str]:
    """The constant ``type`` values of the object schema ``ref`` points to (none when
    its ``type`` is not a short list of constants)."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return []
    node: Any = spec
    for part in ref[2:].split("/"):
        node = node.get(part.replace("~1", "/").replace("~0", "~"), {})
    enum = node.get("properties", {}).get("type", {}).get("enum")
    return [str(v) for v in enum] if isinstance(enum, list) else []


def _discriminate(spec: JSON, node: Any) -> None:
    """Rewrite, in place, unions into equivalent, faster forms: tagged objects into
    :data:`BY_TYPE`, constants into an ``enum``, "null or X" into an ``anyOf``."""
    if isinstance(node, list):
        for item in node:
            _discriminate(spec, item)
        return
    if not isinstance(node, dict):
        return
    for key in ("oneOf", "anyOf"):
        union = node.get(key)
        if not isinstance(union, list):
            continue
        if union and all(isinstance(b, dict) and "const" in b for b in union):
            # an enum written as a union of titled constants (MessageComponentTypes)
            del node[key]
            node["enum"] = [b["const"] for b in union]
            continue
        if key == "oneOf" and len(union) == 2 and {"type": "null"} in union:
            # null or one thing: the two cannot both match, and anyOf stops at the first
            node["anyOf"] = node.pop("oneOf")
            continue
        nullable = {"type": "null"} in union
        refs = [
            b.get("$ref") if isinstance(b, dict) else None for b in union if b != {"type": "null"}
        ]
        branches = {tag: ref for ref in refs for tag in _tags(spec, ref)}
        counted = sum(len(_tags(spec, ref)) for ref in refs)
        if len(refs) > 1 and all(_tags(spec, r) for r in refs) and len(branches) == counted:
            del node[key]
            node[BY_TYPE] = {"null": nullable, "branches": branches}
    for value in node.values():
        _discriminate(spec, value)


def _names(template: str) -> list[str]:
    return [s[1:-1] if s.startswith("{") else "" for s in template.strip("/").split("/")]


_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_INVALID",
    "enum": "BASE_TYPE_CHOICES",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
}


def _problem(error: ValidationError, where: tuple[str | int, ...]) -> Problem:
    path = (*where, *error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        wanted: list[object] = (
            list(error.validator_value) if isinstance(error.validator_value, list) else []
        )
        missing = [str(k) for k in wanted if k not in error.instance]
        path = (*path, *missing[:1])
        return Problem(path, "BASE_TYPE_REQUIRED", "This field is required")
    return Problem(path, _CODES.get(str(error.validator), "BASE_TYPE_INVALID"), error.message)


# ------------------------------------------------------------------ loading, once
_checkers: dict[Path, SpecChecker | None] = {}


_loading = threading.Lock()


def is_loaded(path: Path) -> bool:
    return path in _checkers


def load_checker(path: Path | None = None) -> SpecChecker | None:
    """The checker for the description at ``path`` (default: :func:`spec_path`), loaded
    once per process (about a second: call it off the event loop the first time); None,
    with the reason logged once, when it is absent. Under ``CI=true`` an absent
    description raises :class:`SpecMissing`."""
    path = path or spec_path()
    if path in _checkers:
        return _checkers[path]
    with _loading:
        if path not in _checkers:
            _checkers[path] = _load(path)
        return _checkers[path]


def _load(path: Path) -> SpecChecker | None:
    if not path.is_file():
        reason = (
            f"Discord's OpenAPI description is not at {path} (set {SPEC_ENV}): requests "
            "are checked against the documented limits only, not the published schema"
        )
        if in_ci():
            raise SpecMissing(reason)
        log.warning("%s", reason)
        return None
    with path.open(encoding="utf-8") as fh:
        return SpecChecker(json.load(fh))
