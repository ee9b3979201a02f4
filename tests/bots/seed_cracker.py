"""A hostile bot for tests: it tries to rebuild the deal from what it is given.

On its first decision of every game it takes everything the referee told it
(GameStart: ruleset, seat, seats, game_id, seed; the events it saw so far;
its own hand in the observation) and replays candidate seeds through the
engine, looking for one whose deal shows this seat exactly what it saw:

- the GameStart seed itself;
- the old public formula of deal seeds, sha256("{tournament seed}/{event}/{deal}"),
  for tournament seeds 0..200, the ruleset id as the event, deals 0..50;
- small integers 0..100000.

It prints one line to stderr, `cracker: matched <seed>` or
`cracker: no match after <n> candidates`, then plays the first legal action.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Iterator, Sequence

from referee.games import parse_ruleset
from referee.sdk import Bot, run
from referee.v1 import referee_pb2 as pb

OLD_TOURNAMENT_SEEDS = range(201)
OLD_DEALS = range(51)
SMALL_SEEDS = range(100001)

Sighting = tuple[str, str, tuple[int, ...]]  # an event as a seat sees it: kind, text, cards


def old_public_seed(tournament_seed: int, event: str, deal: int) -> int:
    """How deal seeds were made before secret deals: a hash of public data."""
    digest = hashlib.sha256(f"{tournament_seed}/{event}/{deal}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def candidates(start: pb.GameStart) -> Iterator[int]:
    yield start.seed
    for tournament_seed in OLD_TOURNAMENT_SEEDS:
        for deal in OLD_DEALS:
            yield old_public_seed(tournament_seed, start.ruleset, deal)
    yield from SMALL_SEEDS


def sighting(event: pb.Event) -> Sighting:
    return event.kind, event.text, tuple(card.id for card in event.cards)


def hand_of(observation: pb.Observation) -> tuple[int, ...]:
    """The card ids of this seat's hand, whatever the game."""
    fields = observation.ListFields()
    if not fields:
        return ()
    inner = fields[0][1]
    hand = getattr(inner, "hand", ())
    return tuple(sorted(card.id for card in hand))


def crack(
    ruleset_id: str,
    seats: int,
    seat: int,
    seen: Sequence[Sighting],
    hand: Sequence[int],
    seeds: Iterable[int],
) -> tuple[int | None, int]:
    """The first seed whose deal shows `seat` the events it saw first and its
    hand; and how many candidates were tried."""
    ruleset = parse_ruleset(ruleset_id)
    tried = 0
    for seed in seeds:
        tried += 1
        state = ruleset.new_state(seats, seed)
        dealt = tuple(sorted(card.id for card in getattr(state.observe(seat), "hand", ())))
        if dealt != tuple(hand):
            continue
        opening = [
            (e.kind, e.text, tuple(card.id for card in e.cards))
            for e in state.opening_events()
            if e.visible_to(seat)
        ]
        if opening and list(seen[: len(opening)]) == opening:
            return seed, tried
    return None, tried


class SeedCracker(Bot):
    name = "seed-cracker"

    def __init__(self) -> None:
        self.start = pb.GameStart()
        self.seen: list[Sighting] = []
        self.tried = False

    def on_game_start(self, start: pb.GameStart) -> None:
        self.start = start
        self.seen = []
        self.tried = False

    def on_event(self, event: pb.Event) -> None:
        self.seen.append(sighting(event))

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        if not self.tried:
            self.tried = True
            start = self.start
            seed, tried = crack(
                start.ruleset,
                start.seats,
                start.seat,
                self.seen,
                hand_of(observation),
                candidates(start),
            )
            if seed is None:
                print(f"cracker: no match after {tried} candidates", file=sys.stderr)
            else:
                print(f"cracker: matched {seed}", file=sys.stderr)
        return 0


if __name__ == "__main__":
    run(SeedCracker())
