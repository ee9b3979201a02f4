"""A worker process: its own referee server and bot processes, playing the
games it takes from the queue and sending back each outcome.

Workers die with the runner (PR_SET_PDEATHSIG), and their bots die with
them, so killing the runner, even with SIGKILL, leaves no process behind.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from referee.bots import BotLaunchError, BotSpec
from referee.games import parse_ruleset
from referee.log import LaunchErrorEntry, LogEntry
from referee.match import Match
from referee.seats import SeatClient
from referee.session import AbsentSeat, BotPool
from referee.store import FinishedGame, SeatRow
from referee.tournament.config import BotEntry, TournamentConfig
from referee.tournament.schedule import ScheduledGame, base_name

PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class WorkerFailure:
    worker: int
    message: str


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() == 1:  # the parent died before we asked
        os._exit(1)


def worker_main(
    config: TournamentConfig, worker: int, tasks: Queue[Any], results: Queue[Any]
) -> None:
    """Play games from `tasks` until a None. The config is the runner's parsed
    one (never the file again: a file edited mid-run cannot change the games)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the runner decides when to stop
    try:
        asyncio.run(_serve(config, worker, tasks, results))
    except Exception as error:  # reported, never silently lost
        results.put(WorkerFailure(worker, f"{type(error).__name__}: {error}"))


async def _serve(
    config: TournamentConfig, worker: int, tasks: Queue[Any], results: Queue[Any]
) -> None:
    database = config.database
    wal = [database.with_name(database.name + suffix) for suffix in ("-wal", "-shm")]
    hidden = [database, *wal, database.parent, config.bot_logs, *bot_homes(config)]
    pool = BotPool(
        time_control=config.time_control,
        log_dir=config.bot_logs / f"worker{worker}",
        confinement=config.confinement,
        hidden=hidden,
    )
    await pool.start()
    loop = asyncio.get_running_loop()
    try:
        while True:
            task: ScheduledGame | None = await loop.run_in_executor(None, tasks.get)
            if task is None:
                break
            results.put(await play_scheduled(pool, config, task))
            if config.fresh_process:
                await pool.retire_all()
    finally:
        await pool.close()


def bot_spec(config: TournamentConfig, entry: BotEntry, label: str) -> BotSpec:
    return BotSpec(
        entry.command,
        name=label,
        cwd=entry.cwd,
        env=entry.env,
        readable=entry.readable,
        base=config.root,
    )


def bot_homes(config: TournamentConfig) -> set[Path]:
    """Every bot's own directory (as referee.bots decides it), to hide from the others."""
    homes = set()
    for entry in config.bots:
        try:
            homes.add(bot_spec(config, entry, entry.name).layout(entry.name)[1])
        except BotLaunchError:
            continue  # it cannot start either: its seats play default actions
    return homes


async def play_scheduled(
    pool: BotPool, config: TournamentConfig, game: ScheduledGame
) -> FinishedGame:
    """Play one scheduled game; a bot that cannot start plays default actions."""
    seats: list[SeatClient] = []
    launch_errors: list[LogEntry] = []
    for index, label in enumerate(game.seats):
        entry = config.bot(base_name(label))
        spec = bot_spec(config, entry, label)
        try:
            seats.append(await pool.seat(label, spec, label, deal=game.deal_id))
        except BotLaunchError as error:
            seats.append(AbsentSeat(label, str(error)))
            launch_errors.append(LaunchErrorEntry(index, str(error)))
    match = Match(
        parse_ruleset(game.ruleset),
        seats,
        game.seed,
        game_id=game.game_id,
        bot_seeds=game.bot_seeds,
        time_control=config.time_control,
        penalties=config.penalties,
    )
    result = await match.run()
    log = result.log[:1] + launch_errors + result.log[1:]
    output = {label: pool.game_output(label) for label in game.seats}
    for label, record in zip(game.seats, result.seats):
        if record.stalled or record.crashed:
            await pool.retire(label)  # a fresh process for its next game
    rows = [
        SeatRow(
            seat=i,
            bot=base_name(label),
            score=result.result.scores[i],
            place=result.result.places[i],
            faults=record.fault_counts(),
            decisions=record.decisions,
            time_used=record.time_used,
            forfeited=record.forfeited,
        )
        for i, (label, record) in enumerate(zip(game.seats, result.seats))
    ]
    return FinishedGame(
        key=game.key,
        scores=result.result.scores,
        places=result.result.places,
        hands=result.result.hand_scores,
        teams=result.result.teams,
        log=log,
        seats=rows,
        bot_output={label: text for label, text in output.items() if text},
        protections=config.confinement.summary(),
    )
