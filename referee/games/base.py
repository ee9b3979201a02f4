"""The game interface: everything the referee knows about any game.

A game is rules and nothing else: no gRPC, no processes, no files. The match
drives a `GameState` through this interface alone:

- `deciders()` names the seats that must decide now, and `decision_kinds()`
  says how each decides: one seat in turn, one seat out of turn, or several
  at once (simultaneous decisions).
- `legal_actions(seat)` enumerates each deciding seat's choices (none for a
  seat that is not deciding).
- `apply({seat: action, ...})` takes one choice per deciding seat, advances
  the state and returns the events that happened, each marked with who may
  see it. The base checks the choices (as OpenSpiel does); the game's own
  `_apply` only plays them.
- `observe(seat)` is pure and returns exactly what that seat may know.

Chance comes only from the `Chance` given at creation (seeded RNG or explicit
deck orders).
"""

from __future__ import annotations

import copy
import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from referee.cards import Card, Chance
from referee.errors import RefereeError


class GameError(RefereeError):
    """Base of errors raised by games and the registry."""


class IllegalAction(GameError):
    """An action was applied that is not among the seat's legal actions."""


class UnknownRuleset(GameError):
    """A ruleset id names no registered game or an unknown option."""


@dataclass(frozen=True)
class Action:
    """Base of every game's actions: small frozen dataclasses named as nouns.

    `label` is the human-readable form shown to bots, in logs and in the CLI.
    """

    @property
    def label(self) -> str:  # pragma: no cover - every game overrides
        raise NotImplementedError


@dataclass(frozen=True)
class Event:
    """Something that happened, with who may see it.

    `audience` is None for a public event, or the set of seats that may see
    it; an empty set means referee-only (the full record and nobody else).
    A game that shows a change differently to different seats emits one
    event per view (e.g. the drawer sees the card, the others a count).
    """

    kind: str
    text: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    audience: frozenset[int] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.audience is None or seat in self.audience

    @property
    def is_public(self) -> bool:
        return self.audience is None


def public(kind: str, text: str, seat: int | None = None, cards: Sequence[Card] = ()) -> Event:
    return Event(kind, text, seat, tuple(cards), None)


def private(
    to: Sequence[int] | frozenset[int],
    kind: str,
    text: str,
    seat: int | None = None,
    cards: Sequence[Card] = (),
) -> Event:
    return Event(kind, text, seat, tuple(cards), frozenset(to))


