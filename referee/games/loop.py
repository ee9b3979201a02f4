"""The one loop that plays a game in-process: ask every decider, apply the
choices, until the game is over. Random playouts (the conformance kit, the
transcripts, `referee bench`) and the in-process bot harness all use it, so
there is one place where a game is driven without the referee."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from referee.games.base import Action, Event, GameError, GameState

MAX_ROUNDS = 200_000

# Chooses seat's action among its legal actions, in the state as it is now.
Chooser = Callable[[GameState, int, tuple[Action, ...]], Action]


def rounds(
    state: GameState, choose: Chooser, max_rounds: int = MAX_ROUNDS
) -> Iterator[tuple[dict[int, Action], list[Event]]]:
    """Advance `state` to the end, yielding each round's choices and events."""
    for _ in range(max_rounds):
        if state.is_over:
            return
        choices = {
            seat: choose(state, seat, state.legal_actions(seat)) for seat in state.deciders()
        }
        yield choices, state.apply(choices)
    raise GameError(f"no end after {max_rounds} decision rounds")


def random_chooser(rng: random.Random) -> Chooser:
    """Uniformly random legal actions from one generator."""
    return lambda state, seat, actions: actions[rng.randrange(len(actions))]


def play_to_end(state: GameState, choose: Chooser) -> int:
    """Play `state` to the end; returns how many decisions were made."""
    return sum(len(choices) for choices, _ in rounds(state, choose))
