"""/pontoon commands: thin adapters from Discord to the PontoonService. The table's
buttons and forms, and what a click or a submit does, are in controls.py beside this file."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Literal

from discord import app_commands

from bot.casino import Start
from bot.errors import ServiceError, parse_amount
from bot.i18n import Msg, t
from bot.i18n.languages import locale_of
from bot.pontoon import CardDelivery, OpenPontoonTable, PontoonService, seat_of
from cogs.common import (
    GameBot,
    GameCommands,
    Interaction,
    in_installed_server,
    may_end,
    open_as_answer,
    opening_failed,
    place_and_rules,
    reply,
    repost_table,
)
from cogs.help import first_join_hint
from cogs.installs import everywhere
from cogs.pontoon import access
from cogs.pontoon.controls import hint_answer
from cogs.pontoon.edge import edge_of
from cogs.pontoon.limits import LIMITS
from cogs.pontoon.render import rules_text
from cogs.table_message import Click, answer, answered_in_time
from engine.pontoon import PontoonRules
from engine.pontoon.types import ActionKind


class VariationOff(ServiceError):
    """A command of a variation this table does not play (Shoot, banker doubles,
    burning): said as such, not as "not possible now". ``key``: which variation."""

    def __init__(self, key: str = "err.pt.off.shoot") -> None:
        super().__init__("This table does not play that variation.", key=key)


#: the commands only tables with a variation play: (is it played here?, refusal's message id)
#: how long /pontoon rules waits for a table's house edge not yet computed (seconds;
#: Discord wants an answer within three)
EDGE_WAIT = 2.0
#: how long /pontoon start waits for it before posting the table (the click is
#: acknowledged at 2.2 s whatever happens)
EDGE_WAIT_AT_OPEN = 1.5

VARIATIONS: dict[ActionKind, tuple[Callable[[PontoonRules], bool], str]] = {
    ActionKind.SHOOT: (lambda r: r.shoot, "err.pt.off.shoot"),
    ActionKind.KITTY: (lambda r: r.shoot, "err.pt.off.shoot"),
    ActionKind.DOUBLE: (lambda r: r.banker_doubles, "err.pt.off.doubles"),
    ActionKind.NO_DOUBLE: (lambda r: r.banker_doubles, "err.pt.off.doubles"),
    ActionKind.BURN: (lambda r: r.burn != "off", "err.pt.off.burn"),
}


def check_variation(live: OpenPontoonTable, kind: ActionKind) -> None:
    """Refuse (:class:`VariationOff`) an action of a variation this table does not play."""
    found = VARIATIONS.get(kind)
    if found is not None and not found[0](live.engine.rules):
        raise VariationOff(found[1])


@everywhere
class Pontoon(
    GameCommands[OpenPontoonTable],
    group_name="pontoon",
    group_description="Play Pontoon at this channel's table",
):
    service: PontoonService
    presenter: access.PontoonPresenter

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot, access.service(bot), access.presenter(bot))

    async def _do(
        self,
        interaction: Interaction,
        kind: ActionKind,
        *,
        amount: int | None = None,
        shoot: int | None = None,
        done: Msg | None = None,
    ) -> None:
        click = Click(interaction, "")
        locale = await locale_of(interaction)
        live = self._table(interaction)
        check_variation(live, kind)
        self.presenter.remember(live, interaction)
        if amount is not None:
            amount = parse_amount(amount)
        if shoot is not None:
            shoot = parse_amount(shoot, "shoot bet")
        with answered_in_time(click):
            await self.service.act(
                live.table_id,
                interaction.user.id,
                kind,
                amount=amount,
                shoot=shoot,
                name=interaction.user.display_name,
            )
        await answer(click, (done or Msg("pt.done")).render(locale))

    @app_commands.command(name="start", description="Open a Pontoon table in this channel")
    @app_commands.describe(
        min_bet="smallest initial bet",
        max_bet="largest initial bet",
        banker="players cut for the bank, or the house banks (for a lone player)",
        packs="number of packs (default: 1, two with 8+ players)",
        shoot="Shoot Pontoon mode with a kitty",
        kitty_min="smallest kitty in Shoot mode",
        kitty_max="largest kitty in Shoot mode",
        split_aces_only="only aces may be split",
        stick_on_16="need 16 to stick",
        banker_doubles="the banker may double all bets",
        pontoon_pays="how pontoons pay (five card tricks stay double)",
        no_buy_five_on_eleven="no buying the fifth card on 11 or less",
        royal_pontoon="three sevens pay triple",
        pontoon_strength="which pontoons are stronger",
        burn="burn a hard 13 or 14",
        turn_timer="seconds each player has to bet or act (default: the bot's setting)",
        cards="how players see face-down cards: by DM (default) or only with Show my cards",
        computer_players="computer players who sit with you (they play with the house's chips)",
    )
    async def start(
        self,
        interaction: Interaction,
        min_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        max_bet: app_commands.Range[int, 1, 1_000_000] | None = None,
        banker: Literal["players", "house"] | None = None,
        packs: app_commands.Range[int, 1, 2] | None = None,
        shoot: bool | None = None,
        kitty_min: app_commands.Range[int, 1, 1_000_000] | None = None,
        kitty_max: app_commands.Range[int, 1, 1_000_000] | None = None,
        split_aces_only: bool | None = None,
        stick_on_16: bool | None = None,
        banker_doubles: bool | None = None,
        pontoon_pays: Literal["double", "single", "triple", "players_double_banker_single"]
        | None = None,
        no_buy_five_on_eleven: bool | None = None,
        royal_pontoon: bool | None = None,
        pontoon_strength: Literal["standard", "picture_beats_ten", "ace_ten_not_pontoon", "natural"]
        | None = None,
        burn: Literal["off", "13", "14"] | None = None,
        turn_timer: app_commands.Range[int, 10, 3600] | None = None,
        cards: Literal["dm", "button"] | None = None,
        computer_players: app_commands.Range[int, 0, 3] = 0,
    ) -> None:
        locale = await locale_of(interaction)
        # an option left out takes the server's default (/casino settings)
        given: dict[str, str | bool | None] = {
            "banker": banker,
            "banker_doubles": banker_doubles,
            "pontoon_pays": pontoon_pays,
            "shoot": shoot,
            "split_aces_only": split_aces_only,
            "stick_on_16": stick_on_16,
            "no_buy_five_on_eleven": no_buy_five_on_eleven,
            "royal_pontoon": royal_pontoon,
            "pontoon_strength": pontoon_strength,
            "burn": burn,
            "cards": cards,
        }

        picked: dict[str, str | bool] = {}  # what rules() was given (cards too)
        picked_numbers: list[Mapping[str, int | None]] = []  # and its numbers

        def rules(start: Start) -> PontoonRules:
            picked.update(start.choices)
            picked_numbers.append(start.numbers)
            chosen = dict(start.choices)
            house = chosen.pop("banker") == "house"
            chosen.pop("cards")
            kitty = (start.whole("kitty_min"), start.whole("kitty_max"))
            if chosen["shoot"] and kitty[0] > kitty[1]:
                raise ServiceError(
                    "The kitty minimum cannot be above its maximum.",
                    key="err.pt.kitty_min_max",
                )
            return PontoonRules(
                min_bet=start.min_bet,
                max_bet=start.max_bet,
                packs=start.numbers["packs"],
                kitty_min=kitty[0],
                kitty_max=kitty[1],
                house_bank=house,
                **chosen,
            )

        opened = await place_and_rules(
            interaction,
            locale,
            dm=ServiceError("Pontoon tables live in server channels, not in DMs.", key="err.pt.dm"),
            service=self.service,
            limits=LIMITS,
            given=given,
            min_bet=min_bet,
            max_bet=max_bet,
            rules=rules,
            # left out: the command's own (or the bot's timer), within the server's bounds
            numbers={
                "packs": packs,
                "kitty_min": kitty_min,
                "kitty_max": kitty_max,
                "turn_timer": turn_timer,
            },
            usual={"turn_timer": int(self.service.timers.turn_seconds)},
        )
        if opened is None:
            return
        guild_id, channel_id, table_rules = opened
        if cards == "dm" and not in_installed_server(interaction):
            # where the bot may only answer interactions it sends no DM: refused rather
            # than opened with Show my cards in silence
            raise ServiceError(
                "Here face-down cards are seen only with Show my cards.",
                key="err.pt.cards_dm_here",
            )
        # where the bot may only answer interactions (a group DM) the command's answer is
        # the table itself, and face-down cards are seen only with Show my cards (the bot
        # sends no DM there)
        # the opener sits down: chips in play elsewhere or a break are refused privately
        # now, before a group DM's command is acknowledged publicly
        await self.service.check_may_stake(guild_id, interaction.user.id)
        as_answer = await open_as_answer(interaction, locale)
        delivery = CardDelivery.BUTTON if as_answer else CardDelivery(str(picked["cards"]))
        timer = picked_numbers[0].get("turn_timer", turn_timer) if picked_numbers else None
        click = Click(interaction, "")
        with answered_in_time(click):
            try:
                # the table's first message shows its house edge when it is worked out
                # in time (about half a second, once per rule set), rather than being
                # edited for it a moment later
                await edge_of(table_rules, EDGE_WAIT_AT_OPEN)
                live = await self.service.open_table(
                    guild_id,
                    channel_id,
                    interaction.user.id,
                    table_rules,
                    opener_name=interaction.user.display_name,
                    turn_seconds=float(timer) if timer else None,
                    cards=delivery,
                    computers=computer_players,
                )
            except BaseException:
                opening_failed(interaction)
                raise
        if not as_answer:
            self.presenter.remember(live, interaction)
            await answer(click, t(locale, "pt.opened"))

    @app_commands.command(name="join", description="Sit at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        # the seat limit is the engine's, checked under the table's lock
        await self._do(interaction, ActionKind.JOIN, done=Msg("pt.done.join"))
        with contextlib.suppress(ServiceError):  # seated now: the first time, point to /help
            if seat_of(interaction.user.id) in self._table(interaction).engine.seats:
                await first_join_hint(interaction, await locale_of(interaction))

    @app_commands.command(name="leave", description="Leave this channel's table (between rounds)")
    async def leave(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.LEAVE, done=Msg("pt.done.leave"))

    @app_commands.command(name="deal", description="Deal the next round (banker or opener)")
    async def deal(self, interaction: Interaction) -> None:
        click = Click(interaction, "")
        locale = await locale_of(interaction)
        live = self._table(interaction)
        self.presenter.remember(live, interaction)
        with answered_in_time(click):
            await self.service.deal(live.table_id, interaction.user.id)
        await answer(click, t(locale, "pt.done.deal"))

    @app_commands.command(name="bet", description="Place your initial bet")
    @app_commands.describe(amount="chips to bet")
    async def bet(self, interaction: Interaction, amount: int) -> None:
        await self._do(
            interaction, ActionKind.BET, amount=amount, done=Msg("pt.done.bet", amount=amount)
        )

    @app_commands.command(name="buy", description="Buy a card face down")
    @app_commands.describe(
        amount="chips to add to your bet", shoot="a shoot bet with a fourth card"
    )
    async def buy(self, interaction: Interaction, amount: int, shoot: int | None = None) -> None:
        await self._do(
            interaction,
            ActionKind.BUY,
            amount=amount,
            shoot=shoot,
            done=Msg("pt.done.buy_short", amount=amount),
        )

    @app_commands.command(name="shoot", description="Shoot bet against the kitty (0 to pass)")
    @app_commands.describe(amount="chips to bet against the kitty (0 passes)")
    async def shoot_cmd(self, interaction: Interaction, amount: int) -> None:
        await self._do(
            interaction,
            ActionKind.SHOOT,
            amount=amount,
            done=Msg("pt.done.shoot_short") if amount else Msg("pt.done.pass"),
        )

    @app_commands.command(name="twist", description="Twist: a card face up")
    @app_commands.describe(shoot="a shoot bet with a fourth card")
    async def twist(self, interaction: Interaction, shoot: int | None = None) -> None:
        await self._do(interaction, ActionKind.TWIST, shoot=shoot, done=Msg("pt.done.twist"))

    @app_commands.command(name="stick", description="Stick (15 or more); the banker stays")
    async def stick(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.STICK, done=Msg("pt.done.stick"))

    @app_commands.command(name="split", description="Split a pair")
    @app_commands.describe(shoot="Shoot mode: a shoot bet on the new hand")
    async def split(self, interaction: Interaction, shoot: int | None = None) -> None:
        await self._do(interaction, ActionKind.SPLIT, shoot=shoot, done=Msg("pt.done.split"))

    @app_commands.command(name="declare", description="Declare your pontoon")
    async def declare(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.DECLARE, done=Msg("pt.done.declare"))

    @app_commands.command(name="burn", description="Burn a hard 13/14")
    async def burn_cmd(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.BURN, done=Msg("pt.done.burn"))

    @app_commands.command(name="double", description="Banker: double all bets")
    async def double(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.DOUBLE, done=Msg("pt.done.double"))

    @app_commands.command(name="no-double", description="Banker: play on without doubling")
    async def no_double(self, interaction: Interaction) -> None:
        await self._do(interaction, ActionKind.NO_DOUBLE, done=Msg("pt.done.no_double"))

    @app_commands.command(name="cards", description="Show your cards (only you see them)")
    async def cards(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        seat = seat_of(interaction.user.id)
        await reply(interaction, self.presenter.hand_summary(live, seat, locale))

    @app_commands.command(
        name="hint", description="What each play of your hand is expected to win (only you see it)"
    )
    async def hint(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        await reply(
            interaction, await hint_answer(self.bot, live.table_id, interaction.user.id, locale)
        )

    @app_commands.command(name="rules", description="This table's rules in plain words")
    async def rules(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        try:
            live = self._table(interaction)
        except ServiceError:  # no table here (or a DM): the defaults, not a refusal
            await edge_of(PontoonRules(), EDGE_WAIT)
            await reply(
                interaction,
                rules_text(PontoonRules(), locale) + "\n" + t(locale, "pt.rules.defaults"),
            )
            return
        # computed off the loop; past EDGE_WAIT the text says it is still being worked out
        await edge_of(live.engine.rules, EDGE_WAIT)
        await reply(interaction, rules_text(live.engine.rules, locale))

    @app_commands.command(name="table", description="Post this channel's table message again")
    async def table(self, interaction: Interaction) -> None:
        await repost_table(interaction, self._table, self.presenter.repost, "pt.reposted")

    @app_commands.command(
        name="end", description="Close this channel's table; stakes in play are returned"
    )
    async def end(self, interaction: Interaction) -> None:
        locale = await locale_of(interaction)
        live = self._table(interaction)
        reason = may_end(interaction, self.service, live)
        click = Click(interaction, "")
        with answered_in_time(click):
            await self.service.close(live.table_id, reason)
        await answer(click, t(locale, "pt.done.end"))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Pontoon(bot))
