"""Bot processes and the server they connect to, and the games played with them.

This is where processes meet the match. A `BotPool` owns one server and the
bot processes launched for it, each under a key: it launches a bot when a
game first needs it, reuses it for later games, relaunches it when it has
died, and always ends every process it started. `Session` is the pool as
`referee play` uses it: every bot launched up front, any failure an error.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from referee.bots import BotLaunchError, BotProcess, BotSpec
from referee.games.base import Ruleset
from referee.match import (
    DEFAULT_PENALTIES,
    DEFAULT_TIME_CONTROL,
    LogSink,
    Match,
    MatchResult,
    Penalties,
    TimeControl,
)
from referee.sandbox import Confinement
from referee.seats import Fault, Reply, SeatClient
from referee.server import BotSlot, RefereeServer
from referee.v1 import referee_pb2 as pb

WATCH_INTERVAL = 0.05
DEFAULT_CONFINEMENT = Confinement()
EXIT_GRACE_SECONDS = 3.0


@dataclass
class RunningBot:
    slot: BotSlot
    process: BotProcess


class AbsentSeat:
    """A seat whose bot could not be started: every decision is a default
    action, recorded as the bot's fault (it crashed before the game)."""

    def __init__(self, name: str, reason: str) -> None:
        self._name = name
        self.reason = reason

    @property
    def name(self) -> str:
        return self._name

    @property
    def alive(self) -> bool:
        return False

    def send(self, message: pb.PlayResponse) -> None:
        pass

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        return Reply(None, Fault.CRASHED, 0.0)

    def take_faults(self) -> list[Fault]:
        return []


class BotPool:
    """Launches bots on demand under keys and keeps them for reuse."""

    def __init__(
        self,
        *,
        time_control: TimeControl = DEFAULT_TIME_CONTROL,
        log_dir: Path | None = None,
        confinement: Confinement = DEFAULT_CONFINEMENT,
        hidden: Sequence[Path] = (),
    ) -> None:
        self.time_control = time_control
        self.confinement = confinement
        self.hidden = list(hidden)
        self._own_log_dir = log_dir is None
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="referee-bots-"))
        self.server = RefereeServer()
        self.running: dict[str, RunningBot] = {}
        self.launches = 0
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.server.start()
        self._watcher = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        """Mark a slot dead as soon as its process exits, whatever the stream says."""
        while True:
            for bot in list(self.running.values()):
                if bot.slot.alive and bot.process.exit_code is not None:
                    bot.slot.on_disconnect()
            await asyncio.sleep(WATCH_INTERVAL)

    async def seat(
        self, key: str, spec: BotSpec, label: str | None = None, deal: str | None = None
    ) -> BotSlot:
        """The connected bot under `key`, launched (or relaunched) if needed.

        `deal` names the deal about to be played: a process never plays the
        same deal twice, so one that has seen it is replaced by a fresh one."""
        bot = self.running.get(key)
        if bot is not None and bot.slot.alive and bot.process.exit_code is None:
            return bot.slot
        if bot is not None:
            await self._retire(key)
        self.launches += 1
        secret = secrets.token_urlsafe(32)
        slot = self.server.register(secret, label or spec.name or spec.default_name)
        file_label = f"{key.replace('/', '_')}-{self.launches}"
        try:
            process = BotProcess.launch(
                spec,
                self.server.address,
                secret,
                self.log_dir,
                file_label,
                self.confinement,
                hidden_from(spec, self.hidden),
            )
        except BotLaunchError:
            self.server.unregister(slot)
            raise
        slot.process_alive = lambda: process.exit_code is None
        self.running[key] = RunningBot(slot, process)
        try:
            await self._wait_connected(slot, process)
        except BotLaunchError:
            await self._retire(key)
            raise
        return slot

    async def _wait_connected(self, slot: BotSlot, process: BotProcess) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.time_control.startup_seconds
        while not slot.connected.is_set():
            code = process.exit_code
            if code is not None:
                tail = process.stderr_tail(3)
                detail = f": {tail.splitlines()[-1]}" if tail else ""
                raise BotLaunchError(
                    f"bot {slot.label} ({process.spec.command!r}) exited with code {code} "
                    f"before connecting{detail}"
                )
            if loop.time() > deadline:
                raise BotLaunchError(
                    f"bot {slot.label} ({process.spec.command!r}) did not connect within "
                    f"{self.time_control.startup_seconds:g} s; does it read REFEREE_ADDRESS "
                    "and REFEREE_SECRET?"
                )
            try:
                await asyncio.wait_for(slot.connected.wait(), WATCH_INTERVAL)
            except TimeoutError:
                pass

    async def _retire(self, key: str) -> None:
        bot = self.running.pop(key)
        bot.slot.close()
        await _wait_exit([bot.process], EXIT_GRACE_SECONDS)
        bot.process.kill()
        self.server.unregister(bot.slot)

    async def retire_all(self) -> None:
        """End every bot (gracefully first): the next game launches fresh ones."""
        bots = list(self.running.values())
        self.running.clear()
        for bot in bots:
            bot.slot.close()
        await _wait_exit([b.process for b in bots], EXIT_GRACE_SECONDS)
        for bot in bots:
            bot.process.kill()
            self.server.unregister(bot.slot)

    def stderr_paths(self) -> dict[str, str]:
        return {key: str(bot.process.stderr_path) for key, bot in self.running.items()}

    def game_output(self, key: str) -> str:
        """What the bot under `key` printed since the last call."""
        bot = self.running.get(key)
        return bot.process.output.take_game_output() if bot else ""

    async def retire(self, key: str) -> None:
        """End the bot under `key` (e.g. one that stalled): relaunched when next needed."""
        if key in self.running:
            await self._retire(key)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        await self.retire_all()
        await self.server.stop()
        if self._own_log_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)


