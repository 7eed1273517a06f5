"""scripts/fault_campaign.py reads the Pontoon table message as the bot now sends it: a
Components V2 layout (a container of text displays, separators and action rows, the
buttons nested inside, no embed). It finds the table message as the fake creates it, and
reads its enabled buttons, whose move it is, the banker, whether it is closed and the
version its custom ids carry (the restart check compares that with the stored version).
When the campaign read top-level rows and embeds it found no table at all."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Msg
from engine.pontoon.types import Phase
from localdiscord import FakeDiscord
from localdiscord.layout import FLAG_COMPONENTS_V2
from localdiscord.models import FakeChannel, FakeMessage, FakeUser
from tests.bot.test_pontoon_words import live_table, play_to, presenter
from tests.scripts.loading import load_script

ROOT = Path(__file__).resolve().parents[2]


campaign = load_script("fault_campaign.py", "fault_campaign_script")


def table_message(comps: list[dict[str, Any]]) -> FakeMessage:
    msg = FakeMessage(
        id=1,
        channel=FakeChannel(10, "pontoon", guild_id=1),
        author=FakeUser(2, "bot", bot=True),
        content="",
        embeds=[],
        components=comps,
        flags=FLAG_COMPONENTS_V2,
        created_at=0.0,
        timestamp="",
    )
    msg.snapshot("create")
    return msg


@pytest.mark.parametrize(
    ("phase", "staked_before", "clickable"),
    [
        # the table's first round: no stake of a last round to repeat, no Same bet
        (Phase.BETTING, False, {"Bet", "Show my cards"}),
        (Phase.BETTING, True, {"Bet", "Same bet", "Show my cards"}),
        (Phase.PLAYING, False, {"Twist", "Stick", "Buy", "Show my cards", "Hint"}),
        (Phase.BANKER, False, {"Twist", "Stick", "Show my cards"}),
        # between rounds the opener may add a computer player
        (
            Phase.ROUND_OVER,
            False,
            {"Deal", "Join", "Leave", "Show my cards", "Add a computer player"},
        ),
    ],
)
def test_the_campaign_reads_a_layout_table_message(
    phase: Phase, staked_before: bool, clickable: set[str]
) -> None:
    live = live_table(4)
    play_to(live, phase)
    if staked_before:  # a later round: a seat's stake of the last round is kept
        live.last_bets = {live.engine.seats[-1]: 1}
    msg = table_message(presenter().layout(live).to_components())
    version = live.engine.version
    assert all(c["type"] != 1 for c in msg.components)  # no top-level rows: all nested

    enabled, turn, banker, closed = campaign.parse_table(msg)

    assert set(enabled) == clickable
    for label, cid in enabled.items():
        # the banker's own buttons are picked by their plain names, with the table's ids
        action = {
            "Show my cards": "cards",
            "Same bet": "same_bet",
            "Add a computer player": "computer",
        }.get(label, label.lower())
        assert cid == f"pt:abc123:{action}:{version}"
    assert campaign.table_version(msg) == version
    assert banker == live.names[live.engine.banker or ""]
    assert closed is False
    if phase is Phase.PLAYING:
        assert turn == live.names[live.engine.to_act()[0]]
    elif phase is Phase.BANKER:
        assert turn == "the banker"
    else:
        assert turn is None


def test_a_closed_layout_reads_closed_with_nothing_to_click() -> None:
    live = live_table(3)
    msg = table_message(presenter().layout(live, Msg("reason.idle")).to_components())
    enabled, _, _, closed = campaign.parse_table(msg)
    assert closed is True and enabled == {}
    assert campaign.table_version(msg) == live.engine.version


def test_an_older_version_of_the_message_gives_its_stale_ids() -> None:
    """The load phase clicks stale buttons taken from the message's earlier versions."""
    live = live_table(4)
    play_to(live, Phase.BETTING)
    msg = table_message(presenter().layout(live).to_components())
    old = live.engine.version
    play_to(live, Phase.PLAYING)
    msg.components = presenter().layout(live).to_components()
    msg.snapshot("edit")
    assert campaign.table_version(msg.history[0]) == old != campaign.table_version(msg)


async def test_the_campaign_indexes_table_messages_and_payout_posts_as_created() -> None:
    fake = FakeDiscord()
    camp = campaign.Campaign(fake, ROOT, random.Random(1))
    channel = fake.add_text_channel(fake.add_guild("Casino"), "pontoon-0")
    live = live_table(4)
    play_to(live, Phase.BETTING)
    body = {"components": presenter().layout(live).to_components(), "flags": FLAG_COMPONENTS_V2}
    msg = fake._create_message(channel, body, [])
    assert camp.table_message(channel) is msg
    fake._create_message(channel, {"embeds": [{"title": "Payouts", "description": "x"}]}, [])
    assert camp.payouts[channel.id] == 1
