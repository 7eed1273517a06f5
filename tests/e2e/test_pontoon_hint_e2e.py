"""The Hint through the fake Discord, in five languages: a Pontoon round where, at every
decision, every member presses **Hint** on the shared table message. The member whose
turn it is reads the hint privately (in their language, saying which banker play it
assumes); everyone else is told privately that a hint is for their own turn, and nothing
changes. ``/pontoon hint`` answers the same way. Chips are conserved over the round."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from bot.i18n import Raw, t
from localdiscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.e2e.conftest import StartBot, World
from tests.e2e.i18n_check import english_leaks
from tests.e2e.pontoon_driver import Table, cards_in, start

pytestmark = pytest.mark.e2e

NAMES = ["alice", "bob", "carol", "Casino", "pontoon"]


def _number(text: str) -> int:
    """The integer in ``text`` whatever its digits and grouping (1,000 · ۱٬۰۰۰)."""
    digits = [
        str(unicodedata.decimal(ch)) for ch in text if unicodedata.decimal(ch, None) is not None
    ]
    assert digits, text
    return int("".join(digits))


def _before(template: str) -> str:
    return template.split("|")[0].strip()


@pytest.mark.parametrize("locale", ["en", "de", "fr", "hi", "fa"])
async def test_a_hint_on_every_decision_in_five_languages(
    locale: str,
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
) -> None:
    fake = fake_discord
    L = locale
    members = [world.alice, world.bob, world.carol]
    if L not in ("en", "fa"):
        fake.set_guild_locale(world.guild, L)
        for member in members:
            fake.set_locale(member, L)
    tb = Table(fake, world)
    await start(start_bot_process, tmp_path / "db.sqlite3", SHUFFLE_SEED="3")
    results: list[InteractionResult] = []

    async def cmd(
        member: FakeMember, command: str, sub: str | None, opts: dict[str, object]
    ) -> str:
        r = await fake.slash(member, world.channel, command, sub, opts)
        results.append(r)
        await tb.answered(r)
        return r.all_text

    if L == "fa":
        await cmd(world.alice, "language", None, {"server": "fa", "member": "fa"})
        for member in members[1:]:
            await cmd(member, "language", None, {"member": "fa"})

    async def chips() -> int:
        total = 0
        for member in members:
            text = await cmd(member, "balance", None, {})
            found = re.search(r"\*\*(.+?)\*\*", text)
            assert found, text
            total += _number(found.group(1))
        return total

    before = await chips()

    def table() -> FakeMessage:
        return fake.latest_message_with_button(world.channel, t(L, "pt.button.cards"))

    def enabled() -> set[str]:
        return {b.label or "" for b in table().buttons() if not b.disabled}

    async def click(member: FakeMember, key: str) -> InteractionResult:
        r = await fake.click(member, table(), label=t(L, key))
        results.append(r)
        await tb.answered(r)
        return r

    opened = await cmd(world.alice, "pontoon", "start", {"min_bet": 1, "max_bet": 10})
    assert opened == t(L, "pt.opened"), opened
    for member in members[1:]:
        await click(member, "pt.button.join")
    assert t(L, "pt.button.hint") not in enabled()  # no round: no hint to give
    await click(world.alice, "pt.button.deal")
    for member in members:
        r = await fake.click(member, table(), label=t(L, "pt.button.bet"))
        results.append(r)
        if r.modal is not None:
            await fake.submit_modal(member, None, r.modal.custom_id, {"amount": "2"})
            await tb.quiet()

    head = _before(t(L, "pt.hint.head", cards=Raw("|")))
    not_yours = t(L, "err.pt.hint_not_your_turn")
    assumed = t(L, "pt.hint.player_banker", n=17)
    payouts = t(L, "pt.payouts")
    order = [
        "pt.button.declare",
        "pt.button.banker_stay",
        "pt.button.stick",
        "pt.button.twist",
        "pt.button.banker_twist",
    ]
    hints: list[str] = []
    by_command = False
    for _ in range(60):
        if any(payouts in m.text for m in fake.channel_messages(world.channel) if not m.ephemeral):
            break
        shown = enabled()
        if t(L, "pt.button.hint") in shown:
            drawn = table().text
            answers = {}
            for member in members:
                r = await click(member, "pt.button.hint")
                assert r.ephemeral, r.all_text
                answers[member.name] = r.all_text
            got = [name for name, text in answers.items() if text.startswith(head)]
            assert len(got) == 1, answers  # only the member whose turn it is
            for name, text in answers.items():
                if name not in got:
                    assert text == not_yours, text
            text = answers[got[0]]
            assert assumed in text and "P-" not in text, text
            # the hint shows no card but the member's own (their Show my cards)
            turn_member = next(m for m in members if m.name == got[0])
            own = await click(turn_member, "pt.button.cards")
            shown_cards = cards_in(text)
            assert shown_cards and set(shown_cards) <= set(cards_in(own.all_text)), (text, own)
            hints.append(text)
            assert table().text == drawn  # the hints changed nothing at the table
            if not by_command:  # the command answers the same, privately
                again = await cmd(turn_member, "pontoon", "hint", {})
                assert again == text, (again, text)
                by_command = True
        acted = False
        for member in members:
            for key in order:
                if t(L, key) not in shown:
                    continue
                r = await click(member, key)
                if not r.ephemeral:
                    acted = True
                    break
            if acted:
                break
        assert acted, (shown, table().text)
    await fake.wait_until(
        lambda: any(payouts in m.text for m in fake.channel_messages(world.channel)), timeout=10
    )
    assert hints, "no decision was played"
    # after the round: the Hint is gone from the table, the command refuses privately
    assert t(L, "pt.button.hint") not in enabled()
    late = await cmd(world.bob, "pontoon", "hint", {})
    assert late == not_yours, late
    await cmd(world.alice, "pontoon", "end", {})
    # /help ends with the Learn part, privately, in the member's language
    helped = await fake.slash(world.bob, world.channel, "help")
    await tb.answered(helped)
    await tb.quiet()
    learned = helped.all_text
    # the commands, then the Learn part: as many messages as Discord's embed limits need
    assert helped.ephemeral and len(helped.messages) >= 2, learned
    for key in ("pt.learn.title", "pt.learn.round.title", "pt.learn.edge.title"):
        assert t(L, key) in learned, (key, learned[-500:])
    assert "P-" not in learned
    assert await chips() == before
    tb.assert_all_answered()
    if L != "en":
        leaks = english_leaks(hints, L, NAMES)
        assert not leaks, "\n".join(leaks[:10])
