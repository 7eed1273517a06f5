"""End-to-end Punto Banco through the fake Discord: the real bot process (``python -m
bot``), real discord.py, members clicking the betting buttons, filling the bet form and
using /baccarat; the assertions are on what members see."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.cards import RandomChance
from engine.punto_banco import PuntoBancoRules, PuntoBancoTable, Side
from localdiscord import FakeDiscord, FakeMember, FakeMessage
from tests.e2e.conftest import StartBot, World
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e

SEED_BANCO = 0  # first coup of a fresh 1-pack shoe with SHUFFLE_SEED=0: Banco wins


class PuntoBanco(Table):
    def message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(self.world.channel, "Punto")

    async def bac(
        self, member: FakeMember, sub: str, options: dict[str, object] | None = None
    ) -> str:
        r = await self.slash(member, sub, options, command="baccarat")
        return r.all_text

    async def bet_form(self, member: FakeMember, label: str, amount: str) -> str:
        r = await self.form(member, label, amount)
        return r.all_text

    async def balance_text(self, member: FakeMember) -> str:
        r = await self.fake.slash(member, self.world.channel, "balance")
        await self.answered(r)
        return r.all_text

    async def balance(self, member: FakeMember) -> int:
        text = await self.balance_text(member)
        found = re.search(r"\*\*([\d,]+)\*\* chips", text)
        assert found, text
        return int(found.group(1).replace(",", ""))

    def public(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if not m.ephemeral]


async def test_a_coup_from_bets_to_payouts_then_the_idle_table_closes(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    expected = PuntoBancoTable(PuntoBancoRules()).deal(RandomChance(random.Random(SEED_BANCO)))
    assert expected.coup.winner is Side.BANCO
    await start(
        start_bot_process,
        tmp_path / "db.sqlite3",
        SHUFFLE_SEED=str(SEED_BANCO),
        PUNTO_BANCO_BETTING_SECONDS="6",
        PUNTO_BANCO_IDLE_MINUTES="0.2",  # two empty windows of 6 s
    )
    t = PuntoBanco(fake_discord, world)
    text = await t.bac(world.alice, "start", {"max_bet": 5000})
    assert "Punto Banco table open" in text
    assert "Betting is open" in t.embed_text()
    assert {"Punto", "Banco", "Egalité", "Repeat bet"} <= t.enabled()

    # members bet on different sides; a bet above the balance is refused, nothing moves
    # a bet by the form is answered with the new table itself: one request per interaction
    sent = len(fake_discord.requests)
    r = await t.form(world.alice, "Banco", "10")
    assert r.callback_type == 7 and "alice: Banco 10" in r.all_text, r.all_text
    assert len(fake_discord.requests) - sent == 2  # the form shown, the table updated
    assert "Bet of 20 on Punto placed" in await t.bac(
        world.bob, "bet", {"side": "punto", "amount": 20}
    )
    r = await t.form(world.carol, "Egalité", "5")
    assert r.callback_type == 7 and "carol: Egalité 5" in r.all_text, r.all_text
    refused = await t.bac(world.carol, "bet", {"side": "banco", "amount": 2000})
    assert "Bet refused" in refused and "995 chips" in refused, refused
    embed = t.embed_text()
    assert "alice: Banco 10" in embed and "bob: Punto 20" in embed
    assert "carol: Egalité 5" in embed and "Banco 2000" not in embed

    # the timer closes betting; the coup is dealt card by card in one edited message
    await fake_discord.wait_until(
        lambda: any("Coup #1:" in str(e.get("title", "")) for m in t.public() for e in m.embeds),
        timeout=20,
    )
    await t.quiet(grace=0.3)
    deal = next(m for m in t.public() if m.content.startswith("**Coup #1**"))
    assert deal.edit_count >= len(expected.coup.dealt) - 1
    assert "Banco wins" in deal.content
    for card in expected.coup.dealt:
        assert card[1].pretty in deal.content
    summary = next(
        m for m in t.public() if any("Coup #1:" in str(e.get("title", "")) for e in m.embeds)
    )
    s = summary.text
    assert "Banco wins" in s
    assert "alice: Banco 10: **won +9** (10 × 95% = 9.5, rounded down to 9)" in s, s
    assert "balance 1,009" in s
    assert "bob: Punto 20: lost −20" in s and "balance 980" in s
    assert "carol: Egalité 5: lost −5" in s and "balance 995" in s
    assert await t.balance(world.alice) == 1009

    # a new betting window opens with a fresh message; the old buttons are refused
    assert "coup #2" in t.embed_text()
    old = next(m for m in t.public() if "coup #1" in m.text and m.has_button("Punto"))
    assert "Betting is closed" in old.text and "alice: Banco 10" in old.text
    with pytest.raises(PermissionError):
        await fake_discord.click(world.bob, old, label="Repeat bet")
    # B-BET-1: Repeat bet on the new window places the last coup's bets again
    r = await t.click(world.bob, "Repeat bet")
    assert r.callback_type == 7 and "bob: Punto 20" in r.all_text, r.all_text
    assert "bob: Punto 20" in t.embed_text()

    # /baccarat odds: exact figures and the rounding warning
    odds = await t.bac(world.bob, "odds")
    assert "House edge" in odds and "multiples of 20" in odds and "rounded down" in odds

    # no bets in two windows: the table goes idle and closes
    await fake_discord.wait_until(
        lambda: any("The Punto Banco table is closed" in m.text for m in t.public()), timeout=30
    )
    closed = next(m for m in t.public() if "The Punto Banco table is closed" in m.text)
    assert "idle" in closed.text and "No bets were open" in closed.text
    assert "No table" in await t.bac(world.bob, "odds") or "default rules" in await t.bac(
        world.bob, "odds"
    )


async def test_bets_survive_a_restart_and_end_refunds_them(
    fake_discord: FakeDiscord, world: World, start_bot_process: StartBot, tmp_path: Path
) -> None:
    db = tmp_path / "db.sqlite3"
    lounge = fake_discord.add_text_channel(world.guild, "lounge")
    bot = await start(start_bot_process, db, PUNTO_BANCO_BETTING_SECONDS="300")
    t = PuntoBanco(fake_discord, world)
    await t.bac(world.alice, "start", {"packs": 8, "tableau": "standard", "max_bet": 500})
    assert "8 packs · casino standard drawing rules" in t.message().text
    assert "alice: Banco 40" in await t.bet_form(world.alice, "Banco", "40")
    await t.bac(world.bob, "bet", {"side": "punto", "amount": 25})
    # one table per channel, whatever the game; a member with bets cannot sit at Pontoon
    r = await t.slash(world.carol, "start")
    assert "already has an open table" in r.all_text
    r = await fake_discord.slash(world.bob, lounge, "pontoon", "start", {})
    await t.answered(r)
    # the refusal names the table where the chips are
    assert f"You are already playing at the table in <#{world.channel.id}>" in r.all_text, (
        r.all_text
    )
    # and a member seated at Pontoon cannot bet at Punto Banco in the same server
    r = await fake_discord.slash(world.carol, lounge, "pontoon", "start", {})
    await t.answered(r)
    assert "Table open" in r.all_text, r.all_text
    refused = await t.bac(world.carol, "bet", {"side": "punto", "amount": 5})
    assert f"You are already playing at the table in <#{lounge.id}>" in refused, refused
    r = await fake_discord.slash(world.carol, lounge, "pontoon", "end", {})
    await t.answered(r)
    assert "Table closed" in r.all_text, r.all_text
    # carol opens the bet form before the restart and submits it after
    opened = await fake_discord.click(world.carol, t.message(), label="Egalité")
    assert opened.callback_type == 9 and opened.modal is not None
    await bot.stop()

    await start(start_bot_process, db, PUNTO_BANCO_BETTING_SECONDS="300")
    await t.quiet()
    embed = t.embed_text()
    assert "alice: Banco 40" in embed and "bob: Punto 25" in embed, embed
    assert await t.balance(world.alice) == 960 and await t.balance(world.bob) == 975
    # /balance names the betting table and the open bets, as it does a Pontoon seat
    text = await t.balance_text(world.alice)
    assert text == (f"You have **960** chips (and 40 bet on the coup at <#{world.channel.id}>)."), (
        text
    )
    assert "<#" not in await t.balance_text(world.carol)  # no bet, no table named
    sub = await fake_discord.submit_modal(
        world.carol, None, opened.modal.custom_id, {"amount": "7"}
    )
    await t.answered(sub)
    assert sub.callback_type == 7 and "carol: Egalité 7" in sub.all_text, sub.all_text
    # the buttons of the reloaded message work too
    assert "alice: Banco 40, Punto 30" in await t.bet_form(world.alice, "Punto", "30")
    assert "alice: Banco 40, Punto 30" in t.embed_text()
    # /baccarat table posts the table message again at the bottom
    before = t.message().id
    assert "table message is below" in await t.bac(world.bob, "table")
    assert t.message().id != before and "alice: Banco 40" in t.embed_text()
    retired = fake_discord.message(before)  # the old copy points below, with no buttons
    assert retired.buttons() == [] and "moved below" in retired.text

    assert "Only the table's opener" in await t.bac(world.bob, "end")
    text = await t.bac(world.alice, "end")
    assert "102 chips of open bets were returned" in text, text
    closed = [m for m in t.public() if "The Punto Banco table is closed" in m.text]
    assert closed and "alice 70" in closed[-1].text and "bob 25" in closed[-1].text
    assert await t.balance(world.alice) == 1000
    assert await t.balance(world.bob) == 1000
    assert await t.balance(world.carol) == 1000
