"""Standings from stored games: wins, mean scores with confidence intervals,
mean places, openskill ratings, faults, and head-to-head tables.

Sorting (explained again under every table): mean place, lower first; ties
by wins, then mean score; bots equal on all three share a rank. In a
1-player event every deal is compared across the bots that played it, so
places and wins are per deal, by score.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from referee.store import GameRow

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip

SORTING_NOTE = (
    "Sorted by mean place (lower is better), then wins, then mean score; bots equal on "
    "all three share a rank. Wins count first places, a shared first place split between "
    "the seats sharing it. ± is the 95% confidence interval of the mean score (Student's t). "
    "Rating: openskill Plackett-Luce μ ± σ over the games in schedule order; "
    "a bot holding several seats of one game gets the mean of its seats' updates. "
    "DQ: faults in more than the tournament's disqualify_share of its games; listed last."
)
SOLO_NOTE = (
    " One-player event: each deal is compared across the bots that played it, "
    "so places and wins are per deal, by score."
)


def t95(n: int) -> float:
    """The 95% two-sided t quantile for a mean of n samples."""
    if n < 2:
        return math.inf
    return _T95[n - 2] if n - 1 <= len(_T95) else 1.96


@dataclass
class BotStanding:
    bot: str
    rank: int = 0
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    places: list[float] = field(default_factory=list)
    mu: float = 0.0
    sigma: float = 0.0
    faults: dict[str, int] = field(default_factory=dict)
    forfeits: int = 0
    time_used: float = 0.0
    decisions: int = 0
    games_with_faults: int = 0
    disqualified: bool = False

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def score_ci(self) -> float:
        n = len(self.scores)
        if n < 2:
            return math.inf
        return t95(n) * statistics.stdev(self.scores) / math.sqrt(n)

    @property
    def mean_place(self) -> float:
        return statistics.fmean(self.places) if self.places else 0.0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def sort_key(self) -> tuple[bool, float, float, float]:
        return (
            self.disqualified,
            round(self.mean_place, 9),
            -round(self.wins, 9),
            -round(self.mean_score, 9),
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "mean_score": self.mean_score,
            "score_ci95": None if math.isinf(self.score_ci) else self.score_ci,
            "mean_place": self.mean_place,
            "rating_mu": self.mu,
            "rating_sigma": self.sigma,
            "faults": dict(sorted(self.faults.items())),
            "forfeits": self.forfeits,
            "games_with_faults": self.games_with_faults,
            "disqualified": self.disqualified,
            "decisions": self.decisions,
            "time_used": self.time_used,
        }


@dataclass(frozen=True)
class Outcome:
    """One comparison of bots: who took part, their scores and places."""

    bots: list[str]
    scores: list[float]
    places: list[int]
    teams: list[list[int]]


def _outcomes(games: Sequence[GameRow], solo: bool) -> list[Outcome]:
    if not solo:
        return [
            Outcome(
                [s.bot for s in g.results],
                [s.score for s in g.results],
                [s.place for s in g.results],
                g.teams,
            )
            for g in games
        ]
    by_deal: dict[int, list[GameRow]] = defaultdict(list)
    for g in games:
        by_deal[g.seed].append(g)
    outcomes = []
    for deal_games in by_deal.values():
        scores = [g.results[0].score for g in deal_games]
        places = [1 + sum(1 for o in scores if o > s) for s in scores]
        forfeited = [g.results[0].forfeited for g in deal_games]
        places = [p + (len(places) if f else 0) for p, f in zip(places, forfeited)]
        outcomes.append(Outcome([g.results[0].bot for g in deal_games], scores, places, []))
    return outcomes


def standings(
    games: Sequence[GameRow], bots: Sequence[str], seats: int, disqualify_share: float = 0.0
) -> list[BotStanding]:
    """The standings of one event's finished games, best first; a bot with
    faults in more than `disqualify_share` of its games (if set) is
    disqualified and listed last."""
    table = {b: BotStanding(b) for b in bots}
    for game in games:
        for seat in game.results:
            row = table.setdefault(seat.bot, BotStanding(seat.bot))
            row.games += 1
            row.scores.append(seat.score)
            row.decisions += seat.decisions
            row.time_used += seat.time_used
            row.forfeits += int(seat.forfeited)
            row.games_with_faults += int(bool(seat.faults))
            for kind, count in seat.faults.items():
                row.faults[kind] = row.faults.get(kind, 0) + count
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in table}
    for outcome in _outcomes(games, solo=seats == 1):
        firsts = outcome.places.count(1)
        for bot, place in zip(outcome.bots, outcome.places):
            table[bot].places.append(place)
            if place == 1:
                table[bot].wins += 1 / firsts
        if len(outcome.bots) > 1:
            _rate(model, ratings, outcome)
    for bot, rating in ratings.items():
        table[bot].mu, table[bot].sigma = rating.mu, rating.sigma
    for row in table.values():
        share = row.games_with_faults / row.games if row.games else 0.0
        row.disqualified = disqualify_share > 0 and share > disqualify_share
    ordered = sorted(table.values(), key=BotStanding.sort_key)
    for i, row in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        row.rank = previous.rank if previous and previous.sort_key() == row.sort_key() else i + 1
    return ordered


def _rate(model: PlackettLuce, ratings: dict[str, PlackettLuceRating], outcome: Outcome) -> None:
    teams = outcome.teams or [[i] for i in range(len(outcome.bots))]
    rated = model.rate(
        [[ratings[outcome.bots[i]] for i in team] for team in teams],
        ranks=[min(outcome.places[i] for i in team) for team in teams],
    )
    updates: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for team, new in zip(teams, rated):
        for seat, rating in zip(team, new):
            updates[outcome.bots[seat]].append((rating.mu, rating.sigma))
    for bot, values in updates.items():
        rating = ratings[bot]
        rating.mu = statistics.fmean(v[0] for v in values)
        rating.sigma = min(v[1] for v in values)


@dataclass(frozen=True)
class HeadToHead:
    """Results of one bot against another in 2-seat games: wins, draws, losses."""

    wins: int
    draws: int
    losses: int


def head_to_head(games: Sequence[GameRow]) -> dict[tuple[str, str], HeadToHead]:
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for game in games:
        if len(game.results) != 2:
            continue
        a, b = game.results
        if a.bot == b.bot:
            continue
        index = 1 if a.place == b.place else (0 if a.place < b.place else 2)
        tally[(a.bot, b.bot)][index] += 1
        tally[(b.bot, a.bot)][2 - index] += 1
    return {pair: HeadToHead(*counts) for pair, counts in tally.items()}
