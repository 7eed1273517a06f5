"""bot/metrics.py: the /metrics and /healthz endpoint and what feeds it."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web

from bot.metrics import Health, Metrics, MetricsServer, trace_config


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_healthz_says_200_when_healthy_and_503_with_the_reason_when_not() -> None:
    healthy = {"ok": True}

    async def health() -> Health:
        ok = healthy["ok"]
        return Health(ok, {"gateway": ok, "database": True}, "" if ok else "not ok: gateway")

    port = _free_port()
    server = MetricsServer("127.0.0.1", port, health, metrics=Metrics())
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                assert r.status == 200 and (await r.json())["ok"] is True
            healthy["ok"] = False
            async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                body = await r.json()
                assert r.status == 503 and body["checks"]["gateway"] is False
                assert body["detail"] == "not ok: gateway"
    finally:
        await server.stop()


async def test_a_failing_health_check_is_unhealthy_not_a_crash() -> None:
    async def broken() -> Health:
        raise RuntimeError("database gone")

    port = _free_port()
    server = MetricsServer("127.0.0.1", port, broken, metrics=Metrics())
    await server.start()
    try:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/healthz") as r,
        ):
            assert r.status == 503 and "RuntimeError" in (await r.json())["detail"]
    finally:
        await server.stop()


async def test_the_trace_counts_requests_429s_and_times_interaction_answers() -> None:
    metrics = Metrics()

    async def callback(_request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def limited(_request: web.Request) -> web.Response:
        return web.Response(status=429)

    app = web.Application()
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    app.router.add_get("/api/v10/channels/1", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    port = _free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        metrics.received(1234)
        async with aiohttp.ClientSession(trace_configs=[trace_config(metrics)]) as http:
            base = f"http://127.0.0.1:{port}/api/v10"
            await (await http.post(f"{base}/interactions/1234/tok/callback")).release()
            await (await http.get(f"{base}/channels/1")).release()
    finally:
        await runner.cleanup()
    assert metrics.value("pontoon_rest_requests_total", method="POST", status="204") == 1
    assert metrics.value("pontoon_rest_requests_total", method="GET", status="429") == 1
    assert metrics.value("pontoon_rest_rate_limited_total") == 1
    assert metrics.value("pontoon_interactions_answered_total", kind="callback") == 1
    assert metrics.value("pontoon_interaction_answer_seconds_count") == 1


def test_metrics_port_is_off_by_default_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.settings import Settings

    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert Settings(_env_file=None).metrics_port is None  # type: ignore[call-arg]
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(ValueError):
        Settings(_env_file=None)  # type: ignore[call-arg]
