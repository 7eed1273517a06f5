"""A group DM of three walked as its players will, in each of the five languages: alice
and bob installed the app on their accounts, carol plays by clicking. They ask /help,
/balance, /daily, /stats and /language there (no word of a server, its owners or its
channels' permissions), open a Pontoon table with the house bank and a computer player,
give bad input (Pontoon's ``cards: dm``, which no DM could carry there, a second table,
zero, negative, huge and non-numeric bets, a stale button, a double click, a click out
of turn, an /end by someone who did not open it: each refused privately, nothing
changed), ask for the hint on their turns (answered privately, with no card but their
own and the table's), watch the computer play its turns through the table's interaction
tokens (the bot posts nothing of its own there), then play a round of Blackjack with its
hint. No face-down card shows on the table before its time, the ledger audit passes and
every interaction is answered once (the conversation watch). The Pontoon part runs in
English and Persian only (:data:`PONTOON_IN`), the rest in all five."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.i18n import t
from cogs.language import language_name
from localdiscord import FakeDiscord, FakeMember, InteractionResult
from localdiscord.models import walk_components
from tests.e2e.conftest import StartBot, World
from tests.e2e.i18n_check import english_leaks
from tests.e2e.pontoon_driver import cards_in, start
from tests.e2e.test_group_dm_e2e import GroupDmTable, balances, in_group_dm, no_dm_sent
from tests.e2e.test_pontoon_e2e import outside_the_cut
from tests.e2e.test_pontoon_faults_e2e import raw_click

pytestmark = pytest.mark.e2e

LANGUAGES = ["en", "de", "fr", "fa", "hi"]
# the Pontoon walk (its computer's turns take most of a language's 20 s) in Discord's
# default language and in the right-to-left one, chosen with /language; the commands,
# their refusals and a Blackjack round in all five (the suite keeps within its time)
PONTOON_IN = {"en", "fa"}
# and the words the catalogs borrow: German says "das Kitty"
NAMES = ["alice", "bob", "carol", "friends", "Discord", "Kitty"]
# words a player outside servers must not read: a server, its owners' settings, its
# channels' permissions, the server-only commands (the catalogs' own words for them)
NOT_HERE = {
    "en": ["this server", "Manage Server", "server manager", "channel's permissions"],
    "de": ["diesem Server", "dieses Servers", "Server verwalten", "den Server verwaltet"],
    "fr": ["ce serveur", "Gérer le serveur", "gestionnaire du serveur"],
    "fa": ["این سرور", "مدیریت سرور", "مدیر سرور"],
    "hi": ["इस सर्वर", "सर्वर प्रबंधक", "सर्वर प्रबंधित"],
}
MENTION = re.compile(r"</[^>]+>|`/[^`]+`")
SERVER_COMMANDS = ("</chips", "</casino", "</give", "</leaderboard")


def plain(text: str) -> str:
    """``text`` with each command named alike, whether a mention (``</name:id>``, the
    command's own name) or as the catalog writes it without Discord (its local name)."""
    return MENTION.sub("/…", text)


class Walk:
    """One language's walk: what each member read privately, and the group DM's table."""

    def __init__(self, fake: FakeDiscord, world: World, locale: str) -> None:
        self.fake, self.world, self.L = fake, world, locale
        self.table = GroupDmTable(fake, world)
        self.results: list[InteractionResult] = []

    def private_locale(self, member: FakeMember) -> str:
        """carol chose no language (she has no app to type /language with): her private
        answers follow Discord's, which has no Persian."""
        return "en" if self.L == "fa" and member is self.world.carol else self.L

    async def slash(
        self, person: FakeMember, command: str, sub: str | None = None, **opts: object
    ) -> InteractionResult:
        r = await self.fake.slash(person, self.world.channel, command, sub, dict(opts))
        self.results.append(r)
        await self.table.answered(r)
        return r

    async def click(self, member: FakeMember, key: str) -> InteractionResult:
        r = await self.fake.click(member, self.table.message(), label=t(self.L, key))
        self.results.append(r)
        await self.table.answered(r)
        return r

    async def form(self, member: FakeMember, key: str, amount: str) -> InteractionResult:
        r = await self.fake.click(member, self.table.message(), label=t(self.L, key))
        assert r.modal is not None, r.all_text
        sub = await self.fake.submit_modal(member, None, r.modal.custom_id, {"amount": amount})
        self.results.append(sub)
        await self.table.answered(sub)
        return sub

    def enabled(self) -> set[str]:
        return {
            str(c.get("label"))
            for c in walk_components(self.table.message().components)
            if c.get("type") == 2 and not c.get("disabled")
        }

    def refused_privately(self, r: InteractionResult, drawn: str) -> None:
        assert r.callback_type == 4 and r.ephemeral, r.all_text
        assert self.table.message().text == drawn  # nothing changed

    def read(self) -> list[str]:
        """Every text the members read: their private answers and the group DM's."""
        private = [r.all_text for r in self.results if r.ephemeral]
        return private + [m.text for m in self.table.public()]

    def check_words(self) -> None:
        texts = [plain(text) for text in self.read()]  # command names are Discord's
        for text in texts:
            for words in NOT_HERE.values():  # carol reads English in the Persian walk
                for phrase in words:
                    assert phrase.lower() not in text.lower(), (phrase, text)
            for command in SERVER_COMMANDS:
                assert command not in text, text
            assert "cpu-" not in text, text  # a computer seat's id, never its name
        if self.L not in ("en", "fa"):  # (in the Persian walk carol reads English)
            leaks = english_leaks(texts, self.L, NAMES)
            assert not leaks, leaks


async def walk_commands(w: Walk) -> None:
    """/help, /balance, /daily, /stats and /language in the group DM."""
    L, bob = w.L, w.world.bob
    note = t(L, "chips.personal.note")
    r = await w.slash(bob, "help")
    assert r.ephemeral and t(L, "help.about.bot.personal") in r.all_text, r.all_text
    assert note in r.all_text
    r = await w.slash(bob, "balance")
    assert plain(r.all_text) == t(L, "chips.balance.self", chips=1000) + "\n" + note, r.all_text
    r = await w.slash(bob, "daily")
    assert plain(r.all_text) == t(L, "chips.daily", chips=1100) + "\n" + note, r.all_text
    r = await w.slash(bob, "daily")  # again: refused, nothing given
    assert r.ephemeral and "1,200" not in r.all_text, r.all_text
    r = await w.slash(bob, "stats")
    assert r.ephemeral and t(L, "stats.title", name="bob") in r.all_text, r.all_text
    r = await w.slash(bob, "language")
    shown = t(L, "lang.chosen" if L == "fa" else "lang.from_discord", language=language_name(L, L))
    assert plain(r.all_text) == plain(t(L, "lang.show.personal", member=shown)), r.all_text
    r = await w.slash(bob, "language", None, server="de")
    assert plain(r.all_text) == plain(t(L, "lang.server.personal")), r.all_text
    r = await w.slash(bob, "balance", None, member=w.world.alice)
    assert plain(r.all_text) == t(L, "chips.personal.own_only"), r.all_text


async def walk_pontoon(w: Walk, db: Path) -> None:
    L, fake, world = w.L, w.fake, w.world
    alice, bob, carol = world.alice, world.bob, world.carol
    everyone = (alice, bob, carol)
    gdm = world.channel

    # cards by DM: no DM can reach anyone here, so the option is refused, nothing opens
    r = await w.slash(alice, "pontoon", "start", cards="dm")
    assert r.ephemeral and plain(r.all_text) == t(L, "err.pt.cards_dm_here"), r.all_text
    assert not w.table.public(), [m.text for m in w.table.public()]

    r = await w.slash(
        alice, "pontoon", "start", min_bet=1, max_bet=10, banker="house", computer_players=1
    )
    table = r.require_message()
    assert not table.ephemeral and t(L, "pt.computer", n=1) in table.text, table.text
    assert t(L, "pt.footer.button") in table.text  # face-down cards: Show my cards
    # a second table here: refused privately before anything is said in public
    posted = len(w.table.public())
    r = await w.slash(bob, "pontoon", "start")
    assert r.ephemeral and plain(r.all_text) == t(L, "err.table_exists"), r.all_text
    assert len(w.table.public()) == posted
    old_deal = w.table.custom_id(t(L, "pt.button.deal"))

    await w.click(bob, "pt.button.join")
    # carol double-clicks Join: one seat, the other click told so privately
    msg = w.table.message()
    twice = await asyncio.gather(
        *(fake.click(carol, msg, label=t(L, "pt.button.join")) for _ in range(2))
    )
    for r in twice:
        w.results.append(r)
        await w.table.answered(r)
    assert sorted(r.ephemeral for r in twice) == [False, True], [r.all_text for r in twice]
    assert w.table.message().text.count("carol") == 1, w.table.message().text
    # an /end by someone who did not open it
    drawn = w.table.message().text
    r = await w.slash(bob, "pontoon", "end")
    assert plain(r.all_text) == t(L, "err.end_denied.personal"), r.all_text
    assert w.table.message().text == drawn
    # a stale Deal button (drawn before bob joined): refused, nothing dealt
    r = await raw_click(fake, w.table, alice, old_deal)
    w.results.append(r)
    assert r.ephemeral and w.table.message().text == drawn, r.all_text

    await w.click(alice, "pt.button.deal")
    first = {}
    for m in everyone:
        r = await w.click(m, "pt.button.cards")
        assert r.ephemeral and len(cards_in(r.all_text)) == 1, r.all_text
        first[m.user.name] = cards_in(r.all_text)[0]
    # bad bets: each refused privately, the table and the chips as they were
    before = await balances(db, world)
    drawn = w.table.message().text
    for amount in ("0", "-5", "99999999999", "abc"):
        r = await w.form(bob, "pt.button.bet", amount)
        w.refused_privately(r, drawn)
    assert await balances(db, world) == before
    for m, amount in zip(everyone, ("2", "3", "4"), strict=True):
        r = await w.form(m, "pt.button.bet", amount)
        assert r.callback_type == 7, r.all_text
    for card in first.values():  # dealt and bet: no face-down card on the table
        assert card not in outside_the_cut(w.table.message().text)
    hands = {}
    for m in everyone:
        r = await w.click(m, "pt.button.cards")
        hands[m.user.name] = cards_in(r.all_text)
        assert len(hands[m.user.name]) == 2, r.all_text

    # the players' turns: whoever's turn it is asks for the hint first
    computer = t(L, "pt.computer", n=1)
    hinted: set[str] = set()
    for _ in range(60):
        await w.table.quiet(grace=0.3)
        if t(L, "pt.button.deal") in w.enabled():
            break  # the round is over
        turn = None
        for m in everyone:
            r = await w.click(m, "pt.button.hint")
            ML = w.private_locale(m)
            if plain(r.all_text) != t(ML, "err.pt.hint_not_your_turn"):
                turn = m
                public = set(cards_in(outside_the_cut(w.table.message().text)))
                mine = set(hands[m.user.name]) | public
                assert r.ephemeral and set(cards_in(r.all_text)) <= mine, (r.all_text, mine)
                hinted.add(m.user.name)
                break
        if turn is None:  # the computer's turn: it plays on its own, through the tokens
            continue
        enabled = w.enabled()
        key = next(
            k
            for k in ("pt.button.declare", "pt.button.stick", "pt.button.twist")
            if t(L, k) in enabled
        )
        # out of turn: refused privately, naming whose turn it is
        other = next(m for m in everyone if m is not turn)
        drawn = w.table.message().text
        r = await w.click(other, key)
        w.refused_privately(r, drawn)
        assert turn.user.name in r.all_text, r.all_text
        # no face-down first card of those still to play shows on the table
        for name, card in first.items():  # (those still to play: a bust shows its cards)
            if name not in hinted:
                assert card not in outside_the_cut(drawn), (card, drawn)
        r = await w.click(turn, key)
        assert r.callback_type == 7, r.all_text
        r = await w.click(turn, "pt.button.cards")  # their hand now
        hands[turn.user.name] = cards_in(r.all_text)
    else:
        raise AssertionError("the round did not finish")
    assert hinted == {"alice", "bob", "carol"}, hinted
    log = w.table.message().text
    assert computer in log, log
    # the computer's moves and the round's end reached the group DM through the
    # members' interaction tokens: the bot posted nothing of its own there
    own_posts = [
        r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{gdm.id}/messages"
    ]
    assert not own_posts, own_posts
    r = await w.slash(alice, "pontoon", "end")
    assert r.ephemeral, r.all_text


async def walk_blackjack(w: Walk) -> None:
    L, world = w.L, w.world
    alice, bob, carol = world.alice, world.bob, world.carol
    r = await w.slash(bob, "blackjack", "start", betting_seconds=600)
    assert not r.require_message().ephemeral
    for m in (alice, carol):
        await w.click(m, "bj.button.join")
    drawn = w.table.message().text
    r = await w.form(carol, "bj.button.bet", "0")
    w.refused_privately(r, drawn)
    for m in (alice, carol):
        r = await w.form(m, "bj.button.bet", "10")
        assert r.callback_type == 7, r.all_text
    for _ in range(30):
        await w.table.quiet(grace=0.3)
        enabled = w.enabled()
        if t(L, "bj.button.join") in enabled:
            break  # the round is over: the next one takes seats and bets
        if t(L, "bj.button.no_insurance") in enabled:
            for m in (alice, carol):
                r = await w.click(m, "bj.button.no_insurance")
            continue
        if t(L, "bj.button.stand") not in enabled:
            continue
        for m in (alice, carol):
            r = await w.click(m, "bj.button.hint")
            if r.all_text.startswith(t(w.private_locale(m), "err.bj.hint_not_your_turn")[:12]):
                continue
            assert r.ephemeral, r.all_text
            r = await w.click(m, "bj.button.stand")
            assert r.callback_type == 7, r.all_text
            break
    r = await w.slash(bob, "blackjack", "end")
    assert r.ephemeral, r.all_text


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_group_dm_walked_as_its_players_will(
    locale: str,
    fake_discord: FakeDiscord,
    world: World,
    start_bot_process: StartBot,
    tmp_path: Path,
) -> None:
    world = in_group_dm(fake_discord, world)
    db = tmp_path / "db.sqlite3"
    await start(start_bot_process, db, PONTOON_COMPUTER_PAUSE_SECONDS="0.1", SHUFFLE_SEED="3")
    w = Walk(fake_discord, world, locale)
    for m in (world.alice, world.bob, world.carol):
        if locale != "fa":
            fake_discord.set_locale(m, locale)
        elif m is not world.carol:  # not one of Discord's: chosen with /language
            await w.slash(m, "language", None, member="fa")
    await walk_commands(w)
    if locale in PONTOON_IN:
        await walk_pontoon(w, db)
    await walk_blackjack(w)
    w.check_words()
    no_dm_sent(w.table)
    chips = await balances(db, world)
    assert all(v >= 0 for v in chips.values()), chips
    w.table.assert_all_answered()
    await w.table.assert_ledger_ok(db)
