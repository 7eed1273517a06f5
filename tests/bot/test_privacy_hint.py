"""The hint at a bot's table (bot/pontoon_hint.py, PontoonService.hint): it reads only
what the member has seen since the last shuffle, the cards it counts are kept with the
table (saved, emptied at a shuffle, bounded), and a hint asked by the wrong member or at
the wrong moment is refused with nothing changed.

Seeded rounds are played through the service with every decision taken by the hint's
best play, and at every decision the hint's text, in five languages, is compared with the
text computed after the unseen cards (the pack, the others' and the banker's face-down
cards) are reshuffled among their places: it must not change (P-DEAL-1 keeps those cards
private). Changing one of the member's own cards does change it, so the check can fail."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import NotSeated, ServiceError
from bot.pontoon import OpenPontoonTable, PontoonService, PontoonTimers
from bot.pontoon_hint import SEEN_MAX, hint_inputs, note_seen
from bot.storage import Store
from cogs.pontoon.hints import hint_text
from engine.cards import RandomChance
from engine.pontoon import PontoonRules, Table
from engine.pontoon.types import ActionKind, Event, EventKind, Phase

G, CH = 1, 10
ANN, BOB, CAT, DAN = 100, 200, 300, 400
LOCALES = ("en", "de", "fr", "hi", "fa")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.sqlite3")
    yield s
    await s.close()


def service(store: Store, seed: int) -> PontoonService:
    return PontoonService(
        store,
        chance=RandomChance(random.Random(seed)),
        timers=PontoonTimers(3600, 3600, 3600),
    )


def _unseen_places(doc: dict[str, object], seat: str) -> list[tuple[list[str], int]]:
    """Every place of a saved table holding a card ``seat`` has not seen."""
    pack = doc["pack"]
    assert isinstance(pack, list)
    places: list[tuple[list[str], int]] = [(pack, i) for i in range(len(pack))]
    hands = doc["hands"]
    assert isinstance(hands, dict)
    for other, held in hands.items():
        if other == seat:
            continue
        for hand in held:
            if not hand["shown"]:
                places += [(hand["cards"], i) for i, up in enumerate(hand["up"]) if not up]
    bh = doc.get("bhand")
    if isinstance(bh, dict) and not bh["shown"]:
        places += [(bh["cards"], i) for i, up in enumerate(bh["up"]) if not up]
    return places


def reshuffled(table: Table, seat: str, rng: random.Random) -> Table:
    doc = json.loads(json.dumps(table.to_json()))
    places = _unseen_places(doc, seat)
    codes = [where[i] for where, i in places]
    rng.shuffle(codes)
    for (where, i), code in zip(places, codes, strict=True):
        where[i] = code
    return Table.from_json(doc)


def texts(live: OpenPontoonTable, table: Table, seat: str) -> list[str]:
    """The hint's text for ``seat`` from ``table`` and what the bot keeps for the hint."""
    asked = hint_inputs(table, seat, live.seen_cards, [e.event for e in live.round_log])
    assert asked is not None
    found = asked.compute()
    cards = tuple(c.code for c in asked.hand.cards)
    return [hint_text(found, cards, loc) for loc in LOCALES]


def public_cards(live: OpenPontoonTable) -> Counter[str]:
    out: Counter[str] = Counter()
    for logged in live.round_log:
        assert logged.event.to is None
        out.update(logged.event.cards)
    return out


async def refused_unchanged(svc: PontoonService, live: OpenPontoonTable, uid: int) -> None:
    """Asking the hint refuses (privately, by the router) and changes nothing."""
    before = (live.engine.to_json(), list(live.seen_cards), live.snapshot())
    with pytest.raises(ServiceError) as exc:
        await svc.hint(live.table_id, uid)
    assert (live.engine.to_json(), list(live.seen_cards), live.snapshot()) == before
    if not isinstance(exc.value, NotSeated):
        assert exc.value.key == "err.pt.hint_not_your_turn"


async def play_rounds(
    svc: PontoonService, live: OpenPontoonTable, members: list[int], rounds: int, seed: int
) -> int:
    """Play ``rounds`` rounds taking the hint's best play; check privacy at each decision.
    Returns how many decisions were checked."""
    rng = random.Random(seed)
    checked = 0
    shown_since_shuffle: Counter[str] = Counter()
    for _ in range(rounds):
        eng = live.engine
        dealer = int(eng.banker) if eng.banker and eng.banker.isdigit() else members[0]
        await svc.deal(live.table_id, dealer)
        for _ in range(300):
            eng = live.engine
            if any(e.event.kind is EventKind.SHUFFLED for e in live.round_log):
                shown_since_shuffle = Counter()
            if eng.phase is Phase.BETTING:
                for s in eng.to_act():
                    await svc.act(live.table_id, int(s), ActionKind.BET, amount=rng.randint(1, 4))
                continue
            if eng.phase is Phase.PLAYING:
                turn = eng.turn
                assert turn is not None
                seat = turn[0]
                found, cards = await svc.hint(live.table_id, int(seat))
                said = [hint_text(found, cards, loc) for loc in LOCALES]
                assert said == texts(live, eng, seat)
                for _ in range(2):  # the unseen cards reshuffled: the same words
                    assert texts(live, reshuffled(eng, seat, rng), seat) == said
                # the check can fail: one of the member's own cards changed
                doc = json.loads(json.dumps(eng.to_json()))
                own = doc["hands"][seat][turn[1]]["cards"]
                own[0] = "5C" if own[0] != "5C" else "9D"
                changed = texts(live, Table.from_json(doc), seat)
                assert changed != said
                # everyone else asking now is refused, nothing changed
                for uid in members:
                    if str(uid) != seat:
                        await refused_unchanged(svc, live, uid)
                await refused_unchanged(svc, live, 999)  # not seated here
                best = found.best
                await svc.act(live.table_id, int(seat), best.kind, amount=best.amount)
                checked += 1
                continue
            if eng.phase is Phase.BANKER and eng.banker and eng.banker.isdigit():
                b = eng.banker
                await refused_unchanged(svc, live, int(b))  # the banker's turn: no hint
                total = eng.private_view(b)[0].total or 0
                kinds = {la.kind for la in eng.legal_actions(b)}
                kind = ActionKind.TWIST if total < 17 and ActionKind.TWIST in kinds else None
                await svc.act(live.table_id, int(b), kind or ActionKind.STICK)
                continue
            break
        assert live.engine.phase in (Phase.WAITING, Phase.ROUND_OVER)
        for uid in members:  # after the round: refused, nothing changed
            await refused_unchanged(svc, live, uid)
        # what the bot counts is only what the round's public events showed
        shown_since_shuffle += public_cards(live)
        assert not Counter(live.seen_cards) - shown_since_shuffle
        assert len(live.seen_cards) <= SEEN_MAX
    return checked


