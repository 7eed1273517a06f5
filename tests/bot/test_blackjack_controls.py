"""Blackjack's buttons and forms on the shared router (cogs/router.py): their custom ids
read back by the router, a form's submit routed from its custom id alone, a refusal
answered once and privately in Blackjack's words, and /help's section naming only
commands the /blackjack group has (rules: BJ-BET-1, BJ-INS-1)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import cogs.blackjack as package
from bot.errors import StaleButton
from cogs import router
from cogs.blackjack.commands import Blackjack
from cogs.blackjack.controls import AmountForm, BlackjackButton, refusal_text
from engine.errors import RuleError
from tests.bot.test_router import FakeInteraction, answers


def test_the_router_reads_what_the_buttons_and_forms_write() -> None:
    button = BlackjackButton("abc123", "hit", 17)
    assert button.item.custom_id == "bj:abc123:hit:17"
    match = BlackjackButton.pattern.fullmatch(button.item.custom_id or "")
    assert match is not None and (match["act"], match["number"]) == ("hit", "17")
    assert BlackjackButton in router.registered_buttons()
    assert AmountForm in router.registered_forms()
    form = AmountForm("abc123", "insurance", 3, 5, 5)
    assert form.custom_id == "bjm:abc123:insurance:3"
    found = AmountForm.pattern.fullmatch(form.custom_id)
    assert found is not None and (found["form"], found["number"]) == ("insurance", "3")
    assert AmountForm.pattern.fullmatch("bjm:abc123:double:3") is None
    assert router.game_package(AmountForm) is package


@pytest.mark.rule("BJ-BET-1")
async def test_a_bet_form_with_no_number_is_refused_privately_by_the_router() -> None:
    routes = router.Router(list(router.registered_buttons()), list(router.registered_forms()))
    data = {
        "custom_id": "bjm:abc123:bet:2",
        "components": [{"type": 1, "components": [{"custom_id": "amount", "value": "ten"}]}],
    }
    interaction = FakeInteraction(data, type=discord.InteractionType.modal_submit)
    await routes.on_interaction(interaction)  # type: ignore[arg-type]
    ((text, ephemeral),) = answers(interaction)  # once, privately; nothing was placed
    assert ephemeral and "ten" in text and "not known" not in text


@pytest.mark.rule("BJ-INS-1")
async def test_a_refusal_is_said_in_blackjacks_words_in_the_members_language() -> None:
    rule = RuleError("BJ-INS-1", "no insurance", key="engine.bj.no_insurance")
    english = FakeInteraction({})
    german = FakeInteraction({}, locale="de")
    for interaction in (english, german):
        await router.refuse(interaction, rule, by=BlackjackButton)  # type: ignore[arg-type]
    ((en_text, en_private),) = answers(english)
    ((de_text, _),) = answers(german)
    assert en_private and en_text == refusal_text(english, rule, "en")  # type: ignore[arg-type]
    assert "BJ-INS-1" not in en_text and "BJ-INS-1" not in de_text and de_text != en_text
    stale = FakeInteraction({})
    await router.refuse(stale, StaleButton(), by=AmountForm)  # type: ignore[arg-type]
    ((text, _),) = answers(stale)
    assert "older state" in text


def test_the_cog_leaves_forms_to_the_router() -> None:
    assert Blackjack.__cog_listeners__ == []  # no on_interaction of its own


def test_help_names_only_commands_of_the_blackjack_group() -> None:
    commands: set[str] = {c.name for c in Blackjack.__cog_app_commands__}
    paths: list[Any] = [p for g in package.HELP.groups for p in g.paths]
    assert paths and all(p.startswith("blackjack ") for p in paths)
    named = {p.removeprefix("blackjack ") for p in paths}
    assert named == commands, commands ^ named
