"""Standings as rich tables, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from referee.ratings import (
    SOLO_NOTE,
    SORTING_NOTE,
    BotStanding,
    HeadToHead,
    head_to_head,
    standings,
)
from referee.store import Store
from referee.terminal import safe_line, safe_markup


@dataclass(frozen=True)
class EventStandings:
    event: str
    ruleset: str
    seats: int
    games: int
    scheduled: int
    rows: list[BotStanding]
    head_to_head: dict[tuple[str, str], HeadToHead]


def event_standings(store: Store) -> list[EventStandings]:
    """Standings of every event in the database, in the file's order."""
    definition = store.definition()
    scheduled = store.scheduled_per_event()
    result = []
    for event in definition["events"]:
        games = store.games(event["name"])
        result.append(
            EventStandings(
                event=event["name"],
                ruleset=event["ruleset"],
                seats=event["seats"],
                games=len(games),
                scheduled=scheduled.get(event["name"], 0),
                rows=standings(
                    games,
                    event["bots"],
                    event["seats"],
                    definition.get("penalties", {}).get("disqualify_share", 0.0),
                ),
                head_to_head=head_to_head(games) if event["seats"] == 2 else {},
            )
        )
    return result


def _faults(row: BotStanding) -> str:
    parts = [f"{kind} {count}" for kind, count in sorted(row.faults.items())]
    if row.forfeits:
        parts.append(f"forfeits {row.forfeits}")
    return ", ".join(parts) or "-"


def _bot(name: str) -> Text:
    """A bot's name as a table cell: shown as it is, never as markup or escapes."""
    return Text(safe_line(name))


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.1f}"


def _score(row: BotStanding) -> str:
    if not row.scores:
        return "-"
    ci = "" if math.isinf(row.score_ci) else f" ±{_number(row.score_ci)}"
    return f"{_number(row.mean_score)}{ci}"


def standings_table(event: EventStandings) -> Table:
    progress = "" if event.games == event.scheduled else f", {event.scheduled} scheduled"
    table = Table(
        title=safe_markup(
            f"{event.event}: {event.ruleset}, {event.seats} seat(s), {event.games} games{progress}",
            one_line=True,
        ),
        caption=SORTING_NOTE + (SOLO_NOTE if event.seats == 1 else ""),
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("bot", no_wrap=True)
    for name in ("games", "wins", "win %", "mean score", "mean place", "rating μ±σ"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("faults")
    for row in event.rows:
        comparisons = len(row.places)
        table.add_row(
            "DQ" if row.disqualified else str(row.rank),
            _bot(row.bot),
            str(row.games),
            f"{row.wins:g}",
            f"{100 * row.wins / comparisons:.0f}%" if comparisons else "-",
            _score(row),
            f"{row.mean_place:.2f}" if row.places else "-",
            f"{row.mu:.1f}±{row.sigma:.1f}",
            _faults(row),
        )
    return table


def head_to_head_table(event: EventStandings) -> Table | None:
    if not event.head_to_head:
        return None
    bots = [r.bot for r in event.rows]
    table = Table(
        title=safe_markup(event.event, one_line=True)
        + ": head to head (row's wins-draws-losses against column)"
    )
    table.add_column("")
    for bot in bots:
        table.add_column(_bot(bot), justify="center")
    for a in bots:
        cells = []
        for b in bots:
            h = event.head_to_head.get((a, b))
            cells.append("·" if a == b else (f"{h.wins}-{h.draws}-{h.losses}" if h else "-"))
        table.add_row(_bot(a), *cells)
    return table


def render(events: Sequence[EventStandings]) -> RenderableType:
    parts: list[RenderableType] = []
    for event in events:
        parts.append(standings_table(event))
        h2h = head_to_head_table(event)
        if h2h is not None:
            parts.append(h2h)
        parts.append(Text(""))
    return Group(*parts)


def to_json(events: Sequence[EventStandings]) -> str:
    return json.dumps(
        [
            {
                "event": e.event,
                "ruleset": e.ruleset,
                "seats": e.seats,
                "games": e.games,
                "scheduled": e.scheduled,
                "standings": [r.as_dict() for r in e.rows],
                "head_to_head": [
                    {"bot": a, "opponent": b, "wins": h.wins, "draws": h.draws, "losses": h.losses}
                    for (a, b), h in sorted(e.head_to_head.items())
                ],
                "sorting": SORTING_NOTE,
            }
            for e in events
        ],
        indent=2,
    )


def to_csv(events: Sequence[EventStandings]) -> str:
    out = io.StringIO()
    fields = [
        "event",
        "ruleset",
        "seats",
        "rank",
        "bot",
        "games",
        "wins",
        "mean_score",
        "score_ci95",
        "mean_place",
        "rating_mu",
        "rating_sigma",
        "faults",
        "forfeits",
    ]
    writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for e in events:
        for row in e.rows:
            data = row.as_dict()
            data["faults"] = ";".join(f"{k}={v}" for k, v in row.faults.items())
            data["bot"] = safe_line(row.bot)  # CSV goes to terminals too
            writer.writerow({"event": e.event, "ruleset": e.ruleset, "seats": e.seats, **data})
    return out.getvalue()