@pytest.mark.parametrize("house", [False, True])
async def test_the_hint_never_depends_on_unseen_cards(store: Store, house: bool) -> None:
    svc = service(store, seed=11 if house else 7)
    rules = PontoonRules(house_bank=house, max_bet=10)
    live = await svc.open_table(G, CH, ANN, rules, opener_name="ann")
    members = [ANN, BOB, CAT] if house else [ANN, BOB, CAT, DAN]
    for uid in members[1:]:
        await svc.act(live.table_id, uid, ActionKind.JOIN)
    checked = await play_rounds(svc, live, members, rounds=5, seed=3)
    assert checked >= 10
    await svc.shutdown()


async def test_the_cards_seen_survive_a_restart_and_the_hint_reads_the_same(
    store: Store,
) -> None:
    svc = service(store, seed=5)
    live = await svc.open_table(G, CH, ANN, PontoonRules(), opener_name="ann")
    for uid in (BOB, CAT):
        await svc.act(live.table_id, uid, ActionKind.JOIN)
    await play_rounds(svc, live, [ANN, BOB, CAT], rounds=2, seed=4)
    # the next round up to its first decision
    eng = live.engine
    await svc.deal(live.table_id, int(eng.banker or ANN))
    while live.engine.phase is Phase.BETTING:
        for s in live.engine.to_act():
            await svc.act(live.table_id, int(s), ActionKind.BET, amount=2)
    if live.engine.phase is not Phase.PLAYING:
        pytest.skip("the banker's pontoon ended this seeded round at once")
    seat = live.engine.turn[0]  # type: ignore[index]
    before = await svc.hint(live.table_id, int(seat))
    seen = list(live.seen_cards)
    await svc.shutdown()

    again = service(store, seed=5)
    [reloaded] = await again.load()
    assert reloaded.seen_cards == seen
    assert await again.hint(reloaded.table_id, int(seat)) == before
    await again.shutdown()


def test_the_cards_kept_are_emptied_at_a_shuffle_and_bounded() -> None:
    seen: list[str] = []
    codes = [f"{r}{s}" for r in ("2", "3", "4", "5", "6", "7", "8", "9") for s in "SHDC"]
    for n in range(40):  # forty rounds without a shuffle, five cards shown in each
        shown = [
            Event(EventKind.HAND_RESULT, "1", 0, tuple(codes[(n * 5 + i) % 32] for i in range(5)))
        ]
        note_seen(seen, [Event(EventKind.ROUND_OVER)], shown)
        assert len(seen) <= SEEN_MAX
    assert len(seen) == SEEN_MAX
    note_seen(seen, [Event(EventKind.SHUFFLED)], [])
    assert seen == []
    # a private card (one member's) is never kept; a card shown three times counts once
    private = Event(EventKind.CARD_DEALT, "1", 0, ("AS",), to="1")
    twisted = Event(EventKind.TWISTED, "1", 0, ("KH",))
    bust = Event(EventKind.BUST, "1", 0, ("9C", "5D", "KH"))
    result = Event(EventKind.HAND_RESULT, "1", 0, ("9C", "5D", "KH"))
    note_seen(seen, [Event(EventKind.ROUND_OVER)], [private, twisted, bust, result])
    assert sorted(seen) == ["5D", "9C", "KH"]


async def test_a_hint_the_model_cannot_work_out_is_refused_privately(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's hint refuses a pool it cannot deal (ConfigError): the member is told
    in their words, and nothing changes."""
    import bot.pontoon_hint
    from engine.errors import ConfigError

    svc = service(store, seed=5)
    live = await svc.open_table(G, CH, ANN, PontoonRules(house_bank=True), opener_name="ann")
    await svc.act(live.table_id, BOB, ActionKind.JOIN)
    for _ in range(10):
        await svc.deal(live.table_id, ANN)
        while live.engine.phase is Phase.BETTING:
            for s in live.engine.to_act():
                await svc.act(live.table_id, int(s), ActionKind.BET, amount=2)
        if live.engine.phase is Phase.PLAYING:
            break
    assert live.engine.phase is Phase.PLAYING
    seat = live.engine.turn[0]  # type: ignore[index]

    def cannot(*args: object, **kwargs: object) -> None:
        raise ConfigError("too few unseen cards for the banker's two cards")

    monkeypatch.setattr(bot.pontoon_hint, "hint", cannot)
    before = live.snapshot()
    with pytest.raises(ServiceError) as exc:
        await svc.hint(live.table_id, int(seat))
    assert exc.value.key == "err.pt.hint_unavailable" and live.snapshot() == before
    await svc.shutdown()
