"""Who gets each answer of a Pontoon button, and whether it is private, without the fake
Discord: the button handler runs against a recording interaction. Face-down cards go to
their owner only and never in a public answer (P-DEAL-1); a refusal is the clicking
member's own private message. The end-to-end tests check the same through a real
gateway; these run in a fraction of a second, so a public "Show my cards" fails here too.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from bot.pontoon import GAME_PONTOON, OpenPontoonTable
from cogs.pontoon.controls import PontoonButton, handle_button
from cogs.pontoon.presenter import PontoonDiscordPresenter
from cogs.pontoon.render import cards_text
from cogs.router import refuse
from engine.cards import RandomChance
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import Action, ActionKind

ANN, BOB, CAT, ZED = (10**17 + i for i in range(4))
CARD = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")


@dataclass
class Answer:
    """One answer Discord would get: to whose interaction, private or not, the text."""

    to: int
    ephemeral: bool
    text: str
    kind: str


@dataclass
class Recorder:
    answers: list[Answer] = field(default_factory=list)


class Response:
    """The parts of ``discord.InteractionResponse`` a button answer may use."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.done = False

    def is_done(self) -> bool:
        return self.done

    def _record(self, kind: str, content: Any, ephemeral: bool) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.interaction.recorder.answers.append(
            Answer(self.interaction.user.id, ephemeral, str(content or ""), kind)
        )

    async def send_message(self, content: Any = None, *, ephemeral: bool = False, **_: Any) -> None:
        self._record("message", content, ephemeral)

    async def edit_message(self, *, content: Any = None, **_: Any) -> None:
        self._record("update", content, False)  # an update of the public table message

    async def defer(self, *, ephemeral: bool = False, **_: Any) -> None:
        self._record("defer", "", ephemeral)

    async def send_modal(self, modal: Any) -> None:
        self._record("modal", getattr(modal, "title", ""), True)


class Followup:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction

    async def send(self, content: Any = None, *, ephemeral: bool = False, **_: Any) -> None:
        self.interaction.recorder.answers.append(
            Answer(self.interaction.user.id, ephemeral, str(content or ""), "followup")
        )


class Interaction:
    """A member's click on the table message, as the handler reads it."""

    def __init__(self, client: Any, user_id: int, recorder: Recorder) -> None:
        self.client = client
        self.user = SimpleNamespace(id=user_id, display_name=f"m{user_id % 100}", bot=False)
        self.id = random.getrandbits(60)
        self.locale = "en-US"
        self.guild_locale = "en-US"
        self.guild_id = 1
        self.channel_id = 2
        self.recorder = recorder
        self.response = Response(self)
        self.followup = Followup(self)


def dealt_table() -> OpenPontoonTable:
    """ann, bob and cat seated, the bank cut and each player's first card dealt."""
    eng = Table(PontoonRules(min_bet=1, max_bet=10))
    chance = RandomChance(random.Random(7))
    for uid in (ANN, BOB, CAT):
        eng.apply(Action(str(uid), ActionKind.JOIN, amount=1000), chance)
    eng.apply(Action(str(ANN), ActionKind.DEAL), chance)
    live = OpenPontoonTable("t1", 1, 2, ANN, eng)
    live.names = {str(ANN): "ann", str(BOB): "bob", str(CAT): "cat"}
    return live


def client_for(live: OpenPontoonTable) -> Any:
    service = SimpleNamespace(
        get=lambda table_id: live,
        tables={live.table_id: live},
        by_channel={live.channel_id: live.table_id},
        seconds_left=lambda live: None,
    )
    client: Any = SimpleNamespace(
        games={GAME_PONTOON: service}, get_guild=lambda gid: None, presenters={}
    )
    client.presenters[GAME_PONTOON] = PontoonDiscordPresenter(client, service)
    return client


async def click(live: OpenPontoonTable, who: int, act: str, recorder: Recorder) -> Answer:
    before = len(recorder.answers)
    interaction = Interaction(client_for(live), who, recorder)
    try:  # as PontoonButton.callback does: a refusal goes to the one error handler
        await handle_button(interaction, "t1", act, live.engine.version)
    except Exception as exc:
        await refuse(interaction, exc, by=PontoonButton)
    new = recorder.answers[before:]
    assert len(new) == 1, new
    return new[0]


def own_cards(live: OpenPontoonTable, seat: int) -> list[str]:
    """The member's cards as the bot writes them (``8♠``)."""
    return [cards_text([c]) for hand in live.engine.private_view(str(seat)) for c in hand.cards]


def cards_in(text: str) -> list[str]:
    return [m.group(0) for m in CARD.finditer(text)]


@pytest.mark.rule("P-DEAL-1")
async def test_show_my_cards_answers_only_the_member_who_clicked_privately() -> None:
    live = dealt_table()
    players = [u for u in (ANN, BOB, CAT) if str(u) != live.engine.banker]
    recorder = Recorder()
    for uid in players:
        assert own_cards(live, uid), "a player holds a first card after the deal"
        answer = await click(live, uid, "cards", recorder)
        assert answer.to == uid and answer.kind == "message"
        assert answer.ephemeral, f"{uid}'s cards were answered publicly: {answer.text}"
        # the member's own first card, and no other card
        assert cards_in(answer.text) == own_cards(live, uid), (answer.text, own_cards(live, uid))


async def test_show_my_cards_for_a_member_not_seated_is_a_private_answer_without_cards() -> None:
    live = dealt_table()
    recorder = Recorder()
    answer = await click(live, ZED, "cards", recorder)
    assert answer.to == ZED and answer.ephemeral, answer
    assert not cards_in(answer.text), answer.text
    assert "not seated" in answer.text, answer.text


async def test_a_refused_click_is_the_clicking_members_private_answer() -> None:
    live = dealt_table()
    before = live.engine.to_json()
    recorder = Recorder()
    answer = await click(live, ZED, "bet", recorder)  # not seated: the Bet form is refused
    assert answer.to == ZED and answer.ephemeral and answer.kind in ("message", "followup")
    assert "Join" in answer.text, answer.text
    assert live.engine.to_json() == before
