"""Random playouts shared by the conformance kit, transcripts and rule tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.base import Action, Event, GameState, Ruleset
from referee.games.loop import MAX_ROUNDS, random_chooser, rounds

__all__ = ["MAX_ROUNDS", "play_out", "random_choices", "walk"]


def random_choices(state: GameState, rng: random.Random) -> dict[int, Action]:
    choose = random_chooser(rng)
    return {seat: choose(state, seat, state.legal_actions(seat)) for seat in state.deciders()}


def walk(state: GameState, rng: random.Random) -> Iterator[tuple[dict[int, Action], list[Event]]]:
    """Advance `state` with random choices to the end, yielding each round."""
    yield from rounds(state, random_chooser(rng))


def play_out(ruleset: Ruleset, num_seats: int, seed: int) -> tuple[GameState, list[str]]:
    """A whole random game; returns the final state and its readable record."""
    state = ruleset.new_state(num_seats, seed)
    rng = random.Random(seed)
    record = [f"{e.kind}|{e.audience}|{e.text}" for e in state.opening_events()]
    for choices, events in walk(state, rng):
        record += [f"choose|{s}|{a.label}" for s, a in sorted(choices.items())]
        record += [f"{e.kind}|{e.audience}|{e.text}" for e in events]
    return state, record
