"""Bot processes and the endpoints they connect to, and the games played with them.

This is where processes meet the match. A `BotPool` owns the bot processes
it launches, each under a key, and gives each one an endpoint of its own (a
gRPC server on a socket in a directory only that bot can reach). It launches
a bot when a game first needs it, reuses it for later games, relaunches it
when it has died, and always ends every process it started, also when the
referee dies (a reaper process outlives it). Two guarantees live here:

- a bot process never plays the same deal twice: a key keeps a few
  processes, and a game goes to one that has not seen its deal, or to a
  fresh one (so duplicate rotations teach a bot nothing);
- fair clocks: unless pondering is allowed, every bot is frozen (cgroup
  freezer) except while it decides, so no bot runs on another's time.

`Session` is the pool as `referee play` uses it: every bot launched up front,
any failure an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from referee import cgroups, reaper, runtime
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
from referee.sandbox import Confinement, probe
from referee.seats import Fault, Reply, SeatClient
from referee.server import BotSlot, RefereeServer
from referee.v1 import referee_pb2 as pb

WATCH_INTERVAL = 0.05
CPU_CHECK_EVERY = 10  # watch rounds between two checks of every bot's CPU time
DEFAULT_CONFINEMENT = Confinement()
EXIT_GRACE_SECONDS = 3.0
KEEP_PER_KEY = 8  # processes a key keeps for deals its current one has seen


@dataclass(eq=False)
class RunningBot:
    slot: BotSlot
    process: BotProcess
    server: RefereeServer
    deals: set[str] = field(default_factory=set)


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
        self.running: dict[str, RunningBot] = {}
        self.idle: dict[str, list[RunningBot]] = {}
        self.launches = 0
        self.cpu_killed: list[str] = []
        self._watcher: asyncio.Task[None] | None = None
        self._runtime: runtime.RuntimeDir | None = None
        self._tree: cgroups.Tree | None = None
        self._reaper: subprocess.Popen[bytes] | None = None
        self._marker_prefix = f"p{secrets.token_hex(4)}-"
        self._thawed: set[RunningBot] = set()  # with fair clocks: who may run now
        self._deciding: set[RunningBot] = set()

    @property
    def freezing(self) -> bool:
        """Whether bots are frozen between their decisions (fair clocks)."""
        return (
            not self.time_control.ponder
            and self._tree is not None
            and ("freezer" in self._tree.layout.controllers)
        )

    async def start(self) -> None:
        # What a referee killed earlier left behind goes first.
        runtime.sweep()
        cgroups.sweep()
        self._runtime = runtime.RuntimeDir()
        layout = probe().cgroups
        if layout is not None:
            self._tree = cgroups.Tree(layout)
        self._reaper = reaper.start(cgroups.owner_name(), self._runtime.path, self._marker_prefix)
        self._watcher = asyncio.create_task(self._watch())

    def _all(self) -> list[RunningBot]:
        return [*self.running.values(), *(b for bots in self.idle.values() for b in bots)]

    async def _watch(self) -> None:
        """Mark a slot dead as soon as its process exits, whatever the stream
        says; kill a bot past its CPU time (children included)."""
        rounds = 0
        limit = self.confinement.limits.cpu_seconds
        while True:
            rounds += 1
            for bot in self._all():
                if bot.slot.alive and bot.process.exit_code is not None:
                    bot.slot.on_disconnect()
                checking = limit and rounds % CPU_CHECK_EVERY == 0
                if checking and bot.process.exit_code is None and over_cpu(bot, limit):
                    self.cpu_killed.append(bot.slot.label)
                    bot.process.kill()
            await asyncio.sleep(WATCH_INTERVAL)

    async def seat(
        self, key: str, spec: BotSpec, label: str | None = None, deal: str | None = None
    ) -> BotSlot:
        """The connected bot under `key`, launched (or relaunched) if needed.

        `deal` names the deal about to be played: a process never plays the
        same deal twice, so one that has seen it is replaced by a fresh one."""
        current = self.running.pop(key, None)
        if current is not None:
            self.idle.setdefault(key, []).insert(0, current)
        bench = self.idle.get(key, [])
        for bot in [b for b in bench if not _usable(b)]:
            bench.remove(bot)
            await self._end([bot])
        chosen = next((b for b in bench if deal is None or deal not in b.deals), None)
        if chosen is not None:
            bench.remove(chosen)
        else:
            chosen = await self._launch(key, spec, label)
        if deal is not None:
            chosen.deals.add(deal)
        self.running[key] = chosen
        while len(bench) >= KEEP_PER_KEY:
            await self._end([bench.pop()])
        return chosen.slot

    async def _launch(self, key: str, spec: BotSpec, label: str | None) -> RunningBot:
        assert self._runtime is not None, "start() the pool first"
        self.launches += 1
        secret = secrets.token_urlsafe(32)
        slot = BotSlot(secret, label or spec.name or spec.default_name)
        file_label = f"{key.replace('/', '_')}-{self.launches}"
        endpoint = self._runtime.endpoint_dir()  # opened to the bot's uid at launch
        server = RefereeServer(socket_path=endpoint / "referee.sock")
        server.servicer.register(slot)
        await server.start()
        try:
            process = BotProcess.launch(
                spec,
                server.address,
                secret,
                self.log_dir,
                file_label,
                self.confinement,
                hidden_from(spec, self.hidden),
                workdir=self._runtime.path,
                tree=self._tree,
                marker_prefix=self._marker_prefix,
            )
        except BotLaunchError:
            await server.stop(0)
            raise
        slot.process_alive = lambda: process.exit_code is None
        self.adopt(process)
        bot = RunningBot(slot, process, server)
        if self.freezing and process.can_freeze:
            slot.on_turn = lambda deciding: self._turn(bot, deciding)
        try:
            await self._wait_connected(slot, process)
        except BotLaunchError:
            await self._end([bot])
            raise
        if self.freezing:
            process.freeze(True)
        return bot

    def adopt(self, process: BotProcess) -> None:
        """Make a launched process's uid known to the reaper, until it is let go."""
        if process.uid is not None:
            self._tell_reaper(f"+{process.uid}")
            process.on_release = lambda uid: self._tell_reaper(f"-{uid}")

    def _tell_reaper(self, line: str) -> None:
        """Tell the reaper a bot uid this pool holds (+) or lets go (-)."""
        if self._reaper is not None and self._reaper.stdin is not None:
            with contextlib.suppress(OSError):
                self._reaper.stdin.write(f"{line}\n".encode())
                self._reaper.stdin.flush()

    def _turn(self, bot: RunningBot, deciding: bool) -> None:
        """Fair clocks: when a bot is asked to decide, every bot that is not
        deciding is frozen and this one thawed. A bot that has answered stays
        thawed until another bot's turn (it is then frozen before that bot
        runs), which saves two freezer writes per decision in a row."""
        if not deciding:
            self._deciding.discard(bot)
            return
        for other in list(self._thawed):
            if other is not bot and other not in self._deciding:
                other.process.freeze(True)
                self._thawed.discard(other)
        if bot not in self._thawed:
            bot.process.freeze(False)
            self._thawed.add(bot)
        self._deciding.add(bot)

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

    async def _end(self, bots: Sequence[RunningBot]) -> None:
        """End bots gracefully (their stream closed, thawed to see it), then kill."""
        for bot in bots:
            bot.slot.close()
            bot.process.freeze(False)
            self._thawed.discard(bot)
            self._deciding.discard(bot)
        await _wait_exit([b.process for b in bots], EXIT_GRACE_SECONDS)
        for bot in bots:
            bot.process.kill()
            await bot.server.stop(0)
            shutil.rmtree(Path(bot.server.address.removeprefix("unix://")).parent, True)

    async def retire_all(self) -> None:
        """End every bot (gracefully first): the next game launches fresh ones."""
        bots = self._all()
        self.running.clear()
        self.idle.clear()
        await self._end(bots)

    def stderr_paths(self) -> dict[str, str]:
        return {key: str(bot.process.stderr_path) for key, bot in self.running.items()}

    def game_output(self, key: str) -> str:
        """What the bot under `key` printed since the last call."""
        bot = self.running.get(key)
        return bot.process.output.take_game_output() if bot else ""

    async def retire(self, key: str) -> None:
        """End the bot under `key` (e.g. one that stalled): relaunched when next needed."""
        bot = self.running.pop(key, None)
        if bot is not None:
            await self._end([bot])

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        await self.retire_all()
        if self._tree is not None:
            self._tree.remove()
        if self._runtime is not None:
            self._runtime.remove()
        if self._reaper is not None:
            assert self._reaper.stdin is not None
            self._reaper.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._reaper.wait(timeout=10)
        if self._own_log_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)


