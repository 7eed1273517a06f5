"""The Blackjack hint at a bot's table (BlackjackService.hint, cogs/blackjack/hints.py):
private figures for the member who decides, in five languages, never the hole card;
asked out of turn, not seated or after the round it is refused and changes nothing."""

from __future__ import annotations

import pytest

from bot.card_faces import card_face
from bot.errors import NotSeated, ServiceError
from bot.i18n import t
from cogs.blackjack.controls import offered
from cogs.blackjack.hints import hint_text
from engine.blackjack import ActionKind, BlackjackRules, Phase
from tests.bot.test_blackjack_service import ANN, BOB, CAT, Store, open_with_shoe, service_for

K = ActionKind
LOCALES = ("en", "de", "fr", "hi", "fa")


@pytest.mark.rule("BJ-EDGE-1", "BJ-DEAL-1")
async def test_the_hint_is_for_the_member_who_decides_and_changes_nothing(store: Store) -> None:
    service = service_for(store)
    # ann 10+6 = 16, bob 9+9; dealer 10 up, the 4 of clubs in the hole
    live = await open_with_shoe(
        service, ["TS", "9H", "TD", "6C", "9C", "4C"], BlackjackRules(decks=1, max_bet=50)
    )
    await service.join(live.table_id, ANN, name="ann")
    await service.join(live.table_id, BOB, name="bob")
    with pytest.raises(ServiceError) as err:  # no round yet
        service.hint(live.table_id, ANN)
    assert err.value.key == "err.bj.hint_not_your_turn"
    await service.bet(live.table_id, ANN, 10)
    await service.bet(live.table_id, BOB, 10)
    assert live.engine.phase is Phase.PLAYING and live.engine.dealer[1].code == "4C"
    assert "hint" in offered(live)
    before = live.engine.to_json()
    stored = await store.get_table(live.table_id)
    found = service.hint(live.table_id, ANN)
    assert found.best.kind is K.HIT  # 16 against a ten
    assert found.unseen == 52 - 5  # every card but the four shown and the hidden one
    with pytest.raises(ServiceError):  # bob's turn is not now
        service.hint(live.table_id, BOB)
    with pytest.raises(NotSeated):
        service.hint(live.table_id, CAT)
    assert live.engine.to_json() == before
    assert await store.get_table(live.table_id) == stored
    for locale in LOCALES:
        text = hint_text(found, locale)
        assert t(locale, "bj.button.hit") in text and t(locale, "bj.button.stand") in text
        assert card_face("4C") not in text and "{" not in text and "BJ-" not in text
    await service.play(live.table_id, ANN, K.STAND)
    assert {a.kind for a in service.hint(live.table_id, BOB).actions} >= {K.SPLIT, K.STAND}
    await service.play(live.table_id, BOB, K.STAND)
    assert live.engine.phase is Phase.ROUND_OVER
    with pytest.raises(ServiceError):  # after the round
        service.hint(live.table_id, BOB)
    assert "hint" not in offered(live)
