"""The one router (cogs/router.py): every registered game's buttons and forms are found
through the registry, an orphan click or a form submit reaches the game whose custom id
it carries, and a refusal is answered once, privately, in the member's language and in
the words of the game that raised it."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.errors import ServiceError, StaleButton
from bot.games import GAMES
from cogs import router
from cogs.pontoon.controls import PontoonButton
from cogs.punto_banco.controls import BetModal, PuntoBancoButton
from engine.errors import RuleError


@dataclass
class FakeResponse:
    sent: list[tuple[str, bool]] = field(default_factory=list)
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.done = True
        self.sent.append((text, ephemeral))


@dataclass
class FakeFollowup:
    sent: list[tuple[str, bool]] = field(default_factory=list)

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        self.sent.append((text, ephemeral))


@dataclass
class FakeUser:
    id: int = 42


@dataclass
class FakeInteraction:
    """What the router reads of an interaction (no client: the member's locale is read
    from ``locale``)."""

    data: dict[str, Any]
    type: discord.InteractionType = discord.InteractionType.component
    locale: str = "en-US"
    id: int = 1
    channel_id: int | None = 7
    message: Any = None
    user: FakeUser = field(default_factory=FakeUser)
    response: FakeResponse = field(default_factory=FakeResponse)
    followup: FakeFollowup = field(default_factory=FakeFollowup)
    client: Any = None


def answers(interaction: FakeInteraction) -> list[tuple[str, bool]]:
    return interaction.response.sent + interaction.followup.sent


def test_every_registered_game_brings_its_buttons_and_forms() -> None:
    buttons = list(router.registered_buttons())
    forms = list(router.registered_forms())
    for game in GAMES:
        package = importlib.import_module(game.package)
        assert package.BUTTONS and set(package.BUTTONS) <= set(buttons), game.name
        assert set(package.FORMS) <= set(forms), game.name
        assert callable(package.refusal_text), game.name
        for item in (*package.BUTTONS, *package.FORMS):
            assert router.game_package(item) is package, item
    assert router.game_package(router.Router) is None  # shared code speaks for no game
    prefixes = [b.prefix for b in buttons]
    assert all(prefixes) and len(prefixes) == len(set(prefixes)), prefixes


def test_the_custom_id_patterns_are_public_and_read_what_the_buttons_write() -> None:
    button = PuntoBancoButton("abc123", "withdraw", 4)
    assert button.item.custom_id == "pb:abc123:withdraw:4"
    match = PuntoBancoButton.pattern.fullmatch(button.item.custom_id or "")
    assert match is not None and match["act"] == "withdraw" and match["number"] == "4"
    assert PontoonButton.pattern.fullmatch("pb:abc123:withdraw:4") is None
    form = BetModal.pattern.fullmatch("pbm:abc123:banco:9")
    assert form is not None and (form["side"], form["round"]) == ("banco", "9")
    assert BetModal.pattern.fullmatch("pbm:abc123:nowhere:9") is None


@pytest.mark.parametrize(
    ("custom_id", "key"),
    [("pt:garbage", "no longer active"), ("zz:1:2", "not known to this bot")],
)
async def test_an_orphan_click_no_button_reads_gets_its_games_words(
    custom_id: str, key: str
) -> None:
    routes = router.Router(list(router.registered_buttons()), [])
    interaction = FakeInteraction({"custom_id": custom_id, "component_type": 2})
    await routes.on_interaction(interaction)  # type: ignore[arg-type]
    ((text, ephemeral),) = answers(interaction)
    assert key in text and ephemeral


async def test_an_orphan_click_a_button_reads_goes_to_that_button() -> None:
    seen: list[tuple[str, str, int]] = []

    class Probe(router.RoutedButton, template=r"zz:(?P<table>[a-z]+):(?P<n>[0-9]+)"):
        prefix = "zz"

        def __init__(self, table: str, n: int) -> None:
            super().__init__(discord.ui.Button(custom_id=f"zz:{table}:{n}"))
            self.table, self.n = table, n

        @classmethod
        async def from_custom_id(  # type: ignore[override]
            cls, interaction: Any, item: Any, match: re.Match[str], /
        ) -> Probe:
            return cls(match["table"], int(match["n"]))

        async def clicked(self, interaction: Any) -> None:
            seen.append(("clicked", self.table, self.n))
            raise StaleButton()

    routes = router.Router([Probe], [])
    interaction = FakeInteraction({"custom_id": "zz:abc:3", "component_type": 2})
    await routes.on_interaction(interaction)  # type: ignore[arg-type]
    assert seen == [("clicked", "abc", 3)]
    ((text, ephemeral),) = answers(interaction)  # the refusal, once, privately
    assert "older state" in text and ephemeral


@dataclass
class OnMessage:
    components: list[Any]


async def test_a_click_on_a_games_button_still_on_its_message_is_answered_once() -> None:
    # the router hands it to its button (discord.py does not: the games' buttons are
    # not registered with its dispatch), once
    routes = router.Router(list(router.registered_buttons()), [])
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(PuntoBancoButton("abc", "odds", 1))
    interaction = FakeInteraction(
        {"custom_id": "pb:abc:odds:1", "component_type": 2}, message=OnMessage([row])
    )
    seen: list[str] = []

    async def clicked(self: PuntoBancoButton, interaction: Any) -> None:
        seen.append(self.item.custom_id or "")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PuntoBancoButton, "clicked", clicked)
        await routes.on_interaction(interaction)  # type: ignore[arg-type]
    assert seen == ["pb:abc:odds:1"]


async def test_a_live_views_own_button_on_its_message_is_left_to_discord_py() -> None:
    routes = router.Router(list(router.registered_buttons()), [])
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(discord.ui.Button(label="Yes", custom_id="confirm-yes"))
    interaction = FakeInteraction(
        {"custom_id": "confirm-yes", "component_type": 2}, message=OnMessage([row])
    )
    await routes.on_interaction(interaction)  # type: ignore[arg-type]
    assert answers(interaction) == []


async def test_a_form_submit_reaches_its_form_with_the_fields_typed() -> None:
    got: list[tuple[str, dict[str, str]]] = []

    class Form(router.TableForm, template=r"zzm:(?P<table>[a-z]+)"):
        @classmethod
        async def submitted(
            cls, interaction: Any, match: re.Match[str], values: dict[str, str]
        ) -> None:
            got.append((match["table"], values))
            raise ServiceError("no", key="err.stale_button")

    routes = router.Router([], [Form])
    data = {
        "custom_id": "zzm:abc",
        "components": [{"type": 1, "components": [{"custom_id": "amount", "value": "12"}]}],
    }
    interaction = FakeInteraction(data, type=discord.InteractionType.modal_submit)
    await routes.on_interaction(interaction)  # type: ignore[arg-type]
    assert got == [("abc", {"amount": "12"})]
    ((text, _),) = answers(interaction)
    assert "older state" in text

    unknown = FakeInteraction({"custom_id": "zzm:ABC"}, type=discord.InteractionType.modal_submit)
    await routes.on_interaction(unknown)  # type: ignore[arg-type]
    ((text, _),) = answers(unknown)
    assert text == "That form is not known to this bot."


async def test_a_refusal_is_said_in_the_members_language_and_its_games_words() -> None:
    rule = RuleError("B-BET-1", "Bets are closed", key="err.rule.generic")
    german = FakeInteraction({}, locale="de")
    await router.refuse(german, rule, by=PuntoBancoButton)  # type: ignore[arg-type]
    english = FakeInteraction({})
    await router.refuse(english, rule, by=PuntoBancoButton)  # type: ignore[arg-type]
    shared = FakeInteraction({})
    await router.refuse(shared, rule, by=router.Router)  # type: ignore[arg-type]
    ((de_text, _),) = answers(german)
    ((en_text, _),) = answers(english)
    ((shared_text, _),) = answers(shared)
    assert en_text.startswith("Bet refused") and "B-BET-1" not in en_text
    assert de_text != en_text and not de_text.startswith("Bet refused")
    assert not shared_text.startswith("Bet refused")


async def test_an_answered_interaction_is_refused_by_followup() -> None:
    interaction = FakeInteraction({})
    interaction.response.done = True
    await router.refuse(interaction, StaleButton())  # type: ignore[arg-type]
    assert interaction.response.sent == []
    ((text, ephemeral),) = interaction.followup.sent
    assert "older state" in text and ephemeral


def test_a_message_with_a_games_buttons_is_no_live_view_for_discord_py() -> None:
    """discord.py keeps (and dispatches to) only the views it finds dispatchable; a game's
    table or offer is answered by the router alone, so a click is answered once."""
    table = discord.ui.LayoutView(timeout=None)
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    for act in ("join", "leave"):
        row.add_item(PontoonButton("abc", act, 3))
    table.add_item(row)
    assert not table.is_dispatchable()
    live = discord.ui.View(timeout=None)
    live.add_item(discord.ui.Button(label="Yes", custom_id="confirm-yes"))
    assert live.is_dispatchable()  # a live view's own button still is