def hidden_from(spec: BotSpec, hidden: Sequence[Path]) -> list[Path]:
    """What to hide from this bot: never its own directory or one containing it."""
    cwd = (spec.cwd or Path.cwd()).resolve()
    return [h for h in hidden if not cwd.is_relative_to(h.resolve())]


async def _wait_exit(processes: Sequence[BotProcess], seconds: float) -> None:
    for _ in range(int(seconds / WATCH_INTERVAL)):
        if all(p.exit_code is not None for p in processes):
            return
        await asyncio.sleep(WATCH_INTERVAL)


class Session:
    """Use as `async with Session(specs) as session: await session.play(...)`:
    every bot is launched and connected up front; any failure is an error."""

    def __init__(
        self,
        specs: Sequence[BotSpec],
        *,
        time_control: TimeControl = DEFAULT_TIME_CONTROL,
        log_dir: Path | None = None,
        confinement: Confinement = DEFAULT_CONFINEMENT,
        penalties: Penalties = DEFAULT_PENALTIES,
    ) -> None:
        self.specs = list(specs)
        self.time_control = time_control
        self.penalties = penalties
        self.pool = BotPool(time_control=time_control, log_dir=log_dir, confinement=confinement)
        self.slots: list[BotSlot] = []
        self._games = 0

    @property
    def server(self) -> RefereeServer:
        return self.pool.server

    @property
    def processes(self) -> list[BotProcess]:
        return [bot.process for bot in self._launched]

    async def __aenter__(self) -> Session:
        self._launched: list[RunningBot] = []
        await self.pool.start()
        try:
            for index, spec in enumerate(self.specs):
                self.slots.append(await self.pool.seat(f"bot{index}", spec))
                self._launched.append(self.pool.running[f"bot{index}"])
            self._name_bots()
        except BaseException:
            await self.pool.close()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.pool.close()

    def _name_bots(self) -> None:
        """A bot without a given name is called by the name it says in its Hello."""
        names = [
            spec.name or clean_name(slot.bot_name) or slot.label
            for spec, slot in zip(self.specs, self.slots)
        ]
        for slot, label in zip(self.slots, unique_labels(names)):
            slot.label = label

    async def play(
        self,
        ruleset: Ruleset,
        seed: int,
        seating: Sequence[int] | None = None,
        on_log: LogSink | None = None,
    ) -> MatchResult:
        """Play one game; `seating[i]` is the index of the bot in seat i."""
        order = list(seating) if seating is not None else list(range(len(self.slots)))
        self._games += 1
        seats: list[SeatClient] = [self.slots[i] for i in order]
        match = Match(
            ruleset,
            seats,
            seed,
            game_id=f"g{self._games}",
            time_control=self.time_control,
            penalties=self.penalties,
            on_log=on_log,
        )
        return await match.run()


def clean_name(name: str, limit: int = 32) -> str:
    """A bot-chosen name made safe to print: printable, no spaces, bounded."""
    kept = "".join(c for c in name if c.isprintable() and not c.isspace())
    return kept[:limit]


def unique_labels(names: Sequence[str]) -> list[str]:
    """Make display names unique: a repeated name gets #1, #2, ..."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        if counts[name] == 1:
            labels.append(name)
        else:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}#{seen[name]}")
    return labels