def over_cpu(bot: RunningBot, limit: float) -> bool:
    """Whether a bot and everything it started used more CPU than it may."""
    return bot.process.cpu_seconds() > limit


def _usable(bot: RunningBot) -> bool:
    return bot.slot.alive and bot.process.exit_code is None


def hidden_from(spec: BotSpec, hidden: Sequence[Path]) -> list[Path]:
    """What to hide from this bot: never its own directories or one containing them."""
    try:
        _, folder, cwd = spec.layout(spec.name or "bot")
    except BotLaunchError:
        return list(hidden)  # the launch itself will say what is wrong
    own = [folder.resolve(), cwd.resolve()]
    return [h for h in hidden if not any(o.is_relative_to(h.resolve()) for o in own)]


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
        hidden: Sequence[Path] = (),
    ) -> None:
        self.specs = list(specs)
        self.time_control = time_control
        self.penalties = penalties
        self.pool = BotPool(
            time_control=time_control, log_dir=log_dir, confinement=confinement, hidden=hidden
        )
        self.slots: list[BotSlot] = []
        self._games = 0

    @property
    def servers(self) -> list[RefereeServer]:
        """Each bot's endpoint, in bot order."""
        return [bot.server for bot in self._launched]

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
        *,
        key: bytes | None = None,
    ) -> MatchResult:
        """Play one game; `seating[i]` is the index of the bot in seat i.

        The game id and the bots' seeds come from `key`: by default the public
        key of `seed` (reproducible), or a secret one that keeps them (and the
        deal, when `seed` comes from it too) from the bots."""
        from referee.keys import key_from_seed, opaque_id, seat_seeds

        order = list(seating) if seating is not None else list(range(len(self.slots)))
        self._games += 1
        seats: list[SeatClient] = [self.slots[i] for i in order]
        key = key if key is not None else key_from_seed(seed)
        game_id = opaque_id(key, "game", self._games)
        match = Match(
            ruleset,
            seats,
            seed,
            game_id=game_id,
            bot_seeds=seat_seeds(key, game_id, len(seats)),
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
