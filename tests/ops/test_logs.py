"""bot/logs.py: one line per event, JSON on request, the context's ids on each line,
never a secret."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from bot.logs import ContextFilter, JsonFormatter, TextFormatter, set_log_context

TOKEN = "MTIzNDU2Nzg5.fake-token.abcdefghijklmnop"


def _logger(formatter: logging.Formatter) -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(formatter)
    handler.addFilter(ContextFilter([TOKEN]))
    logger = logging.getLogger(f"test.logs.{id(out)}")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, out


async def test_a_json_line_names_what_the_interaction_was_about() -> None:
    logger, out = _logger(JsonFormatter())

    async def answer_a_click() -> None:
        set_log_context(guild=11, channel=22, member=33, shard=0)
        # a task started while answering carries the same ids
        await asyncio.create_task(asyncio.to_thread(lambda: None))
        logger.info("table saved", extra={"table": "t1"})

    # discord.py runs each event and each command in a task of its own
    await asyncio.create_task(answer_a_click())
    line = json.loads(out.getvalue().strip())
    assert line["message"] == "table saved" and line["level"] == "INFO"
    assert (line["guild"], line["channel"], line["member"], line["shard"]) == (11, 22, 33, 0)
    assert line["table"] == "t1"
    # another task's context is its own
    logger.info("elsewhere")
    assert "guild" not in json.loads(out.getvalue().strip().splitlines()[-1])


def test_the_token_never_reaches_a_line() -> None:
    for formatter in (JsonFormatter(), TextFormatter()):
        logger, out = _logger(formatter)
        logger.warning("login with %s failed", TOKEN)
        assert TOKEN not in out.getvalue() and "[secret]" in out.getvalue()


def test_an_exception_is_one_json_line_with_its_traceback() -> None:
    logger, out = _logger(JsonFormatter())
    try:
        raise ValueError("bad move")
    except ValueError:
        logger.exception("click failed")
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert line["error"] == "ValueError: bad move" and "Traceback" in line["traceback"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_log_format_is_a_setting(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.settings import Settings

    monkeypatch.setenv("LOG_FORMAT", fmt)
    assert Settings(_env_file=None).log_format == fmt  # type: ignore[call-arg]
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ValueError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_the_voice_library_warning_is_not_shown(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.logs import configure_logging

    configure_logging("INFO", "text")
    logging.getLogger("discord.client").warning(
        "PyNaCl is not installed, voice will NOT be supported"
    )
    logging.getLogger("discord.client").warning("something else")
    err = capsys.readouterr().err
    assert "voice" not in err and "something else" in err
