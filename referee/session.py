"""A referee session: one server, the bot processes it launched, their games.

This is where processes meet the match: it starts the server, launches each
bot with its secret, waits for every bot to connect within the startup
limit, plays games, and always ends every bot process it started.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from referee.bots import BotLaunchError, BotProcess, BotSpec
from referee.games.base import Ruleset
from referee.match import DEFAULT_TIME_CONTROL, LogSink, Match, MatchResult, TimeControl
from referee.server import BotSlot, RefereeServer

WATCH_INTERVAL = 0.05


class Session:
    """Use as `async with Session(specs) as session: await session.play(...)`."""

    def __init__(
        self,
        specs: Sequence[BotSpec],
        *,
        time_control: TimeControl = DEFAULT_TIME_CONTROL,
        log_dir: Path | None = None,
    ) -> None:
        self.specs = list(specs)
        self.time_control = time_control
        self._own_log_dir = log_dir is None
        self.log_dir = log_dir or Path(tempfile.mkdtemp(prefix="referee-bots-"))
        self.server = RefereeServer()
        self.slots: list[BotSlot] = []
        self.processes: list[BotProcess] = []
        self._watcher: asyncio.Task[None] | None = None
        self._games = 0

    async def __aenter__(self) -> Session:
        await self.server.start()
        try:
            for index, spec in enumerate(self.specs):
                secret = secrets.token_urlsafe(32)
                slot = self.server.register(secret, spec.name or spec.default_name)
                self.slots.append(slot)
                self.processes.append(
                    BotProcess.launch(
                        spec, self.server.address, secret, self.log_dir, f"bot{index}"
                    )
                )
            await self._wait_connected()
            self._name_bots()
        except BaseException:
            await self.close()
            raise
        self._watcher = asyncio.create_task(self._watch())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _wait_connected(self) -> None:
        deadline = asyncio.get_running_loop().time() + self.time_control.startup_seconds
        for slot, process in zip(self.slots, self.processes):
            while not slot.connected.is_set():
                code = process.exit_code
                if code is not None:
                    tail = process.stderr_tail(3)
                    detail = f": {tail.splitlines()[-1]}" if tail else ""
                    raise BotLaunchError(
                        f"bot {slot.label} ({process.spec.command!r}) exited with code {code} "
                        f"before connecting{detail}"
                    )
                if asyncio.get_running_loop().time() > deadline:
                    raise BotLaunchError(
                        f"bot {slot.label} ({process.spec.command!r}) did not connect within "
                        f"{self.time_control.startup_seconds:g} s; does it read REFEREE_ADDRESS "
                        "and REFEREE_SECRET?"
                    )
                try:
                    await asyncio.wait_for(slot.connected.wait(), WATCH_INTERVAL)
                except TimeoutError:
                    pass

    def _name_bots(self) -> None:
        """A bot without a given name is called by the name it says in its Hello."""
        names = [
            spec.name or clean_name(slot.bot_name) or slot.label
            for spec, slot in zip(self.specs, self.slots)
        ]
        for slot, label in zip(self.slots, unique_labels(names)):
            slot.label = label

    async def _watch(self) -> None:
        """Mark a slot dead as soon as its process exits, whatever the stream says."""
        while True:
            for slot, process in zip(self.slots, self.processes):
                if slot.alive and process.exit_code is not None:
                    slot.on_disconnect()
            await asyncio.sleep(WATCH_INTERVAL)

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
        match = Match(
            ruleset,
            [self.slots[i] for i in order],
            seed,
            game_id=f"g{self._games}",
            time_control=self.time_control,
            on_log=on_log,
        )
        return await match.run()

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        for slot in self.slots:
            slot.close()
        # Give well-behaved bots a moment to see the end of their stream.
        for _ in range(60):
            if all(p.exit_code is not None for p in self.processes):
                break
            await asyncio.sleep(WATCH_INTERVAL)
        for process in self.processes:
            process.kill()
        await self.server.stop()
        if self._own_log_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)


def clean_name(name: str, limit: int = 32) -> str:
    """A bot-chosen name made safe to print: printable, no spaces, bounded."""
    kept = "".join(c for c in name if c.isprintable() and not c.isspace())
    return kept[:limit]


def unique_labels(names: Sequence[str]) -> list[str]:
    """Make display names unique: a repeated name gets #2, #3, ..."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    total = {n: c for n, c in seen.items() if c > 1}
    return [f"{label}#1" if label in total else label for label in labels]
