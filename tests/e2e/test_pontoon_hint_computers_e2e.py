"""One member, the house bank and two computer players through the fake Discord, in five
languages, with the Hint pressed at every decision: the member reads the hint privately
on their turns and is told privately that a hint is for their own turn while a computer
decides; the hints change nothing at the table and show no card but the member's own;
no face-down card of the member's shows publicly; the chips of the server (members +
house + escrow) are the same after the round."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.i18n import Raw, t
from localdiscord import FakeDiscord, FakeMessage, InteractionResult
from tests.e2e.conftest import StartBot, World
from tests.e2e.i18n_check import english_leaks
from tests.e2e.pontoon_driver import Table, cards_in, start
from tests.e2e.test_pontoon_computers_e2e import held
from tests.e2e.test_pontoon_e2e import outside_the_cut

pytestmark = pytest.mark.e2e

NAMES = ["alice", "bob", "carol", "Casino", "pontoon"]
ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069\u200e\u200f"))


def plain(text: str) -> str:
    """``text`` without the direction marks a right-to-left language adds round names."""
    return text.translate(ISOLATES)


@pytest.mark.parametrize("locale", ["en", "de", "fr", "hi", "fa"])
async def test_hints_on_every_decision_with_two_computer_players(
    locale: str,
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
) -> None:
    fake = fake_discord
    L = locale
    alice = world.alice
    db = tmp_path / "db.sqlite3"
    if L not in ("en", "fa"):
        fake.set_guild_locale(world.guild, L)
        fake.set_locale(alice, L)
    tb = Table(fake, world)
    await start(start_bot_process, db, PONTOON_COMPUTER_PAUSE_SECONDS="0.6", SHUFFLE_SEED="3")
    results: list[InteractionResult] = []

    async def cmd(command: str, sub: str | None, opts: dict[str, object]) -> str:
        r = await fake.slash(alice, world.channel, command, sub, opts)
        results.append(r)
        await tb.answered(r)
        return r.all_text

    if L == "fa":
        await cmd("language", None, {"server": "fa", "member": "fa"})

    def table() -> FakeMessage:
        return fake.latest_message_with_button(world.channel, t(L, "pt.button.cards"))

    def enabled() -> set[str]:
        return {b.label or "" for b in table().buttons() if not b.disabled}

    async def click(key: str) -> InteractionResult:
        r = await fake.click(alice, table(), label=t(L, key))
        results.append(r)
        await tb.answered(r)
        return r

    opened = await cmd(
        "pontoon",
        "start",
        {"min_bet": 1, "max_bet": 10, "banker": "house", "computer_players": 2},
    )
    assert opened == t(L, "pt.opened"), opened
    for n in (1, 2):
        assert plain(t(L, "pt.computer", n=n)) in plain(table().text)
    before = held(db, world.guild.id)
    await click("pt.button.deal")
    r = await fake.click(alice, table(), label=t(L, "pt.button.bet"))
    assert r.modal is not None, r.all_text
    await tb.answered(await fake.submit_modal(alice, None, r.modal.custom_id, {"amount": "1"}))

    head = t(L, "pt.hint.head", cards=Raw("|")).split("|")[0].strip()
    not_yours = t(L, "err.pt.hint_not_your_turn")
    payouts = t(L, "pt.payouts")
    order = ["pt.button.declare", "pt.button.stick", "pt.button.twist"]
    mine: list[str] = []
    looked = False
    refused = 0  # hints asked while a computer decided
    for _ in range(300):
        if any(payouts in x for x in tb.public_texts()):
            break
        shown = enabled()
        if t(L, "pt.button.hint") not in shown:  # the house bank's turn, or a new state
            await asyncio.sleep(0.1)
            await tb.quiet()
            continue
        drawn = table().text
        answer = await click("pt.button.hint")
        assert answer.ephemeral, answer.all_text
        text = answer.all_text
        if not text.startswith(head):  # a computer decides: the hint is refused privately
            assert text == not_yours, text
            refused += 1
            await asyncio.sleep(0.1)
            await tb.quiet()
            continue
        assert "P-" not in text, text
        assert table().text == drawn  # the hint changed nothing at the table
        own = await click("pt.button.cards")
        cards = cards_in(own.all_text)
        if not looked:  # her face-down cards: hers alone while the round is played
            looked = True
            assert len(cards) == 2, own.all_text
            for public in tb.public_texts():
                for card in cards:
                    assert card not in outside_the_cut(public), public
        assert cards_in(text) and set(cards_in(text)) <= set(cards), (text, own.all_text)
        mine.append(text)
        for key in order:
            if t(L, key) not in shown:
                continue
            if not (await click(key)).ephemeral:
                break
        else:
            raise AssertionError((shown, table().text))
    else:
        raise AssertionError(f"the round did not finish: {table().text}")
    await tb.quiet()
    assert mine, "alice had no decision"
    assert refused, "no hint was asked while a computer decided"
    log = plain("\n".join(tb.public_texts()))
    # the computers played in the table's log like anyone
    for n in (1, 2):
        assert plain(t(L, "pt.computer", n=n)) in log
    # after the round the Hint is gone and the command refuses privately
    assert t(L, "pt.button.hint") not in enabled()
    assert await cmd("pontoon", "hint", {}) == not_yours
    after = held(db, world.guild.id)
    assert sum(after.values()) == sum(before.values()), (before, after)
    assert all(v == 0 for a, v in after.items() if a.startswith("escrow:"))
    tb.assert_all_answered()
    await tb.assert_ledger_ok(db)
    if L != "en":
        leaks = english_leaks(mine, L, NAMES)
        assert not leaks, "\n".join(leaks[:10])
