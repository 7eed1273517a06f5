"""What an operator can watch: Prometheus metrics and a health check over HTTP.

Off unless ``METRICS_PORT`` is set; listens on ``METRICS_HOST`` (127.0.0.1 by default).

* ``GET /metrics``: Prometheus text format (``prometheus-client``): interactions answered
  and how long the answer took, refusals by kind, REST requests by status and the 429s
  among them, open tables, rounds played and chips in escrow per game (the label
  ``game``: the registry's name of the game), storage write time and retries.

Every name starts ``pontoon_``: the bot's name (the distribution ``pontoon-bot``), not a
game's. The names stay so that operators' dashboards and alerts keep working; what is
per game is told by the ``game`` label, so a new game needs no new metric.
* ``GET /healthz``: 200 with a small JSON body when the gateway is connected, the
  database answers a write and this process holds its shard leases; 503 with the
  reason otherwise. ``python -m bot health`` asks it (the container's HEALTHCHECK).

No discord imports: start-up (``bot.app``) feeds the counters from discord.py's events
and its aiohttp trace, and gives the server a ``health`` callable.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

log = logging.getLogger(__name__)

# seconds: Discord wants an answer within 3 s; most of ours take milliseconds
ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)
PENDING_MAX = 10_000  # interactions waiting for their answer we keep a start time for


class Metrics:
    """The process's metrics, in a registry of their own (tests read them directly)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.interactions = Counter(
            "pontoon_interactions_answered", "Interactions answered", ["kind"], registry=r
        )
        self.answer_seconds = Histogram(
            "pontoon_interaction_answer_seconds",
            "Time from receiving an interaction to its answer being accepted by Discord",
            buckets=ANSWER_BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "pontoon_refusals", "Actions refused to a member, by kind", ["kind"], registry=r
        )
        self.rest_requests = Counter(
            "pontoon_rest_requests", "REST requests to Discord", ["method", "status"], registry=r
        )
        self.rate_limited = Counter(
            "pontoon_rest_rate_limited", "REST requests Discord answered with 429", registry=r
        )
        self.rounds = Counter(
            "pontoon_rounds_played",
            "Rounds played to their end, by game (a coup is a round)",
            ["game"],
            registry=r,
        )
        self.write_seconds = Histogram(
            "pontoon_storage_write_seconds",
            "Time to store one table change with its chip moves",
            buckets=WRITE_BUCKETS,
            registry=r,
        )
        self.write_retries = Gauge(
            "pontoon_storage_write_retries",
            "Writes tried again after a conflict since start (PostgreSQL)",
            registry=r,
        )
        self.open_tables = Gauge("pontoon_open_tables", "Open tables", ["game"], registry=r)
        self.escrow_chips = Gauge(
            "pontoon_escrow_chips", "Chips staked at open tables", ["game"], registry=r
        )
        self._pending: dict[int, float] = {}

    # ------------------------------------------------------------------ feeding
    def received(self, interaction_id: int) -> None:
        """An interaction arrived (its answer's latency is measured from now)."""
        if len(self._pending) >= PENDING_MAX:  # answers that never came: forget the oldest
            self._pending.pop(next(iter(self._pending)))
        self._pending[interaction_id] = time.monotonic()

    def answered(self, interaction_id: int, kind: str = "callback") -> None:
        """Discord accepted the answer to an interaction."""
        start = self._pending.pop(interaction_id, None)
        self.interactions.labels(kind).inc()
        if start is not None:
            self.answer_seconds.observe(time.monotonic() - start)

    def request(self, method: str, status: int) -> None:
        self.rest_requests.labels(method, str(status)).inc()
        if status == 429:
            self.rate_limited.inc()

    def refused(self, kind: str) -> None:
        self.refusals.labels(kind).inc()

    def round_played(self, game: str) -> None:
        self.rounds.labels(game).inc()

    def value(self, name: str, **labels: str) -> float:
        """One sample's current value (0.0 if it was never set): for tests and health."""
        got = self.registry.get_sample_value(name, labels or None)
        return 0.0 if got is None else got


METRICS = Metrics()

# an interaction's answer: POST /interactions/{id}/{token}/callback
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def trace_config(metrics: Metrics = METRICS) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's HTTP client (``Client(http_trace=...)``): every
    REST request counted by method and status, each accepted interaction answer timed."""
    trace = aiohttp.TraceConfig()

    async def on_end(
        _session: aiohttp.ClientSession,
        _context: object,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        metrics.request(params.method, status)
        answer = _CALLBACK.search(params.url.path)
        if answer is not None and status < 300:
            metrics.answered(int(answer.group(1)))

    trace.on_request_end.append(on_end)
    return trace


@dataclass
class Health:
    """One health check's result: ok, and what is wrong when not."""

    ok: bool
    checks: dict[str, bool] = field(default_factory=dict)
    detail: str = ""

    def to_json(self) -> str:
        return json.dumps({"ok": self.ok, "checks": self.checks, "detail": self.detail})


HealthCheck = Callable[[], Awaitable[Health]]


class MetricsServer:
    """The HTTP endpoint (aiohttp, already a dependency of discord.py)."""

    def __init__(
        self,
        host: str,
        port: int,
        health: HealthCheck,
        refresh: Callable[[], None] = lambda: None,
        metrics: Metrics = METRICS,
    ) -> None:
        self.host, self.port = host, port
        self.health = health
        self.refresh = refresh  # brings the gauges up to date before a scrape
        self.metrics = metrics
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, _request: web.Request) -> web.Response:
        try:
            self.refresh()
        except Exception:
            log.exception("could not bring the gauges up to date")
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, _request: web.Request) -> web.Response:
        try:
            health = await self.health()
        except Exception as exc:  # a check that fails is an unhealthy bot, not a 500
            health = Health(False, detail=f"health check failed: {type(exc).__name__}")
        return web.Response(
            text=health.to_json(),
            status=200 if health.ok else 503,
            content_type="application/json",
        )


__all__ = ["METRICS", "Health", "HealthCheck", "Metrics", "MetricsServer", "trace_config"]
