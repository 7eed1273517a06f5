"""One way to speak: every refusal and message names its message id. No code
reads English back into an id; every storage error and every ServiceError renders its own
catalog message in all five languages; table options refused by the engine name theirs."""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime
from pathlib import Path

import pydantic
import pytest

import bot.pontoon
import bot.punto_banco
import bot.storage.leases
import bot.storage.lock
from bot.errors import (
    BadAmount,
    EngineFault,
    NoTableHere,
    ServiceError,
    config_detail,
    engine_fault,
    friendly,
    options_error,
)
from bot.i18n import LOCALES, catalog, placeholders, t
from bot.storage import errors as storage_errors
from bot.storage.errors import StorageError
from bot.storage.leases import Lease
from engine.errors import ConfigError
from engine.pontoon import PontoonRules
from engine.punto_banco.rules import PuntoBancoRules

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\b[PB]-[A-Z]{2,}")


def test_no_code_looks_english_up_in_the_catalog() -> None:
    """``english_key``/``from_english`` are gone and stay gone from the bot and cogs."""
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]
        for name in ("english_key", "from_english")
        if name in path.read_text(encoding="utf-8")
    ]
    assert found == []
    import bot.i18n

    assert not hasattr(bot.i18n, "english_key") and not hasattr(bot.i18n, "from_english")


# ---------------------------------------------------------------- storage errors
def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


WHEN = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
LEASE = Lease(0, 1, "other-host:42", WHEN, WHEN)
#: how to build each storage error that needs arguments (the rest take none)
STORAGE_SAMPLES: dict[str, list[StorageError]] = {
    "InsufficientChips": [
        storage_errors.InsufficientChips("member:1:22", 50, 3),
        storage_errors.InsufficientChips("escrow:t1", 50, 3),
        storage_errors.InsufficientChips("kitty:t1", 50, 3),
        storage_errors.InsufficientChips("house:1", 50, 3),
    ],
    "InvalidAmount": [
        storage_errors.InvalidAmount(1.5, storage_errors.Msg("err.storage.amount.whole")),
        storage_errors.InvalidAmount(0, storage_errors.Msg("err.storage.amount.min", low=1)),
    ],
    "InvalidSetting": [],  # raised by the store itself: see the test below
    "DailyNotReady": [storage_errors.DailyNotReady(WHEN)],
    "NotOldEnough": [storage_errors.NotOldEnough(WHEN)],
    "SettingChangedMeanwhile": [storage_errors.SettingChangedMeanwhile("daily_chips", 5)],
    "TableNotFound": [storage_errors.TableNotFound("t1")],
    "TableClosed": [storage_errors.TableClosed("t1")],
    "TableAlreadyOpen": [storage_errors.TableAlreadyOpen(5, "t1")],
    "StaleVersion": [storage_errors.StaleVersion("t1", 3, 4)],
    "ChipsInPlayElsewhere": [storage_errors.ChipsInPlayElsewhere(1, 2, "t1")],
    "TableNotEmpty": [storage_errors.TableNotEmpty("t1", "escrow:t1", 5)],
    "DatabaseInUse": [bot.storage.lock.DatabaseInUse(Path("/srv/bot.sqlite3"), "4242")],
    "ShardsTaken": [bot.storage.leases.ShardsTaken([LEASE], 2)],
    "LeaseLost": [bot.storage.leases.LeaseLost("me", [0])],
    "MemberOnBreak": [storage_errors.MemberOnBreak(WHEN)],
    "BreakAlreadyLonger": [storage_errors.BreakAlreadyLonger(WHEN)],
    "TablesStillOpen": [storage_errors.TablesStillOpen(2)],
    "UnknownSeason": [storage_errors.UnknownSeason(7, 3)],
    "SeasonAlreadyReset": [storage_errors.SeasonAlreadyReset(3)],
    "GiftCapReached": [storage_errors.GiftCapReached(500, 120, WHEN)],
    "GiftsOff": [storage_errors.GiftsOff()],
}


def _storage_errors() -> list[StorageError]:
    out: list[StorageError] = [StorageError("internal words")]
    for cls in _subclasses(StorageError):
        if cls.__name__ in STORAGE_SAMPLES:
            out += STORAGE_SAMPLES[cls.__name__]
        else:
            required = [
                p
                for p in inspect.signature(cls).parameters.values()
                if p.default is p.empty and p.kind is not p.VAR_KEYWORD
            ]
            assert not required, f"{cls.__name__}: add a sample to STORAGE_SAMPLES"
            out.append(cls("operator detail"))
    return out


async def _invalid_settings(tmp_path: Path) -> list[StorageError]:
    from bot.storage import Store
    from bot.storage.base import check_amount

    store = await Store.open(tmp_path / "bot.sqlite3")
    found: list[StorageError] = []
    try:
        for key, value in (("no_such_setting", 5), ("daily_chips", -1)):
            with pytest.raises(storage_errors.InvalidSetting) as info:
                await store.set_guild_setting(1, key, value)
            found.append(info.value)
    finally:
        await store.close()
    for amount in (True, 0, 10**12):
        with pytest.raises(storage_errors.InvalidAmount) as bad:
            check_amount(amount, low=1, high=10**9)
        found.append(bad.value)
    return found


def _assert_renders(exc: BaseException, key: str, params: dict[str, object]) -> None:
    for locale in LOCALES:
        assert key in catalog(locale), (type(exc).__name__, key, locale)
        said = friendly(exc, locale)
        assert said == t(locale, key, **params), (type(exc).__name__, locale)
        assert placeholders(catalog(locale)[key]) <= set(params)
        assert said != key and said != t(locale, "err.generic.refused")
        assert not RULE_ID.search(said) and "{" not in said, said
        assert "t1" not in said and "member:" not in said and "4242" not in said, said


