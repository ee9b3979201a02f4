"""Round robin over duplicate deals: which games a tournament plays.

For every group of bots of the game's seat count, every deal is played once
per cyclic rotation of the seats, so every bot holds every seat's cards of
every deal and the luck of the deal cancels. A 1-player ruleset plays every
bot on the same deals. The schedule is a pure function of the config, so a
rerun finds the same games under the same keys.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from referee.tournament.config import Event, TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    key: str  # unique and stable: event/group/deal/rotation
    event: str
    ruleset: str
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]  # bot name per seat (a repeated bot: "name#2" is its 2nd copy)


def deal_seed(tournament_seed: int, event: str, deal: int) -> int:
    """The seed of a deal: the same for every group and rotation (duplicate deals)."""
    digest = hashlib.sha256(f"{tournament_seed}/{event}/{deal}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


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


def event_games(config: TournamentConfig, event: Event) -> Iterator[ScheduledGame]:
    rotations = event.seats
    for group in groups(event):
        labels = seat_labels(group)
        for deal in range(event.deals):
            for rotation in range(rotations):
                seating = labels[rotation:] + labels[:rotation]
                yield ScheduledGame(
                    key=f"{event.name}/{'+'.join(labels)}/d{deal}/r{rotation}",
                    event=event.name,
                    ruleset=event.ruleset.id,
                    deal=deal,
                    rotation=rotation,
                    seed=deal_seed(config.seed, event.name, deal),
                    seats=seating,
                )


def schedule(config: TournamentConfig) -> list[ScheduledGame]:
    """All games of the tournament, deal-major within each event so that
    partial results cover all groups evenly."""
    games: list[ScheduledGame] = []
    for event in config.events:
        per_event = list(event_games(config, event))
        per_event.sort(key=lambda g: (g.deal, g.rotation))
        games.extend(per_event)
    return games


def base_name(label: str) -> str:
    """The bot a seat label belongs to: 'random#2' -> 'random'."""
    return label.split("#", 1)[0]