def places_from_scores(scores: Sequence[float]) -> tuple[int, ...]:
    """Competition ranking, highest score first: equal scores share a place (1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other > s) for s in scores)


@dataclass(frozen=True)
class Result:
    """The end of a game: final scores and places per seat (1 = first; ties
    share a place), and for multi-hand games the score of each hand."""

    scores: tuple[float, ...]
    places: tuple[int, ...]
    hand_scores: tuple[tuple[float, ...], ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class OptionSpec:
    """A game option: part of the ruleset id, e.g. `tjuv?rules=1988`."""

    name: str
    default: str
    help: str
    choices: tuple[str, ...] = ()
    is_int: bool = False

    @property
    def is_flag(self) -> bool:
        """An on/off option, written bare in a ruleset id: `indian-chief?double_deck`."""
        return self.choices == ("false", "true")

    def parse(self, raw: str) -> str:
        if self.choices and raw not in self.choices:
            allowed = ", ".join(self.choices)
            raise UnknownRuleset(
                f"option {self.name}={raw!r} is not allowed; choose one of {allowed}"
            )
        if self.is_int:
            try:
                int(raw)
            except ValueError:
                message = f"option {self.name} takes a whole number, not {raw!r}"
                raise UnknownRuleset(message) from None
        return raw


class DecisionKind(enum.Enum):
    """How a seat decides: in its own turn, out of turn (a re-capture, a steal
    by another player: the match gives it the out-of-turn limit), or at the
    same time as other seats (no one sees the others' choices first)."""

    IN_TURN = "in turn"
    OUT_OF_TURN = "out of turn"
    SIMULTANEOUS = "simultaneous"


ActionT = TypeVar("ActionT", bound=Action, covariant=True)


class _Deciding(Protocol[ActionT]):
    """What `GameState.legal_actions` needs of a state; its action type is
    the game's, so a game's state keeps its own action type for callers."""

    num_seats: int

    def deciders(self) -> tuple[int, ...]: ...

    def _legal_actions(self, seat: int) -> tuple[ActionT, ...]: ...


class GameState(ABC):
    """One game in progress. Mutated only by `apply`."""

    num_seats: int

    @abstractmethod
    def deciders(self) -> tuple[int, ...]:
        """Seats that must decide now, in seat order (empty once the game is over)."""

    @abstractmethod
    def decision_kinds(self) -> Mapping[int, DecisionKind]:
        """How each of `deciders()` decides now: SIMULTANEOUS for every one
        when several seats decide at once, else IN_TURN or OUT_OF_TURN for the
        one seat. The keys are exactly `deciders()` (the conformance kit checks)."""

    def legal_actions(self: _Deciding[ActionT], seat: int) -> tuple[ActionT, ...]:
        """The choices of `seat`, in a stable order: never empty for a deciding
        seat, empty for any other; a seat outside the game is an error."""
        if not 0 <= seat < self.num_seats:
            raise GameError(f"there is no seat {seat} in a game of {self.num_seats}")
        if seat not in self.deciders():
            return ()
        return self._legal_actions(seat)

    @abstractmethod
    def _legal_actions(self, seat: int) -> tuple[Action, ...]:
        """The choices of `seat`, which is deciding now."""

    def apply(self, choices: Mapping[int, Action]) -> list[Event]:
        """Apply exactly one legal action per deciding seat; return the events."""
        deciders = self.deciders()
        if not deciders:
            raise IllegalAction("the game is over")
        if set(choices) != set(deciders):
            raise IllegalAction(
                f"expected one choice from each of seats {list(deciders)}, "
                f"got seats {sorted(choices)}"
            )
        for seat in deciders:
            action = choices[seat]
            if not isinstance(action, Action) or action not in self._legal_actions(seat):
                raise IllegalAction(f"seat {seat} may not play {action!r} now")
        return self._apply(choices)

    @abstractmethod
    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        """Play the choices, already checked: one legal action per deciding
        seat. Return the events."""

    @abstractmethod
    def observe(self, seat: int) -> Any:
        """Everything `seat` may know now, as the game's observation dataclass."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """Final scores and places; only valid once `is_over`."""

    @abstractmethod
    def all_cards(self) -> list[Card]:
        """Every card the game holds, wherever it lies (for conservation checks)."""

    @abstractmethod
    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A copy in which the cards `seat` cannot see are permuted among the
        places it cannot see into. `observe(seat)` must be identical on both;
        the conformance kit checks that, and that the copy differs where it could."""

    def clone(self) -> GameState:
        return copy.deepcopy(self)

    def opening_events(self) -> list[Event]:
        """Events of the setup (the first deal), before any decision."""
        return []


class Game(ABC):
    """A registered game: a name, its seat range, options, rules summary and
    rulings, and a factory for states. `wire_name` names the field of the
    game's messages in the proto `Observation` and `Action` oneofs."""

    name: ClassVar[str]
    title: ClassVar[str]
    wire_name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    # The game's type, declared by each game (never inferred from seat counts):
    # a one-player game is played by exactly one seat; a simultaneous game may
    # ask several seats at once.
    one_player: ClassVar[bool]
    simultaneous: ClassVar[bool]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    summary: ClassVar[str]

    @classmethod
    def rulings(cls) -> str:
        """The Rulings section of the game module's docstring."""
        import sys

        doc = sys.modules[cls.__module__].__doc__ or ""
        _, _, after = doc.partition("Rulings")
        return after.strip(" \n:-") if after else ""

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """The seat counts this game is played by with these options (some
        options exist only for some counts, e.g. partnerships for four)."""
        return self.min_seats, self.max_seats

    @abstractmethod
    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> GameState:
        """A new game at its start; options are already validated strings."""


@dataclass(frozen=True)
class Ruleset:
    """A game plus its options; `id` is canonical (defaults left out, sorted)."""

    game: Game
    options: Mapping[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        defaults = {o.name: o.default for o in self.game.options}
        extra = sorted((k, v) for k, v in self.options.items() if defaults.get(k) != v)
        if not extra:
            return self.game.name
        flags = {o.name for o in self.game.options if o.is_flag}
        return (
            self.game.name
            + "?"
            + "&".join(k if k in flags and v == "true" else f"{k}={v}" for k, v in extra)
        )

    @property
    def all_options(self) -> dict[str, str]:
        """Every option's value, defaults included."""
        values = {o.name: o.default for o in self.game.options}
        values.update(self.options)
        return values

    @property
    def seats(self) -> tuple[int, int]:
        """The fewest and most seats this ruleset is played by."""
        return self.game.seat_range(self.all_options)

    def check_seats(self, num_seats: int) -> None:
        low, high = self.seats
        if not low <= num_seats <= high:
            raise GameError(
                f"{self.id} is played by {low}-{high} players, not {num_seats}"
                if low != high
                else f"{self.id} is played by exactly {low} player(s), not {num_seats}"
            )

    def new_state(
        self, num_seats: int, seed: int, orders: Sequence[Sequence[Card]] = ()
    ) -> GameState:
        self.check_seats(num_seats)
        return self.game.new_state(num_seats, Chance(seed, orders), self.all_options)