@pytest.mark.parametrize("exc", _storage_errors(), ids=lambda e: type(e).__name__)
def test_every_storage_error_renders_its_catalog_message_in_every_language(
    exc: StorageError,
) -> None:
    _assert_renders(exc, exc.key, exc.params)
    # the English sentence for logs is the catalog's English
    assert exc.user_message == t("en", exc.key, **exc.params)


async def test_the_stores_own_setting_and_amount_refusals_render_in_every_language(
    tmp_path: Path,
) -> None:
    found = await _invalid_settings(tmp_path)
    assert [type(e).__name__ for e in found] == ["InvalidSetting"] * 2 + ["InvalidAmount"] * 3
    for exc in found:
        _assert_renders(exc, exc.key, exc.params)
    assert "from 0 to" in found[1].user_message and "daily_chips" in found[1].user_message
    assert "ganze Zahl" in friendly(found[1], "de")
    assert "ganze Zahl" in friendly(found[2], "de")  # True is not a number of chips


def test_insufficient_chips_names_a_member_by_mention_and_the_table_by_words() -> None:
    member = storage_errors.InsufficientChips("member:1:22", 50, 3)
    assert "<@22>" in friendly(member, "fa")
    kitty = storage_errors.InsufficientChips("kitty:t1", 50, 3)
    assert t("de", "err.storage.kitty") in friendly(kitty, "de")


# --------------------------------------------------------------- service errors
def _service_errors() -> list[ServiceError]:
    out: list[ServiceError] = []
    import cogs.common  # noqa: F401  (its refusals are raised directly, not subclasses)

    for cls in _subclasses(ServiceError):
        if cls is BadAmount:
            from bot.errors import _Amount

            out += [
                _Amount.missing("bet"),
                _Amount.not_number("lots"),
                _Amount.too_large("bet"),
                _Amount.negative("bet"),
            ]
        elif cls is EngineFault:
            out += [EngineFault(), engine_fault(ConfigError("the pack is empty"))]
        elif cls is NoTableHere:
            continue  # the base of each game's "no table here", never raised itself
        elif cls.__module__.split(".")[0] == "tests":
            continue  # the tests' own fourth game: English only, in no catalog until registered
        else:
            out.append(cls())
    return out


SERVICE = _service_errors()


def test_every_service_error_subclass_is_met() -> None:
    names = {type(e).__name__ for e in SERVICE}
    assert {
        "NoPontoonTable",
        "NoPuntoBancoTable",
        "WindowClosed",
        "BadAmount",
        "EngineFault",
    } <= names
    assert bot.pontoon and bot.punto_banco  # imported so their subclasses count


@pytest.mark.parametrize("exc", SERVICE, ids=lambda e: f"{type(e).__name__}-{e.key}")
def test_every_service_error_renders_its_catalog_message_in_every_language(
    exc: ServiceError,
) -> None:
    _assert_renders(exc, exc.key, exc.params)
    assert "pack is empty" not in friendly(exc, "en")  # engine details stay in logs


def test_a_service_error_needs_a_message_id() -> None:
    with pytest.raises(TypeError):
        ServiceError("no id")  # type: ignore[call-arg]


@pytest.mark.parametrize("locale", LOCALES)
def test_an_unknown_id_is_a_logged_bug_and_a_generic_line(
    locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    exc = ServiceError("That is not possible right now; nothing was changed.", key="err.nope")
    assert friendly(exc, locale) == t(locale, "err.generic.refused")
    assert "bug" in caplog.text
    caplog.clear()
    missing = ServiceError("Please give the amount.", key="err.amount.missing")  # no {what}
    assert friendly(missing, locale) == t(locale, "err.generic.refused")
    assert "bug" in caplog.text


# ---------------------------------------------------------------- table options
def _options_refusals() -> list[ConfigError]:
    found: list[ConfigError] = []
    for model, options in [
        (PontoonRules, {"min_bet": 5, "max_bet": 2}),
        (PontoonRules, {"packs": 3}),
        (PontoonRules, {"kitty_min": 9, "kitty_max": 2}),
        (PontoonRules, {"house_bank": True, "shoot": True}),
        (PontoonRules, {"max_seats": 1}),
        (PontoonRules, {"house_stands_on": 30}),
        (PuntoBancoRules, {"min_bet": 9, "max_bet": 2}),
    ]:
        with pytest.raises(pydantic.ValidationError) as info:
            model(**options)
        found.append(options_error(info.value))
    return found


@pytest.mark.parametrize("exc", _options_refusals(), ids=lambda e: str(e.key))
def test_table_options_the_engine_refuses_name_their_message(exc: ConfigError) -> None:
    assert exc.key is not None and exc.key.startswith("err.config.")
    for locale in LOCALES:
        assert exc.key in catalog(locale)
        said = friendly(exc, locale)
        assert said == t(locale, "err.config", detail=t(locale, exc.key))
        assert not RULE_ID.search(said) and "min_bet" not in said


def test_options_without_an_id_say_they_do_not_fit(caplog: pytest.LogCaptureFixture) -> None:
    exc = ConfigError("1 validation error for PontoonRules")
    assert config_detail(exc).key == "err.config.unknown"
    assert "bug" in caplog.text
    said = friendly(exc, "hi")
    assert said == t("hi", "err.config", detail=t("hi", "err.config.unknown"))
    assert "validation" not in said
