"""A German, French, Hindi and Persian server plays a round of Blackjack through the fake
Discord without meeting English (tests/e2e/i18n_check.py): the table, its buttons and
forms, refusals, the result post, the odds, /balance and the close, on everything the
members could see. German, French and Hindi come from Discord's locales, Persian from
/language."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from localdiscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from tests.e2e.conftest import StartBot, World
from tests.e2e.i18n_check import english_leaks, modal_texts, seen_by
from tests.e2e.pontoon_driver import Table, start
from tests.e2e.test_blackjack_e2e import find_seed, predicted
from tests.e2e.test_languages_e2e import _languages

pytestmark = pytest.mark.e2e

NAMES = ["alice", "bob", "carol", "Casino", "pontoon"]


class Localized(Table):
    locale: str = "en"
    results: list[InteractionResult]

    def message(self) -> FakeMessage:
        title = t(self.locale, "bj.title", round=1).split("1")[0].strip()
        tables = [m for m in self.public() if title in m.text and m.buttons()]
        assert tables, "no table message"
        return tables[-1]

    def public(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if not m.ephemeral]

    async def cmd(
        self, member: FakeMember, command: str, sub: str | None, options: dict[str, object]
    ) -> str:
        r = await self.fake.slash(member, self.world.channel, command, sub, options)
        self.results.append(r)
        await self.answered(r)
        return r.all_text

    async def press(self, member: FakeMember, key: str) -> InteractionResult:
        r = await self.fake.click(member, self.message(), label=t(self.locale, key))
        self.results.append(r)
        await self.answered(r)
        return r

    async def bet_form(self, member: FakeMember, amount: str) -> str:
        r = await self.fake.click(member, self.message(), label=t(self.locale, "bj.button.bet"))
        self.results.append(r)
        assert r.callback_type == 9 and r.modal is not None, r.all_text
        sub = await self.fake.submit_modal(member, None, r.modal.custom_id, {"amount": amount})
        self.results.append(sub)
        await self.answered(sub)
        return sub.all_text


@pytest.mark.parametrize("locale", ["de", "fr", "hi", "fa"])
async def test_a_blackjack_round_in_the_servers_language(
    locale: str,
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
) -> None:
    L = locale
    tb = Localized(fake_discord, world)
    tb.locale, tb.results = L, []
    await _languages(fake_discord, world, tb, L)  # type: ignore[arg-type]
    alice, bob = str(world.alice.id), str(world.bob.id)
    seed = find_seed(alice, bob)
    expect = predicted(seed, alice, bob)
    await start(start_bot_process, tmp_path / "db.sqlite3", SHUFFLE_SEED=str(seed))
    if L == "fa":
        await tb.cmd(world.alice, "language", None, {"server": "fa", "member": "fa"})
        for member in (world.bob, world.carol):
            await tb.cmd(member, "language", None, {"member": "fa"})

    opened = await tb.cmd(
        world.alice, "blackjack", "start", {"max_bet": 5000, "betting_seconds": 600}
    )
    assert opened == t(L, "bj.opened", seconds=600.0), opened
    await tb.press(world.alice, "bj.button.join")
    await tb.press(world.bob, "bj.button.join")
    refused = await tb.cmd(world.bob, "blackjack", "bet", {"amount": 2000})
    said = t(L, "engine.bj.only_chips", amount=1000).rstrip(".।")[1:]  # as a clause
    assert said in refused, refused
    bad = await tb.bet_form(world.bob, "abc")
    assert bad == t(L, "err.amount.not_number", text="abc"), bad
    placed = await tb.bet_form(world.alice, "10")
    assert t(L, "bj.seat.bet", name="alice", amount=10)[1:] in placed, placed
    await tb.bet_form(world.bob, "20")  # every seat has bet: dealt at once
    hole = expect.dealer[1].pretty
    assert hole not in tb.message().text
    await tb.press(world.alice, "bj.button.stand")
    await tb.press(world.bob, "bj.button.stand")
    title = t(L, "bj.result.title", round=1)
    await fake_discord.wait_until(lambda: any(title in m.text for m in tb.public()), timeout=20)
    await tb.quiet()
    post = next(m for m in tb.public() if title in m.text)
    assert hole in post.text

    odds = await tb.cmd(world.bob, "blackjack", "odds", {"chart": False})
    assert t(L, "bj.odds.method") in odds, odds
    ended = await tb.cmd(world.alice, "blackjack", "end", {})
    assert ended == t(L, "bj.ended.none"), ended  # no bet was open: not "0 chips"

    tb.assert_all_answered()
    people = [world.alice, world.bob, world.carol]
    seen = seen_by(fake_discord, people) + modal_texts(tb.results)
    assert len(seen) > 10
    leaks = english_leaks(seen, L, NAMES)
    assert not leaks, "\n".join(leaks[:15])
