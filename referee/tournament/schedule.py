"""Round robin over duplicate deals: which games a tournament plays.

For every group of bots of the game's seat count, every deal is played once
per cyclic rotation of the seats, so every bot holds every seat's cards of
every deal and the luck of the deal cancels. A 1-player ruleset plays every
bot on the same deals. The schedule is a pure function of the config and the
tournament's secret key, so a rerun finds the same games under the same keys.

Deal seeds, the seeds bots get and the game ids sent to them all come from
the secret key (referee.keys): a bot learns nothing from them that would let
it rebuild a deal. Within each event games go group by group, and within a
group deal by deal with all its rotations in a row. A bot process must never
play the same deal twice, so a worker keeps at most `seats` processes per bot
and each moves on to the next deal; playing deal-major across groups would
need a fresh process for nearly every game. Partial results of an
interrupted run therefore cover the groups in order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from referee.keys import derive, opaque_id, seat_seeds
from referee.tournament.config import Event, TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    key: str  # unique and stable: event/group/deal/rotation; never sent to bots
    event: str
    ruleset: str
    deal: int
    rotation: int
    seed: int  # the deal's seed: secret
    seats: tuple[str, ...]  # bot name per seat (a repeated bot: "name#2" is its 2nd copy)
    game_id: str  # what bots are told: opaque, names no event, deal or rotation
    bot_seeds: tuple[int, ...]  # one per seat, for the bots' own randomness

    @property
    def deal_id(self) -> str:
        """Names the deal for the bot pool (never sent to bots)."""
        return f"{self.event}/d{self.deal}"


def deal_seed(key: bytes, event: str, deal: int) -> int:
    """The seed of a deal: the same for every group and rotation (duplicate
    deals), and secret as long as the key is."""
    return derive(key, "deal", event, deal)


def groups(event: Event) -> list[tuple[str, ...]]:
    """Every group of bots of the seat count; with self_play and too few bots,
    groups repeat bots (never a group of one bot only, unless it is alone)."""
    bots = event.bots
    if len(bots) >= event.seats:
        return list(itertools.combinations(bots, event.seats))
    if not event.self_play:
        return []
    found = [
        g for g in itertools.combinations_with_replacement(bots, event.seats) if len(set(g)) > 1
    ]
    return found or [tuple(bots[0] for _ in range(event.seats))]


def seat_labels(group: tuple[str, ...]) -> tuple[str, ...]:
    """Copies of one bot in a group get distinct process labels: name, name#2, ..."""
    seen: dict[str, int] = {}
    labels = []
    for name in group:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


def event_games(event: Event, key: bytes) -> Iterator[ScheduledGame]:
    """An event's games in order: group by group, each deal's rotations in a row."""
    rotations = event.seats
    for group in groups(event):
        labels = seat_labels(group)
        for deal in range(event.deals):
            seed = deal_seed(key, event.name, deal)
            for rotation in range(rotations):
                game_key = f"{event.name}/{'+'.join(labels)}/d{deal}/r{rotation}"
                yield ScheduledGame(
                    key=game_key,
                    event=event.name,
                    ruleset=event.ruleset.id,
                    deal=deal,
                    rotation=rotation,
                    seed=seed,
                    seats=labels[rotation:] + labels[:rotation],
                    game_id=opaque_id(key, "game", game_key),
                    bot_seeds=seat_seeds(key, game_key, event.seats),
                )


def schedule(config: TournamentConfig, key: bytes) -> list[ScheduledGame]:
    """All games of the tournament under its secret key, event by event."""
    return [game for event in config.events for game in event_games(event, key)]


def base_name(label: str) -> str:
    """The bot a seat label belongs to: 'random#2' -> 'random'."""
    return label.split("#", 1)[0]
