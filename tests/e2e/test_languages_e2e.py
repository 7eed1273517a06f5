"""A German, French, Hindi and Persian server plays through the fake Discord without
meeting English: a Punto Banco coup (bets by form and command, refusals, payouts, odds,
balance, closing) and a Pontoon round, checked on everything members could see
(tests/e2e/i18n_check.py). German and French come from Discord (the members' client
``locale``, the server's ``guild_locale``), Persian (not a Discord locale) from
/language; a member whose Discord is French reads French privately at a German table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Raw, catalog, signed, t
from localdiscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult
from localdiscord.limits import command_problems
from tests.e2e.conftest import SHARED, Shared, StartBot, World
from tests.e2e.i18n_check import english_leaks, modal_texts, seen_by
from tests.e2e.pontoon_driver import Table, start

pytestmark = pytest.mark.e2e

NAMES = ["alice", "bob", "carol", "Casino", "pontoon"]


class Localized(Table):
    """Drives the bot with the labels members see in ``locale``."""

    locale: str = "en"
    results: list[InteractionResult]

    def pb_message(self) -> FakeMessage:
        return self.fake.latest_message_with_button(
            self.world.channel, t(self.locale, "pb.side.punto")
        )

    async def pb_form(self, member: FakeMember, side: str, amount: str) -> str:
        r = await self.fake.click(member, self.pb_message(), label=t(self.locale, side))
        self.results.append(r)
        assert r.callback_type == 9 and r.modal is not None, r.all_text
        sub = await self.fake.submit_modal(member, None, r.modal.custom_id, {"amount": amount})
        await self.answered(sub)
        return sub.all_text

    async def cmd(
        self, member: FakeMember, command: str, sub: str | None, options: dict[str, object]
    ) -> str:
        r = await self.fake.slash(member, self.world.channel, command, sub, options)
        self.results.append(r)
        await self.answered(r)
        return r.all_text

    def public(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if not m.ephemeral]


async def _languages(fake: FakeDiscord, world: World, t_: Localized, locale: str) -> None:
    """Discord locales before the bot connects; Persian chosen with /language."""
    if locale != "fa":
        fake.set_guild_locale(world.guild, locale)
        for member in (world.alice, world.bob, world.carol):
            fake.set_locale(member, locale)


@pytest.mark.parametrize("locale", ["de", "fr", "hi", "fa"])
async def test_a_server_plays_in_its_language_without_meeting_english(
    locale: str,
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
) -> None:
    tb = Localized(fake_discord, world)
    tb.locale, tb.results = locale, []
    await _languages(fake_discord, world, tb, locale)
    private_fr = locale == "de"  # carol's Discord is French on a German server
    if private_fr:
        fake_discord.set_locale(world.carol, "fr")
    await start(
        start_bot_process,
        tmp_path / "db.sqlite3",
        SHUFFLE_SEED="0",
        PUNTO_BANCO_BETTING_SECONDS="6",
    )
    if locale == "fa":
        text = await tb.cmd(world.alice, "language", None, {"server": "fa", "member": "fa"})
        assert t("fa", "lang.name.fa") in text, text
        for member in (world.bob, world.carol):
            await tb.cmd(member, "language", None, {"member": "fa"})
        # only Manage Server changes the server's language; a refusal changes nothing
        denied = await tb.cmd(world.bob, "language", None, {"server": "de"})
        assert denied == t("fa", "lang.need_manage"), denied
    carol_locale = "fr" if private_fr else locale

    # ---------------------------------------------------------------- Punto Banco
    opened = await tb.cmd(world.alice, "baccarat", "start", {"max_bet": 5000})
    assert opened == t(locale, "pb.opened", seconds=6), opened
    # the bet form is answered with the table itself, showing the bet (one request)
    placed = await tb.pb_form(world.alice, "pb.side.banco", "10")
    bet = t(locale, "pb.bet", side=t(locale, "pb.side.banco"), amount=10)
    assert t(locale, "pb.bets.line", name="alice", bets=bet) in placed, placed
    await tb.cmd(world.bob, "baccarat", "bet", {"side": "punto", "amount": 20})
    refused = await tb.cmd(world.carol, "baccarat", "bet", {"side": "banco", "amount": 2000})
    assert t(carol_locale, "engine.pb.only", amount=1000)[1:] in refused, refused
    bad = await tb.pb_form(world.carol, "pb.side.egalite", "abc")
    assert bad == t(carol_locale, "err.amount.not_number", text="abc"), bad
    payouts = t(locale, "pb.summary.payouts_title", coup=1)  # the coup's payouts
    await fake_discord.wait_until(lambda: any(payouts in m.text for m in tb.public()), timeout=25)
    await tb.quiet(grace=0.3)
    summary = next(m for m in tb.public() if payouts in m.text)
    net = signed(locale, 9)  # Persian digits in Persian
    assert t(locale, "pb.summary.net", net=net) in summary.text or net in summary.text
    odds = await tb.cmd(world.bob, "baccarat", "odds", {})
    assert t(locale, "pb.odds.edge_head") in odds, odds
    balance = await tb.cmd(world.alice, "balance", None, {})
    assert balance == t(locale, "chips.balance.self", chips=1009), balance
    ended = await tb.cmd(world.alice, "baccarat", "end", {})
    assert ended == t(locale, "pb.ended.none"), ended  # no bet was open: not "0 chips"
    closed = t(locale, "pb.table_closed", reason=t(locale, "reason.ended_by", name="alice"))
    assert any(closed in m.text for m in tb.public()), [m.text for m in tb.public()][-3:]

    # -------------------------------------------------------------------- Pontoon
    readers = {m.id: locale for m in (world.alice, world.bob, world.carol)}
    readers[world.carol.id] = carol_locale
    await _pontoon_round(fake_discord, world, tb, locale, readers)

    # ------------------------------------------------------------ what members saw
    tb.assert_all_answered()
    if private_fr:
        carol_private = [
            text
            for m in fake_discord.ephemerals(world.carol)
            for text in (m.text, *(v.text for v in m.history))
        ]
        assert carol_private and not english_leaks(carol_private, "fr", NAMES)
        assert any(t("fr", "err.amount.not_number", text="abc") in x for x in carol_private)
        people: list[FakeMember] = [world.alice, world.bob]
        forms = [r for r in tb.results if r.modal is not None and r.modal.user_id != world.carol.id]
    else:
        people = [world.alice, world.bob, world.carol]
        forms = tb.results
    seen = seen_by(fake_discord, people) + modal_texts(forms)
    assert len(seen) > 15
    leaks = english_leaks(seen, locale, NAMES)
    assert not leaks, "\n".join(leaks[:15])


def _enabled(msg: FakeMessage) -> set[str]:
    return {b.label or "" for b in msg.buttons() if not b.disabled}


async def _pontoon_round(
    fake: FakeDiscord, world: World, tb: Localized, locale: str, readers: dict[int, str]
) -> None:
    """A whole Pontoon round driven by the localized buttons: open, join, a refused deal,
    cut, bets by form, every turn (refused clicks when it is not yours), payouts."""
    L = locale
    members = [world.alice, world.bob, world.carol]

    def table() -> FakeMessage:
        return fake.latest_message_with_button(world.channel, t(L, "pt.button.cards"))

    async def click(member: FakeMember, key: str) -> InteractionResult:
        r = await fake.click(member, table(), label=t(L, key))
        tb.results.append(r)
        await tb.answered(r)
        return r

    opened = await tb.cmd(world.alice, "pontoon", "start", {"min_bet": 1, "max_bet": 10})
    assert opened == t(L, "pt.opened"), opened
    for member in members[1:]:
        await click(member, "pt.button.join")
    refused = await click(world.bob, "pt.button.deal")
    assert refused.ephemeral and "P-DEAL-1" not in refused.all_text, refused.all_text
    await click(world.alice, "pt.button.deal")
    assert t(L, "pt.ev.cut", name="x", cards="y").split()[0] in table().text  # the cut, logged
    bets = 0
    for member in members:
        r = await fake.click(member, table(), label=t(L, "pt.button.bet"))
        tb.results.append(r)
        if r.modal is None:  # the banker does not bet against themselves
            assert r.ephemeral, r.all_text
            continue
        await fake.submit_modal(member, None, r.modal.custom_id, {"amount": "2"})
        await tb.quiet()
        bets += 1
    assert bets == 2
    payouts = t(L, "pt.payouts")
    order = [
        "pt.button.declare",
        "pt.button.banker_stay",
        "pt.button.stick",
        "pt.button.twist",
        "pt.button.banker_twist",
    ]
    for _ in range(60):
        if any(payouts in m.text for m in tb.public()):
            break
        enabled = _enabled(table())
        acted = False
        for member in members:
            for key in order:
                if t(L, key) not in enabled:
                    continue
                r = await click(member, key)
                if not r.ephemeral:  # refused: not their turn, or too low to stick
                    acted = True
                    break
            if acted:
                break
        assert acted, (enabled, table().text)
    await fake.wait_until(lambda: any(payouts in m.text for m in tb.public()), timeout=10)
    rules = await tb.cmd(world.bob, "pontoon", "rules", {})
    assert t(L, "pt.rules.rank") in rules, rules
    for member in members:
        r = await fake.click(member, table(), label=t(L, "pt.button.cards"))
        tb.results.append(r)
        assert r.ephemeral
    ended = await tb.cmd(world.alice, "pontoon", "end", {})
    assert ended, ended
    # face-down cards came by DM, each in its reader's language
    dms = 0
    for member in members:
        head = t(readers[member.id], "pt.dm.head", channel=Raw("|")).split("|")[0].strip()
        for msg in fake.dms(member):
            assert msg.text.startswith(head), (member.name, msg.text)
            dms += 1
    assert dms >= 2


def _walk(cmd: dict[str, object], path: str = "") -> list[tuple[str, dict[str, object]]]:
    here = f"{path}{cmd['name']}"
    out = [(here, cmd)]
    for opt in cmd.get("options") or []:  # type: ignore[attr-defined]
        out += _walk(opt, here + " ")
    return out


def _descriptions(cmd: dict[str, Any], path: str = "cmd") -> list[tuple[str, str]]:
    """(catalog id, English description) of a command and everything under it."""
    here = f"{path}.{cmd['name']}"
    out = [(f"{here}.desc", str(cmd.get("description")))]
    for opt in cmd.get("options") or []:
        if opt.get("type") in (1, 2):  # a subcommand (group)
            out += _descriptions(opt, here)
        else:
            out.append((f"{here}.opt.{opt['name']}.desc", str(opt.get("description"))))
    return out


@SHARED
async def test_slash_commands_are_localised_for_discords_locales(shared: Shared) -> None:
    """Every command, subcommand and option has a German, French and Hindi name and
    description that Discord accepts (the fake refuses what Discord refuses), and
    choices have localized names; Persian is not a Discord locale, so it is not sent."""
    fake_discord = shared.fake
    registered = fake_discord.commands()
    assert registered, "no commands synced"
    names = {c["name"] for c in registered}
    assert {"pontoon", "baccarat", "balance", "language"} <= names
    for cmd in registered:
        assert command_problems(cmd) == []
        for where, item in _walk(cmd):
            for key in ("name_localizations", "description_localizations"):
                loc = item.get(key) or {}
                assert set(loc) == {"de", "fr", "hi"}, (where, key, loc)  # type: ignore[arg-type]
            for choice in item.get("choices") or []:  # type: ignore[attr-defined]
                if choice["value"] in {"en", "de", "fr", "hi", "fa"}:
                    continue  # a language's own name is the same for every reader
                # English clients get a choice's catalog name when its value is internal
                shown = set(choice.get("name_localizations") or {}) - {"en-US", "en-GB"}
                assert shown == {"de", "fr", "hi"}, (
                    where,
                    choice,
                )
    english = catalog("en")
    # English clients read the code's words: the English catalog's, never "…"
    astray = [
        (key, text, english.get(key))
        for cmd in registered
        for key, text in _descriptions(cmd)
        if text in ("", "…") or text != english.get(key, text)
    ]
    assert astray == []
    pontoon = next(c for c in registered if c["name"] == "pontoon")
    assert pontoon["name_localizations"]["de"] == "pontoon"  # the game's name
    twist = next(o for o in pontoon["options"] if o["name"] == "twist")
    assert twist["name_localizations"] == {"de": "ziehen", "fr": "tourner", "hi": "ट्विस्ट"}


def test_the_fake_refuses_names_discord_refuses() -> None:
    ok = {"name": "kaufen", "description": "x", "name_localizations": {"hi": "खरीदें"}}
    assert command_problems(ok) == []
    for bad in ("Kaufen", "kaufen sie", "k" * 33, ""):
        assert command_problems({"name": "buy", "name_localizations": {"de": bad}}), bad
    assert command_problems({"name": "buy", "name_localizations": {"fa": "خرید"}})
