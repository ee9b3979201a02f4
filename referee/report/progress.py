"""Live progress of a tournament: a progress bar and a leader board, or, in
quiet mode, a plain line now and then for CI logs."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from referee.store import FinishedGame
from referee.terminal import safe_line
from referee.tournament.runner import Plan

QUIET_INTERVAL = 10.0


@dataclass
class _Tally:
    games: int = 0
    wins: float = 0.0
    score: float = 0.0
    place: float = 0.0


class Leaderboard:
    """Running totals per event and bot, from outcomes as they arrive."""

    def __init__(self) -> None:
        self.events: dict[str, dict[str, _Tally]] = defaultdict(lambda: defaultdict(_Tally))

    def add(self, outcome: FinishedGame) -> None:
        event = outcome.key.split("/", 1)[0]
        firsts = sum(1 for s in outcome.seats if s.place == 1)
        for seat in outcome.seats:
            tally = self.events[event][seat.bot]
            tally.games += 1
            tally.score += seat.score
            tally.place += seat.place
            if seat.place == 1 and len(outcome.seats) > 1:
                tally.wins += 1 / firsts

    def table(self, limit: int = 8) -> Table:
        table = Table(title="leader board (so far)", expand=False)
        for name in ("event", "bot", "games", "wins", "mean score", "mean place"):
            table.add_column(name, justify="left" if name in ("event", "bot") else "right")
        for event, bots in self.events.items():
            ordered = sorted(
                bots.items(), key=lambda kv: (kv[1].place / kv[1].games, -kv[1].score / kv[1].games)
            )
            for bot, t in ordered[:limit]:
                table.add_row(
                    Text(safe_line(event)),
                    Text(safe_line(bot)),
                    str(t.games),
                    f"{t.wins:g}",
                    f"{t.score / t.games:.1f}",
                    f"{t.place / t.games:.2f}",
                )
        return table


class LiveProgress:
    """A rich progress bar with a leader board that refreshes while it runs."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.board = Leaderboard()
        self.bar = Progress(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        self.task = self.bar.add_task("games", total=1, rate="")
        self.live = Live(console=console, refresh_per_second=4, transient=False)
        self.started = time.monotonic()
        self.played = 0

    def start(self, plan: Plan) -> None:
        self.bar.update(self.task, total=plan.total, completed=plan.done)
        self.started = time.monotonic()
        self.live.update(self._view())
        self.live.start()

    def _view(self) -> Group:
        return Group(self.bar, self.board.table())

    def game_done(self, outcome: FinishedGame) -> None:
        self.played += 1
        self.board.add(outcome)
        rate = self.played / max(time.monotonic() - self.started, 1e-9)
        self.bar.update(self.task, advance=1, rate=f"{rate:.1f}/s")
        self.live.update(self._view())

    def finish(self) -> None:
        self.live.stop()
        self.console.print()


class QuietProgress:
    """One plain line every few seconds and at the end."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.total = self.done = self.played = 0
        self.started = self.last = time.monotonic()

    def start(self, plan: Plan) -> None:
        self.total, self.done = plan.total, plan.done
        self.started = self.last = time.monotonic()

    def game_done(self, outcome: FinishedGame) -> None:
        self.done += 1
        self.played += 1
        now = time.monotonic()
        if now - self.last >= QUIET_INTERVAL or self.done == self.total:
            self.last = now
            rate = self.played / max(now - self.started, 1e-9)
            eta = (self.total - self.done) / rate if rate else 0
            self.console.print(
                f"{self.done}/{self.total} games, {rate:.1f}/s, ETA {eta:.0f}s", highlight=False
            )

    def finish(self) -> None:
        pass
