"""Run a tournament: schedule, resume, hand games to workers, store results.

The runner is the only writer of the database. Every finished game is
committed as it arrives, so killing the runner at any moment loses at most
the games in flight; rerunning the same file plays exactly the games that
are not stored yet, from their seeds.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from referee.errors import RefereeError
from referee.store import FinishedGame, Store
from referee.tournament.config import TournamentConfig
from referee.tournament.schedule import ScheduledGame, schedule
from referee.tournament.worker import WorkerFailure, worker_main


class TournamentError(RefereeError):
    """The tournament could not run to the end (results so far are kept)."""


@dataclass(frozen=True)
class Plan:
    total: int
    done: int
    todo: list[ScheduledGame]
    workers: int


class Progress(Protocol):
    """What the runner reports as it goes (the CLI shows it)."""

    def start(self, plan: Plan) -> None: ...

    def game_done(self, outcome: FinishedGame) -> None: ...

    def finish(self) -> None: ...


def plan(config: TournamentConfig, store: Store, workers: int | None = None) -> Plan:
    """Record the schedule and find what is left to play. The deals come from
    the key stored with the tournament (made on its first run), so a resume
    schedules the same deals."""
    key = store.claim(config.name, config.fingerprint(), config.definition(), config.deal_key)
    games = schedule(config, key)
    store.add_scheduled(games)
    finished = store.finished_keys()
    todo = [g for g in games if g.key not in finished]
    count = max(1, min(workers or config.parallel, len(todo) or 1))
    return Plan(len(games), len(games) - len(todo), todo, count)


def run(
    config: TournamentConfig,
    store: Store,
    progress: Progress,
    workers: int | None = None,
    on_plan: Callable[[Plan], None] | None = None,
) -> Plan:
    """Play every game not yet stored. Returns the plan it carried out."""
    the_plan = plan(config, store, workers)
    if on_plan is not None:
        on_plan(the_plan)
    if the_plan.todo:
        progress.start(the_plan)
        try:
            _play(config, store, the_plan, progress)
        finally:
            progress.finish()
    return the_plan


def _play(config: TournamentConfig, store: Store, the_plan: Plan, progress: Progress) -> None:
    context = multiprocessing.get_context("spawn")
    tasks: Any = context.Queue()
    results: Any = context.Queue()
    for game in the_plan.todo:
        tasks.put(game)
    for _ in range(the_plan.workers):
        tasks.put(None)
    processes = [
        context.Process(
            target=worker_main,
            args=(config, i, tasks, results),
            name=f"referee-worker-{i}",
            daemon=True,
        )
        for i in range(the_plan.workers)
    ]
    for process in processes:
        process.start()
    received = 0
    failures: list[str] = []
    try:
        while received < len(the_plan.todo):
            try:
                item = results.get(timeout=0.5)
            except queue.Empty:
                if not any(p.is_alive() for p in processes):
                    break
                continue
            if isinstance(item, WorkerFailure):
                failures.append(f"worker {item.worker}: {item.message}")
                continue
            outcome: FinishedGame = item
            store.record(outcome)
            received += 1
            progress.game_done(outcome)
    finally:
        for process in processes:
            process.join(timeout=10 if received == len(the_plan.todo) else 0.1)
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)
        tasks.close()
        results.close()
    if received < len(the_plan.todo):
        missing = len(the_plan.todo) - received
        reason = "; ".join(failures) or "the workers stopped"
        raise TournamentError(
            f"{missing} game(s) were not played ({reason}); the {received} finished are "
            "stored: run the same file again to resume"
        )
