"""The one interface every game's state offers (in the spirit of open_spiel's ``State``).

A game is a state object that the bot (or the CLI, or a test) drives like this::

    state.to_act()                    # the actors the state waits for now ([] when nobody)
    state.legal_actions(actor)        # exactly what ``actor`` may do now
    state.why_not(action)             # the RuleError ``apply`` would raise, or None
    out = state.apply(action, chance) # events and chip transfers; RuleError and NO change
    state.version                     # +1 on every applied action (stale-button check)
    state.to_json() / Game.from_json(d)   # JSON-safe, exact round trip
    state.is_terminal(); state.returns()  # a finished hand/coup; each actor's chips won
    state.observe(viewer)             # what ``viewer`` may see now (PUBLIC: everyone)

Rules are checked in one place: each game has one *refusal* function per rule, and both
``legal_actions`` (offer what has no refusal) and ``apply`` (raise the refusal) use it;
``why_not`` asks the same functions without changing anything.

Who sees what is the game's too (open_spiel's Observer): ``observe(viewer)`` is an
immutable record (frozen dataclasses, tuples) holding only what ``viewer`` may see now:
``PUBLIC`` (None) for everyone in the channel, a seat for a player (or a banker), or
the house where the rules give it something. Whatever is drawn for people is drawn from
an observation, never from the state itself, so a face-down card cannot reach the
wrong screen by a slip of the drawing code.

Chance is an explicit input: ``apply`` takes an :class:`engine.cards.Chance` (a seeded
``random.Random`` in tests, ``secrets.SystemRandom`` in production, or stacked packs);
the engines never draw randomness of their own. Chips leave a state only as
:class:`engine.records.Transfer` records, which the bot writes to its ledger in the
same transaction as the new state.

Every engine implements :class:`Game` (``engine.pontoon.Table``,
``engine.punto_banco.PuntoBancoTable``, ``engine.blackjack.BlackjackTable``; the list is
``engine.games``), and every game's actions name who acts ``actor`` (:class:`Acting`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, Protocol, Self, TypeVar, runtime_checkable

from engine.cards import Chance
from engine.errors import RuleError
from engine.records import Transfer


class Acting(Protocol):
    """What every game's action says of itself: who acts, and what kind of move it is
    (the bot's log names an action by these)."""

    @property
    def actor(self) -> str: ...

    @property
    def kind(self) -> Any: ...


ActionT = TypeVar("ActionT", bound=Acting, contravariant=True)
OfferT = TypeVar("OfferT", covariant=True)
EventT = TypeVar("EventT", covariant=True)


class Outcome(Protocol[EventT]):
    """What one ``apply`` produced: the events (who may see each is the game's business)
    and the chip transfers to write to the ledger."""

    @property
    def events(self) -> Sequence[EventT]: ...

    @property
    def transfers(self) -> Sequence[Transfer]: ...


#: the viewer of ``observe`` who is everyone in the channel (no seat, no private card)
PUBLIC: Final = None


class Observation(Protocol):
    """What one viewer may see of a game now: each game's own frozen record (Pontoon's
    ``engine.pontoon.Observation``, Punto Banco's ``PuntoBancoObservation``,
    Blackjack's ``BlackjackObservation``), holding nothing the rules keep from
    ``viewer``. The same state and viewer give an equal observation."""

    @property
    def viewer(self) -> str | None:
        """Whose observation this is: a seat, the house, or ``PUBLIC`` (None)."""
        ...


@runtime_checkable
class Game(Protocol[ActionT, OfferT, EventT]):
    """A game's state: who may act, what they may do and why not, apply, JSON."""

    @property
    def version(self) -> int:
        """+1 on every successful ``apply`` (a button built at another version is stale)."""
        ...

    def to_act(self) -> list[str]:
        """The actors whose move the state waits for ([] when it waits for nobody)."""
        ...

    def legal_actions(self, actor: str) -> Sequence[OfferT]:
        """Exactly what ``actor`` may do now (amount ranges inclusive)."""
        ...

    def why_not(self, action: ActionT) -> RuleError | None:
        """The refusal ``apply(action)`` would raise now, or None when it is allowed
        (amounts and targets included). Changes nothing."""
        ...

    def apply(self, action: ActionT, chance: Chance) -> Outcome[EventT]:
        """Apply one action. Raises ``RuleError`` and changes nothing when it is illegal."""
        ...

    def is_terminal(self) -> bool:
        """True when the current hand (round, coup) is over and settled."""
        ...

    def returns(self) -> Mapping[str, int]:
        """Each actor's net chips from the last settled hand (round, coup)."""
        ...

    def observe(self, viewer: str | None = PUBLIC) -> Observation:
        """What ``viewer`` may see now (``PUBLIC``: everyone in the channel): an immutable
        record without a card the rules keep from them. Changes nothing."""
        ...

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe snapshot; ``from_json`` restores it exactly."""
        ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...


class _HasKind(Protocol):
    @property
    def kind(self) -> Hashable: ...


StateT = TypeVar("StateT")
KindedT = TypeVar("KindedT", bound=_HasKind)
ChangeT = TypeVar("ChangeT")
Rules = Mapping[Any, tuple[Callable[[StateT, KindedT], RuleError | None], ChangeT]]


def unknown_action(rule: str) -> Callable[[Any], RuleError]:
    """A game's refusal of an action kind it does not know, citing the game's ``rule``."""

    def refuse(action: Any) -> RuleError:
        return RuleError(
            rule,
            f"unknown action {action.kind!r}",
            key="engine.unknown_action",
            action=repr(action.kind),
        )

    return refuse


def refusal_by_rules(
    rules: Rules[StateT, KindedT, ChangeT],
    state: StateT,
    action: KindedT,
    unknown: Callable[[KindedT], RuleError],
) -> RuleError | None:
    """``why_not`` for a game whose rules are a table of (check, change) per action
    kind: the kind's check, or ``unknown`` for a kind the game does not have."""
    found = rules.get(action.kind)
    return unknown(action) if found is None else found[0](state, action)


def change_by_rules(
    rules: Rules[StateT, KindedT, ChangeT],
    state: StateT,
    action: KindedT,
    unknown: Callable[[KindedT], RuleError],
) -> ChangeT:
    """``apply``'s first half for such a game: the change to make, once the action's
    check has passed (its refusal is raised otherwise, and nothing has changed)."""
    refusal = refusal_by_rules(rules, state, action, unknown)
    if refusal is not None:
        raise refusal
    return rules[action.kind][1]


__all__ = ["PUBLIC", "Game", "Observation", "Outcome", "change_by_rules", "refusal_by_rules"]
